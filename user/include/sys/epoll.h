/* sys/epoll.h: epoll(7) as glibc declares it; the values and the 12-byte
 * struct epoll_event are Linux i386's (the kernel's own, uapi/eventpoll.h). */
#ifndef _SYS_EPOLL_H
#define _SYS_EPOLL_H

#include <stdint.h>
#include <signal.h>

enum EPOLL_EVENTS {
	EPOLLIN = 0x001,
	EPOLLPRI = 0x002,
	EPOLLOUT = 0x004,
	EPOLLRDNORM = 0x040,
	EPOLLRDBAND = 0x080,
	EPOLLWRNORM = 0x100,
	EPOLLWRBAND = 0x200,
	EPOLLMSG = 0x400,
	EPOLLERR = 0x008,
	EPOLLHUP = 0x010,
	EPOLLRDHUP = 0x2000,
	EPOLLEXCLUSIVE = 1u << 28,
	EPOLLWAKEUP = 1u << 29,
	EPOLLONESHOT = 1u << 30,
	EPOLLET = 1u << 31
};
#define EPOLLIN		EPOLLIN
#define EPOLLPRI	EPOLLPRI
#define EPOLLOUT	EPOLLOUT
#define EPOLLRDNORM	EPOLLRDNORM
#define EPOLLRDBAND	EPOLLRDBAND
#define EPOLLWRNORM	EPOLLWRNORM
#define EPOLLWRBAND	EPOLLWRBAND
#define EPOLLMSG	EPOLLMSG
#define EPOLLERR	EPOLLERR
#define EPOLLHUP	EPOLLHUP
#define EPOLLRDHUP	EPOLLRDHUP
#define EPOLLEXCLUSIVE	EPOLLEXCLUSIVE
#define EPOLLWAKEUP	EPOLLWAKEUP
#define EPOLLONESHOT	EPOLLONESHOT
#define EPOLLET		EPOLLET

#define EPOLL_CTL_ADD	1	/* watch a descriptor */
#define EPOLL_CTL_DEL	2	/* stop watching it */
#define EPOLL_CTL_MOD	3	/* change its events and data */

#define EPOLL_CLOEXEC	02000000	/* O_CLOEXEC's kernel value */

typedef union epoll_data {
	void		*ptr;
	int		fd;
	uint32_t	u32;
	uint64_t	u64;
} epoll_data_t;

struct epoll_event {
	uint32_t	events;		/* EPOLL* */
	epoll_data_t	data;		/* returned as given */
} __attribute__((__packed__));

/* A new epoll instance (size > 0, otherwise unused); -1 and errno on failure. */
int epoll_create(int size);
/* ... with EPOLL_CLOEXEC or 0. */
int epoll_create1(int flags);
/* Add, change or remove fd's entry: 0, or -1 and errno. */
int epoll_ctl(int epfd, int op, int fd, struct epoll_event *event);
/* Wait up to timeout ms (-1: forever, 0: look once) for ready entries: how
 * many were stored in events (at most maxevents), or -1 and errno (EINTR). */
int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout);
/* ... with the signal mask sigmask (NULL: the thread's) for the wait. */
int epoll_pwait(int epfd, struct epoll_event *events, int maxevents, int timeout,
		const sigset_t *sigmask);

#endif
