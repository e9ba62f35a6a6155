/* sigxsi.c: the XSI signal calls (sighold, sigrelse, sigignore, sigpause, sigset) on sigprocmask, sigaction and sigsuspend. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>

/* Change the calling thread's mask by one signal (how: SIG_BLOCK, SIG_UNBLOCK). */
static int mask_one(int how, int sig)
{
	sigset_t s;

	sigemptyset(&s);
	if (sigaddset(&s, sig) < 0)
		return -1;		/* EINVAL: no such signal */
	return sigprocmask(how, &s, NULL);
}

int sighold(int sig)
{
	return mask_one(SIG_BLOCK, sig);
}

int sigrelse(int sig)
{
	return mask_one(SIG_UNBLOCK, sig);
}

int sigignore(int sig)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };

	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

/* XSI's sigpause (glibc's with _XOPEN_SOURCE): sig out of the mask, then wait
 * for a handler to run; always -1 with EINTR. */
int sigpause(int sig)
{
	sigset_t s;

	if (sigprocmask(SIG_BLOCK, NULL, &s) < 0 || sigdelset(&s, sig) < 0)
		return -1;
	return sigsuspend(&s);
}

/* disp SIG_HOLD adds sig to the mask and leaves its action; any other sets
 * the action and takes sig out of the mask. Returns SIG_HOLD when sig was
 * blocked before, else its former action; SIG_ERR with errno on error. */
_sig_func_ptr sigset(int sig, _sig_func_ptr disp)
{
	struct sigaction sa, old;
	sigset_t s, before;

	sigemptyset(&s);
	if (sigaddset(&s, sig) < 0 || sigaction(sig, NULL, &old) < 0)
		return SIG_ERR;
	if (disp == SIG_HOLD) {
		if (sigprocmask(SIG_BLOCK, &s, &before) < 0)
			return SIG_ERR;
	} else {
		sa.sa_handler = disp;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = 0;
		if (sigaction(sig, &sa, &old) < 0 || sigprocmask(SIG_UNBLOCK, &s, &before) < 0)
			return SIG_ERR;
	}
	return sigismember(&before, sig) ? SIG_HOLD : old.sa_handler;
}
