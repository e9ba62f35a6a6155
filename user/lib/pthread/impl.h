/* impl.h: what the files of libpthread share among themselves. */
#ifndef USER_PTHREAD_IMPL_H
#define USER_PTHREAD_IMPL_H

#include <errno.h>
#include <pthread.h>
#include "tcb.h"

/* clone.S */
int __aiok_clone(void (*fn)(void *), void *stack_top, unsigned long flags, void *arg,
		 int *parent_tid, struct user_desc *tls, int *child_tid);
void __aiok_unmap_exit(void *base, unsigned long len) __attribute__((noreturn));

/* key.c: run the calling thread's destructors (at thread exit). */
void __pthread_key_run_destructors(struct __pthread *t);

/* cancel.c: end the calling thread as cancelled. */
void __pthread_do_cancel(void) __attribute__((noreturn));

/* The owner id a lock records: the control block for a private lock (a forked
 * child's thread keeps what it held), the tid for a process-shared one. */
static inline int __pthread_owner_id(int flags)
{
	return (flags & __PTHREAD_SHARED) ? __pthread_tid() : (int)__pthread_self_tcb();
}

static inline int __pthread_shared(int flags)
{
	return (flags & __PTHREAD_SHARED) != 0;
}

/* The pshared attribute as the __PTHREAD_SHARED bit of an attribute's flags. */
static inline int __pthread_set_pshared(int *flags, int pshared)
{
	if (pshared != PTHREAD_PROCESS_PRIVATE && pshared != PTHREAD_PROCESS_SHARED)
		return EINVAL;
	*flags = (*flags & ~__PTHREAD_SHARED) |
		 (pshared == PTHREAD_PROCESS_SHARED ? __PTHREAD_SHARED : 0);
	return 0;
}

static inline int __pthread_get_pshared(int flags)
{
	return __pthread_shared(flags) ? PTHREAD_PROCESS_SHARED : PTHREAD_PROCESS_PRIVATE;
}

#endif
