/* once.c: pthread_once: one thread runs the routine, the others sleep on the state word until it is done. */
#include <limits.h>
#include "impl.h"

enum { ONCE_NEW, ONCE_RUNNING, ONCE_DONE };

/* The routine was cancelled: another caller may run it. */
static void once_cancelled(void *arg)
{
	pthread_once_t *o = arg;

	__atomic_store_n(&o->__state, ONCE_NEW, __ATOMIC_RELEASE);
	__futex_wake(&o->__state, INT_MAX, 0);
}

int pthread_once(pthread_once_t *o, void (*init)(void))
{
	for (;;) {
		int s = __atomic_load_n(&o->__state, __ATOMIC_ACQUIRE);

		if (s == ONCE_DONE)
			return 0;
		if (s == ONCE_NEW && __cas(&o->__state, ONCE_NEW, ONCE_RUNNING)) {
			pthread_cleanup_push(once_cancelled, o);
			init();
			pthread_cleanup_pop(0);
			__atomic_store_n(&o->__state, ONCE_DONE, __ATOMIC_RELEASE);
			__futex_wake(&o->__state, INT_MAX, 0);
			return 0;
		}
		if (s == ONCE_RUNNING)
			__futex_wait(&o->__state, ONCE_RUNNING, 0, 0);
	}
}
