/* tls.c: thread 0's control block, the %gs TLS segment, newlib's per-thread __getreent, the cancellable system call. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "../glue.h"
#include "tcb.h"

/*
 * Every thread's control block (struct __pthread) is the base of the TLS
 * segment %gs selects: set_thread_area gives thread 0 a GDT slot (entry -1:
 * the kernel picks), and clone's CLONE_SETTLS points the same slot at each new
 * thread's block.  On a kernel without set_thread_area everything falls back
 * to thread 0's block, and pthread_create refuses (no threads without TLS).
 */
static struct __pthread tcb0;
int __pthread_tls_entry = -1;
void (*__pthread_cancel_hook)(void);

void __pthread_tcb_init(struct __pthread *t)
{
	t->self = t;
	t->reent = &t->reent_data;
	_REENT_INIT_PTR(t->reent);
	t->fork_gen = glue_fork_generation;
}

void __pthread_tls_desc(struct user_desc *d, int entry, struct __pthread *t)
{
	d->entry_number = (unsigned)entry;
	d->base_addr = (unsigned)t;
	d->limit = 0xfffff;
	d->flags = KDESC_SEG_32BIT | KDESC_CONTENTS_DATA | KDESC_LIMIT_IN_PAGES | KDESC_USEABLE;
}

/* crt0 calls this before anything else: thread 0's block, its tid, %gs. */
void __aiok_tls_init(void)
{
	struct user_desc d;
	long r;

	tcb0.self = &tcb0;
	tcb0.reent = _impure_ptr;		/* newlib's static data stays thread 0's */
	r = __sys_set_tid_address((int *)&tcb0.tid);	/* the kernel clears it when we exit */
	tcb0.tid = GLUE_IS_ERR(r) ? __sys_getpid() : r;
	tcb0.fork_gen = glue_fork_generation;
	__pthread_tls_desc(&d, -1, &tcb0);
	if (GLUE_IS_ERR(__sys_set_thread_area(&d)))
		return;
	__asm__ volatile("movw %w0, %%gs" : : "q"(KDESC_SELECTOR(d.entry_number)) : "memory");
	__pthread_tls_entry = (int)d.entry_number;
}

/*
 * qemu-i386 (7.2, the host check) keeps one GDT for all the threads of a
 * process: clone's CLONE_SETTLS rewrites the slot every thread's %gs selects,
 * and at rt_sigreturn qemu reloads %gs from it, so a thread back from a signal
 * handler would run on the control block of the thread created last.  Linux,
 * and aiokern after it, keep TLS slots per thread.  The first pthread_create
 * finds out which (a reload of %gs after the clone must still give our own
 * block); on a shared GDT the signal glue puts the thread's own base back in
 * the slot as its handler returns (a thread created or returning from a
 * handler in the few instructions before that sigreturn can still win).
 */
static int tls_gdt_shared;

static void tls_reload(void)
{
	__asm__ volatile("movw %w0, %%gs" : : "q"(KDESC_SELECTOR(__pthread_tls_entry)) : "memory");
}

static struct __pthread *tls_base(void)
{
	struct __pthread *t;

	__asm__ volatile("movl %%gs:0, %0" : "=r"(t));
	return t;
}

void __pthread_tls_check(struct __pthread *self)
{
	struct user_desc d;

	if (tls_gdt_shared)
		return;
	tls_reload();
	if (tls_base() == self)
		return;			/* a slot of our own: nothing to do, ever */
	tls_gdt_shared = 1;
	__pthread_tls_desc(&d, __pthread_tls_entry, self);
	do {
		__sys_set_thread_area(&d);
		tls_reload();
	} while (tls_base() != self);
}

void __pthread_tls_reassert(void)
{
	struct user_desc d;

	if (!tls_gdt_shared)
		return;
	__pthread_tls_desc(&d, __pthread_tls_entry, __pthread_self_tcb());
	__sys_set_thread_area(&d);
}

struct __pthread *__pthread_self_tcb(void)
{
	struct __pthread *t;

	if (__builtin_expect(__pthread_tls_entry < 0, 0))
		return &tcb0;
	__asm__("movl %%gs:0, %0" : "=r"(t));
	return t;
}

/* newlib (built with __DYNAMIC_REENT__) finds errno, stdio state, ... here. */
struct _reent *__getreent(void)
{
	struct _reent *r;

	if (__builtin_expect(__pthread_tls_entry < 0, 0))
		return _impure_ptr;
	__asm__("movl %%gs:%c1, %0" : "=r"(r) : "i"(offsetof(struct __pthread, reent)));
	return r;
}

int __pthread_tid(void)
{
	struct __pthread *t = __pthread_self_tcb();

	if (t->fork_gen != glue_fork_generation) {	/* a forked child: a new tid */
		long r = __sys_set_tid_address((int *)&t->tid);

		t->tid = GLUE_IS_ERR(r) ? __sys_getpid() : r;
		t->fork_gen = glue_fork_generation;
	}
	return t->tid;
}

/* pthread_testcancel's work, for the glue's cancellation points that are no
 * system call (aio_suspend's checks, libaio's ring). */
void __pthread_testcancel_glue(void)
{
	if (__pthread_cancel_hook)
		__pthread_cancel_hook();
}

long __syscall_cp_asm(const volatile int *pending, long nr, long a, long b, long c, long d,
		      long e, long f);

/* The pending word of a call made with cancellation disabled: never set. */
static const int cp_never;

/* tcb.h.  Only the thread itself changes cancel_disabled, so the choice of
 * word cannot go stale during the call. */
long __syscall_cp(long nr, long a, long b, long c, long d, long e, long f)
{
	struct __pthread *t = __pthread_self_tcb();
	const volatile int *pending = t->cancel_disabled ? &cp_never : &t->cancel_pending;
	long r = __syscall_cp_asm(pending, nr, a, b, c, d, e, f);

	if (r == -4 /* EINTR, kernel numbering */ && pending != &cp_never)
		__pthread_testcancel_glue();	/* the signal ended a call that took nothing */
	return r;
}
