/* sys/statvfs.h: POSIX statvfs and fstatvfs (newlib has none for this target): glibc's fields with newlib's fsblkcnt_t (64-bit) and fsfilcnt_t, filled from statfs64. */
#ifndef USER_SYS_STATVFS_H
#define USER_SYS_STATVFS_H

#include <sys/types.h>

/* f_flag */
#define ST_RDONLY	1
#define ST_NOSUID	2
#define ST_NODEV	4
#define ST_NOEXEC	8
#define ST_SYNCHRONOUS	16
#define ST_MANDLOCK	64
#define ST_NOATIME	1024
#define ST_NODIRATIME	2048
#define ST_RELATIME	4096

struct statvfs {
	unsigned long	f_bsize;	/* block size */
	unsigned long	f_frsize;	/* the unit of f_blocks, f_bfree, f_bavail */
	fsblkcnt_t	f_blocks;
	fsblkcnt_t	f_bfree;
	fsblkcnt_t	f_bavail;
	fsfilcnt_t	f_files;
	fsfilcnt_t	f_ffree;
	fsfilcnt_t	f_favail;
	unsigned long	f_fsid;
	int		__f_unused;
	unsigned long	f_flag;
	unsigned long	f_namemax;
	int		__f_spare[6];
};

#ifdef __cplusplus
extern "C" {
#endif
/* 0, or -1 with errno (EOVERFLOW: a count past fsblkcnt_t). */
int statvfs(const char *path, struct statvfs *buf);
int fstatvfs(int fd, struct statvfs *buf);
#ifdef __cplusplus
}
#endif

#endif
