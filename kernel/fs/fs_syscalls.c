/* fs_syscalls.c: the file system calls: open, close, read, write, seek, stat, pipe, ... */
#include "errno.h"
#include "fs.h"
#include "sched.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/fcntl.h"
#include "uapi/stat.h"

/* Copy a user path into buf (PATH_MAX); returns 0 or -EFAULT / -ENAMETOOLONG / -ENOENT. */
static int get_path(char *buf, const char *upath)
{
	long n = strncpy_from_user(buf, upath, PATH_MAX);

	if (n < 0)
		return n;
	if (n == PATH_MAX)
		return -ENAMETOOLONG;
	return n ? 0 : -ENOENT;
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

static struct inode *open_lookup(const char *path, int flags, unsigned mode)
{
	struct inode *inode = namei(path);

	if (IS_ERR(inode) && PTR_ERR(inode) == -ENOENT && (flags & O_CREAT))
		inode = ramfs_create(path, mode);
	else if (!IS_ERR(inode) && (flags & O_CREAT) && (flags & O_EXCL)) {
		iput(inode);
		inode = ERR_PTR(-EEXIST);
	}
	return inode;
}

long sys_open(const char *upath, int flags, unsigned mode)
{
	char path[PATH_MAX];
	u32 fmode = open_fmode(flags);
	struct inode *inode;
	struct file *f;
	int err, fd;

	if (!fmode)
		return -EINVAL;
	if ((err = get_path(path, upath)))
		return err;
	inode = open_lookup(path, flags, mode);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	if (S_ISDIR(inode->mode) && (fmode & FMODE_WRITE))
		err = -EISDIR;
	else if ((flags & O_TRUNC) && S_ISREG(inode->mode) && (fmode & FMODE_WRITE))
		err = ramfs_truncate(inode, 0);
	f = err ? ERR_PTR(err) : vfs_open_inode(inode, fmode, flags);
	iput(inode);
	if (IS_ERR(f))
		return PTR_ERR(f);
	fd = fd_install(current->files, f);
	if (fd < 0)
		fput(f);
	return fd;
}

long sys_close(int fd)
{
	return fd_close(current->files, fd);
}

static bool is_pipe(const struct file *f)
{
	return f->f_inode && (f->f_inode->mode & S_IFMT) == S_IFIFO;
}

/* fget + a mode check: -EBADF when fd is not open with the mode needed. */
static struct file *fget_mode(int fd, u32 need)
{
	struct file *f = fget(fd);

	if (f && !(f->f_mode & need)) {
		fput(f);
		return NULL;
	}
	return f;
}

/* read/write/pread/pwrite: pos NULL means the file position. */
static long do_rw(int fd, void *buf, unsigned count, loff_t *pos, bool write)
{
	struct file *f = fget_mode(fd, write ? FMODE_WRITE : FMODE_READ);
	const struct file_operations *op;
	long ret;

	if (!f)
		return -EBADF;
	op = f->f_op;
	if (!op || (write ? !op->write : !op->read))
		ret = -EINVAL;
	else if (!access_ok_prot(buf, count, !write))
		ret = -EFAULT;
	else if (pos && is_pipe(f))
		ret = -ESPIPE;
	else if (write)
		ret = op->write(f, buf, count, pos ? pos : &f->f_pos);
	else
		ret = op->read(f, buf, count, pos ? pos : &f->f_pos);
	fput(f);
	return ret;
}

static long do_read(int fd, void *buf, unsigned count, loff_t *pos)
{
	return do_rw(fd, buf, count, pos, false);
}

static long do_write(int fd, const void *buf, unsigned count, loff_t *pos)
{
	return do_rw(fd, (void *)buf, count, pos, true);
}

long sys_read(int fd, void *buf, unsigned count)
{
	return do_read(fd, buf, count, NULL);
}

long sys_write(int fd, const void *buf, unsigned count)
{
	return do_write(fd, buf, count, NULL);
}

static loff_t join64(u32 lo, u32 hi)
{
	return (loff_t)((u64)hi << 32 | lo);
}

long sys_pread64(int fd, void *buf, unsigned count, unsigned off_lo, unsigned off_hi)
{
	loff_t pos = join64(off_lo, off_hi);

	return pos < 0 ? -EINVAL : do_read(fd, buf, count, &pos);
}

long sys_pwrite64(int fd, const void *buf, unsigned count, unsigned off_lo, unsigned off_hi)
{
	loff_t pos = join64(off_lo, off_hi);

	return pos < 0 ? -EINVAL : do_write(fd, buf, count, &pos);
}

long sys_lseek(int fd, long off, int whence)
{
	struct file *f = fget(fd);
	loff_t ret;

	if (!f)
		return -EBADF;
	ret = f->f_op && f->f_op->llseek ? f->f_op->llseek(f, off, whence) : -ESPIPE;
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

long sys_fstat(int fd, struct kernel_stat *ust)
{
	struct file *f = fget(fd);
	struct kernel_stat st;

	if (!f)
		return -EBADF;
	memset(&st, 0, sizeof(st));
	if (f->f_inode) {
		st.st_ino = f->f_inode->ino;
		st.st_mode = f->f_inode->mode;
		st.st_nlink = f->f_inode->nlink;
		st.st_size = f->f_inode->size;
		st.st_rdev = f->f_inode->rdev;
	}
	st.st_blksize = 4096;
	st.st_blocks = (st.st_size + 511) / 512;
	fput(f);
	return copy_to_user(ust, &st, sizeof(st)) ? -EFAULT : 0;
}

long sys_unlink(const char *upath)
{
	char path[PATH_MAX];
	int err = get_path(path, upath);

	return err ? err : vfs_unlink(path);
}

long sys_mkdir(const char *upath, unsigned mode)
{
	char path[PATH_MAX];
	int err = get_path(path, upath);

	return err ? err : vfs_mkdir(path);
}

long sys_rmdir(const char *upath)
{
	char path[PATH_MAX];
	int err = get_path(path, upath);

	return err ? err : vfs_rmdir(path);
}

long sys_dup(int fd)
{
	struct file *f = fget(fd);
	int nfd;

	if (!f)
		return -EBADF;
	nfd = fd_install(current->files, f);
	if (nfd < 0)
		fput(f);
	return nfd;
}

long sys_dup2(int oldfd, int newfd)
{
	struct files_struct *files = current->files;
	struct file *f = fget(oldfd), *old;

	if (!f)
		return -EBADF;
	if (newfd < 0 || newfd >= NR_OPEN) {
		fput(f);
		return -EBADF;
	}
	if (oldfd == newfd) {
		fput(f);
		return newfd;
	}
	spin_lock(&files->lock);		/* process context only, as in file.c */
	old = files->fd[newfd];
	files->fd[newfd] = f;
	spin_unlock(&files->lock);
	if (old)
		fput(old);
	return newfd;
}

long sys_pipe(int *ufds)
{
	struct file *rd, *wr;
	int fds[2], err;

	if (!access_ok(ufds, sizeof(fds)))
		return -EFAULT;
	if ((err = pipe_create(&rd, &wr)))
		return err;
	fds[0] = fd_install(current->files, rd);
	if (fds[0] < 0) {
		fput(rd);
		fput(wr);
		return fds[0];
	}
	fds[1] = fd_install(current->files, wr);
	if (fds[1] < 0) {
		fd_close(current->files, fds[0]);
		fput(wr);
		return fds[1];
	}
	if (copy_to_user(ufds, fds, sizeof(fds))) {
		fd_close(current->files, fds[0]);
		fd_close(current->files, fds[1]);
		return -EFAULT;
	}
	return 0;
}
