/* timerfd.h (uapi): timerfd_create/settime/gettime's flags (the setting is time.h's
 * struct kernel_itimerspec), Linux i386 values. */
#ifndef UAPI_TIMERFD_H
#define UAPI_TIMERFD_H

#include "time.h"

/* struct kernel_itimerspec: time.h (timer_settime's too). */

#ifndef UAPI_STRUCTS_ONLY
#define TFD_TIMER_ABSTIME	1	/* settime: it_value is a time on the clock */
#define TFD_TIMER_CANCEL_ON_SET	2	/* accepted; no effect here */
#define TFD_CLOEXEC		02000000	/* O_CLOEXEC */
#define TFD_NONBLOCK		00004000	/* O_NONBLOCK */
#endif

#endif
