/* attr.c: thread attributes (detach state, stack size and address, guard) and the scheduling calls, which know one policy. */
#include <string.h>
#include "impl.h"

#define PT_DEFAULT_STACK	(1024 * 1024)	/* docs/man/pthread.3 */
#define PT_DEFAULT_GUARD	4096

int pthread_attr_init(pthread_attr_t *a)
{
	memset(a, 0, sizeof(*a));
	a->__detachstate = PTHREAD_CREATE_JOINABLE;
	a->__scope = PTHREAD_SCOPE_SYSTEM;
	a->__inheritsched = PTHREAD_INHERIT_SCHED;
	a->__schedpolicy = SCHED_OTHER;
	a->__stacksize = PT_DEFAULT_STACK;
	a->__guardsize = PT_DEFAULT_GUARD;
	return 0;
}

int pthread_attr_destroy(pthread_attr_t *a)
{
	(void)a;
	return 0;
}

int pthread_attr_setdetachstate(pthread_attr_t *a, int state)
{
	if (state != PTHREAD_CREATE_JOINABLE && state != PTHREAD_CREATE_DETACHED)
		return EINVAL;
	a->__detachstate = state;
	return 0;
}

int pthread_attr_getdetachstate(const pthread_attr_t *a, int *state)
{
	*state = a->__detachstate;
	return 0;
}

int pthread_attr_setstacksize(pthread_attr_t *a, size_t size)
{
	if (size < PTHREAD_STACK_MIN || size > 0x40000000u)
		return EINVAL;
	a->__stacksize = size;
	a->__stackaddr = 0;
	return 0;
}

int pthread_attr_getstacksize(const pthread_attr_t *a, size_t *size)
{
	*size = a->__stacksize;
	return 0;
}

/* The program's own stack: no guard page, never unmapped by the library. */
int pthread_attr_setstack(pthread_attr_t *a, void *addr, size_t size)
{
	if (size < PTHREAD_STACK_MIN || !addr || (size_t)addr + size < (size_t)addr)
		return EINVAL;
	a->__stackaddr = addr;
	a->__stacksize = size;
	return 0;
}

int pthread_attr_getstack(const pthread_attr_t *a, void **addr, size_t *size)
{
	*addr = a->__stackaddr;
	*size = a->__stacksize;
	return 0;
}

int pthread_attr_setguardsize(pthread_attr_t *a, size_t size)
{
	if (size > 0x10000000u)
		return EINVAL;
	a->__guardsize = size;
	return 0;
}

int pthread_attr_getguardsize(const pthread_attr_t *a, size_t *size)
{
	*size = a->__guardsize;
	return 0;
}

int pthread_attr_setscope(pthread_attr_t *a, int scope)
{
	if (scope == PTHREAD_SCOPE_PROCESS)
		return ENOTSUP;		/* every thread is a kernel thread */
	if (scope != PTHREAD_SCOPE_SYSTEM)
		return EINVAL;
	a->__scope = scope;
	return 0;
}

int pthread_attr_getscope(const pthread_attr_t *a, int *scope)
{
	*scope = a->__scope;
	return 0;
}

int pthread_attr_setinheritsched(pthread_attr_t *a, int inherit)
{
	if (inherit != PTHREAD_INHERIT_SCHED && inherit != PTHREAD_EXPLICIT_SCHED)
		return EINVAL;
	a->__inheritsched = inherit;
	return 0;
}

int pthread_attr_getinheritsched(const pthread_attr_t *a, int *inherit)
{
	*inherit = a->__inheritsched;
	return 0;
}

/* One policy, SCHED_OTHER, at priority 0: the kernel has no other. */
static int sched_check(int policy, const struct sched_param *p)
{
	if (policy != SCHED_OTHER && policy != SCHED_FIFO && policy != SCHED_RR)
		return EINVAL;
	return policy == SCHED_OTHER && (!p || p->sched_priority == 0) ? 0 : ENOTSUP;
}

int pthread_attr_setschedpolicy(pthread_attr_t *a, int policy)
{
	int r = sched_check(policy, 0);

	if (!r)
		a->__schedpolicy = policy;
	return r;
}

int pthread_attr_getschedpolicy(const pthread_attr_t *a, int *policy)
{
	*policy = a->__schedpolicy;
	return 0;
}

int pthread_attr_setschedparam(pthread_attr_t *a, const struct sched_param *p)
{
	int r = sched_check(a->__schedpolicy, p);

	if (!r)
		a->__schedparam = *p;
	return r;
}

int pthread_attr_getschedparam(const pthread_attr_t *a, struct sched_param *p)
{
	*p = a->__schedparam;
	return 0;
}

int pthread_setschedparam(pthread_t t, int policy, const struct sched_param *p)
{
	(void)t;
	return sched_check(policy, p);
}

int pthread_getschedparam(pthread_t t, int *policy, struct sched_param *p)
{
	(void)t;
	*policy = SCHED_OTHER;
	memset(p, 0, sizeof(*p));
	return 0;
}

static int concurrency;

int pthread_setconcurrency(int level)
{
	if (level < 0)
		return EINVAL;
	concurrency = level;	/* a hint only: threads are the kernel's */
	return 0;
}

int pthread_getconcurrency(void)
{
	return concurrency;
}
