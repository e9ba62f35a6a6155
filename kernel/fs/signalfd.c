/* signalfd.c: signal files: signalfd (321) and signalfd4 (327); read takes
 * the reader's pending signals of the file's mask as struct signalfd_siginfo
 * (128 bytes each); the file polls.
 *
 * What a read or a poll sees is the calling thread's: its own pending
 * signals and its process's, as rt_sigtimedwait's (a signal the program did
 * not block may be delivered to a handler before a read finds it, as the man
 * page warns). Every signal made pending wakes signalfd_wait (send_signal
 * calls signalfd_notify under sighand->lock; readers and pollers look again
 * at their own). ctx->lock guards the mask; nothing nests inside it.
 */
#include "errno.h"
#include "fs.h"
#include "poll.h"
#include "sched.h"
#include "signal.h"
#include "signalfd.h"
#include "../signal_internal.h"	/* dequeue_signal, as rt_sigtimedwait */
#include "slab.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/signalfd.h"
#include "wait.h"

struct signalfd_ctx {
	spinlock_t lock;
	u64 mask;			/* the signals it reads (lock) */
};

static DECLARE_WAIT_QUEUE_HEAD(signalfd_wait);
static const struct file_operations signalfd_ops;

void signalfd_notify(void)
{
	if (waitqueue_active(&signalfd_wait))
		wake_up_poll(&signalfd_wait, POLLIN | POLLRDNORM);
}

static u64 signalfd_mask(struct file *f)
{
	struct signalfd_ctx *ctx = f->private_data;
	u32 flags;
	u64 m;

	spin_lock_irqsave(&ctx->lock, flags);
	m = ctx->mask;
	spin_unlock_irqrestore(&ctx->lock, flags);
	return m;
}

/* Signals of mask pending for the current thread (sighand->lock taken here). */
static u64 signalfd_pending(u64 mask)
{
	struct task *t = current;
	u32 flags;
	u64 p;

	spin_lock_irqsave(&t->sighand->lock, flags);
	p = (t->pending | t->signal->shared_pending) & mask;
	spin_unlock_irqrestore(&t->sighand->lock, flags);
	return p;
}

/* Take one pending signal of mask into *info: its number, or 0. */
static int signalfd_dequeue(u64 mask, struct kernel_siginfo *info)
{
	struct task *t = current;
	u32 flags;
	int sig;

	spin_lock_irqsave(&t->sighand->lock, flags);
	sig = dequeue_signal(t, ~mask, info);
	if (sig)
		recalc_sigpending_tsk(t);
	spin_unlock_irqrestore(&t->sighand->lock, flags);
	return sig;
}

/* The record of one signal, from what its sender said. */
static void signalfd_fill(struct signalfd_siginfo *s, const struct kernel_siginfo *info)
{
	int sig = info->si_signo;

	memset(s, 0, sizeof(*s));
	s->ssi_signo = sig;
	s->ssi_errno = info->si_errno;
	s->ssi_code = info->si_code;
	if (sig == SIGCHLD) {
		s->ssi_pid = info->f.chld.pid;
		s->ssi_uid = info->f.chld.uid;
		s->ssi_status = info->f.chld.status;
		s->ssi_utime = info->f.chld.utime;
		s->ssi_stime = info->f.chld.stime;
	} else if (info->si_code > 0 && info->si_code != SI_KERNEL) {	/* a fault */
		s->ssi_addr = (u32)info->f.fault.addr;
	} else {			/* kill, tgkill, sigqueue, a timer */
		s->ssi_pid = info->f.kill.pid;
		s->ssi_uid = info->f.kill.uid;
		s->ssi_int = info->f.kill.value.sival_int;
		s->ssi_ptr = (u32)info->f.kill.value.sival_ptr;
	}
}

/* Wait until a signal of mask is pending: 0, or -ERESTARTSYS for another. */
static int signalfd_wait_for(u64 mask)
{
	return wait_event_interruptible(signalfd_wait, signalfd_pending(mask)) ? -ERESTARTSYS : 0;
}

/* Read: as many whole records as fit (at least one, waiting for it unless
 * O_NONBLOCK: -EAGAIN); fewer than 128 bytes: -EINVAL. */
static ssize_t signalfd_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	struct signalfd_siginfo s;
	struct kernel_siginfo info;
	size_t done = 0;
	int err;

	(void)pos;
	if (n < sizeof(s))
		return -EINVAL;
	if (!access_ok(ubuf, n - n % sizeof(s)))
		return -EFAULT;
	while (done + sizeof(s) <= n) {
		if (!signalfd_dequeue(signalfd_mask(f), &info)) {
			if (done)
				break;
			if (f->f_flags & O_NONBLOCK)
				return -EAGAIN;
			if ((err = signalfd_wait_for(signalfd_mask(f))))
				return err;
			continue;
		}
		signalfd_fill(&s, &info);
		if (copy_to_user(ubuf + done, &s, sizeof(s)))
			return done ? (ssize_t)done : -EFAULT;
		done += sizeof(s);
	}
	return done;
}

static unsigned signalfd_poll(struct file *f, struct poll_table *pt)
{
	poll_wait(f, &signalfd_wait, pt);
	return signalfd_pending(signalfd_mask(f)) ? POLLIN | POLLRDNORM : 0;
}

static void signalfd_release(struct inode *inode, struct file *f)
{
	(void)inode;
	kfree(f->private_data);
}

static const struct file_operations signalfd_ops = {
	.read = signalfd_read,
	.poll = signalfd_poll,
	.release = signalfd_release,
};

/* A new signal file reading mask: its descriptor, or -errno. */
static long signalfd_new(u64 mask, int flags)
{
	struct signalfd_ctx *ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);
	struct file *f;
	int fd;

	if (!ctx)
		return -ENOMEM;
	spin_lock_init(&ctx->lock, "signalfd");
	ctx->mask = mask;
	f = anon_file_alloc(&signalfd_ops, ctx, FMODE_READ, O_RDONLY | (flags & O_NONBLOCK));
	if (!f) {
		kfree(ctx);
		return -ENOMEM;
	}
	fd = fd_install_from(current->files, f, 0, flags & SFD_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}

/* A second call on a signal file: its new mask (readers and pollers look again). */
static long signalfd_update(int ufd, u64 mask)
{
	struct file *f = fget(ufd);
	struct signalfd_ctx *ctx;
	u32 flags;

	if (!f)
		return -EBADF;
	if (f->f_op != &signalfd_ops) {
		fput(f);
		return -EINVAL;
	}
	ctx = f->private_data;
	spin_lock_irqsave(&ctx->lock, flags);
	ctx->mask = mask;
	spin_unlock_irqrestore(&ctx->lock, flags);
	fput(f);
	wake_up_poll(&signalfd_wait, POLLIN | POLLRDNORM);
	return ufd;
}

long sys_signalfd4(int ufd, const struct kernel_sigset *umask, unsigned sizemask, int flags)
{
	struct kernel_sigset k;
	u64 mask;

	if (flags & ~(SFD_CLOEXEC | SFD_NONBLOCK))
		return -EINVAL;
	if (sizemask != KSIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&k, umask, sizeof(k)))
		return -EFAULT;
	mask = (k.sig[0] | (u64)k.sig[1] << 32) & ~SIG_KERNEL_ONLY;	/* silently ignored */
	return ufd == -1 ? signalfd_new(mask, flags) : signalfd_update(ufd, mask);
}

long sys_signalfd(int ufd, const struct kernel_sigset *umask, unsigned sizemask)
{
	return sys_signalfd4(ufd, umask, sizemask, 0);
}
