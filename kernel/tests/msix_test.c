/* msix_test.c: the "msix" suite: virtio-blk's MSI-X as probed (a vector per
 * queue plus one for config changes, in the device's table and its legacy
 * vector registers), completions without ISR reads, interrupts counted per
 * CPU, and the message's destination APIC id choosing the CPU: vdb's queue
 * entry aimed at each online CPU in turn (a counting handler: completions
 * themselves stay on the boot CPU while the APs run no task).
 * Run only when named: it needs vda and vdb with MSI-X (not nomsi). */
#include "blktest.h"
#include "clock.h"
#include "errno.h"
#include "irq.h"
#include "pci.h"
#include "smp.h"
#include "printk.h"
#include "slab.h"
#include "spinlock.h"
#include "string.h"
#include "trap.h"
#include "virtio_blk.h"
#include "x86.h"

#define QUEUE_ENTRY	1		/* virtio_blk.c: entry 0 config, 1 queue 0 */
#define STEER_WAIT_MS	2000

static struct blkdev *disks[2];
static u32 steer_hits[NR_CPUS];		/* the test IRQ's handler, per CPU; atomic */

static int msix_suite_init(void)
{
	disks[0] = blkdev_find("vda");
	disks[1] = blkdev_find("vdb");
	return disks[0] && disks[1] && virtio_blk_irqs(disks[0]) ? blktest_setup() : -ENODEV;
}

static void msix_enabled_per_disk(struct ktest *t)
{
	for (int d = 0; d < 2; d++) {
		struct virtio_blk_irqs *q = virtio_blk_irqs(disks[d]);
		struct pci_dev *p = q->msix.pdev;

		ASSERT_TRUE(t, q->msix_on);
		ASSERT_NOT_NULL(t, p);
		EXPECT_EQ(t, pci_read16(p, q->msix.cap + PCI_MSIX_CTRL) &
			  (PCI_MSIX_CTRL_ENABLE | PCI_MSIX_CTRL_MASKALL), PCI_MSIX_CTRL_ENABLE);
		EXPECT_TRUE(t, pci_read16(p, PCI_COMMAND) & PCI_COMMAND_INTX_OFF);
		EXPECT_GE(t, q->msix.nr_entries, 2);
		EXPECT_GE(t, q->q[0].irq, IRQ_MSI_BASE);
		EXPECT_GE(t, q->config_irq, IRQ_MSI_BASE);
		EXPECT_NE(t, q->q[0].irq, q->config_irq);
	}
	EXPECT_NE(t, virtio_blk_irqs(disks[0])->q[0].irq, virtio_blk_irqs(disks[1])->q[0].irq);
}

/* Entry 0 carries config changes, entry 1 queue 0: each aimed at the boot
 * CPU with its IRQ's vector, and the device holds those entry numbers. */
static void vectors_per_queue(struct ktest *t)
{
	for (int d = 0; d < 2; d++) {
		struct virtio_blk_irqs *q = virtio_blk_irqs(disks[d]);
		u16 io = q->msix.pdev->bar[0].base;
		u32 dest;
		u8 vec;
		bool masked;

		ASSERT_EQ(t, pci_msix_get_entry(&q->msix, 0, &dest, &vec, &masked), 0);
		EXPECT_EQ(t, vec, T_IRQ_BASE + q->config_irq);
		EXPECT_EQ(t, dest, cpus[0].apic_id);
		EXPECT_FALSE(t, masked);
		ASSERT_EQ(t, pci_msix_get_entry(&q->msix, QUEUE_ENTRY, &dest, &vec, &masked), 0);
		EXPECT_EQ(t, vec, T_IRQ_BASE + q->q[0].irq);
		EXPECT_EQ(t, dest, cpus[0].apic_id);
		EXPECT_FALSE(t, masked);
		EXPECT_EQ(t, inw(io + VIRTIO_MSI_CONFIG_VECTOR), 0);
		EXPECT_EQ(t, virtio_legacy_queue_vector(io, 0), QUEUE_ENTRY);
		EXPECT_EQ(t, pci_msix_get_entry(&q->msix, q->msix.nr_entries, &dest, &vec, &masked),
			  -EINVAL);
	}
}

/* Completions arrive on the queue's MSI IRQ, none on the PCI line, and the
 * handler never reads the ISR. */
static void no_isr_read_with_msix(struct ktest *t)
{
	struct virtio_blk_irqs *q = virtio_blk_irqs(disks[0]);
	u8 line = q->msix.pdev->irq_line;
	u32 isr = q->nr_isr_reads, intr = q->q[0].nr_intr, msi = irq_count[q->q[0].irq];
	u32 intx = line < NR_LINE_IRQS ? irq_count[line] : 0;

	EXPECT_TRUE(t, blktest_roundtrip(t, disks[0], 300, 16));
	EXPECT_GE(t, q->q[0].nr_intr - intr, 2);
	EXPECT_EQ(t, irq_count[q->q[0].irq] - msi, q->q[0].nr_intr - intr);
	EXPECT_EQ(t, q->nr_isr_reads, isr);
	if (line < NR_LINE_IRQS)
		EXPECT_EQ(t, irq_count[line], intx);
	blktest_expect_balanced(t, disks[0]);
}

/* Every queue interrupt counted once, on the CPU it was aimed at: CPU 0. */
static void completions_counted_per_cpu(struct ktest *t)
{
	for (int d = 0; d < 2; d++) {
		struct virtio_blk_irqs *q = virtio_blk_irqs(disks[d]);
		u32 sum = 0;

		EXPECT_EQ(t, blktest_rw(disks[d], BLK_READ, 400, blktest_b_phys, 8), 4096);
		for (u32 c = 0; c < NR_CPUS; c++)
			sum += q->q[0].intr_cpu[c];
		EXPECT_EQ(t, sum, q->q[0].nr_intr);
		EXPECT_EQ(t, q->q[0].intr_cpu[0], q->q[0].nr_intr);
		EXPECT_GE(t, q->q[0].nr_intr, 1);
		ktest_log("%s: %u queue interrupts, all on CPU 0", disks[d]->name, q->q[0].nr_intr);
	}
}

static void steer_count(int irq, void *data)
{
	__atomic_fetch_add(&steer_hits[smp_processor_id()], 1, __ATOMIC_RELAXED);
}

/* Aim vdb's queue entry at cpu with the test IRQ's vector, read one sector
 * and wait for the message there; then aim it back. The read's completion
 * waits in the used ring until the next request's interrupt reaps both. */
static bool steer_once(struct ktest *t, struct virtio_blk_irqs *q, int irq, u32 cpu, int slot)
{
	u32 before = __atomic_load_n(&steer_hits[cpu], __ATOMIC_RELAXED), flags;
	bool hit = false;

	pci_msix_set_entry(&q->msix, QUEUE_ENTRY, cpus[cpu].apic_id, T_IRQ_BASE + irq);
	flags = local_irq_save();
	EXPECT_EQ(t, blkdev_submit(disks[1], blktest_prep(slot, BLK_READ, 8 * slot, 1,
							    blktest_b_phys + slot * 512)), 0);
	blkdev_kick(disks[1]);
	local_irq_restore(flags);
	for (u32 ms = 0; ms < STEER_WAIT_MS && !hit; ms++) {
		hit = __atomic_load_n(&steer_hits[cpu], __ATOMIC_RELAXED) != before;
		udelay(1000);
	}
	virtio_blk_set_queue_cpu(disks[1], 0, 0);
	return hit;
}

static void delivered_to_chosen_cpu(struct ktest *t)
{
	struct virtio_blk_irqs *q = virtio_blk_irqs(disks[1]);
	int irq = irq_alloc_msi(), target = blktest_completions + nr_cpus_online;
	u32 own[NR_CPUS];

	ASSERT_TRUE(t, irq >= IRQ_MSI_BASE);
	ASSERT_EQ(t, irq_register(irq, steer_count, NULL), 0);
	memcpy(own, q->q[0].intr_cpu, sizeof(own));
	for (u32 c = 0; c < nr_cpus_online; c++)
		EXPECT_TRUE(t, steer_once(t, q, irq, c, c));
	ASSERT_EQ(t, blktest_rw(disks[1], BLK_READ, 0, blktest_a_phys, 1), 512);	/* reaps */
	EXPECT_TRUE(t, blktest_wait(target, BLKTEST_WAIT_MS));
	irq_free_msi(irq);
	for (u32 c = 0; c < nr_cpus_online; c++) {
		EXPECT_EQ(t, blktest_reqs[c].result, 512);
		EXPECT_EQ(t, blktest_reqs[c].calls, 1);
		EXPECT_GE(t, steer_hits[c], 1);
		if (c)
			EXPECT_EQ(t, q->q[0].intr_cpu[c], own[c]);	/* the driver's handler stayed on 0 */
	}
	ktest_log("vdb's queue message taken by each of %u CPUs in turn", nr_cpus_online);
	blktest_expect_balanced(t, disks[1]);
}

/* /proc/interrupts shows each disk's queue as a PCI-MSI line with its
 * handler, CPU 0's column holding what the driver counted there; the text
 * is logged line by line. */
static void proc_interrupts_shows_msi(struct ktest *t)
{
	char *text = kmalloc(8192, GFP_KERNEL), key[8], want[24], *line, *end;

	ASSERT_NOT_NULL(t, text);
	irq_show(text, 8192);
	for (int d = 0; d < 2; d++) {
		struct virtio_blk_qirq *qi = &virtio_blk_irqs(disks[d])->q[0];

		snprintf(key, sizeof(key), "\n%3d:", qi->irq);
		snprintf(want, sizeof(want), "%3d: %10u ", qi->irq, qi->intr_cpu[0]);
		line = strstr(text, key);
		end = line ? strchr(line + 1, '\n') : NULL;
		ASSERT_TRUE(t, line && end);
		*end = 0;
		EXPECT_STREQ(t, strstr(line, want), line + 1);	/* CPU 0's count first */
		EXPECT_NOT_NULL(t, strstr(line, "PCI-MSI"));
		EXPECT_NOT_NULL(t, strstr(line, "virtio_blk_vq_intr"));
		*end = '\n';
	}
	for (line = text; (end = strchr(line, '\n')); line = end + 1) {
		*end = 0;
		ktest_log("%s", line);
		*end = '\n';
	}
	kfree(text);
}

static const struct ktest_case msix_cases[] = {
	KTEST_CASE(msix_enabled_per_disk),
	KTEST_CASE(vectors_per_queue),
	KTEST_CASE(no_isr_read_with_msix),
	KTEST_CASE(completions_counted_per_cpu),
	KTEST_CASE(delivered_to_chosen_cpu),
	KTEST_CASE(proc_interrupts_shows_msi),
};
KTEST_SUITE(msix_suite, "msix", msix_cases, .init = msix_suite_init, .explicit_only = true);
