/* irq.h: the two 8259 PICs (remapped to vectors 32..47) and IRQ handlers. */
#ifndef IRQ_H
#define IRQ_H

#include "thread_info.h"
#include "types.h"

struct trap_frame;
typedef void (*irq_handler_t)(int irq, void *data);

#define NR_IRQS		16
#define IRQ_SPURIOUS_MASTER 7
#define IRQ_SPURIOUS_SLAVE  15

void irq_init(void);
/* Register a handler and unmask the line; several handlers may share a line.
 * Returns 0, or -EBUSY when the line's handler slots are full. */
int irq_register(int irq, irq_handler_t fn, void *data);
void irq_mask(int irq);
void irq_unmask(int irq);
void irq_dispatch(struct trap_frame *tf);

extern u32 irq_count[NR_IRQS];		/* interrupts handled per line */
extern u32 irq_spurious_count;		/* spurious IRQ 7 / 15 seen */
/* irq_nesting (> 0 while in an interrupt handler): thread_info.h */

/* The frame the innermost interrupt being handled saved (NULL outside one). */
struct trap_frame *get_irq_regs(void);

static inline bool in_interrupt(void)
{
	return irq_nesting > 0;
}

#endif
