/* abi_names.h: the constant names whose values differ between newlib and the kernel ABI. */
#ifndef USER_ABI_NAMES_H
#define USER_ABI_NAMES_H

/*
 * abi_kernel.c expands these lists with the kernel's headers (include/uapi), and
 * abi_xlate.c with newlib's; the two tables line up by index.  The two sets of
 * headers define the same names with different values, so no file sees both.
 */
#define ABI_ERRNO_LIST(X) \
	X(EPERM) X(ENOENT) X(ESRCH) X(EINTR) X(EIO) X(ENXIO) X(E2BIG) X(ENOEXEC) \
	X(EBADF) X(ECHILD) X(EAGAIN) X(ENOMEM) X(EACCES) X(EFAULT) X(EBUSY) X(EEXIST) \
	X(ENODEV) X(ENOTDIR) X(EISDIR) X(EINVAL) X(ENFILE) X(EMFILE) X(ENOTTY) X(EFBIG) \
	X(ENOSPC) X(ESPIPE) X(EROFS) X(EPIPE) X(ERANGE) X(ENAMETOOLONG) X(ENOSYS) \
	X(ENOTEMPTY) X(EOVERFLOW) X(ETIMEDOUT) X(ECANCELED) X(EOPNOTSUPP) \
	X(EXDEV) X(EMLINK) X(ELOOP) X(EDEADLK) X(ENOLCK)

#define ABI_OFLAG_LIST(X) \
	X(O_CREAT) X(O_EXCL) X(O_TRUNC) X(O_APPEND) X(O_NONBLOCK) X(O_SYNC) X(O_DSYNC) \
	X(O_DIRECT) X(O_DIRECTORY) X(O_CLOEXEC) X(O_NOFOLLOW)

#define ABI_SIGNAL_LIST(X) \
	X(SIGHUP) X(SIGINT) X(SIGQUIT) X(SIGILL) X(SIGTRAP) X(SIGABRT) X(SIGBUS) \
	X(SIGFPE) X(SIGKILL) X(SIGUSR1) X(SIGSEGV) X(SIGUSR2) X(SIGPIPE) X(SIGALRM) \
	X(SIGTERM) X(SIGCHLD) X(SIGCONT) X(SIGSTOP) X(SIGURG) X(SIGWINCH) \
	X(SIGSYS) X(SIGTSTP) X(SIGTTIN) X(SIGTTOU) X(SIGIO) X(SIGXCPU) X(SIGXFSZ) \
	X(SIGVTALRM) X(SIGPROF)

#define ABI_CLOCK_LIST(X)	X(CLOCK_REALTIME) X(CLOCK_MONOTONIC) X(CLOCK_PROCESS_CPUTIME_ID) \
				X(CLOCK_THREAD_CPUTIME_ID)

/* *at() flags (one bit each; AT_EACCESS and AT_REMOVEDIR share the kernel's 0x200). */
#define ABI_AT_LIST(X)	X(AT_EACCESS) X(AT_SYMLINK_NOFOLLOW) X(AT_REMOVEDIR) X(AT_EMPTY_PATH)

#define ABI_VALUE(name)		(name),
#define ABI_COUNT(name)		+1

enum {
	ABI_NR_ERRNO = 0 ABI_ERRNO_LIST(ABI_COUNT),
	ABI_NR_OFLAG = 0 ABI_OFLAG_LIST(ABI_COUNT),
	ABI_NR_SIGNAL = 0 ABI_SIGNAL_LIST(ABI_COUNT),
	ABI_NR_CLOCK = 0 ABI_CLOCK_LIST(ABI_COUNT),
	ABI_NR_AT = 0 ABI_AT_LIST(ABI_COUNT),
};

/* The kernel's values, in list order (abi_kernel.c). */
extern const int abi_kernel_errno[ABI_NR_ERRNO];
extern const int abi_kernel_oflag[ABI_NR_OFLAG];
extern const int abi_kernel_signal[ABI_NR_SIGNAL];
extern const int abi_kernel_clock[ABI_NR_CLOCK];
extern const int abi_kernel_at[ABI_NR_AT];
extern const int abi_kernel_at_fdcwd;

#endif
