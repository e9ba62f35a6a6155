/* pipe.c: pipes: a ring buffer (64 KiB as Linux's, F_SETPIPE_SZ resizes it) with blocking
 * reads and writes, EOF and EPIPE, and queued (cancellable, vectored) AIO reads and writes. */
#include "aio.h"
#include "errno.h"
#include "signal.h"
#include "mutex.h"
#include "pin.h"
#include "fs.h"
#include "poll.h"
#include "proc.h"
#include "uapi/signal.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "uaccess.h"
#include "uapi/ioctl.h"
#include "wait.h"

#define PIPE_DEF_SIZE	65536		/* bytes buffered, Linux's 16 pages */
#define PIPE_MAX_SIZE	1048576		/* Linux's /proc/sys/fs/pipe-max-size */
#define PIPE_BUF	4096		/* writes up to this size are atomic */

/* Locks: mutex guards the bytes and the open ends, and is held across the
 * copies to and from user space (they may fault and sleep). lock, a spinlock
 * nested inside mutex, guards the AIO queues and each queued request's
 * ki_private: serving a queue holds both, the cancel method only lock. Fields
 * under mutex are also read without it as hints by wait conditions. */
struct pipe {
	struct mutex mutex;
	spinlock_t lock;
	char *buf;			/* size bytes (mutex) */
	u32 size;			/* capacity: a power of two, PAGE_SIZE.. (mutex) */
	u32 head;			/* next byte to read (mutex) */
	u32 len;			/* bytes buffered (mutex) */
	int readers, writers;		/* open ends (mutex) */
	wait_queue_head_t rd_wait;	/* readers waiting for data or EOF */
	wait_queue_head_t wr_wait;	/* writers waiting for room */
	struct list_head aio_readers;	/* queued AIO reads, FIFO (lock) */
	struct list_head aio_writers;	/* queued AIO writes, FIFO (lock) */
};

/* An AIO read or write waiting on a pipe, with the user buffer pinned. */
struct pipe_aio {
	struct list_head list;		/* in aio_readers / aio_writers, under p->lock */
	struct kiocb *req;
	struct pinned_vec buf;		/* the user's segments */
	size_t done;			/* bytes moved so far (writes) */
	long res;			/* result once taken off the list */
};

static struct pipe *file_pipe(struct file *f)
{
	return f->f_inode->private;
}

/* Copy up to n buffered bytes to user space (mutex held, no spinlock);
 * -EFAULT consumes nothing. */
static ssize_t pipe_copy_out(struct pipe *p, char *ubuf, size_t n)
{
	size_t first, total = MIN(n, p->len);

	mutex_assert_held(&p->mutex);
	first = MIN(total, p->size - p->head);
	if (copy_to_user(ubuf, p->buf + p->head, first) ||
	    copy_to_user(ubuf + first, p->buf, total - first))
		return -EFAULT;
	p->head = (p->head + total) % p->size;
	p->len -= total;
	return total;
}

/* Copy up to n bytes from user space into the room (mutex held, no spinlock). */
static ssize_t pipe_copy_in(struct pipe *p, const char *ubuf, size_t n)
{
	u32 tail = (p->head + p->len) % p->size;
	size_t first, total = MIN(n, p->size - p->len);

	mutex_assert_held(&p->mutex);
	first = MIN(total, p->size - tail);
	if (copy_from_user(p->buf + tail, ubuf, first) ||
	    copy_from_user(p->buf, ubuf + first, total - first))
		return -EFAULT;
	p->len += total;
	return total;
}

/* --- AIO: queued requests are served by the other side's read/write/close. --- */

static struct pipe_aio *pipe_aio_alloc(struct kiocb *req, const struct iovec *iov, u32 nr,
				       bool write)
{
	struct pipe_aio *pa = kmalloc(sizeof(*pa), GFP_KERNEL);
	int err;

	if (!pa)
		return ERR_PTR(-ENOMEM);
	memset(pa, 0, sizeof(*pa));
	pa->req = req;
	err = pin_user_iov(current->mm, iov, nr, !write, &pa->buf, NULL, 0);
	if (err) {
		kfree(pa);
		return ERR_PTR(err);
	}
	return pa;
}

static void pipe_aio_finish(struct pipe_aio *pa)
{
	struct kiocb *req = pa->req;
	long res = pa->res;

	unpin_user_vec(&pa->buf);
	kfree(pa);
	aio_complete(req, res, 0);
}

/* Move buffered bytes to queued AIO readers (mutex and lock held; the pinned
 * pages are reached with kmap_atomic, nothing faults); finished ones go on done. */
static void serve_aio_readers(struct pipe *p, struct list_head *done)
{
	while (!list_empty(&p->aio_readers) && (p->len || !p->writers)) {
		struct pipe_aio *pa = list_first_entry(&p->aio_readers, struct pipe_aio, list);
		size_t n = MIN(pa->buf.len, p->len), first = MIN(n, p->size - p->head);
		pinned_vec_copy_to(&pa->buf, 0, p->buf + p->head, first, KM_USER0);
		pinned_vec_copy_to(&pa->buf, first, p->buf, n - first, KM_USER0);
		p->head = (p->head + n) % p->size;
		p->len -= n;
		pa->res = n;			/* 0 at EOF */
		kiocb_set_private(pa->req, NULL);	/* no longer cancellable */
		list_move_tail(&pa->list, done);
	}
}

/* Move queued AIO writers' bytes into free room (mutex and lock held). */
static void serve_aio_writers(struct pipe *p, struct list_head *done)
{
	while (!list_empty(&p->aio_writers) && (p->len < p->size || !p->readers)) {
		struct pipe_aio *pa = list_first_entry(&p->aio_writers, struct pipe_aio, list);
		u32 tail = (p->head + p->len) % p->size;
		size_t n = MIN(pa->buf.len - pa->done, p->size - p->len);
		size_t first = MIN(n, p->size - tail);
		if (!p->readers) {
			pa->res = pa->done ? (long)pa->done : -EPIPE;
			kiocb_set_private(pa->req, NULL);
			list_move_tail(&pa->list, done);
			continue;
		}
		pinned_vec_copy_from(&pa->buf, pa->done, p->buf + tail, first, KM_USER0);
		pinned_vec_copy_from(&pa->buf, pa->done + first, p->buf, n - first, KM_USER0);
		p->len += n;
		pa->done += n;
		if (pa->done < pa->buf.len)
			break;
		pa->res = pa->done;
		kiocb_set_private(pa->req, NULL);
		list_move_tail(&pa->list, done);
	}
}

/* Serve both queues until nothing moves (mutex and lock held). */
static void pipe_serve_aio(struct pipe *p, struct list_head *done)
{
	u32 before;

	mutex_assert_held(&p->mutex);
	assert_spin_locked(&p->lock);
	do {
		before = p->len;
		serve_aio_readers(p, done);
		serve_aio_writers(p, done);
	} while (p->len != before && !list_empty(&p->aio_readers));
}

/* Complete what was served, after dropping the lock; wake blocking peers. */
static void pipe_finish_served(struct pipe *p, struct list_head *done)
{
	struct pipe_aio *pa, *n;

	list_for_each_entry_safe(pa, n, done, list) {
		list_del(&pa->list);
		pipe_aio_finish(pa);
	}
	wake_up(&p->rd_wait);
	wake_up(&p->wr_wait);
}

/* Is no AIO request queued on q? (Under lock: a cancel unqueues holding only it.) */
static bool pipe_queue_empty(struct pipe *p, struct list_head *q)
{
	bool empty;

	spin_lock(&p->lock);
	empty = list_empty(q);
	spin_unlock(&p->lock);
	return empty;
}

/* Any AIO request queued, on either side? */
static bool pipe_aio_queued(struct pipe *p)
{
	bool queued;

	spin_lock(&p->lock);
	queued = !list_empty(&p->aio_readers) || !list_empty(&p->aio_writers);
	spin_unlock(&p->lock);
	return queued;
}

/* After bytes moved or an end closed (mutex not held): serve the AIO queues,
 * wake blocked peers. Empty queues need no serving: a request queued later is
 * served by pipe_aio_queue, which sees what moved before it took the mutex. */
static void pipe_kick(struct pipe *p)
{
	LIST_HEAD(done);

	if (pipe_aio_queued(p)) {
		mutex_lock(&p->mutex);
		spin_lock(&p->lock);
		pipe_serve_aio(p, &done);
		spin_unlock(&p->lock);
		mutex_unlock(&p->mutex);
	}
	pipe_finish_served(p, &done);
}

/* Cancel: withdraw the request if it is still queued and has moved nothing;
 * never complete it (the AIO core does, with -ECANCELED). At teardown (the
 * context dying) a write that moved some bytes is withdrawn too, and their
 * count returned for its event: only a reader could finish it, and that
 * reader may be the process tearing the context down (issue 14 finding 3). The kiocb's private data is the queue entry while queued;
 * serving clears it (both under p->lock), so a cancel never touches an entry
 * being completed. */
static int pipe_aio_cancel(struct kiocb *req)
{
	struct pipe *p = req->ki_filp->f_inode->private;
	struct pipe_aio *pa;
	int err = -EAGAIN;

	spin_lock(&p->lock);
	pa = kiocb_private(req);
	if (pa && (!pa->done || aio_ctx_dying(req))) {
		list_del(&pa->list);
		kiocb_set_private(req, NULL);
		err = (int)pa->done;
	}
	spin_unlock(&p->lock);
	if (err >= 0) {
		unpin_user_vec(&pa->buf);
		kfree(pa);
	}
	return err;
}

/* Pin the user buffers of an AIO read or write that must wait, and queue it
 * (lock not held; it may be served at once). -EIOCBQUEUED, -EAGAIN for one
 * that must not wait (RWF_NOWAIT), or pipe_aio_alloc's error. */
static long pipe_aio_queue(struct pipe *p, struct kiocb *req, const struct iovec *iov, u32 nr,
			   bool write)
{
	struct pipe_aio *pa;
	LIST_HEAD(done);

	if (kiocb_nowait(req))
		return -EAGAIN;
	pa = pipe_aio_alloc(req, iov, nr, write);
	if (IS_ERR(pa))
		return PTR_ERR(pa);
	kiocb_set_cancel_fn(req, pipe_aio_cancel);	/* finds nothing until queued */
	mutex_lock(&p->mutex);
	spin_lock(&p->lock);
	kiocb_set_private(req, pa);
	list_add_tail(&pa->list, write ? &p->aio_writers : &p->aio_readers);
	pipe_serve_aio(p, &done);
	spin_unlock(&p->lock);
	mutex_unlock(&p->mutex);
	pipe_finish_served(p, &done);
	return -EIOCBQUEUED;		/* may already be completed: hands off */
}

/* Copy buffered bytes into the segments in turn (mutex held): bytes, or
 * -EFAULT when the first copy failed. */
static ssize_t pipe_copy_out_vec(struct pipe *p, const struct iovec *iov, u32 nr)
{
	ssize_t done = 0, r;

	for (u32 i = 0; i < nr && p->len; i++) {
		if ((r = pipe_copy_out(p, iov[i].iov_base, iov[i].iov_len)) < 0)
			return done ? done : r;
		done += r;
	}
	return done;
}

static ssize_t pipe_copy_in_vec(struct pipe *p, const struct iovec *iov, u32 nr)
{
	ssize_t done = 0, r;

	for (u32 i = 0; i < nr; i++) {
		if ((r = pipe_copy_in(p, iov[i].iov_base, iov[i].iov_len)) < 0)
			return done ? done : r;
		done += r;
	}
	return done;
}

/* A read of 0 bytes completes at once with 0, whatever the pipe holds or has
 * queued (as read does): it neither waits nor takes a place in the queue. */
static ssize_t pipe_aio_readv(struct kiocb *req, const struct iovec *iov, u32 nr, loff_t pos)
{
	struct pipe *p = req->ki_filp->f_inode->private;
	ssize_t ret;

	if (!iov_total(iov, nr))
		return 0;
	mutex_lock(&p->mutex);
	if (pipe_queue_empty(p, &p->aio_readers) && (p->len || !p->writers)) {
		ret = pipe_copy_out_vec(p, iov, nr);
		mutex_unlock(&p->mutex);
		pipe_kick(p);			/* room for queued writers */
		return ret;
	}
	mutex_unlock(&p->mutex);
	return pipe_aio_queue(p, req, iov, nr, false);
}

/* A write of 0 bytes completes at once with 0 (as write does, reader or not). */
static ssize_t pipe_aio_writev(struct kiocb *req, const struct iovec *iov, u32 nr, loff_t pos)
{
	struct pipe *p = req->ki_filp->f_inode->private;
	ssize_t ret;

	if (!iov_total(iov, nr))
		return 0;
	mutex_lock(&p->mutex);
	if (!p->readers) {
		mutex_unlock(&p->mutex);
		return -EPIPE;
	}
	if (pipe_queue_empty(p, &p->aio_writers) && p->size - p->len >= iov_total(iov, nr)) {
		ret = pipe_copy_in_vec(p, iov, nr);
		mutex_unlock(&p->mutex);
		pipe_kick(p);			/* data for queued readers */
		return ret;
	}
	mutex_unlock(&p->mutex);
	return pipe_aio_queue(p, req, iov, nr, true);
}

static ssize_t pipe_aio_read(struct kiocb *req, char *ubuf, size_t n, loff_t pos)
{
	struct iovec one = { ubuf, n };

	return pipe_aio_readv(req, &one, 1, pos);
}

static ssize_t pipe_aio_write(struct kiocb *req, const char *ubuf, size_t n, loff_t pos)
{
	struct iovec one = { (void *)ubuf, n };

	return pipe_aio_writev(req, &one, 1, pos);
}

static ssize_t pipe_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	struct pipe *p = file_pipe(f);
	ssize_t ret;

	if (!n)
		return 0;
	if (mutex_lock_killable(&p->mutex))	/* the holder may be another process */
		return -EINTR;
	while (!p->len && p->writers) {
		mutex_unlock(&p->mutex);
		if (f->f_flags & O_NONBLOCK)	/* checked here, under the mutex: another */
			return -EAGAIN;		/* reader may have emptied it since poll */
		if (wait_event_interruptible(p->rd_wait, p->len || !p->writers))
			return -ERESTARTSYS;	/* restarted under SA_RESTART */
		if (mutex_lock_killable(&p->mutex))
			return -EINTR;
	}
	ret = p->len ? pipe_copy_out(p, ubuf, n) : 0;	/* 0: EOF */
	mutex_unlock(&p->mutex);
	if (ret > 0)
		pipe_kick(p);		/* room: queued AIO writers, blocked writers */
	return ret;
}

/* Room to write `want` more bytes now? Small writes wait for room for all. */
static bool pipe_writable(struct pipe *p, size_t want)
{
	size_t room = p->size - p->len;

	return !p->readers || (want <= PIPE_BUF ? room >= want : room > 0);
}

static ssize_t pipe_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	struct pipe *p = file_pipe(f);
	size_t done = 0;
	ssize_t ret = 0;

	while (done < n) {
		if (!(f->f_flags & O_NONBLOCK) &&
		    wait_event_interruptible(p->wr_wait, pipe_writable(p, n - done))) {
			ret = -ERESTARTSYS;	/* restarted under SA_RESTART */
			break;
		}
		if (mutex_lock_killable(&p->mutex)) {
			ret = -EINTR;
			break;
		}
		if (!p->readers) {
			mutex_unlock(&p->mutex);
			signal_send(current, SIGPIPE);
			ret = -EPIPE;
			break;
		}
		if (!pipe_writable(p, n - done) && (f->f_flags & O_NONBLOCK)) {
			mutex_unlock(&p->mutex);	/* full, under the mutex: never wait */
			ret = -EAGAIN;
			break;
		}
		ret = pipe_writable(p, n - done) ? pipe_copy_in(p, ubuf + done, n - done) : 0;
		mutex_unlock(&p->mutex);
		if (ret < 0)
			break;
		done += ret;
		pipe_kick(p);		/* data: queued AIO readers, blocked readers */
	}
	return done ? (ssize_t)done : ret;
}

static void pipe_release(struct inode *inode, struct file *f)
{
	struct pipe *p = file_pipe(f);

	mutex_lock(&p->mutex);
	if (f->f_mode & FMODE_READ)
		p->readers--;
	if (f->f_mode & FMODE_WRITE)
		p->writers--;
	mutex_unlock(&p->mutex);
	pipe_kick(p);			/* EOF or EPIPE for whoever is queued */
}

/* Free a pipe and its buffer: pipe_create's failure path and pipe_destroy. */
static void pipe_free(struct pipe *p)
{
	kfree(p->buf);
	kfree(p);
}

/* inode->destroy: the last file on the pipe is gone. */
static void pipe_destroy(struct inode *inode)
{
	pipe_free(inode->private);
}

/* Read end: data or no writer left (POLLHUP). Write end: room for PIPE_BUF
 * bytes, or no reader left (POLLERR). pipe_kick wakes both queues. Process
 * context (takes the mutex). */
static unsigned pipe_poll(struct file *f, struct poll_table *pt)
{
	struct pipe *p = file_pipe(f);
	unsigned mask = 0;

	poll_wait(f, f->f_mode & FMODE_READ ? &p->rd_wait : &p->wr_wait, pt);
	mutex_lock(&p->mutex);
	if ((f->f_mode & FMODE_READ) && p->len)
		mask |= POLLIN | POLLRDNORM;
	if ((f->f_mode & FMODE_READ) && !p->writers)
		mask |= POLLHUP;
	if ((f->f_mode & FMODE_WRITE) && p->size - p->len >= PIPE_BUF)
		mask |= POLLOUT | POLLWRNORM;
	if ((f->f_mode & FMODE_WRITE) && !p->readers)
		mask |= POLLERR;
	mutex_unlock(&p->mutex);
	return mask;
}

/* FIONREAD: the bytes buffered (read without the mutex: a snapshot). */
static long pipe_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	if (cmd != FIONREAD)
		return -ENOIOCTLCMD;
	return put_user((u32)READ_ONCE(file_pipe(f)->len), (u32 *)arg);
}

static const struct file_operations pipe_ops = {
	.read = pipe_read,
	.write = pipe_write,
	.aio_read = pipe_aio_read,
	.aio_write = pipe_aio_write,
	.aio_readv = pipe_aio_readv,
	.aio_writev = pipe_aio_writev,
	.release = pipe_release,
	.poll = pipe_poll,
	.ioctl = pipe_ioctl,
};

/* F_SETPIPE_SZ's size: arg rounded up to a power of two of at least a page,
 * as Linux rounds it; 0 for one past 2^31 (-EINVAL there). */
static u32 pipe_round_size(unsigned long arg)
{
	u32 size = PAGE_SIZE;

	if (arg > (1ul << 31))
		return 0;
	while (size < arg)
		size <<= 1;
	return size;
}

/* Move the buffered bytes into a new buffer of size bytes, from its start
 * (mutex held). -EBUSY when more than that is buffered, -ENOMEM. */
static long pipe_resize(struct pipe *p, u32 size)
{
	char *buf;
	size_t first;

	mutex_assert_held(&p->mutex);
	if (p->len > size)
		return -EBUSY;
	if (size == p->size)
		return size;
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	first = MIN(p->len, p->size - p->head);
	memcpy(buf, p->buf + p->head, first);
	memcpy(buf + first, p->buf, p->len - first);
	kfree(p->buf);
	p->buf = buf;
	p->head = 0;
	p->size = size;
	return size;
}

/* F_SETPIPE_SZ: the capacity now (arg rounded up), or -EINVAL, -EPERM above
 * PIPE_MAX_SIZE (every process is root here, but the buffer is one contiguous
 * allocation: the limit Linux puts on unprivileged processes holds for all),
 * -EBUSY, -ENOMEM. F_GETPIPE_SZ: the capacity. -EBADF on a file that is no
 * pipe, as Linux's. Process context (takes the mutex). */
long pipe_fcntl(struct file *f, int cmd, unsigned long arg)
{
	struct pipe *p;
	u32 size;
	long ret;

	if (f->f_op != &pipe_ops)
		return -EBADF;
	p = file_pipe(f);
	if (cmd == F_GETPIPE_SZ)
		return READ_ONCE(p->size);
	size = pipe_round_size(arg);
	if (!size)
		return -EINVAL;
	if (size > PIPE_MAX_SIZE)
		return -EPERM;
	if (mutex_lock_killable(&p->mutex))
		return -EINTR;
	ret = pipe_resize(p, size);
	mutex_unlock(&p->mutex);
	pipe_kick(p);			/* more room: queued and blocked writers */
	return ret;
}

static struct pipe *pipe_alloc(void)
{
	struct pipe *p = kmalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	/* 64 KiB as Linux, one contiguous block; when memory is too fragmented
	 * for that, a smaller buffer (Linux too gives a pipe one page past its
	 * user's soft limit) rather than ENOMEM: F_GETPIPE_SZ tells */
	for (p->size = PIPE_DEF_SIZE; p->size >= PIPE_BUF; p->size /= 4) {
		p->buf = kmalloc(p->size, GFP_KERNEL);
		if (p->buf)
			break;
	}
	if (!p->buf) {
		kfree(p);
		return NULL;
	}
	mutex_init(&p->mutex);
	spin_lock_init(&p->lock, "pipe");
	init_waitqueue_head(&p->rd_wait);
	init_waitqueue_head(&p->wr_wait);
	INIT_LIST_HEAD(&p->aio_readers);
	INIT_LIST_HEAD(&p->aio_writers);
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
			pipe_free(p);
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
