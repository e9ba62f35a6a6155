/* mock_aio.c: a user-space stand-in for the kernel's five AIO calls, so libaio and POSIX aio can be tested under qemu-i386. */
#include <stddef.h>
#include "uapi/aio_abi.h"
#include "uapi/errno.h"
#include "user/syscalls.h"
#include "mock_aio.h"

/*
 * The generated __sys_io_* stubs are weak; these definitions replace them.  Like
 * the kernel, the mock writes completions into a ring at the context id's address
 * and never trusts the ring's head beyond clamping it.  A request with
 * aio_reqprio == MOCK_DEFER is held back until io_getevents_abs or io_cancel.
 */
void *memalign(size_t align, size_t size);
void free(void *p);

#define MOCK_MAX_PENDING	32

struct mock_ctx {
	struct aio_ring	*ring;
	struct iocb	*pending[MOCK_MAX_PENDING];
	int		npending;
};

static struct mock_ctx mock;
struct mock_stats mock_stats;

static struct aio_ring *mock_ring(aio_context_t ctx)
{
	return mock.ring && (aio_context_t)mock.ring == ctx ? mock.ring : NULL;
}

long __sys_io_setup(unsigned nr_reqs, aio_context_t *ctxp)
{
	unsigned nr = nr_reqs + 1;
	unsigned bytes = sizeof(struct aio_ring) + nr * sizeof(struct io_event);

	if (*ctxp || mock.ring || !nr_reqs || nr_reqs > 1000)
		return -EINVAL;
	mock.ring = memalign(4096, (bytes + 4095) & ~4095u);
	if (!mock.ring)
		return -ENOMEM;
	*mock.ring = (struct aio_ring){ .id = (unsigned)mock.ring, .nr = nr,
		.magic = AIO_RING_MAGIC, .compat_features = AIO_RING_COMPAT_FEATURES,
		.header_length = sizeof(struct aio_ring) };
	mock.npending = 0;
	*ctxp = (aio_context_t)mock.ring;
	return 0;
}

long __sys_io_destroy(aio_context_t ctx)
{
	if (!mock_ring(ctx))
		return -EINVAL;
	free(mock.ring);
	mock.ring = NULL;
	return 0;
}

/* Do the I/O now (with the host's real calls); the result or -errno. */
static long mock_do(const struct iocb *io)
{
	void *buf = (void *)(unsigned)io->aio_buf;
	unsigned lo = (unsigned)io->aio_offset, hi = (unsigned)(io->aio_offset >> 32);

	switch (io->aio_lio_opcode) {
	case IOCB_CMD_PREAD:
		return __sys_pread64(io->aio_fildes, buf, (unsigned)io->aio_nbytes, lo, hi);
	case IOCB_CMD_PWRITE:
		return __sys_pwrite64(io->aio_fildes, buf, (unsigned)io->aio_nbytes, lo, hi);
	case IOCB_CMD_FSYNC:
		return __sys_fsync(io->aio_fildes);
	case IOCB_CMD_FDSYNC:
		return __sys_fdatasync(io->aio_fildes);
	case IOCB_CMD_NOOP:
		return 0;
	}
	return -EINVAL;
}

/* Append a completion at tail; -EAGAIN when the ring is full. */
static long mock_post(struct aio_ring *ring, const struct iocb *io, long res)
{
	unsigned head = ring->head % ring->nr, tail = ring->tail;

	if ((tail + 1) % ring->nr == head)
		return -EAGAIN;
	ring->io_events[tail] = (struct io_event){ .data = io->aio_data,
		.obj = (unsigned)io, .res = res };
	__atomic_store_n(&ring->tail, (tail + 1) % ring->nr, __ATOMIC_RELEASE);
	mock_stats.posted++;
	return 0;
}

long __sys_io_submit(aio_context_t ctx, long nr, struct iocb **iocbpp)
{
	struct aio_ring *ring = mock_ring(ctx);
	long i, r;

	mock_stats.submit_calls++;
	if (!ring || nr < 0)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		struct iocb *io = iocbpp[i];

		if (io->aio_lio_opcode > IOCB_CMD_NOOP)
			return i ? i : -EINVAL;
		if (io->aio_reqprio == MOCK_DEFER && mock.npending < MOCK_MAX_PENDING) {
			mock.pending[mock.npending++] = io;
			continue;
		}
		r = mock_post(ring, io, mock_do(io));
		if (r < 0)
			return i ? i : r;
	}
	return nr;
}

/* Complete the held-back requests (in submission order). */
static void mock_flush(struct aio_ring *ring)
{
	int i;

	for (i = 0; i < mock.npending; i++)
		if (mock_post(ring, mock.pending[i], mock_do(mock.pending[i])) < 0)
			break;
	for (int j = i; j < mock.npending; j++)
		mock.pending[j - i] = mock.pending[j];
	mock.npending -= i;
}

long __sys_io_getevents_abs(aio_context_t ctx, long nr, struct io_event *events,
			    const struct kernel_timespec *when)
{
	struct aio_ring *ring = mock_ring(ctx);
	unsigned head;
	long got = 0;

	(void)when;		/* the mock never sleeps: an empty ring means the deadline passed */
	mock_stats.getevents_calls++;
	if (!ring || nr < 0)
		return -EINVAL;
	mock_flush(ring);
	head = ring->head % ring->nr;	/* user-writable: clamp */
	while (got < nr && head != ring->tail) {
		events[got++] = ring->io_events[head];
		head = (head + 1) % ring->nr;
	}
	ring->head = head;
	return got;
}

/* libaio's cancellable wait (libaio.c): the same mock, never cancelled. */
long __libaio_getevents_cp(aio_context_t ctx, long nr, struct io_event *events,
			   const struct kernel_timespec *when, const void *sig)
{
	(void)sig;
	return __sys_io_getevents_abs(ctx, nr, events, when);
}

long __sys_io_cancel(aio_context_t ctx, struct iocb *iocb, struct io_event *result)
{
	mock_stats.cancel_calls++;
	if (!mock_ring(ctx))
		return -EINVAL;
	for (int i = 0; i < mock.npending; i++) {
		if (mock.pending[i] != iocb)
			continue;
		*result = (struct io_event){ .data = iocb->aio_data, .obj = (unsigned)iocb,
			.res = -ECANCELED };
		mock.pending[i] = mock.pending[--mock.npending];
		return 0;
	}
	return -EAGAIN;		/* not found or already done: not cancellable */
}

struct aio_ring *mock_ring_of(unsigned long ctx)
{
	return mock_ring(ctx);
}
