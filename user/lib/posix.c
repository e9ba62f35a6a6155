/* posix.c: POSIX calls newlib leaves to the system (pipe, dup, pread, mmap, nanosleep, ids, sysconf, uname, ...) and aiokern's own. */
#include <aio.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/syscall.h>
#include "aiokern.h"
#include "glue.h"
#include "pthread/tcb.h"
#include "uapi/sysinfo.h"
#include "uapi/utsname.h"

int glue_ts_to_kernel(const struct timespec *ts, struct kernel_timespec *kts)
{
	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000L)
		return -1;
	kts->tv_sec = ts->tv_sec > LONG_MAX ? LONG_MAX : (long)ts->tv_sec;
	kts->tv_nsec = ts->tv_nsec;
	return 0;
}

void glue_ts_from_kernel(const struct kernel_timespec *kts, struct timespec *ts)
{
	ts->tv_sec = kts->tv_sec;
	ts->tv_nsec = kts->tv_nsec;
}

int pipe(int fds[2])
{
	return glue_ret(__sys_pipe(fds));
}

int dup(int fd)
{
	long r = __sys_dup(fd);

	glue_dup_signalfd(fd, (int)r);
	return glue_ret(r);
}

int dup2(int oldfd, int newfd)
{
	long r = __sys_dup2(oldfd, newfd);

	glue_dup_signalfd(oldfd, (int)r);
	return glue_ret(r);
}

/* off_t is 32 bits in this newlib: the high word is its sign. */
ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return glue_ret(__SYSCALL_CP(__NR_pread64, fd, buf, n, (unsigned)off,
							     off < 0 ? ~0u : 0));
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return glue_ret(__SYSCALL_CP(__NR_pwrite64, fd, buf, n, (unsigned)off,
							      off < 0 ? ~0u : 0));
}

int fsync(int fd)
{
	return glue_ret(__SYSCALL_CP(__NR_fsync, fd));
}

int fdatasync(int fd)
{
	return glue_ret(__SYSCALL_CP(__NR_fdatasync, fd));
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	long r;

	if (off < 0 || off % MMAP2_UNIT) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	r = __sys_mmap2((unsigned long)addr, len, prot, flags, fd, off / MMAP2_UNIT);
	return GLUE_IS_ERR(r) ? (void *)glue_ret(r) : (void *)r;
}

int munmap(void *addr, size_t len)
{
	return glue_ret(__sys_munmap((unsigned long)addr, len));
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	struct kernel_timespec kreq, krem = { 0, 0 };
	long r;

	if (glue_ts_to_kernel(req, &kreq) < 0) {
		errno = EINVAL;
		return -1;
	}
	r = __SYSCALL_CP(__NR_nanosleep, &kreq, &krem);	/* a cancellation point (sleep, usleep too) */
	if (GLUE_IS_ERR(r) && rem)
		glue_ts_from_kernel(&krem, rem);
	return glue_ret(r);
}

unsigned sleep(unsigned seconds)
{
	struct timespec req = { seconds, 0 }, rem = { 0, 0 };

	if (nanosleep(&req, &rem) < 0 && errno == EINTR)
		return rem.tv_sec + (rem.tv_nsec > 0);
	return 0;
}

int usleep(useconds_t us)
{
	struct timespec req = { us / 1000000, (long)(us % 1000000) * 1000 };

	return nanosleep(&req, 0);
}

int clock_gettime(clockid_t clock, struct timespec *ts)
{
	struct kernel_timespec kts;
	int kclock = abi_clock_to_kernel(clock);
	long r;

	if (kclock < 0) {
		errno = EINVAL;
		return -1;
	}
	r = __sys_clock_gettime(kclock, &kts);
	if (!GLUE_IS_ERR(r))
		glue_ts_from_kernel(&kts, ts);
	return glue_ret(r);
}

int sched_yield(void)
{
	return glue_ret(__sys_sched_yield());
}

/* newlib's malloc has memalign but no posix_memalign. */
int posix_memalign(void **out, size_t align, size_t size)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	p = memalign(align, size);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

/* Every process runs as root. */
uid_t getuid(void)
{
	return (uid_t)__sys_getuid32();
}

uid_t geteuid(void)
{
	return (uid_t)__sys_geteuid32();
}

gid_t getgid(void)
{
	return (gid_t)__sys_getgid32();
}

gid_t getegid(void)
{
	return (gid_t)__sys_getegid32();
}

int getpagesize(void)
{
	return 4096;
}

/* The structs are Linux's on both sides: the kernel fills the caller's. */
int uname(struct utsname *buf)
{
	_Static_assert(sizeof(*buf) == sizeof(struct new_utsname), "struct utsname is Linux's");
	return glue_ret(__sys_uname((struct new_utsname *)buf));
}

int sysinfo(struct sysinfo *info)
{
	_Static_assert(sizeof(*info) == sizeof(struct kernel_sysinfo), "struct sysinfo is Linux's");
	return glue_ret(__sys_sysinfo((struct kernel_sysinfo *)info));
}

/* CPUs online: the "processor" lines of /proc/cpuinfo (one per CPU that
 * reported in); 1 when it cannot be read. Raw calls: errno is left alone. */
int get_nprocs(void)
{
	static const char key[] = "\nprocessor\t:";
	char buf[1024];
	long fd = __sys_open("/proc/cpuinfo", 0, 0), len;
	int n = 0;

	if (fd < 0)
		return 1;
	buf[0] = '\n';			/* the first line matches like the others */
	len = __sys_read(fd, buf + 1, sizeof(buf) - 2);
	__sys_close(fd);
	buf[len > 0 ? len + 1 : 1] = 0;
	for (const char *p = buf; (p = strstr(p, key)); p++)
		n++;
	return n ? n : 1;
}

/* The kernel starts every CPU it is given: configured ones are online ones. */
int get_nprocs_conf(void)
{
	return get_nprocs();
}

/* RAM in pages (sysinfo's totalram or freeram), or -1. */
static long sysinfo_pages(int free)
{
	struct sysinfo si;

	if (sysinfo(&si) < 0)
		return -1;
	return (long)((unsigned long long)(free ? si.freeram : si.totalram) * si.mem_unit /
		      (unsigned)getpagesize());
}

long get_phys_pages(void)
{
	return sysinfo_pages(0);
}

long get_avphys_pages(void)
{
	return sysinfo_pages(1);
}

/* RLIMIT_NOFILE's soft limit: the descriptors a process may have open. */
static long open_max(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return 1024;
	return r.rlim_cur == RLIM_INFINITY ? -1 : (long)r.rlim_cur;
}

/* getdtablesize(2): the same limit, as BSD and glibc give it. */
int getdtablesize(void)
{
	return (int)open_max();
}

/* The limits and options of this system; -1 with EINVAL for an unknown name,
 * -1 with errno unchanged for "no fixed limit". */
long sysconf(int name)
{
	switch (name) {
	case _SC_PAGESIZE:		return getpagesize();
	case _SC_NPROCESSORS_CONF:	return get_nprocs_conf();
	case _SC_NPROCESSORS_ONLN:	return get_nprocs();
	case _SC_PHYS_PAGES:		return get_phys_pages();
	case _SC_AVPHYS_PAGES:		return get_avphys_pages();
	case _SC_OPEN_MAX:		return open_max();	/* RLIMIT_NOFILE's soft limit */
	case _SC_CLK_TCK:		return CLOCKS_PER_SEC;	/* what times() counts in */
	case _SC_ARG_MAX:		return 16384;	/* exec's argument space */
	case _SC_IOV_MAX:		return 1024;
	case _SC_HOST_NAME_MAX:		return 64;
	case _SC_LINE_MAX:		return 2048;
	case _SC_NGROUPS_MAX:		return 0;
	case _SC_VERSION:
	case _SC_ASYNCHRONOUS_IO:
	case _SC_MONOTONIC_CLOCK:
	case _SC_TIMERS:		return 200809L;
	case _SC_AIO_LISTIO_MAX:	return 256;	/* posix_aio's ring */
	case _SC_AIO_MAX:		return 65536;	/* aio-max-nr's default */
	case _SC_AIO_PRIO_DELTA_MAX:	return AIO_PRIO_DELTA_MAX;	/* accepted, no effect */
	case _SC_REALTIME_SIGNALS:	return 200809L;
	case _SC_RTSIG_MAX:		return 32;	/* glibc's RTSIG_MAX */
	case _SC_SIGQUEUE_MAX:		return 256;	/* the kernel's SIGQUEUE_MAX per process */
	/* Options this system has (POSIX.1-2008's value, as glibc answers) */
	case _SC_THREADS:
	case _SC_THREAD_SAFE_FUNCTIONS:
	case _SC_THREAD_ATTR_STACKADDR:
	case _SC_THREAD_ATTR_STACKSIZE:
	case _SC_THREAD_PROCESS_SHARED:
	case _SC_CLOCK_SELECTION:
	case _SC_SEMAPHORES:
	case _SC_BARRIERS:
	case _SC_SPIN_LOCKS:
	case _SC_READER_WRITER_LOCKS:
	case _SC_TIMEOUTS:
	case _SC_FSYNC:
	case _SC_SYNCHRONIZED_IO:
	case _SC_MAPPED_FILES:
	case _SC_MEMORY_PROTECTION:
	case _SC_SHARED_MEMORY_OBJECTS:	return 200809L;
	case _SC_JOB_CONTROL:
	case _SC_SAVED_IDS:		return 1;
	case _SC_THREAD_KEYS_MAX:	return PTHREAD_KEYS_MAX;
	case _SC_THREAD_STACK_MIN:	return PTHREAD_STACK_MIN;
	case _SC_THREAD_DESTRUCTOR_ITERATIONS:	return PTHREAD_DESTRUCTOR_ITERATIONS;
	case _SC_SEM_VALUE_MAX:		return SEM_VALUE_MAX;
	case _SC_TIMER_MAX:		return 256;	/* the kernel's POSIX_TIMERS_MAX per process */
	case _SC_CHILD_MAX:
	case _SC_THREAD_THREADS_MAX:	return -1;	/* no fixed limit */
	case _SC_CPUTIME:		/* CLOCK_*_CPUTIME_ID work, but there is no */
	case _SC_THREAD_CPUTIME:	return -1;	/* clock_getcpuclockid to name others' */
	}
	errno = EINVAL;
	return -1;
}

int aiok_stat(struct aiok_stat *st)
{
	return glue_ret(__sys_aiok_stat(st));
}

int aiok_shrink(void)
{
	return glue_ret(__sys_aiok_shrink());
}

/* The memory counters a leak check compares. */
static int aiok_mem_same(const struct aiok_stat *a, const struct aiok_stat *b)
{
	return a->free_pages == b->free_pages && a->slab_objects == b->slab_objects &&
	       a->nr_mms == b->nr_mms && a->ramfs_pages == b->ramfs_pages;
}

/* Some frees finish a moment after the call that caused them returned (a
 * task's stack after its last switch, an address space another CPU still had
 * loaded, work deferred to a kernel worker): read until two reads 2 ms apart
 * agree, at most AIOK_SETTLE_TRIES times (then the last read stands). */
#define AIOK_SETTLE_TRIES 25

int aiok_snapshot(struct aiok_stat *st)
{
	const struct timespec pause = { 0, 2000000 };
	struct aiok_stat prev;

	if (aiok_shrink() || aiok_stat(&prev))
		return -1;
	for (int i = 0; i < AIOK_SETTLE_TRIES; i++) {
		nanosleep(&pause, NULL);
		if (aiok_shrink() || aiok_stat(st))
			return -1;
		if (aiok_mem_same(st, &prev))
			return 0;
		prev = *st;
	}
	return 0;
}

void poweroff(int status)
{
	__sys_poweroff(status);
	_exit(status);		/* a kernel without poweroff: at least end the process */
}

/* syscall(2): the call numbered nr (<sys/syscall.h>) with up to six long
 * arguments, passed as they are: flags, signal numbers and structures are the
 * kernel's (Linux i386's), not newlib's. The result, or -1 with errno (newlib's
 * numbering). Six arguments are always read, as glibc's does: the missing ones
 * are whatever the caller's stack holds, which the call ignores. */
long syscall(long nr, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return glue_ret(__syscall_raw(nr, a[0], a[1], a[2], a[3], a[4], a[5]));
}
