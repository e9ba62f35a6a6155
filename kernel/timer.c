/* timer.c: kernel timers on hierarchical timer wheels, one wheel per CPU, each
 * run from the timer softirq of its own CPU.
 *
 * Five levels per wheel: tv1 has one slot per tick for the next 256 ticks;
 * tv2..tv5 have 64 slots each covering 2^8, 2^14, 2^20 and 2^26 ticks. Adding
 * or removing is a list operation on one slot: O(1) whatever the number of
 * timers. Every 256 ticks one tv2 slot is cascaded (re-sorted) into tv1, and
 * so on up: each timer is moved at most four times over its life.
 *
 * Per CPU: add_timer/mod_timer put a timer on the wheel of the CPU that arms
 * it (CPU 0's when that CPU has no tick of its own, or when timer_percpu is
 * off); each CPU's tick raises TIMER_SOFTIRQ on that CPU, which runs that
 * CPU's wheel only. jiffies stays one counter, advanced by CPU 0's PIT tick
 * (kernel/time.c): every wheel catches up with it tick by tick, so a CPU
 * whose tick comes late still fires its timers in deadline order.
 *
 * Locks: each wheel's base->lock (irq-safe) guards that wheel, the entry of
 * every timer on it, its running_timer, nr_pending and timer_jiffies. A
 * timer's base pointer says which lock guards it: it is read, that lock
 * taken, and it is read again (lock_timer_base). It changes only under the
 * old base's lock, to TIMER_MIGRATING, and then under the new base's lock:
 * no two base locks are ever held together. A timer whose callback runs is
 * never moved off its base, so one timer's callback never runs on two CPUs
 * at once and del_timer_sync finds it there. Callbacks run without the lock,
 * interrupts on.
 */
#include "timer.h"
#include "atomic.h"
#include "clock.h"
#include "errno.h"
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

/* t->base while the timer moves between wheels: wait, then read it again. */
#define TIMER_MIGRATING	((struct timer_base *)1)

struct timer_base {
	spinlock_t lock;
	unsigned long timer_jiffies;		/* next tick to process */
	struct timer_list *running_timer;	/* callback in progress on this CPU */
	u32 nr_pending;				/* timers on this wheel */
	u32 cpu;				/* the CPU whose tick runs it */
	volatile bool ticking;			/* that CPU has a tick: arm here */
	struct timer_stats stats;		/* under lock, but lock_taken/_contended */
	struct list_head tv1[TVR_SIZE];
	struct list_head tvn[4][TVN_SIZE];	/* tv2..tv5 */
} __attribute__((aligned(64)));

/* The per-CPU area of the timers: CPU n's wheel is timer_bases[n]. */
static struct timer_base timer_bases[NR_CPUS];
bool timer_percpu = true;

/* Take b's lock, interrupts already off; counts whether another CPU held it. */
static void base_lock(struct timer_base *b)
{
	bool busy = spin_is_locked(&b->lock);

	spin_lock(&b->lock);
	b->stats.lock_taken++;
	b->stats.lock_contended += busy;
}

/* The wheel a timer armed now goes on; interrupts off. */
static struct timer_base *arm_base(void)
{
	struct timer_base *b = &timer_bases[smp_processor_id()];

	return READ_ONCE(timer_percpu) && b->ticking ? b : &timer_bases[0];
}

/* Lock the wheel t is on and return it, interrupts off (*flags to restore).
 * A timer never armed (base NULL) is claimed for the arming CPU's wheel. */
static struct timer_base *lock_timer_base(struct timer_list *t, u32 *flags)
{
	for (;;) {
		struct timer_base *seen = READ_ONCE(t->base), *b = seen;

		*flags = local_irq_save();
		if (!b)
			b = arm_base();
		if (b != TIMER_MIGRATING) {
			base_lock(b);
			if (seen ? READ_ONCE(t->base) == b :
			    __atomic_compare_exchange_n(&t->base, &seen, b, false,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				return b;
			spin_unlock(&b->lock);
		}
		local_irq_restore(*flags);
		cpu_relax();
	}
}

static void unlock_timer_base(struct timer_base *b, u32 flags)
{
	spin_unlock(&b->lock);
	local_irq_restore(flags);
}

/* Slot for t relative to b->timer_jiffies; b->lock held. */
static void internal_add_timer(struct timer_base *b, struct timer_list *t)
{
	unsigned long expires = t->expires, idx = expires - b->timer_jiffies;
	struct list_head *vec;

	if ((long)idx < 0) {			/* already due: next tick */
		vec = &b->tv1[b->timer_jiffies & TVR_MASK];
	} else if (idx < TVR_SIZE) {
		vec = &b->tv1[expires & TVR_MASK];
	} else {
		int level = 0;
		while (level < 3 && idx >= 1UL << (TVR_BITS + (level + 1) * TVN_BITS))
			level++;
		vec = &b->tvn[level][(expires >> (TVR_BITS + level * TVN_BITS)) & TVN_MASK];
	}
	list_add_tail(&t->entry, vec);
}

/* Move every timer of tvn[level][index] down the wheel; returns index, so the
 * caller cascades the next level only when this one wrapped to 0. */
static int cascade(struct timer_base *b, int level, int index)
{
	struct list_head *slot = &b->tvn[level][index], *pos, *n;

	list_for_each_safe(pos, n, slot)
		internal_add_timer(b, list_entry(pos, struct timer_list, entry));
	INIT_LIST_HEAD(slot);
	return index;
}

static int wheel_index(struct timer_base *b, int level)
{
	return (b->timer_jiffies >> (TVR_BITS + level * TVN_BITS)) & TVN_MASK;
}

static void detach_timer(struct timer_base *b, struct timer_list *t)
{
	list_del(&t->entry);		/* leaves entry.next NULL: not pending */
	b->nr_pending--;
}

/* Add t (detached) to b at t->expires; b->lock held. An empty wheel that
 * its CPU stopped running (nothing was due) catches up with jiffies first. */
static void enqueue_timer(struct timer_base *b, struct timer_list *t)
{
	if (!b->nr_pending && time_after(jiffies, b->timer_jiffies))
		b->timer_jiffies = jiffies;
	internal_add_timer(b, t);
	b->nr_pending++;
	b->stats.armed++;
}

/* Move t (detached, b locked, interrupts off) to nb, and return nb locked:
 * t->base says TIMER_MIGRATING while neither lock is held. */
static struct timer_base *migrate_timer(struct timer_list *t, struct timer_base *b,
					struct timer_base *nb)
{
	__atomic_store_n(&t->base, TIMER_MIGRATING, __ATOMIC_RELEASE);
	b->stats.migrated_out++;
	spin_unlock(&b->lock);
	base_lock(nb);
	__atomic_store_n(&t->base, nb, __ATOMIC_RELEASE);
	return nb;
}

/* (Re)arm t at expires on the arming CPU's wheel, or on its own wheel while
 * its callback runs there. Returns 1 if it was pending. */
static int __mod_timer(struct timer_list *t, unsigned long expires)
{
	struct timer_base *b, *nb;
	int was_pending;
	u32 flags;

	b = lock_timer_base(t, &flags);
	was_pending = timer_pending(t);
	if (was_pending)
		detach_timer(b, t);
	nb = arm_base();
	if (nb != b && b->running_timer != t)
		b = migrate_timer(t, b, nb);
	t->expires = expires;
	enqueue_timer(b, t);
	unlock_timer_base(b, flags);
	return was_pending;
}

void add_timer(struct timer_list *t)
{
	if (timer_pending(t))
		panic("add_timer: timer %p is already pending", t);
	__mod_timer(t, t->expires);
}

int mod_timer(struct timer_list *t, unsigned long expires)
{
	return __mod_timer(t, expires);
}

/* Detach t if pending; *running: its callback runs now (on its base's CPU). */
static int try_del_timer(struct timer_list *t, struct timer_base **base, bool *running)
{
	struct timer_base *b;
	int was_pending;
	u32 flags;

	b = lock_timer_base(t, &flags);
	was_pending = timer_pending(t);
	if (was_pending)
		detach_timer(b, t);
	*running = b->running_timer == t;
	*base = b;
	unlock_timer_base(b, flags);
	return was_pending;
}

int del_timer(struct timer_list *t)
{
	struct timer_base *b;
	bool running;

	if (!READ_ONCE(t->base))
		return 0;			/* never armed */
	return try_del_timer(t, &b, &running);
}

/* Waits while the callback runs, on whichever CPU's wheel holds it. On the
 * callback's own CPU the wait could only spin if the callback were
 * interrupted by a context that then waits for it (or it deletes itself):
 * a deadlock, reported instead. */
int del_timer_sync(struct timer_list *t)
{
	int ret = 0;

	if (!READ_ONCE(t->base))
		return 0;			/* never armed */
	for (;;) {
		struct timer_base *b;
		bool running;

		ret |= try_del_timer(t, &b, &running);
		if (!running)
			return ret;
		__atomic_add_fetch(&b->stats.sync_waits, 1, __ATOMIC_RELAXED);
		if (in_interrupt() && b->cpu == smp_processor_id())
			panic("del_timer_sync: waiting for timer %p from its own callback "
			      "or an interrupt would never end", t);
		cpu_relax();
	}
}

/* Run the callbacks of one tick's slot; b->lock held, interrupts off. */
static void run_slot(struct timer_base *b, struct list_head *work)
{
	while (!list_empty(work)) {
		struct timer_list *t = list_first_entry(work, struct timer_list, entry);
		void (*fn)(unsigned long) = t->function;
		unsigned long data = t->data;

		detach_timer(b, t);
		b->running_timer = t;
		b->stats.fired++;
		spin_unlock_irq(&b->lock);
		fn(data);
		cli();
		base_lock(b);
	}
	b->running_timer = NULL;
}

/* Take tv1's slot index whole into *work: a callback re-arming for this tick
 * lands in a fresh slot list and runs on the next pass, not in a loop here. */
static void take_slot(struct timer_base *b, int index, struct list_head *work)
{
	*work = b->tv1[index];
	work->next->prev = work;
	work->prev->next = work;
	INIT_LIST_HEAD(&b->tv1[index]);
}

/* TIMER_SOFTIRQ: catch this CPU's wheel up with jiffies. */
static void run_timers(void)
{
	struct timer_base *b = &timer_bases[smp_processor_id()];
	struct list_head work;

	cli();
	base_lock(b);
	while (time_after_eq(jiffies, b->timer_jiffies)) {
		int index = b->timer_jiffies & TVR_MASK;

		if (!b->nr_pending) {		/* nothing to cascade or run */
			b->timer_jiffies = jiffies + 1;
			break;
		}
		if (!index && !cascade(b, 0, wheel_index(b, 0)) &&
		    !cascade(b, 1, wheel_index(b, 1)) && !cascade(b, 2, wheel_index(b, 2)))
			cascade(b, 3, wheel_index(b, 3));
		b->timer_jiffies++;
		if (list_empty(&b->tv1[index]))
			continue;
		take_slot(b, index, &work);
		run_slot(b, &work);
	}
	spin_unlock_irq(&b->lock);
}

void run_local_timers(void)
{
	struct timer_base *b = &timer_bases[smp_processor_id()];

	if (READ_ONCE(b->nr_pending) && time_after_eq(jiffies, READ_ONCE(b->timer_jiffies)))
		raise_softirq(TIMER_SOFTIRQ);
}

void timer_cpu_start(void)
{
	struct timer_base *b = &timer_bases[smp_processor_id()];
	u32 flags = local_irq_save();

	base_lock(b);
	if (time_after(jiffies, b->timer_jiffies))
		b->timer_jiffies = jiffies;
	__atomic_store_n(&b->ticking, true, __ATOMIC_RELEASE);
	unlock_timer_base(b, flags);
}

u32 timers_pending(void)
{
	u32 n = 0;

	for (int i = 0; i < NR_CPUS; i++)
		n += READ_ONCE(timer_bases[i].nr_pending);
	return n;
}

int timer_cpu_stats(u32 cpu, struct timer_stats *s)
{
	struct timer_base *b;
	u32 flags;

	if (cpu >= NR_CPUS)
		return -EINVAL;
	b = &timer_bases[cpu];
	flags = local_irq_save();
	spin_lock(&b->lock);			/* not base_lock: a reader is no user */
	*s = b->stats;
	s->pending = b->nr_pending;
	unlock_timer_base(b, flags);
	return 0;
}

bool timer_cpu_ticking(u32 cpu)
{
	return cpu < NR_CPUS && READ_ONCE(timer_bases[cpu].ticking);
}

static void timer_base_init(struct timer_base *b, u32 cpu)
{
	spin_lock_init(&b->lock, "timer_base");
	b->cpu = cpu;
	for (int i = 0; i < TVR_SIZE; i++)
		INIT_LIST_HEAD(&b->tv1[i]);
	for (int l = 0; l < 4; l++)
		for (int i = 0; i < TVN_SIZE; i++)
			INIT_LIST_HEAD(&b->tvn[l][i]);
	b->timer_jiffies = jiffies;
}

void timer_init(void)
{
	for (u32 cpu = 0; cpu < NR_CPUS; cpu++)
		timer_base_init(&timer_bases[cpu], cpu);
	timer_bases[0].ticking = true;		/* the PIT's CPU */
	open_softirq(TIMER_SOFTIRQ, run_timers);
}
