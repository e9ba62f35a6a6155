/* ulib_posix.c: the newlib glue and POSIX wrappers on a Linux-numbered kernel: pipe/fork/waitpid, signals, time, mmap. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include "aiokern.h"
#include "lib/ktap.h"

/* The child writes into a pipe and exits 42; the parent reads it and reaps the child. */
static int case_fork_pipe_wait(void)
{
	int fds[2], status = 0;
	char buf[8] = { 0 };
	pid_t pid;

	if (pipe(fds) < 0)
		return 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		_exit(write(fds[1], "ping", 4) == 4 ? 42 : 1);
	}
	close(fds[1]);
	return pid > 0 && read(fds[0], buf, sizeof(buf)) == 4 && !strcmp(buf, "ping") &&
	       read(fds[0], buf, 1) == 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 42 && close(fds[0]) == 0;
}

/* newlib's SIGUSR1 (30) goes out as the kernel's 10 and comes back in the wait status as 30. */
static int case_signal_numbers(void)
{
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGUSR1);
		_exit(3);
	}
	return pid > 0 && wait(&status) == pid && WIFSIGNALED(status) &&
	       WTERMSIG(status) == SIGUSR1;
}

static int case_errno(void)
{
	char c;

	return read(-1, &c, 1) == -1 && errno == EBADF &&
	       open("/nonexistent/x", O_RDONLY) == -1 && errno == ENOENT &&
	       lseek(-1, 0, SEEK_SET) == -1 && errno == EBADF;
}

static int case_time(void)
{
	struct timespec a, b, nap = { 0, 20 * 1000 * 1000 };
	struct timeval tv;
	long long ns;

	if (clock_gettime(CLOCK_MONOTONIC, &a) || nanosleep(&nap, NULL) ||
	    clock_gettime(CLOCK_MONOTONIC, &b) || gettimeofday(&tv, NULL))
		return 0;
	ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
	return ns >= 20000000 && ns < 2000000000 && tv.tv_sec > 1500000000 &&
	       time(NULL) >= tv.tv_sec && clock_gettime(12345, &a) == -1 && errno == EINVAL;
}

static int case_pread_dup(const char *path)
{
	char buf[4] = { 0 };
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_APPEND, 0600), fd2, ok;

	if (fd < 0)
		return 0;
	ok = write(fd, "abcdef", 6) == 6 && pwrite(fd, "XY", 2, 0) == 2 &&
	     pread(fd, buf, 3, 5) >= 1 && (fd2 = dup(fd)) > fd && dup2(fd, 20) == 20 &&
	     close(fd2) == 0 && close(20) == 0 && fsync(fd) == 0 && fdatasync(fd) == 0;
	close(fd);
	unlink(path);
	return ok;
}

static int case_memory(void)
{
	char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *big = malloc(4 << 20);
	void *al = NULL;
	int ok;

	if (m == MAP_FAILED || !big)
		return 0;
	m[8191] = 1;
	big[(4 << 20) - 1] = 2;
	ok = munmap(m, 8192) == 0 && posix_memalign(&al, 4096, 512) == 0 &&
	     ((unsigned long)al & 4095) == 0 && sched_yield() == 0;
	free(big);
	free(al);
	return ok;
}

/* mmap2's sixth argument travels in ebp: map a file at a page offset and read it there. */
static int case_mmap_file_offset(const char *path)
{
	static char page[4096];
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600), ok = 0;
	char *m;

	if (fd < 0)
		return 0;
	memset(page, 'a', sizeof(page));
	if (write(fd, page, 4096) == 4096 && write(fd, "second page", 11) == 11) {
		m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 4096);
		ok = m != MAP_FAILED && memcmp(m, "second page", 11) == 0 && munmap(m, 4096) == 0 &&
		     mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 100) == MAP_FAILED && errno == EINVAL;
	}
	close(fd);
	unlink(path);
	return ok;
}

int main(void)
{
	struct ktap t;

	ktap_begin(&t, "ulib_posix", 7);
	ktap_case(&t, "fork_pipe_waitpid", case_fork_pipe_wait(), NULL);
	ktap_case(&t, "signal_numbers_translated", case_signal_numbers(), NULL);
	ktap_case(&t, "errno_set", case_errno(), NULL);
	ktap_case(&t, "clock_nanosleep_gettimeofday", case_time(), NULL);
	ktap_case(&t, "pread_pwrite_dup_fsync", case_pread_dup("ulib_posix.tmp"), NULL);
	ktap_case(&t, "mmap_malloc_memalign", case_memory(), NULL);
	ktap_case(&t, "mmap2_file_offset_in_ebp", case_mmap_file_offset("ulib_mmap.tmp"), NULL);
	return ktap_end(&t);
}
