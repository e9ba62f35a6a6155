/* timer.h: kernel timers: a callback run from the timer bottom half (softirq)
 * once jiffies reaches an expiry. Insertion and removal are O(1) (a hierarchical
 * timer wheel, as in Linux 2.6); a timer fires at the first tick at or after
 * its expiry, in deadline order.
 *
 * Context: callbacks run in softirq context with interrupts enabled; they must
 * not sleep. add/mod/del may be called from any context; del_timer_sync only
 * where sleeping would be allowed (it must not be called from the timer's own
 * callback). The caller serialises operations on one timer against each other.
 */
#ifndef TIMER_H
#define TIMER_H

#include "list.h"
#include "types.h"

struct timer_list {
	struct list_head entry;		/* wheel slot; entry.next == NULL: not pending */
	unsigned long expires;		/* in jiffies */
	void (*function)(unsigned long data);
	unsigned long data;
};

#define TIMER_INITIALIZER(fn, exp, d)	{ { NULL, NULL }, (exp), (fn), (d) }

/* Prepare a timer (not pending); set function, data and expires afterwards. */
static inline void init_timer(struct timer_list *t)
{
	t->entry.next = NULL;
	t->entry.prev = NULL;
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
/* Stop a timer and wait until its callback is not running. Returns 1 if it was
 * pending. Thread context (or a softirq other than the timer's own). */
int del_timer_sync(struct timer_list *t);

/* Set up the wheel and the timer softirq; after time_init. */
void timer_init(void);
/* Timers pending now (tests, gdb). */
extern u32 timers_pending;

#endif
