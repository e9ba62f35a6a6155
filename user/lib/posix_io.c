/* posix_io.c: POSIX I/O calls on the kernel's: readv/writev/preadv/pwritev, poll/ppoll, select/pselect, ioctl, termios, pipe2, dup3, eventfd. */
#define _GNU_SOURCE		/* pipe2, dup3 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/uio.h>
#include <sys/eventfd.h>
#include "glue.h"
#include "pthread/tcb.h"
#include "signal_glue.h"

/* off_t is 32 bits in this newlib: the high word is its sign. */
#define OFF_HI(off)	((off) < 0 ? ~0u : 0u)

ssize_t readv(int fd, const struct iovec *iov, int iovcnt)
{
	return glue_ret(__SYSCALL_CP(__NR_readv, fd, iov, (unsigned)iovcnt));	/* < 0: too many, EINVAL */
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt)
{
	return glue_ret(__SYSCALL_CP(__NR_writev, fd, iov, (unsigned)iovcnt));
}

ssize_t preadv(int fd, const struct iovec *iov, int iovcnt, off_t off)
{
	return glue_ret(__SYSCALL_CP(__NR_preadv, fd, iov, (unsigned)iovcnt,
							    (unsigned)off, OFF_HI(off)));
}

ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t off)
{
	return glue_ret(__SYSCALL_CP(__NR_pwritev, fd, iov, (unsigned)iovcnt,
							     (unsigned)off, OFF_HI(off)));
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	return glue_ret(__SYSCALL_CP(__NR_poll, fds, nfds, timeout));
}

int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout,
	  const sigset_t *sigmask)
{
	struct kernel_timespec kts;
	struct kernel_sigset kset;

	if (timeout && glue_ts_to_kernel(timeout, &kts) < 0) {
		errno = EINVAL;
		return -1;
	}
	if (sigmask)
		__sigset_to_kernel(sigmask, &kset);
	return glue_ret(__SYSCALL_CP(__NR_ppoll, fds, nfds, timeout ? &kts : NULL,
							   sigmask ? &kset : NULL, sizeof(kset)));
}

/* fd_set has Linux's bit layout (bit fd % 32 of word fd / 32). */
int select(int n, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tv)
{
	struct kernel_timeval ktv;
	long r;

	if (tv) {
		if (tv->tv_sec < 0 || tv->tv_usec < 0 || tv->tv_usec >= 1000000) {
			errno = EINVAL;
			return -1;
		}
		ktv.tv_sec = tv->tv_sec > LONG_MAX ? LONG_MAX : (long)tv->tv_sec;
		ktv.tv_usec = tv->tv_usec;
	}
	r = __SYSCALL_CP(__NR_select, n, (unsigned long *)rd, (unsigned long *)wr,
					       (unsigned long *)ex, tv ? &ktv : NULL);
	if (tv)		/* the time left, as Linux's select */
		*tv = (struct timeval){ ktv.tv_sec, ktv.tv_usec };
	return glue_ret(r);
}

int pselect(int n, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *timeout,
	    const sigset_t *sigmask)
{
	struct kernel_timespec kts;
	struct kernel_sigset kset;
	unsigned long sig[2] = { (unsigned long)(sigmask ? &kset : NULL), sizeof(kset) };

	if (timeout && glue_ts_to_kernel(timeout, &kts) < 0) {
		errno = EINVAL;
		return -1;
	}
	if (sigmask)
		__sigset_to_kernel(sigmask, &kset);
	return glue_ret(__SYSCALL_CP(__NR_pselect6, n, (unsigned long *)rd,
							      (unsigned long *)wr, (unsigned long *)ex,
							      timeout ? &kts : NULL, sig));
}

int ioctl(int fd, unsigned long request, ...)
{
	unsigned long arg;
	va_list ap;

	va_start(ap, request);
	arg = va_arg(ap, unsigned long);	/* a pointer or an int */
	va_end(ap);
	return glue_ret(__sys_ioctl(fd, request, arg));
}

int tcgetattr(int fd, struct termios *t)
{
	struct kernel_termios k;

	if (glue_ret(__sys_ioctl(fd, TCGETS, (unsigned long)&k)) < 0)
		return -1;
	memset(t, 0, sizeof(*t));
	t->c_iflag = k.c_iflag;
	t->c_oflag = k.c_oflag;
	t->c_cflag = k.c_cflag;
	t->c_lflag = k.c_lflag;
	t->c_line = k.c_line;
	memcpy(t->c_cc, k.c_cc, sizeof(k.c_cc));
	t->c_ispeed = t->c_ospeed = k.c_cflag & CBAUD;
	return 0;
}

int tcsetattr(int fd, int when, const struct termios *t)
{
	struct kernel_termios k;

	if (when < TCSANOW || when > TCSAFLUSH) {
		errno = EINVAL;
		return -1;
	}
	k = (struct kernel_termios){ t->c_iflag, t->c_oflag, t->c_cflag, t->c_lflag, t->c_line,
				     { 0 } };
	memcpy(k.c_cc, t->c_cc, sizeof(k.c_cc));
	return glue_ret(__sys_ioctl(fd, TCSETS + when, (unsigned long)&k));
}

speed_t cfgetospeed(const struct termios *t)
{
	return t->c_cflag & CBAUD;
}

speed_t cfgetispeed(const struct termios *t)
{
	return t->c_cflag & CBAUD;
}

int pipe2(int fds[2], int flags)
{
	int k = abi_oflags_to_kernel(flags);

	if (k < 0 || (flags & O_ACCMODE)) {
		errno = EINVAL;
		return -1;
	}
	return glue_ret(__sys_pipe2(fds, k));
}

int dup3(int oldfd, int newfd, int flags)
{
	int k = abi_oflags_to_kernel(flags);
	long r;

	if (k < 0 || (flags & O_ACCMODE)) {
		errno = EINVAL;
		return -1;
	}
	r = __sys_dup3(oldfd, newfd, k);
	glue_dup_signalfd(oldfd, (int)r);
	return glue_ret(r);
}

/* EFD_* are the kernel's values already (sys/eventfd.h): passed as they are. */
int eventfd(unsigned int initval, int flags)
{
	return glue_ret(__sys_eventfd2(initval, flags));
}

int eventfd_read(int fd, eventfd_t *value)
{
	return read(fd, value, sizeof(*value)) == sizeof(*value) ? 0 : -1;
}

int eventfd_write(int fd, eventfd_t value)
{
	return write(fd, &value, sizeof(value)) == sizeof(value) ? 0 : -1;
}
