/* poll.h (uapi): struct pollfd and the POLL* event bits for poll/ppoll (168/309), Linux i386 values. */
#ifndef UAPI_POLL_H
#define UAPI_POLL_H

struct pollfd {
	int	fd;		/* negative: skipped, revents 0 */
	short	events;		/* asked for */
	short	revents;	/* found (POLLERR, POLLHUP, POLLNVAL always reported) */
};

#define POLLIN		0x0001	/* data to read (or end of file) */
#define POLLPRI		0x0002
#define POLLOUT		0x0004	/* a write would not block */
#define POLLERR		0x0008	/* a pipe with no reader (write end) */
#define POLLHUP		0x0010	/* a pipe with no writer (read end) */
#define POLLNVAL	0x0020	/* fd is not open */
#define POLLRDNORM	0x0040
#define POLLRDBAND	0x0080
#define POLLWRNORM	0x0100
#define POLLWRBAND	0x0200

#endif
