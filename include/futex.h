/* futex.h: fast user-space mutex waits (kernel/futex.c): a hash of wait queues keyed by the word's page and offset. */
#ifndef FUTEX_H
#define FUTEX_H

#include "types.h"

/* Wake up to nr waiters on the word at uaddr (shared: any address space).
 * Process context. Returns the number woken or -EFAULT/-EINVAL. */
int futex_wake(u32 uaddr, int nr, bool shared, u32 bitset);
/* The hash buckets, before the first process. */
void futex_init(void);
/* Waiters currently queued (leak check). */
extern int futex_waiters;

#endif
