/* ulib_libaio.c: libaio against the mock kernel: ring reaping without system calls, fallback, cancel, errno translation. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "libaio.h"
#include "lib/ktap.h"
#include "lib/mock_aio.h"

struct ring_head {	/* the start of the ring header, for scribbling */
	unsigned id, nr, head, tail;
};

static io_context_t ctx;
static int callbacks;

static void count_cb(io_context_t c, struct iocb *iocb, long res, long res2)
{
	(void)c;
	(void)iocb;
	(void)res2;
	callbacks += res == 0;
}

/* Three NOOPs come back from the ring with no io_getevents_abs call. */
static int case_ring_reap(void)
{
	struct iocb io[3], *ios[3] = { &io[0], &io[1], &io[2] };
	struct io_event ev[8];
	unsigned long sys0 = libaio_stats.syscalls;

	for (int i = 0; i < 3; i++) {
		io_prep_noop(&io[i], 0);
		io[i].data = (void *)(long)(100 + i);
	}
	if (io_submit(ctx, 3, ios) != 3 || io_getevents(ctx, 3, 8, ev, NULL) != 3)
		return 0;
	return libaio_stats.syscalls == sys0 && ev[2].data == (void *)102 &&
	       ev[0].obj == &io[0] && ev[1].res == 0;
}

/* A real pread through the (mock) kernel: the bytes and the count arrive. */
static int case_pread(const char *path)
{
	char buf[16] = { 0 };
	struct iocb io, *ios[1] = { &io };
	struct io_event ev;
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644), ok;

	if (fd < 0 || write(fd, "0123456789", 10) != 10)
		return 0;
	io_prep_pread(&io, fd, buf, 4, 3);
	ok = io_submit(ctx, 1, ios) == 1 && io_getevents(ctx, 1, 1, &ev, NULL) == 1 &&
	     ev.res == 4 && memcmp(buf, "3456", 4) == 0;
	close(fd);
	unlink(path);
	return ok;
}

/* An empty ring with a request still in flight: the library makes the system call. */
static int case_fallback(void)
{
	struct iocb io, *ios[1] = { &io };
	struct io_event ev;
	unsigned long sys0 = libaio_stats.syscalls;

	io_prep_noop(&io, 0);
	io.aio_reqprio = MOCK_DEFER;
	return io_submit(ctx, 1, ios) == 1 && io_getevents(ctx, 1, 1, &ev, NULL) == 1 &&
	       libaio_stats.syscalls == sys0 + 1 && ev.obj == &io;
}

/* io_cancel hands the event back (not through the ring), res translated to newlib's ECANCELED. */
static int case_cancel(void)
{
	struct iocb io, *ios[1] = { &io };
	struct io_event ev, more;
	struct timespec zero = { 0, 0 };

	io_prep_noop(&io, 0);
	io.aio_reqprio = MOCK_DEFER;
	return io_submit(ctx, 1, ios) == 1 && io_cancel(ctx, &io, &ev) == 0 &&
	       (long)ev.res == -ECANCELED && io_cancel(ctx, &io, &ev) == -EAGAIN &&
	       io_getevents(ctx, 1, 1, &more, &zero) == 0;
}

/* A scribbled head is rejected and the kernel path still delivers the event. */
static int case_scribble(void)
{
	struct ring_head *rh = (struct ring_head *)ctx;
	struct iocb io, *ios[1] = { &io };
	struct io_event ev;
	unsigned long rej0 = libaio_stats.ring_rejected, sys0 = libaio_stats.syscalls;

	io_prep_noop(&io, 0);
	if (io_submit(ctx, 1, ios) != 1)
		return 0;
	rh->head = rh->head + 1000 * rh->nr;	/* same slot modulo nr, but out of range */
	return io_getevents(ctx, 1, 1, &ev, NULL) == 1 && ev.obj == &io &&
	       libaio_stats.ring_rejected > rej0 && libaio_stats.syscalls == sys0 + 1 &&
	       rh->head < rh->nr;
}

/* A zero timeout on an empty ring returns 0 at once; bad arguments are -EINVAL. */
static int case_timeout_args(void)
{
	static unsigned not_a_ring[1024] __attribute__((aligned(4096)));
	struct io_event ev;
	struct timespec zero = { 0, 0 }, bad = { 0, 2000000000L };

	return io_getevents(ctx, 1, 1, &ev, &zero) == 0 &&
	       io_getevents(ctx, 2, 1, &ev, NULL) == -EINVAL &&
	       io_getevents(ctx, 1, 1, &ev, &bad) == -EINVAL &&
	       io_getevents_ring_only((io_context_t)not_a_ring, 1, &ev) == -EINVAL;
}

/* io_queue_run calls each request's callback. */
static int case_queue_run(void)
{
	struct iocb io[2], *ios[2] = { &io[0], &io[1] };

	for (int i = 0; i < 2; i++) {
		io_prep_noop(&io[i], 0);
		io_set_callback(&io[i], count_cb);
	}
	callbacks = 0;
	return io_submit(ctx, 2, ios) == 2 && io_queue_run(ctx) == 0 && callbacks == 2;
}

int main(void)
{
	struct ktap t;

	ktap_begin(&t, "ulib_libaio", 8);
	ktap_case(&t, "io_queue_init", io_queue_init(8, &ctx) == 0 && ctx, NULL);
	ktap_case(&t, "ring_reap_no_syscall", case_ring_reap(), NULL);
	ktap_case(&t, "pread_result", case_pread("ulib_libaio.tmp"), NULL);
	ktap_case(&t, "empty_ring_falls_back_to_syscall", case_fallback(), NULL);
	ktap_case(&t, "cancel_returns_event", case_cancel(), NULL);
	ktap_case(&t, "scribbled_ring_rejected", case_scribble(), NULL);
	ktap_case(&t, "timeout_and_args", case_timeout_args(), NULL);
	ktap_case(&t, "queue_run_callbacks", case_queue_run() && io_queue_release(ctx) == 0,
		  NULL);
	return ktap_end(&t);
}
