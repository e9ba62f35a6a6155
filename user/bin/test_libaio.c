/* test_libaio.c: the "libaio" suite: the libaio 0.3.x-compatible library on the real kernel. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "libaio.h"
#include "uapi/aio_ring.h"
#include "utest.h"


static long aio_nr(void)
{
	return utest_read_long("/proc/sys/fs/aio-nr");
}

static int submit1(io_context_t ctx, struct iocb *cb)
{
	return io_submit(ctx, 1, &cb);
}

/* A child that writes each of chunks[] to fd, ms apart, then exits. */
static pid_t writer(int fd, const char *const *chunks, int n, int ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (int i = 0; i < n; i++) {
			usleep(ms * 1000);
			if (write(fd, chunks[i], strlen(chunks[i])) < 0)
				_exit(1);
		}
		_exit(0);
	}
	return pid;
}

static int setup_and_release(void)
{
	io_context_t a = 0, b = 0;
	long base = aio_nr();

	a = (io_context_t)0x1234;		/* io_queue_init clears it first, as libaio's */
	CHECK_EQ(io_queue_init(32, &a), 0);
	CHECK(a != 0 && a != (io_context_t)0x1234);
	CHECK_EQ(io_queue_init(0, &b), -EINVAL);
	CHECK_EQ(io_queue_init(-1, &b), -EINVAL);
	CHECK(b == 0);
	CHECK_EQ(io_setup(8, &b), 0);
	CHECK(b != 0 && b != a);
	CHECK_EQ(aio_nr(), base + 40);
	CHECK_EQ(((struct aio_ring *)a)->magic, AIO_RING_MAGIC);
	CHECK_EQ(io_destroy(b), 0);
	CHECK_EQ(io_queue_release(a), 0);
	CHECK_EQ(aio_nr(), base);
	a = 0;
	CHECK_EQ(io_setup(0, &a), -EINVAL);
	CHECK_EQ(io_setup(-1, &a), -EINVAL);
	CHECK_EQ(io_setup(0x7fffffff, &a), -EINVAL);
	CHECK(a == 0);
	return 0;
}

/* The lowest free ring address: where the next io_setup puts its ring. */
static unsigned long next_ring_address(void)
{
	io_context_t c = 0;
	unsigned long at;

	if (io_setup(1, &c))
		return 0;
	at = (unsigned long)c;
	return io_destroy(c) ? 0 : at;
}

/* Regression: libaio's io_setup hands the caller's ctxp to the kernel, so its
 * checks apply (it used to call with its own zeroed id and write *ctxp itself). */
static int setup_passes_ctxp_through(void)
{
	static const io_context_t read_only;	/* .rodata: readable, not writable */
	io_context_t nonzero = (io_context_t)0x1000;
	long base = aio_nr();
	unsigned long at = next_ring_address();

	CHECK(at != 0);
	CHECK_EQ(io_setup(8, &nonzero), -EINVAL);
	CHECK(nonzero == (io_context_t)0x1000);
	CHECK_EQ(io_setup(8, NULL), -EFAULT);
	CHECK_EQ(io_setup(8, (io_context_t *)0xc0010000), -EFAULT);
	/* made, then destroyed again when the id cannot be stored */
	CHECK_EQ(io_setup(8, (io_context_t *)&read_only), -EFAULT);
	CHECK(read_only == 0);
	CHECK_EQ(aio_nr(), base);			/* no context left behind ... */
	CHECK_EQ(next_ring_address(), at);		/* ... nor its ring */
	return 0;
}

/* Regression: aio-max-nr is -EAGAIN whatever the size (a per-context cap of
 * 65536 answered -EINVAL first), no memory is -ENOMEM (it was -EAGAIN), and
 * only absurd sizes are -EINVAL. */
static int setup_error_classes(void)
{
	const char *max_path = "/proc/sys/fs/aio-max-nr";
	long max = utest_read_long(max_path), base = aio_nr();
	io_context_t ctx = 0;
	int big, huge;

	CHECK(max > 0);
	CHECK_EQ(io_setup(max + 1, &ctx), -EAGAIN);
	CHECK_EQ(io_setup(65537, &ctx), -EAGAIN);
	CHECK_EQ(utest_write_long(max_path, 0x7fffffff), 0);
	big = io_setup(4 << 20, &ctx);		/* 4 Mi slots: more than memory allows */
	huge = io_setup(0x7fffffff, &ctx);
	CHECK_EQ(utest_write_long(max_path, max), 0);
	CHECK_EQ(big, -ENOMEM);
	CHECK_EQ(huge, -EINVAL);
	CHECK(ctx == 0);
	CHECK_EQ(aio_nr(), base);
	return 0;
}

/* Regression: every io_getevents path that answers without a system call must
 * still say -EINVAL for a context that is not live (nr == 0 answered 0). */
static int getevents_invalid_context_paths(void)
{
	struct timespec zero = { 0, 0 }, ms = { 0, 1000000 };
	static unsigned fake_ring[1024] __attribute__((aligned(4096)));
	io_context_t ctx = 0, fake = (io_context_t)fake_ring;
	struct io_event ev[2];

	fake_ring[1] = 127;			/* a plausible header: nr, magic */
	fake_ring[4] = AIO_RING_MAGIC;
	CHECK_EQ(io_setup(4, &ctx), 0);
	CHECK_EQ(io_getevents(ctx, 0, 0, NULL, NULL), 0);	/* live: 0 */
	CHECK_EQ(io_queue_wait(ctx, &zero), 0);
	CHECK_EQ(io_destroy(ctx), 0);
	for (int i = 0; i < 2; i++) {
		io_context_t c = i ? fake : ctx;

		CHECK_EQ(io_getevents(c, 0, 0, NULL, NULL), -EINVAL);
		CHECK_EQ(io_getevents(c, 0, 0, ev, &zero), -EINVAL);
		CHECK_EQ(io_getevents(c, 0, 2, ev, NULL), -EINVAL);
		CHECK_EQ(io_getevents(c, 0, 2, ev, &zero), -EINVAL);
		CHECK_EQ(io_getevents(c, 1, 2, ev, &ms), -EINVAL);
		CHECK_EQ(io_queue_wait(c, NULL), -EINVAL);
		CHECK_EQ(io_queue_run(c), -EINVAL);
		CHECK_EQ(io_pgetevents(c, 0, 0, NULL, NULL, NULL), -EINVAL);
	}
	CHECK_EQ(io_getevents((io_context_t)0, 0, 0, NULL, NULL), -EINVAL);
	return 0;
}

/* A bad events buffer is -EFAULT even when the ring holds the answer. */
static int getevents_bad_buffer_is_efault(void)
{
	io_context_t ctx = 0;
	struct iocb cb;
	struct io_event ev;
	int null = open("/dev/null", O_RDONLY);

	CHECK_EQ(io_setup(4, &ctx), 0);
	io_prep_noop(&cb, null);
	CHECK_EQ(submit1(ctx, &cb), 1);
	CHECK_EQ(io_getevents(ctx, 1, 1, NULL, NULL), -EFAULT);
	CHECK_EQ(io_getevents(ctx, 1, 1, (struct io_event *)0xc0010000, NULL), -EFAULT);
	CHECK_EQ(io_getevents(ctx, 1, 1, &ev, NULL), 1);	/* not consumed by the failures */
	CHECK(ev.obj == &cb);
	CHECK_EQ(io_destroy(ctx), 0);
	close(null);
	return 0;
}

/* libaio returns -errno (newlib's numbers) and leaves errno alone. */
static int errors_are_negative_errno(void)
{
	io_context_t ctx = 0;
	struct iocb cb;
	struct io_event ev[2];
	char buf[8];
	int rd = open("/dev/null", O_RDONLY);

	CHECK_EQ(io_setup(4, &ctx), 0);
	errno = 1234;
	io_prep_pread(&cb, 77, buf, sizeof(buf), 0);
	CHECK_EQ(submit1(ctx, &cb), -EBADF);
	io_prep_pwrite(&cb, rd, buf, sizeof(buf), 0);
	CHECK_EQ(submit1(ctx, &cb), -EBADF);		/* not open for writing */
	io_prep_pread(&cb, rd, buf, sizeof(buf), 0);
	cb.aio_lio_opcode = 5;
	CHECK_EQ(submit1(ctx, &cb), -EINVAL);
	CHECK_EQ(io_submit(ctx, -1, NULL), -EINVAL);
	CHECK_EQ(io_getevents(ctx, 2, 1, ev, NULL), -EINVAL);
	io_prep_pread(&cb, rd, buf, sizeof(buf), 0);
	CHECK_EQ(io_cancel(ctx, &cb, ev), -EAGAIN);	/* never submitted */
	CHECK_EQ(errno, 1234);
	CHECK_EQ(io_destroy(ctx), 0);
	CHECK_EQ(submit1(ctx, &cb), -EINVAL);		/* gone */
	CHECK_EQ(io_destroy(ctx), -EINVAL);
	CHECK_EQ(errno, 1234);
	close(rd);
	return 0;
}

static int ramfs_pwrite_pread_fsync(void)
{
	io_context_t ctx = 0;
	struct iocb w, r, s, d, *list[4] = { &w, &r, &s, &d };
	struct io_event ev[4];
	char out[300], in[300];
	int fd = open("libaio.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK(fd >= 0);
	for (int i = 0; i < 300; i++)
		out[i] = (char)(i * 13);
	CHECK_EQ(io_queue_init(8, &ctx), 0);
	io_prep_pwrite(&w, fd, out, sizeof(out), 4000);	/* across a page */
	io_prep_pread(&r, fd, in, sizeof(in), 4000);
	io_prep_fsync(&s, fd);
	io_prep_fdsync(&d, fd);
	for (int i = 0; i < 4; i++)
		list[i]->data = (void *)(100 + i);
	CHECK_EQ(io_submit(ctx, 4, list), 4);
	CHECK_EQ(io_getevents(ctx, 4, 4, ev, NULL), 4);
	for (int i = 0; i < 4; i++) {
		CHECK(ev[i].obj == list[i]);
		CHECK(ev[i].data == (void *)(100 + i));
	}
	CHECK(ev[0].res == 300 && ev[1].res == 300 && ev[2].res == 0 && ev[3].res == 0);
	CHECK(!memcmp(in, out, sizeof(out)));
	CHECK_EQ(lseek(fd, 0, SEEK_END), 4300);
	CHECK_EQ(io_queue_release(ctx), 0);
	close(fd);
	unlink("libaio.dat");
	return 0;
}

static int dev_null_and_zero(void)
{
	io_context_t ctx = 0;
	struct iocb cb[3], *list[3] = { &cb[0], &cb[1], &cb[2] };
	struct io_event ev[3];
	char buf[64];
	int null = open("/dev/null", O_RDWR), zero = open("/dev/zero", O_RDONLY);

	memset(buf, 'x', sizeof(buf));
	CHECK_EQ(io_setup(4, &ctx), 0);
	io_prep_pwrite(&cb[0], null, buf, sizeof(buf), 0);
	io_prep_pread(&cb[1], null, buf, sizeof(buf), 0);
	io_prep_pread(&cb[2], zero, buf, 10, 0);
	CHECK_EQ(io_submit(ctx, 3, list), 3);
	CHECK_EQ(io_getevents(ctx, 3, 3, ev, NULL), 3);
	CHECK(ev[0].res == 64 && ev[1].res == 0 && ev[2].res == 10);	/* EOF on /dev/null */
	CHECK(buf[9] == 0 && buf[10] == 'x');
	CHECK_EQ(io_destroy(ctx), 0);
	close(null);
	close(zero);
	return 0;
}

static int pipe_write_then_read(void)
{
	io_context_t ctx = 0;
	struct iocb w, r;
	struct io_event ev[2];
	char in[16] = { 0 };
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(io_setup(4, &ctx), 0);
	io_prep_pread(&r, fds[0], in, sizeof(in), 0);
	CHECK_EQ(submit1(ctx, &r), 1);			/* waits for data */
	CHECK_EQ(io_getevents(ctx, 0, 2, ev, NULL), 0);
	io_prep_pwrite(&w, fds[1], "through the pipe", 16, 0);
	CHECK_EQ(submit1(ctx, &w), 1);
	CHECK_EQ(io_getevents(ctx, 2, 2, ev, NULL), 2);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(ev[i].res, 16);
	CHECK(!memcmp(in, "through the pipe", 16));
	CHECK_EQ(io_destroy(ctx), 0);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

/* A pipe, and a context with three 4-byte reads of it queued (cb[i] into buf[i]). */
static int three_reads_queued(int fds[2], io_context_t *ctx, struct iocb cb[3], char buf[3][4])
{
	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(io_setup(4, ctx), 0);
	for (int i = 0; i < 3; i++) {
		io_prep_pread(&cb[i], fds[0], buf[i], 4, 0);
		CHECK_EQ(submit1(*ctx, &cb[i]), 1);
	}
	return 0;
}

/* min_nr 3 with no timeout: one event at a time arrives, the call waits for all three. */
static int min_nr_is_honoured(void)
{
	static const char *const chunks[] = { "aaaa", "bbbb", "cccc" };
	io_context_t ctx = 0;
	struct iocb cb[3];
	struct io_event ev[3];
	char buf[3][4];
	unsigned long sys0;
	long long t0;
	int fds[2];
	pid_t pid;

	CHECK(!three_reads_queued(fds, &ctx, cb, buf));
	sys0 = libaio_stats.syscalls;
	t0 = utest_now_ns();
	pid = writer(fds[1], chunks, 3, 15);
	CHECK_EQ(io_getevents(ctx, 3, 3, ev, NULL), 3);
	CHECK(utest_now_ns() - t0 >= 40000000LL);	/* the third came after 45 ms */
	CHECK(libaio_stats.syscalls > sys0);		/* it slept in the kernel */
	for (int i = 0; i < 3; i++) {
		CHECK(ev[i].obj == &cb[i]);
		CHECK(!memcmp(buf[i], chunks[i], 4));
	}
	CHECK(utest_child_ok(pid));
	CHECK_EQ(io_destroy(ctx), 0);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

/* min_nr 3 with a timeout, only two arrive: the two, at the timeout. */
static int min_nr_short_at_timeout(void)
{
	static const char *const chunks[] = { "aaaa", "bbbb" };
	struct timespec tmo = { 0, 80000000L };
	io_context_t ctx = 0;
	struct iocb cb[3];
	struct io_event ev[3], res;
	char buf[3][4];
	long long t0, dt;
	int fds[2];
	pid_t pid;

	CHECK(!three_reads_queued(fds, &ctx, cb, buf));
	t0 = utest_now_ns();
	pid = writer(fds[1], chunks, 2, 10);
	CHECK_EQ(io_getevents(ctx, 3, 3, ev, &tmo), 2);
	dt = utest_now_ns() - t0;
	CHECK(dt >= 79000000LL);
	utest_log("2 of min_nr 3 by an 80 ms timeout, after %lld us", dt / 1000);
	CHECK(utest_child_ok(pid));
	CHECK_EQ(io_cancel(ctx, &cb[2], &res), 0);
	CHECK_EQ(io_destroy(ctx), 0);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

/*
 * A zero timeout is a poll: it returns 0 at once. "At once" is the fastest
 * of five tries, so a preemption of the test on a loaded host is not a fail.
 */
static int zero_timeout_polls(io_context_t ctx)
{
	struct timespec tmo = { 0, 0 };
	struct io_event ev;
	long long best = -1, t0, dt;
	int i;

	for (i = 0; i < 5; i++) {
		t0 = utest_now_ns();
		if (io_getevents(ctx, 1, 1, &ev, &tmo) != 0)
			return 0;
		dt = utest_now_ns() - t0;
		if (best < 0 || dt < best)
			best = dt;
	}
	return best < 10000000LL;
}

static int timeout_20ms_returns_zero(void)
{
	struct timespec tmo = { 0, 20000000L };
	io_context_t ctx = 0;
	struct io_event ev;
	long long t0, dt;

	CHECK_EQ(io_setup(4, &ctx), 0);
	t0 = utest_now_ns();
	CHECK_EQ(io_getevents(ctx, 1, 1, &ev, &tmo), 0);
	dt = utest_now_ns() - t0;
	CHECK(dt >= 20000000LL);
	CHECK(dt < 2000000000LL);
	utest_log("20 ms timeout returned 0 after %lld us", dt / 1000);
	CHECK(zero_timeout_polls(ctx));
	tmo.tv_nsec = 1000000000L;
	CHECK_EQ(io_getevents(ctx, 1, 1, &ev, &tmo), -EINVAL);
	CHECK_EQ(io_destroy(ctx), 0);
	return 0;
}

static int null_timeout_waits(void)
{
	static const char *const chunks[] = { "late" };
	io_context_t ctx = 0;
	struct iocb cb;
	struct io_event ev;
	char buf[4];
	long long t0;
	int fds[2];
	pid_t pid;

	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(io_setup(4, &ctx), 0);
	io_prep_pread(&cb, fds[0], buf, 4, 0);
	CHECK_EQ(submit1(ctx, &cb), 1);
	t0 = utest_now_ns();
	pid = writer(fds[1], chunks, 1, 30);
	CHECK_EQ(io_getevents(ctx, 1, 1, &ev, NULL), 1);
	CHECK(utest_now_ns() - t0 >= 29000000LL);
	CHECK_EQ(ev.res, 4);
	CHECK(!memcmp(buf, "late", 4));
	CHECK(utest_child_ok(pid));
	CHECK_EQ(io_destroy(ctx), 0);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int cancel_pending_pipe_read(void)
{
	struct timespec zero = { 0, 0 };
	io_context_t ctx = 0;
	struct iocb cb;
	struct io_event res, ev;
	char buf[8];
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(io_setup(4, &ctx), 0);
	io_prep_pread(&cb, fds[0], buf, sizeof(buf), 0);
	cb.data = (void *)0xfeed;
	CHECK_EQ(submit1(ctx, &cb), 1);
	memset(&res, 0, sizeof(res));
	CHECK_EQ(io_cancel(ctx, &cb, &res), 0);
	CHECK(res.obj == &cb);
	CHECK(res.data == (void *)0xfeed);
	CHECK_EQ((long)res.res, -ECANCELED);		/* newlib's number (140), not the kernel's */
	CHECK_EQ(io_cancel(ctx, &cb, &res), -EAGAIN);	/* once only */
	CHECK_EQ(write(fds[1], "data", 4), 4);
	CHECK_EQ(io_getevents(ctx, 1, 1, &ev, &zero), 0);	/* no second completion */
	CHECK_EQ(read(fds[0], buf, sizeof(buf)), 4);
	CHECK_EQ(io_destroy(ctx), 0);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int calls;
static long res_sum;
static struct iocb cb_iocbs[3];

static void count_cb(io_context_t ctx, struct iocb *iocb, long res, long res2)
{
	(void)ctx;
	calls += iocb >= cb_iocbs && iocb < cb_iocbs + 3;
	res_sum += res + res2;
}

static int callbacks_run(void)
{
	io_context_t ctx = 0;
	struct iocb *list[3] = { &cb_iocbs[0], &cb_iocbs[1], &cb_iocbs[2] };
	char buf[5] = "12345";
	int null = open("/dev/null", O_WRONLY);

	CHECK_EQ(io_queue_init(8, &ctx), 0);
	io_prep_noop(&cb_iocbs[0], null);
	io_prep_pwrite(&cb_iocbs[1], null, buf, 5, 0);
	io_prep_pwrite(&cb_iocbs[2], null, buf, 3, 0);
	for (int i = 0; i < 3; i++)
		io_set_callback(&cb_iocbs[i], count_cb);
	CHECK_EQ(io_submit(ctx, 3, list), 3);
	CHECK_EQ(io_queue_run(ctx), 0);
	CHECK_EQ(calls, 3);
	CHECK_EQ(res_sum, 8);
	CHECK_EQ(io_queue_run(ctx), 0);			/* nothing left: no call */
	CHECK_EQ(calls, 3);
	CHECK_EQ(io_queue_release(ctx), 0);
	close(null);
	return 0;
}

/* NOOP and ramfs completions come from the mapped ring: no system call. */
static int ring_reaping_without_syscall(void)
{
	struct timespec zero = { 0, 0 };
	io_context_t ctx = 0;
	struct iocb cb[8], *list[8];
	struct io_event ev[8];
	struct libaio_stats s0;
	struct aio_ring *ring;
	char buf[16] = "ring reaped";
	int null = open("/dev/null", O_RDONLY), fd = open("reap.dat", O_CREAT | O_RDWR, 0644);

	CHECK_EQ(io_setup(16, &ctx), 0);
	ring = (struct aio_ring *)ctx;
	for (int i = 0; i < 8; i++) {
		if (i < 5)
			io_prep_noop(&cb[i], null);
		else
			io_prep_pwrite(&cb[i], fd, buf, sizeof(buf), i * 16);
		cb[i].data = (void *)(long)i;
		list[i] = &cb[i];
	}
	CHECK_EQ(io_submit(ctx, 8, list), 8);
	CHECK_EQ(ring->tail, 8);
	s0 = libaio_stats;
	CHECK_EQ(io_getevents(ctx, 6, 8, ev, NULL), 8);
	CHECK_EQ(libaio_stats.syscalls, s0.syscalls);
	CHECK_EQ(libaio_stats.ring_reaped, s0.ring_reaped + 8);
	for (int i = 0; i < 8; i++)
		CHECK(ev[i].data == (void *)(long)i && ev[i].res == (i < 5 ? 0 : 16));
	CHECK_EQ(ring->head, 8);			/* consumed: the kernel sees it */
	CHECK_EQ(io_submit(ctx, 2, list), 2);
	CHECK_EQ(io_getevents_ring_only(ctx, 8, ev), 2);
	CHECK_EQ(io_getevents(ctx, 0, 8, ev, &zero), 0);
	CHECK_EQ(libaio_stats.syscalls, s0.syscalls);
	CHECK_EQ(libaio_stats.ring_reaped, s0.ring_reaped + 10);
	CHECK_EQ(libaio_stats.ring_rejected, s0.ring_rejected);
	CHECK_EQ(io_destroy(ctx), 0);
	close(null);
	close(fd);
	unlink("reap.dat");
	return 0;
}

/* Submit n NOOPs, scribble *field with value, reap: the kernel must deliver them. */
static int scribble_and_reap(io_context_t ctx, unsigned *field, unsigned value, int n)
{
	struct iocb cb[4], *list[4];
	struct io_event ev[4];
	struct libaio_stats s0;
	unsigned saved = *field;
	int null = open("/dev/null", O_RDONLY);

	for (int i = 0; i < n; i++) {
		io_prep_noop(&cb[i], null);
		list[i] = &cb[i];
	}
	CHECK_EQ(io_submit(ctx, n, list), n);
	*field = value;
	s0 = libaio_stats;
	CHECK_EQ(io_getevents_ring_only(ctx, 4, ev), -EINVAL);
	CHECK_EQ(io_getevents(ctx, n, 4, ev, NULL), n);
	CHECK(libaio_stats.syscalls > s0.syscalls);		/* it asked the kernel */
	CHECK_EQ(libaio_stats.syscall_events, s0.syscall_events + n);
	CHECK_EQ(libaio_stats.ring_reaped, s0.ring_reaped);
	CHECK(libaio_stats.ring_rejected > s0.ring_rejected);
	for (int i = 0; i < n; i++)
		CHECK(ev[i].obj == &cb[i] && ev[i].res == 0);
	*field = saved;
	close(null);
	return 0;
}

static int scribbled_ring_falls_back(void)
{
	io_context_t ctx = 0;
	struct aio_ring *ring;
	struct io_event ev[4];
	struct iocb cb, *list[1] = { &cb };
	int null = open("/dev/null", O_RDONLY), n;

	CHECK_EQ(io_setup(8, &ctx), 0);
	ring = (struct aio_ring *)ctx;
	CHECK_EQ(scribble_and_reap(ctx, &ring->magic, 0xdeadbeef, 2), 0);
	CHECK_EQ(scribble_and_reap(ctx, &ring->nr, ring->nr + 64, 3), 0);
	CHECK_EQ(scribble_and_reap(ctx, &ring->nr, 0, 1), 0);
	io_prep_noop(&cb, null);
	CHECK_EQ(io_submit(ctx, 1, list), 1);
	ring->head = 0x7fffffff;		/* the kernel clamps; the library refuses */
	CHECK_EQ(io_getevents_ring_only(ctx, 4, ev), -EINVAL);
	n = io_getevents(ctx, 0, 4, ev, NULL);
	CHECK(n >= 0 && n <= 4);		/* confused, but bounded */
	CHECK_EQ(io_destroy(ctx), 0);
	close(null);
	return 0;
}

/* A context this process does not hold: -EINVAL, never a fault on a ring that is not there. */
static int destroyed_context_is_einval(void)
{
	struct timespec zero = { 0, 0 };
	io_context_t ctx = 0;
	struct io_event ev;

	CHECK_EQ(io_setup(4, &ctx), 0);
	CHECK_EQ(io_destroy(ctx), 0);
	CHECK_EQ(io_getevents(ctx, 0, 1, &ev, &zero), -EINVAL);
	CHECK_EQ(io_getevents(ctx, 1, 1, &ev, NULL), -EINVAL);
	CHECK_EQ(io_getevents_ring_only(ctx, 1, &ev), -EINVAL);
	CHECK_EQ(io_queue_run(ctx), -EINVAL);
	return 0;
}

/* fork does not hand contexts (or their rings) to the child. */
static int forked_child_gets_einval(void)
{
	io_context_t ctx = 0;
	pid_t pid;

	CHECK_EQ(io_setup(4, &ctx), 0);
	pid = fork();
	if (pid == 0) {
		struct timespec zero = { 0, 0 };
		struct io_event ev;
		int ok = io_getevents(ctx, 0, 1, &ev, &zero) == -EINVAL;
		ok &= io_getevents_ring_only(ctx, 1, &ev) == -EINVAL;
		ok &= io_destroy(ctx) == -EINVAL;
		_exit(ok ? 0 : 1);
	}
	CHECK(utest_child_ok(pid));
	CHECK_EQ(io_destroy(ctx), 0);
	return 0;
}

/* One NOOP on ctx, reaped: 1 if it came from the ring with no system call. */
static int noop_reaped_from_ring(io_context_t ctx, int fd)
{
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev;
	struct libaio_stats s0 = libaio_stats;

	io_prep_noop(&cb, fd);
	return io_submit(ctx, 1, list) == 1 && io_getevents(ctx, 1, 1, &ev, NULL) == 1 &&
	       ev.obj == &cb && libaio_stats.syscalls == s0.syscalls &&
	       libaio_stats.ring_reaped == s0.ring_reaped + 1;
}

/* Rings 4 MiB apart share a home slot in the library's table of contexts:
 * destroying the first must leave the others reachable (and reaped from the ring). */
static int colliding_contexts_stay_reachable(void)
{
	const unsigned long apart = 4ul << 20;
	io_context_t a = 0, b = 0, c = 0;
	int null = open("/dev/null", O_RDONLY);
	char *filler;

	CHECK_EQ(io_setup(1, &a), 0);
	filler = mmap((char *)a + 4096, apart - 4096, PROT_READ,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	CHECK(filler == (char *)a + 4096);
	CHECK_EQ(io_setup(1, &b), 0);
	CHECK_EQ((unsigned long)b - (unsigned long)a, apart);
	CHECK_EQ(io_setup(1, &c), 0);
	CHECK_EQ((unsigned long)c - (unsigned long)b, 4096);
	CHECK(noop_reaped_from_ring(b, null) && noop_reaped_from_ring(c, null));
	CHECK_EQ(io_destroy(a), 0);
	CHECK(noop_reaped_from_ring(b, null));
	CHECK(noop_reaped_from_ring(c, null));
	CHECK_EQ(io_queue_run(a), -EINVAL);
	CHECK_EQ(io_destroy(b), 0);
	CHECK(noop_reaped_from_ring(c, null));
	CHECK_EQ(io_destroy(c), 0);
	CHECK_EQ(munmap(filler, apart - 4096), 0);
	close(null);
	return 0;
}


/* libaio's later API on the kernel's: vectored reads signalling an eventfd,
 * io_pgetevents under a signal mask (503), io_prep_poll of the eventfd. */
static int vectored_eventfd_pgetevents(void)
{
	io_context_t ctx = 0;
	struct iocb cb, pcb, *list[1] = { &cb }, *plist[1] = { &pcb };
	struct io_event ev;
	struct timespec two = { 2, 0 };
	char a[3], b[5];
	struct iovec v[2] = { { a, 3 }, { b, 5 } };
	sigset_t mask;
	eventfd_t count = 0;
	int fds[2], efd = eventfd(0, 0);

	CHECK(efd >= 0);
	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(io_setup(4, &ctx), 0);
	io_prep_preadv(&cb, fds[0], v, 2, 0);
	io_set_eventfd(&cb, efd);
	CHECK_EQ(io_submit(ctx, 1, list), 1);
	CHECK_EQ(write(fds[1], "abcdefgh", 8), 8);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	CHECK_EQ(io_pgetevents(ctx, 1, 1, &ev, &two, &mask), 1);
	CHECK_EQ(ev.res, 8);
	CHECK(!memcmp(a, "abc", 3) && !memcmp(b, "defgh", 5));
	CHECK_EQ(eventfd_read(efd, &count), 0);
	CHECK_EQ(count, 1);
	io_prep_poll(&pcb, efd, POLLIN);
	CHECK_EQ(io_submit(ctx, 1, plist), 1);
	CHECK_EQ(io_getevents(ctx, 0, 1, &ev, NULL), 0);	/* count 0: not ready */
	CHECK_EQ(eventfd_write(efd, 2), 0);
	CHECK_EQ(io_pgetevents(ctx, 1, 1, &ev, &two, &mask), 1);
	CHECK_EQ(ev.res, POLLIN);
	CHECK_EQ(io_destroy(ctx), 0);
	CHECK_EQ(io_pgetevents(ctx, 1, 1, &ev, &two, &mask), -EINVAL);
	close(fds[0]);
	close(fds[1]);
	close(efd);
	return 0;
}

/* Readers racing on one ring: user-space reapers (the mapped ring) and one
 * that sleeps in the kernel (io_getevents with a timeout, whose kernel side
 * takes events from the same ring) while the main thread keeps submitting
 * NOOPs. Each event must reach exactly one reader: the head moves by
 * compare-and-swap on both sides (docs/locking.md). */
#define RACE_READERS	4
#define RACE_EVENTS	40000
#define RACE_BATCH	32

static io_context_t race_ctx;
static unsigned char race_seen[RACE_EVENTS];
static long race_reaped, race_bad;

static void race_count(const struct io_event *ev, int n)
{
	for (int i = 0; i < n; i++) {
		unsigned long id = (unsigned long)ev[i].data;
		if (id >= RACE_EVENTS || __atomic_fetch_add(&race_seen[id], 1, __ATOMIC_RELAXED))
			__atomic_fetch_add(&race_bad, 1, __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(&race_reaped, n, __ATOMIC_RELAXED);
}

static void *race_reader(void *arg)
{
	struct timespec ms = { 0, 1000000 };
	struct io_event ev[RACE_BATCH];
	int n;

	while (__atomic_load_n(&race_reaped, __ATOMIC_RELAXED) < RACE_EVENTS) {
		if ((long)arg == 0)
			n = io_getevents(race_ctx, 1, RACE_BATCH, ev, &ms);	/* the kernel's reader too */
		else
			n = io_getevents_ring_only(race_ctx, 1 + (long)arg * 7, ev);
		if (n < 0)
			break;
		race_count(ev, n);
	}
	return NULL;
}

static int ring_readers_race_each_event_once(void)
{
	struct iocb cb[RACE_BATCH], *list[RACE_BATCH];
	pthread_t t[RACE_READERS];
	int null = open("/dev/null", O_RDONLY), n;
	long next = 0;

	race_ctx = 0;
	race_reaped = race_bad = 0;
	memset(race_seen, 0, sizeof(race_seen));
	CHECK_EQ(io_setup(256, &race_ctx), 0);
	for (long i = 0; i < RACE_READERS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, race_reader, (void *)i), 0);
	while (next < RACE_EVENTS) {
		n = RACE_EVENTS - next < RACE_BATCH ? (int)(RACE_EVENTS - next) : RACE_BATCH;
		for (int i = 0; i < n; i++) {
			io_prep_noop(&cb[i], null);
			cb[i].data = (void *)(next + i);
			list[i] = &cb[i];
		}
		n = io_submit(race_ctx, n, list);
		if (n == -EAGAIN) {
			sched_yield();			/* the ring is full: let the readers run */
			continue;
		}
		CHECK(n > 0);
		next += n;
	}
	for (int i = 0; i < RACE_READERS; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	CHECK_EQ(race_bad, 0);			/* no event twice, none unknown */
	CHECK_EQ(race_reaped, RACE_EVENTS);	/* none lost */
	CHECK_EQ(io_destroy(race_ctx), 0);
	close(null);
	return 0;
}

/*
 * A cancel that arrives just as io_getevents takes an event must not lose it
 * (pthread(3)): each round one NOOP completes while a thread waits in
 * io_getevents, and the cancel follows a random few spins later; the event
 * is either counted by the waiter (its call returned it) or still there for
 * the next reap.  Before the library's cancellable stub, a waiter woken with
 * the event in hand ended without returning it.
 */
#define CANCEL_ROUNDS	2000

struct cancel_race {
	io_context_t ctx;
	volatile int got;	/* events the waiter's io_getevents returned */
	int by_waiter;		/* rounds the cancelled waiter had the event */
	sem_t ready;
};

static void *cancel_race_waiter(void *arg)
{
	struct cancel_race *r = arg;
	struct io_event ev[4];
	int n;

	sem_post(&r->ready);
	for (;;)
		if ((n = io_getevents(r->ctx, 1, 4, ev, NULL)) > 0)
			r->got += n;
	return NULL;
}

/* One round: the events nobody has (0 or 1), or -1 when the round went wrong. */
static int cancel_race_round(struct cancel_race *r, int fd)
{
	struct timespec zero = { 0, 0 };
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev[4];
	void *res = NULL;
	pthread_t t;
	int left;

	r->got = 0;
	if (pthread_create(&t, 0, cancel_race_waiter, r))
		return -1;
	sem_wait(&r->ready);
	utest_spin_random(100);
	io_prep_noop(&cb, fd);
	if (io_submit(r->ctx, 1, list) != 1)
		return -1;
	utest_spin_random(300);
	if (pthread_cancel(t) || pthread_join(t, &res) || res != PTHREAD_CANCELED)
		return -1;
	left = io_getevents(r->ctx, 0, 4, ev, &zero);
	r->by_waiter += r->got;
	return left < 0 || r->got + left > 1 ? -1 : 1 - r->got - left;
}

static int cancel_keeps_taken_events(void)
{
	struct cancel_race r = { 0 };
	int fd = open("/dev/null", O_RDONLY), lost = 0, n;

	alarm(200);
	CHECK(fd >= 0);
	CHECK_EQ(sem_init(&r.ready, 0, 0), 0);
	CHECK_EQ(io_setup(8, &r.ctx), 0);
	for (int i = 0; i < CANCEL_ROUNDS; i++) {
		CHECK((n = cancel_race_round(&r, fd)) >= 0);
		lost += n;
	}
	utest_log("%d rounds: %d events lost; the cancelled waiter returned %d, the rest "
		  "were reaped after it", CANCEL_ROUNDS, lost, r.by_waiter);
	CHECK_EQ(lost, 0);
	CHECK_EQ(io_destroy(r.ctx), 0);
	close(fd);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(setup_and_release),
	UTEST(setup_passes_ctxp_through),
	UTEST(setup_error_classes),
	UTEST(getevents_invalid_context_paths),
	UTEST(getevents_bad_buffer_is_efault),
	UTEST(errors_are_negative_errno),
	UTEST(ramfs_pwrite_pread_fsync),
	UTEST(dev_null_and_zero),
	UTEST(pipe_write_then_read),
	UTEST(min_nr_is_honoured),
	UTEST(min_nr_short_at_timeout),
	UTEST(timeout_20ms_returns_zero),
	UTEST(null_timeout_waits),
	UTEST(cancel_pending_pipe_read),
	UTEST(callbacks_run),
	UTEST(ring_reaping_without_syscall),
	UTEST(ring_readers_race_each_event_once),
	UTEST(scribbled_ring_falls_back),
	UTEST(destroyed_context_is_einval),
	UTEST(colliding_contexts_stay_reachable),
	UTEST(forked_child_gets_einval),
	UTEST(vectored_eventfd_pgetevents),
	UTEST(cancel_keeps_taken_events),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "libaio", cases, sizeof(cases) / sizeof(cases[0]));
}
