/* workqueue_test.c: the "workqueue" suite: work queued from hard and soft
 * interrupts runs in thread context, in order; pending, flush, cancel, teardown;
 * per-CPU workers: work runs on the queuing CPU, cancel waits for a run on
 * another CPU, an item queued while it runs elsewhere waits its turn there. */
#include "clock.h"
#include "ktest.h"
#include "sched.h"
#include "smp.h"
#include "softirq.h"
#include "string.h"
#include "timer.h"
#include "wait.h"
#include "workqueue.h"
#include "x86.h"

#define IRQ_WORKS	64

struct test_work {
	struct work_struct work;
	int index;
};

static struct test_work works[IRQ_WORKS];
static volatile int queued, ran, out_of_order, bad_context, next_index;

static void record_work(struct work_struct *w)
{
	struct test_work *tw = container_of(w, struct test_work, work);

	if (tw->index != next_index)
		out_of_order++;
	next_index = tw->index + 1;
	if (in_interrupt() || strcmp(current->name, "events") || !(read_eflags() & EFLAGS_IF))
		bad_context++;
	ran++;
}

static void reset_works(void)
{
	queued = ran = out_of_order = bad_context = next_index = 0;
	for (int i = 0; i < IRQ_WORKS; i++) {
		INIT_WORK(&works[i].work, record_work);
		works[i].index = i;
	}
}

/* RTC interrupt (hard irq): queue the next item, one per interrupt. */
static void queue_from_irq(void *data)
{
	if (queued < IRQ_WORKS && in_irq() && schedule_work(&works[queued].work))
		queued++;
}

static void work_from_hardirq_runs_in_thread_in_order(struct ktest *t)
{
	reset_works();
	ASSERT_EQ(t, rtc_periodic_start(1024, queue_from_irq, NULL), 0);
	while (queued < IRQ_WORKS)
		msleep(2);
	rtc_periodic_stop();
	flush_scheduled_work();
	EXPECT_EQ(t, ran, IRQ_WORKS);
	EXPECT_EQ(t, out_of_order, 0);
	EXPECT_EQ(t, bad_context, 0);
}

static struct timer_list burst_timer;

/* Timer callback (softirq): queue every item in one go. */
static void queue_burst(unsigned long data)
{
	for (int i = 0; i < IRQ_WORKS; i++)
		queued += schedule_work(&works[i].work);
}

static void work_from_softirq_runs_in_order(struct ktest *t)
{
	reset_works();
	setup_timer(&burst_timer, queue_burst, 0);
	burst_timer.expires = jiffies + 1;
	add_timer(&burst_timer);
	msleep(10);
	flush_scheduled_work();
	EXPECT_EQ(t, queued, IRQ_WORKS);
	EXPECT_EQ(t, ran, IRQ_WORKS);
	EXPECT_EQ(t, out_of_order, 0);
	EXPECT_EQ(t, bad_context, 0);
}

static void pending_work_queues_once(struct ktest *t)
{
	reset_works();
	preempt_disable();		/* the worker cannot start it in between */
	EXPECT_TRUE(t, schedule_work(&works[0].work));
	EXPECT_FALSE(t, schedule_work(&works[0].work));
	preempt_enable();
	flush_scheduled_work();
	EXPECT_EQ(t, ran, 1);
	EXPECT_TRUE(t, schedule_work(&works[0].work));	/* ran: may queue again */
	flush_scheduled_work();
	EXPECT_EQ(t, ran, 2);
}

static volatile int slow_done;

static void slow_work(struct work_struct *w)
{
	msleep(20);			/* work may sleep */
	slow_done = 1;
}

static void flush_and_cancel(struct ktest *t)
{
	DECLARE_WORK(slow, slow_work);

	reset_works();
	slow_done = 0;
	schedule_work(&slow);
	schedule_work(&works[0].work);
	schedule_work(&works[1].work);
	msleep(5);			/* slow is running, the others wait */
	EXPECT_TRUE(t, cancel_work_sync(&works[0].work));	/* pending: removed */
	EXPECT_FALSE(t, cancel_work_sync(&slow));	/* running: waited for */
	EXPECT_EQ(t, slow_done, 1);
	flush_scheduled_work();
	EXPECT_EQ(t, ran, 1);				/* only works[1] */
	EXPECT_EQ(t, next_index, 2);
}

static void private_queue_lifecycle(struct ktest *t)
{
	int base = nr_tasks;
	struct workqueue_struct *wq = create_workqueue("testwq");

	ASSERT_NOT_NULL(t, wq);
	EXPECT_EQ(t, nr_tasks, base + (int)nr_cpus_online);	/* a worker per CPU */
	reset_works();
	for (int i = 0; i < 10; i++)
		queue_work(wq, &works[i].work);
	destroy_workqueue(wq);			/* runs them, then stops */
	EXPECT_EQ(t, next_index, 10);
	EXPECT_EQ(t, nr_tasks, base);
}

/* ---- per-CPU workers ---- */

#define WQ_SPIN_MS	60

static struct work_struct cpu_works[NR_CPUS];
static volatile int work_cpu[NR_CPUS];
static volatile u32 wq_target;

static void record_work_cpu(struct work_struct *w)
{
	work_cpu[w - cpu_works] = smp_processor_id();
}

/* In each CPU's call-function IPI (a hard interrupt): queue that CPU's item. */
static void queue_own_work(void *unused)
{
	schedule_work(&cpu_works[smp_processor_id()]);
}

static void work_runs_on_queuing_cpu(struct ktest *t)
{
	for (u32 cpu = 0; cpu < nr_cpus_online; cpu++) {
		INIT_WORK(&cpu_works[cpu], record_work_cpu);
		work_cpu[cpu] = -1;
	}
	on_each_cpu(queue_own_work, NULL);
	flush_scheduled_work();			/* every CPU's worker */
	for (u32 cpu = 0; cpu < nr_cpus_online; cpu++)
		if (!EXPECT_EQ(t, work_cpu[cpu], (int)cpu))
			ktest_log("work queued on CPU %u ran on CPU %d", cpu, work_cpu[cpu]);
}

static struct {
	struct work_struct w;
	volatile int inside, started, done, runs, overlaps, cpu[2];
} sw;

/* Sleeps and spins WQ_SPIN_MS; counts runs and any run inside another. */
static void spin_work(struct work_struct *w)
{
	u64 until;

	if (__atomic_add_fetch(&sw.inside, 1, __ATOMIC_ACQ_REL) != 1)
		sw.overlaps++;
	if (sw.runs < 2)
		sw.cpu[sw.runs] = smp_processor_id();
	sw.done = 0;
	__atomic_store_n(&sw.started, 1, __ATOMIC_RELEASE);
	msleep(WQ_SPIN_MS / 2);
	for (until = rdtsc() + (u64)tsc_khz * (WQ_SPIN_MS / 2); rdtsc() < until; )
		cpu_relax();
	sw.runs++;
	sw.done = 1;
	__atomic_sub_fetch(&sw.inside, 1, __ATOMIC_ACQ_REL);
}

static void queue_spin_on_target(void *unused)
{
	if (smp_processor_id() == wq_target)
		schedule_work(&sw.w);
}

/* Queue sw.w on the last CPU (in its IPI) and wait until it runs there. */
static bool start_spin_work_elsewhere(void)
{
	u64 until = rdtsc() + (u64)tsc_khz * 2000;

	memset((void *)&sw, 0, sizeof(sw));
	INIT_WORK(&sw.w, spin_work);
	wq_target = nr_cpus_online - 1;
	on_each_cpu(queue_spin_on_target, NULL);
	while (!__atomic_load_n(&sw.started, __ATOMIC_ACQUIRE) && rdtsc() < until)
		msleep(1);
	return sw.started;
}

/* cancel_work_sync on CPU 0 while the item runs on another CPU waits for it. */
static void cancel_waits_for_other_cpu(struct ktest *t)
{
	ASSERT_TRUE(t, start_spin_work_elsewhere());
	EXPECT_FALSE(t, cancel_work_sync(&sw.w));	/* running, not pending */
	EXPECT_EQ(t, sw.done, 1);
	EXPECT_EQ(t, sw.runs, 1);
	EXPECT_EQ(t, sw.cpu[0], (int)wq_target);
}

/* Queued from CPU 0 while it runs on another CPU, an item runs again after
 * that run, on the same worker: never twice at once. */
static void requeue_while_running_waits_its_turn(struct ktest *t)
{
	ASSERT_TRUE(t, start_spin_work_elsewhere());
	EXPECT_TRUE(t, schedule_work(&sw.w));		/* it runs: not pending */
	flush_scheduled_work();
	EXPECT_EQ(t, sw.runs, 2);
	EXPECT_EQ(t, sw.overlaps, 0);
	EXPECT_EQ(t, sw.cpu[0], (int)wq_target);
	EXPECT_EQ(t, sw.cpu[1], (int)wq_target);
}

static const struct ktest_case workqueue_cases[] = {
	KTEST_CASE(work_from_hardirq_runs_in_thread_in_order),
	KTEST_CASE(work_from_softirq_runs_in_order),
	KTEST_CASE(pending_work_queues_once),
	KTEST_CASE(flush_and_cancel),
	KTEST_CASE(private_queue_lifecycle),
	KTEST_CASE(work_runs_on_queuing_cpu),
	KTEST_CASE(cancel_waits_for_other_cpu),
	KTEST_CASE(requeue_while_running_waits_its_turn),
};
KTEST_SUITE(workqueue_suite, "workqueue", workqueue_cases);
