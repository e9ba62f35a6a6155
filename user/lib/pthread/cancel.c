/* cancel.c: cancellation (deferred at the cancellation points, or asynchronous), cleanup handlers, pthread_kill. */
#include <signal.h>
#include <unistd.h>
#include "../glue.h"
#include "../signal_glue.h"
#include "impl.h"

/*
 * pthread_cancel marks the target and sends it KSIG_CANCEL, a signal programs
 * cannot name.  Deferred cancellation acts only where no result can be lost:
 * at a cancellation point's check (the hook), or when the signal interrupted a
 * cancellable system call before the kernel ran it (syscall_cp.S, whose labels
 * the handler tests: the thread is sent to __cp_cancel and ends there, outside
 * the handler).  A call the kernel completed keeps its result and the cancel
 * waits for the next cancellation point.  The signal is SA_RESTART: a blocking
 * call it interrupts is restarted, which puts eip back on the stub's int $0x80
 * (so the thread ends, nothing consumed), or ends with EINTR (the stub's caller
 * ends the thread); no call of the program sees an EINTR of ours.  An
 * asynchronous thread ends in the handler.  Cancellation points: pthread.3.
 */
static volatile int cancel_ready;

void __pthread_do_cancel(void)
{
	struct __pthread *t = __pthread_self_tcb();

	t->cancel_disabled = 1;
	pthread_exit(PTHREAD_CANCELED);
}

static int cancel_due(struct __pthread *t)
{
	return t->cancel_pending && !t->cancel_disabled;
}

/* The hook: every cancellation point's check (tcb.h). */
static void cancel_check(void)
{
	if (cancel_due(__pthread_self_tcb()))
		__pthread_do_cancel();
}

/* Did the signal interrupt a cancellable call that has not run (syscall_cp.S)? */
static int cancel_in_call(const struct kernel_ucontext *uc)
{
	unsigned eip = uc->uc_mcontext.eip;

	return eip >= (unsigned)__cp_begin && eip < (unsigned)__cp_end;
}

static void cancel_handler(int ksig, void *info, void *ucv)
{
	struct __pthread *t = __pthread_self_tcb();
	struct kernel_ucontext *uc = ucv;

	(void)ksig;
	(void)info;
	if (cancel_due(t) && t->cancel_async)
		__pthread_do_cancel();
	if (cancel_due(t) && cancel_in_call(uc))
		uc->uc_mcontext.eip = (unsigned)__cp_cancel;	/* ends there, after rt_sigreturn */
	__pthread_tls_reassert();	/* qemu-i386: tls.c */
}

/* Once per process: the handler of the library's signal, and the glue's hook. */
static int cancel_setup(void)
{
	struct kernel_sigaction ka = { .handler = (void *)cancel_handler,
				       .flags = KSA_SIGINFO | KSA_RESTART | KSA_RESTORER,
				       .restorer = __aiok_sigreturn };
	long r;

	if (cancel_ready)
		return 0;
	__pthread_cancel_hook = cancel_check;
	r = __sys_rt_sigaction(KSIG_CANCEL, &ka, 0, KSIGSET_SIZE);
	if (GLUE_IS_ERR(r))
		return (int)-glue_neg_errno(r);
	cancel_ready = 1;
	return 0;
}

int pthread_cancel(pthread_t t)
{
	int r = cancel_setup();

	if (r)
		return r;
	t->cancel_pending = 1;
	if (t == __pthread_self_tcb()) {
		if (cancel_due(t) && t->cancel_async)
			__pthread_do_cancel();
		return 0;
	}
	if (!t->cancel_disabled && t->tid)	/* tid 0: it has ended already */
		__sys_tgkill(__sys_getpid(), t->tid, KSIG_CANCEL);
	return 0;
}

/* One of the two settings (state, type): value must be one of a, b; *old gets
 * the former; an asynchronous thread with a cancel pending ends here. */
static int cancel_set(volatile int *field, int value, int a, int b, int *old)
{
	struct __pthread *t = __pthread_self_tcb();

	if (value != a && value != b)
		return EINVAL;
	if (old)
		*old = *field ? b : a;
	*field = value == b;
	if (cancel_due(t) && t->cancel_async)
		__pthread_do_cancel();
	return 0;
}

int pthread_setcancelstate(int state, int *old)
{
	return cancel_set(&__pthread_self_tcb()->cancel_disabled, state, PTHREAD_CANCEL_ENABLE,
			  PTHREAD_CANCEL_DISABLE, old);
}

int pthread_setcanceltype(int type, int *old)
{
	return cancel_set(&__pthread_self_tcb()->cancel_async, type, PTHREAD_CANCEL_DEFERRED,
			  PTHREAD_CANCEL_ASYNCHRONOUS, old);
}

void pthread_testcancel(void)
{
	cancel_check();
}

void __pthread_cleanup_push(struct __pthread_cleanup *c, void (*routine)(void *), void *arg)
{
	struct __pthread *t = __pthread_self_tcb();

	c->__routine = routine;
	c->__arg = arg;
	c->__prev = t->cleanup;
	t->cleanup = c;
}

void __pthread_cleanup_pop(struct __pthread_cleanup *c, int execute)
{
	__pthread_self_tcb()->cleanup = c->__prev;
	if (execute)
		c->__routine(c->__arg);
}

/* sig 0 checks that the thread is there. */
int pthread_kill(pthread_t t, int sig)
{
	int ksig = __sig_to_kernel(sig), tid;
	long r;

	if (sig && !ksig)
		return EINVAL;
	tid = t == __pthread_self_tcb() ? __pthread_tid() : t->tid;
	if (!tid)
		return ESRCH;
	r = __sys_tgkill(__sys_getpid(), tid, ksig);
	return GLUE_IS_ERR(r) ? (int)-glue_neg_errno(r) : 0;
}
