/* sched.c: the run queue, schedule(), wake-ups, preemption, sleeping with a timeout.
 *
 * One run queue for every CPU (docs/locking.md says why). rq_lock guards it,
 * every task's state transitions to RUNNING, on_rq, on_cpu, cpu, and each
 * CPU's curr; it is taken with interrupts off and held across the switch:
 * the task switched to releases it (sched_tail for a new task), so no other
 * CPU can pick a task, or free it, before its switch away is complete. A CPU
 * picks the first queued task its affinity allows. Each CPU has an idle task,
 * never on the queue, run when nothing else is. A wake-up queues the task and
 * marks an idle CPU it may run on (need_resched, and a reschedule IPI when
 * that is another CPU).
 * Lock order: a wait queue's lock, then rq_lock.
 */
#include "sched_internal.h"
#include "errno.h"
#include "clock.h"
#include "cmdline.h"
#include "apic.h"
#include "gdt.h"
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
static LIST_HEAD(run_queue);
static DEFINE_SPINLOCK(rq_lock);
static struct {			/* under rq_lock: /proc/aiok/sched */
	u64 acquired, contended, wait_cycles;
} rq_stats;
u32 sched_atomic_bugs;
volatile u32 sched_cpu_mask;

/* Take rq_lock (interrupts already off), counting how often it was found
 * held and how long that made us wait: the one-queue decision's figures
 * (docs/locking.md). */
static void rq_lock_take(void)
{
	u64 t0 = spin_is_locked(&rq_lock) ? rdtsc() : 0;

	spin_lock(&rq_lock);
	rq_stats.acquired++;
	if (t0) {
		rq_stats.contended++;
		rq_stats.wait_cycles += rdtsc() - t0;
	}
}

static u32 rq_lock_irqsave(void)
{
	u32 flags = local_irq_save();

	rq_lock_take();
	return flags;
}

static void enqueue(struct task *t)
{
	list_add_tail(&t->run_list, &run_queue);
	t->on_rq = true;
}

/* The first queued task c may run, or its idle task; rq_lock held. */
static struct task *pick_next(struct cpu *c)
{
	struct task *t;

	list_for_each_entry(t, &run_queue, run_list) {
		if (t->cpus_allowed & (1u << c->id)) {
			list_del_init(&t->run_list);
			t->on_rq = false;
			return t;
		}
	}
	return c->idle;
}

/* Queued work, as a hint without the lock (the idle loop, the tick). */
static bool run_queue_busy(void)
{
	return READ_ONCE(run_queue.next) != &run_queue;
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

/* Interrupts off, rq_lock held. Returns on prev's stack when prev runs again
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
	prev->on_cpu = false;		/* nobody can look before rq_lock is free */
	next->on_cpu = true;
	next->cpu = c->id;
	c->curr = next;			/* `current` itself follows esp */
	switch_context(&prev->esp, next->esp);
}

static void sched_finish_dead(void);

/* The core of schedule, interrupts off. A preempted task stays runnable
 * whatever its state: it may be between setting its state and sleeping. */
static void __schedule(bool preempt)
{
	struct task *prev = current, *next;
	struct cpu *c = this_cpu();

	rq_lock_take();
	if (signal_pending_state(prev->state, prev))
		prev->state = TASK_RUNNING;
	if (prev->state == TASK_DEAD)
		c->sched_dead = prev;		/* freed by whoever runs next here */
	if ((preempt || prev->state == TASK_RUNNING) && prev != c->idle && !prev->on_rq)
		enqueue(prev);
	next = pick_next(c);
	prev->need_resched = 0;
	if (next != prev)
		context_switch(c, prev, next);	/* c is stale after it: prev may move */
	spin_unlock(&rq_lock);
	sched_finish_dead();
}

/* A self-reaping thread is off its stack once another task runs on its CPU:
 * free it (task_release frees without sleeping; interrupts may be off). */
static void sched_finish_dead(void)
{
	struct cpu *c = this_cpu();
	struct task *d = c->sched_dead;

	if (d) {
		c->sched_dead = NULL;
		task_release(d);
	}
}

void sched_wait_off_cpu(struct task *t)
{
	u32 flags;
	bool busy;

	do {
		flags = rq_lock_irqsave();
		busy = t->on_cpu;
		spin_unlock_irqrestore(&rq_lock, flags);
		if (busy)
			cpu_relax();
	} while (busy);
}

/* First C code of a new task: finish the switch that brought it here. */
void sched_tail(void)
{
	spin_unlock(&rq_lock);
	sched_finish_dead();
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

/* The first idle CPU in allowed, from CPU first on, that is still polling
 * (polling only) or any; -1 if none. rq_lock held. */
static int find_idle_cpu(u32 allowed, u32 first, bool polling)
{
	for (u32 n = 0, i = first; n < NR_CPUS; n++, i = (i + 1) % NR_CPUS) {
		struct cpu *c = &cpus[i];

		if ((allowed & (1u << i)) && c->curr == c->idle && !c->idle->need_resched &&
		    (!polling || READ_ONCE(c->idle_polling)))
			return i;
	}
	return -1;
}

/* An idle CPU t may run on, marked (need_resched) so that the next wake-up
 * picks another; -1 if none. One still polling before hlt comes first (it
 * sees the mark without an IPI, and its host thread is not asleep), then
 * t's last CPU and on. rq_lock held. */
static int claim_idle_cpu(struct task *t)
{
	u32 allowed = t->cpus_allowed & sched_cpu_mask;
	int i;

	if (!(allowed & (1u << t->cpu)))
		t->cpu = __builtin_ctz(allowed);
	i = find_idle_cpu(allowed, t->cpu, true);
	if (i < 0)
		i = find_idle_cpu(allowed, t->cpu, false);
	if (i >= 0)
		cpus[i].idle->need_resched = 1;
	return i;
}

/* Have CPU cpu look at need_resched soon: this one on its way out of the
 * interrupt or system call, one polling in its idle loop by itself (the
 * fence pairs with idle_poll's: either it sees need_resched or we see it no
 * longer polling), any other by IPI. */
static void kick_cpu(int cpu)
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

int wake_up_state(struct task *t, long mask)
{
	int woken = 0, target = -1;
	u32 flags;

	flags = rq_lock_irqsave();
	if (t->state & mask & ~WAKE_SYNC) {
		trace_wakeup(t->pid, t->tgid);
		t->state = TASK_RUNNING;
		if (!t->on_rq && !t->on_cpu) {
			bool next_here = wake_is_sync(mask) && list_empty(&run_queue) &&
					 (t->cpus_allowed & (1u << smp_processor_id()));

			enqueue(t);
			if (!next_here)		/* else the waker's CPU picks it next */
				target = claim_idle_cpu(t);
		}
		woken = 1;
	}
	spin_unlock_irqrestore(&rq_lock, flags);
	kick_cpu(target);
	return woken;
}

int sched_set_affinity(struct task *t, u32 mask)
{
	int target = -1;
	u32 flags;

	mask &= sched_cpu_mask;
	if (!mask)
		return -EINVAL;
	flags = rq_lock_irqsave();
	t->cpus_allowed = mask;
	if (t->on_cpu && !(mask & (1u << t->cpu))) {
		t->need_resched = 1;		/* off this CPU at its next chance */
		target = t->cpu;
	} else if (t->on_rq) {
		target = claim_idle_cpu(t);
	}
	spin_unlock_irqrestore(&rq_lock, flags);
	if (t == current && target >= 0)
		schedule();			/* enqueued, picked where allowed */
	else
		kick_cpu(target);
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

void signal_wake_up(struct task *t, bool fatal)
{
	wake_up_state(t, TASK_INTERRUPTIBLE | (fatal ? TASK_WAKEKILL | TASK_STOPPED : 0));
}

/* Hard irq context, interrupts off: nothing else touches the queue now. */
void scheduler_tick(bool user)
{
	struct cpu *c = this_cpu();
	struct task *p = current, *idle = c->idle;

	p->ticks++;
	sched_account(c, p);
	if (p != idle && user)
		p->user_ticks++;		/* getrusage, times (kernel/rusage.c) */
	else if (p != idle)
		p->sys_ticks++;
	if (p == idle) {
		if (run_queue_busy())		/* work nobody woke us for (affinity) */
			p->need_resched = 1;
		return;
	}
	if (--p->time_slice <= 0) {
		p->time_slice = SCHED_SLICE_TICKS;
		if (run_queue_busy())
			p->need_resched = 1;
	}
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
 * read at queue depth 1). Interrupts stay on while polling.
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
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* then need_resched is read: kick_cpu */
}

/* Each CPU's idle task: wait for need_resched (a wake-up that picked this
 * CPU sets it; the tick sets it when work is queued), then schedule. */
static int idle_loop(void *unused)
{
	struct task *idle = current;

	for (;;) {
		while (!idle->need_resched && idle == cpus[0].idle && trace_drain_step())
			;			/* trace records out while idle (one drain: CPU 0's) */
		if (idle_poll_cycles)
			idle_poll(idle);
		cli();
		if (idle->need_resched) {
			schedule();
		} else {
			asm volatile("sti; hlt" ::: "memory");	/* sti's shadow covers hlt */
			this_cpu()->idle_halts++;
		}
	}
	return 0;
}

int sched_stats_show(char *buf, size_t size)
{
	u64 acquired, contended, wait;
	u32 flags = rq_lock_irqsave();
	int n;

	acquired = rq_stats.acquired;
	contended = rq_stats.contended;
	wait = rq_stats.wait_cycles;
	spin_unlock_irqrestore(&rq_lock, flags);
	n = snprintf(buf, size, "rq_lock acquired %llu contended %llu wait_us %llu\n", acquired,
		     contended, cycles_to_ns(wait) / 1000);
	for (u32 i = 0; i < nr_cpus_online && n < (int)size; i++)
		n += snprintf(buf + n, size - n, "cpu%u switches %u resched_ipis %u ipis_saved %u "
			      "idle_halts %u\n", i, cpus[i].nr_switches, cpus[i].resched_ipis,
			      cpus[i].resched_ipis_saved, cpus[i].idle_halts);
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
	init_task.kstack = (u32)&boot_stack;
	init_task.kstack_top = (u32)&boot_stack + KSTACK_SIZE;
	init_task.on_cpu = true;
	init_task.cpus_allowed = 1;		/* kmain, its boot work and the kernel suites: CPU 0 */
	cpus[0].curr = &init_task;
	cpus[0].acct_tsc = rdtsc();
	sched_cpu_mask = 1;
	idle_poll_cycles = cmdline_get_num(&boot_cmdline, "idle_poll_us", 200) * tsc_khz / 1000;
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
