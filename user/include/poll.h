/* poll.h: poll and ppoll for newlib programs; struct pollfd and POLL* from include/uapi/poll.h. */
#ifndef USER_POLL_H
#define USER_POLL_H

#include <signal.h>
#include <time.h>
#include "uapi/poll.h"

typedef unsigned int nfds_t;

/* Wait up to timeout ms (negative: no limit) for an event on fds. */
int poll(struct pollfd *fds, nfds_t nfds, int timeout);
/* The same with a relative timespec (NULL: no limit); the mask is checked but
 * not applied yet (aiokern has no blocked-signal masks). */
int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout,
	  const sigset_t *sigmask);

#endif
