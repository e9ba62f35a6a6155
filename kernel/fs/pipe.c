/* pipe.c: pipes: a ring buffer with blocking reads and writes, EOF and EPIPE. */
#include "errno.h"
#include "fs.h"
#include "signal.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "uaccess.h"
#include "wait.h"

#define PIPE_SIZE	16384		/* bytes buffered */
#define PIPE_BUF	4096		/* writes up to this size are atomic */

struct pipe {
	spinlock_t lock;		/* guards everything below */
	char *buf;
	u32 head;			/* next byte to read */
	u32 len;			/* bytes buffered */
	int readers, writers;		/* open ends */
	wait_queue_head_t rd_wait;	/* readers waiting for data or EOF */
	wait_queue_head_t wr_wait;	/* writers waiting for room */
};

static struct pipe *file_pipe(struct file *f)
{
	return f->f_inode->private;
}

/* Copy up to n buffered bytes to user space (lock held); -EFAULT consumes nothing. */
static ssize_t pipe_copy_out(struct pipe *p, char *ubuf, size_t n)
{
	size_t first, total = MIN(n, p->len);

	first = MIN(total, PIPE_SIZE - p->head);
	if (copy_to_user(ubuf, p->buf + p->head, first) ||
	    copy_to_user(ubuf + first, p->buf, total - first))
		return -EFAULT;
	p->head = (p->head + total) % PIPE_SIZE;
	p->len -= total;
	return total;
}

static ssize_t pipe_copy_in(struct pipe *p, const char *ubuf, size_t n)
{
	u32 tail = (p->head + p->len) % PIPE_SIZE;
	size_t first, total = MIN(n, PIPE_SIZE - p->len);

	first = MIN(total, PIPE_SIZE - tail);
	if (copy_from_user(p->buf + tail, ubuf, first) ||
	    copy_from_user(p->buf, ubuf + first, total - first))
		return -EFAULT;
	p->len += total;
	return total;
}

static ssize_t pipe_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	struct pipe *p = file_pipe(f);
	ssize_t ret;

	if (!n)
		return 0;
	spin_lock(&p->lock);
	while (!p->len && p->writers) {
		spin_unlock(&p->lock);
		if (wait_event_interruptible(p->rd_wait, p->len || !p->writers))
			return -EINTR;
		spin_lock(&p->lock);
	}
	ret = p->len ? pipe_copy_out(p, ubuf, n) : 0;	/* 0: EOF */
	spin_unlock(&p->lock);
	if (ret > 0)
		wake_up(&p->wr_wait);
	return ret;
}

/* Room to write `want` more bytes now? Small writes wait for room for all. */
static bool pipe_writable(struct pipe *p, size_t want)
{
	size_t room = PIPE_SIZE - p->len;

	return !p->readers || (want <= PIPE_BUF ? room >= want : room > 0);
}

static ssize_t pipe_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	struct pipe *p = file_pipe(f);
	size_t done = 0;
	ssize_t ret = 0;

	while (done < n) {
		if (wait_event_interruptible(p->wr_wait, pipe_writable(p, n - done))) {
			ret = -EINTR;
			break;
		}
		spin_lock(&p->lock);
		if (!p->readers) {
			spin_unlock(&p->lock);
			signal_send(current, SIGPIPE);
			ret = -EPIPE;
			break;
		}
		ret = pipe_writable(p, n - done) ? pipe_copy_in(p, ubuf + done, n - done) : 0;
		spin_unlock(&p->lock);
		if (ret < 0)
			break;
		done += ret;
		wake_up(&p->rd_wait);
	}
	return done ? (ssize_t)done : ret;
}

static void pipe_release(struct inode *inode, struct file *f)
{
	struct pipe *p = file_pipe(f);

	spin_lock(&p->lock);
	if (f->f_mode & FMODE_READ)
		p->readers--;
	if (f->f_mode & FMODE_WRITE)
		p->writers--;
	spin_unlock(&p->lock);
	wake_up(&p->rd_wait);
	wake_up(&p->wr_wait);
}

static void pipe_destroy(struct inode *inode)
{
	struct pipe *p = inode->private;

	kfree(p->buf);
	kfree(p);
}

static const struct file_operations pipe_ops = {
	.read = pipe_read,
	.write = pipe_write,
	.release = pipe_release,
};

static struct pipe *pipe_alloc(void)
{
	struct pipe *p = kmalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	p->buf = kmalloc(PIPE_SIZE, GFP_KERNEL);
	if (!p->buf) {
		kfree(p);
		return NULL;
	}
	spin_lock_init(&p->lock, "pipe");
	init_waitqueue_head(&p->rd_wait);
	init_waitqueue_head(&p->wr_wait);
	p->readers = p->writers = 1;
	return p;
}

int pipe_create(struct file **rd, struct file **wr)
{
	struct inode *inode = inode_alloc(S_IFIFO | 0600, &pipe_ops);
	struct pipe *p = pipe_alloc();

	if (!inode || !p) {
		kfree(inode);
		if (p)
			pipe_destroy(&(struct inode){ .private = p });
		return -ENOMEM;
	}
	inode->private = p;
	inode->destroy = pipe_destroy;
	*rd = file_alloc(inode, FMODE_READ, 0);
	*wr = file_alloc(inode, FMODE_WRITE, 0);
	iput(inode);			/* the files hold it now */
	if (!*rd || !*wr) {
		/* a half-made pipe: release what exists, ends counted as open */
		if (*rd)
			fput(*rd);
		if (*wr)
			fput(*wr);
		return -ENOMEM;
	}
	return 0;
}
