/* sched.c: the per-CPU run queues, schedule(), wake-ups, preemption, sleeping with a timeout.
 *
 * One run queue per CPU (sched_internal.h has the locking rules,
 * docs/locking.md the figures). A CPU's queue lock is taken with interrupts
 * off and held across the switch: the task switched to releases it
 * (sched_tail for a new task), so no other CPU can pick a task, move it or
 * free it before its switch away is complete. A CPU runs the oldest task on
 * its own queue, or its idle task, never queued. A wake-up puts the task on
 * the queue of the CPU sched_select_cpu picks and, when that CPU is idle,
 * marks it (need_resched, and a reschedule IPI unless it polls or is this
 * one). Balancing (sched_balance.c): an idle CPU pulls from the busiest
 * queue, and every CPU's tick evens the queues now and then.
 * Lock order: a wait queue's lock, then a run-queue lock; two run-queue
 * locks lower CPU first.
 */
#include "sched_internal.h"
#include "apic_timer.h"
#include "errno.h"
#include "clock.h"
#include "cmdline.h"
#include "apic.h"
#include "gdt.h"
#include "itimer.h"
#include "panic.h"
#include "printk.h"
#include "softirq.h"
#include "spinlock.h"
#include "timer.h"
#include "tls.h"
#include "trace.h"
#include "trap.h"
#include "vm.h"
#include "x86.h"

#define ATOMIC_REPORTS_MAX	5	/* backtraces printed; later ones only counted */

void switch_context(u32 *prev_esp, u32 next_esp);

static struct task init_task = {
	.pid = PID_BOOT,
	.name = "kmain",
	.state = TASK_RUNNING,
	.time_slice = SCHED_SLICE_TICKS,
	.run_list = LIST_HEAD_INIT(init_task.run_list),
};
/* kmain's stack (boot/boot.asm starts on it): aligned like every kernel
 * stack, its thread_info filled before the first instruction runs on it. */
union kstack boot_stack __aligned(KSTACK_SIZE) = {
	.ti = { .task = &init_task, .stack_end = STACK_END_MAGIC },
};
struct task *idle_task;		/* the boot CPU's */
struct run_queue runqueues[NR_CPUS];
u32 sched_atomic_bugs;
volatile u32 sched_cpu_mask;

/* Take rq's lock at subclass sub (interrupts already off), counting how
 * often it was found held and how long that made us wait (docs/locking.md). */
static void rq_lock_sub(struct run_queue *rq, u8 sub)
{
	u64 t0 = spin_is_locked(&rq->lock) ? rdtsc() : 0;

	spin_lock_nested(&rq->lock, sub);
	rq->acquired++;
	if (t0) {
		rq->contended++;
		rq->wait_cycles += rdtsc() - t0;
	}
}

void rq_lock(struct run_queue *rq)
{
	rq_lock_sub(rq, 0);
}

void double_rq_lock(u32 a, u32 b)
{
	if (a == b) {
		rq_lock(cpu_rq(a));
		return;
	}
	rq_lock(cpu_rq(MIN(a, b)));
	rq_lock_sub(cpu_rq(MAX(a, b)), 1);
}

void double_rq_unlock(u32 a, u32 b)
{
	if (a != b)
		rq_unlock(cpu_rq(MAX(a, b)));
	rq_unlock(cpu_rq(MIN(a, b)));
}

/* Lock the queue of t's CPU, as t->cpu stays while it is held (t moves
 * only under that lock); interrupts off. */
static struct run_queue *task_rq_lock(struct task *t)
{
	for (;;) {
		u32 cpu = READ_ONCE(t->cpu);

		rq_lock(cpu_rq(cpu));
		if (READ_ONCE(t->cpu) == cpu)
			return cpu_rq(cpu);
		rq_unlock(cpu_rq(cpu));
	}
}

void rq_enqueue(struct run_queue *rq, struct task *t)
{
	if (t->cpu != rq->cpu)
		rq->migrations++;
	t->cpu = rq->cpu;
	list_add_tail(&t->run_list, &rq->queue);
	t->on_rq = true;
	WRITE_ONCE(rq->nr_queued, rq->nr_queued + 1);
}

void rq_dequeue(struct run_queue *rq, struct task *t)
{
	list_del_init(&t->run_list);
	t->on_rq = false;
	WRITE_ONCE(rq->nr_queued, rq->nr_queued - 1);
}

/* The oldest task on c's queue, or its idle task; the queue's lock held. */
static struct task *pick_next(struct cpu *c, struct run_queue *rq)
{
	struct task *t;

	if (list_empty(&rq->queue))
		return c->idle;
	t = list_first_entry(&rq->queue, struct task, run_list);
	rq_dequeue(rq, t);
	return t;
}

u32 sched_cpu_load(u32 cpu)
{
	struct cpu *c = &cpus[cpu];

	return READ_ONCE(cpu_rq(cpu)->nr_queued) + (READ_ONCE(c->curr) != c->idle);
}

bool sched_cpu_idle(u32 cpu)
{
	struct cpu *c = &cpus[cpu];

	return READ_ONCE(c->curr) == c->idle && !READ_ONCE(c->idle->need_resched) &&
	       !READ_ONCE(cpu_rq(cpu)->nr_queued);
}

void switch_mm(struct task *prev, struct task *next)
{
	if (next->mm)
		mm_activate(next->mm);	/* no-op when its directory is still loaded */
}

static void check_stack(struct task *t)
{
	if (((struct thread_info *)t->kstack)->stack_end != STACK_END_MAGIC)
		panic("kernel stack overflow in %s (pid %d)", t->name, t->pid);
}

/*
 * CPU time: each CPU charges the task it runs the TSC cycles since its last
 * charge (c->acct_tsc), at every switch away and at every tick, with
 * interrupts off; its idle task's are dropped. Only that CPU writes a task's
 * exec_cycles while the task runs there; exec_seq (odd during the write)
 * lets another CPU read the 64-bit sum whole. Exact whatever the host does
 * to the ticks: late ones charge nobody else's time (kernel/rusage.c splits
 * it into user and system time by the ticks' samples).
 */
static void sched_account(struct cpu *c, struct task *t)
{
	u64 now = rdtsc(), delta = now - c->acct_tsc;

	c->acct_tsc = now;
	if (t == c->idle || (s64)delta <= 0)
		return;
	WRITE_ONCE(t->exec_seq, t->exec_seq + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t->exec_cycles += delta;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	WRITE_ONCE(t->exec_seq, t->exec_seq + 1);
}

u64 sched_exec_ns(struct task *t)
{
	u64 cycles;
	u32 seq, flags = local_irq_save();

	do {
		seq = READ_ONCE(t->exec_seq);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		cycles = t->exec_cycles;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || READ_ONCE(t->exec_seq) != seq);
	if (t == current)
		cycles += rdtsc() - this_cpu()->acct_tsc;	/* the stint so far */
	local_irq_restore(flags);
	return cycles_to_ns(cycles);
}

/* Interrupts off, this CPU's queue lock held. Returns on prev's stack when prev runs again
 * (on whichever CPU picked it). */
static void context_switch(struct cpu *c, struct task *prev, struct task *next)
{
	check_stack(prev);
	sched_account(c, prev);
	switch_mm(prev, next);
	tss_set_kernel_stack(next->kstack_top);
	tls_switch(next);
	fpu_save(prev->fpu);
	fpu_restore(next->fpu);
	prev->lock_depth = spinlocks_held;
	spinlocks_held = next->lock_depth;
	next->nr_switches++;
	c->nr_switches++;
	trace_switch(next->pid, next->tgid, prev->state);
	if (prev != c->sched_push)	/* else on_cpu until it is queued elsewhere */
		prev->on_cpu = false;	/* nobody can look before our queue's lock is free */
	next->on_cpu = true;
	next->cpu = c->id;
	c->curr = next;			/* `current` itself follows esp */
	cpu_rq(c->id)->slice_tsc = c->acct_tsc;	/* its slice's start (sched_account: now) */
	switch_context(&prev->esp, next->esp);
}

static void sched_finish(void);

/* The core of schedule, interrupts off. A preempted task stays runnable
 * whatever its state: it may be between setting its state and sleeping.
 * One that may no longer run here is queued elsewhere once it is off this
 * CPU (sched_finish). */
static void __schedule(bool preempt)
{
	struct task *prev = current, *next;
	struct cpu *c = this_cpu();
	struct run_queue *rq = cpu_rq(c->id);

	rq_lock(rq);
	if (signal_pending_state(prev->state, prev))
		prev->state = TASK_RUNNING;
	if (prev->state == TASK_DEAD)
		c->sched_dead = prev;		/* freed by whoever runs next here */
	if ((preempt || prev->state == TASK_RUNNING) && prev != c->idle && !prev->on_rq) {
		if (prev->cpus_allowed & (1u << c->id))
			rq_enqueue(rq, prev);
		else
			c->sched_push = prev;
	}
	next = pick_next(c, rq);
	prev->need_resched = 0;
	if (prev == c->idle && next != prev)
		apic_timer_idle_check(true);	/* an AP's stopped tick back: slices */
	if (next != prev)
		context_switch(c, prev, next);	/* c and rq are stale after it: prev may move */
	rq_unlock(cpu_rq(smp_processor_id()));
	sched_finish();
}

/* After a switch, on the new task's side, no queue lock held: free a
 * self-reaping thread that is off its stack now (task_release frees
 * without sleeping), queue elsewhere one that may no longer run here. */
static void sched_finish(void)
{
	struct cpu *c = this_cpu();
	struct task *d = c->sched_dead, *p = c->sched_push;

	if (d) {
		c->sched_dead = NULL;
		task_release(d);
	}
	if (p) {
		c->sched_push = NULL;
		sched_push_task(p);
	}
}

void sched_wait_off_cpu(struct task *t)
{
	u32 flags;
	bool busy;

	do {
		struct run_queue *rq;

		flags = local_irq_save();
		rq = task_rq_lock(t);		/* a switch away under way holds it */
		busy = t->on_cpu;
		rq_unlock(rq);
		local_irq_restore(flags);
		if (busy)
			cpu_relax();
	} while (busy);
}

/* First C code of a new task: finish the switch that brought it here. */
void sched_tail(void)
{
	rq_unlock(cpu_rq(smp_processor_id()));
	sched_finish();
	sti();
}

static __noinline void report_atomic(const char *what)
{
	sched_atomic_bugs++;
	if (sched_atomic_bugs > ATOMIC_REPORTS_MAX)
		return;
	printk(KERN_ERR "BUG: %s while atomic: %s/%d, in_interrupt %d, spinlocks held %d, "
	       "preempt_count %d\n", what, current->name, current->pid, in_interrupt(),
	       spinlocks_held, preempt_count);
	dump_backtrace((u32)__builtin_return_address(0) - 1, *(u32 *)__builtin_frame_address(0));
}

void __might_sleep(const char *file, int line)
{
	if (in_interrupt() || spinlocks_held || preempt_count) {
		printk(KERN_ERR "%s:%d: sleeping function called from invalid context\n", file, line);
		report_atomic("might_sleep");
	}
}

void schedule(void)
{
	u32 flags;

	if (unlikely(in_interrupt() || spinlocks_held || preempt_count)) {
		report_atomic("scheduling");
		if (in_interrupt()) {		/* no task to switch away from: refuse */
			current->state = TASK_RUNNING;
			return;
		}
	}
	flags = local_irq_save();
	__schedule(false);
	local_irq_restore(flags);
}

void yield(void)
{
	__set_current_state(TASK_RUNNING);
	schedule();
}

/* Have CPU cpu look at need_resched soon: this one on its way out of the
 * interrupt or system call, one polling in its idle loop by itself (the
 * fence pairs with idle_poll's: either it sees need_resched or we see it no
 * longer polling), any other by IPI. */
void sched_kick_cpu(int cpu)
{
	if (cpu < 0 || (u32)cpu == smp_processor_id())
		return;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (READ_ONCE(cpus[cpu].idle_polling)) {
		this_cpu()->resched_ipis_saved++;
		return;
	}
	smp_send_reschedule(cpu);
}

/* Will the waker give up its CPU right after this wake-up? It said so
 * (WAKE_SYNC), or it is a thread on its way out (it left its group: its
 * parent's SIGCHLD and wait4 wake-ups come next to its last switch). */
static bool wake_is_sync(long mask)
{
	if (in_interrupt())
		return false;
	return (mask & WAKE_SYNC) || current->nr_threads_done;
}

int sched_claim_cpu(u32 cpu)
{
	struct cpu *c = &cpus[cpu];

	if (c->curr != c->idle)
		return -1;
	c->idle->need_resched = 1;
	return cpu;
}

/* Lock t's queue and, if another, dst's (lower CPU first), t->cpu
 * checked unchanged; NULL if it changed meanwhile (try again). Interrupts off. */
static struct run_queue *wake_lock(struct task *t, u32 src, u32 dst)
{
	double_rq_lock(src, dst);
	if (READ_ONCE(t->cpu) == src)
		return cpu_rq(src);
	double_rq_unlock(src, dst);
	return NULL;
}

/* The wake-up proper, interrupts off: queue t where sched_select_cpu says
 * unless it is still runnable (on a CPU, being switched away, or on a
 * queue: then only its state changes); looked at again under the locks, and
 * placed again if it fell asleep or its affinity changed since. Returns the
 * CPU to kick or -1; *woken as wake_up_state's result. */
static int try_wake(struct task *t, long mask, int *woken)
{
	for (;;) {
		u32 src = READ_ONCE(t->cpu), dst = src;
		bool place = !READ_ONCE(t->on_cpu) && !READ_ONCE(t->on_rq);
		bool runnable;
		int target = -1;

		if (place)
			dst = sched_select_cpu(t, wake_is_sync(mask));
		if (!wake_lock(t, src, dst))
			continue;
		runnable = t->on_cpu || t->on_rq;
		*woken = !!(t->state & mask & ~WAKE_SYNC);
		if (*woken && !runnable && (!place || !(t->cpus_allowed & sched_cpu_mask & (1u << dst)))) {
			double_rq_unlock(src, dst);
			continue;
		}
		if (*woken) {
			trace_wakeup(t->pid, t->tgid);
			t->state = TASK_RUNNING;
			if (!runnable) {
				rq_enqueue(cpu_rq(dst), t);
				target = sched_claim_cpu(dst);
			}
		}
		double_rq_unlock(src, dst);
		return target;
	}
}

int wake_up_state(struct task *t, long mask)
{
	int woken = 0, target;
	u32 flags;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* the waker's stores before the look */
	if (!(READ_ONCE(t->state) & mask & ~WAKE_SYNC))
		return 0;			/* not asleep in these states: nothing to do */
	flags = local_irq_save();
	target = try_wake(t, mask, &woken);
	local_irq_restore(flags);
	sched_kick_cpu(target);
	return woken;
}

/* t is queued on a CPU its new mask leaves out (its queue's lock held,
 * interrupts off): move it to one it may use. */
static int affinity_move_queued(struct task *t, struct run_queue *rq)
{
	u32 src = rq->cpu, dst = sched_select_cpu(t, false);
	int target;

	rq_unlock(rq);
	double_rq_lock(src, dst);
	if (t->cpu != src || !t->on_rq || dst == src ||	/* it moved, or ran, */
	    !(t->cpus_allowed & sched_cpu_mask & (1u << dst)) ||	/* or the mask */
	    (t->cpus_allowed & (1u << src))) {		/* changed meanwhile */
		double_rq_unlock(src, dst);
		return -1;
	}
	rq_dequeue(cpu_rq(src), t);
	rq_enqueue(cpu_rq(dst), t);
	target = sched_claim_cpu(dst);
	double_rq_unlock(src, dst);
	return target;
}

int sched_set_affinity(struct task *t, u32 mask)
{
	struct run_queue *rq;
	int target = -1;
	u32 flags;

	mask &= sched_cpu_mask;
	if (!mask)
		return -EINVAL;
	flags = local_irq_save();
	rq = task_rq_lock(t);
	t->cpus_allowed = mask;
	if (t->on_cpu && !(mask & (1u << t->cpu))) {
		t->need_resched = 1;		/* off this CPU at its next chance */
		target = t->cpu;
	} else if (t->on_rq && !(mask & (1u << t->cpu))) {
		target = affinity_move_queued(t, rq);
		rq = NULL;
	}
	if (rq)
		rq_unlock(rq);
	local_irq_restore(flags);
	if (t == current && target >= 0)
		schedule();			/* off to a CPU it may use (sched_push_task) */
	else
		sched_kick_cpu(target);
	return 0;
}

void sched_resched_interrupt(struct trap_frame *tf)
{
	this_cpu()->resched_ipis++;
	lapic_eoi();
	irq_exit(tf);			/* need_resched: preempt if allowed */
}

int wake_up_process(struct task *t)
{
	return wake_up_state(t, TASK_NORMAL);
}

/* A task running on another CPU (in user mode, say) is not woken: that
 * CPU gets a reschedule IPI, whose return to user mode delivers the signal
 * now rather than at its next tick (Linux's kick_process). */
void signal_wake_up(struct task *t, bool fatal)
{
	u32 cpu;

	if (wake_up_state(t, TASK_INTERRUPTIBLE | (fatal ? TASK_WAKEKILL | TASK_STOPPED : 0)))
		return;
	cpu = READ_ONCE(t->cpu);
	if (READ_ONCE(t->on_cpu) && cpu != smp_processor_id() && cpus[cpu].curr == t) {
		this_cpu()->signal_kicks++;
		smp_send_reschedule(cpu);
	}
}

/* A time slice: SCHED_SLICE_TICKS ticks, or as much TSC time if the ticks
 * come late (a host that runs this vCPU seldom delivers them in bursts: a
 * slice of five ticks then lasts far longer, and the tasks queued on this
 * CPU wait for it). */
static u64 slice_cycles;

/* Hard irq context, interrupts off. */
void scheduler_tick(bool user)
{
	struct cpu *c = this_cpu();
	struct task *p = current, *idle = c->idle;
	struct run_queue *rq = cpu_rq(c->id);
	bool queued = READ_ONCE(rq->nr_queued) != 0;	/* a hint */

	if (p != idle)
		rq->busy_ticks++;
	p->ticks++;
	sched_account(c, p);
	if (p != idle && user)
		p->user_ticks++;		/* getrusage, times (kernel/rusage.c) */
	else if (p != idle)
		p->sys_ticks++;
	if (p != idle)
		itimer_tick(p, user);		/* ITIMER_VIRTUAL, ITIMER_PROF */
	if (p == idle && queued)
		p->need_resched = 1;		/* work nobody woke us for */
	if (p != idle && (--p->time_slice <= 0 || c->acct_tsc - rq->slice_tsc >= slice_cycles)) {
		p->time_slice = SCHED_SLICE_TICKS;
		rq->slice_tsc = c->acct_tsc;
		if (queued)
			p->need_resched = 1;
	}
	sched_balance_tick(c->id, p == idle);
}

void preempt_irq_return(struct trap_frame *tf)
{
	while (current->need_resched) {
		if (!trap_from_user(tf) && (preempt_count || spinlocks_held))
			return;
		__schedule(true);
	}
}

void preempt_disable(void)
{
	preempt_count++;
	barrier();
}

void preempt_enable_no_resched(void)
{
	barrier();
	if (--preempt_count < 0)
		panic("preempt_enable: unbalanced (count %d)", preempt_count);
}

void preempt_enable(void)
{
	u32 flags;

	preempt_enable_no_resched();
	if (preempt_count || !current->need_resched || spinlocks_held || in_interrupt() ||
	    !(read_eflags() & EFLAGS_IF))
		return;
	flags = local_irq_save();
	__schedule(true);
	local_irq_restore(flags);
}

static void process_timeout(unsigned long data)
{
	wake_up_process((struct task *)data);
}

long schedule_timeout(long timeout)
{
	struct timer_list timer;
	unsigned long expire;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		printk(KERN_ERR "schedule_timeout: negative timeout %ld\n", timeout);
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = jiffies + timeout;
	setup_timer(&timer, process_timeout, (unsigned long)current);
	timer.expires = expire;
	add_timer(&timer);
	schedule();
	del_timer_sync(&timer);
	timeout = expire - jiffies;
	return timeout < 0 ? 0 : timeout;
}

long schedule_timeout_interruptible(long timeout)
{
	__set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_uninterruptible(long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

void msleep(unsigned int ms)
{
	long timeout = msecs_to_jiffies(ms) + 1;	/* the current tick is partly gone */

	current->wait_channel = (void *)msleep;
	while (timeout)
		timeout = schedule_timeout_uninterruptible(timeout);
	current->wait_channel = NULL;
}

unsigned int msleep_interruptible(unsigned int ms)
{
	long timeout = msecs_to_jiffies(ms) + 1;

	current->wait_channel = (void *)msleep_interruptible;
	while (timeout && !signal_pending(current))
		timeout = schedule_timeout_interruptible(timeout);
	current->wait_channel = NULL;
	return jiffies_to_msecs(timeout);
}

/*
 * Before halting, the idle task polls the run queue for a while (Linux's
 * guest-haltpoll idea, and its default of 200 us): in a virtual machine a
 * halted CPU is a host thread asleep, and waking it costs the host a
 * scheduling round trip on every interrupt that ends a short wait (a disk
 * read at queue depth 1). Interrupts stay on while polling. It polls once
 * each time the CPU goes idle (its switch count moved: the idle task is
 * mostly switched out by preemption, from an interrupt's exit), not again
 * after an interrupt that brought no work (a tick): an idle vCPU polling
 * 200 us of every 4 ms tick took 5 % of a host core, which QEMU's I/O
 * thread needs on a 2-core host.
 * Boot parameter idle_poll_us=N (0: halt at once).
 */
static u64 idle_poll_cycles;

static void idle_poll(struct task *idle)
{
	u64 until = rdtsc() + idle_poll_cycles;
	struct cpu *c = this_cpu();

	WRITE_ONCE(c->idle_polling, true);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	while (!idle->need_resched && rdtsc() < until)
		barrier();
	WRITE_ONCE(c->idle_polling, false);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* then need_resched is read: sched_kick_cpu */
}

/* Each CPU's idle task: pull a task from the busiest queue if one waits
 * there, else wait for need_resched (a wake-up that picked this CPU sets
 * it; so does a pull, from the tick or from a busy CPU's kick of a tick-less
 * AP), then schedule. */
static int idle_loop(void *unused)
{
	struct task *idle = current;
	u32 polled_at = ~0u;		/* this CPU's switch count at its last poll */

	for (;;) {
		while (!idle->need_resched && idle == cpus[0].idle && trace_drain_step())
			;			/* trace records out while idle (one drain: CPU 0's) */
		if (!idle->need_resched) {
			u32 flags = local_irq_save();

			sched_pull(smp_processor_id(), 1);	/* marks us when it pulls */
			local_irq_restore(flags);
		}
		if (idle_poll_cycles && this_cpu()->nr_switches != polled_at) {
			polled_at = this_cpu()->nr_switches;	/* once per stay in idle */
			idle_poll(idle);
		}
		cli();
		apic_timer_idle_check(false);	/* a timer armed here: its tick back */
		if (idle->need_resched) {
			schedule();
		} else {
			asm volatile("sti; hlt" ::: "memory");	/* sti's shadow covers hlt */
			this_cpu()->idle_halts++;
		}
	}
	return 0;
}

/* The queue locks' figures summed (the first line, as with one queue), then per CPU. */
int sched_stats_show(char *buf, size_t size)
{
	u64 acquired = 0, contended = 0, wait = 0;
	int n;

	for (u32 i = 0; i < nr_cpus_online; i++) {
		struct run_queue *rq = cpu_rq(i);
		u32 flags = local_irq_save();

		rq_lock(rq);
		acquired += rq->acquired;
		contended += rq->contended;
		wait += rq->wait_cycles;
		rq_unlock(rq);
		local_irq_restore(flags);
	}
	n = snprintf(buf, size, "rq_lock acquired %llu contended %llu wait_us %llu\n", acquired,
		     contended, cycles_to_ns(wait) / 1000);
	for (u32 i = 0; i < nr_cpus_online && n < (int)size; i++)
		n += snprintf(buf + n, size - n, "cpu%u switches %u resched_ipis %u ipis_saved %u "
			      "idle_halts %u migrations %u pulls %u signal_kicks %u busy_ticks %u\n", i,
			      cpus[i].nr_switches, cpus[i].resched_ipis, cpus[i].resched_ipis_saved,
			      cpus[i].idle_halts, cpu_rq(i)->migrations, cpu_rq(i)->pulls,
			      cpus[i].signal_kicks, READ_ONCE(cpu_rq(i)->busy_ticks));
	return MIN(n, (int)size - 1);
}

void sched_ap_run(void)
{
	struct cpu *c = this_cpu();

	c->idle->on_cpu = true;
	c->idle->cpu = c->id;
	c->idle->cpus_allowed = 1u << c->id;
	c->acct_tsc = rdtsc();
	__atomic_or_fetch(&sched_cpu_mask, 1u << c->id, __ATOMIC_SEQ_CST);
	sti();
	idle_loop(NULL);
	panic("sched_ap_run: the idle loop returned");
}

struct task *sched_idle_create(void)
{
	struct task *t = kthread_create(idle_loop, NULL, "idle");

	if (IS_ERR(t))
		return t;
	t->pid = PID_IDLE;
	t->state = TASK_RUNNING;	/* never on the queue: picked when it is empty */
	t->lock_depth = 0;		/* an AP starts on its stack, holding nothing */
	return t;
}

void sched_init(void)
{
	for (u32 i = 0; i < NR_CPUS; i++) {
		spin_lock_init(&runqueues[i].lock, "rq->lock");
		INIT_LIST_HEAD(&runqueues[i].queue);
		runqueues[i].cpu = i;
	}
	init_task.kstack = (u32)&boot_stack;
	init_task.kstack_top = (u32)&boot_stack + KSTACK_SIZE;
	init_task.on_cpu = true;
	init_task.cpus_allowed = 1;		/* kmain, its boot work and the kernel suites: CPU 0 */
	cpus[0].curr = &init_task;
	cpus[0].acct_tsc = rdtsc();
	sched_cpu_mask = 1;
	idle_poll_cycles = cmdline_get_num(&boot_cmdline, "idle_poll_us", 200) * tsc_khz / 1000;
	slice_cycles = (u64)SCHED_SLICE_TICKS * tsc_khz * 1000 / HZ;
	fpu_init();
	task_setup_init(&init_task);
	tss_set_kernel_stack(init_task.kstack_top);
	idle_task = sched_idle_create();
	if (IS_ERR(idle_task))
		panic("sched_init: no memory for the idle task");
	idle_task->lock_depth = 1;		/* first switched to: sched_tail */
	idle_task->cpus_allowed = 1;
	cpus[0].idle = idle_task;
}
