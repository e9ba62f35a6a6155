/* ulib_signal.c: the signal glue against the kernel's own view: every number both ways, sets and masks as rt_sigprocmask sees them, the library's signal never blocked, layouts. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include "lib/ktap.h"
#include "lx_syscall.h"
#include "../lib/signal_glue.h"

/* Linux i386's numbers for newlib's names; 0: Linux has none. */
static const struct { int sig, linux_sig; } numbers[] = {
	{ SIGHUP, 1 }, { SIGINT, 2 }, { SIGQUIT, 3 }, { SIGILL, 4 }, { SIGTRAP, 5 },
	{ SIGABRT, 6 }, { SIGEMT, 0 }, { SIGFPE, 8 }, { SIGKILL, 9 }, { SIGBUS, 7 },
	{ SIGSEGV, 11 }, { SIGSYS, 31 }, { SIGPIPE, 13 }, { SIGALRM, 14 }, { SIGTERM, 15 },
	{ SIGURG, 23 }, { SIGSTOP, 19 }, { SIGTSTP, 20 }, { SIGCONT, 18 }, { SIGCHLD, 17 },
	{ SIGTTIN, 21 }, { SIGTTOU, 22 }, { SIGIO, 29 }, { SIGXCPU, 24 }, { SIGXFSZ, 25 },
	{ SIGVTALRM, 26 }, { SIGPROF, 27 }, { SIGWINCH, 28 }, { SIGLOST, 0 }, { SIGUSR1, 10 },
	{ SIGUSR2, 12 },
};

static int case_numbers(void)
{
	int ok = sizeof(numbers) / sizeof(numbers[0]) == 31;

	for (unsigned i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		int sig = numbers[i].sig, k = numbers[i].linux_sig;

		ok &= __sig_to_kernel(sig) == k;
		ok &= !k || __sig_from_kernel(k) == sig;
	}
	/* real-time signals keep their number, but the library's 32 and 33 */
	for (int sig = 34; sig <= 64; sig++)
		ok &= __sig_to_kernel(sig) == sig && __sig_from_kernel(sig) == sig;
	ok &= SIGRTMIN == 34 && SIGRTMAX == 64 && NSIG == 65;
	ok &= !__sig_to_kernel(32) && !__sig_to_kernel(33) && !__sig_from_kernel(33);
	/* Linux's SIGSTKFLT and SIGPWR have no newlib name */
	return ok && !__sig_from_kernel(16) && !__sig_from_kernel(30) && !__sig_from_kernel(32) &&
	       !__sig_from_kernel(65) && !__sig_to_kernel(0) && !__sig_to_kernel(NSIG);
}

/* Each signal lands on its kernel bit (k - 1), and comes back. */
static int case_set_bits(void)
{
	int ok = 1;

	for (int sig = 1; sig <= 64; sig++) {
		sigset_t s;
		struct kernel_sigset k;
		int ksig = __sig_to_kernel(sig);

		sigemptyset(&s);
		ok &= sigaddset(&s, sig) == (ksig ? 0 : -1);
		__sigset_to_kernel(&s, &k);
		if (ksig)
			ok &= k.sig[(ksig - 1) / 32] == 1ul << ((ksig - 1) % 32) &&
			      !k.sig[ksig <= 32];
		else
			ok &= !k.sig[0] && !k.sig[1];
		s = __sigset_from_kernel(&k);
		ok &= sigismember(&s, sig) == (ksig ? 1 : -1);
	}
	return ok;
}

static struct kernel_sigset kernel_mask(void)
{
	struct kernel_sigset k = { { 0, 0 } };

	lx_syscall(175, KSIG_BLOCK, 0, (long)&k, KSIGSET_SIZE, 0);	/* rt_sigprocmask */
	return k;
}

/* newlib's SIG_BLOCK 1, SIG_UNBLOCK 2, SIG_SETMASK 0 reach the kernel as its 0, 1, 2. */
static int case_mask_as_kernel_sees_it(void)
{
	sigset_t s, t;
	struct kernel_sigset k;
	int ok;

	sigemptyset(&s);
	sigemptyset(&t);
	sigaddset(&s, SIGUSR1);
	sigaddset(&t, SIGTERM);
	ok = sigprocmask(SIG_SETMASK, &s, 0) == 0 && kernel_mask().sig[0] == 1ul << 9;
	ok &= sigprocmask(SIG_BLOCK, &t, 0) == 0 && kernel_mask().sig[0] == (1ul << 9 | 1ul << 14);
	ok &= sigprocmask(SIG_UNBLOCK, &s, 0) == 0 && kernel_mask().sig[0] == 1ul << 14;
	sigfillset(&s);
	ok &= pthread_sigmask(SIG_SETMASK, &s, 0) == 0;
	k = kernel_mask();
	/* everything (SIGKILL and SIGSTOP the kernel refuses), as glibc, but not
	 * the library's signals, 32 and 33 (qemu-i386 keeps some real-time ones
	 * for itself: 40 and 64 are checked) */
	ok &= k.sig[0] == (0xffffffffu & ~(1u << 8 | 1u << 18 | 1u << 31)) &&
	      !(k.sig[1] & 1) && (k.sig[1] & 1u << (40 - 33));
	sigemptyset(&s);
	return ok && sigprocmask(SIG_SETMASK, &s, 0) == 0 && kernel_mask().sig[0] == 0;
}

static void widen_mask(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	sigaddset(&uc->uc_sigmask, SIGUSR2);
}

/* uc_sigmask is the kernel's own mask: a handler adding SIGUSR2 keeps the
 * bits a program cannot name (blocked signal 32 stays blocked across the
 * handler's return). */
static int case_uc_mask_keeps_kernel_bits(void)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO };
	struct kernel_sigset k = { { 1ul << 31, 1ul << 2 } }, after;

	sa.sa_sigaction = widen_mask;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, 0))
		return 0;
	lx_syscall(175, KSIG_SETMASK, (long)&k, 0, KSIGSET_SIZE, 0);
	raise(SIGUSR1);
	after = kernel_mask();
	k.sig[0] = 0;
	lx_syscall(175, KSIG_SETMASK, (long)&k, 0, KSIGSET_SIZE, 0);
	return after.sig[0] == (1ul << 31 | 1ul << 11) && after.sig[1] == 1ul << 2;
}

/* What the kernel holds after sigaction: the trampoline, SA_SIGINFO and our
 * restorer, the mask in its numbering; reading back gives the program's. */
static int case_kernel_action(void)
{
	struct sigaction sa = { .sa_flags = SA_RESTART | SA_NODEFER }, back;
	struct kernel_sigaction k;

	sa.sa_handler = (_sig_func_ptr)(void (*)(void))case_kernel_action;	/* an address to find */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGCHLD);
	if (sigaction(SIGUSR2, &sa, 0) || sigaction(SIGUSR2, 0, &back))
		return 0;
	lx_syscall(174, 12, 0, (long)&k, KSIGSET_SIZE, 0);	/* rt_sigaction(SIGUSR2) */
	return k.handler != (void *)sa.sa_handler && k.restorer == __aiok_sigreturn &&
	       k.flags == (KSA_SIGINFO | KSA_RESTORER | KSA_RESTART | KSA_NODEFER) &&
	       k.mask.sig[0] == 1ul << 16 && !k.mask.sig[1] &&
	       back.sa_handler == sa.sa_handler && back.sa_flags == sa.sa_flags &&
	       !memcmp(&back.sa_mask, &sa.sa_mask, sizeof(sigset_t));
}

static volatile siginfo_t got;

static void keep_info(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	got = *si;
}

/* Fields where the kernel writes them: a siginfo queued to ourselves with the
 * raw call (Linux's numbers, any si_pid and si_uid) reads back by name. */
static int case_siginfo_fields(void)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO };
	int raw[32] = { 10, 0, SI_QUEUE, 777, 4242, 99 };	/* signo, errno, code, pid, uid, value */

	sa.sa_sigaction = keep_info;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, 0))
		return 0;
	lx_syscall(178, getpid(), 10, (long)raw, 0, 0);		/* rt_sigqueueinfo */
	return got.si_signo == SIGUSR1 && got.si_code == SI_QUEUE && got.si_pid == 777 &&
	       got.si_uid == 4242 && got.si_value.sival_int == 99;
}

static int case_layouts(void)
{
	return sizeof(siginfo_t) == 128 && offsetof(siginfo_t, si_pid) == 12 &&
	       offsetof(siginfo_t, si_uid) == 16 && offsetof(siginfo_t, si_value) == 20 &&
	       offsetof(siginfo_t, si_status) == 20 && offsetof(siginfo_t, si_addr) == 12 &&
	       sizeof(ucontext_t) == 116 && offsetof(ucontext_t, uc_stack) == 8 &&
	       offsetof(ucontext_t, uc_mcontext) == 20 &&
	       offsetof(ucontext_t, uc_mcontext.gregs[REG_EIP]) == 20 + 14 * 4 &&
	       offsetof(ucontext_t, uc_sigmask) == 108 && sizeof(stack_t) == 12 &&
	       sizeof(struct kernel_sigaction) == 20;
}

int main(void)
{
	struct ktap t;

	alarm(60);
	ktap_begin(&t, "ulib_signal", 7);
	ktap_case(&t, "numbers_newlib_linux", case_numbers(), NULL);
	ktap_case(&t, "set_bits_both_ways", case_set_bits(), NULL);
	ktap_case(&t, "mask_as_kernel_sees_it", case_mask_as_kernel_sees_it(), NULL);
	ktap_case(&t, "uc_mask_keeps_kernel_bits", case_uc_mask_keeps_kernel_bits(), NULL);
	ktap_case(&t, "kernel_action_trampoline", case_kernel_action(), NULL);
	ktap_case(&t, "siginfo_fields_by_name", case_siginfo_fields(), NULL);
	ktap_case(&t, "layouts", case_layouts(), NULL);
	return ktap_end(&t);
}
