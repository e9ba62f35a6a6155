/* pci_test.c: the "pci" suite: bus 0 of QEMU's pc machine as enumerated at boot.
 * Run only when named: it expects the virtio disk of the blk_virtio plan entry. */
#include "ktest.h"
#include "irq.h"
#include "pci.h"
#include "string.h"
#include "virtio_blk.h"

static void host_bridge_first(struct ktest *t)
{
	struct pci_dev *p = pci_get(0);

	ASSERT_NOT_NULL(t, p);
	EXPECT_EQ(t, p->dev, 0);
	EXPECT_EQ(t, p->fn, 0);
	EXPECT_EQ(t, p->vendor, 0x8086);
	EXPECT_EQ(t, p->device, 0x1237);	/* i440FX */
	EXPECT_EQ(t, p->class, 0x06);		/* bridge */
	EXPECT_EQ(t, p->subclass, 0x00);	/* host bridge */
}

static void piix3_is_multifunction(struct ktest *t)
{
	struct pci_dev *isa = pci_find(0x8086, 0x7000, 0), *ide = pci_find(0x8086, 0x7010, 0);

	ASSERT_NOT_NULL(t, isa);
	ASSERT_NOT_NULL(t, ide);
	EXPECT_TRUE(t, isa->header_type & PCI_HEADER_MULTIFN);
	EXPECT_EQ(t, ide->dev, isa->dev);
	EXPECT_EQ(t, ide->fn, 1);
	EXPECT_EQ(t, ide->class, 0x01);		/* mass storage */
	EXPECT_EQ(t, ide->subclass, 0x01);	/* IDE */
	EXPECT_EQ(t, ide->prog_if & 0x80, 0x80);	/* bus-master capable */
	EXPECT_TRUE(t, ide->bar[4].io);
	EXPECT_EQ(t, ide->bar[4].size, 16);
	EXPECT_NE(t, ide->bar[4].base, 0);
	ASSERT_NOT_NULL(t, ide->driver);
	EXPECT_STREQ(t, ide->driver->name, "ide");
	EXPECT_TRUE(t, pci_read16(ide, PCI_COMMAND) & PCI_COMMAND_MASTER);
}

static void virtio_blk_found(struct ktest *t)
{
	struct pci_dev *v = pci_find(0x1AF4, 0x1001, 0);

	ASSERT_NOT_NULL(t, v);
	EXPECT_EQ(t, v->subsys_vendor, 0x1AF4);
	EXPECT_EQ(t, v->subsys_id, 2);		/* virtio device type 2: block */
	EXPECT_EQ(t, v->class, 0x01);
	EXPECT_TRUE(t, v->bar[0].io);
	EXPECT_GE(t, v->bar[0].size, 0x20);
	EXPECT_EQ(t, v->bar[0].size & (v->bar[0].size - 1), 0);
	EXPECT_FALSE(t, v->bar[1].io);		/* MSI-X table */
	EXPECT_TRUE(t, v->bar[4].is64);		/* modern interface: 64-bit memory BAR */
	EXPECT_EQ(t, v->bar[5].size, 0);	/* BAR4's high half is not a BAR */
	EXPECT_EQ(t, v->irq_pin, 1);		/* INTA# */
	EXPECT_GE(t, v->irq_line, 1);
	EXPECT_LE(t, v->irq_line, 15);
	ASSERT_NOT_NULL(t, v->driver);
	EXPECT_STREQ(t, v->driver->name, "virtio_blk");
	EXPECT_EQ(t, pci_read16(v, PCI_COMMAND) & (PCI_COMMAND_IO | PCI_COMMAND_MASTER),
		  PCI_COMMAND_IO | PCI_COMMAND_MASTER);
	EXPECT_GE(t, irq_count[virtio_blk_irqs(blkdev_find("vda"))->q[0].irq], 1);	/* suite order */
	ASSERT_NOT_NULL(t, pci_find(0x1AF4, 0x1001, 1));	/* vdb, the next slot */
	EXPECT_GE(t, pci_find(0x1AF4, 0x1001, 1)->dev, v->dev + 1);
}

static void config_reads_agree(struct ktest *t)
{
	for (int i = 0; i < pci_count(); i++) {
		struct pci_dev *p = pci_get(i);
		u32 id = pci_conf_read32(p->bus, p->dev, p->fn, 0);
		EXPECT_EQ(t, id & 0xFFFF, p->vendor);
		EXPECT_EQ(t, id >> 16, p->device);
		EXPECT_EQ(t, pci_read16(p, PCI_DEVICE_ID), p->device);
		EXPECT_EQ(t, pci_read8(p, PCI_CLASS), p->class);
		EXPECT_EQ(t, pci_read8(p, PCI_INTERRUPT_PIN), p->irq_pin);
		if (p->irq_pin)
			EXPECT_EQ(t, pci_read8(p, PCI_INTERRUPT_LINE), p->irq_line);
	}
	EXPECT_EQ(t, pci_conf_read32(0, 31, 0, 0), 0xFFFFFFFF);	/* empty slot */
	EXPECT_EQ(t, pci_conf_read32(0, 0, 7, 0), 0xFFFFFFFF);	/* absent function */
}

static void bars_restored_after_sizing(struct ktest *t)
{
	for (int i = 0; i < pci_count(); i++) {
		struct pci_dev *p = pci_get(i);
		for (int b = 0; b < PCI_NR_BARS; b++) {
			u32 raw = pci_read32(p, PCI_BAR0 + 4 * b);
			if (!p->bar[b].size)
				continue;
			EXPECT_EQ(t, raw & (p->bar[b].io ? ~3u : ~15u), p->bar[b].base);
			EXPECT_EQ(t, p->bar[b].base & (p->bar[b].size - 1), 0);	/* naturally aligned */
		}
	}
}

static void each_function_once(struct ktest *t)
{
	EXPECT_GE(t, pci_count(), 7);	/* host, ISA, IDE, PM, VGA, 2 x virtio */
	for (int i = 0; i < pci_count(); i++)
		for (int j = i + 1; j < pci_count(); j++)
			EXPECT_FALSE(t, pci_get(i)->dev == pci_get(j)->dev &&
					pci_get(i)->fn == pci_get(j)->fn);
	EXPECT_NULL(t, pci_get(pci_count()));
	EXPECT_NULL(t, pci_find(0x8086, 0x100E, 0));	/* -nic none: no e1000 */
}

static const struct ktest_case pci_cases[] = {
	KTEST_CASE(host_bridge_first),
	KTEST_CASE(piix3_is_multifunction),
	KTEST_CASE(virtio_blk_found),
	KTEST_CASE(config_reads_agree),
	KTEST_CASE(bars_restored_after_sizing),
	KTEST_CASE(each_function_once),
};
KTEST_SUITE(pci_suite, "pci", pci_cases, .explicit_only = true);
