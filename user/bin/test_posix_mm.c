/* test_posix_mm.c: the "posix_mm" suite: the memory and resource calls AIO
 * programs use (brk past 256 MiB, mremap with AIO rings, mprotect, madvise,
 * msync, truncate/ftruncate, rlimits, getppid, /proc), each with its errors. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <aiokern.h>
#include "aio_raw.h"
#include "utest.h"

#define MIB		(1024 * 1024)
#define PAGE		4096
#define BAD_PTR		((void *)0xC0010000)

static char *map_pages(int n, int prot, int flags)
{
	void *p = mmap(NULL, n * PAGE, prot, flags | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* The exit status of a child running fn, or -1 if it was killed (the signal in *sig). */
static int run_child(int (*fn)(void), int *sig)
{
	int st;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn());
	*sig = 0;
	if (waitpid(pid, &st, 0) != pid)
		return -2;
	if (WIFSIGNALED(st)) {
		*sig = WTERMSIG(st);
		return -1;
	}
	return WEXITSTATUS(st);
}

/* malloc of 768 MiB works (the heap has no 256 MiB cap); pages come on demand. */
static int heap_past_256mib(void)
{
	char *p = malloc(768u * MIB);

	CHECK(p != NULL);
	p[0] = 1;
	p[768u * MIB - 1] = 2;
	p[300u * MIB] = 3;
	CHECK_EQ(p[0] + p[768u * MIB - 1] + p[300u * MIB], 6);
	free(p);
	return 0;
}

static int mremap_grow_shrink_move(void)
{
	char *p = map_pages(2, PROT_READ | PROT_WRITE, MAP_PRIVATE), *q, *r;
	char *fixed = map_pages(8, PROT_READ, MAP_PRIVATE);

	CHECK(p && fixed);
	memset(p, 'a', 2 * PAGE);
	CHECK(map_pages(1, PROT_READ, MAP_PRIVATE) != NULL);	/* something may follow p */
	q = mremap(p, 2 * PAGE, 64 * PAGE, MREMAP_MAYMOVE);
	CHECK(q != MAP_FAILED);
	CHECK(q[0] == 'a' && q[2 * PAGE - 1] == 'a' && q[63 * PAGE] == 0);
	q[63 * PAGE] = 'z';
	CHECK(mremap(q, 64 * PAGE, 4 * PAGE, 0) == q);		/* shrink in place */
	r = mremap(q, 4 * PAGE, 4 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, fixed);
	CHECK(r == fixed);
	CHECK(r[0] == 'a' && r[PAGE] == 'a' && r[2 * PAGE] == 0);
	CHECK_ERR(mremap(r, PAGE, PAGE, 8), EINVAL);			/* unknown flag */
	CHECK_ERR(mremap(r, PAGE, 2 * PAGE, MREMAP_FIXED, fixed + 4 * PAGE), EINVAL);
	CHECK_ERR(mremap(r + 1, PAGE, PAGE, 0), EINVAL);		/* unaligned */
	CHECK_ERR(mremap(r, PAGE, 0, 0), EINVAL);
	CHECK_ERR(mremap((void *)0x20000000, PAGE, PAGE, 0), EFAULT);	/* nothing there */
	CHECK_ERR(mremap(r, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, r + PAGE), EINVAL);
	/* no room for 2 GiB: the search past the stack must not wrap around */
	CHECK_ERR(mremap(r, PAGE, 0x80000000u, MREMAP_MAYMOVE), ENOMEM);
	CHECK(mmap(NULL, 0xB0000000u, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED &&
	      errno == ENOMEM);
	CHECK_EQ(munmap(r, 8 * PAGE), 0);
	return 0;
}

/* mremap of an AIO ring moves the context: its id becomes the new address. */
static int mremap_moves_aio_ring(void)
{
	aio_context_t ctx = 0;
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev;
	struct kernel_timespec past = { 0, 0 };
	int fd = open("/dev/null", O_RDONLY);
	unsigned len, nr;
	char *to = map_pages(16, PROT_READ, MAP_PRIVATE), *moved;

	CHECK(fd >= 0 && to);
	CHECK_EQ(raw_io_setup(8, &ctx), 0);
	nr = ((unsigned *)ctx)[1];				/* the ring header's nr */
	len = (32 + nr * 32 + PAGE - 1) / PAGE * PAGE;
	CHECK_ERR(mremap((void *)ctx, PAGE / 2 < len ? len - PAGE + PAGE : len, 2 * len,
			 MREMAP_MAYMOVE), EINVAL);			/* a ring keeps its size */
	moved = mremap((void *)ctx, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, to);
	CHECK(moved == to);
	raw_prep(&cb, IOCB_CMD_NOOP, fd, NULL, 0, 0, 7);
	CHECK_EQ(raw_io_submit(ctx, 1, list), -EINVAL);		/* the old id is gone */
	CHECK_EQ(raw_io_submit((aio_context_t)moved, 1, list), 1);
	CHECK_EQ(raw_io_getevents_abs((aio_context_t)moved, 1, &ev, &past), 1);
	CHECK_EQ(ev.data, 7);
	CHECK_EQ(raw_io_destroy(ctx), -EINVAL);
	CHECK_EQ(raw_io_destroy((aio_context_t)moved), 0);
	close(fd);
	return 0;
}

static int write_to_readonly(void)
{
	char *p = map_pages(1, PROT_READ | PROT_WRITE, MAP_PRIVATE);

	if (!p || mprotect(p, PAGE, PROT_READ))
		return 2;
	p[0] = 1;			/* SIGSEGV */
	return 0;
}

/* mprotect: the kernel's copies honour it too (-EFAULT), and data survives PROT_NONE. */
static int mprotect_protects(void)
{
	aio_context_t ctx = 0;
	struct iocb cb, *list[1] = { &cb };
	char *p = map_pages(4, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	int zero = open("/dev/zero", O_RDONLY), sig;
	int file = open("/tmp/mm_prot", O_RDWR | O_CREAT | O_TRUNC, 0644);

	CHECK(p && zero >= 0 && file >= 0);
	memset(p, 'k', 4 * PAGE);
	CHECK_EQ(mprotect(p + PAGE, PAGE, PROT_READ), 0);
	CHECK_EQ(p[PAGE], 'k');
	CHECK_ERR(read(zero, p + PAGE, 16), EFAULT);		/* read-only now */
	CHECK_EQ(read(zero, p, 16), 16);			/* its neighbour is not */
	CHECK_EQ(mprotect(p + 2 * PAGE, PAGE, PROT_NONE), 0);
	CHECK_ERR(write(file, p + 2 * PAGE, 16), EFAULT);	/* no access at all */
	CHECK_ERR(read(zero, p + 2 * PAGE, 16), EFAULT);
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	raw_prep(&cb, IOCB_CMD_PREAD, zero, p + 2 * PAGE, 16, 0, 1);
	CHECK_EQ(raw_io_submit(ctx, 1, list), -EFAULT);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	CHECK_EQ(mprotect(p, 4 * PAGE, PROT_READ | PROT_WRITE), 0);
	CHECK_EQ(p[2 * PAGE], 'k');				/* kept while hidden */
	p[2 * PAGE] = 'w';
	CHECK_EQ(p[2 * PAGE], 'w');
	CHECK_EQ(run_child(write_to_readonly, &sig), -1);
	CHECK_EQ(sig, SIGSEGV);
	CHECK_ERR(mprotect(p + 1, PAGE, PROT_READ), EINVAL);
	CHECK_ERR(mprotect(p, PAGE, 0x10), EINVAL);
	CHECK_ERR(mprotect((void *)0x20000000, PAGE, PROT_READ), ENOMEM);
	CHECK_EQ(munmap(p, 4 * PAGE), 0);
	close(zero);
	close(file);
	unlink("/tmp/mm_prot");
	return 0;
}

static int madvise_and_msync(void)
{
	char *p = map_pages(2, PROT_READ | PROT_WRITE, MAP_PRIVATE);

	CHECK(p);
	memset(p, 'm', 2 * PAGE);
	CHECK_EQ(madvise(p, 2 * PAGE, MADV_WILLNEED), 0);
	CHECK_EQ(madvise(p, 2 * PAGE, MADV_SEQUENTIAL), 0);
	CHECK_EQ(p[PAGE], 'm');
	CHECK_EQ(madvise(p, PAGE, MADV_DONTNEED), 0);
	CHECK_EQ(p[0], 0);					/* private: zeros again */
	CHECK_EQ(p[PAGE], 'm');
	CHECK_ERR(madvise(p, PAGE, 99), EINVAL);
	CHECK_ERR(madvise(p + 1, PAGE, MADV_NORMAL), EINVAL);
	CHECK_ERR(madvise((void *)0x20000000, PAGE, MADV_DONTNEED), ENOMEM);
	CHECK_EQ(posix_madvise(p, PAGE, 99), EINVAL);
	CHECK_EQ(msync(p, 2 * PAGE, MS_SYNC), 0);
	CHECK_EQ(msync(p, PAGE, MS_ASYNC | MS_INVALIDATE), 0);
	CHECK_ERR(msync(p, PAGE, MS_ASYNC | MS_SYNC), EINVAL);
	CHECK_ERR(msync(p, PAGE, 8), EINVAL);
	CHECK_ERR(msync(p + 1, PAGE, MS_SYNC), EINVAL);
	CHECK_ERR(msync((void *)0x20000000, PAGE, MS_SYNC), ENOMEM);
	CHECK_EQ(munmap(p, 2 * PAGE), 0);
	return 0;
}

static long ramfs_pages(void)
{
	struct aiok_stat st;

	return aiok_stat(&st) ? -1 : (long)st.ramfs_pages;
}

static int truncate_ftruncate(void)
{
	char buf[PAGE * 3], z[PAGE * 3];
	struct stat st;
	long before;
	int fd = open("/tmp/mm_trunc", O_RDWR | O_CREAT | O_TRUNC, 0644);
	int ro = open("/tmp/mm_trunc", O_RDONLY);

	CHECK(fd >= 0 && ro >= 0);
	memset(buf, 'T', sizeof(buf));
	memset(z, 0, sizeof(z));
	CHECK_EQ(write(fd, buf, sizeof(buf)), sizeof(buf));
	before = ramfs_pages();
	CHECK_EQ(ftruncate(fd, 100), 0);
	CHECK_EQ(ramfs_pages(), before - 2);			/* pages past the end freed */
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, 100);
	CHECK_EQ(truncate("/tmp/mm_trunc", 2 * PAGE), 0);	/* a hole of zeros */
	CHECK_EQ(pread(fd, buf, sizeof(buf), 0), 2 * PAGE);
	CHECK(buf[99] == 'T' && !memcmp(buf + 100, z, 2 * PAGE - 100));
	CHECK_ERR(ftruncate(fd, -1), EINVAL);
	CHECK_ERR(ftruncate(ro, 10), EINVAL);			/* not open for writing */
	CHECK_ERR(ftruncate(77, 10), EBADF);
	CHECK_ERR(truncate("/tmp", 10), EISDIR);
	CHECK_ERR(truncate("/tmp/no_such", 10), ENOENT);
	CHECK_ERR(truncate(BAD_PTR, 10), EFAULT);
	CHECK_ERR(truncate("/dev/null", 0), EINVAL);
	CHECK_ERR(ftruncate(fd, 65 * MIB), EFBIG);
	CHECK_EQ(ftruncate(fd, 0), 0);
	close(fd);
	close(ro);
	unlink("/tmp/mm_trunc");
	return 0;
}

static int rlimits_and_nofile(void)
{
	struct rlimit r, old;
	int fds[16], n = 0, fd;

	CHECK_EQ(getrlimit(RLIMIT_NOFILE, &old), 0);
	CHECK(old.rlim_cur == 1024 && old.rlim_max == 1024);	/* Linux's default soft limit */
	CHECK_EQ(sysconf(_SC_OPEN_MAX), 1024);
	CHECK_EQ(getrlimit(RLIMIT_STACK, &r), 0);
	CHECK_EQ(r.rlim_cur, 8 * MIB);
	CHECK_EQ(getrlimit(RLIMIT_AS, &r), 0);
	CHECK(r.rlim_cur == RLIM_INFINITY);
	CHECK_ERR(getrlimit(99, &r), EINVAL);
	CHECK_ERR(getrlimit(RLIMIT_AS, BAD_PTR), EFAULT);
	r.rlim_cur = 10;
	r.rlim_max = 5;
	CHECK_ERR(setrlimit(RLIMIT_NOFILE, &r), EINVAL);	/* cur above max */
	r.rlim_cur = r.rlim_max = 1025;
	CHECK_ERR(setrlimit(RLIMIT_NOFILE, &r), EPERM);		/* past NR_OPEN */
	CHECK_ERR(prlimit(99999, RLIMIT_NOFILE, NULL, &r), ESRCH);
	r.rlim_cur = 12;
	r.rlim_max = 64;
	CHECK_EQ(setrlimit(RLIMIT_NOFILE, &r), 0);
	CHECK_EQ(sysconf(_SC_OPEN_MAX), 12);
	while ((fd = open("/dev/null", O_RDONLY)) >= 0 && n < 16)
		fds[n++] = fd;
	CHECK_EQ(errno, EMFILE);
	CHECK(n > 0 && fds[n - 1] == 11);			/* the last one below 12 */
	CHECK_ERR(dup2(0, 20), EBADF);
	while (n)
		close(fds[--n]);
	CHECK_EQ(setrlimit(RLIMIT_NOFILE, &old), 0);
	CHECK(dup2(0, 20) == 20);
	close(20);
	return 0;
}

static int fsize_child(void)
{
	struct rlimit r = { 1000, RLIM_INFINITY };
	char buf[1500];
	aio_context_t ctx = 0;
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev;
	int fd = open("/tmp/mm_fsize", O_RDWR | O_CREAT | O_TRUNC, 0644);

	memset(buf, 'f', sizeof(buf));
	if (fd < 0 || setrlimit(RLIMIT_FSIZE, &r))
		return 2;
	if (write(fd, buf, sizeof(buf)) != 1000)		/* shortened at the limit */
		return 3;
	if (raw_io_setup(4, &ctx))
		return 4;
	raw_prep(&cb, IOCB_CMD_PWRITE, fd, buf, 200, 900, 1);	/* AIO: shortened too */
	if (raw_io_submit(ctx, 1, list) != 1 || raw_io_getevents_abs(ctx, 1, &ev, NULL) != 1 ||
	    ev.res != 100)
		return 5;
	(void)write(fd, buf, 1);				/* at the limit: SIGXFSZ */
	return 6;
}

static int rlimit_fsize(void)
{
	int sig;

	CHECK_EQ(run_child(fsize_child, &sig), -1);
	CHECK_EQ(sig, SIGXFSZ);
	unlink("/tmp/mm_fsize");
	return 0;
}

static int as_child(void)
{
	struct rlimit r;
	char *p;

	if (getrlimit(RLIMIT_AS, &r) || r.rlim_cur != RLIM_INFINITY)
		return 2;
	r.rlim_cur = 64 * MIB;
	if (setrlimit(RLIMIT_AS, &r))
		return 3;
	if (mmap(NULL, 80 * MIB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED ||
	    errno != ENOMEM)
		return 4;
	p = mmap(NULL, MIB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 5;
	if (malloc(100 * MIB) != NULL)				/* brk is held too */
		return 6;
	return 0;
}

static int rlimit_as(void)
{
	int sig;

	CHECK_EQ(run_child(as_child, &sig), 0);
	return 0;
}

static int ppid_child(void)
{
	return getppid() == (pid_t)atoi(getenv("MM_PARENT")) ? 0 : 1;
}

static int getppid_is_parent(void)
{
	char pid[16];
	int sig;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("MM_PARENT", pid, 1);
	CHECK(getppid() > 0);
	CHECK_EQ(run_child(ppid_child, &sig), 0);
	return 0;
}

/* Read a whole /proc file into buf (NUL-terminated); its length. */
static int read_proc(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY), n = 0, r;

	if (fd < 0)
		return -1;
	while (n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += r;
	buf[n] = 0;
	close(fd);
	return n;
}

static int proc_files(void)
{
	static char buf[8192];
	char line[64];
	unsigned long total = 0, avail = 0;
	char *p = map_pages(3, PROT_READ | PROT_WRITE, MAP_PRIVATE);

	CHECK(p);
	CHECK(read_proc("/proc/meminfo", buf, sizeof(buf)) > 0);
	CHECK(sscanf(strstr(buf, "MemTotal:"), "MemTotal: %lu kB", &total) == 1);
	CHECK(sscanf(strstr(buf, "MemFree:"), "MemFree: %lu kB", &avail) == 1);
	CHECK(total >= 128 * 1024 && avail > 0 && avail < total);
	CHECK(strstr(buf, "HighTotal:") != NULL);
	CHECK_EQ(mprotect(p + PAGE, PAGE, PROT_READ), 0);
	CHECK(read_proc("/proc/self/maps", buf, sizeof(buf)) > 0);
	snprintf(line, sizeof(line), "%08lx-%08lx rw-p", (unsigned long)p, (unsigned long)p + PAGE);
	CHECK(strstr(buf, line) != NULL);
	snprintf(line, sizeof(line), "%08lx-%08lx r--p", (unsigned long)p + PAGE,
		 (unsigned long)p + 2 * PAGE);
	CHECK(strstr(buf, line) != NULL);
	CHECK(strstr(buf, "[stack]") != NULL);
	CHECK(read_proc("/proc/aiok/blk", buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "requests ") != NULL);
	CHECK(read_proc("/proc/sys/fs/aio-max-nr", buf, sizeof(buf)) > 0);
	CHECK_EQ(munmap(p, 3 * PAGE), 0);
	return 0;
}


static int shared_child_write(void)
{
	int fd = open("/tmp/mm_map", O_RDWR);
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return 2;
	p[1] = 'C';
	return 0;
}

static volatile char *anon_sh, *zero_sh, *zero_pr;

/* The child of shared_anon_after_fork: writes the pages its parent never touched. */
static int shared_anon_child(void)
{
	for (int i = 0; i < 4; i++)
		anon_sh[i * PAGE] = (char)('a' + i);
	zero_sh[PAGE] = 'z';
	zero_pr[0] = 'p';
	return anon_sh[4 * PAGE - 1] == 0 ? 0 : 3;
}

/* MAP_SHARED | MAP_ANONYMOUS and MAP_SHARED of /dev/zero: pages first
 * touched after a fork are shared with the child all the same (Linux backs
 * them with one shmem file); a MAP_PRIVATE /dev/zero mapping is private
 * zero-filled memory. Both show in maps as "/dev/zero (deleted)". */
static int shared_anon_after_fork(void)
{
	int zero = open("/dev/zero", O_RDWR), sig;
	static char maps[4096];

	CHECK(zero >= 0);
	anon_sh = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	zero_sh = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, zero, 0);
	zero_pr = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, zero, 0);
	CHECK(anon_sh != MAP_FAILED && zero_sh != MAP_FAILED && zero_pr != MAP_FAILED);
	CHECK_EQ(run_child(shared_anon_child, &sig), 0);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(anon_sh[i * PAGE], 'a' + i);
	CHECK_EQ(zero_sh[PAGE], 'z');
	CHECK_EQ(zero_sh[0], 0);
	CHECK_EQ(zero_pr[0], 0);			/* private: the child's write stayed there */
	CHECK(read_proc("/proc/self/maps", maps, sizeof(maps)) > 0);
	CHECK(strstr(maps, " rw-s 00000000 00:00 ") && strstr(maps, "/dev/zero (deleted)"));
	CHECK_EQ(munmap((void *)anon_sh, 4 * PAGE), 0);
	CHECK_EQ(munmap((void *)zero_sh, 2 * PAGE), 0);
	CHECK_EQ(munmap((void *)zero_pr, PAGE), 0);
	close(zero);
	zero = open("/dev/zero", O_RDONLY);			/* Linux's access checks */
	CHECK(mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, zero, 0) == MAP_FAILED &&
	      errno == EACCES);
	zero_pr = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, zero, 0);
	CHECK(zero_pr != MAP_FAILED);
	CHECK_EQ(munmap((void *)zero_pr, PAGE), 0);
	close(zero);
	zero = open("/dev/zero", O_WRONLY);
	CHECK(mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, zero, 0) == MAP_FAILED && errno == EACCES);
	close(zero);
	return 0;
}

/* mmap of ramfs files: MAP_SHARED maps the file's own pages (writes land in
 * the file, fork shares them), MAP_PRIVATE copies on write; the protection
 * holds for the kernel's copies (io_submit gets -EFAULT). */
static int mmap_ramfs_file(void)
{
	static char page[3 * PAGE], back[PAGE];
	aio_context_t ctx = 0;
	struct iocb cb, *list[1] = { &cb };
	char *sh, *pr, *off, *ro_map, *ro_shared;
	int fd = open("/tmp/mm_map", O_RDWR | O_CREAT | O_TRUNC, 0644), ro, wo, zero, sig;
	static char maps[8192];

	for (int i = 0; i < 3 * PAGE; i++)
		page[i] = 'a' + i / PAGE;
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, page, sizeof(page)), sizeof(page));
	ro = open("/tmp/mm_map", O_RDONLY);
	wo = open("/tmp/mm_map", O_WRONLY);
	zero = open("/dev/zero", O_RDONLY);
	sh = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	pr = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	off = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 2 * PAGE);
	CHECK(sh != MAP_FAILED && pr != MAP_FAILED && off != MAP_FAILED);
	CHECK(sh[0] == 'a' && sh[PAGE] == 'b' && pr[2 * PAGE] == 'c' && off[5] == 'c');
	sh[100] = 'S';					/* into the file */
	CHECK_EQ(pread(fd, back, 200, 0), 200);
	CHECK_EQ(back[100], 'S');
	CHECK_EQ(pwrite(fd, "W", 1, PAGE + 7), 1);	/* and the file into it */
	CHECK_EQ(sh[PAGE + 7], 'W');
	pr[0] = 'P';					/* a private copy */
	CHECK_EQ(pread(fd, back, 1, 0), 1);
	CHECK_EQ(back[0], 'a');
	CHECK_EQ(sh[0], 'a');
	CHECK_EQ(run_child(shared_child_write, &sig), 0);
	CHECK_EQ(sh[1], 'C');
	CHECK_EQ(msync(sh, 3 * PAGE, MS_SYNC), 0);
	CHECK(read_proc("/proc/self/maps", maps, sizeof(maps)) > 0);
	CHECK(strstr(maps, " rw-s 00000000 00:00 ") && strstr(maps, "mm_map"));
	CHECK(strstr(maps, " r--s 00002000 00:00 "));
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	raw_prep(&cb, IOCB_CMD_PREAD, zero, off, 16, 0, 1);
	CHECK_EQ(raw_io_submit(ctx, 1, list), -EFAULT);	/* a read-only mapping */
	raw_prep(&cb, IOCB_CMD_PWRITE, fd, sh, 4, 3 * PAGE, 2);	/* from the mapping: fine */
	CHECK_EQ(raw_io_submit(ctx, 1, list), 1);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	ro_map = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, ro, 0);
	CHECK(ro_map != MAP_FAILED);			/* private: a read-only fd will do */
	CHECK(mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0) == MAP_FAILED &&
	      errno == EACCES);
	CHECK(mmap(NULL, PAGE, PROT_READ, MAP_SHARED, wo, 0) == MAP_FAILED && errno == EACCES);
	ro_shared = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, ro, 0);
	CHECK(ro_shared != MAP_FAILED);
	CHECK_ERR(mprotect(ro_shared, PAGE, PROT_READ | PROT_WRITE), EACCES);
	CHECK_EQ(munmap(ro_shared, PAGE), 0);
	CHECK(mmap(NULL, PAGE, PROT_READ, MAP_SHARED, 77, 0) == MAP_FAILED && errno == EBADF);
	CHECK_EQ(munmap(sh, 3 * PAGE), 0);
	CHECK_EQ(munmap(pr, 3 * PAGE), 0);
	CHECK_EQ(munmap(off, PAGE), 0);
	CHECK_EQ(munmap(ro_map, PAGE), 0);
	close(fd);
	close(ro);
	close(wo);
	close(zero);
	CHECK_EQ(unlink("/tmp/mm_map"), 0);
	return 0;
}


/* A child moves rings (then destroys one, or leaves them to exit). */
static int ring_move_child(void)
{
	aio_context_t a = 0, b = 0;
	char *to = map_pages(64, PROT_READ, MAP_PRIVATE);
	char *to2;

	if (!to || raw_io_setup(8, &a) || raw_io_setup(8, &b))
		return 2;
	if (mremap((void *)a, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, to) != to)
		return 3;
	to2 = to + 8 * PAGE;
	if (mremap(to, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, to2) != to2)
		return 4;
	if (mremap((void *)b, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, to + 20 * PAGE) == MAP_FAILED)
		return 5;
	if (raw_io_destroy((aio_context_t)to2))
		return 6;
	return 0;				/* b is left to exit */
}

static int ring_moves_leave_nothing(void)
{
	struct aiok_stat before;
	int sig;

	CHECK_EQ(aiok_snapshot(&before), 0);
	CHECK_EQ(run_child(ring_move_child, &sig), 0);
	CHECK(!utest_same_counters(&before));
	return 0;
}

/* Random mmap/mremap/munmap/fork over 64 pages at 0x50000000 in a child,
 * then every counter back: no page or region lost on any path. */
static unsigned mr_rng = 12345;
static unsigned mr_next(void) { mr_rng = mr_rng * 1103515245u + 12345u; return mr_rng >> 8; }

static int mremap_stress_child(void)
{
	char *base = (char *)0x50000000;
	for (int i = 0; i < 3000; i++) {
		char *a = base + (mr_next() % 64) * PAGE, *b = base + (mr_next() % 64) * PAGE;
		unsigned la = (1 + mr_next() % 8) * PAGE, lb = (1 + mr_next() % 8) * PAGE;
		switch (mr_next() % 8) {
		case 6: { pid_t p = fork(); if (p == 0) { for (int j = 0; j < 50; j++) { char *c = base + (mr_next() % 64) * PAGE; mremap(c, PAGE * (1 + mr_next() % 4), PAGE * (1 + mr_next() % 4), MREMAP_MAYMOVE | (j & 1 ? MREMAP_FIXED : 0), base + (mr_next() % 64) * PAGE); if (mprotect(c, 1, PROT_READ|PROT_WRITE) == 0) c[0] = 2; } _exit(0); } if (p > 0 && (mr_next() & 1)) waitpid(p, NULL, 0); break; }
		case 7: mmap(a, la, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0); break;
		case 0: mmap(a, la, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0); break;
		case 1: for (unsigned k = 0; k < la; k += PAGE) { if (mprotect(a + k, 1, PROT_READ|PROT_WRITE) == 0) a[k] = 1; } break;
		case 2: mremap(a, la, lb, MREMAP_MAYMOVE); break;
		case 3: mremap(a, la, lb, MREMAP_MAYMOVE | MREMAP_FIXED, b); break;
		case 4: mremap(a, la, lb, 0); break;
		case 5: munmap(a, la); break;
		}
	}
	while (waitpid(-1, NULL, 0) > 0)
		;
	return 0;
}

static int mremap_stress(void)
{
	struct aiok_stat before;
	int sig;

	CHECK_EQ(aiok_snapshot(&before), 0);
	CHECK_EQ(run_child(mremap_stress_child, &sig), 0);
	CHECK(!utest_same_counters(&before));
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(heap_past_256mib),
	UTEST(mremap_grow_shrink_move),
	UTEST(mremap_moves_aio_ring),
	UTEST(ring_moves_leave_nothing),
	UTEST(mremap_stress),
	UTEST(mprotect_protects),
	UTEST(madvise_and_msync),
	UTEST(truncate_ftruncate),
	UTEST(rlimits_and_nofile),
	UTEST(rlimit_fsize),
	UTEST(rlimit_as),
	UTEST(getppid_is_parent),
	UTEST(proc_files),
	UTEST(mmap_ramfs_file),
	UTEST(shared_anon_after_fork),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "posix_mm", cases, sizeof(cases) / sizeof(cases[0]));
}
