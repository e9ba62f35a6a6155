/* posix_event.c: the event-loop descriptors on the kernel's calls: epoll_create/epoll_create1/epoll_ctl/epoll_wait/epoll_pwait, timerfd_create/settime/gettime, signalfd (whose reads give this library's signal numbers). */
#include <errno.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include "glue.h"
#include "uapi/timerfd.h"
#include "pthread/tcb.h"
#include "signal_glue.h"

/* EPOLL_CLOEXEC and the EPOLL* bits are the kernel's values: passed as they are. */
int epoll_create(int size)
{
	return glue_ret(__sys_epoll_create(size));
}

int epoll_create1(int flags)
{
	return glue_ret(__sys_epoll_create1(flags));
}

int epoll_ctl(int epfd, int op, int fd, struct epoll_event *event)
{
	return glue_ret(__sys_epoll_ctl(epfd, op, fd, event));
}

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout)
{
	return glue_ret(__SYSCALL_CP(__NR_epoll_wait, epfd, events, maxevents, timeout));
}

int epoll_pwait(int epfd, struct epoll_event *events, int maxevents, int timeout,
		const sigset_t *sigmask)
{
	struct kernel_sigset kset;

	if (sigmask)
		__sigset_to_kernel(sigmask, &kset);
	return glue_ret(__SYSCALL_CP(__NR_epoll_pwait, epfd, events, maxevents, timeout,
					     sigmask ? &kset : NULL, sizeof(kset)));
}

/* The kernel's itimerspec <-> newlib's (64-bit tv_sec): -1 when it cannot hold it. */
static int its_to_kernel(const struct itimerspec *its, struct kernel_itimerspec *k)
{
	return glue_ts_to_kernel(&its->it_interval, &k->it_interval) < 0 ||
	       glue_ts_to_kernel(&its->it_value, &k->it_value) < 0 ? -1 : 0;
}

static void its_from_kernel(const struct kernel_itimerspec *k, struct itimerspec *its)
{
	glue_ts_from_kernel(&k->it_interval, &its->it_interval);
	glue_ts_from_kernel(&k->it_value, &its->it_value);
}

/* TFD_* are the kernel's values already (sys/timerfd.h); the clock is newlib's. */
int timerfd_create(int clockid, int flags)
{
	int k = abi_clock_to_kernel(clockid);

	if (k < 0) {
		errno = EINVAL;
		return -1;
	}
	return glue_ret(__sys_timerfd_create(k, flags));
}

int timerfd_settime(int fd, int flags, const struct itimerspec *new_value,
		    struct itimerspec *old_value)
{
	struct kernel_itimerspec knew, kold;
	long r;

	if (!new_value) {
		errno = EFAULT;
		return -1;
	}
	if (its_to_kernel(new_value, &knew) < 0) {
		errno = EINVAL;
		return -1;
	}
	r = __sys_timerfd_settime(fd, flags, &knew, old_value ? &kold : NULL);
	if (r == 0 && old_value)
		its_from_kernel(&kold, old_value);
	return glue_ret(r);
}

int timerfd_gettime(int fd, struct itimerspec *curr_value)
{
	struct kernel_itimerspec k;
	long r;

	if (!curr_value) {
		errno = EFAULT;
		return -1;
	}
	r = __sys_timerfd_gettime(fd, &k);
	if (r == 0)
		its_from_kernel(&k, curr_value);
	return glue_ret(r);
}

/* Descriptors signalfd returned (bit fd % 32 of word fd / 32): their reads get
 * ssi_signo turned into newlib's numbers (syscalls.c's _read); close forgets. */
unsigned __signalfd_fds[NR_SIGNALFD_WORDS];

int signalfd(int fd, const sigset_t *mask, int flags)
{
	struct kernel_sigset kset;
	long r;

	if (!mask) {
		errno = EFAULT;
		return -1;
	}
	__sigset_to_kernel(mask, &kset);
	r = __sys_signalfd4(fd, &kset, sizeof(kset), flags);
	if (r >= 0 && r < NR_SIGNALFD_WORDS * 32)
		__atomic_fetch_or(&__signalfd_fds[r / 32], 1u << (r % 32), __ATOMIC_RELAXED);
	return glue_ret(r);
}

void __signalfd_fixup(void *buf, long n)
{
	struct signalfd_siginfo *s = buf;

	for (long i = 0; i < n / (long)sizeof(*s); i++) {
		s[i].ssi_signo = __sig_from_kernel(s[i].ssi_signo);
		if (s[i].ssi_signo == SIGCHLD && s[i].ssi_code != CLD_EXITED)
			s[i].ssi_status = __sig_from_kernel(s[i].ssi_status);	/* a signal */
	}
}
