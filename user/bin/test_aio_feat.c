/* test_aio_feat.c: the "aio_feat" suite: the AIO features Linux grew since 2002
 * (IOCB_CMD_PREADV/PWRITEV, IOCB_CMD_POLL, IOCB_FLAG_RESFD with eventfd,
 * aio_rw_flags, O_APPEND) and io_pgetevents_abs, through the raw system calls. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "aio_raw.h"
#include "uapi/uio.h"
#include "utest.h"

#define BAD_PTR		((void *)0xC0010000)
#define K_EOPNOTSUPP	95
#define K_EFD_SEMAPHORE	1
#define K_EFD_NONBLOCK	00004000
#define K_EFD_CLOEXEC	02000000
#define K_POLLIN	0x001
#define K_POLLOUT	0x004
#define K_POLLRDNORM	0x040

static long raw_syscall5(long nr, long a, long b, long c, long d, long e)
{
	long r;

	asm volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
		     : "memory");
	return r;
}

static long raw_eventfd2(unsigned init, int flags)
{
	return raw_syscall4(328, init, flags, 0, 0);
}

static long raw_pgetevents(aio_context_t ctx, long nr, struct io_event *ev,
			   const struct kernel_timespec *when, const void *sig)
{
	return raw_syscall5(503, ctx, nr, (long)ev, (long)when, (long)sig);
}

static void prep(struct iocb *cb, int op, int fd, void *buf, unsigned long long n, long long off)
{
	raw_prep(cb, op, fd, buf, n, off, (unsigned long)cb);
}

/* Submit one request and take its event (waiting up to 2 s): its res, or a
 * value no result has when it did not come. */
static long long run1(aio_context_t ctx, struct iocb *cb)
{
	struct kernel_timespec when = raw_deadline_in(2000000000LL);
	struct io_event ev;

	if (raw_submit1(ctx, cb) != 1 || raw_io_getevents_abs(ctx, 1, &ev, &when) != 1 ||
	    ev.obj != (unsigned long)cb)
		return -99999;
	return ev.res;
}

static uint64_t efd_count(int efd)
{
	uint64_t v = 0;

	return read(efd, &v, 8) == 8 ? v : 0;
}

static int iocb_new_fields_checked(void)
{
	aio_context_t ctx = 0;
	struct iocb cb;
	char buf[16];
	int fd = open("/dev/zero", O_RDONLY), efd = raw_eventfd2(0, 0);

	CHECK(fd >= 0 && efd >= 0);
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	prep(&cb, IOCB_CMD_PREAD, fd, buf, 8, 0);
	cb.aio_rw_flags = 0x100;			/* no such RWF_ bit */
	CHECK_EQ(raw_submit1(ctx, &cb), -K_EOPNOTSUPP);
	prep(&cb, IOCB_CMD_FSYNC, fd, NULL, 0, 0);
	cb.aio_rw_flags = RWF_DSYNC;			/* not a read or write */
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);
	prep(&cb, IOCB_CMD_PREAD, fd, buf, 8, 0);
	cb.aio_flags = 4;				/* no such IOCB_FLAG_ */
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);
	prep(&cb, 4, fd, buf, 8, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);		/* opcode 4: none */
	prep(&cb, 9, fd, buf, 8, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);
	prep(&cb, IOCB_CMD_PREAD, fd, buf, 8, 0);
	cb.aio_flags = IOCB_FLAG_RESFD;
	cb.aio_resfd = 77;
	CHECK_EQ(raw_submit1(ctx, &cb), -EBADF);
	cb.aio_resfd = fd;				/* not an eventfd */
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);
	cb.aio_resfd = efd;
	cb.aio_rw_flags = RWF_HIPRI;
	CHECK_EQ(run1(ctx, &cb), 8);
	CHECK_EQ(efd_count(efd), 1);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	close(efd);
	return 0;
}

static int pwritev_preadv_ramfs(void)
{
	aio_context_t ctx = 0;
	struct iocb cb;
	char a[5] = "hello", b[1] = " ", c[6] = "world!", out[12], r1[3], r2[9];
	struct iovec wv[3] = { { a, 5 }, { b, 1 }, { c, 6 } };
	struct iovec rv[3] = { { r1, 3 }, { NULL, 0 }, { r2, 9 } };
	int fd = open("/tmp/feat_vec", O_RDWR | O_CREAT | O_TRUNC, 0644);

	CHECK(fd >= 0);
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	prep(&cb, IOCB_CMD_PWRITEV, fd, wv, 3, 100);
	CHECK_EQ(run1(ctx, &cb), 12);
	CHECK_EQ(pread(fd, out, 12, 100), 12);
	CHECK(!memcmp(out, "hello world!", 12));
	prep(&cb, IOCB_CMD_PREADV, fd, rv, 3, 100);
	CHECK_EQ(run1(ctx, &cb), 12);
	CHECK(!memcmp(r1, "hel", 3) && !memcmp(r2, "lo world!", 9));
	prep(&cb, IOCB_CMD_PREADV, fd, rv, 3, 106);	/* short: 6 bytes left */
	CHECK_EQ(run1(ctx, &cb), 6);
	prep(&cb, IOCB_CMD_PREADV, fd, rv, 0, 0);
	CHECK_EQ(run1(ctx, &cb), 0);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	unlink("/tmp/feat_vec");
	return 0;
}

static int vectored_errors(void)
{
	aio_context_t ctx = 0;
	struct iocb cb;
	char buf[8];
	struct iovec bad_seg[2] = { { buf, 8 }, { BAD_PTR, 8 } };
	struct iovec huge[2] = { { buf, 0x7fffffff }, { buf, 8 } };
	int fd = open("/dev/zero", O_RDWR), nul = open("/dev/null", O_WRONLY);

	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	prep(&cb, IOCB_CMD_PREADV, fd, bad_seg, UIO_MAXIOV + 1, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);		/* more than UIO_MAXIOV */
	prep(&cb, IOCB_CMD_PREADV, fd, BAD_PTR, 1, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), -EFAULT);		/* the array */
	prep(&cb, IOCB_CMD_PREADV, fd, bad_seg, 2, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), -EFAULT);		/* a segment */
	prep(&cb, IOCB_CMD_PREADV, fd, huge, 2, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);		/* total past INT_MAX */
	prep(&cb, IOCB_CMD_PWRITEV, fd, bad_seg, 1, -1);
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);		/* negative offset */
	prep(&cb, IOCB_CMD_PREADV, nul, bad_seg, 1, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), -EBADF);		/* not open for reading */
	memset(buf, 1, sizeof(buf));
	prep(&cb, IOCB_CMD_PREADV, fd, bad_seg, 1, 0);	/* /dev/zero fills it */
	CHECK_EQ(run1(ctx, &cb), 8);
	CHECK_EQ(buf[0] | buf[7], 0);
	prep(&cb, IOCB_CMD_PWRITEV, nul, huge + 1, 1, 0);
	CHECK_EQ(run1(ctx, &cb), 8);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	close(nul);
	return 0;
}

/* A PREADV queued on an empty pipe is served across its segments by a write;
 * a PWRITEV goes in at once when there is room. */
static int vectored_pipe(void)
{
	aio_context_t ctx = 0;
	struct iocb cb;
	struct io_event ev;
	char x[4], y[6], in[10];
	struct iovec rv[2] = { { x, 4 }, { y, 6 } };
	struct iovec wv[2] = { { "abc", 3 }, { "defghij", 7 } };
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	prep(&cb, IOCB_CMD_PREADV, fds[0], rv, 2, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), 1);
	CHECK_EQ(raw_getevents_now(ctx, 1, &ev), 0);	/* queued: nothing yet */
	CHECK_EQ(write(fds[1], "0123456789", 10), 10);
	CHECK_EQ(raw_getevents_now(ctx, 1, &ev), 1);
	CHECK_EQ(ev.res, 10);
	CHECK(!memcmp(x, "0123", 4) && !memcmp(y, "456789", 6));
	prep(&cb, IOCB_CMD_PWRITEV, fds[1], wv, 2, 0);
	CHECK_EQ(run1(ctx, &cb), 10);
	CHECK_EQ(read(fds[0], in, 10), 10);
	CHECK(!memcmp(in, "abcdefghij", 10));
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int poll_pipe_and_errors(void)
{
	aio_context_t ctx = 0;
	struct iocb cb;
	struct io_event ev;
	int fds[2], file = open("/tmp/feat_poll", O_RDWR | O_CREAT, 0644);
	int nul = open("/dev/null", O_RDONLY);

	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	prep(&cb, IOCB_CMD_POLL, file, (void *)K_POLLIN, 0, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);		/* ramfs files cannot be polled */
	prep(&cb, IOCB_CMD_POLL, nul, (void *)K_POLLIN, 0, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);
	prep(&cb, IOCB_CMD_POLL, fds[0], (void *)0x10000, 0, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);		/* events beyond 16 bits */
	prep(&cb, IOCB_CMD_POLL, fds[0], (void *)K_POLLIN, 1, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), -EINVAL);		/* nbytes must be 0 */
	prep(&cb, IOCB_CMD_POLL, fds[0], (void *)K_POLLIN, 0, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), 1);
	CHECK_EQ(raw_getevents_now(ctx, 1, &ev), 0);	/* nothing to read yet */
	CHECK_EQ(write(fds[1], "x", 1), 1);
	{
		struct kernel_timespec when = raw_deadline_in(2000000000LL);
		CHECK_EQ(raw_io_getevents_abs(ctx, 1, &ev, &when), 1);
	}
	CHECK_EQ(ev.res, K_POLLIN);			/* the mask, as asked */
	prep(&cb, IOCB_CMD_POLL, fds[0], (void *)(K_POLLIN | K_POLLRDNORM), 0, 0);
	CHECK_EQ(run1(ctx, &cb), K_POLLIN | K_POLLRDNORM);	/* ready at once */
	prep(&cb, IOCB_CMD_POLL, fds[1], (void *)K_POLLOUT, 0, 0);
	CHECK_EQ(run1(ctx, &cb), K_POLLOUT);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fds[0]);
	close(fds[1]);
	close(file);
	close(nul);
	unlink("/tmp/feat_poll");
	return 0;
}

static int poll_cancel_and_destroy(void)
{
	aio_context_t ctx = 0;
	struct iocb cb, cb2;
	struct io_event ev, res;
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	prep(&cb, IOCB_CMD_POLL, fds[0], (void *)K_POLLIN, 0, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), 1);
	CHECK_EQ(raw_io_cancel(ctx, &cb, &res), 0);
	CHECK_EQ(res.res, -K_ECANCELED);
	CHECK_EQ(res.obj, (unsigned long)&cb);
	CHECK_EQ(write(fds[1], "y", 1), 1);
	usleep(20000);
	CHECK_EQ(raw_getevents_now(ctx, 1, &ev), 0);	/* withdrawn: no event ever */
	CHECK_EQ(raw_io_cancel(ctx, &cb, &res), -EAGAIN);
	CHECK_EQ(read(fds[0], &ev, 1), 1);
	prep(&cb2, IOCB_CMD_POLL, fds[0], (void *)K_POLLIN, 0, 0);
	CHECK_EQ(raw_submit1(ctx, &cb2), 1);
	CHECK_EQ(raw_io_destroy(ctx), 0);		/* cancels the queued poll */
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int eventfd_semantics(void)
{
	uint64_t v = 0, max = ~0ull;
	struct pollfd p;
	int efd = raw_eventfd2(3, K_EFD_NONBLOCK), sem = raw_eventfd2(2, K_EFD_SEMAPHORE | K_EFD_NONBLOCK);
	int cl = raw_eventfd2(0, K_EFD_CLOEXEC);

	CHECK(efd >= 0 && sem >= 0 && cl >= 0);
	CHECK_EQ(raw_eventfd2(0, 0x100), -EINVAL);
	CHECK_EQ(raw_syscall4(323, 0, 0, 0, 0) >= 0, 1);	/* eventfd(0) */
	CHECK_EQ(fcntl(cl, F_GETFD), FD_CLOEXEC);
	CHECK_EQ(fcntl(efd, F_GETFD), 0);
	CHECK_ERR(read(efd, &v, 4), EINVAL);		/* fewer than 8 bytes */
	CHECK_EQ(read(efd, &v, 8), 8);
	CHECK_EQ(v, 3);
	CHECK_ERR(read(efd, &v, 8), EAGAIN);		/* 0 and O_NONBLOCK */
	CHECK_ERR(read(efd, BAD_PTR, 8), EFAULT);
	CHECK_ERR(write(efd, &max, 8), EINVAL);		/* 2^64 - 1 is no value */
	v = 5;
	CHECK_EQ(write(efd, &v, 8), 8);
	CHECK_EQ(write(efd, &v, 8), 8);
	p = (struct pollfd){ efd, POLLIN | POLLOUT, 0 };
	CHECK_EQ(poll(&p, 1, 0), 1);
	CHECK_EQ(p.revents, POLLIN | POLLOUT);
	v = max - 1;					/* 10 + that would pass the limit */
	CHECK_ERR(write(efd, &v, 8), EAGAIN);
	CHECK_EQ(read(efd, &v, 8), 8);
	CHECK_EQ(v, 10);
	CHECK_EQ(read(sem, &v, 8), 8);
	CHECK_EQ(v, 1);
	CHECK_EQ(read(sem, &v, 8), 8);
	CHECK_EQ(v, 1);
	CHECK_ERR(read(sem, &v, 8), EAGAIN);
	close(efd);
	close(sem);
	close(cl);
	return 0;
}

/* The eventfd counts each event once it is in the ring: a reader that sees
 * the count finds the events there. A blocking read waits for the count. */
static int resfd_signals_after_event(void)
{
	aio_context_t ctx = 0;
	struct iocb cb[3], *list[3] = { &cb[0], &cb[1], &cb[2] }, pr;
	struct io_event ev[3];
	char buf[4];
	int efd = raw_eventfd2(0, 0), fds[2];
	uint64_t v;

	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(raw_io_setup(8, &ctx), 0);
	for (int i = 0; i < 3; i++) {
		prep(&cb[i], IOCB_CMD_NOOP, fds[0], NULL, 0, 0);
		cb[i].aio_flags = IOCB_FLAG_RESFD;
		cb[i].aio_resfd = efd;
	}
	CHECK_EQ(raw_io_submit(ctx, 3, list), 3);
	CHECK_EQ(read(efd, &v, 8), 8);
	CHECK_EQ(v, 3);
	CHECK_EQ(raw_getevents_now(ctx, 3, ev), 3);
	prep(&pr, IOCB_CMD_PREAD, fds[0], buf, 4, 0);
	pr.aio_flags = IOCB_FLAG_RESFD;
	pr.aio_resfd = efd;
	CHECK_EQ(raw_submit1(ctx, &pr), 1);
	pid_t pid = fork();
	if (pid == 0) {
		usleep(20000);
		_exit(write(fds[1], "abcd", 4) == 4 ? 0 : 1);
	}
	CHECK_EQ(read(efd, &v, 8), 8);			/* sleeps until the completion */
	CHECK_EQ(v, 1);
	CHECK_EQ(raw_getevents_now(ctx, 1, ev), 1);
	CHECK_EQ(ev[0].res, 4);
	CHECK(utest_child_ok(pid));
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(efd);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int poll_on_eventfd(void)
{
	aio_context_t ctx = 0;
	struct iocb cb;
	struct io_event ev;
	struct kernel_timespec when;
	int efd = raw_eventfd2(0, 0);
	uint64_t one = 1;

	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	prep(&cb, IOCB_CMD_POLL, efd, (void *)K_POLLIN, 0, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), 1);
	CHECK_EQ(raw_getevents_now(ctx, 1, &ev), 0);
	CHECK_EQ(write(efd, &one, 8), 8);
	when = raw_deadline_in(2000000000LL);
	CHECK_EQ(raw_io_getevents_abs(ctx, 1, &ev, &when), 1);
	CHECK_EQ(ev.res, K_POLLIN);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(efd);
	return 0;
}

static int rwf_nowait_pipe(void)
{
	aio_context_t ctx = 0;
	struct iocb cb;
	static char big[70000];		/* more than the pipe's 64 KiB */
	char buf[8];
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	prep(&cb, IOCB_CMD_PREAD, fds[0], buf, 8, 0);
	cb.aio_rw_flags = RWF_NOWAIT;
	CHECK_EQ(run1(ctx, &cb), -EAGAIN);		/* empty: in the event */
	memset(big, 'z', sizeof(big));
	prep(&cb, IOCB_CMD_PWRITE, fds[1], big, sizeof(big), 0);
	cb.aio_rw_flags = RWF_NOWAIT;
	CHECK_EQ(run1(ctx, &cb), -EAGAIN);		/* no room for it all */
	prep(&cb, IOCB_CMD_PWRITE, fds[1], big, 8, 0);
	cb.aio_rw_flags = RWF_NOWAIT;
	CHECK_EQ(run1(ctx, &cb), 8);
	prep(&cb, IOCB_CMD_PREAD, fds[0], buf, 8, 0);
	cb.aio_rw_flags = RWF_NOWAIT;
	CHECK_EQ(run1(ctx, &cb), 8);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

/* O_APPEND and RWF_APPEND: the offset is ignored, every write lands at the
 * end, none over another (one io_submit of many appenders). */
static int append_ignores_offset(void)
{
	aio_context_t ctx = 0;
	struct iocb cb[8], *list[8];
	struct io_event ev[8];
	char out[64];
	int fd = open("/tmp/feat_app", O_RDWR | O_CREAT | O_TRUNC | O_APPEND, 0644);
	int plain = open("/tmp/feat_app", O_RDWR);

	CHECK(fd >= 0 && plain >= 0);
	CHECK_EQ(write(fd, "0123456789", 10), 10);
	CHECK_EQ(raw_io_setup(16, &ctx), 0);
	prep(&cb[0], IOCB_CMD_PWRITE, fd, "ab", 2, 0);
	CHECK_EQ(run1(ctx, &cb[0]), 2);
	prep(&cb[0], IOCB_CMD_PWRITE, plain, "cd", 2, 3);
	cb[0].aio_rw_flags = RWF_APPEND;
	CHECK_EQ(run1(ctx, &cb[0]), 2);
	prep(&cb[0], IOCB_CMD_PWRITE, plain, "E", 1, 0);	/* no append: at 0 */
	CHECK_EQ(run1(ctx, &cb[0]), 1);
	for (int i = 0; i < 8; i++) {
		prep(&cb[i], IOCB_CMD_PWRITE, fd, "xyz", 3, 0);
		list[i] = &cb[i];
	}
	CHECK_EQ(raw_io_submit(ctx, 8, list), 8);
	CHECK_EQ(raw_getevents_now(ctx, 8, ev), 8);
	CHECK_EQ(lseek(fd, 0, SEEK_END), 14 + 24);
	CHECK_EQ(pread(plain, out, 64, 0), 38);
	CHECK(!memcmp(out, "E123456789abcd", 14));
	for (int i = 0; i < 8; i++)
		CHECK(!memcmp(out + 14 + 3 * i, "xyz", 3));
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	close(plain);
	unlink("/tmp/feat_app");
	return 0;
}

static int pgetevents_mask_and_errors(void)
{
	aio_context_t ctx = 0;
	struct iocb cb;
	struct io_event ev;
	struct kernel_timespec past = { 0, 0 };
	uint64_t mask = 1ull << (SIGUSR1 - 1);
	uint32_t sig[2] = { (uint32_t)&mask, 8 };
	int fd = open("/dev/null", O_RDONLY);

	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	CHECK_EQ(raw_pgetevents(ctx, 1, &ev, &past, BAD_PTR), -EFAULT);
	sig[1] = 4;
	CHECK_EQ(raw_pgetevents(ctx, 1, &ev, &past, sig), -EINVAL);	/* size must be 8 */
	sig[1] = 8;
	sig[0] = (uint32_t)BAD_PTR;
	CHECK_EQ(raw_pgetevents(ctx, 1, &ev, &past, sig), -EFAULT);
	sig[0] = (uint32_t)&mask;
	CHECK_EQ(raw_pgetevents(ctx + 4096, 1, &ev, &past, sig), -EINVAL);
	CHECK_EQ(raw_pgetevents(ctx, 1, &ev, &past, sig), 0);
	prep(&cb, IOCB_CMD_NOOP, fd, NULL, 0, 0);
	CHECK_EQ(raw_submit1(ctx, &cb), 1);
	CHECK_EQ(raw_pgetevents(ctx, 1, &ev, NULL, sig), 1);
	CHECK_EQ(ev.obj, (unsigned long)&cb);
	sig[0] = 0;					/* no mask: io_getevents_abs */
	CHECK_EQ(raw_pgetevents(ctx, 1, &ev, &past, sig), 0);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

static volatile int usr1_seen, winch_seen;

static void count_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

static void count_winch(int sig)
{
	(void)sig;
	winch_seen++;
}

/* The wait runs under its mask: a signal it blocks stays pending (no wake);
 * one it lets through ends the wait with -EINTR and no event (never a
 * restart, though signal() installs with SA_RESTART); the old mask is back
 * afterwards, so the pending one is delivered then. */
static int pgetevents_interrupted(void)
{
	int st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		aio_context_t ctx = 0;
		struct io_event ev;
		uint64_t block_usr1 = 1ull << (10 - 1);		/* the kernel's SIGUSR1 */
		uint32_t sig[2] = { (uint32_t)&block_usr1, 8 };
		long r;

		signal(SIGUSR1, count_usr1);
		signal(SIGWINCH, count_winch);
		raw_io_setup(4, &ctx);
		r = raw_pgetevents(ctx, 1, &ev, NULL, sig);
		_exit(r == -EINTR && winch_seen == 1 && usr1_seen == 1 ? 0 : 1);
	}
	usleep(30000);
	CHECK_EQ(kill(pid, SIGUSR1), 0);		/* blocked by the wait's mask */
	usleep(30000);
	CHECK_EQ(waitpid(pid, &st, WNOHANG), 0);	/* still waiting */
	CHECK_EQ(kill(pid, SIGWINCH), 0);
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 0);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(iocb_new_fields_checked),
	UTEST(pwritev_preadv_ramfs),
	UTEST(vectored_errors),
	UTEST(vectored_pipe),
	UTEST(poll_pipe_and_errors),
	UTEST(poll_cancel_and_destroy),
	UTEST(eventfd_semantics),
	UTEST(resfd_signals_after_event),
	UTEST(poll_on_eventfd),
	UTEST(rwf_nowait_pipe),
	UTEST(append_ignores_offset),
	UTEST(pgetevents_mask_and_errors),
	UTEST(pgetevents_interrupted),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "aio_feat", cases, sizeof(cases) / sizeof(cases[0]));
}
