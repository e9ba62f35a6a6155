/* test_posix.c: the "posix" suite: the POSIX calls AIO programs use (stat, access, *at, cwd, rename, vectored I/O, poll/select, fcntl, ioctl, pipe2/dup3, ...) with their errors. */
#define _GNU_SOURCE		/* pipe2, dup3, O_DIRECT, AT_EMPTY_PATH */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "lx_syscall.h"
#define UAPI_STRUCTS_ONLY
#include "uapi/stat.h"
#undef UAPI_STRUCTS_ONLY
#include "utest.h"

/* The kernel's (Linux's) errno values, for raw system calls. */
#define K_EBADF		9
#define K_EFAULT	14
#define K_EINVAL	22
#define K_EEXIST	17
#define K_ENOTTY	25

#define BAD_PTR		((void *)0xc0010000)	/* a kernel address */
#define DIR_T		"/tmp/posix"

static char *const no_env[] = { NULL };

/* A raw system call with six arguments (the sixth in ebp, saved around it). */
static long raw6(long nr, long a, long b, long c, long d, long e, long f)
{
	long args[2] = { f, nr }, r;

	__asm__ volatile("push %%ebp\n\tmovl 0(%%eax), %%ebp\n\tmovl 4(%%eax), %%eax\n\t"
			 "int $0x80\n\tpop %%ebp"
			 : "=a"(r)
			 : "a"(args), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory");
	return r;
}

/* Make a file of n bytes (each its offset & 0xff); its fd, open O_RDWR. */
static int make_file(const char *path, int n)
{
	char buf[512];
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);

	for (int done = 0; fd >= 0 && done < n; ) {
		int k = n - done < (int)sizeof(buf) ? n - done : (int)sizeof(buf);
		for (int i = 0; i < k; i++)
			buf[i] = (char)(done + i);
		if (write(fd, buf, k) != k)
			return -1;
		done += k;
	}
	return fd;
}

static int fresh_dir(const char *path)
{
	mkdir(DIR_T, 0755);
	return mkdir(path, 0755);
}

/* Remove what a case made (names in order: files, then their directories);
 * the leak check after the suites counts every inode and page left. */
static void remove_all(const char *const *paths)
{
	for (; *paths; paths++)
		if (unlink(*paths) < 0)
			rmdir(*paths);
}

#define REMOVE(...)	remove_all((const char *const[]){ __VA_ARGS__, DIR_T, NULL })

static int file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* A child that waits ms, then writes one byte to fd (or signals pid if fd < 0). */
static pid_t later(int ms, int fd, pid_t pid, int sig)
{
	pid_t child;

	fflush(stdout);
	child = fork();
	if (child == 0) {
		usleep(ms * 1000);
		if (fd >= 0)
			_exit(write(fd, "!", 1) == 1 ? 0 : 1);
		_exit(kill(pid, sig) == 0 ? 0 : 1);
	}
	return child;
}

static int access_and_faccessat(void)
{
	int dir, fd;

	CHECK_EQ(fresh_dir(DIR_T "/acc"), 0);
	fd = make_file(DIR_T "/acc/f", 10);
	CHECK(fd >= 0);
	CHECK_EQ(access("/bin/init", X_OK), 0);
	CHECK_EQ(access(DIR_T "/acc/f", R_OK | W_OK), 0);
	CHECK_ERR(access(DIR_T "/acc/f", X_OK), EACCES);	/* 0644: no execute bit */
	CHECK_EQ(access(DIR_T "/acc", X_OK), 0);		/* directories are searchable */
	CHECK_ERR(access(DIR_T "/acc/none", F_OK), ENOENT);
	CHECK_ERR(access(DIR_T "/acc/f/x", F_OK), ENOTDIR);
	CHECK_ERR(access(DIR_T "/acc/f", 0x10), EINVAL);
	CHECK_ERR(access(BAD_PTR, F_OK), EFAULT);
	CHECK_ERR(access("", F_OK), ENOENT);
	dir = open(DIR_T "/acc", O_RDONLY | O_DIRECTORY);
	CHECK(dir >= 0);
	CHECK_EQ(faccessat(dir, "f", R_OK, 0), 0);
	CHECK_EQ(faccessat(AT_FDCWD, DIR_T "/acc/f", W_OK, AT_EACCESS), 0);
	CHECK_EQ(faccessat(99, "/bin/init", F_OK, 0), 0);	/* absolute: dirfd unused */
	CHECK_ERR(faccessat(99, "f", F_OK, 0), EBADF);
	CHECK_ERR(faccessat(fd, "f", F_OK, 0), ENOTDIR);
	CHECK_ERR(faccessat(dir, "f", F_OK, 0x4000), EINVAL);
	CHECK_EQ(faccessat(fd, "", R_OK, AT_EMPTY_PATH), 0);
	close(dir);
	close(fd);
	REMOVE(DIR_T "/acc/f", DIR_T "/acc");
	return 0;
}

static int stat_family(void)
{
	struct stat a, b;
	struct kernel_stat ks;
	struct kernel_stat64 k64;
	int fd, fds[2], dir;

	CHECK_EQ(fresh_dir(DIR_T "/st"), 0);
	umask(022);
	fd = make_file(DIR_T "/st/f", 5000);
	CHECK(fd >= 0);
	CHECK_EQ(stat(DIR_T "/st/f", &a), 0);
	CHECK(S_ISREG(a.st_mode));
	CHECK_EQ(a.st_mode & 0777, 0644);
	CHECK_EQ(a.st_size, 5000);
	CHECK_EQ(a.st_nlink, 1);
	CHECK_EQ(a.st_blocks, 10);
	CHECK(a.st_mtime > 1500000000 && a.st_uid == 0 && a.st_gid == 0);
	CHECK_EQ(fstat(fd, &b), 0);
	CHECK(b.st_ino == a.st_ino && b.st_size == 5000 && b.st_dev == a.st_dev);
	CHECK_EQ(lstat(DIR_T "/st/f", &b), 0);
	CHECK(b.st_ino == a.st_ino);
	dir = open(DIR_T "/st", O_RDONLY | O_DIRECTORY);
	CHECK_EQ(fstatat(dir, "f", &b, 0), 0);
	CHECK(b.st_ino == a.st_ino);
	CHECK_EQ(fstatat(fd, "", &b, AT_EMPTY_PATH), 0);
	CHECK(b.st_ino == a.st_ino);
	CHECK_EQ(stat("/dev/null", &b), 0);
	CHECK(S_ISCHR(b.st_mode));
	CHECK_EQ(stat(DIR_T "/st/", &b), 0);
	CHECK(S_ISDIR(b.st_mode));
	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(fstat(fds[0], &b), 0);
	CHECK(S_ISFIFO(b.st_mode));
	/* errors */
	CHECK_ERR(stat("", &b), ENOENT);
	CHECK_ERR(stat(DIR_T "/st/none", &b), ENOENT);
	CHECK_ERR(stat(DIR_T "/st/f/", &b), ENOTDIR);
	CHECK_ERR(stat(BAD_PTR, &b), EFAULT);
	CHECK_ERR(fstat(-1, &b), EBADF);
	CHECK_ERR(fstatat(dir, "f", &b, 0x8000), EINVAL);
	CHECK_ERR(fstatat(fd, "f", &b, 0), ENOTDIR);
	/* the raw calls fill Linux i386's layouts */
	CHECK_EQ(lx_syscall(106, (long)DIR_T "/st/f", (long)&ks, 0, 0, 0), 0);
	CHECK(ks.st_size == 5000 && ks.st_ino == a.st_ino && (ks.st_mode & 0170000) == 0100000);
	CHECK_EQ(lx_syscall(108, fd, (long)&ks, 0, 0, 0), 0);
	CHECK_EQ(ks.st_blksize, 4096);
	CHECK_EQ(lx_syscall(195, (long)DIR_T "/st/f", (long)&k64, 0, 0, 0), 0);
	CHECK(k64.st_size == 5000 && k64.st_ino == a.st_ino && k64.__st_ino == a.st_ino);
	CHECK_EQ(lx_syscall(300, -100, (long)"/tmp/posix/st/f", (long)&k64, 0, 0), 0);
	CHECK_EQ(k64.st_blocks, 10);
	CHECK_EQ(lx_syscall(108, fd, (long)BAD_PTR, 0, 0, 0), -K_EFAULT);
	CHECK_EQ(lx_syscall(197, fd, (long)NULL, 0, 0, 0), -K_EFAULT);
	CHECK_EQ(lx_syscall(107, (long)DIR_T "/st/f", (long)&ks, 0, 0, 0), 0);	/* lstat */
	close(dir);
	close(fd);
	REMOVE(DIR_T "/st/f", DIR_T "/st");
	return 0;
}

/* Exits 0 iff the child of fork sees the same working directory, and its
 * chdir does not move the parent's. */
static int cwd_inherited(const char *want)
{
	char buf[64];
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(!(getcwd(buf, sizeof(buf)) && !strcmp(buf, want) && chdir("/") == 0));
	CHECK(utest_child_ok(pid));
	CHECK(getcwd(buf, sizeof(buf)) && !strcmp(buf, want));
	return 0;
}

static int working_directory(void)
{
	char buf[64], *dyn;
	int fd, dir;
	struct stat st;

	CHECK(getcwd(buf, sizeof(buf)) && !strcmp(buf, "/"));
	CHECK_EQ(fresh_dir(DIR_T "/cwd"), 0);
	CHECK_EQ(chdir(DIR_T "/cwd"), 0);
	CHECK(getcwd(buf, sizeof(buf)) && !strcmp(buf, DIR_T "/cwd"));
	fd = open("f", O_CREAT | O_RDWR, 0600);			/* relative to the cwd */
	CHECK(fd >= 0);
	CHECK_EQ(stat(DIR_T "/cwd/f", &st), 0);
	CHECK_EQ(mkdir("sub", 0755), 0);
	CHECK_EQ(chdir("sub/../.."), 0);
	CHECK(getcwd(buf, sizeof(buf)) && !strcmp(buf, DIR_T));
	dir = open("cwd", O_RDONLY);
	CHECK_EQ(fchdir(dir), 0);
	CHECK(getcwd(buf, sizeof(buf)) && !strcmp(buf, DIR_T "/cwd"));
	CHECK(!cwd_inherited(DIR_T "/cwd"));
	dyn = getcwd(NULL, 0);
	CHECK(dyn && !strcmp(dyn, DIR_T "/cwd"));
	free(dyn);
	/* errors */
	CHECK(getcwd(buf, 3) == NULL && errno == ERANGE);
	CHECK(getcwd(buf, 0) == NULL && errno == EINVAL);
	CHECK(getcwd(BAD_PTR, 64) == NULL && errno == EFAULT);
	CHECK_ERR(chdir("f"), ENOTDIR);
	CHECK_ERR(chdir("none"), ENOENT);
	CHECK_ERR(chdir(BAD_PTR), EFAULT);
	CHECK_ERR(fchdir(fd), ENOTDIR);
	CHECK_ERR(fchdir(-1), EBADF);
	/* a working directory that is removed finds nothing any more */
	CHECK_EQ(chdir("sub"), 0);
	CHECK_EQ(rmdir(DIR_T "/cwd/sub"), 0);
	CHECK(getcwd(buf, sizeof(buf)) == NULL && errno == ENOENT);
	CHECK_ERR(open("g", O_CREAT | O_RDWR, 0600), ENOENT);
	CHECK_EQ(chdir("/"), 0);
	close(fd);
	close(dir);
	REMOVE(DIR_T "/cwd/f", DIR_T "/cwd");
	return 0;
}

static int at_calls(void)
{
	struct stat st;
	int dir, fd;

	CHECK_EQ(fresh_dir(DIR_T "/at"), 0);
	dir = open(DIR_T "/at", O_RDONLY | O_DIRECTORY);
	CHECK(dir >= 0);
	fd = openat(dir, "a", O_CREAT | O_RDWR | O_EXCL, 0600);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, "abc", 3), 3);
	CHECK_EQ(mkdirat(dir, "sub", 0755), 0);
	CHECK_EQ(renameat(dir, "a", dir, "sub/b"), 0);
	CHECK_EQ(fstatat(dir, "sub/b", &st, 0), 0);
	CHECK_EQ(st.st_size, 3);
	CHECK_ERR(unlinkat(dir, "sub", 0), EISDIR);
	CHECK_ERR(unlinkat(dir, "sub", AT_REMOVEDIR), ENOTEMPTY);
	CHECK_EQ(unlinkat(dir, "sub/b", 0), 0);
	CHECK_EQ(unlinkat(dir, "sub", AT_REMOVEDIR), 0);
	CHECK(!file_exists(DIR_T "/at/sub"));
	CHECK_EQ(close(openat(99, DIR_T "/at/abs", O_CREAT | O_RDWR, 0600)), 0);	/* absolute */
	/* errors */
	CHECK_ERR(openat(99, "x", O_RDONLY), EBADF);
	CHECK_ERR(openat(fd, "x", O_RDONLY), ENOTDIR);
	CHECK_ERR(openat(dir, "abs", O_CREAT | O_EXCL | O_RDWR, 0600), EEXIST);
	CHECK_ERR(openat(dir, "abs", O_RDONLY | O_DIRECTORY), ENOTDIR);
	CHECK_ERR(openat(dir, BAD_PTR, O_RDONLY), EFAULT);
	CHECK_ERR(unlinkat(dir, "abs", 0x4000), EINVAL);
	CHECK_ERR(mkdirat(dir, "abs", 0755), EEXIST);
	CHECK_ERR(mkdirat(-1, "x", 0755), EBADF);
	CHECK_ERR(unlinkat(dir, ".", AT_REMOVEDIR), EINVAL);
	CHECK_ERR(rmdir("/"), EBUSY);
	close(fd);
	close(dir);
	REMOVE(DIR_T "/at/abs", DIR_T "/at");
	return 0;
}

static int rename_cases(void)
{
	char buf[8] = { 0 };
	int fd;

	CHECK_EQ(fresh_dir(DIR_T "/rn"), 0);
	fd = make_file(DIR_T "/rn/old", 4);
	CHECK(fd >= 0 && make_file(DIR_T "/rn/target", 9) >= 0);
	CHECK_EQ(rename(DIR_T "/rn/old", DIR_T "/rn/target"), 0);	/* replaces */
	CHECK(!file_exists(DIR_T "/rn/old"));
	CHECK_EQ(pread(fd, buf, 8, 0), 4);			/* the open file moved with it */
	CHECK_EQ(rename(DIR_T "/rn/target", DIR_T "/rn/target"), 0);
	CHECK_EQ(mkdir(DIR_T "/rn/d", 0755), 0);
	CHECK_EQ(mkdir(DIR_T "/rn/d/e", 0755), 0);
	CHECK_EQ(mkdir(DIR_T "/rn/empty", 0755), 0);
	CHECK_ERR(rename(DIR_T "/rn/d", DIR_T "/rn/d/e/f"), EINVAL);	/* into itself */
	CHECK_ERR(rename(DIR_T "/rn/none", DIR_T "/rn/x"), ENOENT);
	CHECK_ERR(rename(DIR_T "/rn/empty", DIR_T "/rn/d"), ENOTEMPTY);
	CHECK_ERR(rename(DIR_T "/rn/target", DIR_T "/rn/d"), EISDIR);
	CHECK_ERR(rename(DIR_T "/rn/d", DIR_T "/rn/target"), ENOTDIR);
	CHECK_ERR(rename("/", DIR_T "/rn/x"), EBUSY);
	CHECK_ERR(rename(BAD_PTR, DIR_T "/rn/x"), EFAULT);
	CHECK_ERR(rename(DIR_T "/rn/target", DIR_T "/rn/none/x"), ENOENT);
	CHECK_EQ(lx_syscall(353, -100, (long)DIR_T "/rn/target", -100, (long)DIR_T "/rn/empty", 1),
		 -K_EEXIST);					/* renameat2 RENAME_NOREPLACE */
	CHECK_EQ(rename(DIR_T "/rn/d", DIR_T "/rn/empty"), 0);	/* over an empty directory */
	CHECK(file_exists(DIR_T "/rn/empty/e") && !file_exists(DIR_T "/rn/d"));
	CHECK_EQ(rename(DIR_T "/rn/target", DIR_T "/rn/empty/e/t"), 0);
	CHECK_EQ(pread(fd, buf, 8, 0), 4);
	close(fd);
	REMOVE(DIR_T "/rn/empty/e/t", DIR_T "/rn/empty/e", DIR_T "/rn/empty", DIR_T "/rn");
	return 0;
}

static int system_info(void)
{
	struct utsname u;
	struct sysinfo si;
	time_t t = 0, now;
	struct stat st;
	int fd;

	CHECK_EQ(uname(&u), 0);
	CHECK(!strcmp(u.sysname, "aiokern") && !strcmp(u.machine, "i686") && u.release[0]);
	CHECK_EQ(lx_syscall(122, (long)BAD_PTR, 0, 0, 0, 0), -K_EFAULT);
	CHECK_EQ(getpagesize(), 4096);
	CHECK_EQ(sysconf(_SC_PAGESIZE), 4096);
	CHECK(sysconf(_SC_NPROCESSORS_ONLN) >= 1 && sysconf(_SC_NPROCESSORS_ONLN) <= 8);
	CHECK(sysconf(_SC_PHYS_PAGES) > 4096 && sysconf(_SC_PHYS_PAGES) < 1048576);	/* 16 MiB..4 GiB */
	CHECK(sysconf(_SC_AVPHYS_PAGES) > 0 && sysconf(_SC_AVPHYS_PAGES) <= sysconf(_SC_PHYS_PAGES));
	CHECK_ERR(sysconf(9999), EINVAL);
	/* the POSIX options this system has answer 200809, as glibc's */
	CHECK_EQ(sysconf(_SC_THREADS), 200809L);
	CHECK_EQ(sysconf(_SC_SEMAPHORES), 200809L);
	CHECK_EQ(sysconf(_SC_THREAD_PROCESS_SHARED), 200809L);
	CHECK_EQ(sysconf(_SC_ASYNCHRONOUS_IO), 200809L);
	CHECK_EQ(sysconf(_SC_REALTIME_SIGNALS), 200809L);
	CHECK_EQ(sysconf(_SC_THREAD_STACK_MIN), PTHREAD_STACK_MIN);
	CHECK_EQ(sysconf(_SC_THREAD_KEYS_MAX), PTHREAD_KEYS_MAX);
	/* <unistd.h>'s option macros say the same as sysconf (newlib sets them only
	 * for RTEMS and Cygwin: user/include/sys/features.h) */
	CHECK_EQ(sysconf(_SC_THREADS), _POSIX_THREADS);
	CHECK_EQ(sysconf(_SC_REALTIME_SIGNALS), _POSIX_REALTIME_SIGNALS);
	CHECK_EQ(sysconf(_SC_ASYNCHRONOUS_IO), _POSIX_ASYNCHRONOUS_IO);
	CHECK_EQ(sysconf(_SC_SEMAPHORES), _POSIX_SEMAPHORES);
	CHECK_EQ(sysconf(_SC_BARRIERS), _POSIX_BARRIERS);
	CHECK_EQ(sysconf(_SC_SPIN_LOCKS), _POSIX_SPIN_LOCKS);
	CHECK_EQ(sysconf(_SC_READER_WRITER_LOCKS), _POSIX_READER_WRITER_LOCKS);
	CHECK_EQ(sysconf(_SC_TIMEOUTS), _POSIX_TIMEOUTS);
	CHECK_EQ(sysconf(_SC_FSYNC), _POSIX_FSYNC);
	CHECK_EQ(sysconf(_SC_SYNCHRONIZED_IO), _POSIX_SYNCHRONIZED_IO);
	CHECK_EQ(sysconf(_SC_MAPPED_FILES), _POSIX_MAPPED_FILES);
	CHECK_EQ(sysconf(_SC_MEMORY_PROTECTION), _POSIX_MEMORY_PROTECTION);
	CHECK_EQ(sysconf(_SC_SHARED_MEMORY_OBJECTS), _POSIX_SHARED_MEMORY_OBJECTS);
	CHECK_EQ(sysconf(_SC_THREAD_PROCESS_SHARED), _POSIX_THREAD_PROCESS_SHARED);
	errno = 0;
	CHECK(sysconf(_SC_CHILD_MAX) == -1 && errno == 0);	/* no fixed limit */
	CHECK_EQ(sysinfo(&si), 0);
	CHECK(si.mem_unit == 4096 && si.totalram == (unsigned long)sysconf(_SC_PHYS_PAGES));
	CHECK(si.procs >= 2 && si.freeram <= si.totalram && si.totalhigh > 0);
	CHECK_ERR(sysinfo(BAD_PTR), EFAULT);
	CHECK(getuid() == 0 && geteuid() == 0 && getgid() == 0 && getegid() == 0);
	CHECK_EQ(lx_syscall(24, 0, 0, 0, 0, 0), 0);
	now = time(&t);
	CHECK(now > 1500000000 && t == now);
	CHECK_EQ(lx_syscall(13, (long)BAD_PTR, 0, 0, 0, 0), -K_EFAULT);
	CHECK_EQ(umask(027), 022);
	fd = open(DIR_T "-umask", O_CREAT | O_RDWR, 0666);
	CHECK(fd >= 0 && fstat(fd, &st) == 0);
	CHECK_EQ(st.st_mode & 0777, 0640);
	CHECK_EQ(mkdir(DIR_T "-umask-d", 0777), 0);
	CHECK(stat(DIR_T "-umask-d", &st) == 0 && (st.st_mode & 0777) == 0750);
	CHECK_EQ(umask(022), 027);
	close(fd);
	REMOVE(DIR_T "-umask", DIR_T "-umask-d");
	return 0;
}

static int vectored_io(void)
{
	char a[4], b[6], c[3], in[13] = { 0 };
	struct iovec w[3] = { { "0123", 4 }, { "456789", 6 }, { "abc", 3 } };
	struct iovec r[3] = { { a, 4 }, { b, 6 }, { c, 3 } }, bad[2];
	int fd = make_file(DIR_T "-vec", 0), fds[2], rd;

	CHECK(fd >= 0);
	CHECK_EQ(writev(fd, w, 3), 13);
	CHECK_EQ(pread(fd, in, 13, 0), 13);
	CHECK(!memcmp(in, "0123456789abc", 13));
	CHECK_EQ(preadv(fd, r, 2, 3), 10);			/* "3456" "789abc" */
	CHECK(!memcmp(a, "3456", 4) && !memcmp(b, "789abc", 6));
	CHECK_EQ(pwritev(fd, w + 2, 1, 1), 3);
	CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
	CHECK_EQ(readv(fd, r, 3), 13);				/* file position moves */
	CHECK(!memcmp(a, "0abc", 4) && !memcmp(c, "abc", 3));
	CHECK_EQ(readv(fd, r, 3), 0);				/* at the end */
	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(writev(fds[1], w, 2), 10);
	CHECK_EQ(readv(fds[0], r, 3), 10);			/* a short read stops the vector */
	CHECK_EQ(writev(fds[1], w, 0), 0);
	/* errors */
	CHECK_ERR(readv(fd, r, -1), EINVAL);
	CHECK_ERR(readv(fd, r, 1025), EINVAL);
	CHECK_ERR(readv(fd, NULL, 1), EFAULT);
	bad[0] = (struct iovec){ BAD_PTR, 4 };
	CHECK_ERR(pwritev(fd, bad, 1, 0), EFAULT);
	bad[0] = (struct iovec){ a, 0x7fffffff };
	bad[1] = (struct iovec){ b, 2 };
	CHECK_ERR(readv(fd, bad, 2), EINVAL);			/* more than SSIZE_MAX in all */
	CHECK_ERR(preadv(fds[0], r, 1, 0), ESPIPE);
	CHECK_ERR(preadv(fd, r, 1, -1), EINVAL);
	CHECK_ERR(readv(-1, r, 1), EBADF);
	rd = open(DIR_T "-vec", O_RDONLY);
	CHECK_ERR(writev(rd, w, 1), EBADF);
	CHECK_ERR(readv(open("/tmp", O_RDONLY), r, 1), EISDIR);
	close(rd);
	close(fd);
	REMOVE(DIR_T "-vec");
	return 0;
}

static int poll_pipes_files_console(void)
{
	struct pollfd p[4];
	struct timespec ts = { 0, 30 * 1000000 }, bad = { 0, 2000000000L };
	sigset_t mask;
	long long t0;
	char c;
	pid_t writer;
	int fds[2], fd = make_file(DIR_T "-poll", 1);

	CHECK_EQ(pipe(fds), 0);
	p[0] = (struct pollfd){ fds[0], POLLIN, 0 };
	p[1] = (struct pollfd){ fds[1], POLLOUT, 0 };
	p[2] = (struct pollfd){ -1, POLLIN, 77 };
	p[3] = (struct pollfd){ fd, POLLIN | POLLOUT, 0 };
	CHECK_EQ(poll(p, 4, 0), 2);				/* writable pipe, a file */
	CHECK(p[0].revents == 0 && (p[1].revents & POLLOUT) && p[2].revents == 0);
	CHECK_EQ(p[3].revents, POLLIN | POLLOUT);
	CHECK_EQ(write(fds[1], "x", 1), 1);
	CHECK_EQ(poll(p, 1, -1), 1);
	CHECK_EQ(p[0].revents, POLLIN);
	CHECK_EQ(read(fds[0], &c, 1), 1);
	t0 = utest_now_ns();
	CHECK_EQ(poll(p, 1, 30), 0);				/* nothing within 30 ms */
	CHECK(utest_now_ns() - t0 >= 29000000);
	/* a writer 50 ms later wakes a poll without a timeout */
	t0 = utest_now_ns();
	writer = later(50, fds[1], 0, 0);
	CHECK_EQ(poll(p, 1, -1), 1);
	CHECK(utest_now_ns() - t0 >= 45000000 && p[0].revents == POLLIN);
	CHECK(utest_child_ok(writer));
	CHECK_EQ(read(fds[0], &c, 1), 1);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	CHECK_EQ(ppoll(p, 1, &ts, &mask), 0);
	CHECK_ERR(ppoll(p, 1, &bad, NULL), EINVAL);
	CHECK_EQ(lx_syscall(309, (long)p, 1, (long)&ts, (long)&mask, 4), -K_EINVAL);	/* sigsetsize */
	/* hang-up and error */
	CHECK_EQ(close(fds[1]), 0);
	CHECK_EQ(poll(p, 1, 0), 1);
	CHECK_EQ(p[0].revents, POLLHUP);			/* no writer left */
	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(close(fds[0]), 0);
	p[1].fd = fds[1];
	CHECK_EQ(poll(p + 1, 1, 0), 1);
	CHECK(p[1].revents & POLLERR);				/* no reader left */
	p[1].fd = 63;						/* not open */
	CHECK_EQ(poll(p + 1, 1, 0), 1);
	CHECK_EQ(p[1].revents, POLLNVAL);
	p[1] = (struct pollfd){ 1, POLLOUT, 0 };		/* the console */
	CHECK_EQ(poll(p + 1, 1, 0), 1);
	CHECK(p[1].revents & POLLOUT);
	/* errors */
	CHECK_ERR(poll(NULL, 1, 0), EFAULT);
	CHECK_ERR(poll(p, 2000, 0), EINVAL);
	close(fd);
	REMOVE(DIR_T "-poll");
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
}

/* A caught signal ends a wait: EINTR (poll never restarts, as Linux). */
static int poll_interrupted_by_signal(void)
{
	struct pollfd p;
	pid_t child;
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	CHECK(signal(SIGWINCH, on_signal) != SIG_ERR);
	p = (struct pollfd){ fds[0], POLLIN, 0 };
	child = later(30, -1, getpid(), SIGWINCH);
	CHECK_ERR(poll(&p, 1, 2000), EINTR);
	CHECK(utest_child_ok(child));
	signal(SIGWINCH, SIG_DFL);
	return 0;
}

static int select_and_pselect(void)
{
	fd_set rd, wr;
	struct timeval tv = { 0, 0 };
	struct timespec ts = { 0, 20 * 1000000 };
	unsigned long sig[2] = { 0, 8 };
	long long t0;
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(fds[0], &rd);
	FD_SET(fds[1], &wr);
	CHECK_EQ(select(fds[1] + 1, &rd, &wr, NULL, &tv), 1);
	CHECK(!FD_ISSET(fds[0], &rd) && FD_ISSET(fds[1], &wr));
	CHECK_EQ(write(fds[1], "ab", 2), 2);
	FD_SET(fds[0], &rd);
	CHECK_EQ(select(fds[0] + 1, &rd, NULL, NULL, NULL), 1);
	CHECK(FD_ISSET(fds[0], &rd));
	CHECK_EQ(read(fds[0], &tv, 2), 2);
	tv = (struct timeval){ 0, 30000 };
	t0 = utest_now_ns();
	CHECK_EQ(select(fds[0] + 1, &rd, NULL, NULL, &tv), 0);
	CHECK(utest_now_ns() - t0 >= 29000000 && !FD_ISSET(fds[0], &rd));
	CHECK(tv.tv_sec == 0 && tv.tv_usec < 30000);		/* the time left */
	FD_SET(fds[0], &rd);
	CHECK_EQ(pselect(fds[0] + 1, &rd, NULL, NULL, &ts, NULL), 0);
	CHECK_EQ(ts.tv_nsec, 20 * 1000000);			/* pselect leaves it alone */
	/* errors */
	FD_ZERO(&rd);
	FD_SET(40, &rd);					/* not open */
	CHECK_ERR(select(41, &rd, NULL, NULL, NULL), EBADF);
	CHECK_ERR(select(-1, NULL, NULL, NULL, NULL), EINVAL);
	tv = (struct timeval){ 0, 1000000 };
	CHECK_ERR(select(1, NULL, NULL, NULL, &tv), EINVAL);
	CHECK_ERR(select(fds[0] + 1, BAD_PTR, NULL, NULL, &(struct timeval){ 0, 0 }), EFAULT);
	CHECK_EQ(raw6(308, 1, 0, 0, 0, (long)&ts, (long)BAD_PTR), -K_EFAULT);
	sig[0] = (unsigned long)&sig;				/* a mask of the wrong size */
	sig[1] = 4;
	CHECK_EQ(raw6(308, 1, 0, 0, 0, (long)&ts, (long)sig), -K_EINVAL);
	sig[1] = 8;
	CHECK_EQ(raw6(308, 1, 0, 0, 0, (long)&(struct timespec){ 0, 0 }, (long)sig), 0);
	/* fd_set holds 1,024 descriptors (FD_SETSIZE, as Linux's): one at 700 */
	CHECK_EQ(FD_SETSIZE, 1024);
	CHECK_EQ(sizeof(fd_set), 128);
	CHECK_EQ(dup2(fds[1], 700), 700);
	FD_ZERO(&wr);
	FD_SET(700, &wr);
	tv = (struct timeval){ 0, 0 };
	CHECK_EQ(select(701, NULL, &wr, NULL, &tv), 1);
	CHECK(FD_ISSET(700, &wr));
	close(700);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int fcntl_cases(void)
{
	char buf[8] = { 0 };
	int fd = make_file(DIR_T "-fcntl", 3), fds[2], d;

	CHECK(fd >= 0);
	CHECK_EQ(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDWR);
	CHECK_EQ(fcntl(fd, F_GETFL) & (O_APPEND | O_NONBLOCK | O_CREAT | O_TRUNC), 0);
	CHECK_EQ(fcntl(fd, F_SETFL, O_APPEND | O_RDONLY), 0);	/* access mode unchanged */
	CHECK_EQ(fcntl(fd, F_GETFL), O_RDWR | O_APPEND);
	CHECK_EQ(pwrite(fd, "x", 1, 0) >= 0 && lseek(fd, 0, SEEK_SET) == 0, 1);
	CHECK_EQ(write(fd, "Z", 1), 1);				/* O_APPEND: at the end */
	CHECK_EQ(pread(fd, buf, 8, 0), 5);
	CHECK_EQ(buf[4], 'Z');
	d = fcntl(fd, F_DUPFD, 10);
	CHECK(d >= 10);
	CHECK_EQ(fcntl(d, F_GETFD), 0);
	d = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	CHECK(d >= 0 && d < 10);
	CHECK_EQ(fcntl(d, F_GETFD), FD_CLOEXEC);
	CHECK_EQ(fcntl(d, F_SETFD, 0), 0);
	CHECK_EQ(fcntl(d, F_GETFD), 0);
	/* O_NONBLOCK on a pipe: EAGAIN instead of waiting */
	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
	CHECK_EQ(fcntl(fds[0], F_GETFL), O_RDONLY | O_NONBLOCK);
	CHECK_ERR(read(fds[0], buf, 1), EAGAIN);
	CHECK_EQ(write(fds[1], "q", 1), 1);
	CHECK_EQ(read(fds[0], buf, 1), 1);
	/* errors */
	CHECK_ERR(fcntl(-1, F_GETFL), EBADF);
	CHECK_ERR(fcntl(60, F_GETFD), EBADF);
	CHECK_ERR(fcntl(fd, 9999), EINVAL);
	CHECK_ERR(fcntl(fd, F_DUPFD, 1024), EINVAL);	/* NR_OPEN */
	CHECK_ERR(fcntl(fd, F_DUPFD, -1), EINVAL);
	close(fd);
	REMOVE(DIR_T "-fcntl");
	return 0;
}

static int ioctl_cases(void)
{
	struct termios t;
	int n = -1, fds[2], fd = make_file(DIR_T "-ioctl", 100), on = 1;

	CHECK(fd >= 0);
	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(write(fds[1], "1234567", 7), 7);
	CHECK_EQ(ioctl(fds[0], FIONREAD, &n), 0);
	CHECK_EQ(n, 7);
	CHECK_EQ(lseek(fd, 30, SEEK_SET), 30);
	CHECK_EQ(ioctl(fd, FIONREAD, &n), 0);
	CHECK_EQ(n, 70);
	CHECK_EQ(isatty(1), 1);				/* the console answers TCGETS */
	CHECK_EQ(tcgetattr(1, &t), 0);
	CHECK_EQ(cfgetospeed(&t), B115200);
	CHECK_EQ(tcsetattr(1, TCSANOW, &t), 0);
	errno = 0;
	CHECK(isatty(fds[0]) == 0 && errno == ENOTTY);
	CHECK(isatty(fd) == 0 && errno == ENOTTY);
	CHECK(isatty(-1) == 0 && errno == EBADF);
	CHECK_EQ(ioctl(fds[0], FIONBIO, &on), 0);
	CHECK(fcntl(fds[0], F_GETFL) & O_NONBLOCK);
	CHECK_EQ(ioctl(fds[0], FIOCLEX), 0);
	CHECK_EQ(fcntl(fds[0], F_GETFD), FD_CLOEXEC);
	/* errors */
	CHECK_ERR(ioctl(fd, 0xdead, 0), ENOTTY);
	CHECK_ERR(ioctl(fd, TCGETS, &t), ENOTTY);
	CHECK_ERR(ioctl(-1, FIONREAD, &n), EBADF);
	CHECK_ERR(ioctl(fds[0], FIONREAD, BAD_PTR), EFAULT);
	CHECK_ERR(tcsetattr(1, 7, &t), EINVAL);
	CHECK_EQ(lx_syscall(54, fd, 0x5401, (long)&t, 0, 0), -K_ENOTTY);
	close(fd);
	REMOVE(DIR_T "-ioctl");
	return 0;
}

static int pipe2_dup3(void)
{
	int fds[2], d;

	CHECK_EQ(pipe2(fds, O_CLOEXEC | O_NONBLOCK), 0);
	CHECK_EQ(fcntl(fds[0], F_GETFD), FD_CLOEXEC);
	CHECK_EQ(fcntl(fds[1], F_GETFD), FD_CLOEXEC);
	CHECK(fcntl(fds[0], F_GETFL) & O_NONBLOCK);
	CHECK_ERR(read(fds[0], &d, 1), EAGAIN);
	d = dup3(fds[0], 20, O_CLOEXEC);
	CHECK_EQ(d, 20);
	CHECK_EQ(fcntl(20, F_GETFD), FD_CLOEXEC);
	CHECK_EQ(dup2(fds[1], 20), 20);				/* dup2 clears it */
	CHECK_EQ(fcntl(20, F_GETFD), 0);
	CHECK_EQ(dup3(fds[0], 21, 0), 21);
	CHECK_EQ(fcntl(21, F_GETFD), 0);
	/* errors */
	CHECK_ERR(pipe2(fds, O_APPEND), EINVAL);
	CHECK_ERR(pipe2(BAD_PTR, 0), EFAULT);
	CHECK_ERR(dup3(fds[0], fds[0], 0), EINVAL);
	CHECK_ERR(dup3(fds[0], 22, O_NONBLOCK), EINVAL);
	CHECK_ERR(dup3(-1, 22, 0), EBADF);
	CHECK_ERR(dup3(fds[0], 1024, 0), EBADF);	/* NR_OPEN */
	CHECK_EQ(lx_syscall(331, (long)fds, 0x1, 0, 0, 0), -K_EINVAL);	/* O_WRONLY bit */
	return 0;
}

/* O_CLOEXEC and FD_CLOEXEC descriptors are closed by execve, others stay;
 * a relative program path is found from the working directory. */
static int cloexec_at_execve(void)
{
	int keep = open("/dev/null", O_RDONLY), gone = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int gone2 = dup(keep), status = 0;
	char a[8], b[8], c[8];
	pid_t pid;

	CHECK(keep >= 0 && gone >= 0 && gone2 >= 0);
	CHECK_EQ(fcntl(gone2, F_SETFD, FD_CLOEXEC), 0);
	snprintf(a, sizeof(a), "%d", keep);
	snprintf(b, sizeof(b), "%d", gone);
	snprintf(c, sizeof(c), "%d", gone2);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "test_posix", "--fds", a, b, c, NULL };
		if (chdir("/bin") == 0)
			execve("test_posix", argv, no_env);
		_exit(99);
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	return 0;
}

/* test_posix --fds OPEN CLOSED CLOSED: exit 0 iff the first is open and the others not. */
static int check_fds(int argc, char **argv)
{
	if (argc != 5)
		return 2;
	return !(fcntl(atoi(argv[2]), F_GETFD) == 0 && fcntl(atoi(argv[3]), F_GETFD) == -1 &&
		 errno == EBADF && fcntl(atoi(argv[4]), F_GETFD) == -1);
}

static int o_direct_accepted(void)
{
	int fd = open(DIR_T "-direct", O_CREAT | O_RDWR | O_DIRECT, 0600);

	CHECK(fd >= 0);
	CHECK(fcntl(fd, F_GETFL) & O_DIRECT);
	CHECK_EQ(write(fd, "abcd", 4), 4);
	close(fd);
	REMOVE(DIR_T "-direct");
	return 0;
}

/* warn/warnx/errx write "prog: message[: strerror]" to stderr; errx exits. */
static int err_family(void)
{
	char out[256] = { 0 };
	int fds[2], status = 0, n = 0, r;
	pid_t pid;

	CHECK_EQ(pipe(fds), 0);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		errno = ENOENT;
		warn("open %s", "x");
		warnx("plain %d", 5);
		errno = EBADF;
		errx(3, "bye");
	}
	close(fds[1]);
	while ((r = read(fds[0], out + n, sizeof(out) - 1 - n)) > 0)
		n += r;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	if (strcmp(out, "test_posix: open x: No such file or directory\n"
		   "test_posix: plain 5\ntest_posix: bye\n")) {
		utest_log("stderr was: %s", out);
		return 1;
	}
	return 0;
}

static int getopt_long_parses(void)
{
	static const struct option opts[] = {
		{ "depth", required_argument, NULL, 'd' },
		{ "verify", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	char *argv[] = { "prog", "-d", "8", "--verify", "--depth=32", "file", NULL };
	int c, depth = 0, verify = 0;

	optind = 1;
	while ((c = getopt_long(6, argv, "d:v", opts, NULL)) != -1) {
		if (c == 'd')
			depth += atoi(optarg);
		else if (c == 'v')
			verify++;
		else {
			utest_log("getopt_long returned %d at optind %d", c, optind);
			return 1;
		}
	}
	CHECK_EQ(depth, 40);
	CHECK_EQ(verify, 1);
	CHECK_EQ(optind, 5);
	CHECK(!strcmp(argv[optind], "file"));
	return 0;
}

static int sleep_and_usleep(void)
{
	long long t0 = utest_now_ns();

	CHECK_EQ(usleep(20000), 0);
	CHECK(utest_now_ns() - t0 >= 19000000);
	CHECK_EQ(sleep(0), 0);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(access_and_faccessat),
	UTEST(stat_family),
	UTEST(working_directory),
	UTEST(at_calls),
	UTEST(rename_cases),
	UTEST(system_info),
	UTEST(vectored_io),
	UTEST(poll_pipes_files_console),
	UTEST(poll_interrupted_by_signal),
	UTEST(select_and_pselect),
	UTEST(fcntl_cases),
	UTEST(ioctl_cases),
	UTEST(pipe2_dup3),
	UTEST(cloexec_at_execve),
	UTEST(o_direct_accepted),
	UTEST(err_family),
	UTEST(getopt_long_parses),
	UTEST(sleep_and_usleep),
};

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--fds"))
		return check_fds(argc, argv);
	return utest_main(argc, argv, "posix", cases, sizeof(cases) / sizeof(cases[0]));
}
