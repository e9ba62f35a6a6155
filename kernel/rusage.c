/* rusage.c: process times: ticks charged to user or system time, times (43), getrusage (77), wait4's rusage. */
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
 * Each task counts the ticks that struck while it ran, split by the mode
 * the tick interrupted (task->utime, stime: scheduler_tick). A thread group keeps the sums
 * of its exited threads and of its reaped children (signal_struct), so that
 * a process's time outlives its threads and a parent sees its children's.
 * The counts are jiffies (HZ); the ABI reports USER_HZ clock ticks and
 * timevals. Only the times are measured: getrusage's other fields are 0.
 */

void rusage_thread_exit(struct task *t, struct signal_struct *s)
{
	s->utime += t->utime;
	s->stime += t->stime;
}

/* The group's user and system ticks: exited threads and the live ones. */
static void group_ticks(struct task *t, u64 *ut, u64 *st)
{
	struct signal_struct *s = t->signal;
	struct task *th;
	u32 flags;

	spin_lock_irqsave(&t->sighand->lock, flags);
	*ut = s->utime;
	*st = s->stime;
	list_for_each_entry(th, &s->threads, thread_node) {
		*ut += th->utime;
		*st += th->stime;
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
		return (current->utime + current->stime) * (1000000000ull / HZ);
	group_ticks(current, &ut, &st);
	return (ut + st) * (1000000000ull / HZ);
}

static void ticks_to_timeval(u64 ticks, long *sec, long *usec)
{
	u64 us = ticks * (1000000 / HZ);

	*sec = (long)(us / 1000000);
	*usec = (long)(us % 1000000);
}

static void fill(struct kernel_rusage *ru, u64 ut, u64 st)
{
	memset(ru, 0, sizeof(*ru));
	ticks_to_timeval(ut, &ru->ru_utime.tv_sec, &ru->ru_utime.tv_usec);
	ticks_to_timeval(st, &ru->ru_stime.tv_sec, &ru->ru_stime.tv_usec);
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
	case RUSAGE_THREAD:
		ut = current->utime;
		st = current->stime;
		break;
	default:
		return -EINVAL;
	}
	fill(&ru, ut, st);
	return copy_to_user(uru, &ru, sizeof(ru)) ? -EFAULT : 0;
}

static long to_clock_t(u64 ticks)
{
	return (long)(ticks * USER_HZ / HZ);
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
	return to_clock_t(get_jiffies_64());
}
