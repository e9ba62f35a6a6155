/* oom.h: out of memory: the OOM killer a page fault calls (kernel/mm/oom.c). */
#ifndef OOM_H
#define OOM_H

#include "atomic.h"

struct page;

/* A page fault found no page: kill the user process with the most pages
 * mapped (never init, never a kernel thread) and wait a moment for its
 * memory; while a victim is still exiting, only wait. True when the caller
 * should try its allocation again; false when it should fail: the faulting
 * process is itself the one to go (one of its threads or itself: it then has
 * SIGKILL pending), already has a fatal signal pending (SIGKILL, or its
 * thread group is exiting), or nothing can be killed. A process's threads
 * share one mm and die together: the kill ends the whole group. Process context, no spinlock
 * held (it sleeps). */
bool oom_make_room(void);
/* A page for a user page fault (GFP_HIGHUSER), oom_make_room until there is
 * one; NULL when that says to fail. */
struct page *oom_alloc_user_page(void);

/* mm_put, after mm's pages are freed: an OOM victim's memory is back (its
 * count in the killer's wait ends). Any CPU, no lock needed. */
struct mm;
void oom_mm_gone(struct mm *mm);

extern atomic_t oom_kills;		/* processes the OOM killer ended */

#endif
