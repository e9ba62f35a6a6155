/* itimer.c: interval timers: setitimer (104), getitimer (105) and alarm (27) sharing ITIMER_REAL; ITIMER_VIRTUAL and ITIMER_PROF charged by the tick. */
#include "clock.h"
#include "errno.h"
#include "itimer.h"
#include "sched.h"
#include "signal.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/time.h"

/*
 * ITIMER_REAL is a CLOCK_MONOTONIC deadline with a kernel timer behind it
 * (struct mono_timer, shared with the POSIX timers): its callback sends
 * SIGALRM to the group and moves a periodic timer on past now (expiries that
 * came while the signal was still pending are lost, as on Linux). The CPU
 * timers count down by one tick's length at each tick that finds a thread of
 * the group running (in user mode only, for ITIMER_VIRTUAL): tick
 * granularity, as Linux's were before high-resolution timers. fork gives the
 * child none (a new signal_struct); exec keeps them (setitimer(2)).
 */

#define ITIMER_CPU_FIRST	ITIMER_VIRTUAL

static u64 tv_to_ns(const struct kernel_timeval *tv)
{
	return (u64)tv->tv_sec * NSEC_PER_SEC + (u64)tv->tv_usec * NSEC_PER_USEC;
}

/* Rounded up to a microsecond: a live timer never reads as 0. */
static void ns_to_tv(u64 ns, struct kernel_timeval *tv)
{
	u64 us = (ns + NSEC_PER_USEC - 1) / NSEC_PER_USEC;

	tv->tv_sec = (long)(us / 1000000);
	tv->tv_usec = (long)(us % 1000000);
}

static bool tv_valid(const struct kernel_timeval *tv)
{
	return tv->tv_sec >= 0 && tv->tv_usec >= 0 && tv->tv_usec < 1000000;
}

/* A deadline further than this is armed at this distance, and again from
 * there (jiffies are 32 bits wide). */
#define MONO_ARM_MAX_NS		(86400ull * NSEC_PER_SEC)

void mono_timer_arm(struct mono_timer *mt)
{
	u64 limit = ktime_get_ns() + MONO_ARM_MAX_NS;

	mod_timer(&mt->tl, ktime_mono_to_jiffies(MIN(mt->expires_ns, limit)));
}

/* After an expiry at now: a periodic timer's next one moved past now, and
 * the expiries skipped (capped at INT_MAX); else disarmed. Lock held. */
static u32 mono_timer_forward(struct mono_timer *mt, u64 now)
{
	u64 skipped;

	if (!mt->interval_ns) {
		mt->expires_ns = 0;
		return 0;
	}
	skipped = now > mt->expires_ns ? (now - mt->expires_ns) / mt->interval_ns : 0;
	mt->expires_ns += (skipped + 1) * mt->interval_ns;
	return skipped > 0x7fffffff ? 0x7fffffff : (u32)skipped;
}

bool mono_timer_expire(struct mono_timer *mt, spinlock_t *lock, u32 *skipped)
{
	u64 now = ktime_get_ns();
	bool fire = false;
	u32 flags;

	*skipped = 0;
	spin_lock_irqsave(lock, flags);
	if (mt->expires_ns && now >= mt->expires_ns) {
		fire = true;
		*skipped = mono_timer_forward(mt, now);
	}
	if (mt->expires_ns)
		mono_timer_arm(mt);
	spin_unlock_irqrestore(lock, flags);
	return fire;
}

struct group_send {
	struct signal_struct *s;
	const struct kernel_siginfo *info;
};

/* task_call callback (tasklist_lock held: t cannot be freed meanwhile). */
static int group_send_one(struct task *t, void *arg)
{
	struct group_send *g = arg;

	if (t->signal != g->s)
		return -ESRCH;
	return send_signal(g->info->si_signo, g->info, t, true);
}

int proc_timers_send(struct signal_struct *s, const struct kernel_siginfo *info)
{
	struct group_send g = { s, info };

	return task_call(s->timers.tgid, group_send_one, &g);
}

static void send_group(struct signal_struct *s, int sig)
{
	struct kernel_siginfo info;

	memset(&info, 0, sizeof(info));
	info.si_signo = sig;
	info.si_code = SI_KERNEL;
	proc_timers_send(s, &info);
}

/* ITIMER_REAL's kernel timer: softirq. */
static void itimer_real_fire(unsigned long data)
{
	struct signal_struct *s = (struct signal_struct *)data;
	u32 skipped;

	if (mono_timer_expire(&s->timers.real, &s->timers.lock, &skipped))
		send_group(s, SIGALRM);
}

void itimers_init(struct signal_struct *s)
{
	struct proc_timers *pt = &s->timers;

	memset(pt, 0, sizeof(*pt));
	spin_lock_init(&pt->lock, "itimers");
	setup_timer(&pt->real.tl, itimer_real_fire, (unsigned long)s);
	posix_timers_init(s);
}

void itimers_exit(struct signal_struct *s)
{
	struct proc_timers *pt = &s->timers;
	u32 flags;

	spin_lock_irqsave(&pt->lock, flags);
	pt->real.expires_ns = 0;
	pt->cpu[0].value_ns = pt->cpu[1].value_ns = 0;
	spin_unlock_irqrestore(&pt->lock, flags);
	del_timer_sync(&pt->real.tl);
	posix_timers_exit(s);
}

/* A CPU timer charged ns: true when it expired (reloaded from its interval). */
static bool cpu_itimer_charge(struct cpu_itimer *it, u64 ns)
{
	if (!it->value_ns)
		return false;
	if (it->value_ns > ns) {
		it->value_ns -= ns;
		return false;
	}
	it->value_ns = it->interval_ns;
	return true;
}

void itimer_tick(struct task *p, bool user)
{
	struct signal_struct *s = p->signal;
	struct proc_timers *pt;
	bool fire[2] = { false, false };

	if (!s)
		return;
	pt = &s->timers;
	if (!READ_ONCE(pt->cpu[0].value_ns) && !READ_ONCE(pt->cpu[1].value_ns))
		return;				/* the common case: no lock */
	spin_lock(&pt->lock);			/* hard irq: interrupts are off */
	if (user)
		fire[0] = cpu_itimer_charge(&pt->cpu[0], TICK_NSEC);
	fire[1] = cpu_itimer_charge(&pt->cpu[1], TICK_NSEC);
	spin_unlock(&pt->lock);
	if (fire[0])
		send_group(s, SIGVTALRM);
	if (fire[1])
		send_group(s, SIGPROF);
}

/* Timer which as it stands at now: time left and interval (lock held). */
static void itimer_get_locked(struct proc_timers *pt, int which, u64 now,
			      struct kernel_itimerval *v)
{
	u64 value, interval;

	if (which == ITIMER_REAL) {
		value = pt->real.expires_ns;
		if (value)
			value = value > now ? value - now : 1;	/* due, not fired yet */
		interval = pt->real.interval_ns;
	} else {
		value = pt->cpu[which - ITIMER_CPU_FIRST].value_ns;
		interval = pt->cpu[which - ITIMER_CPU_FIRST].interval_ns;
	}
	ns_to_tv(value, &v->it_value);
	ns_to_tv(interval, &v->it_interval);
}

/* Set timer which to v (NULL: disarm), the old setting in *old. */
static void itimer_set(int which, const struct kernel_itimerval *v, struct kernel_itimerval *old)
{
	struct proc_timers *pt = &current->signal->timers;
	u64 value = v ? tv_to_ns(&v->it_value) : 0, interval = v ? tv_to_ns(&v->it_interval) : 0;
	u64 now = ktime_get_ns();
	u32 flags;

	spin_lock_irqsave(&pt->lock, flags);
	itimer_get_locked(pt, which, now, old);
	if (which == ITIMER_REAL) {
		pt->real.interval_ns = value ? interval : 0;	/* as Linux */
		pt->real.expires_ns = value ? now + value : 0;
		if (value)
			mono_timer_arm(&pt->real);
		else
			del_timer(&pt->real.tl);	/* a running callback sees 0 */
	} else {				/* the interval stays, as Linux's */
		pt->cpu[which - ITIMER_CPU_FIRST].value_ns = value;
		pt->cpu[which - ITIMER_CPU_FIRST].interval_ns = interval;
	}
	spin_unlock_irqrestore(&pt->lock, flags);
}

static bool which_valid(int which)
{
	return which == ITIMER_REAL || which == ITIMER_VIRTUAL || which == ITIMER_PROF;
}

long sys_getitimer(int which, struct kernel_itimerval *uvalue)
{
	struct proc_timers *pt = &current->signal->timers;
	struct kernel_itimerval v;
	u32 flags;

	if (!which_valid(which))
		return -EINVAL;
	spin_lock_irqsave(&pt->lock, flags);
	itimer_get_locked(pt, which, ktime_get_ns(), &v);
	spin_unlock_irqrestore(&pt->lock, flags);
	return copy_to_user(uvalue, &v, sizeof(v)) ? -EFAULT : 0;
}

/* uvalue NULL disarms (Linux's reading of a NULL new value). */
long sys_setitimer(int which, const struct kernel_itimerval *uvalue, struct kernel_itimerval *uold)
{
	struct kernel_itimerval v, old;

	if (!which_valid(which))
		return -EINVAL;
	if (uvalue && copy_from_user(&v, uvalue, sizeof(v)))
		return -EFAULT;
	if (uvalue && (!tv_valid(&v.it_value) || !tv_valid(&v.it_interval)))
		return -EINVAL;
	if (uold && !access_ok(uold, sizeof(old)))
		return -EFAULT;
	itimer_set(which, uvalue ? &v : NULL, &old);
	return uold && copy_to_user(uold, &old, sizeof(old)) ? -EFAULT : 0;
}

/* setitimer(ITIMER_REAL) in whole seconds; returns the seconds that were
 * left, rounded to the nearest (at least 1 when some time was left), as Linux. */
long sys_alarm(unsigned seconds)
{
	struct kernel_itimerval v, old;

	memset(&v, 0, sizeof(v));
	v.it_value.tv_sec = seconds > 0x7fffffff ? 0x7fffffff : (long)seconds;
	itimer_set(ITIMER_REAL, seconds ? &v : NULL, &old);
	if ((!old.it_value.tv_sec && old.it_value.tv_usec) || old.it_value.tv_usec >= 500000)
		old.it_value.tv_sec++;
	return old.it_value.tv_sec;
}
