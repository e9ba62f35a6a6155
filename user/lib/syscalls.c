/* syscalls.c: newlib's system-call layer (_read, _write, ...) and their POSIX names, on the int $0x80 stubs. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <signal.h>
#include "glue.h"
#include "pthread/tcb.h"
#include "signal_glue.h"
#include "uapi/ioctl.h"

/* A command no kernel knows (newlib's own ones): EBADF or EINVAL from it. */
#define GLUE_F_UNKNOWN		-1

/* argv as the process received it (crt0 stores it before constructors run). */
char **glue_argv;

/* POSIX name for an underscore stub; weak, so a program may bring its own. */
#define GLUE_ALIAS(posix, impl) \
	extern __typeof(impl) posix __attribute__((weak, alias(#impl)))

long glue_ret(long r)
{
	if (GLUE_IS_ERR(r)) {
		errno = abi_errno_from_kernel((int)-r);
		return -1;
	}
	return r;
}

long glue_neg_errno(long r)
{
	return GLUE_IS_ERR(r) ? -abi_errno_from_kernel((int)-r) : r;
}

/* newlib's stdio calls _read/_write holding the FILE's lock: they are no
 * cancellation points; read and write, the program's, are (pthread(3)). */
_READ_WRITE_RETURN_TYPE _read(int fd, void *buf, size_t n)
{
	long r = __sys_read(fd, buf, n);

	if (r > 0 && glue_is_signalfd(fd))
		__signalfd_fixup(buf, r);
	return glue_ret(r);
}

__attribute__((weak)) ssize_t read(int fd, void *buf, size_t n)
{
	long r = __SYSCALL_CP(__NR_read, fd, buf, n);

	if (r > 0 && glue_is_signalfd(fd))
		__signalfd_fixup(buf, r);
	return glue_ret(r);
}

_READ_WRITE_RETURN_TYPE _write(int fd, const void *buf, size_t n)
{
	return glue_ret(__sys_write(fd, buf, n));
}

__attribute__((weak)) ssize_t write(int fd, const void *buf, size_t n)
{
	return glue_ret(__SYSCALL_CP(__NR_write, fd, buf, n));
}

int glue_openat(int kdirfd, const char *path, int flags, unsigned mode, int cp)
{
	int kflags = abi_oflags_to_kernel(flags);

	if (kflags < 0) {
		errno = EINVAL;
		return -1;
	}
	if (cp)
		return glue_ret(__SYSCALL_CP(__NR_openat, kdirfd, path, kflags, mode));
	return glue_ret(__sys_openat(kdirfd, path, kflags, mode));
}

/* In a function taking open(2)'s arguments: its mode, passed only with O_CREAT. */
#define GLUE_OPEN_MODE(flags, mode) do {					\
	va_list ap;							\
	va_start(ap, flags);						\
	mode = ((flags) & O_CREAT) ? va_arg(ap, unsigned) : 0;		\
	va_end(ap);							\
} while (0)

/* newlib's (fopen's): no cancellation point. */
int _open(const char *path, int flags, ...)
{
	unsigned mode;

	GLUE_OPEN_MODE(flags, mode);
	return glue_openat(abi_dirfd_to_kernel(AT_FDCWD), path, flags, mode, 0);
}

/* A cancellation point, as POSIX's open; weak, so a program may bring its own. */
__attribute__((weak)) int open(const char *path, int flags, ...)
{
	unsigned mode;

	GLUE_OPEN_MODE(flags, mode);
	return glue_openat(abi_dirfd_to_kernel(AT_FDCWD), path, flags, mode, 1);
}

__attribute__((weak)) int creat(const char *path, mode_t mode)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

/* newlib's (fclose holds the stream's lock): no cancellation point. */
int _close(int fd)
{
	glue_forget_signalfd(fd);
	return glue_ret(__sys_close(fd));
}

/*
 * A cancellation point, as glibc's: a cancel that acts before the call enters
 * the kernel leaves fd open (the call was not made); once it entered, fd is
 * closed and the cancel waits for the next point.
 */
__attribute__((weak)) int close(int fd)
{
	glue_forget_signalfd(fd);	/* first, as _close: the number may be reused at once */
	return glue_ret(__SYSCALL_CP(__NR_close, fd));
}

_off_t _lseek(int fd, _off_t off, int whence)
{
	return glue_ret(__sys_lseek(fd, off, whence));	/* SEEK_* are 0, 1, 2 on both sides */
}
GLUE_ALIAS(lseek, _lseek);

/* Linux i386's struct stat64 -> newlib's struct stat (a size past off_t's
 * 2 GiB - 1 is clamped to it; BLKGETSIZE64 tells a device's real size). */
void glue_stat_from_kernel(const struct kernel_stat64 *k, struct stat *st)
{
	*st = (struct stat){ 0 };
	st->st_dev = k->st_dev;
	st->st_ino = k->st_ino;
	st->st_mode = k->st_mode;	/* S_IF* bits are the same octal values */
	st->st_nlink = k->st_nlink;
	st->st_uid = k->st_uid;
	st->st_gid = k->st_gid;
	st->st_rdev = k->st_rdev;
	st->st_size = k->st_size > INT32_MAX ? INT32_MAX : (off_t)k->st_size;
	st->st_blksize = k->st_blksize;
	st->st_blocks = k->st_blocks;
	st->st_atim = (struct timespec){ k->st_atime_sec, k->st_atime_nsec };
	st->st_mtim = (struct timespec){ k->st_mtime_sec, k->st_mtime_nsec };
	st->st_ctim = (struct timespec){ k->st_ctime_sec, k->st_ctime_nsec };
}

int _fstat(int fd, struct stat *st)
{
	struct kernel_stat64 k;
	long r = __sys_fstat64(fd, &k);

	if (!GLUE_IS_ERR(r))
		glue_stat_from_kernel(&k, st);
	return glue_ret(r);
}
GLUE_ALIAS(fstat, _fstat);

int _stat(const char *path, struct stat *st)
{
	struct kernel_stat64 k;
	long r = __sys_stat64(path, &k);

	if (!GLUE_IS_ERR(r))
		glue_stat_from_kernel(&k, st);
	return glue_ret(r);
}
GLUE_ALIAS(stat, _stat);

/* A terminal answers TCGETS; anything else is ENOTTY. */
int _isatty(int fd)
{
	struct kernel_termios t;

	return glue_ret(__sys_ioctl(fd, TCGETS, (unsigned long)&t)) == 0;
}
GLUE_ALIAS(isatty, _isatty);

/* The program break, as Linux brk: brk(0) reads it, brk(x) answers the break it got. */
void *_sbrk(ptrdiff_t incr)
{
	static unsigned long cur;
	unsigned long want;

	if (!cur)
		cur = (unsigned long)__sys_brk(0);
	want = cur + incr;
	if ((incr > 0 && want < cur) || (incr < 0 && want > cur))
		goto no_mem;
	if (incr && (unsigned long)__sys_brk(want) != want)
		goto no_mem;
	cur = want;
	return (void *)(want - incr);
no_mem:
	errno = ENOMEM;
	return (void *)-1;
}
GLUE_ALIAS(sbrk, _sbrk);

void _exit(int status)
{
	__sys_exit_group(status);
	__sys_exit(status);	/* a kernel without exit_group */
	for (;;)
		__sys_exit(status);
}

int _kill(pid_t pid, int sig)
{
	int ksig = __sig_to_kernel(sig);	/* real-time signals too */

	if (sig && !ksig) {
		errno = EINVAL;
		return -1;
	}
	return glue_ret(__sys_kill(pid, ksig));
}
GLUE_ALIAS(kill, _kill);

pid_t _getpid(void)
{
	return __sys_getpid();
}
GLUE_ALIAS(getpid, _getpid);

unsigned glue_fork_generation;

pid_t _fork(void)
{
	long r = __sys_fork();

	if (r == 0)
		glue_fork_generation++;
	return glue_ret(r);
}
GLUE_ALIAS(fork, _fork);

int _execve(const char *path, char *const argv[], char *const envp[])
{
	return glue_ret(__sys_execve(path, argv, envp));
}
GLUE_ALIAS(execve, _execve);

pid_t waitpid(pid_t pid, int *status, int options)
{
	int kstatus = 0;
	long r = __SYSCALL_CP(__NR_waitpid, pid, &kstatus, options);	/* WNOHANG 1,
								 * WUNTRACED 2 both sides */

	if (!GLUE_IS_ERR(r) && r > 0 && status)
		*status = abi_wait_status_from_kernel(kstatus);
	return glue_ret(r);
}

pid_t _wait(int *status)
{
	return waitpid(-1, status, 0);
}
GLUE_ALIAS(wait, _wait);

int _unlink(const char *path)
{
	return glue_ret(__sys_unlink(path));
}
GLUE_ALIAS(unlink, _unlink);

int _mkdir(const char *path, mode_t mode)
{
	return glue_ret(__sys_mkdir(path, mode));
}
GLUE_ALIAS(mkdir, _mkdir);

int rmdir(const char *path)
{
	return glue_ret(__sys_rmdir(path));
}

/* Hard links: ext2 (EPERM on ramfs, EXDEV across file systems, as the kernel says). */
int _link(const char *old, const char *new)
{
	return glue_ret(__sys_link(old, new));
}
GLUE_ALIAS(link, _link);

/* Symbolic links: ext2 directories (EPERM on ramfs). */
int symlink(const char *target, const char *linkpath)
{
	return glue_ret(__sys_symlink(target, linkpath));
}

/* The link's target, no NUL added: its length, or -1 (EINVAL: no link). */
ssize_t readlink(const char *path, char *buf, size_t size)
{
	return glue_ret(__sys_readlink(path, buf, size > INT_MAX ? INT_MAX : (int)size));
}

/* newlib's commands and flags -> the kernel's (F_DUPFD .. F_SETFL and
 * FD_CLOEXEC have the same values, the O_* bits differ; F_DUPFD_CLOEXEC,
 * the lock commands and struct flock are Linux's: <sys/fcntl.h>). */
int _fcntl(int fd, int cmd, ...)
{
	unsigned long arg;
	long r;
	va_list ap;

	va_start(ap, cmd);
	arg = va_arg(ap, unsigned long);	/* every command here takes an int or none */
	va_end(ap);
	switch (cmd) {
	case F_GETFL:
		r = __sys_fcntl(fd, F_GETFL, 0);
		return GLUE_IS_ERR(r) ? glue_ret(r) : abi_oflags_from_kernel((int)r);
	case F_SETFL:
		r = abi_oflags_to_kernel((int)arg & ~O_ACCMODE);
		if (r < 0) {
			errno = EINVAL;
			return -1;
		}
		return glue_ret(__sys_fcntl(fd, F_SETFL, r));
	case F_DUPFD: case F_GETFD: case F_SETFD: case F_DUPFD_CLOEXEC:
	case F_GETLK: case F_SETLK: case F_OFD_GETLK: case F_OFD_SETLK:
	case F_SETPIPE_SZ: case F_GETPIPE_SZ:
		return glue_ret(__sys_fcntl(fd, cmd, arg));
	case F_SETLKW: case F_OFD_SETLKW:	/* cancellation points, as glibc's */
		return glue_ret(__SYSCALL_CP(__NR_fcntl, fd, cmd, arg));
	case F_GETLK64: case F_SETLK64:
		return glue_ret(__sys_fcntl64(fd, cmd, arg));
	case F_SETLKW64:
		return glue_ret(__SYSCALL_CP(__NR_fcntl64, fd, cmd, arg));
	}
	return glue_ret(__sys_fcntl(fd, GLUE_F_UNKNOWN, arg));	/* EBADF or EINVAL */
}
GLUE_ALIAS(fcntl, _fcntl);

int _gettimeofday(struct timeval *tv, void *tz)
{
	struct kernel_timeval ktv;
	long r = __sys_gettimeofday(&ktv, 0);

	(void)tz;		/* time zones are not kept */
	if (!GLUE_IS_ERR(r) && tv)
		*tv = (struct timeval){ ktv.tv_sec, ktv.tv_usec };
	return glue_ret(r);
}
GLUE_ALIAS(gettimeofday, _gettimeofday);

