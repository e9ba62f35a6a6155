/* libaio.h: a libaio 0.3.x-compatible interface to aiokern's AIO system calls (244-248). */
#ifndef USER_LIBAIO_H
#define USER_LIBAIO_H

#include <stddef.h>
#include <time.h>

/*
 * Functions return 0 or a count on success and -errno (newlib's numbers) on failure,
 * as libaio does; they do not set errno.  io_event.res carries a byte count or
 * -errno, also translated to newlib's numbers.
 *
 * The structs have the kernel's layout (include/uapi/aio_abi.h: iocb 64 bytes,
 * io_event 32 bytes) under libaio's field names; pointers and longs are 32 bits,
 * each followed by its padding word (i386 is little-endian).
 */

struct io_context;
typedef struct io_context *io_context_t;	/* the context id: the ring's user address */

typedef enum io_iocb_cmd {
	IO_CMD_PREAD = 0,
	IO_CMD_PWRITE = 1,
	IO_CMD_FSYNC = 2,
	IO_CMD_FDSYNC = 3,
	IO_CMD_NOOP = 6,	/* aiokern: completes at once with res 0 */
} io_iocb_cmd_t;

struct io_iocb_common {
	void		*buf;
	unsigned	__pad1;
	unsigned long	nbytes;
	unsigned	__pad2;
	long long	offset;
	long long	__pad3;
	unsigned	flags;
	unsigned	resfd;
};

struct iocb {
	void		*data;		/* returned in io_event.data */
	unsigned	__pad1;
	unsigned	key;		/* set by the kernel */
	unsigned	aio_rw_flags;
	short		aio_lio_opcode;	/* IO_CMD_* */
	short		aio_reqprio;
	int		aio_fildes;
	union {
		struct io_iocb_common c;
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

int io_queue_init(int maxevents, io_context_t *ctxp);
int io_queue_release(io_context_t ctx);
int io_queue_run(io_context_t ctx);
int io_setup(int maxevents, io_context_t *ctxp);
int io_destroy(io_context_t ctx);
int io_submit(io_context_t ctx, long nr, struct iocb *ios[]);
int io_cancel(io_context_t ctx, struct iocb *iocb, struct io_event *evt);
int io_getevents(io_context_t ctx, long min_nr, long nr, struct io_event *events,
		 struct timespec *timeout);

/* aiokern: take what the ring holds, never a system call; -EINVAL if the context is
 * not one io_setup made in this process or its ring looks wrong. */
int io_getevents_ring_only(io_context_t ctx, long nr, struct io_event *events);

/* Counters, so tests can prove where events came from. */
struct libaio_stats {
	unsigned long	ring_reaped;	/* events taken from the ring in user space */
	unsigned long	ring_rejected;	/* times the ring header failed validation */
	unsigned long	syscalls;	/* io_getevents_abs calls made */
	unsigned long	syscall_events;	/* events those calls returned */
};
extern struct libaio_stats libaio_stats;

static inline void io_set_callback(struct iocb *iocb, io_callback_t cb)
{
	iocb->data = (void *)cb;
}

static inline void io_prep_rw(struct iocb *iocb, int fd, int op, void *buf,
			      size_t count, long long offset)
{
	*iocb = (struct iocb){ 0 };
	iocb->aio_fildes = fd;
	iocb->aio_lio_opcode = (short)op;
	iocb->u.c.buf = buf;
	iocb->u.c.nbytes = count;
	iocb->u.c.offset = offset;
}

static inline void io_prep_pread(struct iocb *iocb, int fd, void *buf, size_t count,
				 long long offset)
{
	io_prep_rw(iocb, fd, IO_CMD_PREAD, buf, count, offset);
}

static inline void io_prep_pwrite(struct iocb *iocb, int fd, void *buf, size_t count,
				  long long offset)
{
	io_prep_rw(iocb, fd, IO_CMD_PWRITE, buf, count, offset);
}

static inline void io_prep_fsync(struct iocb *iocb, int fd)
{
	io_prep_rw(iocb, fd, IO_CMD_FSYNC, NULL, 0, 0);
}

static inline void io_prep_fdsync(struct iocb *iocb, int fd)
{
	io_prep_rw(iocb, fd, IO_CMD_FDSYNC, NULL, 0, 0);
}

/* aiokern extension: a request that does no I/O. */
static inline void io_prep_noop(struct iocb *iocb, int fd)
{
	io_prep_rw(iocb, fd, IO_CMD_NOOP, NULL, 0, 0);
}

#endif
