/* fs_syscalls.c: the name-space system calls: open/openat, close, lseek, fsync, unlink/mkdir/rmdir (and *at), rename, chdir, getcwd, umask, symlink, link. */
#include "errno.h"
#include "fs.h"
#include "sched.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/fcntl.h"
#include "uapi/stat.h"
#include "fs_internal.h"

int fs_get_path(char *buf, const char *upath)
{
	long n = strncpy_from_user(buf, upath, PATH_MAX);

	if (n < 0)
		return n;
	if (n == PATH_MAX)
		return -ENAMETOOLONG;
	return n ? 0 : -ENOENT;
}

struct inode *fs_at_base(int dirfd, const char *path)
{
	struct file *f;
	struct inode *dir;

	if (path[0] == '/' || dirfd == AT_FDCWD)
		return NULL;
	f = fget(dirfd);
	if (!f)
		return ERR_PTR(-EBADF);
	dir = f->f_inode;
	if (dir && S_ISDIR(dir->mode))
		iget(dir);
	else
		dir = ERR_PTR(-ENOTDIR);
	fput(f);
	return dir;
}

void fs_put_base(struct inode *base)
{
	if (base && !IS_ERR(base))
		iput(base);
}

u32 fs_umask(void)
{
	return current->files ? current->files->umask : 022;
}

static u32 open_fmode(int flags)
{
	switch (flags & O_ACCMODE) {
	case O_RDONLY: return FMODE_READ;
	case O_WRONLY: return FMODE_WRITE;
	case O_RDWR: return FMODE_READ | FMODE_WRITE;
	}
	return 0;
}

#define OPEN_CREATE_TRIES	8	/* look-up, create: rounds lost to other creators */

/* The inode open names, made first with O_CREAT. Another process may make
 * the name between our look-up and our create: without O_EXCL that file is
 * opened (-EEXIST only with O_EXCL), as Linux's atomic open does. With
 * O_NOFOLLOW a symbolic link as the last component is not followed
 * (open_check refuses it). */
static struct inode *open_lookup(struct inode *base, const char *path, int flags, unsigned mode)
{
	struct inode *inode;

	for (int tries = 0;; tries++) {
		inode = (flags & O_NOFOLLOW) ? namei_at_nofollow(base, path) : namei_at(base, path);
		if (!IS_ERR(inode) && (flags & O_CREAT) && (flags & O_EXCL)) {
			iput(inode);
			return ERR_PTR(-EEXIST);
		}
		if (!IS_ERR(inode) || PTR_ERR(inode) != -ENOENT || !(flags & O_CREAT))
			return inode;
		inode = vfs_create_file_at(base, path, mode & ~fs_umask() & 07777);
		if (!IS_ERR(inode) || PTR_ERR(inode) != -EEXIST || (flags & O_EXCL) ||
		    tries == OPEN_CREATE_TRIES)
			return inode;
	}
}

/* Checks of an open on what the path named; 0 or -errno. */
static int open_check(struct inode *inode, int flags, u32 fmode)
{
	if ((flags & O_NOFOLLOW) && S_ISLNK(inode->mode))
		return -ELOOP;		/* Linux's answer for O_NOFOLLOW on a link */
	if (S_ISDIR(inode->mode) && (fmode & FMODE_WRITE))
		return -EISDIR;
	if ((flags & O_DIRECTORY) && !S_ISDIR(inode->mode))
		return -ENOTDIR;
	if ((flags & O_TRUNC) && S_ISREG(inode->mode) && (fmode & FMODE_WRITE))
		return vfs_truncate(inode, 0);
	return 0;
}

/* The flags a file keeps (F_GETFL): no creation flags, no O_CLOEXEC. */
#define OPEN_ONLY_FLAGS	(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC)

static long do_open(int dirfd, const char *upath, int flags, unsigned mode)
{
	char path[PATH_MAX];
	u32 fmode = open_fmode(flags);
	struct inode *base, *inode;
	struct file *f;
	int err, fd;

	if (!fmode || ((flags & O_DIRECTORY) && (flags & O_CREAT)))
		return -EINVAL;
	if ((err = fs_get_path(path, upath)))
		return err;
	base = fs_at_base(dirfd, path);
	if (IS_ERR(base))
		return PTR_ERR(base);
	inode = open_lookup(base, path, flags, mode);
	fs_put_base(base);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	err = open_check(inode, flags, fmode);
	f = err ? ERR_PTR(err) : vfs_open_inode(inode, fmode, flags & ~OPEN_ONLY_FLAGS);
	iput(inode);
	if (IS_ERR(f))
		return PTR_ERR(f);
	fd = fd_install_from(current->files, f, 0, flags & O_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}

long sys_open(const char *upath, int flags, unsigned mode)
{
	return do_open(AT_FDCWD, upath, flags, mode);
}

long sys_openat(int dirfd, const char *upath, int flags, unsigned mode)
{
	return do_open(dirfd, upath, flags, mode);
}

long sys_close(int fd)
{
	return fd_close(current->files, fd);
}

long sys_lseek(int fd, long off, int whence)
{
	struct file *f = fget(fd);
	bool locked;
	loff_t ret;

	if (!f)
		return -EBADF;
	locked = file_pos_lock(f);
	if (f->f_op && f->f_op->llseek)
		ret = f->f_op->llseek(f, off, whence);
	else if (f->f_inode && S_ISDIR(f->f_inode->mode))
		ret = generic_llseek(f, off, whence);	/* a ramfs directory: to a d_off */
	else
		ret = -ESPIPE;
	file_pos_unlock(f, locked);
	fput(f);
	if (ret > 0x7fffffff)
		return -EFBIG;		/* does not fit the 32-bit result */
	return ret;
}

static long do_fsync(int fd, int datasync)
{
	struct file *f = fget(fd);
	long ret;

	if (!f)
		return -EBADF;
	ret = f->f_op && f->f_op->fsync ? f->f_op->fsync(f, datasync) : -EINVAL;
	fput(f);
	return ret;
}

long sys_fsync(int fd)
{
	return do_fsync(fd, 0);
}

long sys_fdatasync(int fd)
{
	return do_fsync(fd, 1);
}

/* A path operation relative to dirfd: op(base, path, arg). */
typedef int (*path_op_t)(struct inode *base, const char *path, u32 arg);

static long path_call(int dirfd, const char *upath, path_op_t op, u32 arg)
{
	char path[PATH_MAX];
	struct inode *base;
	int err = fs_get_path(path, upath);

	if (err)
		return err;
	base = fs_at_base(dirfd, path);
	if (IS_ERR(base))
		return PTR_ERR(base);
	err = op(base, path, arg);
	fs_put_base(base);
	return err;
}

static int op_unlink(struct inode *base, const char *path, u32 flags)
{
	return flags & AT_REMOVEDIR ? vfs_rmdir_at(base, path) : vfs_unlink_at(base, path);
}

static int op_mkdir(struct inode *base, const char *path, u32 mode)
{
	return vfs_mkdir_at(base, path, mode & ~fs_umask() & 0777);
}

long sys_unlink(const char *upath)
{
	return path_call(AT_FDCWD, upath, op_unlink, 0);
}

long sys_unlinkat(int dirfd, const char *upath, int flags)
{
	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	return path_call(dirfd, upath, op_unlink, flags);
}

long sys_rmdir(const char *upath)
{
	return path_call(AT_FDCWD, upath, op_unlink, AT_REMOVEDIR);
}

long sys_mkdir(const char *upath, unsigned mode)
{
	return path_call(AT_FDCWD, upath, op_mkdir, mode);
}

long sys_mkdirat(int dirfd, const char *upath, unsigned mode)
{
	return path_call(dirfd, upath, op_mkdir, mode);
}

long sys_renameat2(int olddirfd, const char *uold, int newdirfd, const char *unew, unsigned flags)
{
	char old[PATH_MAX], new[PATH_MAX];
	struct inode *obase = NULL, *nbase = NULL;
	int err = fs_get_path(old, uold);

	if (!err)
		err = fs_get_path(new, unew);
	if (!err && IS_ERR(obase = fs_at_base(olddirfd, old)))
		err = PTR_ERR(obase);
	if (!err && IS_ERR(nbase = fs_at_base(newdirfd, new)))
		err = PTR_ERR(nbase);
	if (!err)
		err = vfs_rename_at(obase, old, nbase, new, flags);
	fs_put_base(obase);
	fs_put_base(nbase);
	return err;
}

long sys_renameat(int olddirfd, const char *uold, int newdirfd, const char *unew)
{
	return sys_renameat2(olddirfd, uold, newdirfd, unew, 0);
}

long sys_rename(const char *uold, const char *unew)
{
	return sys_renameat2(AT_FDCWD, uold, AT_FDCWD, unew, 0);
}

long sys_chdir(const char *upath)
{
	char path[PATH_MAX];
	struct inode *dir;
	int err = fs_get_path(path, upath);

	if (err)
		return err;
	dir = namei(path);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	if (!S_ISDIR(dir->mode)) {
		iput(dir);
		return -ENOTDIR;
	}
	files_set_cwd(current->files, dir);
	return 0;
}

long sys_fchdir(int fd)
{
	struct file *f = fget(fd);
	struct inode *dir;

	if (!f)
		return -EBADF;
	dir = f->f_inode;
	if (dir && S_ISDIR(dir->mode))
		iget(dir);
	else
		dir = NULL;
	fput(f);
	if (!dir)
		return -ENOTDIR;
	files_set_cwd(current->files, dir);
	return 0;
}

/* The length copied (with the NUL), -ERANGE, -ENOENT (cwd removed) or -EFAULT. */
long sys_getcwd(char *ubuf, unsigned size)
{
	char path[PATH_MAX];
	int len = vfs_getcwd(path, MIN(size, (unsigned)sizeof(path)));

	if (len == -ERANGE && size >= sizeof(path))
		return -ENAMETOOLONG;
	if (len < 0)
		return len;
	return copy_to_user(ubuf, path, len) ? -EFAULT : len;
}

long sys_umask(int mask)
{
	struct files_struct *files = current->files;
	u32 old;

	spin_lock(&files->lock);
	old = files->umask;
	files->umask = mask & 0777;
	spin_unlock(&files->lock);
	return old;
}

long sys_symlink(const char *utarget, const char *upath)
{
	char target[PATH_MAX], path[PATH_MAX];
	int err = fs_get_path(target, utarget);

	if (!err)
		err = fs_get_path(path, upath);
	return err ? err : vfs_symlink_at(NULL, path, target);
}

long sys_link(const char *uold, const char *unew)
{
	char old[PATH_MAX], new[PATH_MAX];
	int err = fs_get_path(old, uold);

	if (!err)
		err = fs_get_path(new, unew);
	return err ? err : vfs_link_at(NULL, old, NULL, new);
}
