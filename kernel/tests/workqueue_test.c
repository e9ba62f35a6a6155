/* workqueue_test.c: the "workqueue" suite: work queued from hard and soft
 * interrupts runs in thread context, in order; pending, flush, cancel, teardown. */
#include "clock.h"
#include "ktest.h"
#include "sched.h"
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
	EXPECT_EQ(t, nr_tasks, base + 1);
	reset_works();
	for (int i = 0; i < 10; i++)
		queue_work(wq, &works[i].work);
	destroy_workqueue(wq);			/* runs them, then stops */
	EXPECT_EQ(t, next_index, 10);
	EXPECT_EQ(t, nr_tasks, base);
}

static const struct ktest_case workqueue_cases[] = {
	KTEST_CASE(work_from_hardirq_runs_in_thread_in_order),
	KTEST_CASE(work_from_softirq_runs_in_order),
	KTEST_CASE(pending_work_queues_once),
	KTEST_CASE(flush_and_cancel),
	KTEST_CASE(private_queue_lifecycle),
};
KTEST_SUITE(workqueue_suite, "workqueue", workqueue_cases);
