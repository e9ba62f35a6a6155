/* test_pipe.c: the "pipe" suite: blocking, EOF, EPIPE and SIGPIPE, a 1 MiB transfer. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <aiokern.h>
#include <sys/mman.h>
#include "utest.h"

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
	static char chunk[65536];
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

static const struct utest_case cases[] = {
	UTEST(read_blocks_for_writer),
	UTEST(eof_when_writers_close),
	UTEST(epipe_and_sigpipe),
	UTEST(transfer_1mib),
	UTEST(writer_blocks_when_full),
	UTEST(not_seekable),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "pipe", cases, sizeof(cases) / sizeof(cases[0]));
}
