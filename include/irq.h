/* irq.h: IRQ handlers: the ISA lines 0..15 (vectors 32..47, through the two
 * 8259 PICs or the I/O APIC, ioapic.h) and message-signalled IRQs 16..79
 * (vectors 48..111, MSI-X: pci.h), one handler table for both. */
#ifndef IRQ_H
#define IRQ_H

#include "smp.h"
#include "thread_info.h"
#include "types.h"

struct trap_frame;
typedef void (*irq_handler_t)(int irq, void *data);

#define NR_IRQS		80	/* vectors T_IRQ_BASE.. (trap_entry.asm's NR_STUBS) */
#define NR_LINE_IRQS	16	/* ISA/PCI lines: the 8259 or the I/O APIC */
#define IRQ_MSI_BASE	16	/* the first message-signalled IRQ */
#define IRQ_SPURIOUS_MASTER 7
#define IRQ_SPURIOUS_SLAVE  15

void irq_init(void);
/* Register a handler and unmask the line; several handlers may share a line.
 * Returns 0, -EINVAL for a bad number, or -EBUSY when the line's handler
 * slots are full. Boot or process context. */
int irq_register(int irq, irq_handler_t fn, void *data);
/* A message-signalled IRQ nobody has (its vector is T_IRQ_BASE + irq),
 * reserved for the caller, who registers its handler and programs the
 * device's message with the vector; or -ENOSPC. Process context. */
int irq_alloc_msi(void);
/* Give back an MSI IRQ from irq_alloc_msi, its handlers removed; the device
 * must no longer send its message. Process context. */
void irq_free_msi(int irq);
void irq_mask(int irq);
void irq_unmask(int irq);
void irq_dispatch(struct trap_frame *tf);
/* Mask every 8259 line for good (the I/O APIC takes over); returns the
 * lines that were unmasked, the cascade excepted. Boot, interrupts off. */
u16 irq_pic_disable(void);

/* Per-CPU counts of what costs a guest exit under QEMU (an APIC register
 * write, a port access) or wakes a CPU, for /proc/aiok/cpustat; row n is
 * written by CPU n only (plain increments), read racily. */
enum irq_ipi_kind { IPI_KIND_RESCHED, IPI_KIND_CALL, IPI_KIND_TLB, IPI_KIND_OTHER, NR_IPI_KINDS };
struct irq_cpu_stat {
	u32 eoi;			/* local APIC EOI writes */
	u32 timer_writes;		/* local APIC timer register writes */
	u32 ipi_sent[NR_IPI_KINDS];	/* ICR writes, by the IPI's vector */
	u32 loc;			/* local APIC timer ticks taken */
	u32 cal;			/* call-function IPIs taken */
	u32 port_io;			/* driver port accesses (virtio kicks, ISR reads) */
	u32 ioapic_writes;		/* I/O APIC register writes (routing, masking) */
};
extern struct irq_cpu_stat irq_cpu_stats[NR_CPUS];

static inline struct irq_cpu_stat *irq_this_stat(void)
{
	return &irq_cpu_stats[smp_processor_id()];
}

/* /proc/aiok/cpustat: one row per counter of struct irq_cpu_stat, its value
 * on each online CPU (the /proc/interrupts layout); the length written. */
int irq_cpustat_show(char *buf, size_t size);

extern u32 irq_count[NR_IRQS];		/* interrupts handled per IRQ, all CPUs */
extern u32 irq_spurious_count;		/* spurious IRQ 7 / 15 seen */
/* irq_nesting (> 0 while in an interrupt handler): thread_info.h */

/* Where an IRQ is delivered (Linux's /proc/irq/N/smp_affinity): mask is a
 * set of CPUs, bit n CPU n; the IRQ goes to the lowest online CPU in it (one
 * destination: the I/O APIC in physical mode, an MSI message). Returns 0,
 * -EINVAL for an IRQ without a handler or a mask naming no online CPU, -EIO
 * for an IRQ that cannot move there (the 8259's lines, IRQ 0 off CPU 0: the
 * PIT drives jiffies and CPU 0's timer wheel, an MSI whose driver gave no
 * hook). Process context; affinity_lock serialises the writers. */
int irq_set_affinity(int irq, u32 mask);
/* The mask last set for irq (the effective CPU's bit if never set). */
u32 irq_get_affinity(int irq);
/* The CPU irq is delivered to now. */
u32 irq_effective_cpu(int irq);
/* An MSI's driver moves its message to CPU cpu (online): 0 or -errno. Called
 * by irq_set_affinity under affinity_lock, process context. */
typedef int (*irq_affinity_fn)(int irq, u32 cpu, void *data);
/* Register how MSI irq is moved, and the CPU its message names now. Boot. */
void irq_set_affinity_hook(int irq, irq_affinity_fn fn, void *data, u32 cpu);
/* True if irq has a handler (for /proc/irq). */
bool irq_has_handler(int irq);

/* /proc/interrupts: per IRQ with a handler or a count, its count on each
 * online CPU, its controller (XT-PIC, IO-APIC pin-trigger, PCI-MSI) and its
 * handlers' names; the length written. Process context. */
int irq_show(char *buf, size_t size);

/* The frame the innermost interrupt being handled saved (NULL outside one). */
struct trap_frame *get_irq_regs(void);

static inline bool in_interrupt(void)
{
	return irq_nesting > 0;
}

#endif
