/* timers.c: interval timers (setitimer, getitimer) for newlib programs: newlib's struct itimerval (64-bit tv_sec) to the kernel's and back. */
#include <errno.h>
#include <limits.h>
#include <sys/time.h>
#include "glue.h"

/* -1 for a value the kernel would refuse or cannot hold (EINVAL). */
static int tv_to_kernel(const struct timeval *tv, struct kernel_timeval *k)
{
	if (tv->tv_sec < 0 || tv->tv_sec > LONG_MAX || tv->tv_usec < 0 || tv->tv_usec >= 1000000)
		return -1;
	k->tv_sec = (long)tv->tv_sec;
	k->tv_usec = tv->tv_usec;
	return 0;
}

static void itv_from_kernel(const struct kernel_itimerval *k, struct itimerval *v)
{
	v->it_interval = (struct timeval){ k->it_interval.tv_sec, k->it_interval.tv_usec };
	v->it_value = (struct timeval){ k->it_value.tv_sec, k->it_value.tv_usec };
}

int getitimer(int which, struct itimerval *value)
{
	struct kernel_itimerval k;
	long r = __sys_getitimer(which, &k);

	if (!GLUE_IS_ERR(r))
		itv_from_kernel(&k, value);
	return (int)glue_ret(r);
}

/* value NULL disarms, as on Linux. */
int setitimer(int which, const struct itimerval *restrict value, struct itimerval *restrict old)
{
	struct kernel_itimerval k, kold;
	long r;

	if (value && (tv_to_kernel(&value->it_value, &k.it_value) < 0 ||
		      tv_to_kernel(&value->it_interval, &k.it_interval) < 0)) {
		errno = EINVAL;
		return -1;
	}
	r = __sys_setitimer(which, value ? &k : 0, old ? &kold : 0);
	if (!GLUE_IS_ERR(r) && old)
		itv_from_kernel(&kold, old);
	return (int)glue_ret(r);
}
