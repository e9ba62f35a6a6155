/* stat.h (uapi): aiokern's fixed layout for fstat (call 108) and the file-type bits. */
#ifndef UAPI_STAT_H
#define UAPI_STAT_H

#include "types.h"

/*
 * Our own layout (not Linux's): 64-bit size and blocks at 8-byte offsets, 32-bit
 * times.  The user glue converts it to newlib's struct stat.
 */
struct kernel_stat {
	__u32	st_dev;
	__u32	st_ino;
	__u32	st_mode;	/* S_IF* type bits | permission bits */
	__u32	st_nlink;
	__u32	st_uid;
	__u32	st_gid;
	__u32	st_rdev;
	__u32	st_blksize;	/* preferred I/O size (sector size for devices) */
	__u64	st_size;	/* bytes */
	__u64	st_blocks;	/* 512-byte blocks */
	__u32	st_atime_sec;
	__u32	st_atime_nsec;
	__u32	st_mtime_sec;
	__u32	st_mtime_nsec;
	__u32	st_ctime_sec;
	__u32	st_ctime_nsec;
	__u32	st_reserved[2];
};
UAPI_ASSERT_SIZE(struct kernel_stat, 80);
_Static_assert(__builtin_offsetof(struct kernel_stat, st_size) == 32, "kernel_stat layout");

#ifndef UAPI_STRUCTS_ONLY
#define S_IFMT		0170000	/* type mask */
#define S_IFIFO		0010000	/* pipe */
#define S_IFCHR		0020000	/* character device */
#define S_IFDIR		0040000	/* directory */
#define S_IFBLK		0060000	/* block device */
#define S_IFREG		0100000	/* regular file */
#define S_ISREG(m)	(((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)	(((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)	(((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m)	(((m) & S_IFMT) == S_IFBLK)
#define S_ISFIFO(m)	(((m) & S_IFMT) == S_IFIFO)
#endif

#endif
