/* cancel.c: cancellation (deferred at the cancellation points, or asynchronous), cleanup handlers, pthread_kill. */
#include <signal.h>
#include <unistd.h>
#include "../glue.h"
#include "../signal_glue.h"
#include "impl.h"

/*
 * pthread_cancel marks the target and sends it KSIG_CANCEL, a signal programs
 * cannot name.  Its handler ends the thread when cancellation is enabled and
 * the thread is either asynchronous or inside a cancellation point (tcb.h:
 * __pthread_cp_enter sets in_cancel_point, then checks): there the thread
 * holds no library lock, and its blocking call is abandoned.  Anywhere else
 * the handler returns (the signal is SA_RESTART, so no call sees EINTR) and
 * the next cancellation point acts.  Cancellation points: docs/man/pthread.3.
 */
static volatile int cancel_ready;

void __pthread_do_cancel(void)
{
	struct __pthread *t = __pthread_self_tcb();

	t->cancel_disabled = 1;
	t->in_cancel_point = 0;
	pthread_exit(PTHREAD_CANCELED);
}

static int cancel_due(struct __pthread *t)
{
	return t->cancel_pending && !t->cancel_disabled;
}

/* The glue's cancellation points call this after setting in_cancel_point. */
static void cancel_check(void)
{
	if (cancel_due(__pthread_self_tcb()))
		__pthread_do_cancel();
}

static void cancel_handler(int ksig, void *info, void *uc)
{
	struct __pthread *t = __pthread_self_tcb();

	(void)ksig;
	(void)info;
	(void)uc;
	if (cancel_due(t) && (t->cancel_async || t->in_cancel_point))
		__pthread_do_cancel();
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
