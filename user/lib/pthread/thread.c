/* thread.c: pthread_create, exit, join, detach, self: kernel threads by clone, stacks by mmap with a guard page. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "../glue.h"
#include "../signal_glue.h"
#include "impl.h"

/*
 * A thread's memory is one mapping: [guard page | stack | control block].  The
 * kernel stores the tid in the block at clone and clears it, with a futex
 * wake, once the thread is gone: that is what join waits for before it unmaps
 * the lot.  A detached thread unmaps its own mapping as the last thing it does.
 */
#define PT_PAGE			4096
#define PT_ROUND(x)		(((x) + PT_PAGE - 1) & ~(size_t)(PT_PAGE - 1))

volatile int __pthread_count = 1;	/* threads alive in this process */
unsigned __pthread_count_gen;		/* glue_fork_generation of that count */

pthread_t pthread_self(void)
{
	return __pthread_self_tcb();
}

int pthread_equal(pthread_t a, pthread_t b)
{
	return a == b;
}

pid_t pthread_gettid_np(pthread_t t)
{
	return t == __pthread_self_tcb() ? __pthread_tid() : t->tid;
}

/* A forked child starts with one thread, whatever the parent had. */
static void count_after_fork(void)
{
	if (__pthread_count_gen != glue_fork_generation) {
		__pthread_count = 1;
		__pthread_count_gen = glue_fork_generation;
	}
}

/* Mapping for a thread: guard, stack and block; the block is returned. */
static struct __pthread *thread_map(const pthread_attr_t *a)
{
	size_t stack = PT_ROUND(a->__stacksize), guard = PT_ROUND(a->__guardsize);
	size_t total = guard + stack + PT_ROUND(sizeof(struct __pthread));
	char *base = mmap(0, total, guard ? PROT_NONE : PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct __pthread *t;

	if (base == MAP_FAILED)
		return 0;
	if (guard && mmap(base + guard, total - guard, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
		munmap(base, total);
		return 0;
	}
	t = (struct __pthread *)(base + guard + stack);
	t->map_base = base;
	t->map_size = total;
	t->stack = base + guard;
	t->stack_size = stack;
	t->guard_size = guard;
	return t;
}

/* The program's stack: the block takes its top, the rest is the thread's. */
static struct __pthread *thread_on_user_stack(const pthread_attr_t *a)
{
	uintptr_t top = ((uintptr_t)a->__stackaddr + a->__stacksize - sizeof(struct __pthread)) & ~63u;
	struct __pthread *t = (struct __pthread *)top;

	if (top < (uintptr_t)a->__stackaddr + PTHREAD_STACK_MIN / 2)
		return 0;
	memset(t, 0, sizeof(*t));
	t->stack = a->__stackaddr;
	t->stack_size = top - (uintptr_t)a->__stackaddr;
	return t;
}

static void thread_unmap(struct __pthread *t)
{
	if (t->map_base)
		munmap(t->map_base, t->map_size);
}

/* The new thread's first C code; %gs already points at t (CLONE_SETTLS). */
static void thread_start(void *arg)
{
	struct __pthread *t = arg;

	if (!t->tid)			/* the kernel stores it too (CLONE_PARENT_SETTID) */
		t->tid = __sys_gettid();
	__signals_restore(&t->start_mask);
	pthread_exit(t->start(t->arg));
}

static int thread_clone(struct __pthread *t)
{
	struct kernel_sigset old;
	struct user_desc d;
	int r;

	__pthread_tls_desc(&d, __pthread_tls_entry, t);	/* thread 0's slot, t as base */
	__signals_block_all(&old);	/* nothing runs on the new thread before it is set up */
	t->start_mask = old;
	count_after_fork();
	__fetch_add(&__pthread_count, 1);
	r = __aiok_clone(thread_start, t, KCLONE_THREAD_FLAGS, t, (int *)&t->tid, &d,
			 (int *)&t->tid);
	if (r < 0)
		__fetch_add(&__pthread_count, -1);
	if (r >= 0)
		__pthread_tls_check(__pthread_self_tcb());
	__signals_restore(&old);
	if (r >= 0)
		return 0;
	r = (int)-glue_neg_errno(r);
	return r == ENOMEM ? EAGAIN : r;
}

int pthread_create(pthread_t *out, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
	pthread_attr_t a;
	struct __pthread *t;
	int r;

	if (__pthread_tls_entry < 0)
		return ENOSYS;		/* the kernel has no set_thread_area: no threads */
	__pthread_tid();		/* after a fork, our tid is new: others read it */
	if (attr)
		a = *attr;
	else
		pthread_attr_init(&a);
	t = a.__stackaddr ? thread_on_user_stack(&a) : thread_map(&a);
	if (!t)
		return a.__stackaddr ? EINVAL : EAGAIN;
	__pthread_tcb_init(t);
	t->start = start;
	t->arg = arg;
	t->detach_attr = a.__detachstate == PTHREAD_CREATE_DETACHED;
	t->state = t->detach_attr ? PT_DETACHED : PT_JOINABLE;
	t->claimed = t->detach_attr;	/* a detached thread cannot be joined */
	r = thread_clone(t);
	if (r) {
		thread_unmap(t);
		return r;
	}
	*out = t;
	return 0;
}

/* The end of a thread that nobody will join: free what it can, then go. */
static void __attribute__((noreturn)) thread_exit_detached(struct __pthread *t)
{
	__sys_set_tid_address(0);	/* no clear-tid write into memory we give back */
	if (t->map_base)
		__aiok_unmap_exit(t->map_base, t->map_size);
	for (;;)
		__sys_exit(0);
}

void pthread_exit(void *value)
{
	struct __pthread *t = __pthread_self_tcb();
	struct kernel_sigset old;

	t->result = value;
	t->cancel_disabled = 1;
	while (t->cleanup) {
		struct __pthread_cleanup *c = t->cleanup;

		t->cleanup = c->__prev;
		c->__routine(c->__arg);
	}
	__pthread_key_run_destructors(t);
	count_after_fork();
	if (__fetch_add(&__pthread_count, -1) == 1)
		exit(0);		/* the last thread: the process ends as from main */
	if (t->reent != _impure_ptr)
		_reclaim_reent(t->reent);	/* no newlib call after this one */
	__signals_block_all(&old);	/* no handler may run from here on */
	if (!__cas(&t->state, PT_JOINABLE, PT_EXITED))
		thread_exit_detached(t);
	for (;;)
		__sys_exit(0);		/* the kernel clears t->tid and wakes the joiner */
}

/* Until the kernel has cleared the tid: the thread has left its stack for good. */
static void thread_wait_gone(struct __pthread *t, int cancellable)
{
	int tid;

	while ((tid = t->tid) != 0) {
		if (cancellable)	/* the kernel's wake is not a private one */
			__futex_wait_cp(&t->tid, tid, CLOCK_REALTIME, 0, 1);
		else
			__futex_wait(&t->tid, tid, 0, 1);
	}
}

static void join_cancelled(void *arg)
{
	struct __pthread *t = arg;

	t->claimed = 0;			/* a cancelled join leaves the thread joinable */
}

int pthread_join(pthread_t t, void **value)
{
	if (t == __pthread_self_tcb())
		return EDEADLK;
	pthread_testcancel();		/* a cancellation point even when t has ended */
	if (!__cas(&t->claimed, 0, 1))
		return EINVAL;		/* detached, or another join is on it */
	pthread_cleanup_push(join_cancelled, t);
	thread_wait_gone(t, 1);
	pthread_cleanup_pop(0);
	if (value)
		*value = t->result;
	thread_unmap(t);
	return 0;
}

int pthread_detach(pthread_t t)
{
	if (!__cas(&t->claimed, 0, 1))
		return EINVAL;
	if (__cas(&t->state, PT_JOINABLE, PT_DETACHED))
		return 0;		/* it frees itself when it ends */
	thread_wait_gone(t, 0);		/* it has ended already: reap it */
	thread_unmap(t);
	return 0;
}

/* What is known: the detach state, and the stack of threads made here (thread 0's is not). */
int pthread_getattr_np(pthread_t t, pthread_attr_t *attr)
{
	pthread_attr_init(attr);
	attr->__detachstate = t->state == PT_DETACHED ? PTHREAD_CREATE_DETACHED
						       : PTHREAD_CREATE_JOINABLE;
	attr->__stackaddr = t->stack;
	attr->__stacksize = t->stack_size;
	attr->__guardsize = t->guard_size;
	return 0;
}
