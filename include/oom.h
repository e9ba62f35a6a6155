/* oom.h: out of memory: the OOM killer a page fault calls (kernel/mm/oom.c). */
#ifndef OOM_H
#define OOM_H

#include "atomic.h"

struct page;

/* A page for a user page fault (GFP_HIGHUSER). When none is free, kill the
 * user process with the most pages mapped (never init, never a kernel
 * thread) and wait for its memory; while a victim is still exiting, only
 * wait. NULL when the faulting process is itself the one to go (it then has
 * SIGKILL pending), has SIGKILL pending, or nothing can be killed. Process
 * context, no spinlock held (it sleeps). */
struct page *oom_alloc_user_page(void);

extern atomic_t oom_kills;		/* processes the OOM killer ended */

#endif
