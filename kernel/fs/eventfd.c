/* eventfd.c: eventfd(2) files: eventfd (323) and eventfd2 (328), read, write
 * and poll of the 8-byte counter, and eventfd_signal for AIO completions.
 *
 * Locks: ctx->lock (irq-safe: eventfd_signal runs in interrupt handlers)
 * guards count; nothing nests inside it. Waiters sleep on ctx->wait, which
 * every change of count wakes (readers, writers and pollers share it). */
#include "errno.h"
#include "eventfd.h"
#include "fs.h"
#include "poll.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "wait.h"

#define EVENTFD_MAX	(~0ull - 1)	/* the largest count a write may leave */

struct eventfd_ctx {
	spinlock_t lock;
	u64 count;			/* under lock */
	bool semaphore;			/* EFD_SEMAPHORE */
	wait_queue_head_t wait;
};

static const struct file_operations eventfd_ops;

static struct eventfd_ctx *file_ctx(struct file *f)
{
	return f->f_inode->private;
}

static u64 eventfd_count(struct eventfd_ctx *ctx)
{
	u32 flags;
	u64 c;

	spin_lock_irqsave(&ctx->lock, flags);
	c = ctx->count;
	spin_unlock_irqrestore(&ctx->lock, flags);
	return c;
}

void eventfd_signal(struct file *f, u64 n)
{
	struct eventfd_ctx *ctx = file_ctx(f);
	u32 flags;

	spin_lock_irqsave(&ctx->lock, flags);
	ctx->count = ~0ull - ctx->count < n ? ~0ull : ctx->count + n;
	spin_unlock_irqrestore(&ctx->lock, flags);
	wake_up_poll(&ctx->wait, POLLIN | POLLRDNORM);
}

/* Take what a read takes (lock held): 0 when the count is 0. */
static u64 eventfd_take(struct eventfd_ctx *ctx)
{
	u64 v = ctx->semaphore && ctx->count ? 1 : ctx->count;

	ctx->count -= v;
	return v;
}

/* Read: the count (or 1 with EFD_SEMAPHORE), waiting for a non-zero one
 * unless O_NONBLOCK (-EAGAIN). Fewer than 8 bytes: -EINVAL. */
static ssize_t eventfd_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	struct eventfd_ctx *ctx = file_ctx(f);
	u32 flags;
	u64 v;

	if (n < sizeof(v))
		return -EINVAL;
	if (!access_ok(ubuf, sizeof(v)))
		return -EFAULT;
	for (;;) {
		spin_lock_irqsave(&ctx->lock, flags);
		v = eventfd_take(ctx);
		spin_unlock_irqrestore(&ctx->lock, flags);
		if (v)
			break;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(ctx->wait, eventfd_count(ctx)))
			return -EINTR;
	}
	wake_up_poll(&ctx->wait, POLLOUT | POLLWRNORM);	/* room for writers */
	if (copy_to_user(ubuf, &v, sizeof(v))) {
		eventfd_signal(f, v);		/* give it back: nothing was read */
		return -EFAULT;
	}
	return sizeof(v);
}

/* Add v if the count stays below 2^64 - 1 (lock taken here): true if done. */
static bool eventfd_add(struct eventfd_ctx *ctx, u64 v)
{
	bool ok;
	u32 flags;

	spin_lock_irqsave(&ctx->lock, flags);
	ok = EVENTFD_MAX - ctx->count >= v;
	if (ok)
		ctx->count += v;
	spin_unlock_irqrestore(&ctx->lock, flags);
	return ok;
}

/* Write: add an 8-byte value (2^64 - 1 is -EINVAL), waiting for room unless
 * O_NONBLOCK (-EAGAIN). */
static ssize_t eventfd_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	struct eventfd_ctx *ctx = file_ctx(f);
	u64 v;

	if (n < sizeof(v))
		return -EINVAL;
	if (copy_from_user(&v, ubuf, sizeof(v)))
		return -EFAULT;
	if (v == ~0ull)
		return -EINVAL;
	while (!eventfd_add(ctx, v)) {
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(ctx->wait, EVENTFD_MAX - eventfd_count(ctx) >= v))
			return -EINTR;
	}
	wake_up_poll(&ctx->wait, POLLIN | POLLRDNORM);
	return sizeof(v);
}

/* POLLIN with a non-zero count, POLLOUT while 1 more fits, POLLERR at 2^64 - 1
 * (an overflow from eventfd_signal). Never sleeps. */
static unsigned eventfd_poll(struct file *f, struct poll_table *pt)
{
	struct eventfd_ctx *ctx = file_ctx(f);
	u64 c;
	unsigned mask = 0;

	poll_wait(f, &ctx->wait, pt);
	c = eventfd_count(ctx);
	if (c)
		mask |= POLLIN | POLLRDNORM;
	if (c < EVENTFD_MAX)
		mask |= POLLOUT | POLLWRNORM;
	if (c == ~0ull)
		mask |= POLLERR;
	return mask;
}

static void eventfd_destroy(struct inode *inode)
{
	kfree(inode->private);
}

static const struct file_operations eventfd_ops = {
	.read = eventfd_read,
	.write = eventfd_write,
	.poll = eventfd_poll,
};

struct file *eventfd_fget(int fd)
{
	struct file *f = fget(fd);

	if (!f)
		return ERR_PTR(-EBADF);
	if (f->f_op != &eventfd_ops) {
		fput(f);
		return ERR_PTR(-EINVAL);
	}
	return f;
}

/* A new eventfd file with count initval. */
static struct file *eventfd_file(unsigned initval, int flags)
{
	struct eventfd_ctx *ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);
	struct inode *inode = ctx ? inode_alloc(0600, &eventfd_ops) : NULL;
	struct file *f;

	if (!inode) {
		kfree(ctx);
		return NULL;
	}
	memset(ctx, 0, sizeof(*ctx));
	spin_lock_init(&ctx->lock, "eventfd");
	init_waitqueue_head(&ctx->wait);
	ctx->count = initval;
	ctx->semaphore = flags & EFD_SEMAPHORE;
	inode->private = ctx;
	inode->destroy = eventfd_destroy;
	f = file_alloc(inode, FMODE_READ | FMODE_WRITE, O_RDWR | (flags & O_NONBLOCK));
	iput(inode);			/* the file holds it now (or it goes) */
	return f;
}

long sys_eventfd2(unsigned initval, int flags)
{
	struct file *f;
	int fd;

	if (flags & ~(EFD_SEMAPHORE | EFD_CLOEXEC | EFD_NONBLOCK))
		return -EINVAL;
	f = eventfd_file(initval, flags);
	if (!f)
		return -ENOMEM;
	fd = fd_install_from(current->files, f, 0, flags & EFD_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}

long sys_eventfd(unsigned initval)
{
	return sys_eventfd2(initval, 0);
}
