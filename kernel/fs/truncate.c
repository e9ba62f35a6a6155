/* truncate.c: truncate (92), ftruncate (93), truncate64 (193), ftruncate64
 * (194) on regular files (ramfs, ext2): a shorter file frees its pages or
 * blocks past the end, a longer one reads as zeros up to the new size. */
#include "errno.h"
#include "fs.h"
#include "fs_internal.h"
#include "resource.h"
#include "syscall_table.h"

/* Set a regular file's size: -EINVAL for other files or a negative length,
 * -EFBIG past the file system's most or RLIMIT_FSIZE (which also sends SIGXFSZ). */
static long do_truncate(struct inode *inode, loff_t length)
{
	size_t n = 1;

	if (S_ISDIR(inode->mode))
		return -EISDIR;
	if (!S_ISREG(inode->mode) || length < 0)
		return -EINVAL;
	if (length && rlimit_fsize_check(length - 1, &n))
		return -EFBIG;
	return vfs_truncate(inode, length);
}

static long path_truncate(const char *upath, loff_t length)
{
	char path[PATH_MAX];
	struct inode *inode;
	long err = fs_get_path(path, upath);

	if (err)
		return err;
	if (length < 0)
		return -EINVAL;
	inode = namei(path);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	err = do_truncate(inode, length);
	iput(inode);
	return err;
}

/* ftruncate: the descriptor must be open for writing (-EINVAL, as Linux). */
static long fd_truncate(int fd, loff_t length)
{
	struct file *f = fget(fd);
	long err;

	if (!f)
		return -EBADF;
	err = f->f_mode & FMODE_WRITE ? do_truncate(f->f_inode, length) : -EINVAL;
	if (err == -EISDIR)
		err = -EINVAL;
	fput(f);
	return err;
}

long sys_truncate(const char *upath, long length)
{
	return path_truncate(upath, length);
}

long sys_ftruncate(int fd, long length)
{
	return fd_truncate(fd, length);
}

long sys_truncate64(const char *upath, unsigned lo, unsigned hi)
{
	return path_truncate(upath, (loff_t)(((u64)hi << 32) | lo));
}

long sys_ftruncate64(int fd, unsigned lo, unsigned hi)
{
	return fd_truncate(fd, (loff_t)(((u64)hi << 32) | lo));
}
