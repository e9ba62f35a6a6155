/* tcb.h: the thread control block, reached through %gs, and the futex primitives under the pthread library. */
#ifndef USER_PTHREAD_TCB_H
#define USER_PTHREAD_TCB_H

/*
 * Split of the work:
 *   libc-glue.a (every program): tls.c (thread 0's TCB, __getreent), futex.c
 *     (futex calls, the internal lock), lock.c (newlib's __retarget_lock_*),
 *     signal.c (the signal glue).
 *   libpthread.a (-lpthread): everything named pthread_*.
 * The glue never calls into libpthread; the one way back is the cancellation
 * hook, which libpthread sets before a cancellation can be pending.
 */
#include <pthread.h>
#include <reent.h>
#include <stddef.h>
#include <time.h>
#include "kabi.h"

struct __pthread {
	/* Fixed offsets: __getreent and pthread_self read them through %gs. */
	struct __pthread *self;		/* %gs:0 */
	struct _reent	*reent;		/* %gs:4: newlib's data for this thread */

	/* Written by the kernel: the tid at clone (CLONE_PARENT_SETTID), 0 and a
	 * futex wake once the thread is gone (CLONE_CHILD_CLEARTID). */
	volatile int	tid;
	unsigned	fork_gen;	/* glue_fork_generation when tid was last read */

	/* Lifetime: state moves once, from JOINABLE to DETACHED (pthread_detach)
	 * or to EXITED (the thread ends); claimed is set by the one join or detach. */
	volatile int	state;
	volatile int	claimed;
	void		*(*start)(void *);
	void		*arg;
	void		*result;
	struct kernel_sigset start_mask; /* the creator's mask, applied by the new thread */

	/* Memory: map_base/map_size is what the library unmaps (guard, stack,
	 * this block); 0 when the stack is the program's or thread 0's. */
	void		*map_base;
	size_t		map_size;
	void		*stack;		/* lowest address of the usable stack */
	size_t		stack_size;
	size_t		guard_size;
	int		detach_attr;	/* created detached */

	/* Cancellation, written by pthread_cancel from other threads */
	volatile int	cancel_pending;
	volatile int	cancel_disabled;
	volatile int	cancel_async;
	struct __pthread_cleanup *cleanup;	/* innermost handler first */

	/* Thread-specific data: a value counts only while key_seq matches the key's */
	void		*key_value[PTHREAD_KEYS_MAX];
	unsigned	key_seq[PTHREAD_KEYS_MAX];

	struct _reent	reent_data;	/* threads the library creates; thread 0 uses newlib's */
};

enum { PT_JOINABLE, PT_DETACHED, PT_EXITED };

/* tls.c: the running thread's block (thread 0's before any TLS exists). */
struct __pthread *__pthread_self_tcb(void);
/* The calling thread's kernel tid, refreshed after a fork. */
int __pthread_tid(void);
/* The GDT entry set_thread_area gave thread 0; -1 when the kernel has no TLS. */
extern int __pthread_tls_entry;
/* After a clone (the creator's block): find out whether the kernel keeps one
 * GDT for all threads (qemu-i386) and if so take our TLS slot back. */
void __pthread_tls_check(struct __pthread *self);
/* At the end of every signal handler: on such a kernel, our base back in the
 * slot before rt_sigreturn reloads %gs from it. */
void __pthread_tls_reassert(void);
/* The TLS slot's descriptor for block t: a flat 4 GiB data segment based at t
 * (entry -1: let set_thread_area pick the slot). */
void __pthread_tls_desc(struct user_desc *d, int entry, struct __pthread *t);
/* Set up a block's fixed fields and its newlib data. */
void __pthread_tcb_init(struct __pthread *t);
/* Number of threads alive (thread 0 included), for the last one to call exit. */
extern volatile int __pthread_count;
extern unsigned __pthread_count_gen;	/* glue_fork_generation the count belongs to */

/* futex.c.  Results are 0 or -errno in newlib's numbering (EAGAIN: the word
 * had changed, ETIMEDOUT, EINTR).  shared: the word may be in memory another
 * process maps (not a private futex). */
int __futex_wait(volatile int *word, int val, const struct timespec *rel, int shared);
int __futex_wake(volatile int *word, int n, int shared);
/* Wait while *word == val, until the absolute time on clock; -ETIMEDOUT once it passed. */
int __futex_wait_until(volatile int *word, int val, clockid_t clock,
		       const struct timespec *abstime, int shared);
/* The same as a cancellation point (a cancel ends the thread in the wait). */
int __futex_wait_cp(volatile int *word, int val, clockid_t clock,
		    const struct timespec *abstime, int shared);
/* Relative time left until abstime on clock: 0, or -ETIMEDOUT / -EINVAL. */
int __timespec_until(clockid_t clock, const struct timespec *abstime, struct timespec *rel);

/* The internal lock: 0 free, 1 locked, 2 locked with (maybe) sleepers. */
void __lock_word(volatile int *word, int shared);
/* The same with a deadline: 0 (taken), -ETIMEDOUT or -EINVAL (not taken). */
int __lock_word_until(volatile int *word, int shared, clockid_t clock,
		      const struct timespec *abstime);
int __trylock_word(volatile int *word);	/* 1: taken */
void __unlock_word(volatile int *word, int shared);

/*
 * Cancellation points.  The hook (libpthread's, set before any cancel can be
 * pending) ends the calling thread when a cancel is pending and enabled;
 * __pthread_testcancel_glue calls it.  Every cancellable system call goes
 * through __syscall_cp: syscall_cp.S checks the pending flag and enters the
 * kernel between two labels, and the cancel signal's handler (cancel.c) ends
 * the thread only when it interrupted the call before the kernel ran it (or
 * while the kernel was restarting it): a result the kernel produced is never
 * dropped, and the thread ends at the next cancellation point.  A call that
 * the signal ended with EINTR took nothing: the thread ends there.  With
 * cancellation disabled the call is an ordinary one.  Result: the raw one
 * (-errno, kernel numbering).
 */
extern void (*__pthread_cancel_hook)(void);
void __pthread_testcancel_glue(void);
long __syscall_cp(long nr, long a, long b, long c, long d, long e, long f);
#define __SYSCALL_CP_6(nr, a, b, c, d, e, f, ...) __syscall_cp(nr, (long)(a), (long)(b),	\
	(long)(c), (long)(d), (long)(e), (long)(f))
/* __SYSCALL_CP(__NR_read, fd, buf, n): the missing arguments are 0 */
#define __SYSCALL_CP(nr, ...) __SYSCALL_CP_6(nr, __VA_ARGS__, 0, 0, 0, 0, 0, 0)
/* syscall_cp.S: [__cp_begin, __cp_end) holds the check and the int $0x80 */
extern const char __cp_begin[], __cp_end[], __cp_cancel[];

/* Atomics on int words. */
static inline int __cas(volatile int *p, int old, int new)
{
	return __atomic_compare_exchange_n(p, &old, new, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

static inline int __xchg(volatile int *p, int v)
{
	return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}

static inline int __fetch_add(volatile int *p, int v)
{
	return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}

#endif
