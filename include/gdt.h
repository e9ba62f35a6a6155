/* gdt.h: segment selectors, the GDT and the task-state segment. */
#ifndef GDT_H
#define GDT_H

#include "types.h"

#define KERNEL_CS	0x08
#define KERNEL_DS	0x10
#define USER_CS		0x1B	/* index 3, RPL 3 */
#define USER_DS		0x23	/* index 4, RPL 3 */
#define TSS_SEL		0x28

void gdt_init(void);
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
