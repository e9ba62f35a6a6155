/* rwlock.c: read-write locks, readers first (a reader never waits for a waiting writer, so read locks nest). */
#include <limits.h>
#include "impl.h"

/*
 * State under the internal lock __lock: __readers holding, __writer (owner id)
 * holding, __rwait/__wwait waiting.  Readers sleep on __rseq, writers on __wseq;
 * whoever frees the lock moves one of them and wakes under __lock: every
 * reader while a writer held it, else one writer.
 */
#define RW_SHARED(rw)	__pthread_shared((rw)->__flags)

int pthread_rwlockattr_init(pthread_rwlockattr_t *a)
{
	a->__flags = 0;
	return 0;
}

int pthread_rwlockattr_destroy(pthread_rwlockattr_t *a)
{
	(void)a;
	return 0;
}

int pthread_rwlockattr_setpshared(pthread_rwlockattr_t *a, int pshared)
{
	return __pthread_set_pshared(&a->__flags, pshared);
}

int pthread_rwlockattr_getpshared(const pthread_rwlockattr_t *a, int *pshared)
{
	*pshared = __pthread_get_pshared(a->__flags);
	return 0;
}

int pthread_rwlock_init(pthread_rwlock_t *rw, const pthread_rwlockattr_t *a)
{
	*rw = (pthread_rwlock_t){ .__flags = a ? a->__flags : 0 };
	return 0;
}

int pthread_rwlock_destroy(pthread_rwlock_t *rw)
{
	return rw->__readers || rw->__writer ? EBUSY : 0;
}

/* Under __lock: may the caller take it now? */
static int rw_free_for(pthread_rwlock_t *rw, int writer)
{
	return writer ? !rw->__writer && !rw->__readers : !rw->__writer;
}

/*
 * Called and returns with __lock held: sleep until the lock is free for the
 * caller (0), the deadline passes (ETIMEDOUT) or it is invalid (EINVAL).
 */
static int rw_wait(pthread_rwlock_t *rw, int writer, const struct timespec *abstime)
{
	volatile int *seqp = writer ? &rw->__wseq : &rw->__rseq;
	unsigned *waiting = writer ? &rw->__wwait : &rw->__rwait;
	int shared = RW_SHARED(rw), seq, e;

	while (!rw_free_for(rw, writer)) {
		seq = *seqp;
		++*waiting;
		__unlock_word(&rw->__lock, shared);
		e = __futex_wait_until(seqp, seq, CLOCK_REALTIME, abstime, shared);
		__lock_word(&rw->__lock, shared);
		--*waiting;
		if ((e == -ETIMEDOUT || e == -EINVAL) && !rw_free_for(rw, writer))
			return -e;
	}
	return 0;
}

static int rw_lock(pthread_rwlock_t *rw, int writer, int try, const struct timespec *abstime)
{
	int shared = RW_SHARED(rw), self = __pthread_owner_id(rw->__flags), r = 0;

	__lock_word(&rw->__lock, shared);
	if (try && !rw_free_for(rw, writer))
		r = EBUSY;		/* glibc: EBUSY even when the caller is the writer */
	else if (rw->__writer == self)
		r = EDEADLK;
	else if (!writer && rw->__readers == UINT_MAX)
		r = EAGAIN;
	else
		r = rw_wait(rw, writer, abstime);
	if (!r && writer)
		rw->__writer = self;
	else if (!r)
		rw->__readers++;
	__unlock_word(&rw->__lock, shared);
	return r;
}

int pthread_rwlock_rdlock(pthread_rwlock_t *rw)
{
	return rw_lock(rw, 0, 0, 0);
}

int pthread_rwlock_tryrdlock(pthread_rwlock_t *rw)
{
	return rw_lock(rw, 0, 1, 0);
}

int pthread_rwlock_timedrdlock(pthread_rwlock_t *rw, const struct timespec *abstime)
{
	return rw_lock(rw, 0, 0, abstime);
}

int pthread_rwlock_wrlock(pthread_rwlock_t *rw)
{
	return rw_lock(rw, 1, 0, 0);
}

int pthread_rwlock_trywrlock(pthread_rwlock_t *rw)
{
	return rw_lock(rw, 1, 1, 0);
}

int pthread_rwlock_timedwrlock(pthread_rwlock_t *rw, const struct timespec *abstime)
{
	return rw_lock(rw, 1, 0, abstime);
}

/* Under __lock, the lock just became free: hand it on. */
static void rw_wake(pthread_rwlock_t *rw)
{
	int shared = RW_SHARED(rw);

	if (rw->__rwait) {
		rw->__rseq++;
		__futex_wake(&rw->__rseq, INT_MAX, shared);
	} else if (rw->__wwait) {
		rw->__wseq++;
		__futex_wake(&rw->__wseq, 1, shared);
	}
}

int pthread_rwlock_unlock(pthread_rwlock_t *rw)
{
	int shared = RW_SHARED(rw), r = 0;

	__lock_word(&rw->__lock, shared);
	if (rw->__writer) {
		if (rw->__writer != __pthread_owner_id(rw->__flags))
			r = EPERM;
		else
			rw->__writer = 0;
	} else if (rw->__readers) {
		rw->__readers--;
	} else {
		r = EPERM;
	}
	if (!r && !rw->__writer && !rw->__readers)
		rw_wake(rw);
	__unlock_word(&rw->__lock, shared);
	return r;
}
