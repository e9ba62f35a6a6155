/* barrier.c: barriers: the last of count threads to arrive moves the sequence word and wakes the others. */
#include <limits.h>
#include "impl.h"

int pthread_barrierattr_init(pthread_barrierattr_t *a)
{
	a->__flags = 0;
	return 0;
}

int pthread_barrierattr_destroy(pthread_barrierattr_t *a)
{
	(void)a;
	return 0;
}

int pthread_barrierattr_setpshared(pthread_barrierattr_t *a, int pshared)
{
	return __pthread_set_pshared(&a->__flags, pshared);
}

int pthread_barrierattr_getpshared(const pthread_barrierattr_t *a, int *pshared)
{
	*pshared = __pthread_get_pshared(a->__flags);
	return 0;
}

int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *a, unsigned count)
{
	if (!count)
		return EINVAL;
	*b = (pthread_barrier_t){ .__count = count, .__flags = a ? a->__flags : 0 };
	return 0;
}

int pthread_barrier_destroy(pthread_barrier_t *b)
{
	return b->__arrived ? EBUSY : 0;
}

/* PTHREAD_BARRIER_SERIAL_THREAD for the last to arrive, 0 for the others. */
int pthread_barrier_wait(pthread_barrier_t *b)
{
	int shared = __pthread_shared(b->__flags), seq;

	__lock_word(&b->__lock, shared);
	seq = b->__seq;
	if (++b->__arrived == b->__count) {
		b->__arrived = 0;
		__atomic_store_n(&b->__seq, seq + 1, __ATOMIC_RELEASE);
		__futex_wake(&b->__seq, INT_MAX, shared);
		__unlock_word(&b->__lock, shared);
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	__unlock_word(&b->__lock, shared);
	while (__atomic_load_n(&b->__seq, __ATOMIC_ACQUIRE) == seq)
		__futex_wait(&b->__seq, seq, 0, shared);
	return 0;
}
