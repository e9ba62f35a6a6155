/* libaio.h: libaio 0.3.113's programming interface (types, constants, inlines, calls) on aiokern's AIO system calls. */
#ifndef USER_LIBAIO_H
#define USER_LIBAIO_H

/*
 * Source-compatible with libaio 0.3.113 (link with -laio): the same includes,
 * types, field names, constants and inline helpers, so a program written for
 * Linux's libaio builds unchanged.  What differs underneath is documented in
 * libaio(3): the calls enter aiokern's seed numbers 244-248, and io_getevents
 * turns its relative timeout into the kernel's absolute deadline.
 *
 * Functions return 0 or a count on success and -errno (newlib's numbers) on
 * failure, as libaio does; they do not set errno.  io_event.res carries a byte
 * count or -errno, also in newlib's numbers.
 *
 * The structs have the kernel's layout (include/uapi/aio_abi.h: iocb 64 bytes,
 * io_event 32 bytes): i386 is little-endian with 32-bit pointers and longs, so
 * each pointer or long is followed by its padding word, as libaio's PADDED
 * macros lay them out.
 */

#include <sys/types.h>
#include <string.h>
#include <signal.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

struct timespec;
struct sockaddr;
struct iovec;

struct io_context;
typedef struct io_context *io_context_t;	/* the context id: the ring's user address */

typedef enum io_iocb_cmd {
	IO_CMD_PREAD = 0,
	IO_CMD_PWRITE = 1,
	IO_CMD_FSYNC = 2,
	IO_CMD_FDSYNC = 3,
	IO_CMD_POLL = 5,	/* pipes, eventfds, the console (io_submit(2)) */
	IO_CMD_NOOP = 6,	/* completes at once with res 0 */
	IO_CMD_PREADV = 7,
	IO_CMD_PWRITEV = 8,
} io_iocb_cmd_t;

/* u.poll: IO_CMD_POLL; the result is the ready mask or -errno. */
struct io_iocb_poll {
	int		events;
	unsigned	__pad1;
};

/* u.saddr: reserved by libaio for socket operations (no opcode uses it). */
struct io_iocb_sockaddr {
	struct sockaddr	*addr;
	int		len;
};

/* u.c: PREAD, PWRITE, FSYNC, FDSYNC; the result is the byte count or -errno. */
struct io_iocb_common {
	void		*buf;
	unsigned	__pad1;
	unsigned long	nbytes;
	unsigned	__pad2;
	long long	offset;
	long long	__pad3;
	unsigned	flags;		/* IOCB_FLAG_RESFD (io_set_eventfd) */
	unsigned	resfd;
};

/* u.v: PREADV, PWRITEV (the io_prep_* helpers fill u.c with the same words). */
struct io_iocb_vector {
	const struct iovec *vec;
	unsigned	__pad1;
	int		nr;
	unsigned	__pad2;
	long long	offset;
};

struct iocb {
	void		*data;		/* returned in io_event.data */
	unsigned	__pad1;
	unsigned	key;		/* set by the kernel */
	unsigned	aio_rw_flags;	/* RWF_* (io_prep_preadv2/pwritev2) */
	short		aio_lio_opcode;	/* IO_CMD_* */
	short		aio_reqprio;
	int		aio_fildes;
	union {
		struct io_iocb_common	c;
		struct io_iocb_vector	v;
		struct io_iocb_poll	poll;
		struct io_iocb_sockaddr	saddr;
	} u;
};

struct io_event {
	void		*data;		/* the iocb's data */
	unsigned	__pad1;
	struct iocb	*obj;		/* the iocb that completed */
	unsigned	__pad2;
	unsigned long	res;		/* bytes done, or -errno as a long */
	unsigned	__pad3;
	unsigned long	res2;
	unsigned	__pad4;
};

typedef void (*io_callback_t)(io_context_t ctx, struct iocb *iocb, long res, long res2);

/* Library calls */
int io_queue_init(int maxevents, io_context_t *ctxp);
int io_queue_release(io_context_t ctx);
/* 0 (or -EINVAL for a context that is not live), as libaio's: it waits for nothing. */
int io_queue_wait(io_context_t ctx, struct timespec *timeout);
/* Run the callback (io_set_callback) of each completed request; 0 or -errno. */
int io_queue_run(io_context_t ctx);

/* System calls */
int io_setup(int maxevents, io_context_t *ctxp);
int io_destroy(io_context_t ctx);
int io_submit(io_context_t ctx, long nr, struct iocb *ios[]);
int io_cancel(io_context_t ctx, struct iocb *iocb, struct io_event *evt);
/* At least min_nr, at most nr events, waiting at most *timeout (relative; NULL: no limit). */
int io_getevents(io_context_t ctx, long min_nr, long nr, struct io_event *events,
		 struct timespec *timeout);
/* io_getevents with sigmask applied during the wait; NULL sigmask: io_getevents.
 * A non-NULL mask is -ENOSYS until the kernel has the call (libaio(3)). */
int io_pgetevents(io_context_t ctx, long min_nr, long nr, struct io_event *events,
		  struct timespec *timeout, sigset_t *sigmask);

static inline void io_set_callback(struct iocb *iocb, io_callback_t cb)
{
	iocb->data = (void *)cb;
}

/* The common start of every io_prep_*: a zeroed iocb for fd and opcode. */
static inline void __io_prep(struct iocb *iocb, int fd, int op)
{
	*iocb = (struct iocb){ 0 };	/* inline stores: a memset call costs more per I/O */
	iocb->aio_fildes = fd;
	iocb->aio_lio_opcode = (short)op;
	iocb->aio_reqprio = 0;
}

static inline void io_prep_pread(struct iocb *iocb, int fd, void *buf, size_t count,
				 long long offset)
{
	__io_prep(iocb, fd, IO_CMD_PREAD);
	iocb->u.c.buf = buf;
	iocb->u.c.nbytes = count;
	iocb->u.c.offset = offset;
}

static inline void io_prep_pwrite(struct iocb *iocb, int fd, void *buf, size_t count,
				  long long offset)
{
	__io_prep(iocb, fd, IO_CMD_PWRITE);
	iocb->u.c.buf = buf;
	iocb->u.c.nbytes = count;
	iocb->u.c.offset = offset;
}

/* Vectored: buf holds the iovec array, nbytes its length (as libaio). */
static inline void io_prep_preadv(struct iocb *iocb, int fd, const struct iovec *iov,
				  int iovcnt, long long offset)
{
	__io_prep(iocb, fd, IO_CMD_PREADV);
	iocb->u.c.buf = (void *)iov;
	iocb->u.c.nbytes = iovcnt;
	iocb->u.c.offset = offset;
}

static inline void io_prep_pwritev(struct iocb *iocb, int fd, const struct iovec *iov,
				   int iovcnt, long long offset)
{
	__io_prep(iocb, fd, IO_CMD_PWRITEV);
	iocb->u.c.buf = (void *)iov;
	iocb->u.c.nbytes = iovcnt;
	iocb->u.c.offset = offset;
}

static inline void io_prep_preadv2(struct iocb *iocb, int fd, const struct iovec *iov,
				   int iovcnt, long long offset, int flags)
{
	io_prep_preadv(iocb, fd, iov, iovcnt, offset);
	iocb->aio_rw_flags = flags;
}

static inline void io_prep_pwritev2(struct iocb *iocb, int fd, const struct iovec *iov,
				    int iovcnt, long long offset, int flags)
{
	io_prep_pwritev(iocb, fd, iov, iovcnt, offset);
	iocb->aio_rw_flags = flags;
}

static inline void io_prep_poll(struct iocb *iocb, int fd, int events)
{
	__io_prep(iocb, fd, IO_CMD_POLL);
	iocb->u.poll.events = events;
}

static inline int io_poll(io_context_t ctx, struct iocb *iocb, io_callback_t cb, int fd,
			  int events)
{
	io_prep_poll(iocb, fd, events);
	io_set_callback(iocb, cb);
	return io_submit(ctx, 1, &iocb);
}

static inline void io_prep_fsync(struct iocb *iocb, int fd)
{
	__io_prep(iocb, fd, IO_CMD_FSYNC);
}

static inline int io_fsync(io_context_t ctx, struct iocb *iocb, io_callback_t cb, int fd)
{
	io_prep_fsync(iocb, fd);
	io_set_callback(iocb, cb);
	return io_submit(ctx, 1, &iocb);
}

static inline void io_prep_fdsync(struct iocb *iocb, int fd)
{
	__io_prep(iocb, fd, IO_CMD_FDSYNC);
}

static inline int io_fdsync(io_context_t ctx, struct iocb *iocb, io_callback_t cb, int fd)
{
	io_prep_fdsync(iocb, fd);
	io_set_callback(iocb, cb);
	return io_submit(ctx, 1, &iocb);
}

/* Signal an eventfd when the request completes (IOCB_FLAG_RESFD, bit 0):
 * the event is in the ring before the eventfd's count moves. */
static inline void io_set_eventfd(struct iocb *iocb, int eventfd)
{
	iocb->u.c.flags |= 1u << 0;
	iocb->u.c.resfd = eventfd;
}

/* --- aiokern extensions (not in libaio) --- */

/* A read or write with the opcode as a parameter. */
static inline void io_prep_rw(struct iocb *iocb, int fd, int op, void *buf, size_t count,
			      long long offset)
{
	__io_prep(iocb, fd, op);
	iocb->u.c.buf = buf;
	iocb->u.c.nbytes = count;
	iocb->u.c.offset = offset;
}

/* A request that does no I/O: completes at once with res 0. */
static inline void io_prep_noop(struct iocb *iocb, int fd)
{
	__io_prep(iocb, fd, IO_CMD_NOOP);
}

/* Take what the ring holds, never a system call; -EINVAL if the context is not
 * one io_setup made in this process or its ring looks wrong. */
int io_getevents_ring_only(io_context_t ctx, long nr, struct io_event *events);

/* Counters, so tests can prove where events came from. */
struct libaio_stats {
	unsigned long	ring_reaped;	/* events taken from the ring in user space */
	unsigned long	ring_rejected;	/* times the ring header failed validation */
	unsigned long	syscalls;	/* io_getevents_abs calls made */
	unsigned long	syscall_events;	/* events those calls returned */
};
extern struct libaio_stats libaio_stats;

#ifdef __cplusplus
}
#endif

#endif
