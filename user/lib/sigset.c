/* sigset.c: signal sets and masks for newlib programs: translation to the kernel's 64-bit sets, sigprocmask, sigsuspend, sigwait, alarm, sigaltstack, siglongjmp. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <unistd.h>
#include "glue.h"
#include "pthread/tcb.h"
#include "signal_glue.h"

/*
 * newlib numbers signals 1..31 (SIGUSR1 30) and keeps a set in one 32-bit word,
 * bit n for signal n; the kernel numbers them as Linux (SIGUSR1 10) in a 64-bit
 * set, bit n - 1 for signal n.  The two tables are filled once from abi_xlate.c.
 */
static signed char sig_kernel[NSIG];		/* newlib -> kernel, 0: none */
static signed char sig_newlib[KNSIG + 1];	/* kernel -> newlib, 0: none */
static volatile int sig_tables_ready;

static void sig_tables_fill(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		int k = abi_signal_to_kernel(sig);

		if (k > 0 && k <= KNSIG) {
			sig_kernel[sig] = (signed char)k;
			sig_newlib[k] = (signed char)sig;
		}
	}
	__atomic_store_n(&sig_tables_ready, 1, __ATOMIC_RELEASE);	/* same values from any racer */
}

int __sig_to_kernel(int sig)
{
	if (sig <= 0 || sig >= NSIG)
		return 0;
	if (!__atomic_load_n(&sig_tables_ready, __ATOMIC_ACQUIRE))
		sig_tables_fill();
	return sig_kernel[sig];
}

int __sig_from_kernel(int ksig)
{
	if (ksig <= 0 || ksig > KNSIG)
		return 0;
	if (!__atomic_load_n(&sig_tables_ready, __ATOMIC_ACQUIRE))
		sig_tables_fill();
	return sig_newlib[ksig];
}

void __sigset_to_kernel(const sigset_t *set, struct kernel_sigset *k)
{
	k->sig[0] = k->sig[1] = 0;
	for (int sig = 1; sig < NSIG; sig++) {
		int ksig = __sig_to_kernel(sig);

		if (ksig && (*set & (1ul << sig)))
			k->sig[(ksig - 1) / 32] |= 1ul << ((ksig - 1) % 32);
	}
}

sigset_t __sigset_from_kernel(const struct kernel_sigset *k)
{
	sigset_t set = 0;

	for (int ksig = 1; ksig <= 32; ksig++) {	/* newlib names none above 31 */
		int sig = __sig_from_kernel(ksig);

		if (sig && (k->sig[0] & (1ul << (ksig - 1))))
			set |= 1ul << sig;
	}
	return set;
}

int sigemptyset(sigset_t *set)
{
	*set = 0;
	return 0;
}

int sigfillset(sigset_t *set)
{
	*set = ~1ul;		/* bit 0 is no signal */
	return 0;
}

static int sig_valid(int sig)
{
	if (sig > 0 && sig < NSIG)
		return 1;
	errno = EINVAL;
	return 0;
}

int sigaddset(sigset_t *set, int sig)
{
	if (!sig_valid(sig))
		return -1;
	*set |= 1ul << sig;
	return 0;
}

int sigdelset(sigset_t *set, int sig)
{
	if (!sig_valid(sig))
		return -1;
	*set &= ~(1ul << sig);
	return 0;
}

int sigismember(const sigset_t *set, int sig)
{
	if (!sig_valid(sig))
		return -1;
	return (*set >> sig) & 1;
}

/* The calling thread's mask; 0 or an errno value. */
int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	static const int khow[] = { [SIG_SETMASK] = KSIG_SETMASK, [SIG_BLOCK] = KSIG_BLOCK,
				    [SIG_UNBLOCK] = KSIG_UNBLOCK };
	struct kernel_sigset kset, kold = { { 0, 0 } };
	long r;

	if (set && (how < 0 || how > SIG_UNBLOCK))
		return EINVAL;
	if (set)
		__sigset_to_kernel(set, &kset);
	r = __sys_rt_sigprocmask(set ? khow[how] : KSIG_BLOCK, set ? &kset : 0,
				 old ? &kold : 0, KSIGSET_SIZE);
	if (GLUE_IS_ERR(r))
		return (int)-glue_neg_errno(r);
	if (old)
		*old = __sigset_from_kernel(&kold);
	return 0;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	int e = pthread_sigmask(how, set, old);

	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

void __signals_block_all(struct kernel_sigset *old)
{
	struct kernel_sigset all = { { ~0ul, ~0ul } };

	old->sig[0] = old->sig[1] = 0;
	__sys_rt_sigprocmask(KSIG_SETMASK, &all, old, KSIGSET_SIZE);
}

void __signals_restore(const struct kernel_sigset *old)
{
	__sys_rt_sigprocmask(KSIG_SETMASK, old, 0, KSIGSET_SIZE);
}

int sigpending(sigset_t *set)
{
	struct kernel_sigset k = { { 0, 0 } };
	long r = __sys_rt_sigpending(&k, KSIGSET_SIZE);

	if (!GLUE_IS_ERR(r))
		*set = __sigset_from_kernel(&k);
	return (int)glue_ret(r);
}

/* A cancellation point; always -1 with EINTR (after a handler ran). */
int sigsuspend(const sigset_t *mask)
{
	struct kernel_sigset k;
	long r;

	__sigset_to_kernel(mask, &k);
	r = __SYSCALL_CP(__NR_rt_sigsuspend, &k, KSIGSET_SIZE);
	return (int)glue_ret(r);
}

/* A cancellation point; -1 with EINTR once a handler ran. */
int pause(void)
{
	long r;

	r = __SYSCALL_CP(__NR_pause, 0);
	return (int)glue_ret(r);
}

unsigned alarm(unsigned seconds)
{
	long r = __sys_alarm(seconds);

	return GLUE_IS_ERR(r) ? 0 : (unsigned)r;
}

int sigaltstack(const stack_t *ss, stack_t *old)
{
	struct kernel_sigaltstack kss, kold = { 0, 0, 0 };
	long r;

	if (ss)
		kss = (struct kernel_sigaltstack){ ss->ss_sp, ss->ss_flags, ss->ss_size };
	r = __sys_sigaltstack(ss ? &kss : 0, old ? &kold : 0);
	if (!GLUE_IS_ERR(r) && old)
		*old = (stack_t){ .ss_sp = kold.ss_sp, .ss_flags = kold.ss_flags,
				  .ss_size = kold.ss_size };
	return (int)glue_ret(r);
}

/*
 * rt_sigtimedwait: the signal taken (newlib's number), si_signo translated;
 * -errno (newlib's) on error.  A cancellation point.
 */
static int sig_timedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	struct kernel_sigset k;
	struct kernel_timespec kts;
	long r;

	if (timeout && glue_ts_to_kernel(timeout, &kts) < 0)
		return -EINVAL;
	__sigset_to_kernel(set, &k);
	r = __SYSCALL_CP(__NR_rt_sigtimedwait, &k, info, timeout ? &kts : 0, KSIGSET_SIZE);
	if (GLUE_IS_ERR(r))
		return (int)glue_neg_errno(r);
	r = __sig_from_kernel((int)r);
	if (info)
		info->si_signo = (int)r;
	return (int)r;
}

int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	int r = sig_timedwait(set, info, timeout);

	if (r < 0) {
		errno = -r;
		return -1;
	}
	return r;
}

int sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	return sigtimedwait(set, info, 0);
}

/* POSIX: an error number, never EINTR (the wait starts over). */
int sigwait(const sigset_t *set, int *sig)
{
	int r;

	do
		r = sig_timedwait(set, 0, 0);
	while (r == -EINTR);
	if (r < 0)
		return -r;
	*sig = r;
	return 0;
}

/* As glibc: kill(-pgrp); 0 is the caller's group (and 1 every process). */
int killpg(pid_t pgrp, int sig)
{
	if (pgrp < 0) {
		errno = EINVAL;
		return -1;
	}
	return kill(-pgrp, sig);
}

void siglongjmp(sigjmp_buf env, int val)
{
	if (env->__savemask)
		sigprocmask(SIG_SETMASK, &env->__mask, 0);
	longjmp(env->__jb, val);
}
