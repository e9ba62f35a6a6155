/* init.c: the first process: runs each program named in argv (or a default list), checks for leaks, powers off.
 *
 * Init is pid 1 and the parent of every orphan: the kernel hands it the
 * children of each process that exits. It reaps them itself (waitpid(-1)),
 * while a program runs and again after it, before the leak check; the kernel
 * does not reap for it (there is no SIGCHLD disposition to ask for that). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "aiokern.h"

/* Programs run when the kernel passes none; each prints its own KTAP. */
static const char *const default_progs[] = { "/bin/hello" };

/* Split "path:arg:arg" (the kernel's run= item) into argv; returns argc. */
static int split_args(char *spec, char **argv, int max)
{
	int argc = 0;

	for (char *p = spec; p && argc < max - 1; ) {
		argv[argc++] = p;
		p = strchr(p, ':');
		if (p)
			*p++ = '\0';
	}
	argv[argc] = NULL;
	return argc;
}

/* Wait for child pid, reaping every orphan that ends meanwhile; pid, or -1. */
static pid_t wait_for(pid_t pid, int *status)
{
	pid_t got;

	do
		got = waitpid(-1, status, 0);
	while (got > 0 && got != pid);
	return got;
}

/* Reap the orphans a program left; give those still running 2 s to end. */
static void reap_orphans(void)
{
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	pid_t got;

	for (int naps = 0; naps < 200; ) {
		got = waitpid(-1, NULL, WNOHANG);
		if (got < 0)
			return;			/* ECHILD: no child left */
		if (got == 0) {
			nanosleep(&nap, NULL);
			naps++;
		}
	}
	printf("# init: orphans still running 2 s after their program ended\n");
}

/* fork + execve "path:arg:..."; the child's wait status, or -1 if it could not start. */
static int run_one(const char *spec, int index)
{
	char copy[256], *argv[16], idx[16];
	int status = 0;
	pid_t pid;

	snprintf(copy, sizeof(copy), "%s", spec);
	split_args(copy, argv, 16);
	snprintf(idx, sizeof(idx), "%d", index);
	setenv("UTEST_INDEX", idx, 1);	/* its place in our KTAP plan */
	fflush(stdout);		/* the child must not inherit buffered output */
	pid = fork();
	if (pid < 0) {
		printf("# init: fork for %s failed\n", argv[0]);
		return -1;
	}
	if (pid == 0) {
		execve(argv[0], argv, environ);
		printf("# init: execve %s failed\n", argv[0]);
		fflush(stdout);
		_exit(127);
	}
	if (wait_for(pid, &status) != pid) {
		printf("# init: waitpid for %s failed\n", argv[0]);
		return -1;
	}
	return status;
}

/* Run every program; the number that did not exit with status 0. */
static int run_all(int n, const char *const *progs)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		int status = run_one(progs[i], i + 1);

		reap_orphans();
		if (status == 0)
			continue;
		bad++;
		if (status > 0 && WIFEXITED(status))
			printf("# init: %s exited with %d\n", progs[i], WEXITSTATUS(status));
		else if (status > 0 && WIFSIGNALED(status))
			printf("# init: %s killed by signal %d\n", progs[i], WTERMSIG(status));
	}
	return bad;
}

struct leak_case {
	const char	*name;
	unsigned	want, got;
};

/* More pages free or fewer slab objects than before: a deferred free of
 * something allocated before the baseline (another CPU's work, a vCPU the
 * host held off), not a leak; the allocators report double frees. */
static int leak_freed_late(const struct leak_case *c)
{
	if (!strcmp(c->name, "free_pages"))
		return c->got > c->want;
	if (!strcmp(c->name, "slab_objects"))
		return c->got < c->want;
	return 0;
}

/* KTAP suite "leaks": each counter must be back where it was before the
 * programs ran (block I/Os: none left), and the kernel's debug checks must
 * have reported nothing since boot; the number of failures. */
static int report_leaks(const struct aiok_stat *b, const struct aiok_stat *a, int index)
{
	const struct leak_case cases[] = {
		{ "free_pages", b->free_pages, a->free_pages },
		{ "slab_objects", b->slab_objects, a->slab_objects },
		{ "aio_nr", b->aio_nr, a->aio_nr },
		{ "aio_reqs", b->aio_reqs, a->aio_reqs },
		{ "open_files", b->open_files, a->open_files },
		{ "nr_mms", b->nr_mms, a->nr_mms },
		{ "blk_ios", 0, a->blk_ios },
		{ "ramfs_pages", b->ramfs_pages, a->ramfs_pages },
		{ "nr_tasks", b->nr_tasks, a->nr_tasks },
		{ "atomic_bugs", 0, a->atomic_bugs },
		{ "mutex_bugs", 0, a->mutex_bugs },
		{ "uaccess_atomic", 0, a->uaccess_atomic },
		{ "thread_groups", b->thread_groups, a->thread_groups },
		{ "sigqueues", b->sigqueues, a->sigqueues },
		{ "futex_waiters", 0, a->futex_waiters },
		{ "ext2_pages", b->ext2_pages, a->ext2_pages },
		{ "lockdep_bugs", 0, a->lockdep_bugs },
	};
	int n = sizeof(cases) / sizeof(cases[0]), bad = 0;

	printf("    KTAP version 1\n    # Subtest: leaks\n    1..%d\n", n);
	for (int i = 0; i < n; i++) {
		const struct leak_case *c = &cases[i];

		if (c->want == c->got) {
			printf("    ok %d %s\n", i + 1, c->name);
			continue;
		}
		if (leak_freed_late(c)) {	/* nothing lost: said, not failed */
			printf("    # %s: %u before, %u after: freed late (something made before the\n"
			       "    # programs ran, freed after; double frees are the allocators' own check)\n",
			       c->name, c->want, c->got);
			printf("    ok %d %s\n", i + 1, c->name);
			continue;
		}
		bad++;
		printf("    # %s: %u expected, %u after the programs\n", c->name, c->want, c->got);
		printf("    not ok %d %s\n", i + 1, c->name);
	}
	printf("%s %d leaks\n", bad ? "not ok" : "ok", index);
	return bad;
}

/* Diagnostic lines: what the lock-order checker followed (boot word
 * "lockdep") and the scheduler's counters (run-queue lock, IPIs, halts). */
static void print_proc(const char *label, const char *path)
{
	char buf[512];
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = p[1] ? ';' : ' ';
	printf("# init: %s: %s\n", label, buf);
}

int main(int argc, char **argv)
{
	struct aiok_stat before, after;
	int n = argc > 1 ? argc - 1 : (int)(sizeof(default_progs) / sizeof(default_progs[0]));
	const char *const *progs = argc > 1 ? (const char *const *)argv + 1 : default_progs;
	int have_stat, failed;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# init: aiokern user space, %d program%s\n", n, n == 1 ? "" : "s");
	fflush(stdout);		/* stdio's buffers exist before the first snapshot */
	have_stat = aiok_snapshot(&before) == 0;
	printf("KTAP version 1\n1..%d\n", n + have_stat);
	failed = run_all(n, progs);
	if (have_stat && aiok_snapshot(&after) == 0)
		failed += report_leaks(&before, &after, n + 1);
	else
		printf("# init: aiok_stat unavailable, leak check skipped\n");
	print_proc("lockdep", "/proc/aiok/lockdep");
	print_proc("sched", "/proc/aiok/sched");
	printf("# init: %s\n", failed ? "FAILED" : "all passed");
	fflush(stdout);
	poweroff(failed ? 1 : 0);
}
