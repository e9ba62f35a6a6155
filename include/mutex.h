/* mutex.h: sleeping locks with an owner, FIFO hand-off and debug checks.
 *
 * A mutex is for process context: the holder may sleep, fault and copy to or
 * from user space while holding it. Waiters sleep on the mutex's wait queue in
 * arrival order; mutex_unlock hands the mutex to the first of them (it becomes
 * the owner before it even runs), so a waiter is never overtaken by a later
 * locker and no wake-up can be lost.
 *
 * The owner word holds the owning task and, in bit 0, MUTEX_FLAG_WAITERS.
 * Uncontended lock and unlock are one compare-and-exchange each (free to
 * current, current to free); they fail once the flag is set, and the slow
 * paths run under the wait queue's spinlock, which guards the queue and every
 * change of a flagged owner word. Nothing relies on interrupts being off.
 *
 * Debug checks (always on; each report counts in mutex_bugs, which the test
 * runs require to stay 0, and prints a backtrace):
 *  - lock in atomic context (interrupt, spinlock held, preemption or
 *    interrupts off): reported; a free mutex is still taken, a held one from
 *    an interrupt panics (sleeping there would hang the machine);
 *  - recursive lock: reported, returns at once without taking it again
 *    (mutex_lock_interruptible returns -EDEADLK);
 *  - unlock by a task that does not hold it, or of a free mutex: reported,
 *    the mutex is left as it was;
 *  - mutex_assert_held() by a task that does not hold it;
 *  - return to user space with a mutex held (counted per task in
 *    task->mutexes_held, checked at each system call's return).
 * Lock order: a mutex before any spinlock; never the other way round. With
 * the boot word "lockdep", the lock-order checker (lockdep.h) follows every
 * mutex too, in the holder's own stack (its task's).
 */
#ifndef MUTEX_H
#define MUTEX_H

#include "atomic.h"
#include "sched.h"
#include "types.h"
#include "wait.h"

#define MUTEX_FLAG_WAITERS	0x1ul	/* owner word: the queue is not empty */

struct mutex {
	unsigned long owner;		/* the holder's struct task * | flags; 0: free */
	wait_queue_head_t wait;		/* sleepers, first come first served */
	const char *name;
	u32 owner_pc;			/* where the holder took it, for reports */
	u16 dep_class;			/* lockdep.h: its class, 0 until first taken */
	struct lock_stat *stat;		/* lock_stat.h: its class's statistics, or NULL */
	u64 stat_at;			/* with stat: when the holder took it, or when
					 * an unlock handed it to a sleeper (wait.lock) */
};

#define __MUTEX_INITIALIZER(m)	{ 0, __WAIT_QUEUE_HEAD_INITIALIZER((m).wait), #m, 0, 0, NULL, 0 }
#define DEFINE_MUTEX(m)		struct mutex m = __MUTEX_INITIALIZER(m)
#define mutex_init(m)		__mutex_init((m), #m)
struct lock_stat;
/* Count m's acquisitions, waits, holds and hand-offs in s from now on
 * (lock_stat.h); set while nobody holds or waits for m (its init). */
static inline void mutex_set_stat(struct mutex *m, struct lock_stat *s)
{
	m->stat = s;
}

/* Reports of broken mutex rules so far (tests reset it after provoking one). */
extern u32 mutex_bugs;

void __mutex_init(struct mutex *m, const char *name);
/* Take m, sleeping (uninterruptibly) until it is free. Process context. */
void mutex_lock(struct mutex *m);
void mutex_lock_spin(struct mutex *m, u32 max_us);
/* The same, but a pending signal ends the wait: 0 when taken, -EINTR (not
 * taken) when a signal is pending, -EDEADLK on a recursive lock. */
int mutex_lock_interruptible(struct mutex *m);
/* The same for a fatal signal only (SIGKILL, a group exit): 0, or -EINTR.
 * For a wait that may last on another process but must not end for an
 * ordinary signal. */
int mutex_lock_killable(struct mutex *m);
/* Take m if it is free: 1 taken, 0 not. Never sleeps; not in interrupts. */
int mutex_trylock(struct mutex *m);
/* Release m (held by the caller), handing it to the first waiter if any.
 * Never sleeps: also with spinlocks held. Not in interrupts. */
void mutex_unlock(struct mutex *m);
/* The holder, or NULL. A hint: it may change right after. */
static inline struct task *mutex_owner(const struct mutex *m)
{
	return (struct task *)(READ_ONCE(m->owner) & ~MUTEX_FLAG_WAITERS);
}
/* Held by anyone? A hint, too. */
static inline bool mutex_is_locked(const struct mutex *m)
{
	return READ_ONCE(m->owner) != 0;
}
/* Does the current task hold m? */
static inline bool mutex_held_by_current(const struct mutex *m)
{
	return mutex_owner(m) == current;
}
/* Report (count) when the caller does not hold m: for helpers whose contract
 * is "called with m held". */
#define mutex_assert_held(m) do {						\
	if (unlikely(!mutex_held_by_current(m)))				\
		mutex_report_not_held(m, __FILE__, __LINE__);			\
} while (0)
void mutex_report_not_held(const struct mutex *m, const char *file, int line);

void mutex_report_user_return(void);
/* On every return to user space: the task must hold no mutex. */
static inline void mutex_check_user_return(void)
{
	if (unlikely(current->mutexes_held))
		mutex_report_user_return();
}

#endif
