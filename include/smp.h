/* smp.h: the CPUs: per-CPU data reached through %fs, smp_processor_id(), and
 * the start of the application processors (APs).
 *
 * Each CPU's GDT has a data segment at GDT_PERCPU whose base is that CPU's
 * struct cpu; the kernel runs with %fs = PERCPU_SEL (loaded on every entry
 * from user mode, restored to the user's value on the way out), so
 * %fs:offset reads the running CPU's own fields with one instruction.
 * In this increment the APs run no tasks: they load their GDT, TSS and the
 * IDT, report in and halt with interrupts off. Tasks, interrupts and every
 * lock stay on the boot CPU (docs/locking.md).
 */
#ifndef SMP_H
#define SMP_H

#include "acpi.h"
#include "types.h"

#define SMP_TRAMPOLINE_PHYS	0x8000	/* real-mode start page (SIPI vector 0x08) */

struct cpu {
	struct cpu *self;	/* %fs:0: this struct's address */
	u32 id;			/* smp_processor_id(): 0 for the boot CPU */
	u32 apic_id;		/* local APIC id, as the firmware listed it */
	u32 seen_id;		/* what the CPU itself read through %fs */
	u32 seen_apic_id;	/* and from its own local APIC */
	u32 idle_stack_top;	/* the AP's stack (0 for the boot CPU) */
	volatile u32 online;	/* set by the CPU itself, release: it is up */
	u32 idle_halts;		/* times its idle loop came out of hlt */
};

extern struct cpu cpus[NR_CPUS];
extern u32 nr_cpus_online;	/* CPUs that reported in, the boot CPU included */

/* The running CPU's number (0 .. nr_cpus_online - 1). Any context. */
static inline u32 smp_processor_id(void)
{
	u32 id;

	asm volatile("movl %%fs:%c1, %0" : "=r"(id) : "i"(offsetof(struct cpu, id)));
	return id;
}

/* The running CPU's struct cpu. Any context. */
static inline struct cpu *this_cpu(void)
{
	struct cpu *c;

	asm volatile("movl %%fs:%c1, %0" : "=r"(c) : "i"(offsetof(struct cpu, self)));
	return c;
}

/* Map the boot CPU's local APIC and start every other CPU cpu_topology
 * lists (INIT-SIPI-SIPI through the real-mode trampoline); print how many
 * came up. Boot only, after cpu_discover and time_init (udelay), in process
 * context with the page allocator up. */
void smp_init(void);
/* /proc/cpuinfo's text: one block per online CPU, as Linux's. */
int smp_cpuinfo_show(char *buf, size_t size);

#endif
