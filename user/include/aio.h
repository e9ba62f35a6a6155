/* aio.h: POSIX asynchronous I/O on aiokern's AIO calls (one lazily created io context per process). */
#ifndef USER_AIO_H
#define USER_AIO_H

#include <signal.h>
#include <sys/types.h>
#include <time.h>
#include <aiokern.h>		/* O_DSYNC for aio_fsync */

#ifndef AIO_PRIO_DELTA_MAX
#define AIO_PRIO_DELTA_MAX	20	/* aio_reqprio 0..20 (glibc's <limits.h> value): no effect */
#endif

/* aio_cancel results */
#define AIO_CANCELED	0	/* all requests named were cancelled */
#define AIO_NOTCANCELED	1	/* at least one was still in progress and not cancelled */
#define AIO_ALLDONE	2	/* all had completed already */

/* lio_listio modes and opcodes */
#define LIO_WAIT	0
#define LIO_NOWAIT	1
#define LIO_READ	0
#define LIO_WRITE	1
#define LIO_NOP		2

/*
 * Notification: SIGEV_NONE (a zero sigev_notify, as a memset aiocb has, too:
 * newlib's SIGEV_NONE is 1), SIGEV_SIGNAL (a queued signal, si_code SI_ASYNCIO,
 * si_value from the sigevent) and SIGEV_THREAD (the function runs as a new
 * detached thread); lio_listio(LIO_NOWAIT) takes a sigevent for the whole list.
 * The last two use a notifier thread of the library's (it reaps every
 * completion from then on).
 */
struct aiocb {
	int		aio_fildes;
	off_t		aio_offset;
	volatile void	*aio_buf;
	size_t		aio_nbytes;
	int		aio_reqprio;
	struct sigevent	aio_sigevent;
	int		aio_lio_opcode;		/* for lio_listio */

	/* private to the library */
	unsigned char	__iocb[64] __attribute__((aligned(8)));	/* the kernel request */
	int		__state;
	int		__error;
	ssize_t		__return;
	struct aiocb	*__next, *__prev;	/* in-flight list */
	void		*__lio;			/* lio_listio's notification, or NULL */
	int		__cancel_seen;		/* aio_cancel(fd, NULL) looked at it */
};

int aio_read(struct aiocb *cb);
int aio_write(struct aiocb *cb);
int aio_fsync(int op, struct aiocb *cb);
int aio_error(const struct aiocb *cb);
ssize_t aio_return(struct aiocb *cb);
int aio_suspend(const struct aiocb *const list[], int n, const struct timespec *timeout);
int aio_cancel(int fd, struct aiocb *cb);
int lio_listio(int mode, struct aiocb *const list[], int n, struct sigevent *sig);

#endif
