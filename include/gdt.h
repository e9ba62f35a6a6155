/* gdt.h: segment selectors, the GDT and the task-state segment. */
#ifndef GDT_H
#define GDT_H

#include "acpi.h"
#include "thread_info.h"
#include "types.h"
#include "x86.h"

#define KERNEL_CS	0x08
#define KERNEL_DS	0x10
#define USER_CS		0x1B	/* index 3, RPL 3 */
#define USER_DS		0x23	/* index 4, RPL 3 */
#define TSS_SEL		0x28
#define GDT_TLS_MIN	6	/* per-thread TLS descriptors: entries 6, 7, 8 (kernel/tls.c) */
#define GDT_TLS_COUNT	3
#define GDT_ENTRIES	(GDT_TLS_MIN + GDT_TLS_COUNT)

/* Each CPU loads its own GDT, CPU n's at cpu_gdt_first + n * CPU_GDT_STRIDE
 * (gdt.c): sgdt, an unprivileged register read with no segment load, tells
 * which CPU runs (smp_processor_id, include/smp.h). */
#define CPU_GDT_STRIDE	256
extern const u32 cpu_gdt_first;

static inline u32 gdt_this_cpu(void)
{
	struct dtr d;

	asm volatile("sgdt %0" : "=m"(d));
	return (d.base - cpu_gdt_first) / CPU_GDT_STRIDE;
}

/* The boot CPU's GDT and TSS. */
void gdt_init(void);
/* Application processor cpu's own GDT and TSS (ring-0 stack esp0), loaded on
 * it, by it. */
void gdt_init_ap(u32 cpu, u32 esp0);
/* Write / read one descriptor of the running CPU's GDT (the TLS entries of
 * the task it runs; interrupts off, so that the CPU cannot change). */
void gdt_set_entry(int entry, u64 desc);
u64 gdt_get_entry(int entry);
/* Stack the running CPU switches to on a trap from ring 3 (and SYSENTER's
 * entry): its TSS's esp0 and its sysenter_stacks[] entry. Interrupts off. */
void tss_set_kernel_stack(u32 esp0);

/* SYSENTER loads esp with &sysenter_stacks[cpu].esp0 (each CPU's
 * MSR_SYSENTER_ESP); the entry's first instruction loads the task's kernel
 * stack from there. A debug trap taken before it (ring 3 set TF just before
 * SYSENTER) pushes into scratch: a kernel stack of its own, so its
 * thread_info names a task (the CPU's idle task) as `current` needs. */
struct sysenter_stack {
	struct thread_info ti;
	u32 scratch[(KSTACK_SIZE - sizeof(struct thread_info)) / 4 - 1];
	u32 esp0;
};
extern struct sysenter_stack sysenter_stacks[NR_CPUS];

#endif
