/* aio_api_surface.c: every type, constant and inline of libaio 0.3.113's <libaio.h>, used as its documentation describes. */
#define _GNU_SOURCE
#include <errno.h>
#include <libaio.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/uio.h>

/* The kernel ABI's layout, which libaio's padding macros produce on i386. */
_Static_assert(sizeof(struct iocb) == 64, "struct iocb");
_Static_assert(sizeof(struct io_event) == 32, "struct io_event");
_Static_assert(offsetof(struct iocb, key) == 8, "key");
_Static_assert(offsetof(struct iocb, aio_rw_flags) == 12, "aio_rw_flags");
_Static_assert(offsetof(struct iocb, aio_lio_opcode) == 16, "opcode");
_Static_assert(offsetof(struct iocb, aio_reqprio) == 18, "reqprio");
_Static_assert(offsetof(struct iocb, aio_fildes) == 20, "fildes");
_Static_assert(offsetof(struct iocb, u.c.buf) == 24, "buf");
_Static_assert(offsetof(struct iocb, u.c.nbytes) == 32, "nbytes");
_Static_assert(offsetof(struct iocb, u.c.offset) == 40, "offset");
_Static_assert(offsetof(struct iocb, u.c.flags) == 56, "flags");
_Static_assert(offsetof(struct iocb, u.c.resfd) == 60, "resfd");
_Static_assert(offsetof(struct iocb, u.v.vec) == 24, "vec");
_Static_assert(offsetof(struct iocb, u.v.nr) == 32, "nr");
_Static_assert(offsetof(struct iocb, u.v.offset) == 40, "v.offset");
_Static_assert(offsetof(struct iocb, u.poll.events) == 24, "poll.events");
_Static_assert(offsetof(struct io_event, obj) == 8, "obj");
_Static_assert(offsetof(struct io_event, res) == 16, "res");
_Static_assert(offsetof(struct io_event, res2) == 24, "res2");
_Static_assert(IO_CMD_PREAD == 0 && IO_CMD_PWRITE == 1 && IO_CMD_FSYNC == 2 &&
	       IO_CMD_FDSYNC == 3 && IO_CMD_POLL == 5 && IO_CMD_NOOP == 6 &&
	       IO_CMD_PREADV == 7 && IO_CMD_PWRITEV == 8, "opcodes");

static void cb(io_context_t ctx, struct iocb *iocb, long res, long res2)
{
	(void)ctx;
	(void)iocb;
	(void)res;
	(void)res2;
}

static int check(const char *what, int ok)
{
	if (!ok)
		fprintf(stderr, "aio_api_surface: %s\n", what);
	return !ok;
}

int main(void)
{
	io_context_t ctx = 0;
	io_iocb_cmd_t cmd = IO_CMD_PREAD;
	io_callback_t fn = cb;
	struct iocb io, *iop = &io;
	struct io_event ev;
	char buf[8];
	struct iovec iov[2] = { { buf, 4 }, { buf + 4, 4 } };
	struct timespec zero = { 0, 0 };
	sigset_t mask;
	int bad = 0;

	sigemptyset(&mask);
	io_prep_preadv(&io, 3, iov, 2, 4096);
	bad |= check("preadv", io.aio_lio_opcode == IO_CMD_PREADV && io.u.v.vec == iov &&
		     io.u.v.nr == 2 && io.u.v.offset == 4096 && io.aio_fildes == 3);
	io_prep_pwritev(&io, 3, iov, 2, 8);
	bad |= check("pwritev", io.aio_lio_opcode == IO_CMD_PWRITEV && io.u.c.nbytes == 2);
	io_prep_preadv2(&io, 3, iov, 1, 0, RWF_NOWAIT);
	bad |= check("preadv2", io.aio_rw_flags == RWF_NOWAIT && io.aio_lio_opcode == 7);
	io_prep_pwritev2(&io, 3, iov, 1, 0, RWF_DSYNC);
	bad |= check("pwritev2", io.aio_rw_flags == RWF_DSYNC && io.aio_lio_opcode == 8);
	io_prep_poll(&io, 4, POLLIN);
	bad |= check("poll", io.aio_lio_opcode == IO_CMD_POLL && io.u.poll.events == POLLIN);
	io_prep_pread(&io, 5, buf, sizeof(buf), 16);
	io_set_eventfd(&io, 9);
	bad |= check("eventfd", io.u.c.flags == 1 && io.u.c.resfd == 9 && io.u.c.buf == buf);
	io_set_callback(&io, fn);
	bad |= check("callback", io.data == (void *)fn && cmd == IO_CMD_PREAD);
	io_prep_fsync(&io, 6);
	io_prep_fdsync(&io, 6);
	bad |= check("fdsync", io.aio_lio_opcode == IO_CMD_FDSYNC && io.u.c.nbytes == 0);
	bad |= check("io_queue_init", io_queue_init(4, &ctx) == 0);
	bad |= check("io_poll", io_poll(ctx, &io, cb, 0, POLLIN) == 1);
	bad |= check("io_fsync", io_fsync(ctx, &io, cb, 0) == 1);
	bad |= check("io_fdsync", io_fdsync(ctx, iop, cb, 0) == 1);
	bad |= check("io_queue_run", io_queue_run(ctx) == 0);
	bad |= check("io_queue_wait", io_queue_wait(ctx, &zero) == 0);
	bad |= check("io_pgetevents", io_pgetevents(ctx, 0, 1, &ev, &zero, NULL) == 0);
	bad |= check("io_cancel", io_cancel(ctx, &io, &ev) == -EAGAIN);
	bad |= check("io_queue_release", io_queue_release(ctx) == 0);
	bad |= check("io_getevents on a gone context", io_getevents(ctx, 0, 0, NULL, NULL) == -EINVAL);
	if (!bad)
		printf("aio_api_surface: PASS\n");
	return bad;
}
