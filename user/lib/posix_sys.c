/* posix_sys.c: process times and usage (times, getrusage, wait3/wait4, the CPU-time clocks), clock_getres/clock_nanosleep, CPU affinity, getrandom/getentropy, posix_fadvise/posix_fallocate (written out where the file system has no fallocate), sync. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <sys/wait.h>
#include "glue.h"
#include "pthread/tcb.h"
#include "uapi/resource.h"

#define KTIMER_ABSTIME	1		/* the kernel's (Linux's) value; newlib's is 4 */

/* ---- times and usage ---- */

static clock_t ticks_to_clock(long t)
{
	return (clock_t)t * (CLOCKS_PER_SEC / USER_HZ);
}

/* In newlib's unit (CLOCKS_PER_SEC = sysconf(_SC_CLK_TCK)), which clock()
 * sums; the kernel counts USER_HZ. */
clock_t _times(struct tms *t)
{
	struct kernel_tms k;
	long r = __sys_times(&k);

	if (GLUE_IS_ERR(r))
		return (clock_t)glue_ret(r);
	if (t)
		*t = (struct tms){ ticks_to_clock(k.tms_utime), ticks_to_clock(k.tms_stime),
				   ticks_to_clock(k.tms_cutime), ticks_to_clock(k.tms_cstime) };
	return ticks_to_clock(r);
}
extern __typeof(_times) times __attribute__((weak, alias("_times")));

static void rusage_from_kernel(const struct kernel_rusage *k, struct rusage *u)
{
	memset(u, 0, sizeof(*u));
	u->ru_utime = (struct timeval){ k->ru_utime.tv_sec, k->ru_utime.tv_usec };
	u->ru_stime = (struct timeval){ k->ru_stime.tv_sec, k->ru_stime.tv_usec };
	u->ru_maxrss = k->ru_maxrss;
	u->ru_minflt = k->ru_minflt;
	u->ru_majflt = k->ru_majflt;
	u->ru_nvcsw = k->ru_nvcsw;
	u->ru_nivcsw = k->ru_nivcsw;
}

/*
 * The kernel writes its struct (72 bytes) into the caller's, which is larger
 * (newlib's timevals are wider), so a bad pointer is EFAULT from the kernel
 * as on Linux; the glue then widens it in place.
 */
_Static_assert(sizeof(struct rusage) >= sizeof(struct kernel_rusage), "rusage in place");

static void rusage_widen(struct rusage *u)
{
	struct kernel_rusage k;

	memcpy(&k, u, sizeof(k));
	rusage_from_kernel(&k, u);
}

int getrusage(int who, struct rusage *usage)
{
	long r = __sys_getrusage(who, (struct kernel_rusage *)usage);

	if (!GLUE_IS_ERR(r))
		rusage_widen(usage);
	return glue_ret(r);
}

pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage)
{
	int kstatus = 0;
	long r = __SYSCALL_CP(__NR_wait4, pid, &kstatus, options,
						   (struct kernel_rusage *)usage);

	if (!GLUE_IS_ERR(r) && r > 0) {
		if (status)
			*status = abi_wait_status_from_kernel(kstatus);
		if (usage)
			rusage_widen(usage);
	}
	return glue_ret(r);
}

pid_t wait3(int *status, int options, struct rusage *usage)
{
	return wait4(-1, status, options, usage);
}

/* ---- clocks ---- */

int clock_getres(clockid_t clock, struct timespec *res)
{
	struct kernel_timespec k;
	int kclock = abi_clock_to_kernel(clock);
	long r;

	if (kclock < 0) {
		errno = EINVAL;
		return -1;
	}
	r = __sys_clock_getres(kclock, &k);
	if (!GLUE_IS_ERR(r) && res)
		glue_ts_from_kernel(&k, res);
	return glue_ret(r);
}

/* Returns the error number (EINTR, EINVAL, ...), not -1: as POSIX says. */
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req, struct timespec *rem)
{
	struct kernel_timespec kreq, krem = { 0, 0 };
	int kclock = abi_clock_to_kernel(clock);
	long r;

	if (kclock < 0 || glue_ts_to_kernel(req, &kreq) < 0)
		return EINVAL;
	r = __SYSCALL_CP(__NR_clock_nanosleep, kclock,	/* a cancellation point */
			 flags & TIMER_ABSTIME ? KTIMER_ABSTIME : 0, &kreq, &krem);
	if (!GLUE_IS_ERR(r))
		return 0;
	if (rem && !(flags & TIMER_ABSTIME))
		glue_ts_from_kernel(&krem, rem);
	return abi_errno_from_kernel((int)-r);
}

/* ---- CPUs ---- */

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	long r = __sys_sched_getaffinity(pid, size, (unsigned long *)set);

	if (!GLUE_IS_ERR(r) && (size_t)r < size)
		memset((char *)set + r, 0, size - r);	/* glibc clears the rest */
	return GLUE_IS_ERR(r) ? glue_ret(r) : 0;
}

int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	return glue_ret(__sys_sched_setaffinity(pid, size, (const unsigned long *)set));
}

int sched_getcpu(void)
{
	unsigned cpu = 0;
	long r = __sys_getcpu(&cpu, 0, 0);

	return GLUE_IS_ERR(r) ? glue_ret(r) : (int)cpu;
}

int __sched_cpucount(size_t size, const cpu_set_t *set)
{
	int n = 0;

	for (size_t i = 0; i < size / sizeof(unsigned long); i++)
		n += __builtin_popcountl(set->__bits[i]);
	return n;
}

/* ---- random bytes ---- */

ssize_t getrandom(void *buf, size_t count, unsigned int flags)
{
	return glue_ret(__sys_getrandom(buf, count, flags));
}

/* At most 256 bytes (EIO beyond, as glibc), all of them or -1. */
int getentropy(void *buf, size_t length)
{
	size_t done = 0;

	if (length > 256) {
		errno = EIO;
		return -1;
	}
	while (done < length) {
		ssize_t n = getrandom((char *)buf + done, length - done, 0);

		if (n < 0 && errno != EINTR)
			return -1;
		done += n > 0 ? (size_t)n : 0;
	}
	return 0;
}

/* ---- file advice, allocation, sync ---- */

/* posix_fadvise and posix_fallocate return the error number, errno untouched. */
static int errno_of(long r)
{
	return GLUE_IS_ERR(r) ? abi_errno_from_kernel((int)-r) : 0;
}

int posix_fadvise(int fd, off_t offset, off_t len, int advice)
{
	unsigned long long off = (unsigned long long)(long long)offset;
	unsigned long long n = (unsigned long long)(long long)len;

	return errno_of(__sys_fadvise64_64(fd, (unsigned)off, (unsigned)(off >> 32), (unsigned)n,
					   (unsigned)(n >> 32), advice));
}

int fallocate(int fd, int mode, off_t offset, off_t len)
{
	unsigned long long off = (unsigned long long)(long long)offset;
	unsigned long long n = (unsigned long long)(long long)len;

	return glue_ret(__sys_fallocate(fd, mode, (unsigned)off, (unsigned)(off >> 32), (unsigned)n,
					(unsigned)(n >> 32)));
}

/*
 * posix_fallocate where the file system has no fallocate (EOPNOTSUPP: ext2,
 * as on Linux): glibc then allocates by writing, and so do we. A zero byte
 * goes into every block of [offset, offset + len) that does not already hold
 * a non-zero byte at that place (the last block's last byte first, so the
 * size is right at once), which allocates the holes and extends the file;
 * data already there is never changed. Not atomic against other writers
 * (glibc's is not either). A descriptor opened O_APPEND or read-only: EBADF.
 */
static int fallocate_by_writing(int fd, off_t offset, off_t len)
{
	struct stat st;
	int fl = fcntl(fd, F_GETFL);
	long step;

	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY || (fl & O_APPEND) || fstat(fd, &st))
		return EBADF;
	if (S_ISFIFO(st.st_mode))
		return ESPIPE;
	if (!S_ISREG(st.st_mode))
		return ENODEV;
	step = st.st_blksize < 512 ? 512 : st.st_blksize > 4096 ? 4096 : st.st_blksize;
	for (off_t at = offset + (len - 1) % step; len > 0; at += step, len -= step) {
		unsigned char c;

		if (at < st.st_size && pread(fd, &c, 1, at) == 1 && c != 0)
			continue;		/* a block with data: allocated */
		if (pwrite(fd, "", 1, at) != 1)
			return errno;
	}
	return 0;
}

int posix_fallocate(int fd, off_t offset, off_t len)
{
	unsigned long long off = (unsigned long long)(long long)offset;
	unsigned long long n = (unsigned long long)(long long)len;
	int e = errno_of(__sys_fallocate(fd, 0, (unsigned)off, (unsigned)(off >> 32), (unsigned)n,
					 (unsigned)(n >> 32)));

	return e == EOPNOTSUPP ? fallocate_by_writing(fd, offset, len) : e;
}

void sync(void)
{
	__sys_sync();
}
