/* timer.h: kernel timers: a callback run from the timer bottom half (softirq)
 * once jiffies reaches an expiry. Insertion and removal are O(1) (a hierarchical
 * timer wheel per CPU, as in Linux 2.6); a timer fires at the first tick of its
 * CPU at or after its expiry, in deadline order among the timers of that CPU.
 *
 * Per CPU: add_timer and mod_timer put the timer on the wheel of the CPU that
 * calls them (CPU 0's if that CPU has no tick), and its callback runs in that
 * CPU's timer softirq; a mod_timer from another CPU moves it there, unless its
 * callback is running at that moment (it then stays where it runs).
 *
 * Context: callbacks run in softirq context with interrupts enabled; they must
 * not sleep. add/mod/del may be called from any context and on any CPU, at
 * the same time on one timer (each call is atomic against the others and
 * against the firing). del_timer_sync only where the caller may wait: never
 * from the timer's own callback, nor from an interrupt on the CPU where that
 * callback runs (it would wait for itself: panics), nor from a callback that
 * another timer's del_timer_sync waits for while this timer's callback waits
 * for it.
 */
#ifndef TIMER_H
#define TIMER_H

#include "list.h"
#include "types.h"

struct timer_base;

struct timer_list {
	struct list_head entry;		/* wheel slot; entry.next == NULL: not pending */
	unsigned long expires;		/* in jiffies */
	void (*function)(unsigned long data);
	unsigned long data;
	struct timer_base *base;	/* the wheel it was last on; NULL: never armed */
};

#define TIMER_INITIALIZER(fn, exp, d)	{ { NULL, NULL }, (exp), (fn), (d), NULL }

/* Prepare a timer (not pending); set function, data and expires afterwards. */
static inline void init_timer(struct timer_list *t)
{
	t->entry.next = NULL;
	t->entry.prev = NULL;
	t->base = NULL;
}

static inline void setup_timer(struct timer_list *t, void (*fn)(unsigned long),
			       unsigned long data)
{
	init_timer(t);
	t->function = fn;
	t->data = data;
}

static inline bool timer_pending(const struct timer_list *t)
{
	return t->entry.next != NULL;
}

/* Start a timer that is not pending, at t->expires. */
void add_timer(struct timer_list *t);
/* (Re)start a timer at expires, pending or not. Returns 1 if it was pending. */
int mod_timer(struct timer_list *t, unsigned long expires);
/* Stop a timer. Returns 1 if it was pending. The callback may still be running. */
int del_timer(struct timer_list *t);
/* Stop a timer and wait until its callback is not running, on any CPU. Returns
 * 1 if it was pending. Thread context (or a softirq other than the timer's own;
 * see the head comment for what deadlocks). */
int del_timer_sync(struct timer_list *t);

/* Set up every CPU's wheel and the timer softirq; CPU 0's wheel runs from
 * now on. After time_init. */
void timer_init(void);
/* The running CPU's tick has started (an AP, interrupts off): timers armed on
 * it go on its own wheel from now on. */
void timer_cpu_start(void);
/* From each CPU's tick (hard irq): raise TIMER_SOFTIRQ on this CPU if its
 * wheel holds a timer and a tick is due. */
void run_local_timers(void);

/* Counters of one CPU's wheel (tests, benchmarks). */
struct timer_stats {
	u32 lock_taken;		/* its lock taken by add/mod/del and its softirq */
	u32 lock_contended;	/* ... found held by another CPU first */
	u32 armed;		/* timers added to it */
	u32 fired;		/* callbacks it ran */
	u32 migrated_out;	/* pending or idle timers moved to another CPU's */
	u32 sync_waits;		/* del_timer_sync passes that found the callback running */
	u32 pending;		/* on it now */
};
/* Copy CPU cpu's counters; -EINVAL past NR_CPUS. Any context. */
int timer_cpu_stats(u32 cpu, struct timer_stats *s);
/* Whether CPU cpu runs a wheel of its own (its tick started). */
bool timer_cpu_ticking(u32 cpu);
/* Timers pending now, on every wheel (tests, gdb). A sum of per-CPU counts,
 * exact only when no CPU arms or fires meanwhile. */
u32 timers_pending(void);
/* true (default): a timer goes on its arming CPU's wheel; false: on CPU 0's,
 * the one-wheel design before per-CPU wheels (benchmarks compare the two).
 * Flip only when no test arms timers at the same time; pending timers stay
 * where they are. */
extern bool timer_percpu;

#endif
