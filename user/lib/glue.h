/* glue.h: internals shared by the newlib glue, libaio and POSIX aio (not installed for programs). */
#ifndef USER_GLUE_H
#define USER_GLUE_H

#include <time.h>
#include <sys/time.h>
#define UAPI_STRUCTS_ONLY	/* newlib owns O_*, SIG*, CLOCK_*, S_IF* in these files */
#include "uapi/time.h"
#include "uapi/stat.h"
#include "user/syscalls.h"	/* generated: long __sys_NAME(...) */

/* A raw result in [-4095, -1] is -errno (kernel numbering). */
#define GLUE_IS_ERR(r)		((unsigned long)(r) > (unsigned long)-4096)

/* argv as the process received it (crt0), for err(3)'s program name. */
extern char **glue_argv;

/* open relative to the kernel's dirfd, with newlib's flags; POSIX result
 * (syscalls.c).  cp: as a cancellation point (open, openat, creat; not
 * newlib's _open, which fopen calls with a stream half made). */
int glue_openat(int kdirfd, const char *path, int flags, unsigned mode, int cp);

/* The kernel's struct stat64 -> newlib's struct stat (syscalls.c). */
struct stat;
void glue_stat_from_kernel(const struct kernel_stat64 *k, struct stat *st);

/* Raw result -> POSIX: errno (newlib numbering) and -1 on error, else r. */
long glue_ret(long r);

/* Raw result -> libaio style: -errno in newlib numbering, else r. */
long glue_neg_errno(long r);

/* Incremented in the child by every fork. Library state the kernel does not
 * hand to a child (AIO contexts) remembers it and is dropped when it moved. */
extern unsigned glue_fork_generation;

/* io_getevents without being a cancellation point (libaio.c): POSIX AIO's
 * own reaping, which must not lose what it took; and as one (aio_suspend's
 * and lio_listio's waits), which acts only while nothing is taken. */
struct io_context;
struct io_event;
int __io_getevents_nocancel(struct io_context *ctx, long min_nr, long nr, struct io_event *events,
			    struct timespec *timeout);
int __io_getevents_cp(struct io_context *ctx, long min_nr, long nr, struct io_event *events,
		      struct timespec *timeout);

/* Descriptors signalfd returned (posix_event.c), one bit each: _read turns the
 * kernel's signal numbers in their records into newlib's (__signalfd_fixup);
 * _close forgets one, dup/dup2/dup3 copy the mark (F_DUPFD does not: such
 * a copy reads the kernel's numbers). */
#define NR_SIGNALFD_WORDS	32	/* the kernel's NR_OPEN (1024) descriptors */
extern unsigned __signalfd_fds[NR_SIGNALFD_WORDS];
void __signalfd_fixup(void *buf, long n);
static inline int glue_is_signalfd(int fd)
{
	return fd >= 0 && fd < NR_SIGNALFD_WORDS * 32 &&
	       (__atomic_load_n(&__signalfd_fds[fd / 32], __ATOMIC_RELAXED) >> (fd % 32) & 1);
}
/* fd is closed (close). */
static inline void glue_forget_signalfd(int fd)
{
	if (glue_is_signalfd(fd))
		__atomic_fetch_and(&__signalfd_fds[fd / 32], ~(1u << (fd % 32)), __ATOMIC_RELAXED);
}
/* newfd now names oldfd's file (dup, dup2, dup3 succeeded): so is it a signalfd. */
static inline void glue_dup_signalfd(int oldfd, int newfd)
{
	if (oldfd == newfd || newfd < 0 || newfd >= NR_SIGNALFD_WORDS * 32)
		return;
	if (glue_is_signalfd(oldfd))
		__atomic_fetch_or(&__signalfd_fds[newfd / 32], 1u << (newfd % 32), __ATOMIC_RELAXED);
	else
		glue_forget_signalfd(newfd);
}

/* abi_xlate.c */
int abi_errno_from_kernel(int kerr);
int abi_errno_to_kernel(int err);
int abi_oflags_to_kernel(int flags);	/* -1: a flag the kernel lacks */
int abi_oflags_from_kernel(int kflags);
int abi_at_flags_to_kernel(int flags);	/* -1: an AT_* flag the kernel lacks */
int abi_dirfd_to_kernel(int dirfd);	/* AT_FDCWD (-2) -> the kernel's -100 */
int abi_signal_to_kernel(int sig);	/* -1: no such signal */
int abi_signal_from_kernel(int ksig);
int abi_clock_to_kernel(int clock);	/* -1: no such clock */
int abi_wait_status_from_kernel(int kstatus);

/* time conversions (posix.c); *_to_kernel fail (-1) on a value the kernel cannot hold */
int glue_ts_to_kernel(const struct timespec *ts, struct kernel_timespec *kts);
void glue_ts_from_kernel(const struct kernel_timespec *kts, struct timespec *ts);

#endif
