/* sem.c: unnamed semaphores: a counter taken by compare-and-exchange, sleepers on the counter's futex. */
#include <semaphore.h>
#include "impl.h"

/* Named semaphores (sem_open): sem_named.c. */

int sem_init(sem_t *s, int pshared, unsigned value)
{
	if (value > SEM_VALUE_MAX) {
		errno = EINVAL;
		return -1;
	}
	*s = (sem_t){ .__value = (int)value, .__shared = pshared != 0 };
	return 0;
}

int sem_destroy(sem_t *s)
{
	(void)s;
	return 0;
}

/* One unit if there is one: 1, else 0. */
static int sem_take(sem_t *s)
{
	int v = s->__value;

	while (v > 0)
		if (__atomic_compare_exchange_n(&s->__value, &v, v - 1, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return 1;
	return 0;
}

int sem_trywait(sem_t *s)
{
	if (sem_take(s))
		return 0;
	errno = EAGAIN;
	return -1;
}

/* A waiter cancelled in its sleep is counted out (it took nothing). */
static void sem_wait_cancelled(void *arg)
{
	sem_t *s = arg;

	__fetch_add(&s->__waiters, -1);
}

/* A cancellation point (sem_wait, sem_timedwait). */
int sem_timedwait(sem_t *s, const struct timespec *abstime)
{
	int e = 0;

	pthread_testcancel();		/* a cancellation point even when it need not wait */
	while (!sem_take(s)) {
		if (e == -ETIMEDOUT || e == -EINVAL) {
			errno = -e;
			return -1;
		}
		__fetch_add(&s->__waiters, 1);
		pthread_cleanup_push(sem_wait_cancelled, s);
		e = __futex_wait_cp(&s->__value, 0, CLOCK_REALTIME, abstime, s->__shared);
		pthread_cleanup_pop(0);
		__fetch_add(&s->__waiters, -1);
	}
	return 0;
}

int sem_wait(sem_t *s)
{
	return sem_timedwait(s, 0);
}

int sem_post(sem_t *s)
{
	int v = s->__value;

	do {
		if (v == SEM_VALUE_MAX) {
			errno = EOVERFLOW;
			return -1;
		}
	} while (!__atomic_compare_exchange_n(&s->__value, &v, v + 1, 0, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	if (__atomic_load_n(&s->__waiters, __ATOMIC_SEQ_CST))
		__futex_wake(&s->__value, 1, s->__shared);
	return 0;
}

int sem_getvalue(sem_t *s, int *value)
{
	*value = s->__value;
	return 0;
}
