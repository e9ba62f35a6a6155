/* softirq.c: bottom halves run on the way out of the outermost interrupt.
 *
 * Per CPU: a softirq raised on a CPU runs on that CPU (its struct cpu's
 * softirq_pending and softirq_active), as Linux's; the actions themselves
 * say what they share (run_timers: the one timer wheel, under its lock). */
#include "softirq.h"
#include "irq.h"
#include "panic.h"
#include "sched.h"
#include "smp.h"
#include "x86.h"

#define SOFTIRQ_RESTARTS	4	/* passes before leaving the rest for the next exit */

static void (*softirq_actions[NR_SOFTIRQS])(void);

void open_softirq(int nr, void (*action)(void))
{
	softirq_actions[nr] = action;
}

void raise_softirq(int nr)
{
	__atomic_or_fetch(&this_cpu()->softirq_pending, 1u << nr, __ATOMIC_SEQ_CST);
}

/* Interrupts off on entry and exit; on while the actions run. irq_nesting is
 * raised so that in_interrupt() holds and a nested interrupt neither re-enters
 * the softirqs nor preempts. */
static void do_softirq(struct cpu *c)
{
	int passes = SOFTIRQ_RESTARTS;
	u32 pending;

	irq_nesting++;
	c->softirq_active = true;
	while (passes-- && (pending = __atomic_exchange_n(&c->softirq_pending, 0, __ATOMIC_SEQ_CST))) {
		sti();
		for (int nr = 0; nr < NR_SOFTIRQS; nr++)
			if ((pending & (1u << nr)) && softirq_actions[nr])
				softirq_actions[nr]();
		cli();
	}
	c->softirq_active = false;
	irq_nesting--;
}

void irq_exit(struct trap_frame *tf)
{
	struct cpu *c;

	if (irq_nesting)
		return;
	c = this_cpu();
	if (c->softirq_active)
		return;
	if (c->softirq_pending)
		do_softirq(c);
	preempt_irq_return(tf);
}
