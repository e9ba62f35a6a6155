/* posix_timer.c: POSIX per-process timers: timer_create (259), timer_settime (260), timer_gettime (261), timer_getoverrun (262), timer_delete (263) on CLOCK_REALTIME and CLOCK_MONOTONIC. */
#include "clock.h"
#include "errno.h"
#include "itimer.h"
#include "sched.h"
#include "signal.h"
#include "slab.h"
#include "string.h"
#include "syscall_table.h"
#include "test_hooks.h"
#include "uaccess.h"
#include "uapi/time.h"

/*
 * A timer belongs to its thread group (struct proc_timers, in the
 * signal_struct): fork gives the child none, exec and the group's end delete
 * them all. Its expiry is a CLOCK_MONOTONIC deadline (struct mono_timer):
 * CLOCK_REALTIME cannot be set here, so an absolute realtime value converts
 * once, at timer_settime. At each expiry the callback (softirq) sends the
 * timer's signal with si_code SI_TIMER, si_timerid, si_value; while that
 * signal is still queued, further expiries only add to its si_overrun (a
 * periodic timer whose callback came late adds the periods it skipped).
 * When the signal is taken, its overrun becomes timer_getoverrun's answer.
 * Ids count up from 0 (a deleted id comes back only after 2^31 more).
 */

#define POSIX_TIMERS_MAX	256	/* per process; beyond: -EAGAIN */
#define OVERRUN_MAX		0x7fffffff	/* DELAYTIMER_MAX */

struct posix_timer {
	struct list_head node;		/* in proc_timers.posix */
	struct signal_struct *s;
	struct mono_timer mt;
	int id;
	int clock;			/* CLOCK_REALTIME or CLOCK_MONOTONIC */
	int notify;			/* KSIGEV_SIGNAL, _NONE or _THREAD_ID */
	int signo;
	int tid;			/* KSIGEV_THREAD_ID's thread */
	union kernel_sigval value;
	int overrun_last;		/* of the last signal taken */
};

void posix_timers_init(struct signal_struct *s)
{
	mutex_init(&s->timers.posix_lock);
	INIT_LIST_HEAD(&s->timers.posix);
}

/* The timer with this id (either lock held), or NULL. */
static struct posix_timer *timer_find(struct proc_timers *ts, int id)
{
	struct posix_timer *pt;

	list_for_each_entry(pt, &ts->posix, node)
		if (pt->id == id)
			return pt;
	return NULL;
}

static int sat_add(int a, u32 b)
{
	return (u64)a + b > OVERRUN_MAX ? OVERRUN_MAX : a + (int)b;
}

/* The timer's signal to t (group: its process): a copy still queued only
 * counts the expiries as overruns. Under t's sighand lock for the look-up. */
static int timer_send(struct task *t, bool group, const struct kernel_siginfo *info)
{
	struct sighand_struct *sh;
	struct list_head *q;
	struct sigqueue *e;
	bool counted = false;
	u32 flags;

	ktest_timer_send_delay(t->state == TASK_ZOMBIE);	/* test kernel */
	sh = t->sighand;
	if (!sh)
		return 0;
	spin_lock_irqsave(&sh->lock, flags);
	q = group ? &t->signal->shared_q : &t->pending_q;
	list_for_each_entry(e, q, list)
		if (e->info.si_code == SI_TIMER && e->info.f.timer.tid == info->f.timer.tid) {
			e->info.f.timer.overrun = sat_add(e->info.f.timer.overrun,
							  1 + (u32)info->f.timer.overrun);
			counted = true;
			break;
		}
	spin_unlock_irqrestore(&sh->lock, flags);
	return counted ? 0 : send_signal(info->si_signo, info, t, group);
}

struct thread_send {
	struct signal_struct *s;
	const struct kernel_siginfo *info;
};

/* task_call callback (tasklist_lock held): the thread, if still of the group. */
static int thread_send(struct task *t, void *arg)
{
	struct thread_send *ta = arg;

	if (t->signal != ta->s || t->state == TASK_ZOMBIE || t->state == TASK_DEAD)
		return -ESRCH;
	return timer_send(t, false, ta->info);
}

/* task_call callback (tasklist_lock held): the group's leader, if still it. */
static int group_timer_send(struct task *t, void *arg)
{
	struct thread_send *ta = arg;

	if (t->signal != ta->s)
		return -ESRCH;
	return timer_send(t, true, ta->info);
}

/* The kernel timer: softirq. */
static void posix_timer_fire(unsigned long data)
{
	struct posix_timer *pt = (struct posix_timer *)data;
	struct kernel_siginfo info;
	struct thread_send ta = { pt->s, &info };
	u32 skipped;

	if (!mono_timer_expire(&pt->mt, &pt->s->timers.lock, &skipped) ||
	    pt->notify == KSIGEV_NONE)
		return;
	memset(&info, 0, sizeof(info));
	info.si_signo = pt->signo;
	info.si_code = SI_TIMER;
	info.f.timer.tid = pt->id;
	info.f.timer.overrun = (int)skipped;
	info.f.timer.value = pt->value;
	if (pt->notify == KSIGEV_THREAD_ID)
		task_call(pt->tid, thread_send, &ta);	/* a thread gone: dropped */
	else				/* by pid: s->leader may be freed by an exec */
		task_call(pt->s->timers.tgid, group_timer_send, &ta);
}

void posix_timer_delivered(struct signal_struct *s, const struct kernel_siginfo *info)
{
	struct proc_timers *ts = &s->timers;
	struct posix_timer *pt;
	u32 flags;

	spin_lock_irqsave(&ts->lock, flags);
	pt = timer_find(ts, info->f.timer.tid);
	if (pt)
		pt->overrun_last = info->f.timer.overrun;
	spin_unlock_irqrestore(&ts->lock, flags);
}

/* Unlinked (under the timers' lock too), stopped, freed. posix_lock held. */
static void timer_destroy(struct proc_timers *ts, struct posix_timer *pt)
{
	u32 flags;

	spin_lock_irqsave(&ts->lock, flags);
	list_del(&pt->node);
	pt->mt.expires_ns = 0;		/* a running callback arms nothing more */
	ts->nr_posix--;
	spin_unlock_irqrestore(&ts->lock, flags);
	del_timer_sync(&pt->mt.tl);
	kfree(pt);
}

void posix_timers_exit(struct signal_struct *s)
{
	struct proc_timers *ts = &s->timers;

	mutex_lock(&ts->posix_lock);
	while (!list_empty(&ts->posix))
		timer_destroy(ts, list_first_entry(&ts->posix, struct posix_timer, node));
	mutex_unlock(&ts->posix_lock);
}

/* A thread of the caller's group with this tid? */
static int same_group(struct task *t, void *arg)
{
	return t->signal == arg && t->state != TASK_ZOMBIE && t->state != TASK_DEAD ? 0 : -ESRCH;
}

/* Check a sigevent as Linux does, filling pt's notification; 0 or -EINVAL. */
static int sigevent_apply(struct posix_timer *pt, const struct kernel_sigevent *ev)
{
	pt->notify = ev->sigev_notify == KSIGEV_THREAD ? KSIGEV_SIGNAL : ev->sigev_notify;
	pt->signo = ev->sigev_signo;
	pt->value = ev->sigev_value;
	switch (pt->notify) {
	case KSIGEV_NONE:
		return 0;
	case KSIGEV_THREAD_ID:
		pt->tid = ev->un.tid;
		if (pt->tid <= 0 || task_call(pt->tid, same_group, current->signal))
			return -EINVAL;
		/* fall through */
	case KSIGEV_SIGNAL:
		return pt->signo >= 1 && pt->signo <= KNSIG ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

/* A free id (both locks held): the next one up, skipping those in use. */
static int timer_new_id(struct proc_timers *ts)
{
	int id;

	do {
		id = ts->next_id;
		ts->next_id = ts->next_id == 0x7fffffff ? 0 : ts->next_id + 1;
	} while (timer_find(ts, id));
	return id;
}

/* Link pt with a new id: the id, or -EAGAIN past the limit. posix_lock held. */
static int timer_link(struct proc_timers *ts, struct posix_timer *pt, bool default_value)
{
	u32 flags;
	int id = -EAGAIN;

	spin_lock_irqsave(&ts->lock, flags);
	if (ts->nr_posix < POSIX_TIMERS_MAX) {
		id = pt->id = timer_new_id(ts);
		if (default_value)
			pt->value.sival_int = id;	/* sevp NULL: SIGALRM, value = id */
		list_add_tail(&pt->node, &ts->posix);
		ts->nr_posix++;
	}
	spin_unlock_irqrestore(&ts->lock, flags);
	return id;
}

long sys_timer_create(int clock, struct kernel_sigevent *uevp, int *uid)
{
	struct proc_timers *ts = &current->signal->timers;
	struct kernel_sigevent ev = { .sigev_signo = SIGALRM, .sigev_notify = KSIGEV_SIGNAL };
	struct posix_timer *pt;
	long id, err;

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return -EINVAL;
	if ((uevp && copy_from_user(&ev, uevp, sizeof(ev))) || !access_ok(uid, sizeof(int)))
		return -EFAULT;
	pt = kmalloc(sizeof(*pt), GFP_KERNEL);
	if (!pt)
		return -EAGAIN;			/* Linux's answer to no memory here */
	memset(pt, 0, sizeof(*pt));
	pt->s = current->signal;
	pt->clock = clock;
	setup_timer(&pt->mt.tl, posix_timer_fire, (unsigned long)pt);
	err = sigevent_apply(pt, &ev);
	if (err) {
		kfree(pt);
		return err;
	}
	mutex_lock(&ts->posix_lock);
	id = timer_link(ts, pt, !uevp);
	if (id >= 0 && put_user((int)id, uid)) {
		timer_destroy(ts, pt);
		id = -EFAULT;
	} else if (id < 0) {
		kfree(pt);
	}
	mutex_unlock(&ts->posix_lock);
	return id < 0 ? id : 0;
}

static void ns_to_its(u64 value, u64 interval, struct kernel_itimerspec *its)
{
	ns_to_timespec(value, &its->it_value);
	ns_to_timespec(interval, &its->it_interval);
}

/* What timer_gettime shows (timers' lock held): the time to the next expiry
 * (1 ns when due and not yet fired), the interval. */
static void timer_get_locked(struct posix_timer *pt, u64 now, struct kernel_itimerspec *its)
{
	u64 exp = pt->mt.expires_ns;

	ns_to_its(exp ? (exp > now ? exp - now : 1) : 0, pt->mt.interval_ns, its);
}

static bool ts_valid(const struct kernel_timespec *ts)
{
	return ts->tv_sec >= 0 && ts->tv_nsec >= 0 && ts->tv_nsec < 1000000000L;
}

/* The CLOCK_MONOTONIC deadline of an it_value (ns) set at now (monotonic). */
static u64 timer_deadline(struct posix_timer *pt, u64 value, bool abs, u64 now)
{
	u64 clock_now;

	if (!abs)
		return now + value;
	clock_now = pt->clock == CLOCK_REALTIME ? ktime_get_real_ns() : now;
	return value > clock_now ? now + (value - clock_now) : now;	/* past: at once */
}

/* Set (posix_lock held, so pt stays): the old setting in *old. */
static void timer_set(struct posix_timer *pt, int flags, const struct kernel_itimerspec *its,
		      struct kernel_itimerspec *old)
{
	struct proc_timers *ts = &pt->s->timers;
	u64 value = timespec_to_ns(&its->it_value), now = ktime_get_ns();
	u32 irq;

	spin_lock_irqsave(&ts->lock, irq);
	timer_get_locked(pt, now, old);
	pt->mt.interval_ns = value ? timespec_to_ns(&its->it_interval) : 0;
	pt->mt.expires_ns = value ? timer_deadline(pt, value, flags & TIMER_ABSTIME, now) : 0;
	if (value)
		mono_timer_arm(&pt->mt);
	else
		del_timer(&pt->mt.tl);	/* a running callback sees 0 */
	spin_unlock_irqrestore(&ts->lock, irq);
}

long sys_timer_settime(int id, int flags, const struct kernel_itimerspec *unew,
		       struct kernel_itimerspec *uold)
{
	struct proc_timers *ts = &current->signal->timers;
	struct kernel_itimerspec its, old;
	struct posix_timer *pt;
	long err = 0;

	if (!unew)
		return -EINVAL;		/* Linux's answer to no new setting */
	if (copy_from_user(&its, unew, sizeof(its)) || (uold && !access_ok(uold, sizeof(old))))
		return -EFAULT;
	if (!ts_valid(&its.it_value) || !ts_valid(&its.it_interval) || (flags & ~TIMER_ABSTIME))
		return -EINVAL;
	mutex_lock(&ts->posix_lock);
	pt = timer_find(ts, id);
	if (pt)
		timer_set(pt, flags, &its, &old);
	else
		err = -EINVAL;
	mutex_unlock(&ts->posix_lock);
	if (!err && uold && copy_to_user(uold, &old, sizeof(old)))
		err = -EFAULT;
	return err;
}

long sys_timer_gettime(int id, struct kernel_itimerspec *ucur)
{
	struct proc_timers *ts = &current->signal->timers;
	struct kernel_itimerspec its;
	struct posix_timer *pt;
	u32 flags;

	spin_lock_irqsave(&ts->lock, flags);
	pt = timer_find(ts, id);
	if (pt)
		timer_get_locked(pt, ktime_get_ns(), &its);
	spin_unlock_irqrestore(&ts->lock, flags);
	if (!pt)
		return -EINVAL;
	return copy_to_user(ucur, &its, sizeof(its)) ? -EFAULT : 0;
}

long sys_timer_getoverrun(int id)
{
	struct proc_timers *ts = &current->signal->timers;
	struct posix_timer *pt;
	long n = -EINVAL;
	u32 flags;

	spin_lock_irqsave(&ts->lock, flags);
	pt = timer_find(ts, id);
	if (pt)
		n = pt->overrun_last;
	spin_unlock_irqrestore(&ts->lock, flags);
	return n;
}

long sys_timer_delete(int id)
{
	struct proc_timers *ts = &current->signal->timers;
	struct posix_timer *pt;

	mutex_lock(&ts->posix_lock);
	pt = timer_find(ts, id);
	if (pt)
		timer_destroy(ts, pt);
	mutex_unlock(&ts->posix_lock);
	return pt ? 0 : -EINVAL;
}
