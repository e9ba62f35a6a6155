/* sync.c: sync (36), fallocate (324) and the advice calls fadvise64 (250) / fadvise64_64 (272). */
#include "blk_file.h"
#include "errno.h"
#include "fs.h"
#include "fs_internal.h"
#include "mount.h"
#include "resource.h"
#include "syscall_table.h"
#include "uapi/fcntl.h"

/* The mounted file systems' dirty blocks, then the block devices' volatile
 * caches (ramfs keeps everything in memory). Errors are not reported, as
 * sync(2) says. */
long sys_sync(void)
{
	mount_sync_all();
	blk_file_sync_all();
	return 0;
}

static loff_t join64(unsigned lo, unsigned hi)
{
	return (loff_t)(((u64)hi << 32) | lo);
}

/* The checks every file type shares, in Linux's order (vfs_fallocate). */
static long fallocate_check(struct file *f, int mode, loff_t off, loff_t len)
{
	u32 type = f->f_inode ? f->f_inode->mode : 0;

	if (off < 0 || len <= 0)
		return -EINVAL;
	if (mode & ~FALLOC_FL_KEEP_SIZE)
		return -EOPNOTSUPP;	/* holes, zero/collapse/insert ranges */
	if (!(f->f_mode & FMODE_WRITE))
		return -EBADF;
	if (S_ISFIFO(type))
		return -ESPIPE;
	if (S_ISDIR(type))
		return -EISDIR;
	if (!S_ISREG(type) && !S_ISBLK(type))
		return -ENODEV;
	if (len > LOFF_MAX - off)
		return -EFBIG;		/* off + len would pass LOFF_MAX (no signed overflow) */
	if (!S_ISREG(type) || f->f_inode->fops != &ramfs_file_ops)
		return -EOPNOTSUPP;	/* block devices: no allocation to make */
	return 0;
}

/* ramfs allocates its pages as they are written, so the space is not
 * reserved: mode 0 sets the size to off + len when that is larger, and
 * FALLOC_FL_KEEP_SIZE changes nothing. RLIMIT_FSIZE applies (-EFBIG). */
long sys_fallocate(int fd, int mode, unsigned off_lo, unsigned off_hi, unsigned len_lo,
		   unsigned len_hi)
{
	loff_t off = join64(off_lo, off_hi), len = join64(len_lo, len_hi);
	struct file *f = fget(fd);
	size_t one = 1;
	long err;

	if (!f)
		return -EBADF;
	err = fallocate_check(f, mode, off, len);
	if (!err && rlimit_fsize_check(off + len - 1, &one))
		err = -EFBIG;
	if (!err && !(mode & FALLOC_FL_KEEP_SIZE))
		err = ramfs_extend(f->f_inode, off + len);
	fput(f);
	return err;
}

/* Advice is checked and otherwise has no effect: ramfs is memory, and block
 * devices have no cache of their own to read ahead into or drop. */
static long fadvise(int fd, loff_t off, loff_t len, int advice)
{
	struct file *f = fget(fd);
	long err = 0;

	(void)off;
	if (!f)
		return -EBADF;
	if (f->f_inode && S_ISFIFO(f->f_inode->mode))
		err = -ESPIPE;
	else if (advice < POSIX_FADV_NORMAL || advice > POSIX_FADV_NOREUSE || len < 0)
		err = -EINVAL;
	fput(f);
	return err;
}

long sys_fadvise64(int fd, unsigned off_lo, unsigned off_hi, unsigned len, int advice)
{
	return fadvise(fd, join64(off_lo, off_hi), len, advice);
}

long sys_fadvise64_64(int fd, unsigned off_lo, unsigned off_hi, unsigned len_lo, unsigned len_hi,
		      int advice)
{
	return fadvise(fd, join64(off_lo, off_hi), join64(len_lo, len_hi), advice);
}
