/* fcntl.h (uapi): open flags, fcntl commands, *at() flags and access modes, Linux i386 values (newlib's differ: the glue translates). */
#ifndef UAPI_FCNTL_H
#define UAPI_FCNTL_H

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
#define O_NOFOLLOW	00400000	/* accepted: there are no symbolic links */
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
#define F_DUPFD_CLOEXEC	1030
#define FD_CLOEXEC	1

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
