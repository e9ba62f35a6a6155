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

UAPI_ASSERT_SIZE(struct kernel_timespec, 8);
UAPI_ASSERT_SIZE(struct kernel_timeval, 8);

#ifndef UAPI_STRUCTS_ONLY
#define CLOCK_REALTIME	0
#define CLOCK_MONOTONIC	1
#define CLOCK_PROCESS_CPUTIME_ID 2	/* the thread group's user + system time */
#define CLOCK_THREAD_CPUTIME_ID	3	/* the calling thread's */
#define TIMER_ABSTIME	1	/* clock_nanosleep: req is a time on the clock */
#endif

#endif
