/* waitqueue_test.c: the "waitqueue" suite: exclusive wake-ups, wake-ups racing
 * the sleeper from a hard interrupt, signals, timeouts and completions. */
#include "clock.h"
#include "errno.h"
#include "ktest.h"
#include "sched.h"
#include "string.h"
#include "timer.h"
#include "wait.h"
#include "x86.h"

#define RACE_ROUNDS	3000
#define RACE_HZ		8192		/* RTC periodic interrupt rate */
#define RACE_LOST_TICKS	5	/* a wait this long (at 8 kHz) means a lost wake-up */

static DECLARE_WAIT_QUEUE_HEAD(excl_wq);
static volatile int arrived, woken_excl, woken_shared;

/* Sleep once on excl_wq (exclusive or not), then count the wake-up. */
static int one_shot_waiter(void *arg)
{
	bool exclusive = arg != NULL;
	DEFINE_WAIT(w);

	if (exclusive)
		prepare_to_wait_exclusive(&excl_wq, &w, TASK_UNINTERRUPTIBLE);
	else
		prepare_to_wait(&excl_wq, &w, TASK_UNINTERRUPTIBLE);
	arrived++;
	schedule();
	finish_wait(&excl_wq, &w);
	if (exclusive)
		woken_excl++;
	else
		woken_shared++;
	return 0;
}

static bool all_asleep(struct task **th, int n)
{
	for (int i = 0; i < n; i++)
		if (th[i]->state == TASK_RUNNING)
			return false;
	return true;
}

static void exclusive_wake_wakes_one(struct ktest *t)
{
	struct task *th[6];
	int base = nr_tasks;

	arrived = woken_excl = woken_shared = 0;
	for (int i = 0; i < 6; i++)	/* 4 exclusive, 2 shared */
		th[i] = kthread_run(one_shot_waiter, i < 4 ? (void *)1 : NULL, "waiter");
	while (arrived < 6 || !all_asleep(th, 6))
		msleep(1);
	wake_up(&excl_wq);
	msleep(10);
	EXPECT_EQ(t, woken_shared, 2);		/* every non-exclusive waiter */
	EXPECT_EQ(t, woken_excl, 1);		/* exactly one exclusive one */
	wake_up(&excl_wq);
	msleep(10);
	EXPECT_EQ(t, woken_excl, 2);
	EXPECT_TRUE(t, waitqueue_active(&excl_wq));
	wake_up_all(&excl_wq);
	msleep(10);
	EXPECT_EQ(t, woken_excl, 4);
	EXPECT_FALSE(t, waitqueue_active(&excl_wq));
	for (int i = 0; i < 6; i++)
		kthread_stop(th[i]);
	EXPECT_EQ(t, nr_tasks, base);
}

static DECLARE_WAIT_QUEUE_HEAD(race_wq);
static volatile int race_armed, race_flag, race_window_hits, race_lost;
static struct task *race_sleeper;
static struct timer_list race_watchdog;

/* RTC interrupt: once per round, make the condition true and wake. Notes when
 * it struck the sleeper between setting its state and switching away. */
static void race_irq(void *data)
{
	if (!race_armed)
		return;
	if (current == race_sleeper && current->state != TASK_RUNNING)
		race_window_hits++;
	race_armed = 0;
	race_flag = 1;
	wake_up(&race_wq);
}

/* Fires RACE_LOST_TICKS into a round: a sleeper still asleep although the
 * interrupt already set the flag and called wake_up() lost its wake-up.
 * Counting only that case keeps a slow (loaded) host from looking like a loss.
 * Asleep means switched out and off the run queue: a sleeper this interrupts
 * between setting its state and testing the flag (current), or one preempted
 * there (on the run queue), will still see the flag; when a loaded host makes
 * a round last RACE_LOST_TICKS, this timer can strike just then. */
static void race_watchdog_fire(unsigned long data)
{
	if (race_flag && race_sleeper != current && !race_sleeper->on_rq &&
	    wake_up_process(race_sleeper))
		race_lost++;
}

static void spin(u32 n)
{
	while (n--)
		cpu_relax();
}

/* The wait_event protocol spelled out, with a delay of `widen` spins inside
 * the window between "state set, queued" and schedule(): the interrupt lands
 * there often. */
static void race_wait_widened(u32 widen)
{
	DEFINE_WAIT(w);

	for (;;) {
		prepare_to_wait(&race_wq, &w, TASK_UNINTERRUPTIBLE);
		if (race_flag)
			break;
		spin(widen);
		schedule();
	}
	finish_wait(&race_wq, &w);
}

/* One round: arm the interrupt, wait for it with wait_event (widen == 0) or
 * the widened loop. */
static void race_round(u32 delay, u32 widen)
{
	race_flag = 0;
	barrier();
	race_armed = 1;
	mod_timer(&race_watchdog, jiffies + RACE_LOST_TICKS);
	spin(delay);			/* vary where the interrupt lands */
	if (widen)
		race_wait_widened(widen);
	else
		wait_event(race_wq, race_flag);
	del_timer_sync(&race_watchdog);
}

static void irq_wakeup_never_lost(struct ktest *t)
{
	u32 seed = 12345, hits_plain;

	race_sleeper = current;
	race_window_hits = race_lost = 0;
	setup_timer(&race_watchdog, race_watchdog_fire, 0);
	ASSERT_EQ(t, rtc_periodic_start(RACE_HZ, race_irq, NULL), 0);
	for (int i = 0; i < RACE_ROUNDS; i++) {
		seed = seed * 1103515245 + 12345;
		race_round((seed >> 16) % 400, 0);
	}
	hits_plain = race_window_hits;
	for (int i = 0; i < RACE_ROUNDS; i++) {
		seed = seed * 1103515245 + 12345;
		race_round((seed >> 8) % 64, 1 + (seed >> 16) % 2000);
	}
	rtc_periodic_stop();
	ktest_log("%d rounds: wake-ups inside the sleep window: %u with wait_event, %u widened",
		  2 * RACE_ROUNDS, hits_plain, race_window_hits - hits_plain);
	EXPECT_EQ(t, race_lost, 0);
	EXPECT_GE(t, race_window_hits - hits_plain, RACE_ROUNDS / 10);	/* the race was run */
}

static DECLARE_WAIT_QUEUE_HEAD(never_wq);

static int wait_forever_interruptible(void *arg)
{
	return wait_event_interruptible(never_wq, false);
}

static void signal_interrupts_wait(struct ktest *t)
{
	struct task *th = kthread_run(wait_forever_interruptible, NULL, "sigwait");

	ASSERT_FALSE(t, IS_ERR(th));
	msleep(5);
	EXPECT_EQ(t, th->state, TASK_INTERRUPTIBLE);
	EXPECT_TRUE(t, th->wait_channel == &never_wq);
	th->sigpending = 1;
	signal_wake_up(th, false);
	EXPECT_EQ(t, kthread_stop(th), -EINTR);
	current->sigpending = 1;		/* an already pending signal */
	EXPECT_EQ(t, wait_event_interruptible_timeout(never_wq, false, 10), -EINTR);
	EXPECT_EQ(t, wait_event_interruptible(never_wq, true), 0);	/* cond wins */
	current->sigpending = 0;
}

static void timeout_variants(struct ktest *t)
{
	unsigned long j0 = jiffies;

	EXPECT_EQ(t, wait_event_timeout(never_wq, false, 5), 0);
	EXPECT_GE(t, jiffies - j0, 5);
	EXPECT_EQ(t, wait_event_timeout(never_wq, true, 5), 5);
	EXPECT_EQ(t, wait_event_timeout(never_wq, true, 0), 1);
	EXPECT_EQ(t, wait_event_interruptible_timeout(never_wq, false, 2), 0);
	EXPECT_FALSE(t, waitqueue_active(&never_wq));
	EXPECT_EQ(t, current->state, TASK_RUNNING);
}

static void add_and_remove(struct ktest *t)
{
	DECLARE_WAITQUEUE(a, current);
	DECLARE_WAITQUEUE(b, current);

	EXPECT_FALSE(t, waitqueue_active(&never_wq));
	add_wait_queue(&never_wq, &a);
	add_wait_queue_exclusive(&never_wq, &b);
	EXPECT_TRUE(t, waitqueue_active(&never_wq));
	EXPECT_TRUE(t, never_wq.head.next == &a.entry);	/* shared at the head */
	EXPECT_TRUE(t, never_wq.head.prev == &b.entry);	/* exclusive at the tail */
	remove_wait_queue(&never_wq, &a);
	remove_wait_queue(&never_wq, &b);
	EXPECT_FALSE(t, waitqueue_active(&never_wq));
}

static struct completion done;

static int completer(void *arg)
{
	msleep(5);
	complete(&done);
	return 0;
}

static void completions(struct ktest *t)
{
	struct task *th;

	init_completion(&done);
	EXPECT_EQ(t, wait_for_completion_timeout(&done, 2), 0);
	th = kthread_run(completer, NULL, "completer");
	wait_for_completion(&done);
	EXPECT_FALSE(t, try_wait_for_completion(&done));
	kthread_stop(th);
	complete_all(&done);
	EXPECT_TRUE(t, try_wait_for_completion(&done));
	EXPECT_TRUE(t, try_wait_for_completion(&done));	/* all: stays done */
}

static const struct ktest_case waitqueue_cases[] = {
	KTEST_CASE(exclusive_wake_wakes_one),
	KTEST_CASE(irq_wakeup_never_lost),
	KTEST_CASE(signal_interrupts_wait),
	KTEST_CASE(timeout_variants),
	KTEST_CASE(add_and_remove),
	KTEST_CASE(completions),
};
KTEST_SUITE(waitqueue_suite, "waitqueue", waitqueue_cases);
