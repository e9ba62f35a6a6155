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
/* Stack the CPU switches to on a trap from ring 3. */
void tss_set_kernel_stack(u32 esp0);

#endif
