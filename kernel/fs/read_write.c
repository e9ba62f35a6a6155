/* read_write.c: read, write, pread64, pwrite64 and their vectored forms readv, writev, preadv, pwritev;
 * rw_verify_area, the one offset check of every transfer (these calls and io_submit's). */
#include "errno.h"
#include "fs.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "syscall_table.h"
#include "test_hooks.h"
#include "uaccess.h"
#include "uapi/fcntl.h"
#include "uapi/poll.h"
#include "uapi/stat.h"
#include "uapi/uio.h"
#include "fs_internal.h"

#define IOV_INLINE	8		/* segments copied on the stack */
#define RW_MAX		0x7fffffffu	/* most bytes one call moves (SSIZE_MAX) */

static bool is_pipe(const struct file *f)
{
	return f->f_inode && (f->f_inode->mode & S_IFMT) == S_IFIFO;
}

/* fget + a mode check: NULL (-EBADF) when fd is not open with the mode needed. */
static struct file *fget_mode(int fd, u32 need)
{
	struct file *f = fget(fd);

	if (f && !(f->f_mode & need)) {
		fput(f);
		return NULL;
	}
	return f;
}

/* Would a read (write) on an O_NONBLOCK file wait? The file's poll says.
 * A pipe decides under its own mutex (pipe.c): its POLLOUT wants PIPE_BUF
 * bytes free, and a smaller write that fits must not fail (POSIX, Linux). */
static bool would_block(struct file *f, bool write)
{
	unsigned ready;

	if (!(f->f_flags & O_NONBLOCK) || !f->f_op->poll || is_pipe(f))
		return false;
	ready = fs_poll_now(f);
	if (write)
		return !(ready & (POLLOUT | POLLERR));
	return !(ready & (POLLIN | POLLHUP | POLLERR));
}

/* Can f be read (written) at all? 0 or -errno. */
static long rw_check(struct file *f, bool write, bool positioned)
{
	const struct file_operations *op = f->f_op;

	if (f->f_inode && S_ISDIR(f->f_inode->mode))
		return -EISDIR;
	if (!op || (write ? !op->write : !op->read))
		return -EINVAL;
	if (positioned && is_pipe(f))
		return -ESPIPE;
	return 0;
}

int rw_verify_area(loff_t pos, u64 count)
{
	if (pos < 0)
		return -EINVAL;
	if (count > (u64)(LOFF_MAX - pos))
		return -EINVAL;		/* the end would pass the largest loff_t */
	return 0;
}

/* One transfer on f at *pos (NULL: the file position). */
static long rw_one(struct file *f, void *buf, size_t count, loff_t *pos, bool write)
{
	loff_t *at = pos ? pos : &f->f_pos;

	if (!access_ok_prot(buf, count, !write))	/* /dev/null too honours PROT_* */
		return -EFAULT;
	if (count && would_block(f, write))
		return -EAGAIN;
	if (f->f_flags & O_NONBLOCK)
		ktest_nonblock_yield();		/* test kernel: a preemption here */
	return write ? f->f_op->write(f, buf, count, at) : f->f_op->read(f, buf, count, at);
}

/* read/write/pread/pwrite: pos NULL means the file position. */
static long do_rw(int fd, void *buf, unsigned count, loff_t *pos, bool write)
{
	struct file *f = fget_mode(fd, write ? FMODE_WRITE : FMODE_READ);
	bool locked;
	long ret;

	if (!f)
		return -EBADF;
	count = MIN(count, RW_MAX);
	locked = !pos && file_pos_lock(f);
	ret = rw_check(f, write, pos != NULL);
	if (!ret)
		ret = rw_verify_area(pos ? *pos : f->f_pos, count);
	if (!ret)
		ret = rw_one(f, buf, count, pos, write);
	file_pos_unlock(f, locked);
	fput(f);
	return ret;
}

long sys_read(int fd, void *buf, unsigned count)
{
	return do_rw(fd, buf, count, NULL, false);
}

long sys_write(int fd, const void *buf, unsigned count)
{
	return do_rw(fd, (void *)buf, count, NULL, true);
}

static loff_t join64(u32 lo, u32 hi)
{
	return (loff_t)((u64)hi << 32 | lo);
}

long sys_pread64(int fd, void *buf, unsigned count, unsigned off_lo, unsigned off_hi)
{
	loff_t pos = join64(off_lo, off_hi);

	return pos < 0 ? -EINVAL : do_rw(fd, buf, count, &pos, false);
}

long sys_pwrite64(int fd, const void *buf, unsigned count, unsigned off_lo, unsigned off_hi)
{
	loff_t pos = join64(off_lo, off_hi);

	return pos < 0 ? -EINVAL : do_rw(fd, (void *)buf, count, &pos, true);
}

/* Copy and check an iovec array, its byte total in *total: -EINVAL for more
 * than RW_MAX bytes in all, -EFAULT when it cannot be read. */
static long iov_fetch(const struct iovec *uvec, unsigned n, struct iovec *vec, u64 *total)
{
	*total = 0;

	if (copy_from_user(vec, uvec, n * sizeof(*vec)))
		return -EFAULT;
	for (unsigned i = 0; i < n; i++) {
		*total += vec[i].iov_len;
		if (vec[i].iov_len > RW_MAX || *total > RW_MAX)
			return -EINVAL;
	}
	return 0;
}

/* Segment by segment; stops at the first short transfer, and a read stops
 * rather than wait once it has something (a pipe's readv returns what is
 * there). Bytes moved, or the first segment's error. */
static long rw_segments(struct file *f, const struct iovec *vec, unsigned n, loff_t *pos,
			bool write)
{
	long done = 0;

	for (unsigned i = 0; i < n; i++) {
		long r;

		if (done && !write && f->f_op->poll && !(fs_poll_now(f) & (POLLIN | POLLHUP)))
			break;
		r = rw_one(f, vec[i].iov_base, vec[i].iov_len, pos, write);

		if (r < 0)
			return done ? done : r;
		done += r;
		if ((size_t)r < vec[i].iov_len)
			break;
	}
	return done;
}

static long do_rw_vec(int fd, const struct iovec *uvec, unsigned n, loff_t *pos, bool write)
{
	struct iovec inline_vec[IOV_INLINE], *vec = inline_vec;
	struct file *f;
	bool locked;
	u64 total;
	long ret;

	if (n > UIO_MAXIOV)
		return -EINVAL;
	f = fget_mode(fd, write ? FMODE_WRITE : FMODE_READ);
	if (!f)
		return -EBADF;
	locked = !pos && file_pos_lock(f);
	if (n > IOV_INLINE && !(vec = kmalloc(n * sizeof(*vec), GFP_KERNEL)))
		ret = -ENOMEM;
	else if (!(ret = iov_fetch(uvec, n, vec, &total)) && !(ret = rw_check(f, write, pos != NULL)) &&
		 !(ret = rw_verify_area(pos ? *pos : f->f_pos, total)))
		ret = rw_segments(f, vec, n, pos, write);
	if (vec != inline_vec && vec)
		kfree(vec);
	file_pos_unlock(f, locked);
	fput(f);
	return ret;
}

long sys_readv(int fd, const struct iovec *uvec, unsigned n)
{
	return do_rw_vec(fd, uvec, n, NULL, false);
}

long sys_writev(int fd, const struct iovec *uvec, unsigned n)
{
	return do_rw_vec(fd, uvec, n, NULL, true);
}

long sys_preadv(int fd, const struct iovec *uvec, unsigned n, unsigned pos_lo, unsigned pos_hi)
{
	loff_t pos = join64(pos_lo, pos_hi);

	return pos < 0 ? -EINVAL : do_rw_vec(fd, uvec, n, &pos, false);
}

long sys_pwritev(int fd, const struct iovec *uvec, unsigned n, unsigned pos_lo, unsigned pos_hi)
{
	loff_t pos = join64(pos_lo, pos_hi);

	return pos < 0 ? -EINVAL : do_rw_vec(fd, uvec, n, &pos, true);
}
