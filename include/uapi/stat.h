/* stat.h (uapi): Linux i386's struct stat (stat/lstat/fstat 106-108) and struct stat64 (195-197, fstatat64 300), and the file-type bits. */
#ifndef UAPI_STAT_H
#define UAPI_STAT_H

#include "types.h"

/*
 * The layouts are Linux i386's (arch/x86 asm/stat.h), so a program that makes
 * these calls itself sees what it would see on Linux; the user glue converts
 * them to newlib's struct stat.  The 32-bit struct cannot hold a size above
 * 2^31 - 1: those calls answer -EOVERFLOW and the 64-bit ones are used.
 */
struct kernel_stat {
	__u32	st_dev;
	__u32	st_ino;
	__u16	st_mode;	/* S_IF* type bits | permission bits */
	__u16	st_nlink;
	__u16	st_uid;
	__u16	st_gid;
	__u32	st_rdev;
	__u32	st_size;	/* bytes */
	__u32	st_blksize;	/* preferred I/O size */
	__u32	st_blocks;	/* 512-byte blocks */
	__u32	st_atime_sec;
	__u32	st_atime_nsec;
	__u32	st_mtime_sec;
	__u32	st_mtime_nsec;
	__u32	st_ctime_sec;
	__u32	st_ctime_nsec;
	__u32	__unused4;
	__u32	__unused5;
};
UAPI_ASSERT_SIZE(struct kernel_stat, 64);
_Static_assert(__builtin_offsetof(struct kernel_stat, st_rdev) == 16, "kernel_stat layout");
_Static_assert(__builtin_offsetof(struct kernel_stat, st_atime_sec) == 32, "kernel_stat layout");

/* 64-bit fields at 4-byte alignment, as the i386 ABI lays them out (packed). */
struct kernel_stat64 {
	__u64	st_dev;
	__u8	__pad0[4];
	__u32	__st_ino;	/* the low 32 bits of st_ino */
	__u32	st_mode;
	__u32	st_nlink;
	__u32	st_uid;
	__u32	st_gid;
	__u64	st_rdev;
	__u8	__pad3[4];
	__s64	st_size;
	__u32	st_blksize;
	__u64	st_blocks;
	__u32	st_atime_sec;
	__u32	st_atime_nsec;
	__u32	st_mtime_sec;
	__u32	st_mtime_nsec;
	__u32	st_ctime_sec;
	__u32	st_ctime_nsec;
	__u64	st_ino;
} __attribute__((packed, aligned(4)));
UAPI_ASSERT_SIZE(struct kernel_stat64, 96);
_Static_assert(__builtin_offsetof(struct kernel_stat64, st_size) == 44, "kernel_stat64 layout");
_Static_assert(__builtin_offsetof(struct kernel_stat64, st_blocks) == 56, "kernel_stat64 layout");
_Static_assert(__builtin_offsetof(struct kernel_stat64, st_ino) == 88, "kernel_stat64 layout");

#ifndef UAPI_STRUCTS_ONLY
#define S_IFMT		0170000	/* type mask */
#define S_IFIFO		0010000	/* pipe */
#define S_IFCHR		0020000	/* character device */
#define S_IFDIR		0040000	/* directory */
#define S_IFBLK		0060000	/* block device */
#define S_IFREG		0100000	/* regular file */
#define S_IFLNK		0120000	/* symbolic link */
#define S_IFSOCK	0140000	/* socket */
#define S_ISREG(m)	(((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)	(((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)	(((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m)	(((m) & S_IFMT) == S_IFBLK)
#define S_ISFIFO(m)	(((m) & S_IFMT) == S_IFIFO)
#define S_ISLNK(m)	(((m) & S_IFMT) == S_IFLNK)
#endif

#endif
