/* fd_syscalls.c: descriptor calls: dup, dup2, dup3, pipe, pipe2, fcntl (F_DUPFD, FD_CLOEXEC, F_GETFL/F_SETFL, record locks through locks.c) and ioctl. */
#include "blkdev.h"
#include "errno.h"
#include "file_lock.h"
#include "fs.h"
#include "sched.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/fcntl.h"
#include "uapi/ioctl.h"
#include "uapi/stat.h"
#include "fs_internal.h"

/* The status flags F_SETFL may change; the others (access mode, O_DSYNC,
 * O_LARGEFILE, ...) stay as open set them. */
#define SETFL_MASK	(O_APPEND | O_NONBLOCK | O_DIRECT)

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

/* dup2/dup3: newfd closed first if open; FD_CLOEXEC as asked. */
static long dup_to(int oldfd, int newfd, bool cloexec)
{
	struct file *f = fget(oldfd);

	if (!f)
		return -EBADF;
	if (newfd < 0 || newfd >= NR_OPEN) {
		fput(f);
		return -EBADF;
	}
	return fd_replace(current->files, newfd, f, cloexec);	/* takes f's reference */
}

long sys_dup2(int oldfd, int newfd)
{
	struct file *f;

	if (oldfd != newfd)
		return dup_to(oldfd, newfd, false);
	f = fget(oldfd);			/* dup2(fd, fd): fd if open */
	if (!f)
		return -EBADF;
	fput(f);
	return newfd;
}

long sys_dup3(int oldfd, int newfd, int flags)
{
	if ((flags & ~O_CLOEXEC) || oldfd == newfd)
		return -EINVAL;
	return dup_to(oldfd, newfd, flags & O_CLOEXEC);
}

long sys_pipe2(int *ufds, int flags)
{
	struct files_struct *files = current->files;
	bool cloexec = flags & O_CLOEXEC;
	struct file *rd, *wr;
	int fds[2], err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK | O_DIRECT))
		return -EINVAL;
	if (!access_ok(ufds, sizeof(fds)))
		return -EFAULT;
	if ((err = pipe_create(&rd, &wr)))
		return err;
	rd->f_flags |= flags & (O_NONBLOCK | O_DIRECT);
	wr->f_flags |= flags & (O_NONBLOCK | O_DIRECT);
	fds[0] = fd_install_from(files, rd, 0, cloexec);
	if (fds[0] < 0) {
		fput(rd);
		fput(wr);
		return fds[0];
	}
	fds[1] = fd_install_from(files, wr, 0, cloexec);
	if (fds[1] < 0) {
		fd_close(files, fds[0]);
		fput(wr);
		return fds[1];
	}
	if (copy_to_user(ufds, fds, sizeof(fds))) {
		fd_close(files, fds[0]);
		fd_close(files, fds[1]);
		return -EFAULT;
	}
	return 0;
}

long sys_pipe(int *ufds)
{
	return sys_pipe2(ufds, 0);
}

static long fcntl_dupfd(int fd, unsigned long min, bool cloexec)
{
	struct file *f;
	int nfd;

	if (min >= NR_OPEN)
		return -EINVAL;
	f = fget(fd);
	if (!f)
		return -EBADF;
	nfd = fd_install_from(current->files, f, min, cloexec);
	if (nfd < 0)
		fput(f);
	return nfd;
}

static long fcntl_flags(int fd, int cmd, unsigned long arg)
{
	struct file *f = fget(fd);
	long ret = 0;

	if (!f)
		return -EBADF;
	if (cmd == F_GETFL)
		ret = f->f_flags;
	else
		f->f_flags = (f->f_flags & ~SETFL_MASK) | (arg & SETFL_MASK);
	fput(f);
	return ret;
}

static long fcntl_pipe(int fd, int cmd, unsigned long arg)
{
	struct file *f = fget(fd);
	long ret;

	if (!f)
		return -EBADF;
	ret = pipe_fcntl(f, cmd, arg);
	fput(f);
	return ret;
}

long sys_fcntl(int fd, int cmd, unsigned long arg)
{
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return fcntl_dupfd(fd, arg, cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
		return fd_get_cloexec(current->files, fd);
	case F_SETFD:
		return fd_set_cloexec(current->files, fd, arg & FD_CLOEXEC);
	case F_GETFL:
	case F_SETFL:
		return fcntl_flags(fd, cmd, arg);
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		return fcntl_lock(fd, cmd, arg, false);
	case F_SETPIPE_SZ:
	case F_GETPIPE_SZ:
		return fcntl_pipe(fd, cmd, arg);
	}
	return fd_get_cloexec(current->files, fd) < 0 ? -EBADF : -EINVAL;
}

/* glibc's name for the same call on i386, which adds the 64-bit record
 * locks (struct kernel_flock64): fcntl refuses those, as Linux's does. */
long sys_fcntl64(int fd, int cmd, unsigned long arg)
{
	if (cmd == F_GETLK64 || cmd == F_SETLK64 || cmd == F_SETLKW64 ||
	    cmd == F_OFD_GETLK || cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW)
		return fcntl_lock(fd, cmd, arg, true);
	return sys_fcntl(fd, cmd, arg);
}

/* Block devices: the sizes linux/fs.h's requests ask for. */
static long ioctl_block(struct file *f, unsigned cmd, unsigned long arg)
{
	u64 bytes = f->f_inode->size;

	switch (cmd) {
	case BLKGETSIZE64:
		return put_user(bytes, (u64 *)arg);
	case BLKGETSIZE:
		if (bytes / BLK_SECTOR_SIZE > 0xffffffffu)
			return -EFBIG;
		return put_user((u32)(bytes / BLK_SECTOR_SIZE), (u32 *)arg);
	case BLKSSZGET:
	case BLKPBSZGET:
		return put_user((u32)BLK_SECTOR_SIZE, (u32 *)arg);
	case BLKBSZGET:
		return put_user((u32)4096, (u32 *)arg);
	}
	return -ENOTTY;
}

/* What any file of a kind answers when its own ioctl does not. */
static long ioctl_generic(struct file *f, unsigned cmd, unsigned long arg)
{
	struct inode *inode = f->f_inode;
	loff_t left;

	if (inode && S_ISBLK(inode->mode))
		return ioctl_block(f, cmd, arg);
	if (inode && S_ISREG(inode->mode) && cmd == FIONREAD) {
		left = inode->size - f->f_pos;
		left = left < 0 ? 0 : MIN(left, (loff_t)0x7fffffff);
		return put_user((u32)left, (u32 *)arg);
	}
	return -ENOTTY;			/* TCGETS here: not a terminal (isatty) */
}

long sys_ioctl(int fd, unsigned cmd, unsigned long arg)
{
	struct file *f = fget(fd);
	long ret = -ENOIOCTLCMD;
	int on;

	if (!f)
		return -EBADF;
	if (cmd == FIOCLEX || cmd == FIONCLEX) {
		ret = fd_set_cloexec(current->files, fd, cmd == FIOCLEX);
	} else if (cmd == FIONBIO) {
		ret = get_user(on, (int *)arg);
		if (!ret)
			f->f_flags = on ? f->f_flags | O_NONBLOCK : f->f_flags & ~O_NONBLOCK;
	} else if (f->f_op && f->f_op->ioctl) {
		ret = f->f_op->ioctl(f, cmd, arg);
	}
	if (ret == -ENOIOCTLCMD)
		ret = ioctl_generic(f, cmd, arg);
	fput(f);
	return ret;
}
