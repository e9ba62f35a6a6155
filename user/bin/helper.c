/* helper.c: a small program the user test suites exec to check exec, exit and faults. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static long aio_nr(void)
{
	char buf[32] = { 0 };
	int fd = open("/proc/sys/fs/aio-nr", O_RDONLY);
	long n = fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0 ? atol(buf) : -1;

	if (fd >= 0)
		close(fd);
	return n;
}
static int *volatile bad_pointer = (int *)16;	/* nothing is mapped there */

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "exit"))
		return argc > 2 ? atoi(argv[2]) : 0;
	if (!strcmp(mode, "segv"))
		return *bad_pointer;
	if (!strcmp(mode, "spin"))
		for (;;)
			;
	if (!strcmp(mode, "args"))	/* exit 0 iff argv is: helper args a bb ccc */
		return !(argc == 5 && !strcmp(argv[2], "a") && !strcmp(argv[3], "bb") &&
			 !strcmp(argv[4], "ccc"));
	if (!strcmp(mode, "aio_nr"))	/* exit 0 iff /proc/sys/fs/aio-nr holds argv[2] */
		return !(argc == 3 && aio_nr() == atol(argv[2]));
	if (!strcmp(mode, "env"))	/* exit 0 iff HELPER_ENV=yes is in the environment */
		return !(getenv("HELPER_ENV") && !strcmp(getenv("HELPER_ENV"), "yes"));
	if (!strcmp(mode, "write")) {	/* argv[2] to descriptor 1 */
		size_t n = argc > 2 ? strlen(argv[2]) : 0;
		return write(1, argc > 2 ? argv[2] : "", n) == (ssize_t)n ? 0 : 1;
	}
	if (!strcmp(mode, "state")) {	/* what posix_spawn's attributes set, to stdout */
		struct sigaction sa;
		sigset_t m;
		char cwd[64];

		sigprocmask(SIG_BLOCK, NULL, &m);
		sigaction(SIGUSR2, NULL, &sa);
		printf("pgrp %d sid %d usr1 %d usr2dfl %d cwd %s\n", getpgrp() == getpid(),
		       getsid(0) == getpid(), sigismember(&m, SIGUSR1), sa.sa_handler == SIG_DFL,
		       getcwd(cwd, sizeof(cwd)) ? cwd : "?");
		return 0;
	}
	printf("helper: unknown mode '%s'\n", mode);
	return 99;
}
