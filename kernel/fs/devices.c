/* devices.c: /dev nodes: console (serial, a terminal for poll and ioctl), null, zero, and registration for drivers. */
#include "errno.h"
#include "fs.h"
#include "poll.h"
#include "printk.h"
#include "sched.h"
#include "serial.h"
#include "string.h"
#include "uaccess.h"
#include "uapi/ioctl.h"
#include "wait.h"

#define CONSOLE_CHUNK	128
#define ZERO_CHUNK	(16 * PAGE_SIZE)	/* /dev/zero: cleared between signal checks */

int dev_register(const char *name, u32 type, const struct file_operations *fops, void *private)
{
	char path[PATH_MAX];
	struct inode *inode;

	snprintf(path, sizeof(path), "/dev/%s", name);
	inode = vfs_create(path, type | 0666, fops);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	inode->private = private;
	iput(inode);
	return 0;
}

static ssize_t null_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	return 0;
}

static ssize_t null_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	return n;
}

/* Clear the buffer a chunk at a time, stopping early (a short count) once a
 * signal is pending: a read into a huge mapping (a memory hog's) must not keep
 * SIGKILL waiting for the whole of it. */
static ssize_t zero_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	size_t done = 0;

	while (done < n) {
		size_t chunk = MIN(n - done, ZERO_CHUNK), left = clear_user(ubuf + done, chunk);
		done += chunk - left;
		if (left || signal_pending(current))
			break;
	}
	return !done && n ? -EFAULT : (ssize_t)done;
}

static ssize_t null_aio_read(struct kiocb *req, char *ubuf, size_t n, loff_t pos)
{
	return 0;
}

static ssize_t null_aio_write(struct kiocb *req, const char *ubuf, size_t n, loff_t pos)
{
	return n;
}

static ssize_t zero_aio_read(struct kiocb *req, char *ubuf, size_t n, loff_t pos)
{
	return zero_read(NULL, ubuf, n, &pos);
}

static ssize_t null_aio_readv(struct kiocb *req, const struct iovec *iov, u32 nr, loff_t pos)
{
	return 0;
}

static ssize_t null_aio_writev(struct kiocb *req, const struct iovec *iov, u32 nr, loff_t pos)
{
	return iov_total(iov, nr);
}

/* Zeros into each segment in turn; stops at the first that faults. */
static ssize_t zero_aio_readv(struct kiocb *req, const struct iovec *iov, u32 nr, loff_t pos)
{
	ssize_t done = 0, r;

	for (u32 i = 0; i < nr; i++) {
		r = zero_read(NULL, iov[i].iov_base, iov[i].iov_len, &pos);
		if (r < 0)
			return done ? done : r;
		done += r;
		if ((size_t)r < iov[i].iov_len)
			break;
	}
	return done;
}

static int nop_fsync(struct file *f, int datasync)
{
	return 0;
}

static int nop_aio_fsync(struct kiocb *req, int datasync)
{
	return 0;
}

static const struct file_operations null_ops = {
	.read = null_read, .write = null_write, .fsync = nop_fsync,
	.aio_read = null_aio_read, .aio_write = null_aio_write, .aio_fsync = nop_aio_fsync,
	.aio_readv = null_aio_readv, .aio_writev = null_aio_writev,
};

static const struct file_operations zero_ops = {
	.read = zero_read, .write = null_write, .fsync = nop_fsync,
	.aio_read = zero_aio_read, .aio_write = null_aio_write, .aio_fsync = nop_aio_fsync,
	.aio_readv = zero_aio_readv, .aio_writev = null_aio_writev,
};

bool file_is_dev_zero(const struct file *f)
{
	return f->f_op == &zero_ops;
}

/* The console: writes go to the serial port (and the log ring is not used:
 * user output is not kernel log). Reads wait for serial input. */
static ssize_t console_write_op(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	char buf[CONSOLE_CHUNK];
	size_t done = 0;

	while (done < n) {
		size_t chunk = MIN(n - done, sizeof(buf));
		if (copy_from_user(buf, ubuf + done, chunk))
			return done ? (ssize_t)done : -EFAULT;
		console_write(buf, chunk);
		done += chunk;
	}
	return done;
}

static ssize_t console_read_op(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	char buf[CONSOLE_CHUNK];
	ssize_t got;

	if (!n)
		return 0;
	got = serial_read(buf, MIN(n, sizeof(buf)));
	if (got > 0 && copy_to_user(ubuf, buf, got))
		return -EFAULT;
	return got;
}

/* Readable when the serial port received something; always writable. */
static unsigned console_poll(struct file *f, struct poll_table *pt)
{
	poll_wait(f, serial_rx_waitq(), pt);
	return POLLOUT | POLLWRNORM | (serial_rx_ready() ? POLLIN | POLLRDNORM : 0);
}

/* The line settings TCGETS reports: 115200 8N1, raw (no line discipline);
 * TCSETS* store what they are given, which changes nothing else. */
#define CONSOLE_CFLAG	(0010002 | 0000060 | 0000200 | 0004000)	/* B115200 CS8 CREAD CLOCAL */
static struct kernel_termios console_termios = { .c_cflag = CONSOLE_CFLAG };
static DEFINE_SPINLOCK(console_termios_lock);

static long console_termios_io(unsigned cmd, unsigned long arg)
{
	struct kernel_termios t;

	if (cmd == TCGETS) {
		spin_lock(&console_termios_lock);
		t = console_termios;
		spin_unlock(&console_termios_lock);
		return copy_to_user((void *)arg, &t, sizeof(t)) ? -EFAULT : 0;
	}
	if (copy_from_user(&t, (const void *)arg, sizeof(t)))
		return -EFAULT;
	spin_lock(&console_termios_lock);
	console_termios = t;
	spin_unlock(&console_termios_lock);
	return 0;
}

static long console_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	struct kernel_winsize ws = { 0, 0, 0, 0 };	/* a serial line: size unknown */

	switch (cmd) {
	case TCGETS: case TCSETS: case TCSETSW: case TCSETSF:
		return console_termios_io(cmd, arg);
	case TIOCGWINSZ:
		return copy_to_user((void *)arg, &ws, sizeof(ws)) ? -EFAULT : 0;
	case FIONREAD:
		return put_user((u32)serial_rx_ready(), (u32 *)arg);
	}
	return -ENOTTY;
}

static const struct file_operations console_ops = {
	.read = console_read_op, .write = console_write_op, .fsync = nop_fsync,
	.poll = console_poll, .ioctl = console_ioctl,
};

void devices_init(void)
{
	dev_register("null", S_IFCHR, &null_ops, NULL);
	dev_register("zero", S_IFCHR, &zero_ops, NULL);
	dev_register("console", S_IFCHR, &console_ops, NULL);
}
