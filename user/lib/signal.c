/* signal.c: sigaction, signal and raise on the kernel's rt_sigaction and tgkill; handlers run through a trampoline that translates signal numbers and masks. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <ucontext.h>
#include <unistd.h>
#include "glue.h"
#include "pthread/tcb.h"
#include "signal_glue.h"

/*
 * These replace newlib's signal() and raise(), which emulate signals inside
 * the process (crt0.S names raise so that this file, not libc.a's signal.o,
 * is linked).
 *
 * The kernel calls one function for every signal a program catches:
 * sig_trampoline, installed with SA_SIGINFO and our restorer.  It looks the
 * program's handler up by newlib's number, gives it newlib's number (also in
 * si_signo, and in si_status for a child killed or stopped by a signal) and
 * saves errno around it; uc_sigmask needs no change (sigset_t is the kernel's).
 */
struct sig_slot {
	void	*handler;		/* the program's sa_handler or sa_sigaction */
	int	flags;			/* the program's sa_flags */
};

static struct sig_slot sig_slots[NSIG];	/* written under sig_lock; read by the trampoline */
static volatile int sig_lock;

_Static_assert(sizeof(siginfo_t) == 128, "siginfo_t is Linux's 128 bytes");
_Static_assert(offsetof(siginfo_t, si_addr) == 12 && offsetof(siginfo_t, si_value) == 20,
	       "siginfo_t fields where Linux puts them");
_Static_assert(offsetof(ucontext_t, uc_mcontext) == 20 && offsetof(ucontext_t, uc_sigmask) == 108,
	       "ucontext_t is Linux's");

static void sig_info_to_newlib(int sig, siginfo_t *info)
{
	info->si_signo = sig;
	if (sig == SIGCHLD && info->si_code != CLD_EXITED)	/* si_status is a signal */
		info->si_status = __sig_from_kernel(info->si_status);
}

static void sig_trampoline(int ksig, siginfo_t *info, void *ucv)
{
	int sig = __sig_from_kernel(ksig), saved_errno = errno;
	ucontext_t *uc = ucv;
	struct sig_slot s;

	if (!sig)
		return;
	s.handler = __atomic_load_n(&sig_slots[sig].handler, __ATOMIC_ACQUIRE);
	s.flags = sig_slots[sig].flags;
	if (s.handler == (void *)SIG_DFL || s.handler == (void *)SIG_IGN)
		return;			/* changed while the signal was on its way */
	if (info)
		sig_info_to_newlib(sig, info);
	if (s.flags & SA_SIGINFO)
		((void (*)(int, siginfo_t *, void *))s.handler)(sig, info, uc);
	else
		((void (*)(int))s.handler)(sig);
	errno = saved_errno;
	__pthread_tls_reassert();	/* qemu-i386: tls.c */
}

/* The program's action -> the kernel's: a handler goes through the trampoline. */
static void sig_action_to_kernel(const struct sigaction *act, struct kernel_sigaction *k)
{
	void *h = (void *)act->sa_handler;

	k->handler = h == (void *)SIG_DFL || h == (void *)SIG_IGN ? h : (void *)sig_trampoline;
	k->flags = (unsigned)act->sa_flags | KSA_RESTORER |
		   (k->handler == (void *)sig_trampoline ? KSA_SIGINFO : 0);
	k->restorer = __aiok_sigreturn;
	__sigset_to_kernel(&act->sa_mask, &k->mask);
}

/* The kernel's action -> the program's; prev is what the trampoline served. */
static void sig_action_from_kernel(const struct kernel_sigaction *k, const struct sig_slot *prev,
				   struct sigaction *old)
{
	if (k->handler == (void *)sig_trampoline) {
		old->sa_handler = (_sig_func_ptr)prev->handler;
		old->sa_flags = prev->flags;
	} else {
		old->sa_handler = (_sig_func_ptr)k->handler;
		old->sa_flags = (int)(k->flags & ~KSA_RESTORER);
	}
	old->sa_mask = __sigset_from_kernel(&k->mask);
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	int ksig = __sig_to_kernel(sig);
	struct kernel_sigaction kact, kold;
	struct sig_slot prev;
	long r;

	if (!ksig) {
		errno = EINVAL;
		return -1;
	}
	if (act)
		sig_action_to_kernel(act, &kact);
	__lock_word(&sig_lock, 0);
	prev = sig_slots[sig];
	if (act && kact.handler == (void *)sig_trampoline) {
		sig_slots[sig].flags = act->sa_flags;
		__atomic_store_n(&sig_slots[sig].handler, (void *)act->sa_handler, __ATOMIC_RELEASE);
	}
	r = __sys_rt_sigaction(ksig, act ? &kact : 0, old ? &kold : 0, KSIGSET_SIZE);
	if (GLUE_IS_ERR(r))
		sig_slots[sig] = prev;
	__unlock_word(&sig_lock, 0);
	if (!GLUE_IS_ERR(r) && old)
		sig_action_from_kernel(&kold, &prev, old);
	return (int)glue_ret(r);
}

/* BSD semantics, as glibc: the handler stays, interrupted calls restart. */
_sig_func_ptr signal(int sig, _sig_func_ptr handler)
{
	struct sigaction sa = { .sa_flags = SA_RESTART }, old;

	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

_sig_func_ptr _signal_r(struct _reent *r, int sig, _sig_func_ptr handler)
{
	(void)r;
	return signal(sig, handler);
}

int siginterrupt(int sig, int flag)
{
	struct sigaction sa;

	if (sigaction(sig, 0, &sa) < 0)
		return -1;
	sa.sa_flags = flag ? sa.sa_flags & ~SA_RESTART : sa.sa_flags | SA_RESTART;
	return sigaction(sig, &sa, 0);
}

/* To the calling thread; a handler has run when this returns. */
int raise(int sig)
{
	int ksig = __sig_to_kernel(sig);
	long r;

	if (!ksig) {
		errno = EINVAL;
		return -1;
	}
	r = __sys_tgkill(__sys_getpid(), __pthread_tid(), ksig);
	if (glue_neg_errno(r) == -ENOSYS)	/* no tgkill: no threads either */
		r = __sys_kill(__sys_getpid(), ksig);
	return glue_ret(r) < 0 ? -1 : 0;
}

int _raise_r(struct _reent *r, int sig)
{
	(void)r;
	return raise(sig);
}

/* A signal with a value: si_code SI_QUEUE, si_value value (si_uid is left 0). */
int sigqueue(pid_t pid, int sig, const union sigval value)
{
	int ksig = __sig_to_kernel(sig);
	siginfo_t si = { .si_code = SI_QUEUE };

	if (!ksig && sig != 0) {		/* 0: only the checks (POSIX), as kill's */
		errno = EINVAL;
		return -1;
	}
	si.si_signo = ksig;		/* the kernel reads its own number */
	si.si_pid = __sys_getpid();
	si.si_value = value;
	return (int)glue_ret(__sys_rt_sigqueueinfo(pid, ksig, &si));
}
