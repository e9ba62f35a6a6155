/* fcntl.h (uapi): open flags, fcntl commands, *at() flags and access modes, Linux i386 values (newlib's differ: the glue translates). */
#ifndef UAPI_FCNTL_H
#define UAPI_FCNTL_H

#include "types.h"

#ifndef UAPI_STRUCTS_ONLY
#define O_ACCMODE	00000003
#define O_RDONLY	00000000
#define O_WRONLY	00000001
#define O_RDWR		00000002
#define O_CREAT		00000100	/* create if missing */
#define O_EXCL		00000200	/* with O_CREAT: fail if it exists */
#define O_NOCTTY	00000400	/* accepted, no effect (no controlling terminals) */
#define O_TRUNC		00001000	/* truncate to 0 */
#define O_APPEND	00002000	/* writes go to the end */
#define O_NONBLOCK	00004000
#define O_DSYNC		00010000	/* data written through before write returns */
#define O_DIRECT	00040000	/* no caching; block devices need sector alignment */
#define O_LARGEFILE	00100000	/* accepted: offsets are 64-bit anyway */
#define O_DIRECTORY	00200000	/* fail with ENOTDIR unless a directory */
#define O_NOFOLLOW	00400000	/* a symbolic link as the last component: -ELOOP */
#define O_CLOEXEC	02000000	/* close the descriptor at execve */
#define O_SYNC		04010000	/* O_DSYNC plus metadata */

#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2

/* fcntl commands */
#define F_DUPFD		0		/* lowest free descriptor >= arg */
#define F_GETFD		1		/* descriptor flags (FD_CLOEXEC) */
#define F_SETFD		2
#define F_GETFL		3		/* access mode and status flags */
#define F_SETFL		4		/* only O_APPEND, O_NONBLOCK, O_DIRECT change */
#define F_GETLK		5		/* the first lock that would block (struct kernel_flock) */
#define F_SETLK		6		/* take or drop a record lock, -EAGAIN on a conflict */
#define F_SETLKW	7		/* ... waiting for it (-EINTR on a signal, -EDEADLK) */
#define F_GETLK64	12		/* the same with struct kernel_flock64 (fcntl64 only) */
#define F_SETLK64	13
#define F_SETLKW64	14
#define F_OFD_GETLK	36		/* record locks of the open file description (struct kernel_flock; */
#define F_OFD_SETLK	37		/* kernel_flock64 through fcntl64): l_pid 0 in, -1 out for an */
#define F_OFD_SETLKW	38		/* OFD holder; dropped at the description's last close */
#define F_DUPFD_CLOEXEC	1030
#define F_SETPIPE_SZ	1031		/* a pipe's capacity: rounded up to a power of two pages */
#define F_GETPIPE_SZ	1032
#define FD_CLOEXEC	1

/* l_type of a record lock */
#define F_RDLCK		0
#define F_WRLCK		1
#define F_UNLCK		2

/* flock(2) operations (143) */
#define LOCK_SH		1		/* shared */
#define LOCK_EX		2		/* exclusive */
#define LOCK_NB		4		/* with SH/EX: -EWOULDBLOCK instead of waiting */
#define LOCK_UN		8		/* drop */

/* *at() calls */
#define AT_FDCWD		(-100)	/* dirfd meaning the working directory */
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_REMOVEDIR		0x200	/* unlinkat: remove a directory */
#define AT_EACCESS		0x200	/* faccessat: effective ids (the same here) */
#define AT_EMPTY_PATH		0x1000	/* an empty path means dirfd itself */

/* access modes */
#define F_OK		0
#define X_OK		1
#define W_OK		2
#define R_OK		4
#endif

/* Linux i386's struct flock (F_GETLK/F_SETLK/F_SETLKW) and struct flock64
 * (F_*LK64 through fcntl64): l_start is relative to l_whence (SEEK_SET,
 * SEEK_CUR, SEEK_END); l_len 0 means "to the end of any file size", a
 * negative l_len covers the bytes before l_start; l_pid is F_GETLK's answer. */
struct kernel_flock {
	__s16	l_type;
	__s16	l_whence;
	__s32	l_start;
	__s32	l_len;
	__s32	l_pid;
};
UAPI_ASSERT_SIZE(struct kernel_flock, 16);

struct kernel_flock64 {
	__s16	l_type;
	__s16	l_whence;
	__s64	l_start;
	__s64	l_len;
	__s32	l_pid;
} __attribute__((packed, aligned(4)));
UAPI_ASSERT_SIZE(struct kernel_flock64, 24);

/* posix_fadvise's advice (fadvise64, fadvise64_64) */
#define POSIX_FADV_NORMAL	0
#define POSIX_FADV_RANDOM	1
#define POSIX_FADV_SEQUENTIAL	2
#define POSIX_FADV_WILLNEED	3
#define POSIX_FADV_DONTNEED	4
#define POSIX_FADV_NOREUSE	5

/* fallocate's mode bits */
#define FALLOC_FL_KEEP_SIZE	0x01
#define FALLOC_FL_PUNCH_HOLE	0x02
#define FALLOC_FL_COLLAPSE_RANGE 0x08
#define FALLOC_FL_ZERO_RANGE	0x10
#define FALLOC_FL_INSERT_RANGE	0x20

#endif
