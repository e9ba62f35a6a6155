/* softirq.c: bottom halves run on the way out of the outermost interrupt. */
#include "softirq.h"
#include "irq.h"
#include "panic.h"
#include "sched.h"
#include "x86.h"

#define SOFTIRQ_RESTARTS	4	/* passes before leaving the rest for the next exit */

static void (*softirq_actions[NR_SOFTIRQS])(void);
static volatile u32 softirq_pending;
bool softirq_active;

void open_softirq(int nr, void (*action)(void))
{
	softirq_actions[nr] = action;
}

void raise_softirq(int nr)
{
	__atomic_or_fetch(&softirq_pending, 1u << nr, __ATOMIC_SEQ_CST);
}

/* Interrupts off on entry and exit; on while the actions run. irq_nesting is
 * raised so that in_interrupt() holds and a nested interrupt neither re-enters
 * the softirqs nor preempts. */
static void do_softirq(void)
{
	int passes = SOFTIRQ_RESTARTS;
	u32 pending;

	irq_nesting++;
	softirq_active = true;
	while (passes-- && (pending = softirq_pending)) {
		softirq_pending = 0;
		sti();
		for (int nr = 0; nr < NR_SOFTIRQS; nr++)
			if ((pending & (1u << nr)) && softirq_actions[nr])
				softirq_actions[nr]();
		cli();
	}
	softirq_active = false;
	irq_nesting--;
}

void irq_exit(struct trap_frame *tf)
{
	if (irq_nesting || softirq_active)
		return;
	if (softirq_pending)
		do_softirq();
	preempt_irq_return(tf);
}
