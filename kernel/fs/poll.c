/* poll.c: poll, ppoll, select (_newselect) and pselect6 over the files' ->poll
 * methods, with relative timeouts; and IOCB_CMD_POLL, the AIO one-shot poll. */
#include "clock.h"
#include "errno.h"
#include "signal.h"
#include "fs.h"
#include "poll.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/time.h"
#include "fs_internal.h"
#include "aio.h"
#include "workqueue.h"

#define POLL_MAX_FDS	1024		/* Linux's default RLIMIT_NOFILE: more is -EINVAL */
#define SIGSET_SIZE	8		/* the kernel's sigset_t for ppoll/pselect6 */
#define NO_WAIT		0ull		/* deadline: look once */
#define NO_DEADLINE	(~0ull)		/* deadline: wait until something is ready */

#define POLLIN_SET	(POLLRDNORM | POLLRDBAND | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET	(POLLWRBAND | POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET	(POLLPRI)

static int poll_wake(wait_queue_entry_t *w, unsigned int mode)
{
	struct poll_entry *e = container_of(w, struct poll_entry, wait);

	e->pt->triggered = true;
	return default_wake_function(w, mode);
}

void poll_wait(struct file *f, wait_queue_head_t *q, struct poll_table *pt)
{
	struct poll_entry *e;

	if (!pt || !q)
		return;
	if (pt->qproc) {
		pt->qproc(f, q, pt);
		return;
	}
	if (pt->nr == pt->max) {
		pt->overflow = true;
		return;
	}
	e = &pt->entries[pt->nr++];
	e->pt = pt;
	e->head = q;
	e->file = get_file(f);
	e->wait = (wait_queue_entry_t){ 0, current, poll_wake, LIST_HEAD_INIT(e->wait.entry) };
	add_wait_queue(q, &e->wait);
}

static void poll_table_release(struct poll_table *pt)
{
	for (u32 i = 0; i < pt->nr; i++) {
		remove_wait_queue(pt->entries[i].head, &pt->entries[i].wait);
		fput(pt->entries[i].file);
	}
	kfree(pt->entries);
}

unsigned fs_poll_now(struct file *f)
{
	return f->f_op && f->f_op->poll ? f->f_op->poll(f, NULL) : DEFAULT_POLLMASK;
}

static unsigned file_poll(struct file *f, struct poll_table *pt)
{
	return f->f_op && f->f_op->poll ? f->f_op->poll(f, pt) : DEFAULT_POLLMASK;
}

/* One look at every file: the number ready (> 0), 0, or -errno. Registers
 * with pt when it is not NULL. */
typedef long (*poll_pass_t)(void *arg, struct poll_table *pt);

static unsigned long jiffies_until(u64 deadline, bool overflow)
{
	u64 now = ktime_get_ns();

	if (overflow)
		return 1;
	if (deadline == NO_DEADLINE)
		return MAX_SCHEDULE_TIMEOUT;
	return deadline > now ? MAX(1ul, nsecs_to_jiffies(deadline - now)) : 1;
}

/* Pass until something is ready, the deadline (CLOCK_MONOTONIC ns) passes, or
 * a signal arrives (-EINTR). capacity: wait-queue entries to provide. */
static long poll_loop(poll_pass_t pass, void *arg, u32 capacity, u64 deadline)
{
	struct poll_table pt = { .max = capacity };
	bool first = true;
	long n;

	if (deadline != NO_WAIT && capacity &&
	    !(pt.entries = kmalloc(capacity * sizeof(*pt.entries), GFP_KERNEL)))
		return -ENOMEM;
	for (;;) {
		n = pass(arg, first && deadline != NO_WAIT ? &pt : NULL);
		first = false;
		if (n || deadline == NO_WAIT || ktime_get_ns() >= deadline)
			break;
		if (signal_pending(current)) {
			n = -EINTR;
			break;
		}
		set_current_state(TASK_INTERRUPTIBLE);
		if (!pt.triggered && !signal_pending(current))
			schedule_timeout(jiffies_until(deadline, pt.overflow));
		__set_current_state(TASK_RUNNING);
		pt.triggered = false;
	}
	poll_table_release(&pt);
	return n;
}

/* A relative timeout -> a deadline; -EINVAL for a negative or unnormalised one. */
static long deadline_after(long sec, long nsec, u64 *deadline)
{
	if (sec < 0 || nsec < 0 || nsec >= 1000000000L)
		return -EINVAL;
	*deadline = !sec && !nsec ? NO_WAIT : ktime_get_ns() + sec * 1000000000ull + nsec;
	return 0;
}

/* The time left until deadline, as a relative timespec (0 once past). */
static void time_left(u64 deadline, struct kernel_timespec *ts)
{
	u64 now = ktime_get_ns();

	ns_to_timespec(deadline != NO_WAIT && deadline > now ? deadline - now : 0, ts);
}

/* Read a signal mask for the wait (NULL: none, *has false). */
static long sigmask_read(const void *umask, unsigned size, u64 *mask, bool *has)
{
	*has = false;
	if (!umask)
		return 0;
	if (size != SIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(mask, umask, sizeof(*mask)))
		return -EFAULT;
	*has = true;
	return 0;
}

/* The wait runs under the mask (kernel/signal_calls.c), as rt_sigsuspend. */
static void sigmask_begin(bool has, u64 mask)
{
	if (has)
		signal_set_temp_mask(mask);
}

static void sigmask_end(bool has, long ret)
{
	if (has)
		signal_restore_temp_mask(ret == -EINTR);
}

/* --- poll, ppoll --- */

struct poll_args {
	struct pollfd *fds;
	u32 nfds;
};

static long poll_pass(void *arg, struct poll_table *pt)
{
	struct poll_args *a = arg;
	long ready = 0;

	for (u32 i = 0; i < a->nfds; i++) {
		struct pollfd *p = &a->fds[i];
		struct file *f = p->fd < 0 ? NULL : fget(p->fd);

		if (p->fd < 0)
			p->revents = 0;
		else if (!f)
			p->revents = POLLNVAL;
		else
			p->revents = file_poll(f, pt) & (p->events | POLLERR | POLLHUP);
		if (f)
			fput(f);
		ready += p->revents != 0;
	}
	return ready;
}

static long do_poll(struct pollfd *ufds, unsigned nfds, u64 deadline)
{
	struct poll_args a = { .nfds = nfds };
	size_t bytes = nfds * sizeof(struct pollfd);
	long n;

	if (nfds > POLL_MAX_FDS)
		return -EINVAL;
	if (nfds && !(a.fds = kmalloc(bytes, GFP_KERNEL)))
		return -ENOMEM;
	if (nfds && copy_from_user(a.fds, ufds, bytes))
		n = -EFAULT;
	else
		n = poll_loop(poll_pass, &a, nfds, deadline);
	for (u32 i = 0; n >= 0 && i < nfds; i++)	/* revents only */
		if (put_user(a.fds[i].revents, &ufds[i].revents))
			n = -EFAULT;
	kfree(a.fds);
	return n;
}

long sys_poll(struct pollfd *ufds, unsigned nfds, int timeout_ms)
{
	u64 deadline = NO_DEADLINE;

	if (timeout_ms >= 0)
		deadline_after(timeout_ms / 1000, (timeout_ms % 1000) * 1000000L, &deadline);
	return do_poll(ufds, nfds, deadline);
}

/* Read a relative timespec (NULL: none) into a deadline. */
static long timespec_deadline(const struct kernel_timespec *uts, u64 *deadline)
{
	struct kernel_timespec ts;

	*deadline = NO_DEADLINE;
	if (!uts)
		return 0;
	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	return deadline_after(ts.tv_sec, ts.tv_nsec, deadline);
}

/* ppoll and pselect6 tell how much of the timeout is left (as Linux). */
static void timespec_update(struct kernel_timespec *uts, u64 deadline)
{
	struct kernel_timespec left;

	if (!uts || deadline == NO_DEADLINE)
		return;
	time_left(deadline, &left);
	(void)copy_to_user(uts, &left, sizeof(left));	/* a write-only failure is ignored */
}

long sys_ppoll(struct pollfd *ufds, unsigned nfds, struct kernel_timespec *uts,
	       const void *umask, unsigned sigsetsize)
{
	u64 deadline, mask;
	bool has;
	long n = timespec_deadline(uts, &deadline);

	if (!n)
		n = sigmask_read(umask, sigsetsize, &mask, &has);
	if (n)
		return n;
	sigmask_begin(has, mask);
	n = do_poll(ufds, nfds, deadline);
	sigmask_end(has, n);
	timespec_update(uts, deadline);
	return n;
}

/* --- select, pselect6 --- */

#define FDSET_WORDS	(NR_OPEN / 32)

struct select_args {
	int n;
	u32 in[FDSET_WORDS], out[FDSET_WORDS], ex[FDSET_WORDS];	/* asked */
	u32 rin[FDSET_WORDS], rout[FDSET_WORDS], rex[FDSET_WORDS];	/* found */
};

static bool bit(const u32 *set, int fd)
{
	return set[fd / 32] & (1u << (fd % 32));
}

/* Readiness of one fd into the result sets; 1 per set it entered, or -EBADF. */
static long select_one(struct select_args *a, int fd, struct poll_table *pt)
{
	struct file *f = fget(fd);
	unsigned mask;
	long ready = 0;

	if (!f)
		return -EBADF;
	mask = file_poll(f, pt);
	fput(f);
	if (bit(a->in, fd) && (mask & POLLIN_SET) && ++ready)
		a->rin[fd / 32] |= 1u << (fd % 32);
	if (bit(a->out, fd) && (mask & POLLOUT_SET) && ++ready)
		a->rout[fd / 32] |= 1u << (fd % 32);
	if (bit(a->ex, fd) && (mask & POLLEX_SET) && ++ready)
		a->rex[fd / 32] |= 1u << (fd % 32);
	return ready;
}

static long select_pass(void *arg, struct poll_table *pt)
{
	struct select_args *a = arg;
	long ready = 0, r;

	memset(a->rin, 0, sizeof(a->rin));
	memset(a->rout, 0, sizeof(a->rout));
	memset(a->rex, 0, sizeof(a->rex));
	for (int fd = 0; fd < a->n; fd++) {
		if (!bit(a->in, fd) && !bit(a->out, fd) && !bit(a->ex, fd))
			continue;
		if ((r = select_one(a, fd, pt)) < 0)
			return r;
		ready += r;
	}
	return ready;
}

/* Copy a user fd_set of n bits in (NULL: empty). */
static long fdset_get(u32 *set, const u32 *uset, int n)
{
	memset(set, 0, FDSET_WORDS * 4);
	if (!uset)
		return 0;
	return copy_from_user(set, uset, (n + 31) / 32 * 4) ? -EFAULT : 0;
}

static long fdset_put(u32 *uset, const u32 *set, int n)
{
	if (!uset)
		return 0;
	return copy_to_user(uset, set, (n + 31) / 32 * 4) ? -EFAULT : 0;
}

static long do_select(int n, u32 *uin, u32 *uout, u32 *uex, u64 deadline)
{
	struct select_args *a;
	long ret;

	if (n < 0)
		return -EINVAL;
	a = kmalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->n = MIN(n, NR_OPEN);			/* as Linux: no descriptor lies beyond */
	ret = fdset_get(a->in, uin, a->n);
	if (!ret)
		ret = fdset_get(a->out, uout, a->n);
	if (!ret)
		ret = fdset_get(a->ex, uex, a->n);
	if (!ret)
		ret = poll_loop(select_pass, a, a->n, deadline);
	if (ret >= 0 && (fdset_put(uin, a->rin, a->n) || fdset_put(uout, a->rout, a->n) ||
			 fdset_put(uex, a->rex, a->n)))
		ret = -EFAULT;
	kfree(a);
	return ret;
}

long sys_select(int n, unsigned long *uin, unsigned long *uout, unsigned long *uex,
		struct kernel_timeval *utv)
{
	struct kernel_timeval tv;
	u64 deadline = NO_DEADLINE;
	long ret;

	if (utv && copy_from_user(&tv, utv, sizeof(tv)))
		return -EFAULT;
	if (utv && (tv.tv_usec < 0 || tv.tv_usec >= 1000000 ||
		    deadline_after(tv.tv_sec, tv.tv_usec * 1000L, &deadline)))
		return -EINVAL;
	ret = do_select(n, (u32 *)uin, (u32 *)uout, (u32 *)uex, deadline);
	if (utv) {			/* select tells the time left (as Linux) */
		struct kernel_timespec left;
		time_left(deadline, &left);
		tv = (struct kernel_timeval){ left.tv_sec, left.tv_nsec / 1000 };
		(void)copy_to_user(utv, &tv, sizeof(tv));
	}
	return ret;
}

/* pselect6's sixth argument: { const sigset_t *mask; size_t size; }. */
long sys_pselect6(int n, unsigned long *uin, unsigned long *uout, unsigned long *uex,
		  struct kernel_timespec *uts, void *usig)
{
	u32 sig[2] = { 0, 0 };
	u64 deadline, mask;
	bool has = false;
	long ret = timespec_deadline(uts, &deadline);

	if (!ret && usig && copy_from_user(sig, usig, sizeof(sig)))
		ret = -EFAULT;
	if (!ret)
		ret = sigmask_read((const void *)sig[0], sig[1], &mask, &has);
	if (ret)
		return ret;
	sigmask_begin(has, mask);
	ret = do_select(n, (u32 *)uin, (u32 *)uout, (u32 *)uex, deadline);
	sigmask_end(has, ret);
	timespec_update(uts, deadline);
	return ret;
}

/* --- IOCB_CMD_POLL ---
 *
 * A request waits on its file's one wait queue through ap->wait. The wake-up
 * (any context, the queue's lock held) only takes the entry off the queue
 * and queues ap->work; the work function (process context: ->poll may take
 * a mutex) looks again and completes the request, or queues it again when
 * the wake-up was for something else. ap->lock (irq-safe, taken inside the
 * queue's lock by the wake-up, never held while taking a queue's lock)
 * guards state, head and cancelled:
 *   ARMING  ->poll is registering it (start or work)
 *   ARMED   on the queue, waiting: only now can a cancel withdraw it
 *   WOKEN   off the queue, the work is queued
 *   DONE    finished (or withdrawn): nobody touches it but its finisher
 */
enum { AP_ARMING, AP_ARMED, AP_WOKEN, AP_DONE };

struct aio_poll {
	struct poll_table pt;		/* qproc = aio_poll_queue */
	struct kiocb *req;
	u16 events;			/* asked, plus POLLERR | POLLHUP */
	spinlock_t lock;
	int state;			/* AP_* (lock) */
	bool cancelled;			/* io_cancel came while it could not withdraw (lock) */
	bool two_queues;		/* the file used more than one queue */
	u16 ready;			/* events a keyed wake-up reported (lock) */
	wait_queue_head_t *head;	/* the queue it is on (lock) */
	wait_queue_entry_t wait;
	struct work_struct work;
};

static void aio_poll_queue(struct file *f, wait_queue_head_t *q, struct poll_table *pt)
{
	struct aio_poll *ap = container_of(pt, struct aio_poll, pt);
	u32 flags;

	spin_lock_irqsave(&ap->lock, flags);
	if (ap->head || ap->state != AP_ARMING) {
		ap->two_queues |= ap->head != NULL && ap->head != q;
		spin_unlock_irqrestore(&ap->lock, flags);
		return;
	}
	ap->head = q;
	spin_unlock_irqrestore(&ap->lock, flags);
	add_wait_queue(q, &ap->wait);
}

/* The queue's lock is held (__wake_up walks it safely): off the queue, to the
 * work. A waker that names its events (wake_up_poll) is believed: a wake-up
 * for other events leaves the request armed, one for these completes it with
 * them even if a reader consumed them before the work runs. */
static int aio_poll_wake(wait_queue_entry_t *w, unsigned int mode)
{
	struct aio_poll *ap = container_of(w, struct aio_poll, wait);
	u32 flags;

	spin_lock_irqsave(&ap->lock, flags);
	if ((ap->state == AP_ARMING || ap->state == AP_ARMED) &&
	    !(ap->head->key && !(ap->head->key & ap->events))) {
		ap->ready = ap->head->key & ap->events;	/* what the waker said, or 0 */
		list_del_init(&w->entry);
		ap->head = NULL;
		ap->state = AP_WOKEN;
		schedule_work(&ap->work);
	}
	spin_unlock_irqrestore(&ap->lock, flags);
	return 0;
}

/* After ->poll registered ap and found mask: finish (true, with the result
 * in *res), or leave it armed or to the queued work (false). */
static bool aio_poll_settle(struct aio_poll *ap, unsigned mask, long *res)
{
	wait_queue_head_t *head;
	u32 flags;

	spin_lock_irqsave(&ap->lock, flags);
	if (ap->state == AP_WOKEN) {		/* a wake-up came meanwhile */
		spin_unlock_irqrestore(&ap->lock, flags);
		return false;
	}
	mask &= ap->events;
	if (!mask && !ap->cancelled && ap->head && !ap->two_queues) {
		ap->state = AP_ARMED;
		spin_unlock_irqrestore(&ap->lock, flags);
		return false;
	}
	head = ap->head;
	ap->head = NULL;
	ap->state = AP_DONE;
	spin_unlock_irqrestore(&ap->lock, flags);
	if (head)
		remove_wait_queue(head, &ap->wait);
	*res = ap->cancelled ? -ECANCELED : ap->two_queues ? -EINVAL : (long)mask;
	return true;
}

/* Register ap with its file and look: true when finished (*res). */
static bool aio_poll_arm(struct aio_poll *ap, long *res)
{
	struct file *f = kiocb_file(ap->req);
	u32 flags;

	spin_lock_irqsave(&ap->lock, flags);
	ap->state = AP_ARMING;
	spin_unlock_irqrestore(&ap->lock, flags);
	return aio_poll_settle(ap, f->f_op->poll(f, &ap->pt), res);
}

static void aio_poll_work(struct work_struct *w)
{
	struct aio_poll *ap = container_of(w, struct aio_poll, work);
	struct kiocb *req = ap->req;
	long res = ap->ready;

	if (!res && !aio_poll_arm(ap, &res))
		return;
	kfree(ap);
	aio_complete(req, res, 0);
}

/* Withdraw a request still on its queue; -EAGAIN otherwise (it then ends
 * with -ECANCELED as soon as its work runs). Process context. */
static int aio_poll_cancel(struct kiocb *req)
{
	struct aio_poll *ap = kiocb_private(req);
	wait_queue_head_t *head = NULL;
	u32 flags;
	int err = -EAGAIN;

	spin_lock_irqsave(&ap->lock, flags);
	if (ap->state == AP_ARMED) {
		head = ap->head;
		ap->head = NULL;
		ap->state = AP_DONE;
		err = 0;
	} else {
		ap->cancelled = true;
	}
	spin_unlock_irqrestore(&ap->lock, flags);
	if (err)
		return err;
	remove_wait_queue(head, &ap->wait);
	kfree(ap);
	return 0;
}

long aio_poll_start(struct kiocb *req, u16 events)
{
	struct file *f = kiocb_file(req);
	struct aio_poll *ap;
	long res;

	if (!f->f_op || !f->f_op->poll)
		return -EINVAL;
	ap = kmalloc(sizeof(*ap), GFP_KERNEL);
	if (!ap)
		return -ENOMEM;
	memset(ap, 0, sizeof(*ap));
	ap->pt.qproc = aio_poll_queue;
	ap->req = req;
	ap->events = events | POLLERR | POLLHUP;
	spin_lock_init(&ap->lock, "aio_poll");
	ap->wait = (wait_queue_entry_t){ 0, NULL, aio_poll_wake, LIST_HEAD_INIT(ap->wait.entry) };
	INIT_WORK(&ap->work, aio_poll_work);
	kiocb_set_private(req, ap);
	kiocb_set_cancel_fn(req, aio_poll_cancel);
	if (!aio_poll_arm(ap, &res))
		return -EIOCBQUEUED;	/* ap may be gone already: hands off */
	kfree(ap);
	return res;
}
