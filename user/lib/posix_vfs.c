/* posix_vfs.c: file locks and file-system figures: flock, statfs/fstatfs (and *64), statvfs/fstatvfs. */
#include <errno.h>
#include <string.h>
#include <sys/fcntl.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include "glue.h"
#include "uapi/statfs.h"

#define GLUE_ST_VALID	0x20	/* the kernel's "f_flags is filled in" (Linux's ST_VALID) */

int flock(int fd, int operation)
{
	return glue_ret(__sys_flock(fd, operation));
}

/* Our structs are the kernel's, field for field: the calls write them
 * directly, so a bad pointer is EFAULT as on Linux. */
_Static_assert(sizeof(struct statfs) == sizeof(struct kernel_statfs), "struct statfs");
_Static_assert(sizeof(struct statfs64) == sizeof(struct kernel_statfs64), "struct statfs64");
_Static_assert(__builtin_offsetof(struct statfs64, f_fsid) ==
	       __builtin_offsetof(struct kernel_statfs64, f_fsid), "struct statfs64");

int statfs(const char *path, struct statfs *buf)
{
	return glue_ret(__sys_statfs(path, (struct kernel_statfs *)buf));
}

int fstatfs(int fd, struct statfs *buf)
{
	return glue_ret(__sys_fstatfs(fd, (struct kernel_statfs *)buf));
}

int statfs64(const char *path, struct statfs64 *buf)
{
	return glue_ret(__sys_statfs64(path, sizeof(*buf), (struct kernel_statfs64 *)buf));
}

int fstatfs64(int fd, struct statfs64 *buf)
{
	return glue_ret(__sys_fstatfs64(fd, sizeof(*buf), (struct kernel_statfs64 *)buf));
}

/* statvfs from statfs64, as glibc builds it: f_favail is f_ffree (no
 * reserve of inodes), f_flag the mount's ST_* without ST_VALID. */
static int statvfs_from(const struct statfs64 *s, struct statvfs *v)
{
	memset(v, 0, sizeof(*v));
	if (s->f_files > 0xffffffffull || s->f_ffree > 0xffffffffull) {
		errno = EOVERFLOW;		/* fsfilcnt_t is 32 bits here */
		return -1;
	}
	v->f_bsize = s->f_bsize;
	v->f_frsize = s->f_frsize ? s->f_frsize : s->f_bsize;
	v->f_blocks = s->f_blocks;
	v->f_bfree = s->f_bfree;
	v->f_bavail = s->f_bavail;
	v->f_files = s->f_files;
	v->f_ffree = s->f_ffree;
	v->f_favail = s->f_ffree;
	v->f_fsid = (unsigned long)s->f_fsid.__val[0];
	v->f_flag = s->f_flags & ~GLUE_ST_VALID;
	v->f_namemax = s->f_namelen;
	return 0;
}

int statvfs(const char *path, struct statvfs *buf)
{
	struct statfs64 s;

	return statfs64(path, &s) ? -1 : statvfs_from(&s, buf);
}

int fstatvfs(int fd, struct statvfs *buf)
{
	struct statfs64 s;

	return fstatfs64(fd, &s) ? -1 : statvfs_from(&s, buf);
}
