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

/* Fill *st with the kernel's resource counters (call 500; it changes nothing);
 * 0, or -1 with errno. */
int aiok_stat(struct aiok_stat *st);

/* Give the slab caches' empty slabs back to the page allocator (call 502), so
 * that free_pages compares across a leak check: call it before each aiok_stat
 * whose free_pages are compared. 0, or -1 with errno. */
int aiok_shrink(void);
/* aiok_shrink, then aiok_stat: counters whose free_pages compare with another
 * snapshot's (no empty slab kept for reuse on either side), read again every
 * 2 ms until the memory counters hold still (frees a task's last switch or
 * another CPU finishes a moment later; at most 50 ms). 0, or -1 with errno. */
int aiok_snapshot(struct aiok_stat *st);

/* End the run (call 501, init only): QEMU exits with a status derived from
 * status. In any other process the call fails with EPERM and this exits the
 * process with status instead. */
void poweroff(int status) __attribute__((noreturn));

#endif
