/* sys/statfs.h: statfs, fstatfs (and the *64 forms) with glibc's i386 struct statfs and the f_type magic numbers programs compare with. */
#ifndef USER_SYS_STATFS_H
#define USER_SYS_STATFS_H

#include <sys/types.h>

#define EXT2_SUPER_MAGIC	0xEF53
#define RAMFS_MAGIC		0x858458f6
#define PIPEFS_MAGIC		0x50495045

typedef struct { int __val[2]; } fsid_t;

/* The counts are in f_bsize units; too big for 32 bits: EOVERFLOW (use statfs64). */
struct statfs {
	int		f_type;
	int		f_bsize;
	unsigned long	f_blocks;
	unsigned long	f_bfree;
	unsigned long	f_bavail;	/* free for an unprivileged user */
	unsigned long	f_files;
	unsigned long	f_ffree;
	fsid_t		f_fsid;
	int		f_namelen;
	int		f_frsize;
	int		f_flags;	/* ST_* of <sys/statvfs.h> */
	int		f_spare[4];
};

struct statfs64 {
	int			f_type;
	int			f_bsize;
	unsigned long long	f_blocks;
	unsigned long long	f_bfree;
	unsigned long long	f_bavail;
	unsigned long long	f_files;
	unsigned long long	f_ffree;
	fsid_t			f_fsid;
	int			f_namelen;
	int			f_frsize;
	int			f_flags;
	int			f_spare[4];
};

#ifdef __cplusplus
extern "C" {
#endif
int statfs(const char *path, struct statfs *buf);
int fstatfs(int fd, struct statfs *buf);
int statfs64(const char *path, struct statfs64 *buf);
int fstatfs64(int fd, struct statfs64 *buf);
#ifdef __cplusplus
}
#endif

#endif
