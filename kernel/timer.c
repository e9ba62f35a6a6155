/* timer.c: kernel timers on a hierarchical timer wheel, run from the timer softirq.
 *
 * Five wheels: tv1 has one slot per tick for the next 256 ticks; tv2..tv5 have
 * 64 slots each covering 2^8, 2^14, 2^20 and 2^26 ticks. Adding or removing is
 * a list operation on one slot: O(1) whatever the number of timers. Every 256
 * ticks one tv2 slot is cascaded (re-sorted) into tv1, and so on up: each
 * timer is moved at most four times over its life.
 *
 * Lock: base.lock (irq-safe) guards the wheel, every timer's entry and
 * running_timer. Callbacks run without it, interrupts on.
 */
#include "timer.h"
#include "atomic.h"
#include "clock.h"
#include "panic.h"
#include "smp.h"
#include "softirq.h"
#include "spinlock.h"

#define TVR_BITS	8
#define TVN_BITS	6
#define TVR_SIZE	(1 << TVR_BITS)
#define TVN_SIZE	(1 << TVN_BITS)
#define TVR_MASK	(TVR_SIZE - 1)
#define TVN_MASK	(TVN_SIZE - 1)

struct timer_base {
	spinlock_t lock;
	unsigned long timer_jiffies;		/* next tick to process */
	struct timer_list *running_timer;	/* callback in progress */
	u32 running_cpu;			/* ... on this CPU */
	struct list_head tv1[TVR_SIZE];
	struct list_head tvn[4][TVN_SIZE];	/* tv2..tv5 */
};

static struct timer_base base = { .lock = SPINLOCK_INIT("timer_base") };
u32 timers_pending;

/* Slot for t relative to base.timer_jiffies; base.lock held. */
static void internal_add_timer(struct timer_list *t)
{
	unsigned long expires = t->expires, idx = expires - base.timer_jiffies;
	struct list_head *vec;

	if ((long)idx < 0) {			/* already due: next tick */
		vec = &base.tv1[base.timer_jiffies & TVR_MASK];
	} else if (idx < TVR_SIZE) {
		vec = &base.tv1[expires & TVR_MASK];
	} else {
		int level = 0;
		while (level < 3 && idx >= 1UL << (TVR_BITS + (level + 1) * TVN_BITS))
			level++;
		vec = &base.tvn[level][(expires >> (TVR_BITS + level * TVN_BITS)) & TVN_MASK];
	}
	list_add_tail(&t->entry, vec);
}

/* Move every timer of tvn[level][index] down the wheel; returns index, so the
 * caller cascades the next level only when this one wrapped to 0. */
static int cascade(int level, int index)
{
	struct list_head *slot = &base.tvn[level][index], *pos, *n;

	list_for_each_safe(pos, n, slot)
		internal_add_timer(list_entry(pos, struct timer_list, entry));
	INIT_LIST_HEAD(slot);
	return index;
}

static int wheel_index(int level)
{
	return (base.timer_jiffies >> (TVR_BITS + level * TVN_BITS)) & TVN_MASK;
}

static void detach_timer(struct timer_list *t)
{
	list_del(&t->entry);		/* leaves entry.next NULL: not pending */
	timers_pending--;
}

void add_timer(struct timer_list *t)
{
	u32 flags;

	if (timer_pending(t))
		panic("add_timer: timer %p is already pending", t);
	spin_lock_irqsave(&base.lock, flags);
	internal_add_timer(t);
	timers_pending++;
	spin_unlock_irqrestore(&base.lock, flags);
}

int mod_timer(struct timer_list *t, unsigned long expires)
{
	int was_pending;
	u32 flags;

	spin_lock_irqsave(&base.lock, flags);
	was_pending = timer_pending(t);
	if (was_pending)
		list_del(&t->entry);
	else
		timers_pending++;
	t->expires = expires;
	internal_add_timer(t);
	spin_unlock_irqrestore(&base.lock, flags);
	return was_pending;
}

int del_timer(struct timer_list *t)
{
	int was_pending;
	u32 flags;

	spin_lock_irqsave(&base.lock, flags);
	was_pending = timer_pending(t);
	if (was_pending)
		detach_timer(t);
	spin_unlock_irqrestore(&base.lock, flags);
	return was_pending;
}

/* Waits while the callback runs on another CPU (the wheel runs on the CPU
 * that takes the tick). On the callback's own CPU the wait could only spin
 * if the callback were interrupted by a context that then waits for it: a
 * deadlock, reported instead. */
int del_timer_sync(struct timer_list *t)
{
	for (;;) {
		int ret = del_timer(t);
		if (READ_ONCE(base.running_timer) != t)
			return ret;
		if (in_interrupt() && READ_ONCE(base.running_cpu) == smp_processor_id())
			panic("del_timer_sync: waiting for timer %p from its own callback "
			      "or an interrupt would never end", t);
		cpu_relax();
	}
}

/* Run the callbacks of one tick's slot; base.lock held, interrupts off. */
static void run_slot(struct list_head *work)
{
	while (!list_empty(work)) {
		struct timer_list *t = list_first_entry(work, struct timer_list, entry);
		void (*fn)(unsigned long) = t->function;
		unsigned long data = t->data;

		detach_timer(t);
		base.running_timer = t;
		base.running_cpu = smp_processor_id();
		spin_unlock_irq(&base.lock);
		fn(data);
		spin_lock_irq(&base.lock);
	}
	base.running_timer = NULL;
}

/* TIMER_SOFTIRQ: catch the wheel up with jiffies. */
static void run_timers(void)
{
	struct list_head work;

	spin_lock_irq(&base.lock);
	while (time_after_eq(jiffies, base.timer_jiffies)) {
		int index = base.timer_jiffies & TVR_MASK;

		if (!index && !cascade(0, wheel_index(0)) && !cascade(1, wheel_index(1)) &&
		    !cascade(2, wheel_index(2)))
			cascade(3, wheel_index(3));
		base.timer_jiffies++;
		if (list_empty(&base.tv1[index]))
			continue;
		/* Take the slot whole: a callback re-arming for this tick lands in a
		 * fresh slot list and runs on the next pass, not in a loop here. */
		work = base.tv1[index];
		work.next->prev = &work;
		work.prev->next = &work;
		INIT_LIST_HEAD(&base.tv1[index]);
		run_slot(&work);
	}
	spin_unlock_irq(&base.lock);
}

void timer_init(void)
{
	for (int i = 0; i < TVR_SIZE; i++)
		INIT_LIST_HEAD(&base.tv1[i]);
	for (int l = 0; l < 4; l++)
		for (int i = 0; i < TVN_SIZE; i++)
			INIT_LIST_HEAD(&base.tvn[l][i]);
	base.timer_jiffies = jiffies;
	open_softirq(TIMER_SOFTIRQ, run_timers);
}
