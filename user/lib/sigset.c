/* sigset.c: signal sets and masks for newlib programs: numbers translated to the kernel's (SIGRTMIN..SIGRTMAX the same), 64-bit sets, sigprocmask, sigsuspend, sigwait, alarm, sigaltstack, siglongjmp. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <unistd.h>
#include "glue.h"
#include "pthread/tcb.h"
#include "signal_glue.h"

/*
 * newlib numbers signals 1..31 (SIGUSR1 30), the kernel as Linux (SIGUSR1 10);
 * real-time signals 32..64 have the same number on both sides, of which 32 and
 * 33 are the threads library's (KSIG_CANCEL) and no program's.  A sigset_t
 * holds the kernel's 64-bit set as it is, bit k - 1 for kernel signal k, so
 * only the set functions translate numbers (1..31 through abi_xlate.c).
 */
#define SIG_LIB_W0	(1ul << 31)	/* kernel 32 (KSIG_CANCEL) */
#define SIG_LIB_W1	(1ul << 0)	/* kernel 33 */
_Static_assert(KSIG_CANCEL == 32, "the library's signals are kernel 32 and 33");

int __libc_current_sigrtmin(void)
{
	return KSIG_CANCEL + 2;
}

int __libc_current_sigrtmax(void)
{
	return KNSIG;
}

/* Through abi_xlate.c's constant tables: no table of ours to fill (a first
 * write would cost the process a page, which leak checks around a kill see). */
int __sig_to_kernel(int sig)
{
	int k;

	if (sig >= __libc_current_sigrtmin() && sig <= KNSIG)
		return sig;
	if (sig <= 0 || sig >= 32)
		return 0;
	k = abi_signal_to_kernel(sig);
	return k > 0 && k < 32 ? k : 0;
}

int __sig_from_kernel(int ksig)
{
	int sig;

	if (ksig >= __libc_current_sigrtmin() && ksig <= KNSIG)
		return ksig;
	if (ksig <= 0 || ksig >= 32)
		return 0;
	sig = abi_signal_from_kernel(ksig);	/* passes a number it lacks through */
	return sig > 0 && sig < 32 && abi_signal_to_kernel(sig) == ksig ? sig : 0;
}

/* The program's set to the kernel: the same bits, less the library's own. */
void __sigset_to_kernel(const sigset_t *set, struct kernel_sigset *k)
{
	k->sig[0] = set->__bits[0] & ~SIG_LIB_W0;
	k->sig[1] = set->__bits[1] & ~SIG_LIB_W1;
}

sigset_t __sigset_from_kernel(const struct kernel_sigset *k)
{
	return (sigset_t){ { k->sig[0] & ~SIG_LIB_W0, k->sig[1] & ~SIG_LIB_W1 } };
}

int sigemptyset(sigset_t *set)
{
	set->__bits[0] = set->__bits[1] = 0;
	return 0;
}

/* Every signal, the kernel's SIGSTKFLT and SIGPWR too (as glibc), not the library's. */
int sigfillset(sigset_t *set)
{
	set->__bits[0] = ~SIG_LIB_W0;
	set->__bits[1] = ~SIG_LIB_W1;
	return 0;
}

/* The kernel number of a signal a set may hold; 0 with errno EINVAL. */
static int sig_bit(int sig)
{
	int k = __sig_to_kernel(sig);

	if (!k)
		errno = EINVAL;
	return k;
}

int sigaddset(sigset_t *set, int sig)
{
	int k = sig_bit(sig);

	if (!k)
		return -1;
	set->__bits[(k - 1) / 32] |= 1ul << ((k - 1) % 32);
	return 0;
}

int sigdelset(sigset_t *set, int sig)
{
	int k = sig_bit(sig);

	if (!k)
		return -1;
	set->__bits[(k - 1) / 32] &= ~(1ul << ((k - 1) % 32));
	return 0;
}

int sigismember(const sigset_t *set, int sig)
{
	int k = sig_bit(sig);

	if (!k)
		return -1;
	return (int)((set->__bits[(k - 1) / 32] >> ((k - 1) % 32)) & 1);
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
