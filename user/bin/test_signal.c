/* test_signal.c: the "signal" suite: handlers with SA_SIGINFO, signal numbers as newlib names them, masks, sigsuspend, alarm, sigaltstack, sigsetjmp/siglongjmp out of a handler, interval timers (setitimer). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include "utest.h"
#include "user/syscalls.h"

extern char **environ;
static const char *self_path;	/* argv[0], for the cases that exec this program again */

/* Each case runs in a child of its own (utest); alarm() ends a hung one. */
#define WATCHDOG()	alarm(60)

static volatile int hits, last_sig, last_code, last_pid, depth, max_depth;
static volatile void *last_addr;
static volatile int last_value;
static volatile unsigned last_uid;
static volatile sigset_t mask_in_handler, uc_mask_in_handler;

/* sigset_t is opaque (64 bits): compared whole, as a program would. */
static int set_eq(sigset_t a, sigset_t b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

static int set_empty(sigset_t a)
{
	sigset_t e;

	sigemptyset(&e);
	return set_eq(a, e);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, 0);
}

static int install(int sig, void *handler, int flags, const sigset_t *mask)
{
	struct sigaction sa = { .sa_flags = flags };

	if (flags & SA_SIGINFO)
		sa.sa_sigaction = (void (*)(int, siginfo_t *, void *))handler;
	else
		sa.sa_handler = (_sig_func_ptr)handler;
	if (mask)
		sa.sa_mask = *mask;
	else
		sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, 0);
}

static void on_info(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	sigset_t now;

	hits++;
	last_sig = sig * 1000 + si->si_signo;	/* both must be newlib's number */
	last_code = si->si_code;
	last_pid = si->si_pid;
	last_uid = si->si_uid;
	last_value = si->si_value.sival_int;
	sigprocmask(SIG_BLOCK, 0, &now);
	mask_in_handler = now;
	uc_mask_in_handler = uc->uc_sigmask;
}

static void on_plain(int sig)
{
	hits++;
	last_sig = sig;
}

/* raise, kill and sigqueue: the handler gets newlib's number and Linux's si_code. */
static int siginfo_from_raise_kill_queue(void)
{
	WATCHDOG();
	CHECK_EQ(install(SIGUSR1, on_info, SA_SIGINFO, 0), 0);
	CHECK_EQ(raise(SIGUSR1), 0);
	CHECK_EQ(hits, 1);
	CHECK_EQ(last_sig, SIGUSR1 * 1000 + SIGUSR1);
	CHECK_EQ(last_code, SI_TKILL);
	CHECK_EQ(last_pid, getpid());
	CHECK_EQ(kill(getpid(), SIGUSR1), 0);
	CHECK_EQ(hits, 2);
	CHECK_EQ(last_code, SI_USER);
	CHECK_EQ(last_pid, getpid());
	CHECK_EQ(sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = 4242 }), 0);
	CHECK_EQ(hits, 3);
	CHECK_EQ(last_code, SI_QUEUE);
	CHECK_EQ(last_value, 4242);
	return 0;
}

/* Every signal a program can catch arrives under its own newlib number. */
static int numbers_both_ways(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTRAP, SIGABRT, SIGBUS, SIGFPE,
				    SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGCHLD,
				    SIGCONT, SIGURG, SIGWINCH, SIGSYS, SIGTSTP, SIGTTIN, SIGTTOU,
				    SIGIO, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGILL };

	WATCHDOG();
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		CHECK_EQ(install(sigs[i], on_info, SA_SIGINFO, 0), 0);
		last_sig = 0;
		CHECK_EQ(raise(sigs[i]), 0);
		CHECK_EQ(last_sig, sigs[i] * 1000 + sigs[i]);
	}
	CHECK_ERR(install(SIGEMT, on_plain, 0, 0), EINVAL);	/* no kernel number */
	CHECK_ERR(install(SIGKILL, on_plain, 0, 0), EINVAL);
	CHECK_ERR(install(0, on_plain, 0, 0), EINVAL);
	CHECK_ERR(install(NSIG, on_plain, 0, 0), EINVAL);
	CHECK_ERR(raise(NSIG), EINVAL);
	CHECK_ERR(kill(getpid(), 77), EINVAL);
	CHECK_EQ(kill(getpid(), 0), 0);
	return 0;
}

static int signal_and_old_actions(void)
{
	struct sigaction old;

	WATCHDOG();
	CHECK(signal(SIGUSR2, on_plain) == SIG_DFL);
	CHECK(signal(SIGUSR2, SIG_IGN) == on_plain);
	CHECK_EQ(raise(SIGUSR2), 0);			/* ignored */
	CHECK_EQ(hits, 0);
	CHECK(signal(SIGUSR2, on_plain) == SIG_IGN);
	CHECK_EQ(raise(SIGUSR2), 0);
	CHECK_EQ(hits, 1);
	CHECK_EQ(last_sig, SIGUSR2);
	CHECK_EQ(sigaction(SIGUSR2, 0, &old), 0);
	CHECK(old.sa_handler == on_plain && (old.sa_flags & SA_RESTART));
	CHECK(signal(SIGKILL, on_plain) == SIG_ERR);
	CHECK_EQ(install(SIGALRM, on_info, SA_SIGINFO | SA_RESETHAND, 0), 0);
	CHECK_EQ(raise(SIGALRM), 0);
	CHECK_EQ(sigaction(SIGALRM, 0, &old), 0);
	CHECK(old.sa_handler == SIG_DFL);		/* reset by the delivery */
	return 0;
}

static int sets(void)
{
	sigset_t s;

	WATCHDOG();
	CHECK_EQ(sigemptyset(&s), 0);
	CHECK_EQ(sigismember(&s, SIGUSR1), 0);
	CHECK_EQ(sigaddset(&s, SIGUSR1), 0);
	CHECK_EQ(sigismember(&s, SIGUSR1), 1);
	CHECK_EQ(sigdelset(&s, SIGUSR1), 0);
	CHECK_EQ(sigismember(&s, SIGUSR1), 0);
	CHECK_EQ(sigfillset(&s), 0);
	CHECK_EQ(sigismember(&s, SIGTERM), 1);
	CHECK_ERR(sigaddset(&s, 0), EINVAL);
	CHECK_ERR(sigaddset(&s, NSIG), EINVAL);
	CHECK_ERR(sigismember(&s, -1), EINVAL);
	return 0;
}

/* A blocked signal stays pending until unblocked, then runs at once. */
static int mask_and_pending(void)
{
	sigset_t s, old, pend, now;

	WATCHDOG();
	CHECK_EQ(install(SIGUSR1, on_plain, 0, 0), 0);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	CHECK_EQ(sigprocmask(SIG_BLOCK, &s, &old), 0);
	CHECK_EQ(sigismember(&old, SIGUSR1), 0);
	CHECK_EQ(raise(SIGUSR1), 0);
	CHECK_EQ(hits, 0);
	CHECK_EQ(sigpending(&pend), 0);
	CHECK(set_eq(pend, s));			/* SIGUSR1, nothing else */
	CHECK_EQ(sigprocmask(SIG_SETMASK, 0, &now), 0);
	CHECK(set_eq(now, s));
	CHECK_EQ(sigprocmask(SIG_UNBLOCK, &s, 0), 0);
	CHECK_EQ(hits, 1);
	CHECK_EQ(sigpending(&pend), 0);
	CHECK(set_empty(pend));
	sigaddset(&s, SIGUSR2);
	CHECK_EQ(sigprocmask(SIG_SETMASK, &s, 0), 0);
	CHECK_EQ(sigprocmask(SIG_BLOCK, 0, &now), 0);
	CHECK(set_eq(now, s));
	CHECK_ERR(sigprocmask(7, &s, 0), EINVAL);
	sigfillset(&s);
	CHECK_EQ(sigprocmask(SIG_SETMASK, &s, 0), 0);
	CHECK_EQ(sigprocmask(SIG_BLOCK, 0, &now), 0);
	CHECK(!sigismember(&now, SIGKILL) && !sigismember(&now, SIGSTOP));	/* cannot be */
	CHECK(sigismember(&now, SIGTERM) && sigismember(&now, SIGHUP));
	return 0;
}

static void on_usr1_raise_usr2(int sig, siginfo_t *si, void *uc)
{
	on_info(sig, si, uc);
	raise(SIGUSR2);			/* in sa_mask: waits until we return */
	depth = hits;
}

/* The mask during a handler: the signal itself, sa_mask; uc_sigmask is the
 * interrupted code's, in newlib's numbering, and changing it changes what
 * the code gets back. */
static void block_usr2_on_return(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	uc_mask_in_handler = uc->uc_sigmask;
	sigaddset(&uc->uc_sigmask, SIGUSR2);
}

static int handler_masks(void)
{
	sigset_t m, now;

	WATCHDOG();
	sigemptyset(&m);
	sigaddset(&m, SIGUSR2);
	CHECK_EQ(install(SIGUSR1, on_usr1_raise_usr2, SA_SIGINFO, &m), 0);
	CHECK_EQ(install(SIGUSR2, on_plain, 0, 0), 0);
	sigemptyset(&now);
	sigaddset(&now, SIGHUP);
	CHECK_EQ(sigprocmask(SIG_SETMASK, &now, 0), 0);
	CHECK_EQ(raise(SIGUSR1), 0);
	CHECK_EQ(depth, 1);			/* SIGUSR2 had not run inside */
	CHECK_EQ(hits, 2);			/* ... and ran right after */
	CHECK_EQ(last_sig, SIGUSR2);
	m = mask_in_handler;
	CHECK(sigismember(&m, SIGUSR1) && sigismember(&m, SIGUSR2) && sigismember(&m, SIGHUP));
	CHECK(set_eq(uc_mask_in_handler, now));	/* just SIGHUP */
	CHECK_EQ(install(SIGUSR1, block_usr2_on_return, SA_SIGINFO, 0), 0);
	CHECK_EQ(raise(SIGUSR1), 0);
	CHECK(set_eq(uc_mask_in_handler, now));
	CHECK_EQ(sigprocmask(SIG_BLOCK, 0, &m), 0);
	sigaddset(&now, SIGUSR2);
	CHECK(set_eq(m, now));			/* SIGHUP and the handler's SIGUSR2 */
	return 0;
}

/* Three calls in all: nested with SA_NODEFER, one after the other without. */
static void nested(int sig)
{
	(void)sig;
	if (++depth > max_depth)
		max_depth = depth;
	if (++hits < 3)
		raise(SIGUSR1);
	depth--;
}

static int nodefer(void)
{
	WATCHDOG();
	CHECK_EQ(install(SIGUSR1, nested, SA_NODEFER, 0), 0);
	CHECK_EQ(raise(SIGUSR1), 0);
	CHECK_EQ(hits, 3);
	CHECK_EQ(max_depth, 3);
	max_depth = hits = 0;
	CHECK_EQ(install(SIGUSR1, nested, 0, 0), 0);	/* deferred: one at a time */
	CHECK_EQ(raise(SIGUSR1), 0);
	CHECK_EQ(hits, 3);
	CHECK_EQ(max_depth, 1);
	return 0;
}

static void set_errno(int sig)
{
	(void)sig;
	errno = EIO;
	hits++;
}

static int errno_kept_across_handler(void)
{
	WATCHDOG();
	CHECK_EQ(install(SIGUSR1, set_errno, 0, 0), 0);
	errno = ERANGE;
	raise(SIGUSR1);
	CHECK_EQ(hits, 1);
	CHECK_EQ(errno, ERANGE);
	return 0;
}

static pthread_t main_thread;

static void *send_soon(void *arg)
{
	sleep_ms(50);
	pthread_kill(main_thread, (int)(long)arg);
	return 0;
}

static int fds[2];

static void *write_soon(void *arg)
{
	(void)arg;
	sleep_ms(150);
	write(fds[1], "x", 1);
	return 0;
}

/* An interrupted read: -1 EINTR without SA_RESTART, restarted with it. */
static int restart_or_eintr(void)
{
	pthread_t t, w;
	char c;

	WATCHDOG();
	main_thread = pthread_self();
	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(install(SIGUSR1, on_plain, 0, 0), 0);
	CHECK_EQ(pthread_create(&t, 0, send_soon, (void *)SIGUSR1), 0);
	CHECK_ERR(read(fds[0], &c, 1), EINTR);
	CHECK_EQ(hits, 1);
	pthread_join(t, 0);
	CHECK_EQ(install(SIGUSR1, on_plain, SA_RESTART, 0), 0);
	CHECK_EQ(pthread_create(&t, 0, send_soon, (void *)SIGUSR1), 0);
	CHECK_EQ(pthread_create(&w, 0, write_soon, 0), 0);
	CHECK_EQ(read(fds[0], &c, 1), 1);	/* the handler ran, the read went on */
	CHECK_EQ(hits, 2);
	pthread_join(t, 0);
	pthread_join(w, 0);
	return 0;
}

static int suspend_and_pause(void)
{
	sigset_t s, wait_mask, now;
	pthread_t t;

	WATCHDOG();
	main_thread = pthread_self();
	CHECK_EQ(install(SIGUSR1, on_plain, 0, 0), 0);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigprocmask(SIG_BLOCK, &s, 0);
	CHECK_EQ(pthread_create(&t, 0, send_soon, (void *)SIGUSR1), 0);
	sigemptyset(&wait_mask);
	CHECK_ERR(sigsuspend(&wait_mask), EINTR);
	CHECK_EQ(hits, 1);
	sigprocmask(SIG_BLOCK, 0, &now);
	CHECK(set_eq(now, s));			/* the mask is back */
	pthread_join(t, 0);
	sigprocmask(SIG_UNBLOCK, &s, 0);
	CHECK_EQ(pthread_create(&t, 0, send_soon, (void *)SIGUSR1), 0);
	CHECK_ERR(pause(), EINTR);
	CHECK_EQ(hits, 2);
	pthread_join(t, 0);
	return 0;
}

static int alarm_fires(void)
{
	long long t0;

	CHECK_EQ(install(SIGALRM, on_plain, 0, 0), 0);
	CHECK_EQ(alarm(5), 0);
	CHECK(alarm(0) >= 4);			/* the time that was left */
	t0 = utest_now_ns();
	CHECK_EQ(alarm(1), 0);
	CHECK_ERR(pause(), EINTR);
	CHECK_EQ(last_sig, SIGALRM);
	CHECK((utest_now_ns() - t0) / 1000000 >= 900);
	return 0;
}

/* ---- interval timers: setitimer(2) ---- */

static long long tv_us(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

static int set_itimer_us(int which, long long value_us, long long interval_us)
{
	struct itimerval v = {
		{ interval_us / 1000000, interval_us % 1000000 },
		{ value_us / 1000000, value_us % 1000000 },
	};

	return setitimer(which, &v, 0);
}

/* ITIMER_REAL with an interval: SIGALRM again and again, getitimer between;
 * it_value 0 disarms (and reads 0 afterwards, its interval too, as on
 * Linux; a CPU timer keeps its interval). */
static int itimer_real_reload(void)
{
	struct itimerval now, old;
	long long t0;

	WATCHDOG();
	CHECK_EQ(install(SIGALRM, on_plain, SA_RESTART, 0), 0);
	hits = 0;
	t0 = utest_now_ns();
	CHECK_EQ(set_itimer_us(ITIMER_REAL, 30000, 30000), 0);
	CHECK_EQ(getitimer(ITIMER_REAL, &now), 0);
	CHECK(tv_us(now.it_value) > 0 && tv_us(now.it_value) <= 30000);
	CHECK_EQ(tv_us(now.it_interval), 30000);
	while (hits < 4 && utest_now_ns() - t0 < 5000000000LL)
		pause();
	CHECK(hits >= 4);
	CHECK((utest_now_ns() - t0) / 1000000 >= 4 * 30 - 5);	/* never early */
	CHECK_EQ(last_sig, SIGALRM);
	memset(&old, 0, sizeof(old));
	CHECK_EQ(set_itimer_us(ITIMER_REAL, 0, 30000), 0);
	CHECK_EQ(getitimer(ITIMER_REAL, &now), 0);
	CHECK_EQ(tv_us(now.it_value), 0);
	CHECK_EQ(tv_us(now.it_interval), 0);
	CHECK_EQ(set_itimer_us(ITIMER_PROF, 0, 30000), 0);
	CHECK_EQ(getitimer(ITIMER_PROF, &now), 0);
	CHECK_EQ(tv_us(now.it_value), 0);
	CHECK_EQ(tv_us(now.it_interval), 30000);
	hits = 0;
	sleep_ms(100);
	CHECK_EQ(hits, 0);			/* disarmed: no more */
	CHECK_EQ(setitimer(ITIMER_REAL, 0, &old), 0);	/* NULL disarms, as Linux */
	return 0;
}

/* alarm and setitimer(ITIMER_REAL) are one timer: each returns or shows what
 * the other set; alarm rounds to the nearest second (at least 1). */
static int itimer_alarm_shared(void)
{
	struct itimerval now, old;

	WATCHDOG();
	CHECK_EQ(set_itimer_us(ITIMER_REAL, 2700000, 0), 0);
	CHECK_EQ(alarm(10), 3);
	CHECK_EQ(getitimer(ITIMER_REAL, &now), 0);
	CHECK(now.it_value.tv_sec >= 9 && tv_us(now.it_value) <= 10000000);
	CHECK_EQ(tv_us(now.it_interval), 0);
	CHECK_EQ(set_itimer_us(ITIMER_REAL, 300000, 0), 0);
	CHECK_EQ(alarm(0), 1);			/* 0.3 s left: at least 1 */
	CHECK_EQ(set_itimer_us(ITIMER_REAL, 5000000, 0), 0);
	CHECK_EQ(setitimer(ITIMER_REAL, 0, &old), 0);
	CHECK(old.it_value.tv_sec >= 4 && tv_us(old.it_value) <= 5000000);
	CHECK_EQ(alarm(0), 0);			/* disarmed by setitimer */
	return 0;
}

static int itimer_errors(void)
{
	struct itimerval v = { { 0, 0 }, { 0, 1000000 } };

	CHECK_ERR(setitimer(ITIMER_REAL, &v, 0), EINVAL);	/* tv_usec 10^6 */
	v.it_value.tv_usec = -1;
	CHECK_ERR(setitimer(ITIMER_REAL, &v, 0), EINVAL);
	v.it_value.tv_usec = 0;
	v.it_interval.tv_usec = 1000000;
	CHECK_ERR(setitimer(ITIMER_PROF, &v, 0), EINVAL);
	CHECK_ERR(setitimer(3, &v, 0), EINVAL);
	CHECK_ERR(getitimer(-1, &v), EINVAL);
	/* The kernel's own checks, past the glue's conversion. */
	CHECK_EQ(__sys_setitimer(ITIMER_REAL, (void *)16, 0), -EFAULT);
	CHECK_EQ(__sys_getitimer(ITIMER_REAL, (void *)16), -EFAULT);
	CHECK_EQ(__sys_setitimer(ITIMER_REAL, 0, (void *)0xc0000000), -EFAULT);
	return 0;
}

static volatile int vt_hits, prof_hits;

static void on_vtalrm(int sig)
{
	(void)sig;
	vt_hits++;
}

static void on_prof(int sig)
{
	(void)sig;
	prof_hits++;
}

/* ITIMER_VIRTUAL counts user time only (a sleep spends none), ITIMER_PROF
 * user and system time; both fire, and reload, while the process spins. */
static int itimer_virtual_prof(void)
{
	struct itimerval now;
	long long t0;

	WATCHDOG();
	CHECK_EQ(install(SIGVTALRM, on_vtalrm, SA_RESTART, 0), 0);
	CHECK_EQ(install(SIGPROF, on_prof, SA_RESTART, 0), 0);
	CHECK_EQ(set_itimer_us(ITIMER_VIRTUAL, 200000, 0), 0);
	sleep_ms(300);
	CHECK_EQ(getitimer(ITIMER_VIRTUAL, &now), 0);
	CHECK(tv_us(now.it_value) > 150000);	/* asleep: no user time spent */
	CHECK_EQ(vt_hits, 0);
	CHECK_EQ(set_itimer_us(ITIMER_VIRTUAL, 20000, 20000), 0);
	CHECK_EQ(set_itimer_us(ITIMER_PROF, 20000, 20000), 0);
	t0 = utest_now_ns();
	while ((vt_hits < 3 || prof_hits < 3) && utest_now_ns() - t0 < 20000000000LL)
		for (volatile int spin = 0; spin < 200000; spin++)
			;	/* user time between clock reads (a system call under int80) */
	utest_log("%d SIGVTALRM, %d SIGPROF in %lld ms", vt_hits, prof_hits,
		  (utest_now_ns() - t0) / 1000000);
	CHECK(vt_hits >= 3 && prof_hits >= 3);
	CHECK_EQ(set_itimer_us(ITIMER_VIRTUAL, 0, 0), 0);
	CHECK_EQ(set_itimer_us(ITIMER_PROF, 0, 0), 0);
	CHECK_EQ(getitimer(ITIMER_PROF, &now), 0);
	CHECK_EQ(tv_us(now.it_value), 0);
	return 0;
}

/* The child of fork has no timers; exec keeps them (setitimer(2)): a child
 * that execs a spinning program (this one, "--spin": on the host too) with
 * ITIMER_REAL armed dies of SIGALRM. */
static int itimer_fork_exec(void)
{
	char *argv[] = { (char *)self_path, "--spin", NULL };
	struct itimerval now;
	long long t0;
	pid_t pid;
	int st;

	WATCHDOG();
	CHECK_EQ(set_itimer_us(ITIMER_REAL, 5000000, 0), 0);
	CHECK_EQ(set_itimer_us(ITIMER_PROF, 5000000, 0), 0);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct itimerval r, p;
		_exit(getitimer(ITIMER_REAL, &r) || getitimer(ITIMER_PROF, &p) ||
		      tv_us(r.it_value) || tv_us(p.it_value));
	}
	CHECK(utest_child_ok(pid));
	CHECK_EQ(getitimer(ITIMER_REAL, &now), 0);
	CHECK(tv_us(now.it_value) > 0);		/* the parent's own is still armed */
	pid = fork();
	if (pid == 0) {
		set_itimer_us(ITIMER_REAL, 100000, 0);
		execve(argv[0], argv, environ);
		_exit(99);
	}
	t0 = utest_now_ns();
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (utest_now_ns() - t0 > 3000000000LL) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			break;
		}
		sleep_ms(20);
	}
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM);
	return 0;
}

static uintptr_t alt_lo, alt_hi;
static volatile int on_alt, alt_flags;

static void on_alt_stack(int sig)
{
	stack_t now;
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);

	(void)sig;
	on_alt = here >= alt_lo && here < alt_hi;
	sigaltstack(0, &now);
	alt_flags = now.ss_flags;
}

static int altstack(void)
{
	static char stack[SIGSTKSZ * 2];
	stack_t ss = { .ss_sp = stack, .ss_size = sizeof(stack) }, old;

	WATCHDOG();
	alt_lo = (uintptr_t)stack;
	alt_hi = alt_lo + sizeof(stack);
	CHECK_EQ(sigaltstack(&ss, &old), 0);
	CHECK(old.ss_flags & SS_DISABLE);
	CHECK_EQ(install(SIGUSR1, on_alt_stack, SA_ONSTACK, 0), 0);
	CHECK_EQ(raise(SIGUSR1), 0);
	CHECK(on_alt);
	CHECK(alt_flags & SS_ONSTACK);
	CHECK_EQ(install(SIGUSR1, on_alt_stack, 0, 0), 0);	/* without SA_ONSTACK */
	CHECK_EQ(raise(SIGUSR1), 0);
	CHECK(!on_alt);
	ss.ss_size = 100;
	CHECK_ERR(sigaltstack(&ss, 0), ENOMEM);
	return 0;
}

static sigjmp_buf env;

static void jump_out(int sig, siginfo_t *si, void *uc)
{
	on_info(sig, si, uc);
	last_addr = si->si_addr;
	siglongjmp(env, sig);
}

/* A fault's handler reads si_addr and leaves by siglongjmp; with the mask
 * saved, the signal is not left blocked: the next fault is caught too. */
static int siglongjmp_out_of_faults(void)
{
	static volatile uintptr_t fault_at = 0x10;	/* nothing is mapped there */
	volatile int zero = 0, r;
	sigset_t now;
	int sig;

	WATCHDOG();
	CHECK_EQ(install(SIGSEGV, jump_out, SA_SIGINFO, 0), 0);
	CHECK_EQ(install(SIGFPE, jump_out, SA_SIGINFO, 0), 0);
	for (int round = 0; round < 2; round++) {
		sig = sigsetjmp(env, 1);
		if (sig == 0)
			*(volatile int *)fault_at = 1;
		CHECK_EQ(sig, SIGSEGV);
		CHECK(last_addr == (void *)0x10);
		CHECK_EQ(last_code, SEGV_MAPERR);
	}
	sig = sigsetjmp(env, 1);
	if (sig == 0)
		r = 7 / zero;
	(void)r;
	CHECK_EQ(sig, SIGFPE);
	CHECK_EQ(last_code, FPE_INTDIV);
	CHECK_EQ(hits, 3);
	sigprocmask(SIG_BLOCK, 0, &now);
	CHECK(set_empty(now));
	return 0;
}

/* Without the mask saved, the handler's mask stays (as on Linux). */
static int siglongjmp_without_mask(void)
{
	sigset_t now;
	int sig;

	WATCHDOG();
	CHECK_EQ(install(SIGUSR1, jump_out, SA_SIGINFO, 0), 0);
	sig = sigsetjmp(env, 0);
	if (sig == 0) {
		raise(SIGUSR1);
		CHECK(0);		/* not reached */
	}
	CHECK_EQ(sig, SIGUSR1);
	sigprocmask(SIG_BLOCK, 0, &now);
	CHECK(sigismember(&now, SIGUSR1));
	return 0;
}

static volatile int child_status, child_pid;

static void on_child(int sig, siginfo_t *si, void *uc)
{
	on_info(sig, si, uc);
	child_status = si->si_status;
	child_pid = si->si_pid;
}

/* SIGCHLD's si_status: an exit code, or a signal in newlib's numbering. */
static int sigchld_info(void)
{
	pid_t pid;
	int st;

	WATCHDOG();
	CHECK_EQ(install(SIGCHLD, on_child, SA_SIGINFO | SA_RESTART, 0), 0);
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(3);
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK_EQ(hits, 1);
	CHECK_EQ(last_code, CLD_EXITED);
	CHECK_EQ(child_status, 3);
	CHECK_EQ(child_pid, pid);
	pid = fork();
	if (pid == 0) {
		signal(SIGUSR2, SIG_DFL);
		raise(SIGUSR2);
		_exit(0);
	}
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR2);
	CHECK_EQ(hits, 2);
	CHECK_EQ(last_code, CLD_KILLED);
	CHECK_EQ(child_status, SIGUSR2);
	return 0;
}

/* Default actions: SIGTERM kills, abort() ends in SIGABRT. */
static int default_actions(void)
{
	pid_t pid;
	int st;

	WATCHDOG();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		raise(SIGTERM);
		_exit(0);
	}
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	pid = fork();
	if (pid == 0)
		abort();
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	return 0;
}

static int sigwait_family(void)
{
	struct timespec ts = { 0, 30 * 1000000L };
	sigset_t s;
	siginfo_t si;
	pthread_t t;
	int sig;

	WATCHDOG();
	main_thread = pthread_self();
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	sigprocmask(SIG_BLOCK, &s, 0);
	CHECK_EQ(pthread_create(&t, 0, send_soon, (void *)SIGUSR2), 0);
	CHECK_EQ(sigwait(&s, &sig), 0);
	CHECK_EQ(sig, SIGUSR2);
	pthread_join(t, 0);
	CHECK_EQ(sigqueue(getpid(), SIGUSR2, (union sigval){ .sival_int = 9 }), 0);
	CHECK_EQ(sigwaitinfo(&s, &si), SIGUSR2);
	CHECK_EQ(si.si_signo, SIGUSR2);
	CHECK_EQ(si.si_code, SI_QUEUE);
	CHECK_EQ(si.si_value.sival_int, 9);
	CHECK_ERR(sigtimedwait(&s, &si, &ts), EAGAIN);
	return 0;
}

/* kill_races_reap: killer threads signal the pid the main thread forks
 * and reaps, over and over, on other CPUs. */
static volatile int kr_target, kr_stop, kr_bad;
static volatile long kr_kills;

static void *kr_killer(void *arg)
{
	int sig = (int)(intptr_t)arg;

	while (!kr_stop) {
		int pid = kr_target;
		if (pid <= 0)
			continue;
		if (kill(pid, sig) == 0)
			kr_kills++;
		else if (errno != ESRCH)
			kr_bad++;
		sched_yield();		/* the forks and reaps get CPUs too */
	}
	return NULL;
}

#define KR_ROUNDS	400
#define KR_BUDGET_NS	15000000000LL	/* rounds stop after this, even at a load of 10 */

/* Issue 17: kill looked a task up and used it after letting go of the task
 * list, while its parent on another CPU could reap (free) it in between. Each
 * round forks a child that exits at once (even rounds) or waits to be killed
 * (odd), while three threads kill it (SIGKILL, 0, SIGKILL) through its
 * death, its reaping and after: every kill succeeds or says ESRCH, each child
 * ends by its exit or by SIGKILL, and the kernel survives (a released task is
 * poisoned: a stale use faults). With kill_delay (test kernel, plan entry
 * kill_reap_smp) the window between look-up and use is wide: the old kill_one
 * panicked there within a few rounds. */
static int kill_races_reap(void)
{
	static const int sigs[3] = { SIGKILL, 0, SIGKILL };
	long long t0 = utest_now_ns();
	pthread_t t[3];
	int rounds = 0, st;

	for (int i = 0; i < 3; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, kr_killer, (void *)(intptr_t)sigs[i]), 0);
	for (; rounds < KR_ROUNDS && utest_now_ns() - t0 < KR_BUDGET_NS; rounds++) {
		pid_t pid = fork();
		if (pid == 0) {
			if (rounds & 1)
				for (;;)
					pause();
			_exit(7);
		}
		CHECK(pid > 0);
		kr_target = pid;
		CHECK_EQ(waitpid(pid, &st, 0), pid);
		CHECK((WIFEXITED(st) && WEXITSTATUS(st) == 7) ||
		      (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL));
		CHECK((rounds & 1) == 0 || WIFSIGNALED(st));
	}
	kr_stop = 1;
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	utest_log("%d rounds in %lld ms, %ld kills delivered", rounds,
		  (utest_now_ns() - t0) / 1000000, kr_kills);
	CHECK_EQ(kr_bad, 0);
	CHECK(rounds >= 10);
	return 0;
}

/* ---------------------------------------------------------------- real-time signals */

static volatile int rt_order[8], rt_n;

/* A high real-time signal: qemu-i386 on the host (ulib) cannot deliver the
 * guest's 64 (it keeps a host signal for itself) */
#define RT_HIGH	(SIGRTMIN + 20)

static void on_rt(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (rt_n < 8)
		rt_order[rt_n++] = sig * 1000 + si->si_value.sival_int;
}

/* 100 sigqueue's of SIGRTMIN + 1 to a blocked process: all queued, each with
 * its value; sigwaitinfo takes them in the order sent, then none is left. */
static int rt_queued_in_order(void)
{
	struct timespec zero = { 0, 0 };
	siginfo_t si;
	sigset_t s, pend;

	WATCHDOG();
	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN + 1);
	CHECK_EQ(sigprocmask(SIG_BLOCK, &s, 0), 0);
	for (int i = 0; i < 100; i++)
		CHECK_EQ(sigqueue(getpid(), SIGRTMIN + 1, (union sigval){ .sival_int = 1000 + i }), 0);
	CHECK_EQ(sigpending(&pend), 0);
	CHECK_EQ(sigismember(&pend, SIGRTMIN + 1), 1);
	for (int i = 0; i < 100; i++) {
		memset(&si, 0, sizeof(si));
		CHECK_EQ(sigwaitinfo(&s, &si), SIGRTMIN + 1);
		CHECK_EQ(si.si_signo, SIGRTMIN + 1);
		CHECK_EQ(si.si_code, SI_QUEUE);
		CHECK_EQ(si.si_pid, getpid());
		CHECK_EQ(si.si_value.sival_int, 1000 + i);
	}
	CHECK_ERR(sigtimedwait(&s, &si, &zero), EAGAIN);
	CHECK_EQ(kill(getpid(), SIGRTMIN + 1), 0);	/* each queued too */
	CHECK_EQ(raise(SIGRTMIN + 1), 0);
	CHECK_EQ(pthread_kill(pthread_self(), SIGRTMIN + 1), 0);
	for (int i = 0; i < 3; i++) {			/* the thread's own queue first */
		CHECK_EQ(sigtimedwait(&s, &si, &zero), SIGRTMIN + 1);
		CHECK_EQ(si.si_code, (i < 2 ? SI_TKILL : SI_USER));
	}
	CHECK_ERR(sigtimedwait(&s, &si, &zero), EAGAIN);
	CHECK_EQ(sigpending(&pend), 0);
	CHECK(set_empty(pend));
	return 0;
}

/* Pending real-time signals run lowest number first, each instance in the
 * order sent; the SA_SIGINFO handler gets si_value.  Each handler blocks
 * every signal, so one ends before the next starts (otherwise the kernel
 * stacks all their frames at once and the last one set up runs first). */
static int rt_lower_number_first(void)
{
	sigset_t s, all;

	WATCHDOG();
	sigfillset(&all);
	CHECK_EQ(install(SIGRTMIN + 5, on_rt, SA_SIGINFO, &all), 0);
	CHECK_EQ(install(SIGRTMIN, on_rt, SA_SIGINFO, &all), 0);
	CHECK_EQ(install(RT_HIGH, on_rt, SA_SIGINFO, &all), 0);
	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN);
	sigaddset(&s, SIGRTMIN + 5);
	sigaddset(&s, RT_HIGH);
	CHECK_EQ(sigprocmask(SIG_BLOCK, &s, 0), 0);
	CHECK_EQ(sigqueue(getpid(), RT_HIGH, (union sigval){ .sival_int = 1 }), 0);
	CHECK_EQ(sigqueue(getpid(), SIGRTMIN + 5, (union sigval){ .sival_int = 2 }), 0);
	CHECK_EQ(sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = 3 }), 0);
	CHECK_EQ(sigqueue(getpid(), SIGRTMIN + 5, (union sigval){ .sival_int = 4 }), 0);
	CHECK_EQ(rt_n, 0);
	CHECK_EQ(sigprocmask(SIG_UNBLOCK, &s, 0), 0);
	CHECK_EQ(rt_n, 4);
	CHECK_EQ(rt_order[0], SIGRTMIN * 1000 + 3);
	CHECK_EQ(rt_order[1], (SIGRTMIN + 5) * 1000 + 2);
	CHECK_EQ(rt_order[2], (SIGRTMIN + 5) * 1000 + 4);
	CHECK_EQ(rt_order[3], RT_HIGH * 1000 + 1);
	return 0;
}

/* A set holding signal 40 goes through sigprocmask and comes back; the
 * kernel holds it (a queued 40 stays pending). */
static int rt_set_round_trip(void)
{
	sigset_t s, now, pend;

	WATCHDOG();
	CHECK(40 >= SIGRTMIN && 40 <= SIGRTMAX);
	sigemptyset(&s);
	CHECK_EQ(sigaddset(&s, 40), 0);
	CHECK_EQ(sigismember(&s, 40), 1);
	CHECK_EQ(sigismember(&s, 39), 0);
	CHECK_EQ(sigprocmask(SIG_SETMASK, &s, 0), 0);
	CHECK_EQ(sigprocmask(SIG_BLOCK, 0, &now), 0);
	CHECK(set_eq(now, s));
	CHECK_EQ(sigqueue(getpid(), 40, (union sigval){ .sival_int = 40 }), 0);
	CHECK_EQ(sigpending(&pend), 0);
	CHECK(set_eq(pend, s));
	CHECK_EQ(sigdelset(&s, 40), 0);
	CHECK(set_empty(s));
	sigfillset(&s);
	CHECK_EQ(sigismember(&s, SIGRTMIN), 1);
	CHECK_EQ(sigismember(&s, SIGRTMAX), 1);
	return 0;
}

/* Numbers outside SIGRTMIN..SIGRTMAX (and the library's 32, 33) are EINVAL
 * everywhere; a full queue is EAGAIN. */
static int rt_bad_numbers_and_full_queue(void)
{
	struct sigaction sa = { .sa_flags = 0 };
	struct utsname u;
	sigset_t s;
	int sent = 0, r;

	WATCHDOG();
	CHECK_EQ(SIGRTMIN, 34);
	CHECK_EQ(SIGRTMAX, 64);
	sigemptyset(&s);
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	CHECK_ERR(sigaddset(&s, SIGRTMAX + 1), EINVAL);
	CHECK_ERR(sigdelset(&s, SIGRTMAX + 1), EINVAL);
	CHECK_ERR(sigismember(&s, SIGRTMAX + 1), EINVAL);
	CHECK_ERR(sigaddset(&s, 32), EINVAL);
	CHECK_ERR(sigaddset(&s, 33), EINVAL);
	CHECK_ERR(sigaction(SIGRTMAX + 1, &sa, 0), EINVAL);
	CHECK_ERR(sigaction(32, &sa, 0), EINVAL);
	CHECK_ERR(kill(getpid(), SIGRTMAX + 1), EINVAL);
	CHECK_ERR(raise(SIGRTMAX + 1), EINVAL);
	CHECK_ERR(sigqueue(getpid(), SIGRTMAX + 1, (union sigval){ 0 }), EINVAL);
	CHECK_EQ(pthread_kill(pthread_self(), SIGRTMAX + 1), EINVAL);
	CHECK(signal(SIGRTMAX + 1, SIG_IGN) == SIG_ERR);
	CHECK_EQ(sysconf(_SC_RTSIG_MAX), 32);
	CHECK_EQ(sysconf(_SC_REALTIME_SIGNALS), 200809L);
	if (uname(&u) == 0 && strcmp(u.sysname, "aiokern"))
		return 0;		/* the host's Linux (ulib): its own RLIMIT_SIGPENDING */
	CHECK_EQ(sysconf(_SC_SIGQUEUE_MAX), 256);
	sigaddset(&s, SIGRTMIN + 3);
	CHECK_EQ(sigprocmask(SIG_BLOCK, &s, 0), 0);
	while ((r = sigqueue(getpid(), SIGRTMIN + 3, (union sigval){ sent })) == 0 && sent < 1000)
		sent++;
	CHECK_EQ(r, -1);
	CHECK_EQ(errno, EAGAIN);
	CHECK_EQ(sent, sysconf(_SC_SIGQUEUE_MAX));
	return 0;
}

/* The XSI calls: sighold and sigrelse block and unblock one signal (a
 * raised one waits, then runs), sigignore ignores, sigset sets an action
 * and unblocks (SIG_HOLD blocks; the return says SIG_HOLD when the signal was
 * blocked), sigpause takes one signal out of the mask and waits (-1 EINTR
 * after its handler); a bad number is EINVAL (SIG_ERR from sigset). */
static int xsi_signal_calls(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 20000 } };
	sigset_t cur;

	hits = 0;
	CHECK(signal(SIGUSR1, on_plain) != SIG_ERR);
	CHECK_EQ(sighold(SIGUSR1), 0);
	CHECK_EQ(raise(SIGUSR1), 0);
	CHECK_EQ(hits, 0);					/* held */
	CHECK_EQ(sigpending(&cur), 0);
	CHECK(sigismember(&cur, SIGUSR1));
	CHECK_EQ(sigrelse(SIGUSR1), 0);
	CHECK_EQ(hits, 1);					/* ran on release */
	CHECK_EQ(sigignore(SIGUSR2), 0);
	CHECK_EQ(raise(SIGUSR2), 0);				/* ignored: still here */
	CHECK(signal(SIGUSR2, SIG_DFL) == SIG_IGN);
	CHECK(sigset(SIGUSR1, SIG_HOLD) == on_plain);		/* was not blocked */
	CHECK_EQ(raise(SIGUSR1), 0);
	CHECK_EQ(hits, 1);
	CHECK(sigset(SIGUSR1, on_plain) == SIG_HOLD);		/* was blocked: now not */
	CHECK_EQ(hits, 2);
	CHECK_EQ(sigprocmask(SIG_BLOCK, NULL, &cur), 0);
	CHECK(!sigismember(&cur, SIGUSR1));
	CHECK(signal(SIGALRM, on_plain) != SIG_ERR);
	CHECK_EQ(sighold(SIGALRM), 0);
	CHECK_EQ(setitimer(ITIMER_REAL, &it, NULL), 0);
	CHECK_ERR(sigpause(SIGALRM), EINTR);
	CHECK_EQ(hits, 3);
	CHECK_EQ(sigprocmask(SIG_BLOCK, NULL, &cur), 0);
	CHECK(sigismember(&cur, SIGALRM));			/* the mask is back */
	CHECK_EQ(sigrelse(SIGALRM), 0);
	CHECK_EQ(sigqueue(getpid(), 0, (union sigval){ .sival_int = 1 }), 0);	/* checks only */
	CHECK_ERR(sigqueue(999999, 0, (union sigval){ .sival_int = 1 }), ESRCH);
	CHECK_ERR(sighold(0), EINVAL);
	CHECK_ERR(sigrelse(999), EINVAL);
	CHECK_ERR(sigignore(SIGKILL), EINVAL);
	errno = 0;
	CHECK(sigset(999, SIG_IGN) == SIG_ERR && errno == EINVAL);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(siginfo_from_raise_kill_queue),
	UTEST(numbers_both_ways),
	UTEST(signal_and_old_actions),
	UTEST(sets),
	UTEST(mask_and_pending),
	UTEST(handler_masks),
	UTEST(nodefer),
	UTEST(errno_kept_across_handler),
	UTEST(restart_or_eintr),
	UTEST(suspend_and_pause),
	UTEST(alarm_fires),
	UTEST(itimer_real_reload),
	UTEST(itimer_alarm_shared),
	UTEST(itimer_errors),
	UTEST(itimer_virtual_prof),
	UTEST(itimer_fork_exec),
	UTEST(altstack),
	UTEST(siglongjmp_out_of_faults),
	UTEST(siglongjmp_without_mask),
	UTEST(sigchld_info),
	UTEST(default_actions),
	UTEST(sigwait_family),
	UTEST(kill_races_reap),
	UTEST(rt_queued_in_order),
	UTEST(rt_lower_number_first),
	UTEST(rt_set_round_trip),
	UTEST(rt_bad_numbers_and_full_queue),
	UTEST(xsi_signal_calls),
};

int main(int argc, char **argv)
{
	self_path = argv[0];
	if (argc > 1 && !strcmp(argv[1], "--spin"))
		for (;;)
			;		/* an exec target that only a signal ends */
	return utest_main(argc, argv, "signal", cases, sizeof(cases) / sizeof(cases[0]));
}
