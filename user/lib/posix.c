/* posix.c: POSIX calls newlib leaves to the system (pipe, dup, pread, mmap, nanosleep, ...) and aiokern's own. */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include "aiokern.h"
#include "glue.h"

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
	return glue_ret(__sys_dup(fd));
}

int dup2(int oldfd, int newfd)
{
	return glue_ret(__sys_dup2(oldfd, newfd));
}

/* off_t is 32 bits in this newlib: the high word is its sign. */
ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return glue_ret(__sys_pread64(fd, buf, n, (unsigned)off, off < 0 ? ~0u : 0));
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return glue_ret(__sys_pwrite64(fd, buf, n, (unsigned)off, off < 0 ? ~0u : 0));
}

int fsync(int fd)
{
	return glue_ret(__sys_fsync(fd));
}

int fdatasync(int fd)
{
	return glue_ret(__sys_fdatasync(fd));
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
	r = __sys_nanosleep(&kreq, &krem);
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

int aiok_stat(struct aiok_stat *st)
{
	return glue_ret(__sys_aiok_stat(st));
}

int aiok_shrink(void)
{
	return glue_ret(__sys_aiok_shrink());
}

int aiok_snapshot(struct aiok_stat *st)
{
	return aiok_shrink() || aiok_stat(st) ? -1 : 0;
}

void poweroff(int status)
{
	__sys_poweroff(status);
	_exit(status);		/* a kernel without poweroff: at least end the process */
}
