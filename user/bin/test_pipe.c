/* test_pipe.c: the "pipe" suite: blocking, EOF, EPIPE and SIGPIPE, a 1 MiB transfer,
 * O_NONBLOCK with threads racing for the bytes, Linux's 64 KiB capacity and F_SETPIPE_SZ. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <aiokern.h>
#include <sys/mman.h>
#include "utest.h"

/* <fcntl.h> gives struct iovec, as glibc's does (for vmsplice): a program that
 * includes only it for its iovecs builds (nothing above includes <sys/uio.h>). */
_Static_assert(sizeof(struct iovec) == 8, "struct iovec from <fcntl.h>");

static int read_blocks_for_writer(void)
{
	int fds[2], st;
	char buf[8];
	pid_t pid;

	CHECK_EQ(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		usleep(30000);
		write(fds[1], "late", 4);
		_exit(0);
	}
	close(fds[1]);
	CHECK_EQ(read(fds[0], buf, sizeof(buf)), 4);	/* waited for it */
	CHECK(!memcmp(buf, "late", 4));
	CHECK_EQ(read(fds[0], buf, sizeof(buf)), 0);	/* EOF: the writer is gone */
	waitpid(pid, &st, 0);
	close(fds[0]);
	return 0;
}

static int eof_when_writers_close(void)
{
	int fds[2];
	char c;

	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(write(fds[1], "x", 1), 1);
	close(fds[1]);
	CHECK_EQ(read(fds[0], &c, 1), 1);
	CHECK_EQ(read(fds[0], &c, 1), 0);
	close(fds[0]);
	return 0;
}

static int epipe_and_sigpipe(void)
{
	int fds[2], st;
	pid_t pid;

	CHECK_EQ(pipe(fds), 0);
	close(fds[0]);
	pid = fork();
	if (pid == 0) {
		write(fds[1], "x", 1);		/* no reader: SIGPIPE kills us */
		_exit(0);
	}
	waitpid(pid, &st, 0);
	CHECK(WIFSIGNALED(st));
	CHECK_EQ(WTERMSIG(st), SIGPIPE);
	close(fds[1]);
	return 0;
}

static uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352d;
	x ^= x >> 15;
	return x;
}

static int transfer_1mib(void)
{
	enum { TOTAL = 1 << 20 };
	static uint32_t buf[1024];
	static unsigned char in[3000];	/* odd size: words straddle reads */
	uint32_t word = 0, idx = 0, bad = 0, got = 0;
	int fds[2], st;
	pid_t pid;

	CHECK_EQ(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		for (uint32_t i = 0; i < TOTAL / 4; i += 1024) {
			for (int k = 0; k < 1024; k++)
				buf[k] = mix(i + k);
			if (write(fds[1], buf, sizeof(buf)) != sizeof(buf))
				_exit(1);
		}
		_exit(0);
	}
	close(fds[1]);
	for (ssize_t n; (n = read(fds[0], in, sizeof(in))) > 0; ) {
		for (ssize_t k = 0; k < n; k++, got++) {
			word |= (uint32_t)in[k] << (8 * (got % 4));
			if (got % 4 == 3) {
				bad += word != mix(idx++);
				word = 0;
			}
		}
	}
	CHECK_EQ(got, TOTAL);
	CHECK_EQ(bad, 0);
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(fds[0]);
	return 0;
}

static int writer_blocks_when_full(void)
{
	static char chunk[65536 + 4096];	/* one page more than the pipe holds */
	int fds[2], st;
	pid_t pid;

	CHECK_EQ(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {			/* writes more than the pipe holds */
		_exit(write(fds[1], chunk, sizeof(chunk)) == sizeof(chunk) ? 0 : 1);
	}
	close(fds[1]);
	usleep(30000);
	CHECK_EQ(waitpid(pid, &st, WNOHANG), 0);	/* still blocked */
	size_t total = 0;
	for (ssize_t n; (n = read(fds[0], chunk, sizeof(chunk))) > 0; )
		total += n;
	CHECK_EQ(total, sizeof(chunk));
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(fds[0]);
	return 0;
}

static int not_seekable(void)
{
	int fds[2];
	char c;

	CHECK_EQ(pipe(fds), 0);
	CHECK_ERR(lseek(fds[0], 0, SEEK_SET), ESPIPE);
	CHECK_ERR(pread(fds[0], &c, 1, 0), ESPIPE);
	CHECK_ERR(read(fds[1], &c, 1), EBADF);
	CHECK_ERR(write(fds[0], &c, 1), EBADF);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

/* Threads race for single bytes on one O_NONBLOCK pipe: a read that finds
 * the pipe emptied by another reader since the poll that said "readable"
 * must still answer -EAGAIN, never sleep (the stress_smp hang: three threads
 * asleep in a non-blocking read). After the last byte every reader must
 * leave by itself; one that does not is asleep in read, and is freed with
 * more bytes so that the case fails instead of hanging. The plan entry
 * pipe_nonblock_yield makes the window certain (nonblock_yield). */
#define NB_READERS	3
#define NB_BYTES	3000

static int nb_fds[2];
static volatile int nb_done;
static long nb_got, nb_left;

static void *nb_reader(void *arg __attribute__((unused)))
{
	char c;

	while (!nb_done || __atomic_load_n(&nb_got, __ATOMIC_RELAXED) < NB_BYTES) {
		long r = read(nb_fds[0], &c, 1);
		if (r == 1)
			__atomic_fetch_add(&nb_got, 1, __ATOMIC_RELAXED);
		else if (r < 0 && errno != EAGAIN)
			break;
	}
	__atomic_fetch_add(&nb_left, 1, __ATOMIC_RELAXED);
	return NULL;
}

static int nonblocking_read_races_never_sleep(void)
{
	pthread_t t[NB_READERS];
	char buf[64];
	long stuck;

	nb_done = 0;
	nb_got = nb_left = 0;
	CHECK_EQ(pipe(nb_fds), 0);
	CHECK_EQ(fcntl(nb_fds[0], F_SETFL, O_NONBLOCK), 0);
	for (int i = 0; i < NB_READERS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, nb_reader, 0), 0);
	for (int i = 0; i < NB_BYTES; i++) {
		if (i == NB_BYTES - 1)
			nb_done = 1;
		CHECK_EQ(write(nb_fds[1], "x", 1), 1);
		if (i % 16 == 0)
			sched_yield();
	}
	while (__atomic_load_n(&nb_got, __ATOMIC_RELAXED) < NB_BYTES)
		sched_yield();
	usleep(300000);				/* time to see the pipe empty and leave */
	stuck = NB_READERS - __atomic_load_n(&nb_left, __ATOMIC_RELAXED);
	memset(buf, 'y', sizeof(buf));
	CHECK_EQ(write(nb_fds[1], buf, NB_READERS), NB_READERS);	/* frees a stuck reader */
	for (int i = 0; i < NB_READERS; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	CHECK_EQ(stuck, 0);			/* no read slept */
	CHECK_EQ(fcntl(nb_fds[1], F_SETFL, O_NONBLOCK), 0);
	while (write(nb_fds[1], buf, sizeof(buf)) > 0)
		;
	CHECK_EQ(errno, EAGAIN);		/* full: the writer does not sleep either */
	close(nb_fds[0]);
	close(nb_fds[1]);
	return 0;
}

/* Read n bytes back and compare them with buf. */
static int pipe_read_back(int fd, const char *buf, size_t n)
{
	static char got[131072];
	size_t done = 0;

	while (done < n) {
		ssize_t r = read(fd, got + done, n - done);

		CHECK(r > 0);
		done += r;
	}
	CHECK(memcmp(got, buf, n) == 0);
	return 0;
}

/* Linux's capacity (pipe(7)): 64 KiB at first, so a writer of 64 KiB with no
 * reader yet returns and one byte more would wait; F_GETPIPE_SZ on either
 * end; F_SETPIPE_SZ rounds up to a power of two pages (0: one page), keeps
 * the bytes buffered, -EBUSY below them, -EINVAL past 2^31; above 1 MiB
 * (pipe-max-size) -EPERM (on purpose: Linux lets root past it, here the
 * buffer is one contiguous allocation); -EBADF on what is no pipe. A write
 * of PIPE_BUF bytes or less stays all or nothing in a one-page pipe. */
static int capacity_and_setpipe_sz(void)
{
	static char buf[65536 + 8192];
	int fds[2], nul = open("/dev/null", O_RDWR);

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + i / 251);
	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(fcntl(fds[0], F_GETPIPE_SZ), 65536);
	CHECK_EQ(fcntl(fds[1], F_GETPIPE_SZ), 65536);
	CHECK_EQ(write(fds[1], buf, 65536), 65536);	/* nobody reads: it still returns */
	CHECK_EQ(fcntl(fds[1], F_SETFL, O_NONBLOCK), 0);
	CHECK_ERR(write(fds[1], buf, 1), EAGAIN);
	CHECK_ERR(fcntl(fds[1], F_SETPIPE_SZ, 4096), EBUSY);
	CHECK_EQ(fcntl(fds[1], F_SETPIPE_SZ, 100000), 131072);
	CHECK_EQ(fcntl(fds[0], F_GETPIPE_SZ), 131072);
	CHECK_EQ(write(fds[1], buf + 65536, 8192), 8192);
	CHECK_EQ(pipe_read_back(fds[0], buf, sizeof(buf)), 0);	/* the bytes moved intact */
	CHECK_EQ(fcntl(fds[0], F_SETPIPE_SZ, 0), 4096);
	CHECK_ERR(fcntl(fds[0], F_SETPIPE_SZ, 2 * 1048576), EPERM);
	CHECK_ERR(fcntl(fds[0], F_SETPIPE_SZ, -1), EINVAL);
	CHECK_EQ(fcntl(fds[0], F_GETPIPE_SZ), 4096);
	CHECK_EQ(write(fds[1], "x", 1), 1);
	CHECK_ERR(write(fds[1], buf, 4096), EAGAIN);	/* PIPE_BUF: all or nothing */
	CHECK_EQ(write(fds[1], buf, 5000), 4095);	/* more than PIPE_BUF: what fits */
	CHECK_EQ(pipe_read_back(fds[0], "x", 1), 0);
	CHECK_EQ(pipe_read_back(fds[0], buf, 4095), 0);
	CHECK(nul >= 0);
	CHECK_ERR(fcntl(nul, F_GETPIPE_SZ), EBADF);
	CHECK_ERR(fcntl(nul, F_SETPIPE_SZ, 4096), EBADF);
	close(nul);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(read_blocks_for_writer),
	UTEST(eof_when_writers_close),
	UTEST(epipe_and_sigpipe),
	UTEST(transfer_1mib),
	UTEST(writer_blocks_when_full),
	UTEST(not_seekable),
	UTEST(nonblocking_read_races_never_sleep),
	UTEST(capacity_and_setpipe_sz),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "pipe", cases, sizeof(cases) / sizeof(cases[0]));
}
