/* signal.h: the kernel's signal state: handlers (sighand), thread groups (signal_struct), queues, sending and delivery.
 *
 * Per thread group (struct signal_struct, shared by CLONE_THREAD): the
 * process-directed pending set and queue, the thread list, group exit and
 * group stop, the interval and POSIX timers. Per handler table (struct sighand_struct,
 * shared by CLONE_SIGHAND): the 64 actions and the lock. Per thread (struct
 * task): the mask, thread-directed pending signals, the alternate stack.
 *
 * Lock: sighand->lock (irq-safe: the alarm timer sends from softirq context)
 * guards all of it: actions, both pending sets and queues, blocked masks,
 * signal->threads, the group exit/stop state, and each task's sigpending and
 * fatal_pending. It nests inside nothing but family_lock, and only the
 * run-queue and wait-queue locks (wake-ups) nest inside it.
 */
#ifndef SIGNAL_H
#define SIGNAL_H

#include "atomic.h"
#include "itimer.h"
#include "list.h"
#include "spinlock.h"
#include "timer.h"
#include "types.h"
#include "uapi/signal.h"

struct task;
struct trap_frame;

#define SIGBIT(sig)		(1ull << ((sig) - 1))
#define SIG_KERNEL_ONLY		(SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))	/* never blocked */
#define SIG_STOP_SET		(SIGBIT(SIGSTOP) | SIGBIT(SIGTSTP) | SIGBIT(SIGTTIN) | SIGBIT(SIGTTOU))
#define SIGQUEUE_MAX		256	/* real-time signals queued per group, beyond: -EAGAIN */

/* Internal restart codes (never seen by user space; signal(7)'s rules). */
#define ERESTARTSYS		512	/* restart under SA_RESTART, else -EINTR */
#define ERESTARTNOINTR		513	/* always restart */
#define ERESTARTNOHAND		514	/* restart if no handler ran, else -EINTR */
#define ERESTART_RESTARTBLOCK	516	/* restart_syscall if no handler ran, else -EINTR */

struct sigqueue {
	struct list_head list;
	struct kernel_siginfo info;
};

struct sighand_struct {
	atomic_t count;			/* tasks sharing the table */
	spinlock_t lock;
	struct kernel_sigaction action[KNSIG];	/* action[sig - 1] */
};

#define SIGNAL_GROUP_EXIT	0x1	/* exit_group or a fatal signal: every thread exits */
#define SIGNAL_STOPPED		0x2	/* group stop in force (stop_sig) */
#define SIGNAL_REPORT_STOP	0x4	/* wait4 WUNTRACED has a stop to report */
#define SIGNAL_REPORT_CONT	0x8	/* wait4 WCONTINUED has a continue to report */

struct signal_struct {
	atomic_t count;			/* tasks (alive or unreaped) pointing here */
	struct task *leader;		/* the group leader (kept until the group is reaped) */
	int nr_threads;			/* threads not yet exited */
	struct list_head threads;	/* every live thread's thread_node */
	u64 shared_pending;		/* process-directed signals */
	struct list_head shared_q;
	int nr_queued;			/* sigqueue entries of the group (both queues) */
	u32 flags;			/* SIGNAL_* */
	int group_exit_code;		/* wait status once SIGNAL_GROUP_EXIT */
	int stop_sig;			/* the signal that stopped the group */
	int group_status;		/* the status wait4 reports when the group is gone */
	struct proc_timers timers;	/* setitimer, alarm, POSIX timers (include/itimer.h) */
	int pgrp, session;		/* process group and session: written under */
	bool did_exec;			/* family_lock (kernel/pgrp.c) */
	u64 utime, stime;		/* ns of its exited threads (rusage.c) */
	u64 cutime, cstime;		/* ... of its reaped children's groups */
};

/* Counters for the leak check (aiok_stat). */
extern atomic_t nr_sigqueues;
extern atomic_t nr_signal_structs;

/* Process layer (kernel/clone.c, kernel/proc.c) interface. */
struct signal_struct *signal_alloc(void);
struct sighand_struct *sighand_alloc(const struct sighand_struct *copy);
void sighand_put(struct sighand_struct *sh);
void signal_put(struct signal_struct *sig);
/* Give t the group and handlers of its creator (clone) or fresh ones; 0 or -ENOMEM. */
int signal_task_init(struct task *t, struct task *parent, u32 clone_flags);
/* A task that never ran leaves its group again (clone's error path). */
void signal_task_abort(struct task *t);
/* exec: kill every other thread of the current group. */
void signal_kill_others(void);
/* Thread t leaves its group's thread list (do_exit) with its wait status;
 * returns the group's final status for the last one (which then calls
 * signal_group_dead), else -1. */
int signal_thread_exit(struct task *t, int status);
/* The last thread of a group, after its parent was told: nr_threads drops to
 * 0 (the last one keeps it at 1 until then), so wait4 may reap the leader. */
void signal_group_dead(struct task *t);
/* Reset handlers at exec: caught signals go back to SIG_DFL (ignored stay). */
int signal_exec(void);

/* Send sig to task t (group: to its thread group, else to t alone) with info
 * (NULL: SI_KERNEL-like from the kernel). Any context. 0, -EINVAL or -EAGAIN. */
int send_signal(int sig, const struct kernel_siginfo *info, struct task *t, bool group);
/* A synchronous signal for the current thread (a fault): a blocked or ignored
 * one is unblocked and reset to SIG_DFL first, so it cannot be lost. */
void force_sig_fault(int sig, int code, u32 addr);
/* Start a group exit with status (exit_group, a fatal signal). */
void signal_group_exit(int status);
/* The parent learns of a child's exit/stop/continue: SIGCHLD (or the exit
 * signal) with CLD_*, then a wake of the waiters in wait4. */
void signal_notify_parent(struct task *leader, int why, int status);

/* rt_sigreturn and the frame (kernel/sigframe.c). */
int sigframe_setup(int sig, const struct kernel_sigaction *ka,
		   const struct kernel_siginfo *info, u64 oldmask, struct trap_frame *tf);
/* Set the current thread's mask (SIGKILL and SIGSTOP stay unblocked). */
void signal_set_blocked(u64 newmask);
/* A mask for the length of a wait (ppoll, pselect6, io_pgetevents_abs), as
 * rt_sigsuspend's: set it; at the end, restore the old one now, or, when the
 * wait ended for a signal (interrupted), once its handler's frame has taken
 * the old mask (the signal is delivered under the wait's mask). */
void signal_set_temp_mask(u64 mask);
void signal_restore_temp_mask(bool interrupted);
/* Is sp on the current thread's alternate stack? */
bool on_sig_stack(u32 sp);

#endif
