/* test_proc.c: the "proc" suite: fork, exec, wait, exit codes, kill, faults, sleep, process groups and sessions, waitid. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <aiokern.h>
#include <sys/mman.h>
#include "user/syscalls.h"	/* raw stubs: the kernel's own answers */
#include "utest.h"

static int spawn(char *const argv[], char *const envp[])
{
	pid_t pid = fork();

	if (pid == 0) {
		execve(argv[0], argv, envp);
		_exit(127);
	}
	return pid;
}

static int wait_status(pid_t pid)
{
	int status = -1;

	return waitpid(pid, &status, 0) == pid ? status : -1;
}

/* Run posix_spawn of /bin/helper's mode state with these file actions and
 * attributes; its line (stdout into /tmp/spawn.out) in out. */
static int spawn_state(posix_spawn_file_actions_t *fa, posix_spawnattr_t *at, char *out, int size)
{
	char *argv[] = { "/bin/helper", "state", NULL };
	pid_t pid;
	int fd, n;

	CHECK_EQ(posix_spawn_file_actions_addopen(fa, 1, "/tmp/spawn.out",
						  O_WRONLY | O_CREAT | O_TRUNC, 0644), 0);
	CHECK_EQ(posix_spawn(&pid, "/bin/helper", fa, at, argv, NULL), 0);
	CHECK_EQ(wait_status(pid), 0);
	fd = open("/tmp/spawn.out", O_RDONLY);
	CHECK(fd >= 0);
	n = read(fd, out, size - 1);
	CHECK(n > 0);
	out[n] = '\0';
	close(fd);
	return 0;
}

/* posix_spawn and posix_spawnp: the program runs with its arguments; a
 * failed exec (or file action) is posix_spawn's error, no child left; the
 * file actions in order (open as stdout, dup2, close, chdir), the attributes
 * (process group, session, mask, default actions); bad arguments EINVAL/EBADF. */
static int posix_spawn_cases(void)
{
	char *args[] = { "/bin/helper", "args", "a", "bb", "ccc", NULL };
	char *pargs[] = { "helper", "write", "spawned", NULL }, out[128];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t m;
	pid_t pid;
	int p[2];

	CHECK_EQ(posix_spawn(&pid, "/bin/helper", NULL, NULL, args, NULL), 0);
	CHECK_EQ(wait_status(pid), 0);
	CHECK_EQ(posix_spawn(&pid, "/bin/nonexistent", NULL, NULL, args, NULL), ENOENT);
	CHECK_EQ(posix_spawn(&pid, "helper", NULL, NULL, pargs, NULL), ENOENT);	/* no search */
	CHECK_ERR(waitpid(-1, NULL, WNOHANG), ECHILD);	/* the failed ones were reaped */
	/* posix_spawnp searches PATH; dup2 of a pipe's end as stdout */
	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(posix_spawn_file_actions_init(&fa), 0);
	CHECK_EQ(posix_spawn_file_actions_adddup2(&fa, p[1], 1), 0);
	CHECK_EQ(posix_spawn_file_actions_addclose(&fa, p[0]), 0);
	setenv("PATH", "/nowhere:/bin", 1);
	CHECK_EQ(posix_spawnp(&pid, "helper", &fa, NULL, pargs, NULL), 0);
	close(p[1]);
	CHECK_EQ(wait_status(pid), 0);
	memset(out, 0, sizeof(out));
	CHECK_EQ(read(p[0], out, sizeof(out)), 7);
	CHECK(!strcmp(out, "spawned"));
	close(p[0]);
	CHECK_EQ(posix_spawn_file_actions_destroy(&fa), 0);
	/* attributes and chdir */
	CHECK_EQ(posix_spawnattr_init(&at), 0);
	CHECK_EQ(posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
					  POSIX_SPAWN_SETSIGDEF), 0);
	CHECK_EQ(posix_spawnattr_setpgroup(&at, 0), 0);
	sigemptyset(&m);
	sigaddset(&m, SIGUSR1);
	CHECK_EQ(posix_spawnattr_setsigmask(&at, &m), 0);
	sigemptyset(&m);
	sigaddset(&m, SIGUSR2);
	CHECK_EQ(posix_spawnattr_setsigdefault(&at, &m), 0);
	signal(SIGUSR2, SIG_IGN);			/* inherited over exec, unless reset */
	CHECK_EQ(posix_spawn_file_actions_init(&fa), 0);
	CHECK_EQ(posix_spawn_file_actions_addchdir_np(&fa, "/tmp"), 0);
	CHECK_EQ(spawn_state(&fa, &at, out, sizeof(out)), 0);
	CHECK(!strcmp(out, "pgrp 1 sid 0 usr1 1 usr2dfl 1 cwd /tmp\n"));
	CHECK_EQ(posix_spawn_file_actions_destroy(&fa), 0);
	CHECK_EQ(posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID), 0);
	CHECK_EQ(posix_spawn_file_actions_init(&fa), 0);
	CHECK_EQ(spawn_state(&fa, &at, out, sizeof(out)), 0);
	CHECK(!strncmp(out, "pgrp 1 sid 1 usr1 0 usr2dfl 0 ", 30));	/* a new session; SIGUSR2 still ignored */
	signal(SIGUSR2, SIG_DFL);
	/* actions on every low descriptor (the library's report pipe among them)
	 * do not hide an exec failure, nor break a spawn that works */
	for (int fd = 3; fd < 12; fd++)
		CHECK_EQ(posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", O_RDONLY, 0), 0);
	CHECK_EQ(posix_spawn(&pid, "/bin/nonexistent", &fa, NULL, args, NULL), ENOENT);
	for (int fd = 3; fd < 12; fd++)
		CHECK_EQ(posix_spawn_file_actions_addclose(&fa, fd), 0);
	CHECK_EQ(posix_spawn(&pid, "/bin/nonexistent", &fa, NULL, args, NULL), ENOENT);
	CHECK_EQ(posix_spawn(&pid, "/bin/helper", &fa, NULL, args, NULL), 0);
	CHECK_EQ(wait_status(pid), 0);
	CHECK_EQ(posix_spawn_file_actions_destroy(&fa), 0);
	CHECK_EQ(posix_spawn_file_actions_init(&fa), 0);
	/* a file action that fails is the spawn's error */
	CHECK_EQ(posix_spawn_file_actions_addopen(&fa, 5, "/nonexistent/x", O_RDONLY, 0), 0);
	CHECK_EQ(posix_spawn(&pid, "/bin/helper", &fa, NULL, args, NULL), ENOENT);
	CHECK_EQ(posix_spawn_file_actions_destroy(&fa), 0);
	/* bad arguments */
	CHECK_EQ(posix_spawnattr_setflags(&at, 0x4000), EINVAL);
	CHECK_EQ(posix_spawn_file_actions_init(&fa), 0);
	CHECK_EQ(posix_spawn_file_actions_addclose(&fa, -1), EBADF);
	CHECK_EQ(posix_spawn_file_actions_adddup2(&fa, 1, -2), EBADF);
	CHECK_EQ(posix_spawn_file_actions_destroy(&fa), 0);
	CHECK_EQ(posix_spawnattr_destroy(&at), 0);
	CHECK_EQ(unlink("/tmp/spawn.out"), 0);
	return 0;
}

static int fork_exit_code(void)
{
	pid_t pid = fork();

	CHECK(pid >= 0);
	if (pid == 0)
		_exit(42);
	int st = wait_status(pid);
	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 42);
	return 0;
}

static int fork_pids_differ(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0)
		_exit(getpid() != parent && getpid() > 0 ? 0 : 1);
	CHECK(pid > 0 && pid != parent);
	int st = wait_status(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return 0;
}

static int exec_with_args(void)
{
	char *argv[] = { "/bin/helper", "args", "a", "bb", "ccc", NULL };
	char *envp[] = { NULL };
	int st = wait_status(spawn(argv, envp));

	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 0);
	return 0;
}

static int exec_with_env(void)
{
	char *argv[] = { "/bin/helper", "env", NULL };
	char *envp[] = { "A=1", "HELPER_ENV=yes", NULL };
	int st = wait_status(spawn(argv, envp));

	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return 0;
}

static int exec_exit_code(void)
{
	char *argv[] = { "/bin/helper", "exit", "7", NULL };
	int st = wait_status(spawn(argv, NULL));

	CHECK(WIFEXITED(st));
	CHECK_EQ(WEXITSTATUS(st), 7);
	return 0;
}

static int exec_errors(void)
{
	char *argv[] = { "/bin/nonexistent", NULL };

	CHECK_ERR(execve("/bin/nonexistent", argv, NULL), ENOENT);
	CHECK_ERR(execve((char *)0xC0010000, argv, NULL), EFAULT);
	CHECK_ERR(execve("/bin", argv, NULL), EACCES);
	CHECK_ERR(execve("/dev/null", argv, NULL), EACCES);	/* not a regular file */
	int fd = open("/tmp/notelf", O_CREAT | O_WRONLY | O_TRUNC, 0755);
	CHECK(fd >= 0 && write(fd, "#!/bin/sh\n", 10) == 10);
	close(fd);
	CHECK_ERR(execve("/tmp/notelf", argv, NULL), ENOEXEC);
	unlink("/tmp/notelf");
	return 0;
}

static int many_processes(void)
{
	for (int i = 0; i < 200; i++) {
		pid_t pid = fork();
		CHECK(pid >= 0);
		if (pid == 0)
			_exit(i & 0x7f);
		int st = wait_status(pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == (i & 0x7f));
	}
	return 0;
}

static int many_at_once(void)
{
	pid_t pids[32];

	for (int i = 0; i < 32; i++)
		if ((pids[i] = fork()) == 0)
			_exit(i);
	for (int i = 0; i < 32; i++) {
		int st = wait_status(pids[i]);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == i);
	}
	CHECK_ERR(waitpid(-1, NULL, 0), ECHILD);
	return 0;
}

static int kill_child(void)
{
	char *argv[] = { "/bin/helper", "spin", NULL };
	int sigs[] = { SIGTERM, SIGKILL, SIGINT };

	for (int i = 0; i < 3; i++) {
		pid_t pid = spawn(argv, NULL);
		CHECK(pid > 0);
		CHECK_EQ(kill(pid, sigs[i]), 0);
		int st = wait_status(pid);
		CHECK(WIFSIGNALED(st));
		CHECK_EQ(WTERMSIG(st), sigs[i]);
	}
	CHECK_ERR(kill(99999, SIGTERM), ESRCH);
	return 0;
}

static int faulting_child(void)
{
	char *argv[] = { "/bin/helper", "segv", NULL };
	int st = wait_status(spawn(argv, NULL));

	CHECK(WIFSIGNALED(st));
	CHECK_EQ(WTERMSIG(st), SIGSEGV);
	return 0;				/* and we are still here */
}

static int divide_by_zero_child(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		volatile int zero = 0;
		_exit(10 / zero);
	}
	int st = wait_status(pid);
	CHECK(WIFSIGNALED(st));
	CHECK_EQ(WTERMSIG(st), SIGFPE);
	return 0;
}

static int waitpid_nohang(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		usleep(50000);
		_exit(3);
	}
	CHECK_EQ(waitpid(pid, &st, WNOHANG), 0);
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3);
	CHECK_ERR(waitpid(-1, &st, WNOHANG), ECHILD);
	return 0;
}

static long long now_ns(int clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int nanosleep_sleeps(void)
{
	struct timespec req = { 0, 30 * 1000 * 1000 };
	long long t0 = now_ns(CLOCK_MONOTONIC), dt;

	CHECK_EQ(nanosleep(&req, NULL), 0);
	dt = now_ns(CLOCK_MONOTONIC) - t0;
	CHECK(dt >= 30000000LL);
	CHECK(dt < 500000000LL);
	return 0;
}

static int clocks_advance(void)
{
	long long r0 = now_ns(CLOCK_REALTIME), m0 = now_ns(CLOCK_MONOTONIC);

	CHECK(r0 > 1600000000LL * 1000000000LL);	/* the RTC gave a real date */
	sched_yield();
	usleep(10000);
	CHECK(now_ns(CLOCK_MONOTONIC) > m0);
	CHECK(now_ns(CLOCK_REALTIME) > r0);
	return 0;
}

static int unknown_syscall(void)
{
	long r;

	asm volatile("int $0x80" : "=a"(r) : "a"(999) : "memory");
	CHECK_EQ(r, -38);			/* the kernel's ENOSYS (newlib's is 88) */
	asm volatile("int $0x80" : "=a"(r) : "a"(246), "b"(0), "c"(0), "d"(0), "S"(0) : "memory");
	CHECK(r != -38);			/* the AIO calls exist */
	return 0;
}

/* Init is pid 1, and a signal it does not handle (it handles none: there are
 * no handlers) is not delivered to it, SIGKILL included: kill() answers 0 and
 * init lives on (issue 14, finding 2: init died and the machine hung). */
static int init_is_pid_1_and_takes_no_signal(void)
{
	CHECK_EQ(kill(1, 0), 0);		/* pid 1 is a user process */
	CHECK_EQ(kill(1, SIGTERM), 0);
	CHECK_EQ(kill(1, SIGKILL), 0);
	CHECK_EQ(kill(1, SIGSEGV), 0);
	usleep(20000);				/* init sleeps in wait: it would be gone now */
	CHECK_EQ(kill(1, 0), 0);
	return 0;
}

/* Until the task count is back at want (2 s at most); the last count seen. */
static unsigned wait_tasks(unsigned want)
{
	struct aiok_stat st = { 0 };

	for (int i = 0; i < 200; i++) {
		if (aiok_stat(&st) || st.nr_tasks == want)
			break;
		usleep(10000);
	}
	return st.nr_tasks;
}

/* The children of a process that exits go to init, which reaps them: one
 * that is a zombie already when its parent exits, and one that exits later
 * (issue 14, finding 9: they stayed zombies for good). */
static int orphans_are_reaped(void)
{
	struct aiok_stat before;
	pid_t pid;

	CHECK_EQ(aiok_stat(&before), 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		if (fork() == 0)
			_exit(0);		/* a zombie by the time we exit */
		if (fork() == 0) {
			usleep(50000);		/* exits after we did */
			_exit(0);
		}
		usleep(20000);
		_exit(0);
	}
	CHECK(utest_child_ok(pid));
	CHECK_EQ(wait_tasks(before.nr_tasks), before.nr_tasks);
	return 0;
}

/* Only init may end the run: this case (a child of a child of init) and a child
 * of it get -EPERM (1 in both numberings) and the machine keeps running. Were
 * the call honoured, QEMU would exit with a failure status (poweroff(1)) before
 * the suite is complete. */
static int poweroff_is_for_init_only(void)
{
	pid_t pid;

	CHECK_EQ(__sys_poweroff(1), -EPERM);
	pid = fork();
	if (pid == 0)
		_exit(__sys_poweroff(1) == -EPERM ? 0 : 1);
	CHECK(utest_child_ok(pid));
	return 0;
}

/* ---- process groups and sessions: setpgid(2), setsid(2), kill(2), wait(2) ---- */

static volatile int sig_hits;

static void on_sig(int sig)
{
	(void)sig;
	sig_hits++;
}

/* A child that waits for a signal (or SIGKILL) in group pgid (0: its own;
 * -1: its parent's), placed there by both sides (no race), and returned only
 * once its own setpgid is done (a later move by the caller is not undone). */
static pid_t child_in_group(pid_t pgid)
{
	int ready[2];
	pid_t pid;
	char c;

	if (pipe(ready))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (pgid >= 0)
			setpgid(0, pgid);
		close(ready[0]);
		close(ready[1]);		/* the parent's read sees EOF */
		for (;;)
			pause();
	}
	close(ready[1]);
	if (pid > 0 && pgid >= 0)
		setpgid(pid, pgid ? pgid : pid);
	if (pid > 0)
		while (read(ready[0], &c, 1) < 0 && errno == EINTR)
			;
	close(ready[0]);
	return pid;
}

/* fork keeps the group and session; setpgid moves the caller or a child;
 * Linux's errors for bad pids and groups. */
static int pgrp_fork_and_setpgid(void)
{
	pid_t me = getpid(), pid;
	int st;

	CHECK_EQ(getpgrp(), getpgid(0));
	CHECK_EQ(getpgid(me), getpgrp());
	CHECK_EQ(getsid(0), getsid(me));
	CHECK(getsid(0) > 0);
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(!(getpgrp() == getpgid(getppid()) && getsid(0) == getsid(getppid()) &&
			setpgid(0, 0) == 0 && getpgrp() == getpid() && getpgid(0) == getpid()));
	st = wait_status(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	pid = child_in_group(0);
	CHECK(pid > 0);
	CHECK_EQ(getpgid(pid), pid);		/* a group of its own */
	CHECK_EQ(setpgid(pid, getpgrp()), 0);	/* and back into ours */
	CHECK_EQ(getpgid(pid), getpgrp());
	CHECK_EQ(setpgid(pid, 0), 0);		/* 0: the target's pid */
	CHECK_EQ(getpgid(pid), pid);
	CHECK_ERR(setpgid(-1, 0), EINVAL);
	CHECK_ERR(setpgid(0, -1), EINVAL);
	CHECK_ERR(setpgid(getppid(), 0), ESRCH);	/* not us, not a child */
	CHECK_ERR(setpgid(0, 99999), EPERM);	/* no such group in our session */
	CHECK_ERR(getpgid(99999), ESRCH);
	CHECK_ERR(getsid(99999), ESRCH);
	kill(pid, SIGKILL);
	st = wait_status(pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	CHECK_ERR(setpgid(pid, 0), ESRCH);	/* reaped */
	return 0;
}

/* setsid: a new session and group led by the caller; not for a group
 * leader; a session leader cannot change group; a child in another session
 * cannot be moved. */
static int pgrp_setsid(void)
{
	int fds[2];
	pid_t pid;
	char c;
	int st;

	CHECK_EQ(pipe(fds), 0);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int ok = setsid() == getpid() && getsid(0) == getpid() && getpgrp() == getpid() &&
			 setsid() == -1 && errno == EPERM &&
			 setpgid(0, 0) == -1 && errno == EPERM;
		write(fds[1], ok ? "y" : "n", 1);
		for (;;)
			pause();
	}
	close(fds[1]);
	CHECK_EQ(read(fds[0], &c, 1), 1);
	CHECK_EQ(c, 'y');
	CHECK_EQ(getsid(pid), pid);
	CHECK(getsid(0) != pid);
	CHECK_ERR(setpgid(pid, pid), EPERM);	/* another session (and its leader) */
	kill(pid, SIGKILL);
	wait_status(pid);
	close(fds[0]);
	fflush(stdout);
	pid = fork();
	if (pid == 0)				/* a group leader may not start a session */
		_exit(!(setpgid(0, 0) == 0 && setsid() == -1 && errno == EPERM));
	st = wait_status(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return 0;
}

/* A child that has exec'd is out of its parent's reach: EACCES. */
static int pgrp_setpgid_after_exec(void)
{
	char *argv[] = { "/bin/helper", "spin", NULL };
	int fds[2], st;
	pid_t pid;
	char c;

	CHECK_EQ(pipe2(fds, O_CLOEXEC), 0);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execve(argv[0], argv, NULL);
		_exit(127);
	}
	close(fds[1]);
	CHECK_EQ(read(fds[0], &c, 1), 0);	/* EOF: the exec closed the write end */
	close(fds[0]);
	CHECK_ERR(setpgid(pid, pid), EACCES);
	CHECK_EQ(getpgid(pid), getpgrp());	/* unchanged */
	CHECK_EQ(kill(pid, SIGKILL), 0);
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK_EQ(st, SIGKILL);			/* killed: it was running the helper */
	return 0;
}

/* kill(-pgid) and killpg reach the group's members and nobody else;
 * kill(0) the caller's group, itself included; kill(-1) everyone but init
 * and the caller. */
static int pgrp_kill(void)
{
	pid_t a = child_in_group(0), b, other, pid;
	struct sigaction sa = { .sa_handler = on_sig };
	int st;

	CHECK(a > 0);
	b = child_in_group(a);
	other = child_in_group(0);
	CHECK(b > 0 && other > 0);
	CHECK_EQ(getpgid(b), a);
	CHECK_EQ(kill(-a, SIGTERM), 0);
	st = wait_status(a);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	st = wait_status(b);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	CHECK_EQ(waitpid(other, &st, WNOHANG), 0);	/* another group: alive */
	CHECK_EQ(killpg(other, SIGUSR2), 0);
	st = wait_status(other);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR2);
	CHECK_ERR(kill(-a, SIGTERM), ESRCH);	/* nobody left in it */
	CHECK_ERR(kill(-2147483647 - 1, SIGTERM), ESRCH);
	CHECK_ERR(killpg(-3, SIGTERM), EINVAL);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {				/* kill(0): its group, itself too */
		pid_t g;
		setpgid(0, 0);
		g = child_in_group(-1);		/* SIGUSR1's default action: it dies */
		sigaction(SIGUSR1, &sa, 0);
		if (kill(0, SIGUSR1) != 0)
			_exit(2);
		st = wait_status(g);
		_exit(!(WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR1 && sig_hits == 1));
	}
	st = wait_status(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ(sigaction(SIGWINCH, &sa, 0), 0);	/* ignored by default elsewhere */
	sig_hits = 0;
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { 2, 0 };
		sig_hits = 0;
		nanosleep(&ts, 0);		/* cut short by the signal */
		_exit(sig_hits == 1 ? 0 : 3);
	}
	nanosleep(&(struct timespec){ 0, 50000000 }, 0);	/* let it sleep */
	CHECK_EQ(kill(-1, SIGWINCH), 0);
	st = wait_status(pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ(sig_hits, 0);			/* not the caller */
	return 0;
}

/* waitpid(-pgid) takes only that group's children, waitpid(0) only those
 * in the caller's group; ECHILD when none matches. */
static int pgrp_wait(void)
{
	pid_t a, b;
	int st;

	fflush(stdout);
	b = fork();				/* stays in our group, exits at once */
	if (b == 0)
		_exit(5);
	a = fork();
	if (a == 0) {
		setpgid(0, 0);
		nanosleep(&(struct timespec){ 0, 50000000 }, 0);
		_exit(6);
	}
	CHECK(a > 0 && b > 0);
	setpgid(a, a);
	CHECK_EQ(waitpid(-a, &st, 0), a);	/* b ended first, but is not in it */
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 6);
	CHECK_ERR(waitpid(-a, &st, WNOHANG), ECHILD);
	CHECK_EQ(waitpid(0, &st, 0), b);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 5);
	CHECK_ERR(waitpid(0, &st, 0), ECHILD);
	CHECK_ERR(waitpid(-2147483647 - 1, &st, 0), ESRCH);
	return 0;
}

/* ---- waitid(2) ---- */

static pid_t child_exits(int code)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(code);
	return pid;
}

static pid_t child_pauses(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		for (;;)
			pause();
	return pid;
}

/* siginfo as the man page says: SIGCHLD, si_pid, si_uid, si_code
 * CLD_EXITED/KILLED/DUMPED with the exit code or the signal in si_status. */
static int waitid_reports_ends(void)
{
	siginfo_t si;
	pid_t pid;

	pid = child_exits(7);
	memset(&si, 0xff, sizeof(si));
	CHECK_EQ(waitid(P_PID, pid, &si, WEXITED), 0);
	CHECK_EQ(si.si_signo, SIGCHLD);
	CHECK_EQ(si.si_code, CLD_EXITED);
	CHECK_EQ(si.si_pid, pid);
	CHECK_EQ(si.si_uid, 0);
	CHECK_EQ(si.si_status, 7);
	CHECK_ERR(waitid(P_PID, pid, &si, WEXITED), ECHILD);	/* reaped */
	pid = child_pauses();
	CHECK_EQ(kill(pid, SIGTERM), 0);
	CHECK_EQ(waitid(P_ALL, 0, &si, WEXITED), 0);
	CHECK_EQ(si.si_pid, pid);
	CHECK_EQ(si.si_code, CLD_KILLED);
	CHECK_EQ(si.si_status, SIGTERM);	/* newlib's number */
	pid = fork();
	if (pid == 0)
		abort();
	CHECK_EQ(waitid(P_PID, pid, &si, WEXITED), 0);
	CHECK_EQ(si.si_code, CLD_DUMPED);	/* SIGABRT's default: core */
	CHECK_EQ(si.si_status, SIGABRT);
	return 0;
}

/* WNOHANG with nothing ready: 0 and si_pid 0; WNOWAIT reports and leaves the
 * child waitable (a second waitid and then waitpid see it again). */
static int waitid_nohang_nowait(void)
{
	siginfo_t si;
	pid_t pid = child_pauses();
	int st;

	memset(&si, 0xff, sizeof(si));
	CHECK_EQ(waitid(P_PID, pid, &si, WEXITED | WNOHANG), 0);
	CHECK_EQ(si.si_pid, 0);
	CHECK_EQ(si.si_signo, 0);
	CHECK_EQ(kill(pid, SIGKILL), 0);
	CHECK_EQ(waitid(P_ALL, 0, &si, WEXITED | WNOWAIT), 0);
	CHECK_EQ(si.si_pid, pid);
	CHECK_EQ(si.si_code, CLD_KILLED);
	memset(&si, 0, sizeof(si));
	CHECK_EQ(waitid(P_PID, pid, &si, WEXITED | WNOWAIT | WNOHANG), 0);
	CHECK_EQ(si.si_pid, pid);		/* still there */
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	CHECK_ERR(waitid(P_ALL, 0, &si, WEXITED | WNOHANG), ECHILD);
	return 0;
}

/* WSTOPPED and WCONTINUED report stops and continues (CLD_STOPPED with the
 * stop signal, CLD_CONTINUED with SIGCONT), once each unless WNOWAIT; a
 * waitid for ends only does not take them. */
static int waitid_stop_continue(void)
{
	siginfo_t si;
	pid_t pid = child_pauses();

	CHECK_EQ(kill(pid, SIGSTOP), 0);
	CHECK_EQ(waitid(P_PID, pid, &si, WSTOPPED | WNOWAIT), 0);
	CHECK_EQ(si.si_code, CLD_STOPPED);
	CHECK_EQ(si.si_status, SIGSTOP);
	memset(&si, 0xff, sizeof(si));
	CHECK_EQ(waitid(P_PID, pid, &si, WEXITED | WNOHANG), 0);
	CHECK_EQ(si.si_pid, 0);			/* a stop is no end */
	CHECK_EQ(waitid(P_PID, pid, &si, WSTOPPED), 0);	/* kept by WNOWAIT */
	CHECK_EQ(si.si_code, CLD_STOPPED);
	CHECK_EQ(si.si_pid, pid);
	CHECK_EQ(waitid(P_PID, pid, &si, WSTOPPED | WNOHANG), 0);
	CHECK_EQ(si.si_pid, 0);			/* taken */
	CHECK_EQ(kill(pid, SIGCONT), 0);
	CHECK_EQ(waitid(P_PID, pid, &si, WCONTINUED), 0);
	CHECK_EQ(si.si_code, CLD_CONTINUED);
	CHECK_EQ(si.si_status, SIGCONT);
	CHECK_EQ(si.si_pid, pid);
	CHECK_EQ(kill(pid, SIGKILL), 0);
	CHECK_EQ(waitid(P_PID, pid, &si, WEXITED), 0);
	CHECK_EQ(si.si_code, CLD_KILLED);
	return 0;
}

/* P_PGID (0: the caller's group), the errors, and the rusage argument of the
 * raw call (the child's CPU time). */
static int waitid_groups_errors_rusage(void)
{
	struct kernel_siginfo_raw { int signo, err, code, pid, uid, status, pad[26]; } ki;
	long ru[18];				/* the kernel's struct rusage */
	siginfo_t si;
	pid_t a, b;

	b = child_exits(5);			/* our group, done first */
	fflush(stdout);
	a = fork();
	if (a == 0) {
		setpgid(0, 0);
		nanosleep(&(struct timespec){ 0, 50000000 }, 0);
		_exit(6);
	}
	setpgid(a, a);
	CHECK_EQ(waitid(P_PGID, a, &si, WEXITED), 0);
	CHECK_EQ(si.si_pid, a);
	CHECK_EQ(si.si_status, 6);
	CHECK_EQ(waitid(P_PGID, 0, &si, WEXITED), 0);
	CHECK_EQ(si.si_pid, b);
	CHECK_ERR(waitid(P_ALL, 0, &si, WEXITED), ECHILD);
	CHECK_ERR(waitid(P_ALL, 0, &si, 0), EINVAL);		/* nothing to wait for */
	CHECK_ERR(waitid(P_ALL, 0, &si, WEXITED | 0x100), EINVAL);
	CHECK_ERR(waitid((idtype_t)7, 0, &si, WEXITED), EINVAL);
	CHECK_ERR(waitid(P_PID, 0, &si, WEXITED), EINVAL);
	CHECK_ERR(waitid(P_PGID, -1, &si, WEXITED), EINVAL);
	fflush(stdout);
	a = fork();
	if (a == 0) {				/* 200 ms of CPU time */
		struct timespec t0, t;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do
			clock_gettime(CLOCK_MONOTONIC, &t);
		while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 200);
		_exit(0);
	}
	CHECK_EQ(__sys_waitid(P_PID, a, (void *)16, WEXITED | WNOWAIT, 0), -EFAULT);
	CHECK_EQ(__sys_waitid(P_PID, a, (void *)&ki, WEXITED | WNOWAIT, (void *)16), -EFAULT);
	memset(ru, 0, sizeof(ru));
	CHECK_EQ(__sys_waitid(P_PID, a, (void *)&ki, WEXITED, (void *)ru), 0);
	CHECK_EQ(ki.pid, a);
	CHECK_EQ(ki.code, CLD_EXITED);
	CHECK((ru[0] + ru[2]) * 1000 + (ru[1] + ru[3]) / 1000 >= 50);	/* user + system ms */
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(fork_exit_code),
	UTEST(fork_pids_differ),
	UTEST(exec_with_args),
	UTEST(posix_spawn_cases),
	UTEST(exec_with_env),
	UTEST(exec_exit_code),
	UTEST(exec_errors),
	UTEST(many_processes),
	UTEST(many_at_once),
	UTEST(kill_child),
	UTEST(faulting_child),
	UTEST(divide_by_zero_child),
	UTEST(waitpid_nohang),
	UTEST(nanosleep_sleeps),
	UTEST(clocks_advance),
	UTEST(unknown_syscall),
	UTEST(init_is_pid_1_and_takes_no_signal),
	UTEST(orphans_are_reaped),
	UTEST(poweroff_is_for_init_only),
	UTEST(pgrp_fork_and_setpgid),
	UTEST(pgrp_setsid),
	UTEST(pgrp_setpgid_after_exec),
	UTEST(pgrp_kill),
	UTEST(pgrp_wait),
	UTEST(waitid_reports_ends),
	UTEST(waitid_nohang_nowait),
	UTEST(waitid_stop_continue),
	UTEST(waitid_groups_errors_rusage),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "proc", cases, sizeof(cases) / sizeof(cases[0]));
}
