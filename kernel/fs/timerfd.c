/* timerfd.c: timer files: timerfd_create (322), timerfd_settime (325) and
 * timerfd_gettime (326) on CLOCK_REALTIME or CLOCK_MONOTONIC; read gives the
 * expirations since the last read as 8 bytes; the file polls.
 *
 * A timer file runs one kernel timer (kernel/timer.c: a tick's resolution,
 * never early). Its callback (softirq, any CPU) counts the expirations that
 * passed, arms the next one of a periodic timer, and wakes readers and
 * pollers. ctx->lock (irq-safe) guards expires, interval and ticks; the
 * timer's own lock nests inside it (mod_timer). An absolute CLOCK_REALTIME
 * time is turned into CLOCK_MONOTONIC when it is set (a later change of the
 * real-time clock does not move it; TFD_TIMER_CANCEL_ON_SET is accepted and
 * has no effect).
 */
#include "clock.h"
#include "errno.h"
#include "fs.h"
#include "poll.h"
#include "sched.h"
#include "signal.h"
#include "slab.h"
#include "string.h"
#include "syscall_table.h"
#include "timer.h"
#include "uaccess.h"
#include "uapi/timerfd.h"
#include "wait.h"

#define CLOCK_BOOTTIME_ID	7	/* Linux's CLOCK_BOOTTIME: no suspend here, so monotonic */

struct timerfd_ctx {
	spinlock_t lock;
	struct timer_list timer;
	int clockid;			/* CLOCK_REALTIME or CLOCK_MONOTONIC */
	u64 expires;			/* the next expiry, CLOCK_MONOTONIC ns; 0: disarmed (lock) */
	u64 interval;			/* ns between expiries; 0: one shot (lock) */
	u64 ticks;			/* expiries not read yet (lock) */
	wait_queue_head_t wait;		/* readers and pollers */
};

static const struct file_operations timerfd_ops;

static struct timerfd_ctx *file_ctx(struct file *f)
{
	return f->private_data;
}

/* Arm the kernel timer for ctx->expires (lock held): at the first tick at or
 * after it (the callback checks, and arms again when a tick came early). */
static void timerfd_arm(struct timerfd_ctx *ctx, u64 now)
{
	unsigned long delta = ctx->expires > now ? nsecs_to_jiffies(ctx->expires - now) : 0;

	mod_timer(&ctx->timer, jiffies + MAX(1ul, delta));
}

/* The expiries up to now (lock held): counted into ticks; the next one armed
 * for a periodic timer, the timer disarmed otherwise. True if any passed. */
static bool timerfd_advance(struct timerfd_ctx *ctx, u64 now)
{
	u64 n;

	if (!ctx->expires || now < ctx->expires)
		return false;
	n = 1;
	if (ctx->interval) {
		n += (now - ctx->expires) / ctx->interval;
		ctx->expires += n * ctx->interval;
	} else {
		ctx->expires = 0;
	}
	ctx->ticks += n;
	return true;
}

/* The timer's callback (softirq, the CPU that armed it). */
static void timerfd_fire(unsigned long data)
{
	struct timerfd_ctx *ctx = (struct timerfd_ctx *)data;
	u64 now = ktime_get_ns();
	bool fired;
	u32 flags;

	spin_lock_irqsave(&ctx->lock, flags);
	fired = timerfd_advance(ctx, now);
	if (ctx->expires)
		timerfd_arm(ctx, now);	/* the next period, or a tick that came early */
	spin_unlock_irqrestore(&ctx->lock, flags);
	if (fired)
		wake_up_poll(&ctx->wait, POLLIN | POLLRDNORM);
}

/* Take the expiry count (lock taken here); 0 when none passed. */
static u64 timerfd_take(struct timerfd_ctx *ctx)
{
	u32 flags;
	u64 t;

	spin_lock_irqsave(&ctx->lock, flags);
	t = ctx->ticks;
	ctx->ticks = 0;
	spin_unlock_irqrestore(&ctx->lock, flags);
	return t;
}

static bool timerfd_has_ticks(struct timerfd_ctx *ctx)
{
	u32 flags;
	bool any;

	spin_lock_irqsave(&ctx->lock, flags);
	any = ctx->ticks != 0;
	spin_unlock_irqrestore(&ctx->lock, flags);
	return any;
}

/* Read: the expiries since the last read (8 bytes), waiting for one unless
 * O_NONBLOCK (-EAGAIN). Fewer than 8 bytes: -EINVAL. A signal: -ERESTARTSYS. */
static ssize_t timerfd_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	struct timerfd_ctx *ctx = file_ctx(f);
	u64 t;
	u32 flags;

	(void)pos;
	if (n < sizeof(t))
		return -EINVAL;
	while (!(t = timerfd_take(ctx))) {
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(ctx->wait, timerfd_has_ticks(ctx)))
			return -ERESTARTSYS;
	}
	if (copy_to_user(ubuf, &t, sizeof(t))) {
		spin_lock_irqsave(&ctx->lock, flags);
		ctx->ticks += t;		/* nothing was read: give them back */
		spin_unlock_irqrestore(&ctx->lock, flags);
		return -EFAULT;
	}
	return sizeof(t);
}

static unsigned timerfd_poll(struct file *f, struct poll_table *pt)
{
	struct timerfd_ctx *ctx = file_ctx(f);

	poll_wait(f, &ctx->wait, pt);
	return timerfd_has_ticks(ctx) ? POLLIN | POLLRDNORM : 0;
}

static void timerfd_release(struct inode *inode, struct file *f)
{
	struct timerfd_ctx *ctx = file_ctx(f);
	u32 flags;

	(void)inode;
	spin_lock_irqsave(&ctx->lock, flags);
	ctx->expires = 0;		/* a running callback arms nothing more */
	spin_unlock_irqrestore(&ctx->lock, flags);
	del_timer_sync(&ctx->timer);
	kfree(ctx);
}

static const struct file_operations timerfd_ops = {
	.read = timerfd_read,
	.poll = timerfd_poll,
	.release = timerfd_release,
};

long sys_timerfd_create(int clockid, int flags)
{
	struct timerfd_ctx *ctx;
	struct file *f;
	int fd;

	if (clockid == CLOCK_BOOTTIME_ID)
		clockid = CLOCK_MONOTONIC;
	if ((clockid != CLOCK_REALTIME && clockid != CLOCK_MONOTONIC) ||
	    (flags & ~(TFD_CLOEXEC | TFD_NONBLOCK)))
		return -EINVAL;
	if (!(ctx = kmalloc(sizeof(*ctx), GFP_KERNEL)))
		return -ENOMEM;
	memset(ctx, 0, sizeof(*ctx));
	spin_lock_init(&ctx->lock, "timerfd");
	setup_timer(&ctx->timer, timerfd_fire, (unsigned long)ctx);
	init_waitqueue_head(&ctx->wait);
	ctx->clockid = clockid;
	f = anon_file_alloc(&timerfd_ops, ctx, FMODE_READ, O_RDONLY | (flags & O_NONBLOCK));
	if (!f) {
		kfree(ctx);
		return -ENOMEM;
	}
	fd = fd_install_from(current->files, f, 0, flags & TFD_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}

/* The timer file behind fd, with a reference: -EBADF, or -EINVAL for another file. */
static struct file *timerfd_fget(int fd)
{
	struct file *f = fget(fd);

	if (!f)
		return ERR_PTR(-EBADF);
	if (f->f_op != &timerfd_ops) {
		fput(f);
		return ERR_PTR(-EINVAL);
	}
	return f;
}

/* The setting as timerfd_gettime reports it (lock held): the time to the
 * next expiry (0: disarmed) and the interval. */
static void timerfd_current(struct timerfd_ctx *ctx, u64 now, struct kernel_itimerspec *its)
{
	u64 left = ctx->expires ? (ctx->expires > now ? ctx->expires - now : 1) : 0;

	ns_to_timespec(left, &its->it_value);
	ns_to_timespec(ctx->interval, &its->it_interval);
}

static bool timespec_valid(const struct kernel_timespec *ts)
{
	return ts->tv_sec >= 0 && ts->tv_nsec >= 0 && ts->tv_nsec < (long)NSEC_PER_SEC;
}

/* The new expiry (CLOCK_MONOTONIC ns) of a setting; 0 disarms. */
static u64 timerfd_expiry(struct timerfd_ctx *ctx, int flags, const struct kernel_itimerspec *its,
			  u64 now)
{
	u64 value = timespec_to_ns(&its->it_value), real;

	if (!value)
		return 0;
	if (!(flags & TFD_TIMER_ABSTIME))
		return now + value;
	if (ctx->clockid == CLOCK_MONOTONIC)
		return MAX(value, 1ull);
	real = ktime_get_real_ns();		/* CLOCK_REALTIME: its offset from now */
	return value > real ? now + (value - real) : MAX(now, 1ull);
}

/* Stop ctx's timer for a new setting: no callback runs or is pending after. */
static void timerfd_stop(struct timerfd_ctx *ctx, struct kernel_itimerspec *old)
{
	u32 flags;

	spin_lock_irqsave(&ctx->lock, flags);
	timerfd_current(ctx, ktime_get_ns(), old);
	ctx->expires = 0;
	spin_unlock_irqrestore(&ctx->lock, flags);
	del_timer_sync(&ctx->timer);
}

static void timerfd_set(struct timerfd_ctx *ctx, int flags, const struct kernel_itimerspec *its)
{
	u64 now = ktime_get_ns();
	u32 lflags;

	spin_lock_irqsave(&ctx->lock, lflags);
	ctx->ticks = 0;
	ctx->interval = timespec_to_ns(&its->it_interval);
	ctx->expires = timerfd_expiry(ctx, flags, its, now);
	if (ctx->expires && timerfd_advance(ctx, now))	/* an absolute time already past */
		wake_up_poll(&ctx->wait, POLLIN | POLLRDNORM);
	if (ctx->expires)
		timerfd_arm(ctx, now);
	spin_unlock_irqrestore(&ctx->lock, lflags);
}

long sys_timerfd_settime(int fd, int flags, const struct kernel_itimerspec *unew,
			 struct kernel_itimerspec *uold)
{
	struct kernel_itimerspec its, old;
	struct file *f;

	if (flags & ~(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET))
		return -EINVAL;
	if (copy_from_user(&its, unew, sizeof(its)))
		return -EFAULT;
	if (!timespec_valid(&its.it_value) || !timespec_valid(&its.it_interval))
		return -EINVAL;
	f = timerfd_fget(fd);
	if (IS_ERR(f))
		return PTR_ERR(f);
	timerfd_stop(file_ctx(f), &old);
	timerfd_set(file_ctx(f), flags, &its);
	fput(f);
	if (uold && copy_to_user(uold, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_timerfd_gettime(int fd, struct kernel_itimerspec *ucur)
{
	struct kernel_itimerspec cur;
	struct file *f = timerfd_fget(fd);
	u32 flags;

	if (IS_ERR(f))
		return PTR_ERR(f);
	spin_lock_irqsave(&file_ctx(f)->lock, flags);
	timerfd_current(file_ctx(f), ktime_get_ns(), &cur);
	spin_unlock_irqrestore(&file_ctx(f)->lock, flags);
	fput(f);
	return copy_to_user(ucur, &cur, sizeof(cur)) ? -EFAULT : 0;
}
