/* ioapic.c: I/O APIC routing of the ISA and PCI interrupt lines (82093AA
 * datasheet; ACPI MADT overrides for where and how each ISA IRQ arrives).
 *
 * ISA IRQ n keeps vector T_IRQ_BASE + n, so irq.c dispatches the same way
 * through either controller; only masking and EOI differ (the local APIC's
 * EOI here; a level-triggered entry's remote IRR clears with it). Each
 * line goes to one CPU in physical destination mode: the boot CPU until
 * ioapic_set_dest names another (/proc/irq/N/smp_affinity, irq.c). ioapic_lock
 * guards the register window (select, then data) and the line state
 * (ioapic_pci_lines, ioapic_dest_cpu); it is taken with interrupts off, from
 * any context.
 */
#include "ioapic.h"
#include "acpi.h"
#include "atomic.h"
#include "apic.h"
#include "cmdline.h"
#include "errno.h"
#include "irq.h"
#include "paging.h"
#include "printk.h"
#include "smp.h"
#include "spinlock.h"
#include "trap.h"
#include "x86.h"

#define IOAPIC_REGSEL	0x00		/* register select (index) */
#define IOAPIC_WINDOW	0x10		/* data window for the selected register */
#define IOAPIC_REG_VER	0x01		/* bits 23-16: highest redirection entry */
#define IOAPIC_REG_RTE	0x10		/* entry n: low half 0x10 + 2n, high 0x11 + 2n */

static DEFINE_SPINLOCK(ioapic_lock);
static volatile u32 *ioapic_regs;
static bool ioapic_on;
static u32 ioapic_pins;
static u16 ioapic_pci_lines;		/* ISA IRQs that carry PCI INTx */
static u8 ioapic_dest_cpu[NR_ISA_IRQS];	/* the CPU each line goes to */

static u32 ioapic_read(u32 reg)
{
	ioapic_regs[IOAPIC_REGSEL / 4] = reg;
	return ioapic_regs[IOAPIC_WINDOW / 4];
}

static void ioapic_write(u32 reg, u32 v)
{
	irq_this_stat()->ioapic_writes++;
	ioapic_regs[IOAPIC_REGSEL / 4] = reg;
	ioapic_regs[IOAPIC_WINDOW / 4] = v;
}

/* Write an entry, the high half (destination) first and the low half (mask,
 * vector) last, so the pin never fires with a half-written entry. */
static void ioapic_write_rte(u32 pin, u64 rte)
{
	ioapic_write(IOAPIC_REG_RTE + 2 * pin + 1, rte >> 32);
	ioapic_write(IOAPIC_REG_RTE + 2 * pin, (u32)rte);
}

u64 ioapic_read_rte(u32 pin)
{
	u32 flags;
	u64 rte = 0;

	spin_lock_irqsave(&ioapic_lock, flags);
	if (ioapic_regs && pin < ioapic_pins)
		rte = ioapic_read(IOAPIC_REG_RTE + 2 * pin) |
		      (u64)ioapic_read(IOAPIC_REG_RTE + 2 * pin + 1) << 32;
	spin_unlock_irqrestore(&ioapic_lock, flags);
	return rte;
}

int ioapic_irq_pin(int irq)
{
	const struct cpu_topology *t = &cpu_topology;
	u32 gsi;

	if (irq < 0 || irq >= NR_ISA_IRQS || !ioapic_pins)
		return -1;
	gsi = t->isa_irq[irq].gsi;
	return gsi >= t->ioapic_gsi_base && gsi - t->ioapic_gsi_base < ioapic_pins ?
	       (int)(gsi - t->ioapic_gsi_base) : -1;
}

/* The entry for ISA IRQ irq: its vector, its CPU, the trigger and
 * polarity the firmware gave (ISA's edge, active high by default; PCI
 * lines level, active low unless the MADT says otherwise). */
static u64 ioapic_rte_for(int irq, bool masked)
{
	const struct isa_irq_route *r = &cpu_topology.isa_irq[irq];
	bool pci = ioapic_pci_lines & (1u << irq);
	u16 pol = r->flags & INTI_POLARITY_MASK, trig = r->flags & INTI_TRIGGER_MASK;
	u64 rte = (T_IRQ_BASE + irq) |
		  (u64)cpus[ioapic_dest_cpu[irq]].apic_id << IOAPIC_RTE_DEST_SHIFT;

	if (pol == INTI_POLARITY_LOW || (!pol && pci))
		rte |= IOAPIC_RTE_ACTIVE_LOW;
	if (trig == INTI_TRIGGER_LEVEL || (!trig && pci))
		rte |= IOAPIC_RTE_LEVEL;
	return masked ? rte | IOAPIC_RTE_MASKED : rte;
}

void ioapic_set_masked(int irq, bool masked)
{
	int pin = ioapic_irq_pin(irq);
	u32 flags;

	if (pin < 0)
		return;
	spin_lock_irqsave(&ioapic_lock, flags);
	ioapic_write_rte(pin, ioapic_rte_for(irq, masked));
	spin_unlock_irqrestore(&ioapic_lock, flags);
}

void ioapic_set_pci_line(int irq)
{
	int pin = ioapic_irq_pin(irq);
	u32 flags;

	if (irq < 0 || irq >= NR_ISA_IRQS)
		return;
	spin_lock_irqsave(&ioapic_lock, flags);
	ioapic_pci_lines |= 1u << irq;
	if (ioapic_on && pin >= 0)	/* keep the mask bit, change the rest */
		ioapic_write_rte(pin, ioapic_rte_for(irq, ioapic_read(IOAPIC_REG_RTE + 2 * pin) &
						      IOAPIC_RTE_MASKED));
	spin_unlock_irqrestore(&ioapic_lock, flags);
}

int ioapic_set_dest(int irq, u32 cpu)
{
	int pin = ioapic_irq_pin(irq);
	u32 flags;

	if (irq < 0 || irq >= NR_ISA_IRQS || cpu >= nr_cpus_online)
		return -EINVAL;
	if (!ioapic_on || pin < 0)
		return -EIO;
	spin_lock_irqsave(&ioapic_lock, flags);
	ioapic_dest_cpu[irq] = cpu;		/* keep the mask bit, change the rest */
	ioapic_write_rte(pin, ioapic_rte_for(irq, ioapic_read(IOAPIC_REG_RTE + 2 * pin) &
					      IOAPIC_RTE_MASKED));
	spin_unlock_irqrestore(&ioapic_lock, flags);
	return 0;
}

u32 ioapic_dest(int irq)
{
	return ioapic_on && irq >= 0 && irq < NR_ISA_IRQS ? READ_ONCE(ioapic_dest_cpu[irq]) : 0;
}

/* An interrupt the 8259 raised before it was masked may still be latched
 * in the CPU (QEMU keeps the request; with LINT0 masked it would then be
 * taken as vector -1, a #GP). Take it now, LINT0 still open: with every
 * 8259 line masked it is the 8259's spurious IRQ 7, which irq.c drops. */
static void ioapic_drain_8259(void)
{
	sti();
	io_wait();
	io_wait();
	cli();
}

bool ioapic_enabled(void)
{
	return ioapic_on;
}

u32 ioapic_nr_pins(void)
{
	return ioapic_on ? ioapic_pins : 0;
}

/* Why the 8259 stays in charge, or NULL when the I/O APIC can take over. */
static const char *ioapic_unusable(void)
{
	if (cmdline_get(&boot_cmdline, "noapic"))
		return "noapic";
	if (!cpu_topology.nr_ioapics)
		return "no I/O APIC listed";
	if (!lapic_present())
		return "no local APIC";
	ioapic_regs = ioremap(cpu_topology.ioapic_phys, PAGE_SIZE);
	return ioapic_regs ? NULL : "cannot map it";
}

void ioapic_init(void)
{
	const char *why = ioapic_unusable();
	u16 lines;

	if (lapic_present())
		lapic_enable_boot();		/* MSI needs it, with or without us */
	if (why) {
		printk("ioapic: not used (%s): interrupts through the 8259\n", why);
		return;
	}
	ioapic_pins = ((ioapic_read(IOAPIC_REG_VER) >> 16) & 0xFF) + 1;
	for (u32 pin = 0; pin < ioapic_pins; pin++)
		ioapic_write_rte(pin, IOAPIC_RTE_MASKED);
	lines = irq_pic_disable();		/* the lines that have handlers */
	ioapic_drain_8259();
	lapic_mask_lint0();
	ioapic_on = true;
	for (int irq = 0; irq < NR_ISA_IRQS; irq++)
		if (lines & (1u << irq))
			ioapic_set_masked(irq, false);
	printk("ioapic: %u pins at %08x, ISA and PCI interrupts to APIC id %u, 8259 masked\n",
	       ioapic_pins, cpu_topology.ioapic_phys, cpus[0].apic_id);
}
