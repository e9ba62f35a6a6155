/* mutex.c: normal, recursive and error-checking mutexes on a futex lock word; trylock, timedlock. */
#include "impl.h"

/*
 * __lock is the three-state word of futex.c: an uncontended lock or unlock is
 * one atomic instruction.  Recursive and error-checking mutexes record their
 * owner (impl.h: the control block, or the tid when process-shared); normal
 * ones record nothing and, as POSIX allows, deadlock on a relock.
 */
#define MUTEX_TYPE(m)	((m)->__kind & 3)

int pthread_mutexattr_init(pthread_mutexattr_t *a)
{
	a->__kind = PTHREAD_MUTEX_DEFAULT;
	return 0;
}

int pthread_mutexattr_destroy(pthread_mutexattr_t *a)
{
	(void)a;
	return 0;
}

int pthread_mutexattr_settype(pthread_mutexattr_t *a, int type)
{
	if (type != PTHREAD_MUTEX_NORMAL && type != PTHREAD_MUTEX_RECURSIVE &&
	    type != PTHREAD_MUTEX_ERRORCHECK)
		return EINVAL;
	a->__kind = (a->__kind & ~3) | type;
	return 0;
}

int pthread_mutexattr_gettype(const pthread_mutexattr_t *a, int *type)
{
	*type = a->__kind & 3;
	return 0;
}

int pthread_mutexattr_setpshared(pthread_mutexattr_t *a, int pshared)
{
	return __pthread_set_pshared(&a->__kind, pshared);
}

int pthread_mutexattr_getpshared(const pthread_mutexattr_t *a, int *pshared)
{
	*pshared = __pthread_get_pshared(a->__kind);
	return 0;
}

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
	*m = (pthread_mutex_t){ .__kind = a ? a->__kind : PTHREAD_MUTEX_DEFAULT };
	return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m)
{
	return m->__lock ? EBUSY : 0;
}

/*
 * Before taking the word: 0 to go on, -1 when a recursive owner took it once
 * more, else the error to return (EDEADLK, EAGAIN).
 */
static int mutex_owner_check(pthread_mutex_t *m, int self, int busy_error)
{
	if (m->__owner != self)
		return 0;
	if (MUTEX_TYPE(m) == PTHREAD_MUTEX_ERRORCHECK)
		return busy_error;
	if (m->__count == ~0u)
		return EAGAIN;
	m->__count++;
	return -1;
}

static int mutex_lock_until(pthread_mutex_t *m, const struct timespec *abstime)
{
	int self, r;

	if (MUTEX_TYPE(m) == PTHREAD_MUTEX_NORMAL)
		return -__lock_word_until(&m->__lock, __pthread_shared(m->__kind), CLOCK_REALTIME,
					  abstime);
	self = __pthread_owner_id(m->__kind);
	r = mutex_owner_check(m, self, EDEADLK);
	if (r)
		return r < 0 ? 0 : r;
	r = __lock_word_until(&m->__lock, __pthread_shared(m->__kind), CLOCK_REALTIME, abstime);
	if (r)
		return -r;
	m->__owner = self;
	m->__count = 1;
	return 0;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	return mutex_lock_until(m, 0);
}

int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime)
{
	return mutex_lock_until(m, abstime);
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
	int self, r;

	if (MUTEX_TYPE(m) == PTHREAD_MUTEX_NORMAL)
		return __trylock_word(&m->__lock) ? 0 : EBUSY;
	self = __pthread_owner_id(m->__kind);
	r = mutex_owner_check(m, self, EBUSY);
	if (r)
		return r < 0 ? 0 : r;
	if (!__trylock_word(&m->__lock))
		return EBUSY;
	m->__owner = self;
	m->__count = 1;
	return 0;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	if (MUTEX_TYPE(m) != PTHREAD_MUTEX_NORMAL) {
		if (m->__owner != __pthread_owner_id(m->__kind))
			return EPERM;
		if (--m->__count)
			return 0;
		m->__owner = 0;
	}
	__unlock_word(&m->__lock, __pthread_shared(m->__kind));
	return 0;
}
