/* smp.h: the CPUs: per-CPU data (struct cpu), smp_processor_id(), and the start of the application processors (APs).
 *
 * Each CPU loads its own GDT, and the GDTs lie at a fixed stride (gdt.h):
 * sgdt, which reads a register and loads no segment, gives the running
 * CPU's number, and cpus[] its struct cpu. No segment register is reloaded
 * on kernel entry or exit for it (the first cut kept struct cpu in %fs and
 * made the null system call 18 % slower: docs/benchmarks.md).
 * In this increment the APs run no tasks: they load their GDT, TSS and the
 * IDT, report in and halt; the only interrupts they take are the IPIs of
 * kernel/ipi.c. Tasks, device interrupts and every lock but the IPIs' own stay
 * on the boot CPU (docs/locking.md).
 */
#ifndef SMP_H
#define SMP_H

#include "acpi.h"
#include "gdt.h"
#include "types.h"

struct trap_frame;

#define SMP_TRAMPOLINE_PHYS	0x8000	/* real-mode start page (SIPI vector 0x08) */

struct cpu {
	struct cpu *self;	/* this struct's address */
	u32 id;			/* smp_processor_id(): 0 for the boot CPU */
	u32 apic_id;		/* local APIC id, as the firmware listed it */
	u32 seen_id;		/* what the CPU itself read through its GDT */
	u32 seen_apic_id;	/* and from its own local APIC */
	u32 idle_stack_top;	/* the AP's stack (0 for the boot CPU) */
	volatile u32 online;	/* set by the CPU itself, release: it is up */
	u32 idle_halts;		/* times its idle loop came out of hlt */
	int spinlocks_held;	/* spinlock.h: locks this CPU holds now */
	int irq_depth;		/* irq.h irq_nesting: interrupt handlers this CPU is inside */
	struct trap_frame *irq_regs;	/* the innermost one's frame (get_irq_regs) */
};

extern struct cpu cpus[NR_CPUS];
extern u32 nr_cpus_online;	/* CPUs that reported in, the boot CPU included */

/* The running CPU's number (0 .. nr_cpus_online - 1). Any context. */
static inline u32 smp_processor_id(void)
{
	return gdt_this_cpu();
}

/* The running CPU's struct cpu. Any context. */
static inline struct cpu *this_cpu(void)
{
	return &cpus[gdt_this_cpu()];
}

/* Map the boot CPU's local APIC and start every other CPU cpu_topology
 * lists (INIT-SIPI-SIPI through the real-mode trampoline); print how many
 * came up. Boot only, after cpu_discover and time_init (udelay), in process
 * context with the page allocator up. */
void smp_init(void);
/* Register the IPI handlers (call-function, stop, the APIC's spurious
 * vector) in the IDT every CPU loads. Boot, before smp_init. */
void ipi_init(void);
/* Run fn(arg) on every other online CPU, in its interrupt handler
 * (interrupts off: fn must not sleep nor take a lock an interrupted task of
 * that CPU may hold). _start sends the IPIs and returns with the call slot
 * held; _wait waits until every other CPU has finished fn and frees the slot.
 * Process context, no spinlock held (two callers would wait for each other). */
void smp_call_function_start(void (*fn)(void *arg), void *arg);
void smp_call_function_wait(void);
/* fn(arg) on every online CPU at once: the others by IPI, this one in the
 * caller's context in between; returns when all have finished. */
void on_each_cpu(void (*fn)(void *arg), void *arg);
/* Stop every other online CPU (panic): each halts with interrupts off for
 * good. Any context, interrupts off; waits up to 100 ms and returns how many
 * stopped. */
u32 smp_stop_others(void);

/* /proc/cpuinfo's text: one block per online CPU, as Linux's. */
int smp_cpuinfo_show(char *buf, size_t size);

#endif
