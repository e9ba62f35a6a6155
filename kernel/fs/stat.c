/* stat.c: stat/lstat/fstat in Linux i386's two layouts (106-108, 195-197, fstatat64 300), access/faccessat and readlink (85). */
#include "errno.h"
#include "fs.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/fcntl.h"
#include "uapi/stat.h"
#include "fs_internal.h"

#define STAT_DEV	1		/* the one in-memory file system: device 0:1 */
#define STAT_BLKSIZE	4096

/* What every layout reports, from the inode (NULL: an anonymous file); a
 * file system on a disk fills it itself (its device, three times, blocks). */
static void kstat_fill(struct inode *inode, struct kstat *k)
{
	memset(k, 0, sizeof(*k));
	if (!inode)
		return;
	k->dev = STAT_DEV;
	k->blksize = STAT_BLKSIZE;
	k->ino = inode->ino;
	k->mode = inode->mode;
	k->nlink = inode->nlink;
	k->rdev = inode->rdev;
	k->size = inode->size;
	k->blocks = S_ISREG(inode->mode) ? (k->size + 511) / 512 : 0;
	k->atime_sec = k->mtime_sec = k->ctime_sec = inode->time_sec;
	k->atime_nsec = k->mtime_nsec = k->ctime_nsec = inode->time_nsec;
	if (inode->i_op && inode->i_op->getattr)
		inode->i_op->getattr(inode, k);
}

/* The 32-bit layout: -EOVERFLOW when the size does not fit (as Linux). */
static int kstat_to_old(const struct kstat *k, struct kernel_stat *st)
{
	if (k->size > 0x7fffffff)
		return -EOVERFLOW;
	memset(st, 0, sizeof(*st));
	st->st_dev = k->dev;
	st->st_ino = k->ino;
	st->st_mode = k->mode;
	st->st_nlink = k->nlink;
	st->st_rdev = k->rdev;
	st->st_size = k->size;
	st->st_blksize = k->blksize;
	st->st_blocks = k->blocks;
	st->st_atime_sec = k->atime_sec;
	st->st_atime_nsec = k->atime_nsec;
	st->st_mtime_sec = k->mtime_sec;
	st->st_mtime_nsec = k->mtime_nsec;
	st->st_ctime_sec = k->ctime_sec;
	st->st_ctime_nsec = k->ctime_nsec;
	return 0;
}

static void kstat_to_64(const struct kstat *k, struct kernel_stat64 *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = k->dev;
	st->__st_ino = k->ino;
	st->st_ino = k->ino;
	st->st_mode = k->mode;
	st->st_nlink = k->nlink;
	st->st_rdev = k->rdev;
	st->st_size = k->size;
	st->st_blksize = k->blksize;
	st->st_blocks = k->blocks;
	st->st_atime_sec = k->atime_sec;
	st->st_atime_nsec = k->atime_nsec;
	st->st_mtime_sec = k->mtime_sec;
	st->st_mtime_nsec = k->mtime_nsec;
	st->st_ctime_sec = k->ctime_sec;
	st->st_ctime_nsec = k->ctime_nsec;
}

/* The inode behind fd or behind path (relative to dirfd), with a reference;
 * an empty path with AT_EMPTY_PATH means dirfd itself. */
static struct inode *stat_lookup(int dirfd, const char *upath, int flags)
{
	char path[PATH_MAX];
	struct inode *base, *inode;
	int err = fs_get_path(path, upath);

	if (err == -ENOENT && (flags & AT_EMPTY_PATH) && !path[0]) {
		struct file *f = fget(dirfd);
		if (!f)
			return ERR_PTR(-EBADF);
		inode = f->f_inode;
		if (inode)
			iget(inode);
		fput(f);
		return inode ? inode : ERR_PTR(-EBADF);
	}
	if (err)
		return ERR_PTR(err);
	base = fs_at_base(dirfd, path);
	if (IS_ERR(base))
		return base;
	inode = flags & AT_SYMLINK_NOFOLLOW ? namei_at_nofollow(base, path) : namei_at(base, path);
	fs_put_base(base);
	return inode;
}

static int fd_kstat(int fd, struct kstat *k)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	kstat_fill(f->f_inode, k);
	fput(f);
	return 0;
}

static int path_kstat(int dirfd, const char *upath, int flags, struct kstat *k)
{
	struct inode *inode = stat_lookup(dirfd, upath, flags);

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	kstat_fill(inode, k);
	iput(inode);
	return 0;
}

static long put_old(int err, const struct kstat *k, struct kernel_stat *ust)
{
	struct kernel_stat st;

	if (!err)
		err = kstat_to_old(k, &st);
	if (!err && copy_to_user(ust, &st, sizeof(st)))
		err = -EFAULT;
	return err;
}

static long put_64(int err, const struct kstat *k, struct kernel_stat64 *ust)
{
	struct kernel_stat64 st;

	if (err)
		return err;
	kstat_to_64(k, &st);
	return copy_to_user(ust, &st, sizeof(st)) ? -EFAULT : 0;
}

long sys_stat(const char *upath, struct kernel_stat *ust)
{
	struct kstat k;

	return put_old(path_kstat(AT_FDCWD, upath, 0, &k), &k, ust);
}

/* lstat: a symbolic link itself. */
long sys_lstat(const char *upath, struct kernel_stat *ust)
{
	struct kstat k;

	return put_old(path_kstat(AT_FDCWD, upath, AT_SYMLINK_NOFOLLOW, &k), &k, ust);
}

long sys_fstat(int fd, struct kernel_stat *ust)
{
	struct kstat k;

	return put_old(fd_kstat(fd, &k), &k, ust);
}

long sys_stat64(const char *upath, struct kernel_stat64 *ust)
{
	struct kstat k;

	return put_64(path_kstat(AT_FDCWD, upath, 0, &k), &k, ust);
}

long sys_lstat64(const char *upath, struct kernel_stat64 *ust)
{
	struct kstat k;

	return put_64(path_kstat(AT_FDCWD, upath, AT_SYMLINK_NOFOLLOW, &k), &k, ust);
}

long sys_fstat64(int fd, struct kernel_stat64 *ust)
{
	struct kstat k;

	return put_64(fd_kstat(fd, &k), &k, ust);
}

long sys_fstatat64(int dirfd, const char *upath, struct kernel_stat64 *ust, int flags)
{
	struct kstat k;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	return put_64(path_kstat(dirfd, upath, flags, &k), &k, ust);
}

/* The caller is root: reading and writing are always allowed; executing
 * needs an execute bit on anything but a directory. */
static int access_check(const struct inode *inode, int mode)
{
	if ((mode & X_OK) && !S_ISDIR(inode->mode) && !(inode->mode & 0111))
		return -EACCES;
	return 0;
}

long sys_faccessat2(int dirfd, const char *upath, int mode, int flags)
{
	struct inode *inode;
	int err;

	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	inode = stat_lookup(dirfd, upath, flags);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	err = access_check(inode, mode);
	iput(inode);
	return err;
}

long sys_faccessat(int dirfd, const char *upath, int mode)
{
	return sys_faccessat2(dirfd, upath, mode, 0);
}

long sys_access(const char *upath, int mode)
{
	return sys_faccessat2(AT_FDCWD, upath, mode, 0);
}

/* readlink: the target without a NUL, cut to size; -EINVAL for no symlink. */
long sys_readlink(const char *upath, char *ubuf, int size)
{
	char path[PATH_MAX], *buf;
	struct inode *inode;
	int n = fs_get_path(path, upath);

	if (n)
		return n;
	if (size <= 0)
		return -EINVAL;
	inode = namei_at_nofollow(NULL, path);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	n = buf ? vfs_readlink(inode, buf, PATH_MAX) : -ENOMEM;
	iput(inode);
	if (n > size)
		n = size;
	if (n > 0 && copy_to_user(ubuf, buf, n))
		n = -EFAULT;
	kfree(buf);
	return n;
}
