/* sched.h: newlib's <sched.h> (struct sched_param, SCHED_*) and sched_yield, which newlib declares only for RTEMS. */
#ifndef USER_SCHED_H
#define USER_SCHED_H

#include_next <sched.h>

#ifdef __cplusplus
extern "C" {
#endif

int sched_yield(void);

#ifdef __cplusplus
}
#endif

#endif
