/* itimer.h: a thread group's interval timers: setitimer/getitimer and alarm (kernel/itimer.c), and its POSIX timers (kernel/posix_timer.c).
 *
 * struct proc_timers lives in the group's signal_struct. Its lock (irq-safe:
 * the real timer runs in softirq context, the CPU timers are charged from the
 * tick's hard irq) guards every field but the POSIX timers' list, which
 * posix_lock (a mutex) also guards for the system calls. Lock order: the
 * timers' lock is never held while a signal is sent or a sighand lock is
 * taken; collect_signal (sighand lock held) takes it to read an overrun.
 */
#ifndef ITIMER_H
#define ITIMER_H

#include "list.h"
#include "mutex.h"
#include "spinlock.h"
#include "timer.h"
#include "types.h"

struct signal_struct;
struct task;
struct kernel_siginfo;

/* A timer on CLOCK_MONOTONIC (ns), fired by a kernel timer at the first tick
 * at or after it: ITIMER_REAL and the POSIX timers. */
struct mono_timer {
	struct timer_list tl;
	u64 expires_ns;			/* 0: disarmed */
	u64 interval_ns;		/* 0: one shot */
};

/* ITIMER_VIRTUAL / ITIMER_PROF: CPU time left, charged a tick at a time. */
struct cpu_itimer {
	u64 value_ns;			/* 0: disarmed */
	u64 interval_ns;
};

struct proc_timers {
	spinlock_t lock;
	struct mono_timer real;		/* ITIMER_REAL, alarm */
	struct cpu_itimer cpu[2];	/* [0] ITIMER_VIRTUAL, [1] ITIMER_PROF */
	struct mutex posix_lock;	/* the system calls on the list below */
	struct list_head posix;		/* struct posix_timer, under both locks */
	int tgid;			/* the group's pid (its signals are sent by it,
					 * under tasklist_lock: the leader may be
					 * replaced and freed by a thread's exec) */
	int next_id;			/* the next POSIX timer id to try */
	int nr_posix;
};

/* A new group's timers: none armed (fork clears them: setitimer(2)). */
void itimers_init(struct signal_struct *s);
/* The group ends: every timer stopped, the callbacks finished. Thread
 * context (del_timer_sync). */
void itimers_exit(struct signal_struct *s);
/* The tick charges the running task p (a process; user: it was in user mode):
 * the CPU timers count down and send SIGVTALRM / SIGPROF. Hard irq. */
void itimer_tick(struct task *p, bool user);

/* Send info to group s, found by its pid under tasklist_lock (any context):
 * 0, or -ESRCH when it is gone. */
int proc_timers_send(struct signal_struct *s, const struct kernel_siginfo *info);

/* Arm mt (expires_ns set, lock held) at the tick that follows it. */
void mono_timer_arm(struct mono_timer *mt);
/* mt's kernel timer ran (softirq): true when its deadline has passed, with a
 * periodic timer moved on past now (*skipped: the expiries it jumped) and
 * armed again, a one-shot one disarmed. A timer re-set meanwhile is read
 * under lock (the timers' lock): a deadline not reached yet is armed again. */
bool mono_timer_expire(struct mono_timer *mt, spinlock_t *lock, u32 *skipped);

/* POSIX timers (kernel/posix_timer.c). */
void posix_timers_init(struct signal_struct *s);
/* exec and the group's end: every POSIX timer is deleted. Thread context. */
void posix_timers_exit(struct signal_struct *s);
/* collect_signal took a SI_TIMER signal's info (sighand lock held): its
 * overrun becomes what timer_getoverrun reports. */
void posix_timer_delivered(struct signal_struct *s, const struct kernel_siginfo *info);

#endif
