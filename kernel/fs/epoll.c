/* epoll.c: epoll instances: epoll_create/epoll_create1 (254/329), epoll_ctl
 * (255), epoll_wait/epoll_pwait (256/319): level- and edge-triggered, one-shot,
 * nested (an instance's own file polls).
 *
 * An instance (struct eventpoll) lives in its own file. Each watched (file,
 * fd) pair is an epitem. It holds no reference on the file: as on Linux, the
 * entry belongs to the open file description and goes when its last reference
 * does (fput calls epoll_file_release first). It is queued on the file's wait
 * queues through its ep_pwq entries, whose wake function (ep_wake: any context,
 * an interrupt on another CPU included, the file queue's lock held) puts it on
 * the ready list; epoll_wait looks at each ready file again (->poll) before
 * reporting it.
 *
 * Locks, outermost first:
 *   epoll_mutex: adding or removing an item whose file is itself an epoll
 *     instance (the loop and depth checks walk ep->nested and the instances'
 *     f_ep_links under it), and the teardown paths (a watched file's last
 *     close, an instance's release), which must not meet each other.
 *   ep->mtx: ep->items, each item's events and data, ep->nested; held while
 *     epoll_wait calls the files' ->poll and copies events to user space.
 *   the watched files' locks and wait-queue locks (->poll, registration).
 *   epoll_links_lock: every file's f_ep_links.
 *   ep->lock (irq-safe): ep->rdlist and each item's rdlink. ep_wake takes it
 *     inside a file queue's lock, so it is never held while taking one.
 *   ep->wq.lock: epoll_wait's sleepers, woken after ep->lock is dropped.
 * An instance that is itself watched (ep->poll_wait: poll, select, another
 * epoll) is woken from a work item, not from ep_wake: inline, one instance's
 * queue lock would be taken inside another's of the same class.
 */
#include "clock.h"
#include "epoll.h"
#include "errno.h"
#include "fs.h"
#include "mutex.h"
#include "poll.h"
#include "sched.h"
#include "signal.h"
#include "slab.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/eventpoll.h"
#include "wait.h"
#include "workqueue.h"

#define EP_MAX_NESTS	4	/* Linux's: a chain of more than 5 instances is -ELOOP */
#define EP_MAX_PWQ	2	/* wait queues one watched file may use */
#define EP_PRIVATE_BITS	(EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE | EPOLLWAKEUP)
#define EP_ALWAYS	(EPOLLERR | EPOLLHUP)	/* reported whether asked or not */
#define EP_MAX_EVENTS	(0x7fffffff / sizeof(struct epoll_event))
#define EP_EXCLUSIVE_OK	(EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP | EPOLLWAKEUP | EPOLLET | \
			 EPOLLEXCLUSIVE | EPOLLRDNORM | EPOLLWRNORM)
#define NO_DEADLINE	(~0ull)

struct eventpoll {
	struct mutex mtx;
	struct list_head items;		/* every epitem's link (mtx) */
	struct list_head nested;	/* items whose file is an epoll (epoll_mutex) */
	spinlock_t lock;
	struct list_head rdlist;	/* ready items' rdlink (lock) */
	wait_queue_head_t wq;		/* epoll_wait's sleepers */
	wait_queue_head_t poll_wait;	/* poll, select, epoll on this instance */
	struct work_struct poll_work;	/* wakes poll_wait */
	struct file *file;		/* its own file (not counted) */
};

struct epitem;

/* One registration on a watched file's wait queue. */
struct ep_pwq {
	wait_queue_entry_t wait;
	wait_queue_head_t *head;
	struct epitem *epi;
};

struct epitem {
	struct list_head link;		/* ep->items (ep->mtx) */
	struct list_head rdlink;	/* ep->rdlist or a scan's list (ep->lock); empty: neither */
	struct list_head flink;		/* file->f_ep_links (epoll_links_lock) */
	struct list_head nlink;		/* ep->nested when file is an epoll (epoll_mutex) */
	struct eventpoll *ep;
	struct file *file;		/* not counted: see the head comment */
	int fd;
	u32 events;			/* asked | EP_ALWAYS; a fired EPOLLONESHOT leaves
					 * only EP_PRIVATE_BITS (written under mtx and lock) */
	u64 data;			/* (mtx) */
	int npwq;
	bool overflow;			/* the file wanted more than EP_MAX_PWQ queues */
	struct ep_pwq pwq[EP_MAX_PWQ];
};

/* The poll table of a registration (ep_insert). */
struct ep_pqueue {
	struct poll_table pt;
	struct epitem *epi;
};

static DEFINE_MUTEX(epoll_mutex);
static DEFINE_SPINLOCK(epoll_links_lock);
static const struct file_operations eventpoll_ops;

static bool is_epoll(const struct file *f)
{
	return f->f_op == &eventpoll_ops;
}

static bool ep_links_empty(struct file *f)
{
	u32 flags;
	bool empty;

	spin_lock_irqsave(&epoll_links_lock, flags);
	empty = !f->f_ep_links.next || list_empty(&f->f_ep_links);
	spin_unlock_irqrestore(&epoll_links_lock, flags);
	return empty;
}

/* --- readiness --- */

static void ep_poll_work(struct work_struct *w)
{
	struct eventpoll *ep = container_of(w, struct eventpoll, poll_work);

	wake_up_poll(&ep->poll_wait, POLLIN | POLLRDNORM);
}

/* Something became ready: wake epoll_wait's sleepers and those polling ep. */
static void ep_notify(struct eventpoll *ep)
{
	smp_mb();			/* the rdlist change before the looks at the queues */
	if (waitqueue_active(&ep->wq))
		wake_up_all(&ep->wq);
	if (waitqueue_active(&ep->poll_wait))
		schedule_work(&ep->poll_work);
}

/* Put epi on the ready list unless it is there (ep->lock held): true if added. */
static bool ep_mark_ready(struct eventpoll *ep, struct epitem *epi)
{
	if (!list_empty(&epi->rdlink))
		return false;
	list_add_tail(&epi->rdlink, &ep->rdlist);
	return true;
}

/* A watched file's wake-up (its queue's lock held, any context). A waker that
 * names its events (wake_up_poll) and none of epi's is ignored; a disabled
 * one-shot item too. */
static int ep_wake(wait_queue_entry_t *w, unsigned int mode)
{
	struct ep_pwq *pwq = container_of(w, struct ep_pwq, wait);
	struct epitem *epi = pwq->epi;
	struct eventpoll *ep = epi->ep;
	unsigned long key = pwq->head->key;
	bool added = false;
	u32 flags;

	(void)mode;
	spin_lock_irqsave(&ep->lock, flags);
	if ((epi->events & ~EP_PRIVATE_BITS) && !(key && !(key & epi->events)))
		added = ep_mark_ready(ep, epi);
	spin_unlock_irqrestore(&ep->lock, flags);
	if (added)
		ep_notify(ep);
	return 0;
}

static void ep_queue_proc(struct file *f, wait_queue_head_t *q, struct poll_table *pt)
{
	struct epitem *epi = container_of(pt, struct ep_pqueue, pt)->epi;
	struct ep_pwq *pwq;

	(void)f;
	if (epi->npwq == EP_MAX_PWQ) {
		epi->overflow = true;
		return;
	}
	pwq = &epi->pwq[epi->npwq++];
	pwq->epi = epi;
	pwq->head = q;
	pwq->wait = (wait_queue_entry_t){ 0, NULL, ep_wake, LIST_HEAD_INIT(pwq->wait.entry) };
	add_wait_queue(q, &pwq->wait);
}

/* The events of epi ready now (ep->mtx held: the file stays). */
static unsigned ep_item_poll(struct epitem *epi)
{
	return epi->file->f_op->poll(epi->file, NULL) & epi->events;
}

/* Take the first item of list off it (ep->lock taken here); NULL when empty. */
static struct epitem *ep_take_first(struct eventpoll *ep, struct list_head *list)
{
	struct epitem *epi = NULL;
	u32 flags;

	spin_lock_irqsave(&ep->lock, flags);
	if (!list_empty(list)) {
		epi = list_first_entry(list, struct epitem, rdlink);
		list_del_init(&epi->rdlink);
	}
	spin_unlock_irqrestore(&ep->lock, flags);
	return epi;
}

/* Move the ready list to tx (back: tx_return). Each item is taken off tx
 * before its file is looked at, so a wake-up meanwhile queues it again. */
static void ep_tx_begin(struct eventpoll *ep, struct list_head *tx)
{
	u32 flags;

	spin_lock_irqsave(&ep->lock, flags);
	list_splice_init(&ep->rdlist, tx);
	spin_unlock_irqrestore(&ep->lock, flags);
}

/* The items not looked at go back ahead of those queued meanwhile (the
 * reported level-triggered ones among them): each gets its turn. */
static void ep_tx_return(struct eventpoll *ep, struct list_head *tx)
{
	u32 flags;

	spin_lock_irqsave(&ep->lock, flags);
	list_splice_init(&ep->rdlist, tx);
	list_splice_init(tx, &ep->rdlist);
	spin_unlock_irqrestore(&ep->lock, flags);
}

/* After epi was reported (lock taken here): a one-shot item is disabled, a
 * level-triggered one stays ready for the next look, an edge-triggered one
 * waits for the next wake-up. */
static void ep_after_report(struct eventpoll *ep, struct epitem *epi)
{
	u32 flags;

	spin_lock_irqsave(&ep->lock, flags);
	if (epi->events & EPOLLONESHOT)
		epi->events &= EP_PRIVATE_BITS;
	else if (!(epi->events & EPOLLET))
		ep_mark_ready(ep, epi);
	spin_unlock_irqrestore(&ep->lock, flags);
}

/* Report up to max ready items to uev: their number, or -EFAULT when not even
 * the first could be written. Takes ep->mtx. */
static long ep_send_events(struct eventpoll *ep, struct epoll_event *uev, int max)
{
	LIST_HEAD(tx);
	struct epitem *epi;
	long n = 0;
	u32 flags;

	mutex_lock(&ep->mtx);
	ep_tx_begin(ep, &tx);
	while (n < max && (epi = ep_take_first(ep, &tx))) {
		struct epoll_event ev = { ep_item_poll(epi), epi->data };

		if (!ev.events)
			continue;		/* no longer ready: off the list */
		if (copy_to_user(&uev[n], &ev, sizeof(ev))) {
			spin_lock_irqsave(&ep->lock, flags);
			ep_mark_ready(ep, epi);
			spin_unlock_irqrestore(&ep->lock, flags);
			if (!n)
				n = -EFAULT;
			break;
		}
		n++;
		ep_after_report(ep, epi);
	}
	ep_tx_return(ep, &tx);
	mutex_unlock(&ep->mtx);
	return n;
}

/* Is any item of ep ready? For ep's own ->poll (an outer instance's scan may
 * hold another ep->mtx: only a trylock here; when busy, a non-empty ready
 * list answers). Items found not ready leave the list, ready ones stay. */
static bool ep_ready_now(struct eventpoll *ep)
{
	LIST_HEAD(tx);
	struct epitem *epi;
	bool ready = false;
	u32 flags;

	if (list_empty(&ep->rdlist))
		return false;
	if (!mutex_trylock(&ep->mtx))
		return true;
	ep_tx_begin(ep, &tx);
	while (!ready && (epi = ep_take_first(ep, &tx))) {
		if (!ep_item_poll(epi))
			continue;
		ready = true;
		spin_lock_irqsave(&ep->lock, flags);
		ep_mark_ready(ep, epi);
		spin_unlock_irqrestore(&ep->lock, flags);
	}
	ep_tx_return(ep, &tx);
	mutex_unlock(&ep->mtx);
	return ready;
}

static unsigned eventpoll_poll(struct file *f, struct poll_table *pt)
{
	struct eventpoll *ep = f->private_data;

	poll_wait(f, &ep->poll_wait, pt);
	return ep_ready_now(ep) ? POLLIN | POLLRDNORM : 0;
}

/* --- items --- */

static struct epitem *ep_find(struct eventpoll *ep, struct file *f, int fd)
{
	struct epitem *epi;

	list_for_each_entry(epi, &ep->items, link)
		if (epi->file == f && epi->fd == fd)
			return epi;
	return NULL;
}

/* Unlink and free epi (ep->mtx held; epoll_mutex too when its file is an
 * epoll). Its wait-queue entries go first: the file may be in its last fput,
 * waiting for ep->mtx or epoll_mutex, and is freed once f_ep_links is empty. */
static void ep_remove(struct eventpoll *ep, struct epitem *epi)
{
	u32 flags;

	for (int i = 0; i < epi->npwq; i++)
		remove_wait_queue(epi->pwq[i].head, &epi->pwq[i].wait);
	spin_lock_irqsave(&epoll_links_lock, flags);
	list_del(&epi->flink);
	spin_unlock_irqrestore(&epoll_links_lock, flags);
	if (is_epoll(epi->file))
		list_del(&epi->nlink);
	list_del(&epi->link);
	spin_lock_irqsave(&ep->lock, flags);
	list_del_init(&epi->rdlink);
	spin_unlock_irqrestore(&ep->lock, flags);
	kfree(epi);
}

static struct epitem *ep_item_alloc(struct eventpoll *ep, const struct epoll_event *ev,
				    struct file *f, int fd)
{
	struct epitem *epi = kmalloc(sizeof(*epi), GFP_KERNEL);

	if (!epi)
		return NULL;
	memset(epi, 0, sizeof(*epi));
	INIT_LIST_HEAD(&epi->rdlink);
	epi->ep = ep;
	epi->file = f;
	epi->fd = fd;
	epi->events = ev->events | EP_ALWAYS;
	epi->data = ev->data;
	return epi;
}

/* EPOLL_CTL_ADD (ep->mtx held, epoll_mutex too for an epoll file): 0, -ENOMEM,
 * or -EINVAL for a file that uses more wait queues than an item holds. */
static int ep_insert(struct eventpoll *ep, const struct epoll_event *ev, struct file *f, int fd)
{
	struct ep_pqueue epq = { .pt = { .qproc = ep_queue_proc } };
	struct epitem *epi = ep_item_alloc(ep, ev, f, fd);
	unsigned mask;
	bool added;
	u32 flags;

	if (!epi)
		return -ENOMEM;
	list_add_tail(&epi->link, &ep->items);
	spin_lock_irqsave(&epoll_links_lock, flags);
	list_add_tail(&epi->flink, &f->f_ep_links);
	spin_unlock_irqrestore(&epoll_links_lock, flags);
	if (is_epoll(f))
		list_add_tail(&epi->nlink, &ep->nested);
	epq.epi = epi;
	mask = f->f_op->poll(f, &epq.pt) & epi->events;
	if (epi->overflow) {
		ep_remove(ep, epi);
		return -EINVAL;
	}
	spin_lock_irqsave(&ep->lock, flags);
	added = mask && ep_mark_ready(ep, epi);
	spin_unlock_irqrestore(&ep->lock, flags);
	if (added)
		ep_notify(ep);
	return 0;
}

/* EPOLL_CTL_MOD (ep->mtx held): new events and data, then a fresh look (a
 * disabled one-shot item is armed again). */
static int ep_modify(struct eventpoll *ep, struct epitem *epi, const struct epoll_event *ev)
{
	bool added;
	u32 flags;

	spin_lock_irqsave(&ep->lock, flags);
	epi->events = ev->events | EP_ALWAYS;
	epi->data = ev->data;
	spin_unlock_irqrestore(&ep->lock, flags);
	if (!ep_item_poll(epi))
		return 0;
	spin_lock_irqsave(&ep->lock, flags);
	added = ep_mark_ready(ep, epi);
	spin_unlock_irqrestore(&ep->lock, flags);
	if (added)
		ep_notify(ep);
	return 0;
}

/* --- loops and depth (epoll_mutex held) --- */

/* The longest chain of instances below ep (0: it watches none); -1 when
 * `find` is among them. */
static int ep_depth_below(struct eventpoll *ep, struct eventpoll *find)
{
	struct epitem *epi;
	int depth = 0, d;

	if (ep == find)
		return -1;
	list_for_each_entry(epi, &ep->nested, nlink) {
		d = ep_depth_below(epi->file->private_data, find);
		if (d < 0)
			return -1;
		depth = MAX(depth, d + 1);
	}
	return depth;
}

/* The longest chain of instances that watch ep, directly or not. */
static int ep_depth_above(struct eventpoll *ep)
{
	struct epitem *epi;
	int depth = 0;

	list_for_each_entry(epi, &ep->file->f_ep_links, flink)
		depth = MAX(depth, ep_depth_above(epi->ep) + 1);
	return depth;
}

/* May ep watch the instance target? -ELOOP for a loop or too deep a chain. */
static int ep_loop_check(struct eventpoll *ep, struct eventpoll *target)
{
	int below = ep_depth_below(target, ep);

	if (below < 0 || ep_depth_above(ep) + 1 + below > EP_MAX_NESTS)
		return -ELOOP;
	return 0;
}

/* --- teardown --- */

void epoll_file_release(struct file *f)
{
	struct epitem *epi;
	struct eventpoll *ep;
	u32 flags;

	if (ep_links_empty(f))
		return;
	mutex_lock(&epoll_mutex);
	for (;;) {
		spin_lock_irqsave(&epoll_links_lock, flags);
		epi = list_empty(&f->f_ep_links) ? NULL :
			list_first_entry(&f->f_ep_links, struct epitem, flink);
		spin_unlock_irqrestore(&epoll_links_lock, flags);
		if (!epi)
			break;
		ep = epi->ep;		/* alive: its release waits for epoll_mutex */
		mutex_lock(&ep->mtx);
		ep_remove(ep, epi);
		mutex_unlock(&ep->mtx);
	}
	mutex_unlock(&epoll_mutex);
}

static void eventpoll_release(struct inode *inode, struct file *f)
{
	struct eventpoll *ep = f->private_data;

	(void)inode;
	mutex_lock(&epoll_mutex);
	mutex_lock(&ep->mtx);
	while (!list_empty(&ep->items))
		ep_remove(ep, list_first_entry(&ep->items, struct epitem, link));
	mutex_unlock(&ep->mtx);
	mutex_unlock(&epoll_mutex);
	cancel_work_sync(&ep->poll_work);	/* no item is left to queue it again */
	kfree(ep);
}

static const struct file_operations eventpoll_ops = {
	.poll = eventpoll_poll,
	.release = eventpoll_release,
};

/* --- system calls --- */

static struct eventpoll *ep_alloc(void)
{
	struct eventpoll *ep = kmalloc(sizeof(*ep), GFP_KERNEL);

	if (!ep)
		return NULL;
	memset(ep, 0, sizeof(*ep));
	mutex_init(&ep->mtx);
	INIT_LIST_HEAD(&ep->items);
	INIT_LIST_HEAD(&ep->nested);
	spin_lock_init(&ep->lock, "eventpoll");
	INIT_LIST_HEAD(&ep->rdlist);
	init_waitqueue_head(&ep->wq);
	init_waitqueue_head(&ep->poll_wait);
	INIT_WORK(&ep->poll_work, ep_poll_work);
	return ep;
}

long sys_epoll_create1(int flags)
{
	struct eventpoll *ep;
	struct file *f;
	int fd;

	if (flags & ~EPOLL_CLOEXEC)
		return -EINVAL;
	if (!(ep = ep_alloc()))
		return -ENOMEM;
	f = anon_file_alloc(&eventpoll_ops, ep, FMODE_READ | FMODE_WRITE, O_RDWR);
	if (!f) {
		kfree(ep);
		return -ENOMEM;
	}
	ep->file = f;
	fd = fd_install_from(current->files, f, 0, flags & EPOLL_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}

long sys_epoll_create(int size)
{
	return size <= 0 ? -EINVAL : sys_epoll_create1(0);
}

/* The checks of epoll_ctl that need no lock, in Linux's order. */
static int ep_ctl_check(struct file *f, struct file *tf, int op, const struct epoll_event *ev)
{
	if (!tf->f_op || !tf->f_op->poll)
		return -EPERM;		/* regular files, directories, /dev/null */
	if (!is_epoll(f) || f == tf)
		return -EINVAL;
	if (op != EPOLL_CTL_DEL && (ev->events & EPOLLEXCLUSIVE) &&
	    (op == EPOLL_CTL_MOD || is_epoll(tf) || (ev->events & ~EP_EXCLUSIVE_OK)))
		return -EINVAL;
	return 0;
}

/* ADD, MOD or DEL under the locks (ep->mtx, and epoll_mutex when the graph of
 * instances changes). */
static int ep_ctl_locked(struct eventpoll *ep, int op, struct file *tf, int fd,
			 const struct epoll_event *ev)
{
	struct epitem *epi = ep_find(ep, tf, fd);

	switch (op) {
	case EPOLL_CTL_ADD:
		if (epi)
			return -EEXIST;
		if (is_epoll(tf) && ep_loop_check(ep, tf->private_data))
			return -ELOOP;
		return ep_insert(ep, ev, tf, fd);
	case EPOLL_CTL_DEL:
		if (!epi)
			return -ENOENT;
		ep_remove(ep, epi);
		return 0;
	case EPOLL_CTL_MOD:
		if (!epi)
			return -ENOENT;
		return ep_modify(ep, epi, ev);
	}
	return -EINVAL;
}

long sys_epoll_ctl(int epfd, int op, int fd, struct epoll_event *uev)
{
	struct epoll_event ev = { 0, 0 };
	struct file *f, *tf = NULL;
	bool graph;
	long err;

	if (op != EPOLL_CTL_DEL && copy_from_user(&ev, uev, sizeof(ev)))
		return -EFAULT;
	ev.events &= ~EPOLLWAKEUP;	/* no suspend: no wake source to keep */
	if (!(f = fget(epfd)))
		return -EBADF;
	err = -EBADF;
	if (!(tf = fget(fd)) || (err = ep_ctl_check(f, tf, op, &ev)))
		goto out;
	graph = is_epoll(tf) && op != EPOLL_CTL_MOD;
	if (graph)
		mutex_lock(&epoll_mutex);
	mutex_lock(&((struct eventpoll *)f->private_data)->mtx);
	err = ep_ctl_locked(f->private_data, op, tf, fd, &ev);
	mutex_unlock(&((struct eventpoll *)f->private_data)->mtx);
	if (graph)
		mutex_unlock(&epoll_mutex);
out:
	if (tf)
		fput(tf);
	fput(f);
	return err;
}

/* Sleep on ep->wq until an item is ready, a signal is pending or deadline
 * (CLOCK_MONOTONIC ns) passes. */
static void ep_sleep(struct eventpoll *ep, u64 deadline)
{
	DEFINE_WAIT(w);
	u64 now = ktime_get_ns();
	long jiffies = deadline == NO_DEADLINE ? MAX_SCHEDULE_TIMEOUT :
		       deadline > now ? (long)MAX(1ul, nsecs_to_jiffies(deadline - now)) : 0;

	prepare_to_wait(&ep->wq, &w, TASK_INTERRUPTIBLE);
	if (jiffies && list_empty(&ep->rdlist) && !signal_pending(current))
		schedule_timeout(jiffies);
	finish_wait(&ep->wq, &w);
}

/* epoll_wait's loop: events reported, 0 on timeout, -EINTR, -EFAULT. */
static long ep_wait(struct eventpoll *ep, struct epoll_event *uev, int max, int timeout)
{
	u64 deadline = timeout < 0 ? NO_DEADLINE : ktime_get_ns() + timeout * 1000000ull;
	bool expired = timeout == 0;
	long n;

	for (;;) {
		n = ep_send_events(ep, uev, max);
		if (n || expired)
			return n;
		if (signal_pending(current))
			return -EINTR;	/* never restarted, as Linux's */
		ep_sleep(ep, deadline);
		expired = deadline != NO_DEADLINE && ktime_get_ns() >= deadline;
	}
}

long sys_epoll_wait(int epfd, struct epoll_event *uev, int maxevents, int timeout)
{
	struct file *f;
	long n;

	if (maxevents <= 0 || (u32)maxevents > EP_MAX_EVENTS)
		return -EINVAL;
	if (!access_ok(uev, maxevents * sizeof(*uev)))
		return -EFAULT;
	if (!(f = fget(epfd)))
		return -EBADF;
	n = is_epoll(f) ? ep_wait(f->private_data, uev, maxevents, timeout) : -EINVAL;
	fput(f);
	return n;
}

/* epoll_wait under a signal mask for the wait (as ppoll's). */
long sys_epoll_pwait(int epfd, struct epoll_event *uev, int maxevents, int timeout,
		     const struct kernel_sigset *umask, unsigned sigsetsize)
{
	struct kernel_sigset k;
	long n;

	if (!umask)
		return sys_epoll_wait(epfd, uev, maxevents, timeout);
	if (sigsetsize != KSIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&k, umask, sizeof(k)))
		return -EFAULT;
	signal_set_temp_mask(k.sig[0] | (u64)k.sig[1] << 32);
	n = sys_epoll_wait(epfd, uev, maxevents, timeout);
	signal_restore_temp_mask(n == -EINTR);
	return n;
}
