/* eventpoll.h (uapi): epoll's struct epoll_event and EPOLL* values, Linux i386's
 * (the struct is packed there: 12 bytes). */
#ifndef UAPI_EVENTPOLL_H
#define UAPI_EVENTPOLL_H

#include "types.h"

/* What epoll_wait reports: the events found and the caller's data, unchanged. */
struct epoll_event {
	unsigned int		events;		/* EPOLL* */
	unsigned long long	data;		/* epoll_data_t: returned as given */
} __attribute__((packed));

UAPI_ASSERT_SIZE(struct epoll_event, 12);

#ifndef UAPI_STRUCTS_ONLY
#define EPOLL_CTL_ADD	1
#define EPOLL_CTL_DEL	2
#define EPOLL_CTL_MOD	3

#define EPOLLIN		0x00000001
#define EPOLLPRI	0x00000002
#define EPOLLOUT	0x00000004
#define EPOLLERR	0x00000008	/* always reported */
#define EPOLLHUP	0x00000010	/* always reported */
#define EPOLLNVAL	0x00000020
#define EPOLLRDNORM	0x00000040
#define EPOLLRDBAND	0x00000080
#define EPOLLWRNORM	0x00000100
#define EPOLLWRBAND	0x00000200
#define EPOLLMSG	0x00000400
#define EPOLLRDHUP	0x00002000	/* the peer shut down writing (sockets: none here) */
#define EPOLLEXCLUSIVE	(1u << 28)	/* ADD only: accepted, woken as any other */
#define EPOLLWAKEUP	(1u << 29)	/* no suspend here: accepted, no effect */
#define EPOLLONESHOT	(1u << 30)	/* disabled after one report until EPOLL_CTL_MOD */
#define EPOLLET		(1u << 31)	/* edge-triggered: reported once per wake-up */

#define EPOLL_CLOEXEC	02000000	/* O_CLOEXEC */
#endif

#endif
