/* test_posix_aio.c: the "posix_aio" suite: POSIX <aio.h> on the real kernel (ramfs files, pipes). */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "utest.h"

#define BIG	100000		/* more than a pipe holds (64 KiB) */

static void prep(struct aiocb *cb, int fd, volatile void *buf, size_t n, off_t off)
{
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = fd;
	cb->aio_buf = buf;
	cb->aio_nbytes = n;
	cb->aio_offset = off;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
}

/* Wait for cb alone, without limit; its aio_return. */
static ssize_t wait_one(struct aiocb *cb)
{
	const struct aiocb *list[1] = { cb };

	while (aio_error(cb) == EINPROGRESS)
		if (aio_suspend(list, 1, NULL) < 0)
			return -2;
	return aio_return(cb);
}

/* A child that writes data to fd after ms milliseconds. */
static pid_t late_writer(int fd, const char *data, int ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		usleep(ms * 1000);
		_exit(write(fd, data, strlen(data)) == (ssize_t)strlen(data) ? 0 : 1);
	}
	return pid;
}

static int ramfs_write_then_read(void)
{
	struct aiocb w, r;
	char out[5000], in[5000];
	int fd = open("paio.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK(fd >= 0);
	for (int i = 0; i < (int)sizeof(out); i++)
		out[i] = (char)(i * 31 + 7);
	prep(&w, fd, out, sizeof(out), 100);
	CHECK_EQ(aio_write(&w), 0);
	CHECK_EQ(wait_one(&w), sizeof(out));
	CHECK_EQ(aio_error(&w), 0);
	CHECK_ERR(aio_return(&w), EINVAL);		/* returned once already */
	prep(&r, fd, in, sizeof(in), 100);
	CHECK_EQ(aio_read(&r), 0);
	CHECK_EQ(wait_one(&r), sizeof(in));
	CHECK(!memcmp(in, out, sizeof(out)));
	prep(&r, fd, in, sizeof(in), 4000);		/* a short read at the end */
	CHECK_EQ(aio_read(&r), 0);
	CHECK_EQ(wait_one(&r), 1100);
	CHECK_EQ(lseek(fd, 0, SEEK_END), 5100);
	close(fd);
	unlink("paio.dat");
	return 0;
}

/* EINPROGRESS while a pipe read waits, then 0 and the count. */
static int pipe_read_in_progress_then_done(void)
{
	struct aiocb r;
	char buf[16] = { 0 };
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	prep(&r, fds[0], buf, sizeof(buf), 0);
	CHECK_EQ(aio_read(&r), 0);
	CHECK_EQ(aio_error(&r), EINPROGRESS);
	CHECK_ERR(aio_return(&r), EINVAL);		/* not finished */
	CHECK_ERR(aio_read(&r), EINVAL);		/* still in flight */
	CHECK_EQ(write(fds[1], "posix", 5), 5);
	CHECK_EQ(wait_one(&r), 5);
	CHECK(!memcmp(buf, "posix", 5));
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int pipe_write_then_read(void)
{
	struct aiocb w, r;
	char in[8] = { 0 };
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	prep(&w, fds[1], "8 bytes!", 8, 0);
	prep(&r, fds[0], in, sizeof(in), 0);
	CHECK_EQ(aio_write(&w), 0);
	CHECK_EQ(aio_read(&r), 0);
	CHECK_EQ(wait_one(&w), 8);
	CHECK_EQ(wait_one(&r), 8);
	CHECK(!memcmp(in, "8 bytes!", 8));
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int suspend_timeout_is_eagain(void)
{
	struct timespec tmo = { 0, 20000000L };
	const struct aiocb *list[3];
	struct aiocb r;
	char buf[4];
	long long t0, dt;
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	prep(&r, fds[0], buf, sizeof(buf), 0);
	CHECK_EQ(aio_read(&r), 0);
	list[0] = NULL;					/* NULL entries are ignored */
	list[1] = &r;
	list[2] = NULL;
	t0 = utest_now_ns();
	CHECK_ERR(aio_suspend(list, 3, &tmo), EAGAIN);
	dt = utest_now_ns() - t0;
	CHECK(dt >= 20000000LL);
	utest_log("aio_suspend with a 20 ms timeout: EAGAIN after %lld us", dt / 1000);
	tmo.tv_nsec = 0;
	CHECK_ERR(aio_suspend(list, 3, &tmo), EAGAIN);	/* a poll */
	tmo.tv_nsec = -1;
	CHECK_ERR(aio_suspend(list, 3, &tmo), EINVAL);
	CHECK_EQ(aio_error(&r), EINPROGRESS);
	CHECK_EQ(aio_cancel(fds[0], &r), AIO_CANCELED);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int suspend_without_timeout_waits(void)
{
	struct aiocb r, done;
	const struct aiocb *list[2] = { &r, &done };
	char buf[8];
	long long t0;
	int fds[2], null = open("/dev/null", O_WRONLY);
	pid_t pid;

	CHECK_EQ(pipe(fds), 0);
	prep(&r, fds[0], buf, sizeof(buf), 0);
	CHECK_EQ(aio_read(&r), 0);
	t0 = utest_now_ns();
	pid = late_writer(fds[1], "wake", 30);
	CHECK_EQ(aio_suspend(list, 1, NULL), 0);
	CHECK(utest_now_ns() - t0 >= 29000000LL);
	CHECK_EQ(aio_error(&r), 0);
	CHECK_EQ(aio_return(&r), 4);
	CHECK(utest_child_ok(pid));
	prep(&r, fds[0], buf, sizeof(buf), 0);		/* pending, with one finished */
	CHECK_EQ(aio_read(&r), 0);
	prep(&done, null, buf, 3, 0);
	CHECK_EQ(aio_write(&done), 0);
	CHECK_EQ(aio_suspend(list, 2, NULL), 0);	/* returns for the finished one */
	CHECK_EQ(aio_error(&r), EINPROGRESS);
	CHECK_EQ(aio_return(&done), 3);
	CHECK_EQ(aio_cancel(fds[0], NULL), AIO_CANCELED);
	close(fds[0]);
	close(fds[1]);
	close(null);
	return 0;
}

static int cancel_pending_and_finished(void)
{
	struct aiocb r, w;
	char buf[8];
	int fds[2], null = open("/dev/null", O_WRONLY);

	CHECK_EQ(pipe(fds), 0);
	prep(&r, fds[0], buf, sizeof(buf), 0);
	CHECK_EQ(aio_read(&r), 0);
	CHECK_ERR(aio_cancel(null, &r), EINVAL);	/* the aiocb is for another fd */
	CHECK_EQ(aio_cancel(fds[0], &r), AIO_CANCELED);
	CHECK_EQ(aio_error(&r), ECANCELED);
	CHECK_ERR(aio_return(&r), ECANCELED);
	CHECK_EQ(aio_cancel(fds[0], &r), AIO_ALLDONE);	/* nothing left to cancel */
	CHECK_EQ(write(fds[1], "left", 4), 4);		/* the cancelled read took none */
	CHECK_EQ(read(fds[0], buf, sizeof(buf)), 4);
	prep(&w, null, "done", 4, 0);
	CHECK_EQ(aio_write(&w), 0);
	CHECK_EQ(aio_cancel(null, &w), AIO_ALLDONE);	/* finished inside io_submit */
	CHECK_EQ(aio_return(&w), 4);
	CHECK_EQ(aio_cancel(null, NULL), AIO_ALLDONE);
	close(fds[0]);
	close(fds[1]);
	close(null);
	return 0;
}

/* A pipe write that has moved some bytes cannot be withdrawn. */
static int cancel_partial_write_not_canceled(void)
{
	static char out[BIG], in[BIG];
	struct aiocb w;
	size_t got = 0;
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	for (int i = 0; i < BIG; i++)
		out[i] = (char)(i ^ (i >> 7));
	prep(&w, fds[1], out, BIG, 0);
	CHECK_EQ(aio_write(&w), 0);
	CHECK_EQ(aio_error(&w), EINPROGRESS);
	CHECK_EQ(aio_cancel(fds[1], &w), AIO_NOTCANCELED);
	CHECK_EQ(aio_cancel(fds[1], NULL), AIO_NOTCANCELED);
	CHECK_EQ(aio_error(&w), EINPROGRESS);
	while (got < BIG) {
		ssize_t n = read(fds[0], in + got, BIG - got);
		CHECK(n > 0);
		got += n;
	}
	CHECK_EQ(wait_one(&w), BIG);
	CHECK(!memcmp(in, out, BIG));
	close(fds[0]);
	close(fds[1]);
	return 0;
}

/* aio_cancel(fd, NULL) cancels every request on fd, and only on fd. */
static int cancel_all_for_fd(void)
{
	struct aiocb r[3];
	char buf[3][4];
	int a[2], b[2];

	CHECK_EQ(pipe(a), 0);
	CHECK_EQ(pipe(b), 0);
	prep(&r[0], a[0], buf[0], 4, 0);
	prep(&r[1], a[0], buf[1], 4, 0);
	prep(&r[2], b[0], buf[2], 4, 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(aio_read(&r[i]), 0);
	CHECK_EQ(aio_cancel(a[0], NULL), AIO_CANCELED);
	CHECK_EQ(aio_error(&r[0]), ECANCELED);
	CHECK_EQ(aio_error(&r[1]), ECANCELED);
	CHECK_EQ(aio_error(&r[2]), EINPROGRESS);
	CHECK_EQ(write(b[1], "bbbb", 4), 4);
	CHECK_EQ(wait_one(&r[2]), 4);
	for (int i = 0; i < 2; i++) {
		close(a[i]);
		close(b[i]);
	}
	return 0;
}

static int fsync_sync_and_dsync(void)
{
	struct aiocb s, d;
	int fd = open("paio.sync", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK(fd >= 0);
	CHECK_EQ(write(fd, "x", 1), 1);
	prep(&s, fd, NULL, 0, 0);
	prep(&d, fd, NULL, 0, 0);
	CHECK_EQ(aio_fsync(O_SYNC, &s), 0);
	CHECK_EQ(aio_fsync(O_DSYNC, &d), 0);
	CHECK_EQ(wait_one(&s), 0);
	CHECK_EQ(wait_one(&d), 0);
	CHECK_ERR(aio_fsync(O_RDWR, &s), EINVAL);
	close(fd);
	unlink("paio.sync");
	prep(&s, fd, NULL, 0, 0);			/* closed: the request fails, as glibc's */
	CHECK_EQ(aio_fsync(O_SYNC, &s), 0);
	CHECK_EQ(aio_error(&s), EBADF);
	CHECK_ERR(aio_return(&s), EBADF);
	return 0;
}

static int lio_listio_wait(void)
{
	struct aiocb cb[4], *list[5];
	char out[3][100], in[300];
	int fd = open("paio.lio", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK(fd >= 0);
	for (int i = 0; i < 3; i++) {
		memset(out[i], 'a' + i, 100);
		prep(&cb[i], fd, out[i], 100, i * 100);
		cb[i].aio_lio_opcode = LIO_WRITE;
		list[i] = &cb[i];
	}
	prep(&cb[3], fd, NULL, 0, 0);
	cb[3].aio_lio_opcode = LIO_NOP;
	list[3] = &cb[3];
	list[4] = NULL;
	CHECK_EQ(lio_listio(LIO_WAIT, list, 5, NULL), 0);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(aio_error(&cb[i]), 0);
		CHECK_EQ(aio_return(&cb[i]), 100);
	}
	prep(&cb[0], fd, in, sizeof(in), 0);
	cb[0].aio_lio_opcode = LIO_READ;
	CHECK_EQ(lio_listio(LIO_WAIT, list, 1, NULL), 0);
	CHECK_EQ(aio_return(&cb[0]), 300);
	CHECK(in[0] == 'a' && in[150] == 'b' && in[299] == 'c');
	close(fd);
	unlink("paio.lio");
	return 0;
}

static int lio_listio_nowait(void)
{
	struct aiocb cb[2], *list[2] = { &cb[0], &cb[1] };
	char buf[2][3];
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	for (int i = 0; i < 2; i++) {
		prep(&cb[i], fds[0], buf[i], 3, 0);
		cb[i].aio_lio_opcode = LIO_READ;
	}
	CHECK_EQ(lio_listio(LIO_NOWAIT, list, 2, NULL), 0);	/* returns at once */
	CHECK_EQ(aio_error(&cb[0]), EINPROGRESS);
	CHECK_EQ(aio_error(&cb[1]), EINPROGRESS);
	CHECK_EQ(write(fds[1], "onetwo", 6), 6);
	CHECK_EQ(wait_one(&cb[0]), 3);
	CHECK_EQ(wait_one(&cb[1]), 3);
	CHECK(!memcmp(buf[0], "one", 3) && !memcmp(buf[1], "two", 3));
	close(fds[0]);
	close(fds[1]);
	return 0;
}

/* One request the kernel refuses: LIO_WAIT fails with EIO, the others still run. */
static int lio_listio_reports_failure(void)
{
	struct aiocb cb[2], *list[2] = { &cb[0], &cb[1] };
	int null = open("/dev/null", O_WRONLY);

	prep(&cb[0], 77, "bad", 3, 0);
	prep(&cb[1], null, "good", 4, 0);
	cb[0].aio_lio_opcode = cb[1].aio_lio_opcode = LIO_WRITE;
	CHECK_ERR(lio_listio(LIO_WAIT, list, 2, NULL), EIO);
	CHECK_EQ(aio_error(&cb[0]), EBADF);
	CHECK_ERR(aio_return(&cb[0]), EBADF);
	CHECK_EQ(aio_error(&cb[1]), 0);
	CHECK_EQ(aio_return(&cb[1]), 4);
	CHECK_ERR(lio_listio(7, list, 2, NULL), EINVAL);
	close(null);
	return 0;
}

/* Notifications that cannot be sent are EINVAL: no signal, no function. */
static int sigevent_checked(void)
{
	struct sigevent sig = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = 0 };
	struct aiocb cb, *list[1] = { &cb };
	int null = open("/dev/null", O_WRONLY);

	prep(&cb, null, "n", 1, 0);
	CHECK_EQ(aio_write(&cb), 0);			/* SIGEV_NONE */
	CHECK_EQ(wait_one(&cb), 1);
	cb.aio_sigevent.sigev_notify = SIGEV_SIGNAL;
	cb.aio_sigevent.sigev_signo = 0;
	CHECK_ERR(aio_write(&cb), EINVAL);
	cb.aio_sigevent.sigev_signo = SIGEMT;		/* no kernel signal */
	CHECK_ERR(aio_read(&cb), EINVAL);
	cb.aio_sigevent.sigev_notify = SIGEV_THREAD;	/* no function */
	CHECK_ERR(aio_fsync(O_SYNC, &cb), EINVAL);
	cb.aio_sigevent.sigev_notify = 77;
	CHECK_ERR(aio_write(&cb), EINVAL);
	prep(&cb, null, "n", 1, 0);
	cb.aio_lio_opcode = LIO_WRITE;
	CHECK_ERR(lio_listio(LIO_NOWAIT, list, 1, &sig), EINVAL);
	sig.sigev_notify = SIGEV_NONE;
	CHECK_EQ(lio_listio(LIO_WAIT, list, 1, &sig), 0);
	CHECK_EQ(aio_return(&cb), 1);
	close(null);
	return 0;
}

static volatile int note_hits, note_code, note_value, note_signo;
static volatile pthread_t note_thread;

static void on_note(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	note_hits++;
	note_signo = sig;
	note_code = si->si_code;
	note_value = si->si_value.sival_int;
}

static int install_note(int sig)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO };

	sa.sa_sigaction = on_note;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, 0);
}

/* Wait up to ms for *flag to reach want. */
static int wait_flag(volatile int *flag, int want, int ms)
{
	for (int i = 0; i < ms && *flag < want; i++)
		usleep(1000);
	return *flag >= want;
}

/* SIGEV_SIGNAL: the signal comes when the request completes, with
 * si_code SI_ASYNCIO and the sigevent's value; never before. */
static int sigev_signal_on_completion(void)
{
	struct aiocb cb;
	char buf[8];
	int fds[2];
	pid_t w;

	CHECK_EQ(install_note(SIGUSR1), 0);
	CHECK_EQ(pipe(fds), 0);
	prep(&cb, fds[0], buf, 4, 0);
	cb.aio_sigevent.sigev_notify = SIGEV_SIGNAL;
	cb.aio_sigevent.sigev_signo = SIGUSR1;
	cb.aio_sigevent.sigev_value.sival_int = 4242;
	CHECK_EQ(aio_read(&cb), 0);
	usleep(30000);
	CHECK_EQ(note_hits, 0);				/* nothing has arrived */
	CHECK_EQ(aio_error(&cb), EINPROGRESS);
	w = late_writer(fds[1], "sig!", 10);
	CHECK(wait_flag(&note_hits, 1, 3000));
	CHECK_EQ(note_signo, SIGUSR1);
	CHECK_EQ(note_code, SI_ASYNCIO);
	CHECK_EQ(note_value, 4242);
	CHECK_EQ(aio_error(&cb), 0);			/* done before the signal */
	CHECK_EQ(aio_return(&cb), 4);
	CHECK(!memcmp(buf, "sig!", 4));
	CHECK(utest_child_ok(w));
	usleep(20000);
	CHECK_EQ(note_hits, 1);				/* once */
	return 0;
}

static void thread_note(union sigval v)
{
	note_value = v.sival_int;
	note_thread = pthread_self();
	__atomic_add_fetch(&note_hits, 1, __ATOMIC_SEQ_CST);
}

/* SIGEV_THREAD: the function runs in a thread of its own with the value. */
static int sigev_thread_on_completion(void)
{
	struct aiocb cb;
	int null = open("/dev/null", O_WRONLY);

	prep(&cb, null, "t", 1, 0);
	cb.aio_sigevent.sigev_notify = SIGEV_THREAD;
	cb.aio_sigevent.sigev_notify_function = thread_note;
	cb.aio_sigevent.sigev_value.sival_int = 77;
	CHECK_EQ(aio_write(&cb), 0);
	CHECK(wait_flag(&note_hits, 1, 3000));
	CHECK_EQ(note_value, 77);
	CHECK(!pthread_equal(note_thread, pthread_self()));
	CHECK_EQ(wait_one(&cb), 1);
	close(null);
	return 0;
}

/* A request the kernel refuses (a write on a read-only descriptor, a read of
 * fd -1) is accepted and ends with EBADF, as glibc's: aio_error and aio_return
 * report it, aio_suspend returns, its notification runs. */
static int refused_request_ends_with_its_error(void)
{
	const struct aiocb *list[1];
	struct aiocb w, r;
	char buf[8] = "ro";
	int fd = open("paio.ro", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK(fd >= 0);
	close(fd);
	fd = open("paio.ro", O_RDONLY);
	CHECK(fd >= 0);
	note_hits = 0;
	prep(&w, fd, buf, sizeof(buf), 0);
	w.aio_sigevent.sigev_notify = SIGEV_THREAD;
	w.aio_sigevent.sigev_notify_function = thread_note;
	w.aio_sigevent.sigev_value.sival_int = 91;
	CHECK_EQ(aio_write(&w), 0);
	list[0] = &w;
	CHECK_EQ(aio_suspend(list, 1, NULL), 0);
	CHECK_EQ(aio_error(&w), EBADF);
	CHECK(wait_flag(&note_hits, 1, 3000));
	CHECK_EQ(note_value, 91);
	CHECK_ERR(aio_return(&w), EBADF);
	prep(&r, -1, buf, sizeof(buf), 0);
	CHECK_EQ(aio_read(&r), 0);
	CHECK_EQ(aio_error(&r), EBADF);
	CHECK_ERR(aio_return(&r), EBADF);
	CHECK_ERR(aio_return(&r), EINVAL);		/* returned once already */
	close(fd);
	unlink("paio.ro");
	return 0;
}

/* lio_listio(LIO_NOWAIT) with a sigevent: one signal, once every listed
 * request is done. */
static int lio_nowait_signal_for_the_list(void)
{
	struct sigevent sig = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2 };
	struct aiocb cb[3], *list[3] = { &cb[0], &cb[1], &cb[2] };
	char buf[3][4];
	int fds[2];

	CHECK_EQ(install_note(SIGUSR2), 0);
	CHECK_EQ(pipe(fds), 0);
	for (int i = 0; i < 3; i++) {
		prep(&cb[i], fds[0], buf[i], 2, 0);
		cb[i].aio_lio_opcode = LIO_READ;
	}
	sig.sigev_value.sival_int = 99;
	CHECK_EQ(lio_listio(LIO_NOWAIT, list, 3, &sig), 0);
	CHECK_EQ(write(fds[1], "aabb", 4), 4);		/* two of the three */
	usleep(50000);
	CHECK_EQ(note_hits, 0);
	CHECK_EQ(write(fds[1], "cc", 2), 2);
	CHECK(wait_flag(&note_hits, 1, 3000));
	CHECK_EQ(note_value, 99);
	CHECK_EQ(note_code, SI_ASYNCIO);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(aio_return(&cb[i]), 2);
	usleep(20000);
	CHECK_EQ(note_hits, 1);
	return 0;
}

#define RT_REQS	128

static volatile int rt_hits, rt_bad;
static volatile unsigned char rt_seen[RT_REQS];

/* Counts each request's signal by its si_value (the aiocb's index). */
static void on_rt_note(int sig, siginfo_t *si, void *uc)
{
	int i = si->si_value.sival_int;

	(void)uc;
	if (sig != SIGRTMIN || si->si_signo != SIGRTMIN || si->si_code != SI_ASYNCIO ||
	    i < 0 || i >= RT_REQS || rt_seen[i]++)
		rt_bad++;
	rt_hits++;
}

/* 128 aio_reads with SIGEV_SIGNAL SIGRTMIN: a real-time signal is queued per
 * request, so exactly 128 handler calls come, each with its aiocb's value
 * (with a standard signal they would merge). */
static int rt_signal_per_request(void)
{
	static struct aiocb cb[RT_REQS];
	static char buf[RT_REQS][16];
	struct sigaction sa = { .sa_flags = SA_SIGINFO };
	sigset_t rt;
	int fd = open("paio_rt.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK(fd >= 0);
	CHECK_EQ(write(fd, "0123456789abcdef", 16), 16);
	sa.sa_sigaction = on_rt_note;
	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(SIGRTMIN, &sa, 0), 0);
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	CHECK_EQ(sigprocmask(SIG_BLOCK, &rt, 0), 0);	/* all queue up first */
	for (int i = 0; i < RT_REQS; i++) {
		prep(&cb[i], fd, buf[i], 16, 0);
		cb[i].aio_sigevent.sigev_notify = SIGEV_SIGNAL;
		cb[i].aio_sigevent.sigev_signo = SIGRTMIN;
		cb[i].aio_sigevent.sigev_value.sival_int = i;
		CHECK_EQ(aio_read(&cb[i]), 0);
	}
	for (int i = 0; i < RT_REQS; i++)
		CHECK_EQ(wait_one(&cb[i]), 16);
	usleep(20000);					/* the last notifications */
	CHECK_EQ(rt_hits, 0);
	CHECK_EQ(sigprocmask(SIG_UNBLOCK, &rt, 0), 0);
	CHECK_EQ(rt_hits, RT_REQS);
	CHECK_EQ(rt_bad, 0);
	for (int i = 0; i < RT_REQS; i++)
		CHECK_EQ(rt_seen[i], 1);
	close(fd);
	unlink("paio_rt.dat");
	return 0;
}

/* lio_listio(LIO_NOWAIT) notifying with SIGRTMIN + 2: taken by sigwaitinfo,
 * SI_ASYNCIO and the list's value. */
static int lio_rt_signal_for_the_list(void)
{
	struct sigevent sig = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN + 2 };
	struct aiocb cb[4], *list[4] = { &cb[0], &cb[1], &cb[2], &cb[3] };
	struct timespec ts = { 3, 0 };
	char buf[4][8];
	siginfo_t si;
	sigset_t w;
	int null = open("/dev/zero", O_RDONLY);

	CHECK(null >= 0);
	sigemptyset(&w);
	sigaddset(&w, SIGRTMIN + 2);
	CHECK_EQ(sigprocmask(SIG_BLOCK, &w, 0), 0);
	for (int i = 0; i < 4; i++) {
		prep(&cb[i], null, buf[i], 8, 0);
		cb[i].aio_lio_opcode = LIO_READ;
	}
	sig.sigev_value.sival_int = 2002;
	CHECK_EQ(lio_listio(LIO_NOWAIT, list, 4, &sig), 0);
	memset(&si, 0, sizeof(si));
	CHECK_EQ(sigtimedwait(&w, &si, &ts), SIGRTMIN + 2);
	CHECK_EQ(si.si_signo, SIGRTMIN + 2);
	CHECK_EQ(si.si_code, SI_ASYNCIO);
	CHECK_EQ(si.si_value.sival_int, 2002);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(aio_return(&cb[i]), 8);
	ts.tv_sec = 0;
	ts.tv_nsec = 20000000;
	CHECK_ERR(sigtimedwait(&w, &si, &ts), EAGAIN);	/* one for the list */
	close(null);
	return 0;
}

static pthread_t main_thread;
static volatile int poke_stop;

/* SIGUSR1 to the main thread every 50 ms until poke_stop: a poke that
 * lands before aio_suspend sleeps (a slow host) is followed by another. */
static void *poke_soon(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&poke_stop, __ATOMIC_SEQ_CST)) {
		usleep(50000);
		if (!__atomic_load_n(&poke_stop, __ATOMIC_SEQ_CST))
			pthread_kill(main_thread, SIGUSR1);
	}
	return 0;
}

/* aio_suspend returns -1 EINTR when a handler ran, with and without the
 * notifier thread reaping. */
static int suspend_interrupted_by_signal(void)
{
	struct aiocb cb, other;
	const struct aiocb *list[1] = { &cb };
	char buf[4];
	int fds[2], base, null = open("/dev/null", O_WRONLY);
	pthread_t t;

	CHECK_EQ(install_note(SIGUSR1), 0);
	CHECK_EQ(pipe(fds), 0);
	main_thread = pthread_self();
	for (int round = 0; round < 2; round++) {
		if (round == 1) {			/* start the notifier */
			base = note_hits;
			prep(&other, null, "x", 1, 0);
			other.aio_sigevent.sigev_notify = SIGEV_THREAD;
			other.aio_sigevent.sigev_notify_function = thread_note;
			CHECK_EQ(aio_write(&other), 0);
			CHECK(wait_flag(&note_hits, base + 1, 3000));
		}
		base = note_hits;
		prep(&cb, fds[0], buf, 1, 0);
		CHECK_EQ(aio_read(&cb), 0);
		poke_stop = 0;
		CHECK_EQ(pthread_create(&t, 0, poke_soon, 0), 0);
		CHECK_ERR(aio_suspend(list, 1, NULL), EINTR);
		__atomic_store_n(&poke_stop, 1, __ATOMIC_SEQ_CST);
		CHECK(note_hits > base);		/* the handler ran */
		pthread_join(t, 0);
		CHECK_EQ(aio_error(&cb), EINPROGRESS);	/* still waiting for data */
		CHECK_EQ(write(fds[1], "z", 1), 1);
		CHECK_EQ(wait_one(&cb), 1);
	}
	return 0;
}

/* The child of a process that used aio gets a context of its own. */
static int child_after_fork_has_its_own_context(void)
{
	struct aiocb w, r;
	char buf[4];
	int fds[2], null = open("/dev/null", O_WRONLY);
	pid_t pid;

	CHECK_EQ(pipe(fds), 0);
	prep(&w, null, "parent", 6, 0);
	CHECK_EQ(aio_write(&w), 0);
	CHECK_EQ(wait_one(&w), 6);
	prep(&r, fds[0], buf, sizeof(buf), 0);		/* in flight across the fork */
	CHECK_EQ(aio_read(&r), 0);
	pid = fork();
	if (pid == 0) {
		struct aiocb c;
		int ok;
		prep(&c, null, "child", 5, 0);
		ok = aio_write(&c) == 0 && wait_one(&c) == 5;
		ok &= aio_error(&r) == EINPROGRESS;	/* the parent's, not the child's */
		_exit(ok ? 0 : 1);
	}
	CHECK(utest_child_ok(pid));
	CHECK_EQ(write(fds[1], "mine", 4), 4);
	CHECK_EQ(wait_one(&r), 4);			/* the parent's read is intact */
	close(fds[0]);
	close(fds[1]);
	close(null);
	return 0;
}

/* A child's first aio call may reuse an aiocb the parent had in flight: the
 * child's library forgets the parent's requests before it checks the aiocb. */
static int child_reuses_parents_inflight_aiocb(void)
{
	struct aiocb r;
	char buf[8];
	int fds[2], null = open("/dev/null", O_WRONLY);
	pid_t pid;

	CHECK(null >= 0);
	CHECK_EQ(pipe(fds), 0);
	prep(&r, fds[0], buf, 4, 0);
	CHECK_EQ(aio_read(&r), 0);			/* waits for the pipe */
	pid = fork();
	if (pid == 0) {
		int ok;
		r.aio_fildes = null;			/* the same aiocb, fields reset */
		r.aio_buf = (volatile void *)"child";	/* by hand as POSIX allows (no */
		r.aio_nbytes = 5;			/* memset of the library's part) */
		ok = aio_write(&r) == 0 && wait_one(&r) == 5;
		_exit(ok ? 0 : 1);
	}
	CHECK(utest_child_ok(pid));
	CHECK_EQ(write(fds[1], "mine", 4), 4);
	CHECK_EQ(wait_one(&r), 4);
	close(fds[0]);
	close(fds[1]);
	close(null);
	return 0;
}

/* aio_reqprio (aio(7), glibc): 0..AIO_PRIO_DELTA_MAX, what sysconf says; a
 * request outside it is refused with EINVAL by aio_read/aio_write/aio_fsync,
 * and lio_listio fails the entry (EINVAL in it, -1 EIO from the call) while
 * the others complete. Inside it the priority is accepted and changes nothing. */
static int reqprio_range(void)
{
	struct aiocb a, b, *list[2] = { &a, &b };
	char buf[64] = "priority";
	int fd = open("prio.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK(fd >= 0);
	CHECK_EQ(sysconf(_SC_AIO_PRIO_DELTA_MAX), AIO_PRIO_DELTA_MAX);
	prep(&a, fd, buf, sizeof(buf), 0);
	a.aio_reqprio = -1;
	CHECK_ERR(aio_write(&a), EINVAL);
	CHECK_ERR(aio_read(&a), EINVAL);
	CHECK_ERR(aio_fsync(O_SYNC, &a), EINVAL);
	a.aio_reqprio = AIO_PRIO_DELTA_MAX + 1;
	CHECK_ERR(aio_write(&a), EINVAL);
	a.aio_reqprio = AIO_PRIO_DELTA_MAX;
	CHECK_EQ(aio_write(&a), 0);
	CHECK_EQ(wait_one(&a), sizeof(buf));
	prep(&a, fd, buf, sizeof(buf), 0);
	prep(&b, fd, buf, sizeof(buf), 64);
	a.aio_lio_opcode = b.aio_lio_opcode = LIO_WRITE;
	b.aio_reqprio = -5;
	CHECK_ERR(lio_listio(LIO_WAIT, list, 2, NULL), EIO);
	CHECK_EQ(aio_error(&a), 0);
	CHECK_EQ(aio_return(&a), sizeof(buf));
	CHECK_EQ(aio_error(&b), EINVAL);
	CHECK_EQ(aio_return(&b), -1);
	close(fd);
	unlink("prio.dat");
	return 0;
}

/*
 * aio_suspend and lio_listio(LIO_WAIT) are cancellation points (pthread(3)):
 * a thread cancelled as it waits ends (its cleanup handler ran) and the
 * request goes on; with cancellation disabled the wait completes.  A cancel
 * that lands as aio_suspend takes the completion from the kernel must not
 * lose it: the request still reports its end.
 */
struct pa_cancel {
	struct aiocb cb;
	int fds[2];
	int lio;		/* wait in lio_listio (else aio_suspend) */
	int disabled;
	volatile int cleanup_ran, returned;
	volatile long result;
	char buf[8];
};

static void pa_cancel_cleanup(void *arg)
{
	((struct pa_cancel *)arg)->cleanup_ran = 1;
}

static void *pa_cancel_waiter(void *arg)
{
	struct pa_cancel *c = arg;
	struct aiocb *list[1] = { &c->cb };

	pthread_cleanup_push(pa_cancel_cleanup, c);
	if (c->disabled)
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, 0);
	if (c->lio)
		c->result = lio_listio(LIO_WAIT, list, 1, NULL);
	else
		while ((c->result = aio_suspend((const struct aiocb *const *)list, 1, NULL)) == 0 &&
		       aio_error(&c->cb) == EINPROGRESS)
			;
	c->returned = 1;
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, 0);
	pthread_testcancel();
	pthread_cleanup_pop(0);
	return NULL;
}

/* One run: a read of 8 bytes on an empty pipe, the waiter cancelled in its
 * wait (or, disabled, after the data came): 0, or 1 after a failed check. */
static int pa_cancel_run(int lio, int disabled)
{
	struct pa_cancel c = { .lio = lio, .disabled = disabled };
	void *res = NULL;
	pthread_t t;

	CHECK_EQ(pipe(c.fds), 0);
	prep(&c.cb, c.fds[0], c.buf, 8, 0);
	if (!lio)
		CHECK_EQ(aio_read(&c.cb), 0);
	CHECK_EQ(pthread_create(&t, 0, pa_cancel_waiter, &c), 0);
	usleep(20000);			/* asleep in the wait by now */
	CHECK_EQ(pthread_cancel(t), 0);
	if (disabled)
		CHECK_EQ(write(c.fds[1], "8 bytes.", 8), 8);
	CHECK_EQ(pthread_join(t, &res), 0);
	CHECK(res == PTHREAD_CANCELED);
	CHECK(c.cleanup_ran);
	CHECK_EQ(c.returned, disabled);
	if (disabled)
		CHECK_EQ(c.result, 0);
	else
		CHECK_EQ(write(c.fds[1], "8 bytes.", 8), 8);	/* the request went on */
	CHECK_EQ(wait_one(&c.cb), 8);
	close(c.fds[0]);
	close(c.fds[1]);
	return 0;
}

static int suspend_and_lio_wait_cancellable(void)
{
	for (int lio = 0; lio < 2; lio++)
		for (int disabled = 0; disabled < 2; disabled++)
			if (pa_cancel_run(lio, disabled)) {
				utest_log("%s, cancellation %s: failed", lio ? "lio_listio" : "aio_suspend",
					  disabled ? "disabled" : "enabled");
				return 1;
			}
	return 0;
}

#define PA_RACE_ROUNDS	1000

static void *pa_race_waiter(void *arg)
{
	struct aiocb *cb = arg;
	const struct aiocb *list[1] = { cb };

	for (;;) {
		aio_suspend(list, 1, NULL);
		pthread_testcancel();	/* the request done: aio_suspend returns at once */
	}
	return NULL;
}

/* One round: the request's end written as the waiter is cancelled; 1 when
 * the request never reports it (lost), 0, or -1 when the round went wrong. */
static int pa_race_round(int fds[2])
{
	const struct timespec wait = { 0, 50000000 };
	struct aiocb cb;
	const struct aiocb *list[1] = { &cb };
	char buf[8];
	void *res = NULL;
	pthread_t t;

	prep(&cb, fds[0], buf, 8, 0);
	if (aio_read(&cb) || pthread_create(&t, 0, pa_race_waiter, &cb))
		return -1;
	utest_spin_random(2000);
	if (write(fds[1], "8 bytes.", 8) != 8)
		return -1;
	utest_spin_random(300);
	if (pthread_cancel(t) || pthread_join(t, &res) || res != PTHREAD_CANCELED)
		return -1;
	if (aio_error(&cb) == EINPROGRESS && aio_suspend(list, 1, &wait) < 0)
		return 1;
	return aio_return(&cb) == 8 ? 0 : -1;
}

static int suspend_cancel_keeps_completion(void)
{
	int fds[2], lost = 0, n;

	alarm(200);
	CHECK_EQ(pipe(fds), 0);
	for (int i = 0; i < PA_RACE_ROUNDS; i++) {
		CHECK((n = pa_race_round(fds)) >= 0);
		lost += n;
	}
	utest_log("%d rounds: %d completions lost", PA_RACE_ROUNDS, lost);
	CHECK_EQ(lost, 0);
	return 0;
}

/* An aiocb is reused as it stands after aio_return (POSIX asks no clearing):
 * aio_cancel(fd, NULL) finds it again in flight and cancels it. (Review 6d:
 * the mark a first aio_cancel(fd, NULL) left on it made the second skip it,
 * AIO_ALLDONE with the read still queued.) */
static int cancel_all_finds_reused_aiocb(void)
{
	struct aiocb r;
	char buf[4];
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	prep(&r, fds[0], buf, sizeof(buf), 0);
	CHECK_EQ(aio_read(&r), 0);
	CHECK_EQ(aio_cancel(fds[0], NULL), AIO_CANCELED);
	CHECK_ERR(aio_return(&r), ECANCELED);
	CHECK_EQ(aio_read(&r), 0);			/* the same aiocb, not cleared */
	CHECK_EQ(aio_error(&r), EINPROGRESS);
	CHECK_EQ(aio_cancel(fds[0], NULL), AIO_CANCELED);
	CHECK_EQ(aio_error(&r), ECANCELED);
	CHECK_ERR(aio_return(&r), ECANCELED);
	CHECK_EQ(write(fds[1], "left", 4), 4);		/* no read took it */
	CHECK_EQ(read(fds[0], buf, sizeof(buf)), 4);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(ramfs_write_then_read),
	UTEST(pipe_read_in_progress_then_done),
	UTEST(pipe_write_then_read),
	UTEST(suspend_timeout_is_eagain),
	UTEST(suspend_without_timeout_waits),
	UTEST(cancel_pending_and_finished),
	UTEST(cancel_partial_write_not_canceled),
	UTEST(cancel_all_for_fd),
	UTEST(fsync_sync_and_dsync),
	UTEST(refused_request_ends_with_its_error),
	UTEST(lio_listio_wait),
	UTEST(lio_listio_nowait),
	UTEST(lio_listio_reports_failure),
	UTEST(sigevent_checked),
	UTEST(sigev_signal_on_completion),
	UTEST(sigev_thread_on_completion),
	UTEST(lio_nowait_signal_for_the_list),
	UTEST(rt_signal_per_request),
	UTEST(lio_rt_signal_for_the_list),
	UTEST(suspend_interrupted_by_signal),
	UTEST(child_after_fork_has_its_own_context),
	UTEST(child_reuses_parents_inflight_aiocb),
	UTEST(reqprio_range),
	UTEST(suspend_and_lio_wait_cancellable),
	UTEST(suspend_cancel_keeps_completion),
	UTEST(cancel_all_finds_reused_aiocb),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "posix_aio", cases, sizeof(cases) / sizeof(cases[0]));
}
