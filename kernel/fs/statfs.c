/* statfs.c: statfs, fstatfs, statfs64 and fstatfs64: what a file system holds and has free, in Linux i386's layouts. */
#include "errno.h"
#include "ext2_mount.h"
#include "fs.h"
#include "mm.h"
#include "statfs.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/statfs.h"
#include "fs_internal.h"

/* ramfs (the initramfs root, /dev): no block or inode table of its own; its
 * blocks are pages: those holding file data and the free ones it may take. */
static void ramfs_statfs(struct kstatfs *st)
{
	u64 free = nr_free_pages();

	st->type = RAMFS_MAGIC;
	st->bsize = PAGE_SIZE;
	st->blocks = free + (u32)atomic_read(&ramfs_pages);
	st->bfree = free;
	st->bavail = free;
	st->namelen = NAME_MAX;
	st->flags = ST_VALID;
}

/* The file system inode is on: ext2 for a disk inode, a pipe, or ramfs. */
static void vfs_statfs(struct inode *inode, struct kstatfs *st)
{
	memset(st, 0, sizeof(*st));
	if (inode->i_sb) {
		ext2_statfs(inode, st);
	} else if (S_ISFIFO(inode->mode)) {
		st->type = PIPEFS_MAGIC;
		st->bsize = PAGE_SIZE;
		st->namelen = NAME_MAX;
		st->flags = ST_VALID;
	} else {
		ramfs_statfs(st);
	}
}

static long statfs_put32(const struct kstatfs *st, struct kernel_statfs *ubuf)
{
	struct kernel_statfs k;

	if ((st->blocks | st->bfree | st->bavail | st->files | st->ffree) >> 32)
		return -EOVERFLOW;
	memset(&k, 0, sizeof(k));
	k.f_type = st->type;
	k.f_bsize = k.f_frsize = st->bsize;
	k.f_blocks = st->blocks;
	k.f_bfree = st->bfree;
	k.f_bavail = st->bavail;
	k.f_files = st->files;
	k.f_ffree = st->ffree;
	memcpy(k.f_fsid, st->fsid, sizeof(k.f_fsid));
	k.f_namelen = st->namelen;
	k.f_flags = st->flags;
	return copy_to_user(ubuf, &k, sizeof(k)) ? -EFAULT : 0;
}

static long statfs_put64(const struct kstatfs *st, unsigned sz, struct kernel_statfs64 *ubuf)
{
	struct kernel_statfs64 k;

	if (sz != sizeof(k))
		return -EINVAL;
	memset(&k, 0, sizeof(k));
	k.f_type = st->type;
	k.f_bsize = k.f_frsize = st->bsize;
	k.f_blocks = st->blocks;
	k.f_bfree = st->bfree;
	k.f_bavail = st->bavail;
	k.f_files = st->files;
	k.f_ffree = st->ffree;
	memcpy(k.f_fsid, st->fsid, sizeof(k.f_fsid));
	k.f_namelen = st->namelen;
	k.f_flags = st->flags;
	return copy_to_user(ubuf, &k, sizeof(k)) ? -EFAULT : 0;
}

/* The figures of the file system path is on: 0 or the look-up's -errno. */
static long statfs_path(const char *upath, struct kstatfs *st)
{
	char path[PATH_MAX];
	struct inode *inode;
	long err = fs_get_path(path, upath);

	if (err)
		return err;
	inode = namei(path);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	vfs_statfs(inode, st);
	iput(inode);
	return 0;
}

static long statfs_fd(int fd, struct kstatfs *st)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (f->f_inode)
		vfs_statfs(f->f_inode, st);
	else
		memset(st, 0, sizeof(*st));	/* no inode: an anonymous file */
	fput(f);
	return 0;
}

long sys_statfs(const char *path, struct kernel_statfs *buf)
{
	struct kstatfs st;
	long err = statfs_path(path, &st);

	return err ? err : statfs_put32(&st, buf);
}

long sys_fstatfs(int fd, struct kernel_statfs *buf)
{
	struct kstatfs st;
	long err = statfs_fd(fd, &st);

	return err ? err : statfs_put32(&st, buf);
}

long sys_statfs64(const char *path, unsigned sz, struct kernel_statfs64 *buf)
{
	struct kstatfs st;
	long err = statfs_path(path, &st);

	return err ? err : statfs_put64(&st, sz, buf);
}

long sys_fstatfs64(int fd, unsigned sz, struct kernel_statfs64 *buf)
{
	struct kstatfs st;
	long err = statfs_fd(fd, &st);

	return err ? err : statfs_put64(&st, sz, buf);
}
