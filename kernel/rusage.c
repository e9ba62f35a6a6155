/* rusage.c: process times: run time split into user and system time, times (43), getrusage (77), wait4's rusage. */
#include "clock.h"
#include "errno.h"
#include "rusage.h"
#include "sched.h"
#include "signal.h"
#include "spinlock.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"

/*
 * A task's CPU time is exact: the TSC cycles it ran (task->exec_cycles,
 * charged at each switch and tick by its CPU: kernel/sched.c). The split
 * into user and system time is sampled: each tick counts one user or one
 * system sample for the task it interrupted, and the run time is divided in
 * their ratio (Linux's cputime_adjust idea), so a late tick, a host that
 * stalls a vCPU or a migration between ticks moves time between the two
 * halves at most by a sample's share, never loses it. What a task was last
 * told (rep_utime, rep_stime) never goes back, under its sighand lock.
 * A thread group keeps the sums of its exited threads and of its reaped
 * children (signal_struct), so that a process's time outlives its threads
 * and a parent sees its children's. Everything is in ns; the ABI reports
 * USER_HZ clock ticks and timevals. getrusage's other fields are 0.
 */

/* a * b / c for b <= c, without overflow for any 64-bit a. */
static u64 scale_time(u64 a, u32 b, u32 c)
{
	return (a / c) * b + (a % c) * b / c;
}

/* t's user and system ns so far; t->sighand->lock held. */
static void task_cputime(struct task *t, u64 *ut, u64 *st)
{
	u64 rtime = sched_exec_ns(t), u, s;
	u32 nu = READ_ONCE(t->user_ticks), ns = READ_ONCE(t->sys_ticks);

	if (rtime < t->rep_utime + t->rep_stime)	/* a read without the current stint */
		rtime = t->rep_utime + t->rep_stime;
	u = ns ? scale_time(rtime, nu, nu + ns) : rtime;
	s = MAX(rtime - u, t->rep_stime);
	u = rtime - s;
	if (u < t->rep_utime) {
		u = t->rep_utime;
		s = rtime - u;
	}
	*ut = t->rep_utime = u;
	*st = t->rep_stime = s;
}

void rusage_thread_exit(struct task *t, struct signal_struct *s)
{
	u64 ut, st;

	task_cputime(t, &ut, &st);
	s->utime += ut;
	s->stime += st;
}

/* The group's user and system ns: exited threads and the live ones. */
static void group_ticks(struct task *t, u64 *ut, u64 *st)
{
	struct signal_struct *s = t->signal;
	struct task *th;
	u64 u, sy;
	u32 flags;

	spin_lock_irqsave(&t->sighand->lock, flags);
	*ut = s->utime;
	*st = s->stime;
	list_for_each_entry(th, &s->threads, thread_node) {
		task_cputime(th, &u, &sy);
		*ut += u;
		*st += sy;
	}
	spin_unlock_irqrestore(&t->sighand->lock, flags);
}

void rusage_reap(struct task *parent, struct task *c)
{
	struct signal_struct *ps = parent->signal, *cs = c->signal;
	u64 ut, st;
	u32 flags;

	group_ticks(c, &ut, &st);
	spin_lock_irqsave(&parent->sighand->lock, flags);
	ps->cutime += ut + cs->cutime;
	ps->cstime += st + cs->cstime;
	spin_unlock_irqrestore(&parent->sighand->lock, flags);
}

u64 rusage_cpu_ns(bool thread)
{
	u64 ut, st;

	if (thread)
		return sched_exec_ns(current);
	group_ticks(current, &ut, &st);
	return ut + st;
}

static void ns_to_timeval(u64 ns, long *sec, long *usec)
{
	u64 us = ns / NSEC_PER_USEC;

	*sec = (long)(us / 1000000);
	*usec = (long)(us % 1000000);
}

static void fill(struct kernel_rusage *ru, u64 ut, u64 st)
{
	memset(ru, 0, sizeof(*ru));
	ns_to_timeval(ut, &ru->ru_utime.tv_sec, &ru->ru_utime.tv_usec);
	ns_to_timeval(st, &ru->ru_stime.tv_sec, &ru->ru_stime.tv_usec);
}

void rusage_of_child(struct task *c, struct kernel_rusage *ru)
{
	u64 ut, st;

	group_ticks(c, &ut, &st);
	fill(ru, ut + c->signal->cutime, st + c->signal->cstime);
}

long sys_getrusage(int who, struct kernel_rusage *uru)
{
	struct kernel_rusage ru;
	u64 ut, st;

	switch (who) {
	case RUSAGE_SELF:
		group_ticks(current, &ut, &st);
		break;
	case RUSAGE_CHILDREN:
		ut = current->signal->cutime;
		st = current->signal->cstime;
		break;
	case RUSAGE_THREAD: {
		u32 flags;

		spin_lock_irqsave(&current->sighand->lock, flags);
		task_cputime(current, &ut, &st);
		spin_unlock_irqrestore(&current->sighand->lock, flags);
		break;
	}
	default:
		return -EINVAL;
	}
	fill(&ru, ut, st);
	return copy_to_user(uru, &ru, sizeof(ru)) ? -EFAULT : 0;
}

static long to_clock_t(u64 ns)
{
	return (long)(ns / (NSEC_PER_SEC / USER_HZ));
}

/* Clock ticks since boot (wrapping as a long does, as on Linux); buf may be NULL. */
long sys_times(struct kernel_tms *ubuf)
{
	struct kernel_tms t;
	u64 ut, st;

	if (ubuf) {
		group_ticks(current, &ut, &st);
		t.tms_utime = to_clock_t(ut);
		t.tms_stime = to_clock_t(st);
		t.tms_cutime = to_clock_t(current->signal->cutime);
		t.tms_cstime = to_clock_t(current->signal->cstime);
		if (copy_to_user(ubuf, &t, sizeof(t)))
			return -EFAULT;
	}
	return (long)(get_jiffies_64() * USER_HZ / HZ);
}
