/* smp.h: the CPUs: per-CPU data (struct cpu), smp_processor_id(), and the start of the application processors (APs).
 *
 * Each CPU loads its own GDT, and the GDTs lie at a fixed stride (gdt.h):
 * sgdt, which reads a register and loads no segment, gives the running
 * CPU's number, and cpus[] its struct cpu. No segment register is reloaded
 * on kernel entry or exit for it (the first cut kept struct cpu in %fs and
 * made the null system call 18 % slower: docs/benchmarks.md).
 * Each AP loads its GDT, TSS and the IDT, starts its local APIC timer (its
 * tick), reports in and joins the scheduler on the stack of its own idle
 * task (sched_ap_run); its interrupts are its tick and the IPIs of
 * kernel/ipi.c and kernel/tlb.c, and virtio-blk's MSI-X queue n on CPU n;
 * the ISA and PCI lines stay on the boot CPU (kernel/ioapic.c,
 * docs/locking.md). `current` is not here: thread_info.h.
 */
#ifndef SMP_H
#define SMP_H

#include "acpi.h"
#include "gdt.h"
#include "types.h"

struct task;
struct trap_frame;

#define SMP_TRAMPOLINE_PHYS	0x8000	/* real-mode start page (SIPI vector 0x08) */

struct cpu {
	struct cpu *self;	/* this struct's address */
	u32 id;			/* smp_processor_id(): 0 for the boot CPU */
	u32 apic_id;		/* local APIC id, as the firmware listed it */
	u32 seen_id;		/* what the CPU itself read through its GDT */
	u32 seen_apic_id;	/* and from its own local APIC */
	u32 idle_stack_top;	/* the AP's first stack: its idle task's (0 for the boot CPU) */
	volatile u32 online;	/* set by the CPU itself, release: it is up */
	u32 idle_halts;		/* times its idle loop came out of hlt */
	int spinlocks_held;	/* spinlock.h: locks this CPU holds now */
	/* Written by this CPU only (interrupts off), read by anyone for debugging: */
	struct task *curr;	/* the task it runs (`current` is found from esp) */
	struct task *idle;	/* its idle task */
	volatile u32 softirq_pending;	/* softirq.c: raised here, run here; atomic or */
	bool softirq_active;	/* running softirq actions now */
	struct trap_frame *irq_regs;	/* irq.c: the innermost interrupt's frame */
	u32 ticks;		/* its local APIC timer's ticks (an AP; apic_timer.c) */
	u64 acct_tsc;		/* sched.c: the TSC its tasks' run time is charged up to */
	struct task *sched_dead;	/* sched.c: a TASK_DEAD thread it just left */
	struct task *sched_push;	/* sched.c: a task it just left that may no longer run here */
	u32 resched_ipis;	/* reschedule IPIs it took */
	u32 nr_switches;	/* sched.c: context switches it made */
	u32 resched_ipis_saved;	/* wake-ups it sent to a polling idle CPU without one */
	u32 signal_kicks;	/* signals it sent to a task running on another CPU (an IPI each) */
	volatile bool idle_polling;	/* sched.c: its idle loop polls need_resched (no IPI needed) */
	u32 *pgdir;		/* the directory its CR3 holds (paging.c switch_pgdir; tlb.h) */
	struct mm *active_mm;	/* whose it is; NULL: the kernel's (vm.c mm_activate) */
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
 * came up. Boot only, after cpu_discover, time_init (udelay) and sched_init
 * (each AP starts on the stack of an idle task of its own), in process
 * context. */
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
/* Send the reschedule IPI to CPU cpu (not the running one). Any context. */
void smp_send_reschedule(u32 cpu);
/* Stop every other online CPU (panic): each halts with interrupts off for
 * good. Any context, interrupts off; waits up to 100 ms and returns how many
 * stopped. */
u32 smp_stop_others(void);

/* /proc/cpuinfo's text: one block per online CPU, as Linux's. */
int smp_cpuinfo_show(char *buf, size_t size);

#endif
