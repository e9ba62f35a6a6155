/* cond.c: condition variables: waits on a futex sequence word, timed on CLOCK_REALTIME or CLOCK_MONOTONIC, cancellable. */
#include <limits.h>
#include "impl.h"

/*
 * Counts under the internal lock __lock: __waiters in a wait, __releases given
 * by signal/broadcast and not yet taken.  Each signal moves __gen and __seq;
 * a waiter may take a release only if __gen moved since it arrived, so a
 * signal never goes to a thread that started waiting after it.  Wakes are
 * issued under __lock: the futex queue then holds only threads that arrived
 * before the signal, any of which may take it.
 */
#define COND_CLOCK(c)	((c)->__flags & __PTHREAD_MONOTONIC ? CLOCK_MONOTONIC : CLOCK_REALTIME)
#define COND_SHARED(c)	__pthread_shared((c)->__flags)

int pthread_condattr_init(pthread_condattr_t *a)
{
	a->__flags = 0;
	return 0;
}

int pthread_condattr_destroy(pthread_condattr_t *a)
{
	(void)a;
	return 0;
}

int pthread_condattr_setclock(pthread_condattr_t *a, clockid_t clock)
{
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return EINVAL;
	a->__flags = (a->__flags & ~__PTHREAD_MONOTONIC) |
		     (clock == CLOCK_MONOTONIC ? __PTHREAD_MONOTONIC : 0);
	return 0;
}

int pthread_condattr_getclock(const pthread_condattr_t *a, clockid_t *clock)
{
	*clock = a->__flags & __PTHREAD_MONOTONIC ? CLOCK_MONOTONIC : CLOCK_REALTIME;
	return 0;
}

int pthread_condattr_setpshared(pthread_condattr_t *a, int pshared)
{
	return __pthread_set_pshared(&a->__flags, pshared);
}

int pthread_condattr_getpshared(const pthread_condattr_t *a, int *pshared)
{
	*pshared = __pthread_get_pshared(a->__flags);
	return 0;
}

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a)
{
	*c = (pthread_cond_t){ .__flags = a ? a->__flags : 0 };
	return 0;
}

int pthread_cond_destroy(pthread_cond_t *c)
{
	return c->__waiters ? EBUSY : 0;
}

/* Called with __lock held: release up to n of the waiters there are now. */
static void cond_release(pthread_cond_t *c, unsigned n)
{
	unsigned idle = c->__waiters - c->__releases;

	if (!idle)
		return;
	c->__releases += n < idle ? n : idle;
	c->__gen++;
	c->__seq++;
	__futex_wake(&c->__seq, n < idle ? (int)n : INT_MAX, COND_SHARED(c));
}

int pthread_cond_signal(pthread_cond_t *c)
{
	__lock_word(&c->__lock, COND_SHARED(c));
	cond_release(c, 1);
	__unlock_word(&c->__lock, COND_SHARED(c));
	return 0;
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	__lock_word(&c->__lock, COND_SHARED(c));
	cond_release(c, UINT_MAX);
	__unlock_word(&c->__lock, COND_SHARED(c));
	return 0;
}

struct cond_wait {
	pthread_cond_t	*c;
	pthread_mutex_t	*m;
	unsigned	gen;		/* __gen when the waiter arrived */
};

/* Under __lock: take a release meant for this waiter (1), or none (0). */
static int cond_take(struct cond_wait *w)
{
	pthread_cond_t *c = w->c;

	if (!c->__releases || c->__gen == w->gen)
		return 0;
	c->__releases--;
	c->__waiters--;
	return 1;
}

/* A cancelled waiter leaves, passes on a release it may have been woken
 * for, and takes the mutex back before the cleanup handlers run. */
static void cond_cancelled(void *arg)
{
	struct cond_wait *w = arg;
	pthread_cond_t *c = w->c;

	__lock_word(&c->__lock, COND_SHARED(c));
	if (cond_take(w))
		cond_release(c, 1);
	else
		c->__waiters--;
	__unlock_word(&c->__lock, COND_SHARED(c));
	pthread_mutex_lock(w->m);
}

/* Sleep until a release is taken (0) or the deadline passes (ETIMEDOUT). Spurious
 * wakes, EINTR and wakes meant for later waiters go back to sleep. */
static int cond_sleep(struct cond_wait *w, int seq, const struct timespec *abstime)
{
	pthread_cond_t *c = w->c;
	int shared = COND_SHARED(c), e, r;

	for (;;) {
		e = __futex_wait_cp(&c->__seq, seq, COND_CLOCK(c), abstime, shared);
		__lock_word(&c->__lock, shared);
		r = cond_take(w) ? 0 : e == -ETIMEDOUT || e == -EINVAL ? -e : -1;
		if (r > 0)
			c->__waiters--;
		seq = c->__seq;
		__unlock_word(&c->__lock, shared);
		if (r >= 0)
			return r;
	}
}

static int cond_wait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime)
{
	struct cond_wait w = { c, m, 0 };
	int shared = COND_SHARED(c), seq, r;

	if (abstime && (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000L))
		return EINVAL;
	__lock_word(&c->__lock, shared);
	c->__waiters++;
	w.gen = c->__gen;
	seq = c->__seq;
	__unlock_word(&c->__lock, shared);
	r = pthread_mutex_unlock(m);
	if (r) {			/* not the owner (error-checking mutex) */
		__lock_word(&c->__lock, shared);
		c->__waiters--;
		__unlock_word(&c->__lock, shared);
		return r;
	}
	pthread_cleanup_push(cond_cancelled, &w);
	r = cond_sleep(&w, seq, abstime);
	pthread_cleanup_pop(0);
	pthread_mutex_lock(m);
	return r;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	return cond_wait(c, m, 0);
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime)
{
	return cond_wait(c, m, abstime);
}
