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

/* The kernel's struct statfs64 -> ours (the same fields, natural layout). */
static void statfs64_from_kernel(const struct kernel_statfs64 *k, struct statfs64 *st)
{
	memset(st, 0, sizeof(*st));
	st->f_type = k->f_type;
	st->f_bsize = k->f_bsize;
	st->f_blocks = k->f_blocks;
	st->f_bfree = k->f_bfree;
	st->f_bavail = k->f_bavail;
	st->f_files = k->f_files;
	st->f_ffree = k->f_ffree;
	st->f_fsid.__val[0] = k->f_fsid[0];
	st->f_fsid.__val[1] = k->f_fsid[1];
	st->f_namelen = k->f_namelen;
	st->f_frsize = k->f_frsize;
	st->f_flags = k->f_flags;
}

/* path (fd < 0) or fd's figures: 0, or -1 with errno. */
static int glue_statfs64(const char *path, int fd, struct statfs64 *st)
{
	struct kernel_statfs64 k;
	long r = path ? __sys_statfs64(path, sizeof(k), &k) : __sys_fstatfs64(fd, sizeof(k), &k);

	if (GLUE_IS_ERR(r))
		return glue_ret(r);
	statfs64_from_kernel(&k, st);
	return 0;
}

int statfs64(const char *path, struct statfs64 *buf)
{
	return glue_statfs64(path, -1, buf);
}

int fstatfs64(int fd, struct statfs64 *buf)
{
	return glue_statfs64(NULL, fd, buf);
}

/* glibc's statfs on i386 asks for statfs64 and narrows: EOVERFLOW when a
 * count does not fit. */
static int statfs_narrow(const struct statfs64 *s, struct statfs *st)
{
	if ((s->f_blocks | s->f_bfree | s->f_bavail | s->f_files | s->f_ffree) >> 32) {
		errno = EOVERFLOW;
		return -1;
	}
	memset(st, 0, sizeof(*st));
	st->f_type = s->f_type;
	st->f_bsize = s->f_bsize;
	st->f_blocks = s->f_blocks;
	st->f_bfree = s->f_bfree;
	st->f_bavail = s->f_bavail;
	st->f_files = s->f_files;
	st->f_ffree = s->f_ffree;
	st->f_fsid = s->f_fsid;
	st->f_namelen = s->f_namelen;
	st->f_frsize = s->f_frsize;
	st->f_flags = s->f_flags;
	return 0;
}

int statfs(const char *path, struct statfs *buf)
{
	struct statfs64 s;

	return glue_statfs64(path, -1, &s) ? -1 : statfs_narrow(&s, buf);
}

int fstatfs(int fd, struct statfs *buf)
{
	struct statfs64 s;

	return glue_statfs64(NULL, fd, &s) ? -1 : statfs_narrow(&s, buf);
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

	return glue_statfs64(path, -1, &s) ? -1 : statvfs_from(&s, buf);
}

int fstatvfs(int fd, struct statvfs *buf)
{
	struct statfs64 s;

	return glue_statfs64(NULL, fd, &s) ? -1 : statvfs_from(&s, buf);
}
