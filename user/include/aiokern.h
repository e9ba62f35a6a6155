/* aiokern.h: aiokern's additions to newlib for user programs: project calls and missing flags. */
#ifndef USER_AIOKERN_H
#define USER_AIOKERN_H

#include <fcntl.h>
#include "uapi/aiok.h"

/* newlib defines O_DSYNC only for Cygwin; give it a bit newlib leaves free here. */
#ifndef O_DSYNC
#define O_DSYNC		0x10000
#endif

/* newlib declares it only under _POSIX_PRIORITY_SCHEDULING, which we do not claim. */
int sched_yield(void);

/* Fill *st with the kernel's resource counters (call 500); 0, or -1 with errno. */
int aiok_stat(struct aiok_stat *st);

/* End the run (call 501): QEMU exits with a status derived from status. */
void poweroff(int status) __attribute__((noreturn));

#endif
