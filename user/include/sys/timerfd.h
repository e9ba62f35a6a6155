/* sys/timerfd.h: timerfd_create(2) as glibc declares it; the TFD_* values are Linux's (the kernel's own). */
#ifndef _SYS_TIMERFD_H
#define _SYS_TIMERFD_H

#include <time.h>

#define TFD_TIMER_ABSTIME	1		/* it_value is a time on the clock */
#define TFD_TIMER_CANCEL_ON_SET	2		/* accepted; no effect here */
#define TFD_CLOEXEC		02000000	/* O_CLOEXEC's kernel value */
#define TFD_NONBLOCK		00004000	/* O_NONBLOCK's kernel value */

/* A new timer file on clockid (CLOCK_REALTIME, CLOCK_MONOTONIC); -1 and errno. */
int timerfd_create(int clockid, int flags);
/* Arm (it_value non-zero) or disarm it; the old setting in *old_value: 0, or -1 and errno. */
int timerfd_settime(int fd, int flags, const struct itimerspec *new_value,
		    struct itimerspec *old_value);
/* The time to the next expiry (0: disarmed) and the interval: 0, or -1 and errno. */
int timerfd_gettime(int fd, struct itimerspec *curr_value);

#endif
