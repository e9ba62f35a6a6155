/* time.h (uapi): the kernel's time structs (32-bit seconds) and clock ids, Linux i386 values. */
#ifndef UAPI_TIME_H
#define UAPI_TIME_H

#include "types.h"

/* newlib's struct timespec has a 64-bit tv_sec: the user glue converts. */
struct kernel_timespec {
	long	tv_sec;
	long	tv_nsec;
};

struct kernel_timeval {
	long	tv_sec;
	long	tv_usec;
};

/* setitimer/getitimer (104/105). */
struct kernel_itimerval {
	struct kernel_timeval it_interval;	/* reload value; 0: one shot */
	struct kernel_timeval it_value;		/* time to the next expiry; 0: disarmed */
};

/* timer_settime/timer_gettime (260/261). */
struct kernel_itimerspec {
	struct kernel_timespec it_interval;
	struct kernel_timespec it_value;
};

UAPI_ASSERT_SIZE(struct kernel_timespec, 8);
UAPI_ASSERT_SIZE(struct kernel_timeval, 8);
UAPI_ASSERT_SIZE(struct kernel_itimerval, 16);
UAPI_ASSERT_SIZE(struct kernel_itimerspec, 16);

#ifndef UAPI_STRUCTS_ONLY
#define CLOCK_REALTIME	0
#define CLOCK_MONOTONIC	1
#define CLOCK_PROCESS_CPUTIME_ID 2	/* the thread group's user + system time */
#define CLOCK_THREAD_CPUTIME_ID	3	/* the calling thread's */
#define TIMER_ABSTIME	1	/* clock_nanosleep, timer_settime: a time on the clock */
#define ITIMER_REAL	0	/* wall time: SIGALRM (shared with alarm) */
#define ITIMER_VIRTUAL	1	/* the process's user time: SIGVTALRM */
#define ITIMER_PROF	2	/* its user + system time: SIGPROF */
#endif

#endif
