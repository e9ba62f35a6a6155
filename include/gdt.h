/* gdt.h: segment selectors, the GDT and the task-state segment. */
#ifndef GDT_H
#define GDT_H

#include "types.h"

#define KERNEL_CS	0x08
#define KERNEL_DS	0x10
#define USER_CS		0x1B	/* index 3, RPL 3 */
#define USER_DS		0x23	/* index 4, RPL 3 */
#define TSS_SEL		0x28
#define GDT_TLS_MIN	6	/* per-thread TLS descriptors: entries 6, 7, 8 (kernel/tls.c) */
#define GDT_TLS_COUNT	3
#define GDT_PERCPU	(GDT_TLS_MIN + GDT_TLS_COUNT)	/* 9: this CPU's struct cpu (smp.h) */
#define PERCPU_SEL	(GDT_PERCPU << 3)	/* 0x48, RPL 0: the kernel's %fs */
#define GDT_ENTRIES	(GDT_PERCPU + 1)

/* The boot CPU's GDT and TSS; %fs = PERCPU_SEL from here on. */
void gdt_init(void);
/* Application processor cpu's own GDT and TSS (ring-0 stack esp0), loaded on
 * it, by it. */
void gdt_init_ap(u32 cpu, u32 esp0);
/* Write / read one descriptor of the boot CPU's GDT, the one tasks run on
 * (the TLS entries; interrupts off). */
void gdt_set_entry(int entry, u64 desc);
u64 gdt_get_entry(int entry);
/* Stack the CPU switches to on a trap from ring 3 (and SYSENTER's entry). */
void tss_set_kernel_stack(u32 esp0);

/* SYSENTER loads esp with &sysenter_stack.esp0 (MSR_SYSENTER_ESP); the entry's
 * first instruction loads the task's kernel stack from there. A debug trap
 * taken before it (ring 3 set TF just before SYSENTER) pushes into scratch. */
struct sysenter_stack {
	u32 scratch[512];
	u32 esp0;
};
extern struct sysenter_stack sysenter_stack;

#endif
