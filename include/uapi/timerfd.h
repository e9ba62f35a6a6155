/* timerfd.h (uapi): timerfd_create/settime/gettime's flags and struct itimerspec
 * (32-bit seconds, as struct kernel_timespec), Linux i386 values. */
#ifndef UAPI_TIMERFD_H
#define UAPI_TIMERFD_H

#include "time.h"

/* An interval timer's setting: it_value until the first expiry (0: disarmed),
 * then every it_interval (0: once). */
struct kernel_itimerspec {
	struct kernel_timespec	it_interval;
	struct kernel_timespec	it_value;
};

UAPI_ASSERT_SIZE(struct kernel_itimerspec, 16);

#ifndef UAPI_STRUCTS_ONLY
#define TFD_TIMER_ABSTIME	1	/* settime: it_value is a time on the clock */
#define TFD_TIMER_CANCEL_ON_SET	2	/* accepted; no effect here */
#define TFD_CLOEXEC		02000000	/* O_CLOEXEC */
#define TFD_NONBLOCK		00004000	/* O_NONBLOCK */
#endif

#endif
