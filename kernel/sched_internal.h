/* sched_internal.h: what sched.c, sched_balance.c and kthread.c share: the per-CPU run queues and their locking, not exported further. */
#ifndef SCHED_INTERNAL_H
#define SCHED_INTERNAL_H

#include "atomic.h"
#include "sched.h"
#include "smp.h"
#include "spinlock.h"
#include "wait.h"

/*
 * One run queue per CPU (docs/locking.md, "Scheduling on every CPU"). Its
 * lock guards its list and count, and, for every task whose t->cpu names
 * this CPU, the task's on_rq, on_cpu, cpu and its wake-up from a sleep
 * state; it is taken with interrupts off. A CPU holds its own queue's lock
 * across a switch: the task switched to releases it. Two queues are locked
 * lower CPU first (double_rq_lock). A queued task's cpu is its queue's CPU,
 * and its affinity allows that CPU. A task is on at most one queue, never
 * while it runs; on_cpu stays set while it is switched away from and, when
 * it must leave the CPU it ran on (its affinity changed), until it is
 * queued on another (sched_push_task).
 */
struct run_queue {
	spinlock_t lock;
	struct list_head queue;		/* runnable tasks waiting, oldest first */
	volatile u32 nr_queued;		/* its length (read without the lock as a hint) */
	u32 cpu;
	u64 acquired, contended, wait_cycles;	/* the lock's figures: /proc/aiok/sched */
	u32 migrations;			/* tasks queued here that last ran elsewhere */
	u32 pulls;			/* ... of them pulled by this CPU's balancing */
	u32 balance_tick;		/* ticks since the last periodic balance */
	u32 busy_ticks;			/* ticks that struck a task, not the idle one (its own writes) */
	u64 slice_tsc;			/* TSC when the running task's slice began (its own writes) */
} __aligned(64);

extern struct run_queue runqueues[NR_CPUS];

static inline struct run_queue *cpu_rq(u32 cpu)
{
	return &runqueues[cpu];
}

extern struct task *idle_task;
/* Woken whenever a task becomes a zombie (kthread_stop sleeps on it). */
extern wait_queue_head_t task_exit_wait;

/* Take / release one queue's lock; interrupts off. */
void rq_lock(struct run_queue *rq);
static inline void rq_unlock(struct run_queue *rq)
{
	spin_unlock(&rq->lock);
}
/* Both queues' locks (one if a == b), lower CPU first; interrupts off. */
void double_rq_lock(u32 a, u32 b);
void double_rq_unlock(u32 a, u32 b);
/* Queue t on rq (its lock held, and t's previous queue's if t->cpu differs);
 * t->cpu becomes rq's CPU. Take t off rq. */
void rq_enqueue(struct run_queue *rq, struct task *t);
void rq_dequeue(struct run_queue *rq, struct task *t);
/* Tasks on CPU cpu: queued plus the one it runs (not its idle task). A hint. */
u32 sched_cpu_load(u32 cpu);
/* CPU cpu is idle with nothing claimed for it (a hint, no lock). */
bool sched_cpu_idle(u32 cpu);
/* A task was queued on CPU cpu (its lock held): if that CPU idles, mark it
 * (need_resched) and return cpu, to kick once the locks are free; else -1
 * (a busy CPU runs the task at a slice's end or a sleep). */
int sched_claim_cpu(u32 cpu);
/* Have CPU cpu look at need_resched: an IPI unless it polls in idle or is this one. */
void sched_kick_cpu(int cpu);

/* sched_balance.c: where a woken task goes (sync: the waker is about to
 * sleep or exit); no lock needed, the answer is a hint the caller locks. */
u32 sched_select_cpu(struct task *t, bool sync);
/* Pull one queued task that may run here from the busiest CPU whose load
 * exceeds this one's by at least min_imbalance; true if one came. Interrupts
 * off, no run-queue lock held. */
bool sched_pull(u32 cpu, u32 min_imbalance);
/* From the tick of CPU cpu (hard irq): balance every few ticks. */
void sched_balance_tick(u32 cpu, bool idle);
/* Queue t, which has just been switched away from on this CPU and may no
 * longer run here (on_cpu still set), on a CPU it may use. Interrupts off,
 * no run-queue lock held. */
void sched_push_task(struct task *t);

/* Finish a switch on the new task's side: release this CPU's queue lock, enable interrupts. */
void sched_tail(void);
/* Link the boot task (kmain) into the task list with its FPU area. */
void task_setup_init(struct task *t);

#endif
