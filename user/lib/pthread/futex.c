/* futex.c: futex waits and wakes, deadlines on either clock, and the three-state lock word under every library lock. */
#include <errno.h>
#include <sched.h>
#include "../glue.h"
#include "tcb.h"

static int futex_op(int op, int shared)
{
	return shared ? op : op | KFUTEX_PRIVATE;
}

/*
 * Sleep while *word == val (the kernel compares, so a change since the caller
 * read it cannot be missed), for at most *rel.  A kernel without futexes (aiokern
 * before issue 15) yields instead: every caller loops until its condition holds.
 */
static int futex_wait(volatile int *word, int val, const struct timespec *rel, int shared,
		      int cancellable)
{
	struct kernel_timespec kts, *kp = 0;
	int op = futex_op(KFUTEX_WAIT, shared);
	long r;

	if (rel) {
		if (glue_ts_to_kernel(rel, &kts) < 0)
			return -EINVAL;
		kp = &kts;
	}
	r = cancellable ? __SYSCALL_CP(__NR_futex, word, op, val, kp)
			: __sys_futex((int *)word, op, val, kp, 0, 0);
	r = glue_neg_errno(r);
	if (r == -ENOSYS) {
		sched_yield();
		return 0;
	}
	return (int)r;
}

int __futex_wait(volatile int *word, int val, const struct timespec *rel, int shared)
{
	return futex_wait(word, val, rel, shared, 0);
}

/* Wake up to n sleepers on word; returns how many woke (or -errno). */
int __futex_wake(volatile int *word, int n, int shared)
{
	return (int)glue_neg_errno(__sys_futex((int *)word, futex_op(KFUTEX_WAKE, shared), n, 0, 0, 0));
}

int __timespec_until(clockid_t clock, const struct timespec *abstime, struct timespec *rel)
{
	struct timespec now;

	if (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000L)
		return -EINVAL;
	if (clock_gettime(clock, &now) < 0)
		return -EINVAL;
	rel->tv_sec = abstime->tv_sec - now.tv_sec;
	rel->tv_nsec = abstime->tv_nsec - now.tv_nsec;
	if (rel->tv_nsec < 0) {
		rel->tv_nsec += 1000000000L;
		rel->tv_sec--;
	}
	if (rel->tv_sec < 0 || (rel->tv_sec == 0 && rel->tv_nsec == 0))
		return -ETIMEDOUT;
	return 0;
}

/* The kernel's futex timeout is relative: it is recomputed from the clock each time. */
static int futex_wait_until(volatile int *word, int val, clockid_t clock,
			    const struct timespec *abstime, int shared, int cancellable)
{
	struct timespec rel;
	int r;

	if (!abstime)
		return futex_wait(word, val, 0, shared, cancellable);
	r = __timespec_until(clock, abstime, &rel);
	return r ? r : futex_wait(word, val, &rel, shared, cancellable);
}

int __futex_wait_until(volatile int *word, int val, clockid_t clock,
		       const struct timespec *abstime, int shared)
{
	return futex_wait_until(word, val, clock, abstime, shared, 0);
}

int __futex_wait_cp(volatile int *word, int val, clockid_t clock,
		    const struct timespec *abstime, int shared)
{
	return futex_wait_until(word, val, clock, abstime, shared, 1);
}

/*
 * The lock word: 0 free, 1 held, 2 held and perhaps slept on.  A contender sets
 * 2 before it sleeps, so the holder's unlock knows to wake one sleeper.
 * Returns 0, or -ETIMEDOUT / -EINVAL from the deadline (then not taken).
 */
int __lock_word_until(volatile int *word, int shared, clockid_t clock,
		      const struct timespec *abstime)
{
	int c = 0, r;

	if (__atomic_compare_exchange_n(word, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return 0;
	if (c != 2)
		c = __xchg(word, 2);
	while (c != 0) {
		r = __futex_wait_until(word, 2, clock, abstime, shared);
		if (r == -ETIMEDOUT || r == -EINVAL)
			return r;
		c = __xchg(word, 2);
	}
	return 0;
}

void __lock_word(volatile int *word, int shared)
{
	__lock_word_until(word, shared, CLOCK_REALTIME, 0);
}

int __trylock_word(volatile int *word)
{
	return __cas(word, 0, 1);
}

void __unlock_word(volatile int *word, int shared)
{
	if (__xchg(word, 0) == 2)
		__futex_wake(word, 1, shared);
}
