/* softirq.h: the bottom half: work raised by interrupt handlers and run on the
 * way out of the outermost interrupt, with interrupts enabled.
 *
 * Context rules: a softirq action runs in interrupt context (in_interrupt() is
 * true, it must not sleep), never nested in itself, and with interrupts on, so
 * it takes irq-safe locks (spin_lock_irq / _irqsave) like a hard handler.
 */
#ifndef SOFTIRQ_H
#define SOFTIRQ_H

#include "irq.h"
#include "smp.h"
#include "types.h"

struct trap_frame;

enum {
	TIMER_SOFTIRQ,			/* expired kernel timers */
	NR_SOFTIRQS
};

/* Install the action for softirq nr (at init, before it can be raised). */
void open_softirq(int nr, void (*action)(void));
/* Mark softirq nr pending; it runs when the outermost interrupt returns.
 * Any context (from thread context it waits for the next interrupt). */
void raise_softirq(int nr);

/* Called by irq_dispatch after the EOI, interrupts off: run pending softirqs if
 * this was the outermost interrupt, then let the scheduler preempt. */
void irq_exit(struct trap_frame *tf);

/* Running softirq actions right now (on this CPU). */
static inline bool in_softirq(void)
{
	return this_cpu()->softirq_active;
}

/* In a hard interrupt handler (possibly nested in a softirq). */
static inline bool in_irq(void)
{
	return irq_nesting > (in_softirq() ? 1 : 0);
}

#endif
