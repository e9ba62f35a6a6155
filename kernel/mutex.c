/* mutex.c: sleeping locks: an owner word changed by one compare-and-exchange
 * when uncontended; else waiters queued in order on a wait queue and the
 * mutex handed to the first of them on unlock; the debug checks of mutex.h.
 *
 * The slow paths run under m->wait.lock (irq-safe like every wait-queue lock,
 * though a mutex is never taken in an interrupt). A locker that finds the
 * mutex held sets MUTEX_FLAG_WAITERS, which makes the holder's fast unlock
 * fail, queues itself and sets its sleep state under that lock, then sleeps.
 * The slow unlock, under the same lock, makes the first waiter the owner
 * (keeping the flag while others wait), unqueues it and wakes it. A waiter
 * only tests "am I the owner?", so a wake-up can neither be lost nor stolen.
 * While the flag is set, the owner word changes only under the lock.
 * Lock order: m->wait.lock, then a scheduler run-queue lock.
 * A mutex with a lock_stat (mutex_set_stat) counts its acquisitions, waits
 * (from the failed fast path to ownership), holds, its waiters' sleeps and
 * its hand-offs with their latency (the wake-up until the new owner runs).
 */
#include "clock.h"
#include "irq.h"
#include "lock_stat.h"
#include "mm.h"
#include "mutex.h"
#include "panic.h"
#include "printk.h"
#include "smp.h"
#include "spinlock.h"

#define CALLER()	((u32)__builtin_return_address(0))

u32 mutex_bugs;

BUILD_BUG_ON(__alignof__(struct task) <= MUTEX_FLAG_WAITERS);	/* bit 0 is free */

void __mutex_init(struct mutex *m, const char *name)
{
	m->owner = 0;
	__init_waitqueue_head(&m->wait, name);
	m->name = name;
	m->owner_pc = 0;
	m->dep_class = 0;
	m->stat = NULL;
	m->stat_at = 0;
}

static void mutex_report(const struct mutex *m, u32 caller, const char *what)
{
	struct task *owner = mutex_owner(m);
	char where[64];

	lock_bug_report(&mutex_bugs, caller, "mutex %s: %s (owner %s/%d, taken at %s)", m->name,
			what, owner ? owner->name : "none", owner ? owner->pid : 0,
			owner ? mm_symbolize(m->owner_pc, where, sizeof(where)) : "-");
}

/* Compare-and-exchange the owner word; returns the value found there. */
static unsigned long owner_cmpxchg(struct mutex *m, unsigned long old, unsigned long new)
{
	__atomic_compare_exchange_n(&m->owner, &old, new, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_RELAXED);
	return old;
}

/* The checks before a lock that may sleep: false when it must not go on. */
static bool mutex_lock_allowed(struct mutex *m, u32 caller)
{
	if (unlikely(mutex_owner(m) == current)) {
		mutex_report(m, caller, "recursive lock (it would sleep forever)");
		return false;
	}
	if (unlikely(in_atomic_context())) {
		mutex_report(m, caller, "lock in atomic context (it may sleep)");
		if (in_interrupt() && mutex_is_locked(m))
			panic("mutex %s: lock of a held mutex in an interrupt", m->name);
	}
	return true;
}

/* m is now the caller's: the bookkeeping; asked: when its wait began
 * (0: it took m without waiting). */
static void mutex_acquired(struct mutex *m, u32 caller, u64 asked)
{
	if (unlikely(m->stat)) {
		u64 now = rdtsc();

		lock_stat_acquired(m->stat, asked != 0, asked ? now - asked : 0);
		m->stat_at = now;
	}
	m->owner_pc = caller;
	current->mutexes_held++;
	if (unlikely(lockdep_on))
		lockdep_acquire(m, &m->dep_class, m->name, LOCKDEP_MUTEX, caller, true);
}

/* wait.lock held: take m if it is free (true), else flag that it has waiters. */
static bool mutex_take_or_flag(struct mutex *m)
{
	unsigned long old = READ_ONCE(m->owner), seen;

	for (;;) {
		if (old & MUTEX_FLAG_WAITERS)
			return false;
		seen = owner_cmpxchg(m, old, old ? old | MUTEX_FLAG_WAITERS
						: (unsigned long)current);
		if (seen == old)
			return !old;
		old = seen;			/* the holder unlocked meanwhile */
	}
}

/* wait.lock held, the caller was just handed m after a sleep: one sleep
 * and the hand-off's latency (m->stat_at: when the unlock woke it). */
static void mutex_stat_handed(struct mutex *m)
{
	u64 d;

	if (likely(!m->stat))
		return;
	d = rdtsc() - m->stat_at;
	lock_stat_add(&m->stat->handoff_cycles, d);
	lock_stat_max(&m->stat->handoff_max, d);
}

/* wait.lock held, m flagged: queue at the tail and sleep until the owner hands
 * m over (0), or a signal comes first in TASK_INTERRUPTIBLE, a fatal one in
 * TASK_KILLABLE (-EINTR, unqueued).
 * Returns with the lock held again. */
static int mutex_wait(struct mutex *m, long state, u32 *flags)
{
	DECLARE_WAITQUEUE(w, current);
	int ret = 0;

	w.flags = WQ_FLAG_EXCLUSIVE;
	list_add_tail(&w.entry, &m->wait.head);
	for (;;) {
		set_current_state(state);
		current->wait_channel = m;
		if (unlikely(m->stat))
			__atomic_fetch_add(&m->stat->sleeps, 1, __ATOMIC_RELAXED);
		spin_unlock_irqrestore(&m->wait.lock, *flags);
		schedule();
		spin_lock_irqsave(&m->wait.lock, *flags);
		if (mutex_owner(m) == current) {
			mutex_stat_handed(m);
			break;			/* handed over: already unqueued */
		}
		if (signal_pending_state(state, current)) {
			list_del_init(&w.entry);
			if (list_empty(&m->wait.head))
				WRITE_ONCE(m->owner, m->owner & ~MUTEX_FLAG_WAITERS);
			ret = -EINTR;
			break;
		}
	}
	__set_current_state(TASK_RUNNING);
	current->wait_channel = NULL;
	return ret;
}

/* The slow path, m found owned at asked (its TSC stamp, 0 when no one
 * counts): queue and sleep unless it came free meanwhile. */
static int mutex_lock_slow(struct mutex *m, long state, u32 caller, u64 asked)
{
	u32 flags;
	int ret = 0;

	spin_lock_irqsave(&m->wait.lock, flags);
	if (!mutex_take_or_flag(m))
		ret = mutex_wait(m, state, &flags);
	spin_unlock_irqrestore(&m->wait.lock, flags);
	if (!ret)
		mutex_acquired(m, caller, asked);
	return ret;
}

/* The checks before a blocking lock, then its fast path: 1 when taken, 0
 * when owned (go on to wait), -EDEADLK when it must not be waited for. */
static int mutex_lock_begin(struct mutex *m, u32 caller)
{
	if (!mutex_lock_allowed(m, caller))
		return -EDEADLK;
	if (unlikely(lockdep_on))	/* before sleeping: told, not hung on */
		lockdep_check(m, &m->dep_class, m->name, LOCKDEP_MUTEX, caller);
	if (owner_cmpxchg(m, 0, (unsigned long)current))
		return 0;
	mutex_acquired(m, caller, 0);
	return 1;
}

static int __mutex_lock(struct mutex *m, long state, u32 caller)
{
	int r = mutex_lock_begin(m, caller);

	if (r)
		return r < 0 ? r : 0;
	return mutex_lock_slow(m, state, caller, unlikely(m->stat) ? rdtsc() : 0);
}

/* Spin for m until the TSC reaches until: true when taken. It gives up at
 * once when the owner is off its CPU (it cannot release m soon) or others
 * sleep for m (the unlock hands m to the first of them, never to us). The
 * owner's task is read without a reference: a stale read costs only the
 * guess, task memory stays mapped. */
static bool mutex_spin(struct mutex *m, u64 until)
{
	do {
		unsigned long o = READ_ONCE(m->owner);
		struct task *t = (struct task *)(o & ~MUTEX_FLAG_WAITERS);

		if (!o) {
			if (!owner_cmpxchg(m, 0, (unsigned long)current))
				return true;
			continue;
		}
		if ((o & MUTEX_FLAG_WAITERS) || !READ_ONCE(t->on_cpu))
			return false;
		cpu_relax();
	} while (rdtsc() < until);
	return false;
}

/* mutex_lock for a lock held for microseconds at a time, where a sleep's
 * hand-off costs more than the hold: with more than one CPU, spin up to
 * max_us while its owner runs, then sleep as mutex_lock does. A lock won
 * in the spin counts as contended, its wait from the first try. */
void mutex_lock_spin(struct mutex *m, u32 max_us)
{
	u32 caller = CALLER();
	u64 asked;

	if (mutex_lock_begin(m, caller))
		return;
	asked = rdtsc();
	if (nr_cpus_online > 1 && mutex_spin(m, asked + (u64)tsc_khz * max_us / 1000)) {
		mutex_acquired(m, caller, asked);
		return;
	}
	mutex_lock_slow(m, TASK_UNINTERRUPTIBLE, caller, asked);
}

void mutex_lock(struct mutex *m)
{
	__mutex_lock(m, TASK_UNINTERRUPTIBLE, CALLER());
}

int mutex_lock_interruptible(struct mutex *m)
{
	return __mutex_lock(m, TASK_INTERRUPTIBLE, CALLER());
}

int mutex_lock_killable(struct mutex *m)
{
	return __mutex_lock(m, TASK_KILLABLE, CALLER());
}

int mutex_trylock(struct mutex *m)
{
	if (unlikely(in_interrupt())) {
		mutex_report(m, CALLER(), "trylock in an interrupt (no task to own it)");
		return 0;
	}
	if (owner_cmpxchg(m, 0, (unsigned long)current)) {
		if (unlikely(m->stat))
			__atomic_fetch_add(&m->stat->try_failed, 1, __ATOMIC_RELAXED);
		return 0;
	}
	mutex_acquired(m, CALLER(), 0);
	return 1;
}

/* wait.lock held, the fast unlock failed: give m to the first waiter,
 * flagged while others still wait; or free it when none is left (the last
 * one went on a signal between our failed fast unlock and this lock, and
 * cleared the flag: another CPU, or an interrupt's wake-up). */
static void mutex_hand_off(struct mutex *m)
{
	wait_queue_entry_t *next;

	if (list_empty(&m->wait.head)) {
		WRITE_ONCE(m->owner, 0);
		return;
	}
	next = list_first_entry(&m->wait.head, wait_queue_entry_t, entry);
	list_del_init(&next->entry);
	if (unlikely(m->stat)) {
		__atomic_fetch_add(&m->stat->handoffs, 1, __ATOMIC_RELAXED);
		m->stat_at = rdtsc();		/* mutex_stat_handed's start */
	}
	WRITE_ONCE(m->owner, (unsigned long)next->task |
		   (list_empty(&m->wait.head) ? 0 : MUTEX_FLAG_WAITERS));
	wake_up_process(next->task);
}

void mutex_unlock(struct mutex *m)
{
	unsigned long me = (unsigned long)current;
	u32 flags;

	if (unlikely(mutex_owner(m) != current)) {
		mutex_report(m, CALLER(), mutex_is_locked(m) ? "unlock by a task that does not hold it"
							     : "unlock of a mutex not held");
		return;
	}
	current->mutexes_held--;
	if (unlikely(lockdep_on))
		lockdep_release(m, LOCKDEP_MUTEX);
	if (unlikely(m->stat))
		lock_stat_released(m->stat, rdtsc() - m->stat_at);
	if (owner_cmpxchg(m, me, 0) == me)
		return;				/* nobody waits */
	spin_lock_irqsave(&m->wait.lock, flags);
	mutex_hand_off(m);
	spin_unlock_irqrestore(&m->wait.lock, flags);
}

void mutex_report_not_held(const struct mutex *m, const char *file, int line)
{
	char what[96];

	snprintf(what, sizeof(what), "not held by the caller (asserted at %s:%d)", file, line);
	mutex_report(m, CALLER(), what);
}

void mutex_report_user_return(void)
{
	lock_bug_report(&mutex_bugs, CALLER(), "return to user space with %d mutex(es) held",
			current->mutexes_held);
}
