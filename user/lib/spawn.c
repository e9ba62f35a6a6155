/* spawn.c: posix_spawn and posix_spawnp over fork and execve, with their file actions and attributes; an exec failure reaches the caller as the error number. */
#define _GNU_SOURCE	/* execvpe, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

/*
 * The child is a fork of the caller. It applies the attributes (process
 * group, session, signal mask, default actions), then the file actions in
 * the order they were added, then execs; a pipe with O_CLOEXEC tells the
 * parent: closed by the exec (0 bytes read: success) or the child's error
 * number before it _exits with 127, which the parent reaps and returns (as
 * glibc does: posix_spawn fails, no child is left). Scheduling attributes are
 * accepted and stored; a spawn that asks to apply them fails with ENOSYS (the
 * scheduler has no policies to set).
 */

enum { FA_OPEN, FA_CLOSE, FA_DUP2, FA_CHDIR, FA_FCHDIR };

struct spawn_action {
	int kind, fd, newfd, oflag;
	mode_t mode;
	char *path;
};

struct __posix_spawn_file_actions {
	int nr, cap;
	struct spawn_action *a;
};

struct __posix_spawnattr {
	short flags;
	pid_t pgroup;
	int policy;
	int priority;
	sigset_t sigdefault, sigmask;
};

#define SPAWN_FLAGS	(POSIX_SPAWN_RESETIDS | POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSCHEDPARAM | \
			 POSIX_SPAWN_SETSCHEDULER | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | \
			 POSIX_SPAWN_USEVFORK | POSIX_SPAWN_SETSID)

/* --- file actions --- */

int posix_spawn_file_actions_init(posix_spawn_file_actions_t *fa)
{
	*fa = calloc(1, sizeof(**fa));
	return *fa ? 0 : ENOMEM;
}

int posix_spawn_file_actions_destroy(posix_spawn_file_actions_t *fa)
{
	if (!fa || !*fa)
		return EINVAL;
	for (int i = 0; i < (*fa)->nr; i++)
		free((*fa)->a[i].path);
	free((*fa)->a);
	free(*fa);
	*fa = NULL;
	return 0;
}

/* Append one action (path copied); EBADF for a negative descriptor. */
static int fa_add(posix_spawn_file_actions_t *fa, struct spawn_action act, const char *path)
{
	struct __posix_spawn_file_actions *f = fa ? *fa : NULL;

	if (!f)
		return EINVAL;
	if (act.fd < 0 || act.newfd < 0)
		return EBADF;
	if (f->nr == f->cap) {
		int cap = f->cap ? 2 * f->cap : 4;
		struct spawn_action *a = realloc(f->a, cap * sizeof(*a));
		if (!a)
			return ENOMEM;
		f->a = a;
		f->cap = cap;
	}
	if (path && !(act.path = strdup(path)))
		return ENOMEM;
	f->a[f->nr++] = act;
	return 0;
}

int posix_spawn_file_actions_addopen(posix_spawn_file_actions_t *__restrict fa, int fd,
				     const char *__restrict path, int oflag, mode_t mode)
{
	return fa_add(fa, (struct spawn_action){ FA_OPEN, fd, 0, oflag, mode, NULL }, path);
}

int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *fa, int fd)
{
	return fa_add(fa, (struct spawn_action){ FA_CLOSE, fd, 0, 0, 0, NULL }, NULL);
}

int posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *fa, int fd, int newfd)
{
	return fa_add(fa, (struct spawn_action){ FA_DUP2, fd, newfd, 0, 0, NULL }, NULL);
}

int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict fa,
					 const char *__restrict path)
{
	return fa_add(fa, (struct spawn_action){ FA_CHDIR, 0, 0, 0, 0, NULL }, path);
}

int posix_spawn_file_actions_addfchdir_np(posix_spawn_file_actions_t *fa, int fd)
{
	return fa_add(fa, (struct spawn_action){ FA_FCHDIR, fd, 0, 0, 0, NULL }, NULL);
}

/* --- attributes --- */

int posix_spawnattr_init(posix_spawnattr_t *attr)
{
	*attr = calloc(1, sizeof(**attr));
	return *attr ? 0 : ENOMEM;
}

int posix_spawnattr_destroy(posix_spawnattr_t *attr)
{
	if (!attr || !*attr)
		return EINVAL;
	free(*attr);
	*attr = NULL;
	return 0;
}

int posix_spawnattr_setflags(posix_spawnattr_t *attr, short flags)
{
	if (flags & ~SPAWN_FLAGS)
		return EINVAL;
	(*attr)->flags = flags;
	return 0;
}

int posix_spawnattr_getflags(const posix_spawnattr_t *__restrict attr, short *__restrict flags)
{
	*flags = (*attr)->flags;
	return 0;
}

int posix_spawnattr_setpgroup(posix_spawnattr_t *attr, pid_t pgroup)
{
	(*attr)->pgroup = pgroup;
	return 0;
}

int posix_spawnattr_getpgroup(const posix_spawnattr_t *__restrict attr, pid_t *__restrict pgroup)
{
	*pgroup = (*attr)->pgroup;
	return 0;
}

int posix_spawnattr_setsigmask(posix_spawnattr_t *__restrict attr, const sigset_t *__restrict set)
{
	(*attr)->sigmask = *set;
	return 0;
}

int posix_spawnattr_getsigmask(const posix_spawnattr_t *__restrict attr, sigset_t *__restrict set)
{
	*set = (*attr)->sigmask;
	return 0;
}

int posix_spawnattr_setsigdefault(posix_spawnattr_t *__restrict attr,
				  const sigset_t *__restrict set)
{
	(*attr)->sigdefault = *set;
	return 0;
}

int posix_spawnattr_getsigdefault(const posix_spawnattr_t *__restrict attr,
				  sigset_t *__restrict set)
{
	*set = (*attr)->sigdefault;
	return 0;
}

/* struct sched_param's first (and only POSIX) member is the priority. */
int posix_spawnattr_setschedparam(posix_spawnattr_t *__restrict attr,
				  const struct sched_param *__restrict param)
{
	(*attr)->priority = *(const int *)param;
	return 0;
}

int posix_spawnattr_getschedparam(const posix_spawnattr_t *__restrict attr,
				  struct sched_param *__restrict param)
{
	*(int *)param = (*attr)->priority;
	return 0;
}

int posix_spawnattr_setschedpolicy(posix_spawnattr_t *attr, int policy)
{
	(*attr)->policy = policy;
	return 0;
}

int posix_spawnattr_getschedpolicy(const posix_spawnattr_t *__restrict attr,
				   int *__restrict policy)
{
	*policy = (*attr)->policy;
	return 0;
}

/* --- the spawn --- */

/* The attributes, in the child: 0 or an error number. */
static int child_attrs(const struct __posix_spawnattr *a)
{
	if (a->flags & (POSIX_SPAWN_SETSCHEDPARAM | POSIX_SPAWN_SETSCHEDULER))
		return ENOSYS;
	if ((a->flags & POSIX_SPAWN_SETSID) && setsid() < 0)
		return errno;
	if ((a->flags & POSIX_SPAWN_SETPGROUP) && setpgid(0, a->pgroup) < 0)
		return errno;
	if (a->flags & POSIX_SPAWN_SETSIGDEF) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		sigemptyset(&dfl.sa_mask);
		for (int sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP && sigismember(&a->sigdefault, sig) == 1)
				sigaction(sig, &dfl, NULL);
	}
	if ((a->flags & POSIX_SPAWN_SETSIGMASK) && sigprocmask(SIG_SETMASK, &a->sigmask, NULL) < 0)
		return errno;
	return 0;
}

/* One file action, in the child: 0 or an error number. */
static int child_action(const struct spawn_action *a)
{
	int fd;

	switch (a->kind) {
	case FA_OPEN:
		if ((fd = open(a->path, a->oflag, a->mode)) < 0)
			return errno;
		if (fd != a->fd) {
			if (dup2(fd, a->fd) < 0)
				return errno;
			close(fd);
		}
		return 0;
	case FA_CLOSE:
		return close(a->fd) < 0 && errno != EBADF ? errno : 0;	/* closed already: fine */
	case FA_DUP2:
		if (a->fd == a->newfd)		/* POSIX 2017: the descriptor stays over the exec */
			return fcntl(a->fd, F_SETFD, 0) < 0 ? errno : 0;
		return dup2(a->fd, a->newfd) < 0 ? errno : 0;
	case FA_CHDIR:
		return chdir(a->path) < 0 ? errno : 0;
	default:
		return fchdir(a->fd) < 0 ? errno : 0;
	}
}

/* The descriptor an action makes or closes (the one the program names). */
static int action_target(const struct spawn_action *a)
{
	return a->kind == FA_DUP2 ? a->newfd : a->kind == FA_CHDIR ? -1 : a->fd;
}

/* The report pipe is ours, not the program's: an action that names its
 * descriptor first moves it out of the way (to a higher one, close-on-exec
 * still); a close of it closes nothing, as the program never had it open. */
static int child_actions(const posix_spawn_file_actions_t *fa, int *report)
{
	for (int i = 0; fa && *fa && i < (*fa)->nr; i++) {
		const struct spawn_action *a = &(*fa)->a[i];
		int err;

		if (action_target(a) == *report) {
			int moved = fcntl(*report, F_DUPFD_CLOEXEC, *report + 1);

			if (moved < 0)
				return errno;
			close(*report);
			*report = moved;
			if (a->kind == FA_CLOSE)
				continue;
		}
		if ((err = child_action(a)))
			return err;
	}
	return 0;
}

static void __attribute__((noreturn)) child(int report, const char *path, int search,
					     const posix_spawn_file_actions_t *fa,
					     const posix_spawnattr_t *attr, char *const argv[],
					     char *const envp[])
{
	int err = attr && *attr ? child_attrs(*attr) : 0;

	if (!err)
		err = child_actions(fa, &report);
	if (!err) {
		if (search)
			execvpe(path, argv, envp);
		else
			execve(path, argv, envp);
		err = errno;
	}
	while (write(report, &err, sizeof(err)) < 0 && errno == EINTR)
		;
	_exit(127);
}

static int spawn(pid_t *pidp, const char *path, int search, const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	int p[2], err = 0, saved = errno;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return errno;
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(p[0]);
		close(p[1]);
		errno = saved;
		return err;
	}
	if (pid == 0) {
		close(p[0]);
		child(p[1], path, search, fa, attr, argv, envp);
	}
	close(p[1]);
	while ((n = read(p[0], &err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(p[0]);
	if (n == sizeof(err)) {			/* the child failed before its exec */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	} else {
		err = 0;
		if (pidp)
			*pidp = pid;
	}
	errno = saved;
	return err;
}

int posix_spawn(pid_t *__restrict pid, const char *__restrict path,
		const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *__restrict attr,
		char *const argv[], char *const envp[])
{
	return spawn(pid, path, 0, fa, attr, argv, envp);
}

int posix_spawnp(pid_t *__restrict pid, const char *__restrict file,
		 const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *__restrict attr,
		 char *const argv[], char *const envp[])
{
	return spawn(pid, file, 1, fa, attr, argv, envp);
}
