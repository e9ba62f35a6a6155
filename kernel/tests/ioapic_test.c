/* ioapic_test.c: the "ioapic" suite: interrupt routing as booted, checked
 * against irq_expect=ioapic (the I/O APIC took over, the 8259 is masked) or
 * irq_expect=8259 (noapic, or no I/O APIC): the redirection entries as
 * programmed, and the timer, serial, IDE and virtio interrupts arriving;
 * IRQ 14 moved to CPU 1 (irq_set_affinity) and its completions arriving there.
 * Run only when named: it needs hda and vda (the ioapic plan entries). */
#include "blktest.h"
#include "clock.h"
#include "cmdline.h"
#include "errno.h"
#include "ioapic.h"
#include "irq.h"
#include "irq_proc.h"
#include "pci.h"
#include "printk.h"
#include "serial.h"
#include "slab.h"
#include "smp.h"
#include "string.h"
#include "virtio_blk.h"
#include "trap.h"
#include "x86.h"

#define PIC1_DATA	0x21		/* 8259 mask registers */
#define PIC2_DATA	0xA1
#define COM1_MCR	0x3FC		/* modem control */
#define MCR_LOOP	0x10		/* loopback: what is sent is received */
#define IDE_IRQ		14
#define WAIT_MS		200

static bool want_ioapic;
static struct blkdev *hda, *vda;
static struct pci_dev *vpci;

static int ioapic_suite_init(void)
{
	const char *e = cmdline_get(&boot_cmdline, "irq_expect");

	if (!e || (strcmp(e, "ioapic") && strcmp(e, "8259")))
		return -EINVAL;		/* the plan entry must say which */
	want_ioapic = !strcmp(e, "ioapic");
	hda = blkdev_find("hda");
	vda = blkdev_find("vda");
	vpci = pci_find(0x1AF4, 0x1001, 0);
	return hda && vda && vpci ? blktest_setup() : -ENODEV;
}

/* Wait (interrupts on) until irq_count[irq] passes before; true if it did. */
static bool irq_arrived(int irq, u32 before)
{
	for (u32 ms = 0; ms < WAIT_MS; ms++) {
		if (READ_ONCE(irq_count[irq]) != before)
			return true;
		udelay(1000);
	}
	return false;
}

static void controller_as_expected(struct ktest *t)
{
	ktest_log("%s, %u CPUs online", ioapic_enabled() ? "I/O APIC" : "8259", nr_cpus_online);
	EXPECT_EQ(t, ioapic_enabled(), want_ioapic);
	EXPECT_EQ(t, ioapic_nr_pins() > 0, want_ioapic);
}

/* One ISA line's entry: its vector, to the boot CPU, unmasked, edge, high. */
static void expect_isa_rte(struct ktest *t, int irq)
{
	int pin = ioapic_irq_pin(irq);
	u64 rte;

	ASSERT_TRUE(t, pin >= 0);
	rte = ioapic_read_rte(pin);
	EXPECT_EQ(t, rte & IOAPIC_RTE_VECTOR, T_IRQ_BASE + irq);
	EXPECT_EQ(t, rte & (IOAPIC_RTE_MASKED | IOAPIC_RTE_LEVEL | IOAPIC_RTE_LOGICAL), 0);
	EXPECT_EQ(t, rte >> IOAPIC_RTE_DEST_SHIFT, cpus[0].apic_id);
}

/* QEMU's MADT sends IRQ 0 to GSI 2; the timer, RTC, COM1 and IDE lines are
 * routed edge-triggered; virtio's PCI line level-triggered with its remote
 * IRR clear (the local APIC's EOI reached the I/O APIC); a line without a
 * handler, and every pin nothing uses, stays masked. */
static void redirection_entries_as_programmed(struct ktest *t)
{
	int vpin;
	u64 rte;

	if (!want_ioapic) {
		EXPECT_EQ(t, ioapic_irq_pin(0), -1);	/* nothing routed */
		return;
	}
	EXPECT_EQ(t, ioapic_irq_pin(0), 2);
	EXPECT_EQ(t, ioapic_irq_pin(14), 14);
	for (int irq = 0; irq < 16; irq++)
		if (irq == 0 || irq == 4 || irq == 8 || irq == IDE_IRQ)
			expect_isa_rte(t, irq);
	vpin = ioapic_irq_pin(vpci->irq_line);
	ASSERT_TRUE(t, vpin >= 0);
	rte = ioapic_read_rte(vpin);
	EXPECT_EQ(t, rte & IOAPIC_RTE_VECTOR, T_IRQ_BASE + vpci->irq_line);
	EXPECT_EQ(t, rte & (IOAPIC_RTE_LEVEL | IOAPIC_RTE_MASKED | IOAPIC_RTE_REMOTE_IRR),
		  IOAPIC_RTE_LEVEL);
	EXPECT_TRUE(t, ioapic_read_rte(ioapic_irq_pin(3)) & IOAPIC_RTE_MASKED);	/* COM2: none */
	for (u32 pin = 16; pin < ioapic_nr_pins(); pin++)
		EXPECT_TRUE(t, ioapic_read_rte(pin) & IOAPIC_RTE_MASKED);
}

/* With the I/O APIC every 8259 line is masked; without it the 8259 has the
 * timer, the cascade, COM1, the RTC and the IDE channel open. */
static void pic_masked(struct ktest *t)
{
	u16 mask = inb(PIC1_DATA) | inb(PIC2_DATA) << 8;

	if (want_ioapic) {
		EXPECT_EQ(t, mask, 0xFFFF);
		return;
	}
	for (int irq = 0; irq < 16; irq++)
		if (irq == 0 || irq == 2 || irq == 4 || irq == 8 || irq == IDE_IRQ)
			EXPECT_EQ(t, mask & (1u << irq), 0);
	EXPECT_TRUE(t, mask & (1u << 3));	/* COM2: nobody asked */
}

/* Ticks keep coming: 5 within a second (HZ=250 gives 250; MTTCG on a
 * loaded host loses some, never all). */
static void timer_interrupts_arrive(struct ktest *t)
{
	u32 before = READ_ONCE(irq_count[0]);

	for (u32 ms = 0; ms < 1000 && READ_ONCE(irq_count[0]) - before < 5; ms++)
		udelay(1000);
	EXPECT_GE(t, READ_ONCE(irq_count[0]) - before, 5);
}

/* COM1 in loopback: the byte sent comes back as a receive interrupt, and
 * serial_read finds it in the receive buffer. */
static void serial_interrupt_arrives(struct ktest *t)
{
	u32 before = READ_ONCE(irq_count[4]);
	u8 mcr = inb(COM1_MCR);
	char c = 0;
	bool got;

	outb(COM1_MCR, mcr | MCR_LOOP);
	serial_putc('Z');
	got = irq_arrived(4, before);
	outb(COM1_MCR, mcr);
	ASSERT_TRUE(t, got);
	EXPECT_EQ(t, serial_read(&c, 1), 1);
	EXPECT_EQ(t, c, 'Z');
}

static void ide_interrupt_arrives(struct ktest *t)
{
	u32 before = READ_ONCE(irq_count[IDE_IRQ]);

	EXPECT_TRUE(t, blktest_roundtrip(t, hda, 100, 8));
	EXPECT_GE(t, READ_ONCE(irq_count[IDE_IRQ]) - before, 2);
}

/* Its queue's IRQ: MSI-X unless nomsi, then the PCI line. */
static void virtio_interrupt_arrives(struct ktest *t)
{
	struct virtio_blk_irqs *q = virtio_blk_irqs(vda);
	u32 before;

	ASSERT_NOT_NULL(t, q);
	before = READ_ONCE(irq_count[q->q[0].irq]);
	ktest_log("vda: IRQ %d (%s)", q->q[0].irq, q->msix_on ? "MSI-X" : "INTx");
	EXPECT_TRUE(t, blktest_roundtrip(t, vda, 200, 8));
	EXPECT_GE(t, READ_ONCE(irq_count[q->q[0].irq]) - before, 2);
	blktest_expect_balanced(t, vda);
}

/* The line of /proc/interrupts for irq in text, or NULL. */
static const char *proc_line(const char *text, int irq)
{
	char key[8];
	const char *p;

	snprintf(key, sizeof(key), "\n%3d:", irq);
	p = strstr(text, key);
	return p ? p + 1 : NULL;
}

/* Its line holds want before the line ends. */
static bool line_has(const char *line, const char *want)
{
	const char *p = line ? strstr(line, want) : NULL, *end = line ? strchr(line, '\n') : NULL;

	return p && end && p < end;
}

/* /proc/interrupts: a column per online CPU, and each used line with its
 * controller, pin and trigger, and its handler's name. */
static void proc_interrupts_names_each_line(struct ktest *t)
{
	struct virtio_blk_irqs *q = virtio_blk_irqs(vda);
	char *text = kmalloc(8192, GFP_KERNEL), col[8];
	int len;

	ASSERT_NOT_NULL(t, text);
	len = irq_show(text, 8192);
	EXPECT_GE(t, len, 1);
	EXPECT_LE(t, len, 8191);
	snprintf(col, sizeof(col), "CPU%u", nr_cpus_online - 1);
	EXPECT_TRUE(t, line_has(text, col));
	EXPECT_TRUE(t, line_has(proc_line(text, 0), "timer_interrupt"));
	EXPECT_TRUE(t, line_has(proc_line(text, 4), "serial_intr"));
	EXPECT_TRUE(t, line_has(proc_line(text, IDE_IRQ), "ide_intr"));
	EXPECT_TRUE(t, line_has(proc_line(text, q->q[0].irq), "virtio_blk_intr"));
	EXPECT_TRUE(t, line_has(proc_line(text, 0), want_ioapic ? "IO-APIC  2-edge" : "XT-PIC"));
	EXPECT_TRUE(t, line_has(proc_line(text, q->q[0].irq), want_ioapic ? "-level" : "XT-PIC"));
	EXPECT_NULL(t, proc_line(text, 3));		/* COM2: nothing */
	kfree(text);
}

/* IRQ irq's count on CPU cpu, from /proc/interrupts' text; -1 if absent. */
static long proc_count(int irq, u32 cpu)
{
	char *text = kmalloc(8192, GFP_KERNEL);
	const char *p;
	long v = -1;

	if (!text)
		return -1;
	irq_show(text, 8192);
	p = proc_line(text, irq);
	if (p && (p = strchr(p, ':'))) {
		const char *end;

		p++;
		for (u32 c = 0; c <= cpu; c++, p = end) {
			while (*p == ' ')
				p++;
			v = (long)simple_strtoull(p, &end);
			if (end == p) {
				v = -1;
				break;
			}
		}
	}
	kfree(text);
	return v;
}

/* IDE reads with IRQ 14 aimed at cpu: their interrupts counted on that CPU
 * in /proc/interrupts, none on the other (want: CPU other's column stays). */
static void ide_reads_land_on(struct ktest *t, u32 cpu, u32 other)
{
	long on0 = proc_count(IDE_IRQ, cpu), off0 = proc_count(IDE_IRQ, other);

	EXPECT_TRUE(t, blktest_roundtrip(t, hda, 300, 8));
	EXPECT_TRUE(t, blktest_roundtrip(t, hda, 400, 8));
	ktest_log("IRQ 14 on CPU %u: %ld -> %ld; CPU %u: %ld -> %ld", cpu, on0,
		  proc_count(IDE_IRQ, cpu), other, off0, proc_count(IDE_IRQ, other));
	EXPECT_GE(t, proc_count(IDE_IRQ, cpu) - on0, 4);
	EXPECT_EQ(t, proc_count(IDE_IRQ, other), off0);
}

/* /proc/irq/N/smp_affinity's rules: a mask naming no online CPU is -EINVAL
 * (at -smp 1: CPU 1 alone); the 8259 cannot move a line (-EIO); with the I/O
 * APIC and 2+ CPUs, IRQ 14 moved to CPU 1 delivers the IDE completions there
 * (its entry names CPU 1's APIC id), and back on CPU 0 there again. */
static void affinity_moves_ide_line(struct ktest *t)
{
	u32 mask;

	EXPECT_EQ(t, irq_proc_parse_mask("2\n", &mask), 0);
	EXPECT_EQ(t, mask, 2);
	EXPECT_EQ(t, irq_proc_parse_mask("00000000,00000003", &mask), 0);
	EXPECT_EQ(t, mask, 3);
	EXPECT_EQ(t, irq_proc_parse_mask("", &mask), -EINVAL);
	EXPECT_EQ(t, irq_proc_parse_mask("1x", &mask), -EINVAL);
	EXPECT_EQ(t, irq_proc_parse_mask("1,00000000", &mask), -EINVAL);
	EXPECT_EQ(t, irq_set_affinity(IDE_IRQ, 0), -EINVAL);
	EXPECT_EQ(t, irq_set_affinity(3, 1), -EINVAL);		/* COM2: no handler */
	EXPECT_EQ(t, irq_set_affinity(IDE_IRQ, 1u << nr_cpus_online), -EINVAL);
	if (!want_ioapic) {
		EXPECT_EQ(t, irq_set_affinity(IDE_IRQ, 1), -EIO);
		return;
	}
	EXPECT_EQ(t, irq_get_affinity(IDE_IRQ), 1);
	if (nr_cpus_online == 1) {
		EXPECT_EQ(t, irq_set_affinity(IDE_IRQ, 2), -EINVAL);
		EXPECT_EQ(t, irq_effective_cpu(IDE_IRQ), 0);
		return;
	}
	EXPECT_EQ(t, irq_set_affinity(0, 2), -EIO);		/* the PIT stays on CPU 0 */
	ASSERT_EQ(t, irq_set_affinity(IDE_IRQ, 2), 0);
	EXPECT_EQ(t, irq_effective_cpu(IDE_IRQ), 1);
	EXPECT_EQ(t, ioapic_read_rte(ioapic_irq_pin(IDE_IRQ)) >> IOAPIC_RTE_DEST_SHIFT,
		  cpus[1].apic_id);
	ide_reads_land_on(t, 1, 0);
	EXPECT_EQ(t, irq_set_affinity(IDE_IRQ, 1), 0);
	EXPECT_EQ(t, irq_get_affinity(IDE_IRQ), 1);
	ide_reads_land_on(t, 0, 1);
}

static const struct ktest_case ioapic_cases[] = {
	KTEST_CASE(controller_as_expected),
	KTEST_CASE(redirection_entries_as_programmed),
	KTEST_CASE(pic_masked),
	KTEST_CASE(timer_interrupts_arrive),
	KTEST_CASE(serial_interrupt_arrives),
	KTEST_CASE(ide_interrupt_arrives),
	KTEST_CASE(virtio_interrupt_arrives),
	KTEST_CASE(proc_interrupts_names_each_line),
	KTEST_CASE(affinity_moves_ide_line),
};
KTEST_SUITE(ioapic_suite, "ioapic", ioapic_cases, .init = ioapic_suite_init,
	    .explicit_only = true);
