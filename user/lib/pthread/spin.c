/* spin.c: spin locks: an exchange loop that yields the CPU after a while (one CPU runs aiokern). */
#include <sched.h>
#include "impl.h"

#define SPIN_BEFORE_YIELD	100

int pthread_spin_init(pthread_spinlock_t *l, int pshared)
{
	if (pshared != PTHREAD_PROCESS_PRIVATE && pshared != PTHREAD_PROCESS_SHARED)
		return EINVAL;
	*l = 0;
	return 0;
}

int pthread_spin_destroy(pthread_spinlock_t *l)
{
	return *l ? EBUSY : 0;
}

int pthread_spin_lock(pthread_spinlock_t *l)
{
	int spins = 0;

	while (__xchg(l, 1)) {
		while (__atomic_load_n(l, __ATOMIC_RELAXED)) {
			__builtin_ia32_pause();
			if (++spins >= SPIN_BEFORE_YIELD) {
				sched_yield();		/* the holder may need this CPU */
				spins = 0;
			}
		}
	}
	return 0;
}

int pthread_spin_trylock(pthread_spinlock_t *l)
{
	return __xchg(l, 1) ? EBUSY : 0;
}

int pthread_spin_unlock(pthread_spinlock_t *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
	return 0;
}
