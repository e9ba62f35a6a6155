/* posix_event.c: the event-loop descriptors on the kernel's calls: epoll_create/epoll_create1/epoll_ctl/epoll_wait/epoll_pwait. */
#include <errno.h>
#include <signal.h>
#include <sys/epoll.h>
#include "glue.h"
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
	return glue_ret(__PTHREAD_CANCELLABLE(__sys_epoll_wait(epfd, events, maxevents, timeout)));
}

int epoll_pwait(int epfd, struct epoll_event *events, int maxevents, int timeout,
		const sigset_t *sigmask)
{
	struct kernel_sigset kset;

	if (sigmask)
		__sigset_to_kernel(sigmask, &kset);
	return glue_ret(__PTHREAD_CANCELLABLE(__sys_epoll_pwait(epfd, events, maxevents, timeout,
								 sigmask ? &kset : NULL,
								 sizeof(kset))));
}
