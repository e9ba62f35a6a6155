/* proc_internal.h: what kernel/proc.c, clone.c and exec.c share about processes and threads. */
#ifndef PROC_INTERNAL_H
#define PROC_INTERNAL_H

#include "sched.h"
#include "spinlock.h"

struct mm;

/* Guards every task's parent, children and sibling (irqsave). */
extern spinlock_t family_lock;
/* A thread's user-memory goodbyes: the clear-tid word and its futex wake, the
 * vfork parent's completion. Before it leaves its mm (exit, exec). */
void proc_mm_release(struct task *t);
/* t stops using mm (exit, exec): the last task of mm ends its AIO first. */
void proc_mm_leave(struct task *t, struct mm *mm);
/* exec in a thread group: every other thread ends first, and the caller
 * takes the leader's place (its pid). 0, or -EINTR if killed meanwhile. */
int proc_exec_single(void);

/* Guards every task's vfork_done (kernel/clone.c). */
extern spinlock_t vfork_lock;

#endif
