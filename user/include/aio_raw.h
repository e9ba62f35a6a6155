/* aio_raw.h: the five AIO system calls as raw int 0x80 calls returning -errno,
 * for tests that must see exactly what the kernel answers; and how those tests
 * fill an iocb and an absolute deadline in the kernel's layout. */
#ifndef AIO_RAW_H
#define AIO_RAW_H

#include <string.h>
#include <time.h>
#define UAPI_STRUCTS_ONLY
#include "uapi/time.h"
#undef UAPI_STRUCTS_ONLY
#include "uapi/aio_abi.h"

/* The kernel's errno values (include/uapi/errno.h) where newlib's differ. */
#define K_ENOSYS	38
#define K_ECANCELED	125

static inline long raw_syscall4(long nr, long a, long b, long c, long d)
{
	long r;

	asm volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d) : "memory");
	return r;
}

static inline long raw_io_setup(unsigned nr, aio_context_t *ctxp)
{
	return raw_syscall4(244, nr, (long)ctxp, 0, 0);
}

static inline long raw_io_destroy(aio_context_t ctx)
{
	return raw_syscall4(245, ctx, 0, 0, 0);
}

static inline long raw_io_getevents_abs(aio_context_t ctx, long nr, struct io_event *ev,
					const struct kernel_timespec *when)
{
	return raw_syscall4(246, ctx, nr, (long)ev, (long)when);
}

static inline long raw_io_submit(aio_context_t ctx, long nr, struct iocb **iocbs)
{
	return raw_syscall4(247, ctx, nr, (long)iocbs, 0);
}

static inline long raw_io_cancel(aio_context_t ctx, struct iocb *iocb, struct io_event *res)
{
	return raw_syscall4(248, ctx, (long)iocb, (long)res, 0);
}

/* io_submit of the one request cb. */
static inline long raw_submit1(aio_context_t ctx, struct iocb *cb)
{
	struct iocb *list[1] = { cb };

	return raw_io_submit(ctx, 1, list);
}

/* io_getevents_abs with a deadline already past: what is in the ring now. */
static inline long raw_getevents_now(aio_context_t ctx, long nr, struct io_event *ev)
{
	struct kernel_timespec past = { 0, 0 };

	return raw_io_getevents_abs(ctx, nr, ev, &past);
}

/* Fill *cb for one request; every other field zero. */
static inline void raw_prep(struct iocb *cb, int op, int fd, void *buf, unsigned long long n,
			    long long off, unsigned long long data)
{
	memset(cb, 0, sizeof(*cb));
	cb->aio_lio_opcode = op;
	cb->aio_fildes = fd;
	cb->aio_buf = (unsigned long)buf;
	cb->aio_nbytes = n;
	cb->aio_offset = off;
	cb->aio_data = data;
}

/* An absolute CLOCK_REALTIME deadline ns from now, in the kernel's layout. */
static inline struct kernel_timespec raw_deadline_in(long long ns)
{
	struct timespec now;
	struct kernel_timespec ts;

	clock_gettime(CLOCK_REALTIME, &now);
	ts.tv_sec = now.tv_sec + (now.tv_nsec + ns) / 1000000000LL;
	ts.tv_nsec = (now.tv_nsec + ns) % 1000000000LL;
	return ts;
}

/* One request (raw_prep's op, fd, buf, n, off) on a context of its own,
 * waited for at most wait_ns: its event's res, or -999999 when no event came. */
static inline long long raw_aio_one(int op, int fd, void *buf, unsigned long long n,
				    long long off, long long wait_ns)
{
	aio_context_t ctx = 0;
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev;
	struct kernel_timespec when = raw_deadline_in(wait_ns);
	long long res = -999999;

	if (raw_io_setup(4, &ctx))
		return res;
	raw_prep(&cb, op, fd, buf, n, off, 1);
	if (raw_io_submit(ctx, 1, list) == 1 && raw_io_getevents_abs(ctx, 1, &ev, &when) == 1)
		res = ev.res;
	raw_io_destroy(ctx);
	return res;
}

#endif
