/* sched.h: tasks, kernel threads, and the preemptive round-robin scheduler.
 *
 * States: RUNNING (on a CPU or on a CPU's run queue), INTERRUPTIBLE (asleep; a
 * wake-up or a signal ends it), UNINTERRUPTIBLE (asleep; only a wake-up), ZOMBIE
 * (exited, waiting to be reaped). A sleeper sets its state first, then tests
 * its condition, then calls schedule(): a wake-up in between sets it RUNNING
 * again, so schedule() returns at once and nothing is lost.
 *
 * Preemption: the timer tick sets need_resched at the end of a time slice; the
 * switch happens on the way out of the outermost interrupt when the interrupted
 * context allows it (returning to user mode, or kernel code with preempt_count
 * and spinlocks_held both 0), or at preempt_enable().
 *
 * Per-task CPU state saved on a switch: callee-saved registers and esp
 * (switch.asm), the FPU area and spinlocks_held; preempt_count and
 * irq_nesting live on the task's own stack (thread_info.h).
 */
#ifndef SCHED_H
#define SCHED_H

#include "fpu.h"
#include "list.h"
#include "thread_info.h"
#include "lockdep.h"
#include "types.h"

struct mm;				/* user address space: the vm layer's */
struct sighand_struct;
struct signal_struct;
struct completion;
struct blk_plug;
struct files_struct;
struct trap_frame;

#define TASK_RUNNING		0x0
#define TASK_INTERRUPTIBLE	0x1
#define TASK_UNINTERRUPTIBLE	0x2
#define TASK_ZOMBIE		0x4
#define TASK_STOPPED		0x8	/* group stop (SIGSTOP ...): SIGCONT or SIGKILL wakes it */
#define TASK_DEAD		0x10	/* a thread that reaps itself: freed after its last switch */
#define TASK_WAKEKILL		0x20	/* with UNINTERRUPTIBLE: a fatal signal wakes it too */
#define TASK_KILLABLE		(TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
/* Not a state: in a wake-up's mask, the waker is about to sleep or exit
 * (Linux's WF_SYNC): the woken task waits on the run queue for the waker's
 * CPU when it may run there, instead of claiming an idle CPU. */
#define WAKE_SYNC		0x100

#define TASK_COMM_LEN		16
#define SCHED_SLICE_TICKS	5	/* 20 ms round-robin slice at HZ=250 */
#define MAX_SCHEDULE_TIMEOUT	0x7FFFFFFFL

/* Fixed pids, as a Unix program expects them: the idle task is 0, the first
 * user process (init) 1; the boot task (kmain) takes 2, where Linux shows
 * kthreadd. Every other task numbers upward from PID_FIRST_FREE; none is reused. */
#define PID_IDLE		0
#define PID_INIT		1
#define PID_BOOT		2
#define PID_FIRST_FREE		3

struct task {
	u32 esp;			/* saved kernel esp while switched out (switch.asm) */
	int pid;
	char name[TASK_COMM_LEN];
	volatile long state;		/* TASK_*; written under its CPU's queue lock or by current */
	volatile int need_resched;	/* switch at the next safe point */
	int time_slice;			/* ticks left in this slice */
	u32 kstack;			/* lowest address of the kernel stack */
	u32 kstack_top;			/* esp0 for traps from user mode */
	int lock_depth;			/* spinlocks_held while switched out */
	int mutexes_held;		/* mutexes it holds (mutex.c; 0 in user mode) */
	struct lockdep_task lockdep;	/* ... which, for the lock-order checker */
	void *fs_held;			/* a file system's note of the lock it holds
					 * (ext2: the inode, for its map_page) */
	struct mm *mm;			/* NULL for kernel threads */
	volatile u32 sigpending;	/* something for signal_deliver: an unblocked signal
					 * pending, a group exit or stop (kernel/signal.c) */
	volatile bool fatal_pending;	/* SIGKILL or a group exit: ends KILLABLE sleeps */
	void *wait_channel;		/* what it sleeps on (a queue, a function), for k-ps */
	bool on_rq;			/* on cpu's run queue (never a running task) */
	volatile bool on_cpu;		/* running on a CPU, or being switched away
					 * from, or on its way to another CPU's queue
					 * (kernel/sched_internal.h; under cpu's queue lock) */
	u32 cpu;			/* the CPU it runs on, is queued on, or last ran on */
	u32 cpus_allowed;		/* affinity: bit n lets it run on CPU n */
	bool should_stop;		/* kthread_stop() asked it to exit */
	int exit_code;
	u64 ticks;			/* ticks it was running when they struck */
	u32 user_ticks, sys_ticks;	/* ... of them in user and in kernel mode: the
					 * split of exec_cycles (kernel/rusage.c) */
	u64 exec_cycles;		/* TSC cycles it ran (sched_account), written by
					 * its CPU, interrupts off, exec_seq odd meanwhile */
	u32 exec_seq;
	u64 rep_utime, rep_stime;	/* ns last reported (kept monotonic; rusage.c,
					 * under the sighand lock) */
	u32 nr_switches;		/* times it was switched in */
	struct list_head run_list;	/* run queue link, under that queue's lock */
	struct list_head tasks;		/* task_list link, under tasklist_lock */
	u8 fpu_area[FPU_STATE_SIZE + FPU_ALIGN - 1];
	u8 *fpu;			/* fpu_area rounded up to FPU_ALIGN */
	/* The process layer (kernel/proc.c); unused by kernel threads: */
	struct files_struct *files;	/* descriptor table */
	struct task *parent;		/* under family_lock (proc.c) */
	struct list_head children;	/* under family_lock */
	struct list_head sibling;	/* in parent->children */
	struct blk_plug *plug;		/* the io_submit batch being built (its stack) */
	/* Threads and signals (kernel/clone.c, kernel/signal.c); see include/signal.h. */
	int tgid;			/* the thread group's id: the leader's pid */
	struct task *group_leader;
	struct list_head thread_node;	/* in signal->threads, under the sighand lock */
	struct signal_struct *signal;	/* shared by the thread group */
	struct sighand_struct *sighand;	/* shared under CLONE_SIGHAND */
	u64 blocked;			/* this thread's mask (bit n-1: signal n) */
	u64 saved_blocked;		/* rt_sigsuspend's mask to restore */
	u64 sigwait_set;		/* rt_sigtimedwait's set: unblocked to wake it, not fatal */
	bool restore_blocked;		/* ... after the handler (or now, if none runs) */
	u64 pending;			/* thread-directed signals (tgkill, faults) */
	struct list_head pending_q;	/* their struct sigqueue entries */
	u32 sas_sp, sas_size;		/* sigaltstack (size 0: none) */
	int exit_signal;		/* sent to the parent when the group ends */
	bool nr_threads_done;		/* left signal->threads (signal_thread_exit) */
	u32 set_child_tid;		/* CLONE_CHILD_SETTID: the tid goes there first thing */
	u32 clear_child_tid;		/* user address: 0 and a futex wake at exit */
	struct completion *vfork_done;	/* the vfork parent waits on it */
	u64 tls[3];			/* GDT TLS descriptors 6..8 (kernel/tls.c) */
	struct restart_block {		/* -ERESTART_RESTARTBLOCK's continuation */
		long (*fn)(struct restart_block *rb);
		u64 deadline_ns;
		u32 urem;
	} restart;
};

/* The running task: `current` (thread_info.h, from esp). */
/* Every task, for gdb's k-ps and leak checks (init task first). */
extern struct list_head task_list;
extern int nr_tasks;
/* Number of "scheduling while atomic" reports so far (tests). */
extern u32 sched_atomic_bugs;
/* preempt_count: depth of preempt_disable(), per task (thread_info.h). */

/* kmain becomes task PID_BOOT ("kmain") on the boot stack; creates the idle
 * task (PID_IDLE) and sets up the FPU. After time_init, before sti. */
void sched_init(void);
/* A new idle task (PID_IDLE, RUNNING, never queued) for a CPU to run when
 * it has nothing else; ERR_PTR(-ENOMEM). Boot, process context. */
struct task *sched_idle_create(void);
/* The running AP joins the scheduler: from now on it runs tasks, its idle
 * task when there are none. Its GDT, IDT, local APIC and tick are set up;
 * interrupts off. Never returns. */
void sched_ap_run(void) __noreturn;
/* CPUs that run tasks (bit n: CPU n); the boot CPU from sched_init, each AP
 * from sched_ap_run. */
extern volatile u32 sched_cpu_mask;
/* Set t's affinity to mask & sched_cpu_mask (-EINVAL if that is empty) and,
 * if it runs or is queued where it may no longer, move it (a queued one at
 * once, a running one once it is switched out). Process context. */
int sched_set_affinity(struct task *t, u32 mask);
/* /proc/aiok/sched: the run-queue locks' acquisitions, how many found one
 * held and the time waited, summed (the "rq_lock" line); per CPU its
 * switches, reschedule IPIs taken, wake-ups that needed none (it was
 * polling), idle halts, tasks that migrated to it, those it pulled, signal
 * kicks it sent and its ticks that struck a task. Process context. */
int sched_stats_show(char *buf, size_t size);
/* The reschedule IPI (kernel/ipi.c): the running task looks at need_resched. */
void sched_resched_interrupt(struct trap_frame *tf);
/* Wait until t, a zombie or dead task, has switched away for good on
 * whichever CPU ran it (its stack is then free to go). Any context but t's. */
void sched_wait_off_cpu(struct task *t);

/* Give up the CPU. A task whose state is not RUNNING sleeps until woken.
 * Thread context, no spinlock held, preemption enabled: anything else is
 * reported (and from interrupt context refused). */
void schedule(void);
/* Wake a task sleeping in one of the states in mask. Any context. Returns 1
 * if it was woken, 0 if it was not in such a state. */
int wake_up_state(struct task *t, long mask);
/* Wake a task from either sleep state. Any context. Returns 1 if woken. */
int wake_up_process(struct task *t);
/* Sleep (in the state the caller set) for at most timeout jiffies. Thread
 * context. Returns the jiffies left when woken early, else 0;
 * MAX_SCHEDULE_TIMEOUT sleeps without a timer and returns it. */
long schedule_timeout(long timeout);
long schedule_timeout_interruptible(long timeout);
long schedule_timeout_uninterruptible(long timeout);
/* Sleep at least ms milliseconds, uninterruptibly. Thread context. */
void msleep(unsigned int ms);
/* Sleep at least ms milliseconds unless a signal comes; returns ms left. */
unsigned int msleep_interruptible(unsigned int ms);
/* Let the other runnable tasks run first. */
void yield(void);

#define set_current_state(s)	do { current->state = (s); __atomic_thread_fence(__ATOMIC_SEQ_CST); } while (0)
#define __set_current_state(s)	(current->state = (s))

static inline bool signal_pending(const struct task *t)
{
	return t->sigpending != 0;
}
static inline bool fatal_signal_pending(const struct task *t)
{
	return t->fatal_pending;
}
/* Should a sleep in state end now for a signal? (INTERRUPTIBLE: any pending;
 * WAKEKILL: a fatal one.) */
static inline bool signal_pending_state(long state, const struct task *t)
{
	return ((state & TASK_INTERRUPTIBLE) && signal_pending(t)) ||
	       ((state & TASK_WAKEKILL) && fatal_signal_pending(t));
}
/* Wake t after the caller set sigpending: from an interruptible sleep, and
 * with fatal also from a killable or stopped one; a t running on another
 * CPU gets a reschedule IPI instead, so that it sees the signal at once. */
void signal_wake_up(struct task *t, bool fatal);

void preempt_disable(void);
/* Re-enable preemption; switches now if a reschedule became due meanwhile. */
void preempt_enable(void);
void preempt_enable_no_resched(void);

/* Report (do not stop) a call that may sleep from a context that must not. */
#define might_sleep()	__might_sleep(__FILE__, __LINE__)
void __might_sleep(const char *file, int line);

/* Timer interrupt of this CPU: charge current's run time up to now, count
 * the tick as a user or a system sample, end its slice. Hard irq. */
void scheduler_tick(bool user);
/* CPU time t has run, in ns: exact to the last switch or tick of its CPU,
 * and to now when t is current. Any context. */
u64 sched_exec_ns(struct task *t);
/* From irq_exit, interrupts off, outermost level: preempt if due and safe. */
void preempt_irq_return(struct trap_frame *tf);

/* Switch address spaces when next has one and it is not loaded already. A
 * kernel thread borrows whatever is loaded (lazy TLB): switching from a user
 * task to idle and back reloads nothing, which spares an emulator's TLB. */
void switch_mm(struct task *prev, struct task *next);

/* Kernel threads. kthread_create: a new task that runs fn(arg) once woken
 * (wake_up_process); its return value is the exit code. Thread context.
 * Returns the task or ERR_PTR(-ENOMEM). */
struct task *kthread_create(int (*fn)(void *arg), void *arg, const char *name);
/* kthread_create + wake_up_process. */
struct task *kthread_run(int (*fn)(void *arg), void *arg, const char *name);
/* Ask t to stop (kthread_should_stop() turns true, t is woken), wait until it
 * exits, free it. Also reaps a thread that already returned. Thread context.
 * Returns its exit code. Every kthread a caller creates must end this way. */
int kthread_stop(struct task *t);
bool kthread_should_stop(void);
/* End the current task (kernel thread); the creator reaps it. */
void task_exit(int code) __noreturn;
/* The same, and also wake every waiter on notify (a process's parent waits
 * there in wait4) once the task is a zombie, so that a waiter woken by it
 * finds the zombie. Interrupts stay off from the zombie state to the final
 * switch, and the reaper's task_release waits until that switch is complete
 * on whichever CPU (sched_wait_off_cpu). */
struct wait_queue_head;
void task_exit_notify(int code, struct wait_queue_head *notify) __noreturn;
/* Call fn(t, arg) for every task, under tasklist_lock with interrupts off:
 * fn must not sleep or take a lock (the OOM killer's scan). */
void task_for_each(void (*fn)(struct task *t, void *arg), void *arg);
/* Task with this pid, or NULL (no reference: for debugging and tests, or
 * for the task itself; another CPU may release it right after). */
struct task *task_find(int pid);
/* Call fn(t, arg) for the task with this pid, under tasklist_lock with
 * interrupts off, so that no reaper frees it meanwhile (task_release unlinks
 * first); fn must not sleep, and takes only locks that may nest inside
 * tasklist_lock (a task's sighand->lock). fn's result, or -ESRCH. */
int task_call(int pid, int (*fn)(struct task *t, void *arg), void *arg);
/* Set t->mm under tasklist_lock: before the mm it held is put, so that a
 * task_for_each or task_call callback that reads t->mm finds it alive. */
struct mm;
void task_set_mm(struct task *t, struct mm *mm);
/* Free a zombie (or a never-started) task: its stack and struct. Its reaper only. */
void task_release(struct task *t);
/* A thread's end: TASK_DEAD, freed by the next task that runs after the
 * final switch (nobody reaps it). */
void task_exit_dead(int code) __noreturn;
/* Like kthread_create, but the top of the kernel stack is kept free for the
 * user-mode trap frame: fn may then enter user mode with enter_user(). */
struct task *kthread_create_user(int (*fn)(void *arg), void *arg, const char *name);
/* Leave the kernel for user mode through tf (a frame at the top of our stack). */
void enter_user(struct trap_frame *tf) __noreturn;

#endif
