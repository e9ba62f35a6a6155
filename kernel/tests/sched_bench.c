/* sched_bench.c: the "sched_bench" suite: medians of many rdtsc-timed runs of a
 * context switch, add_timer + del_timer (1 vs 10,000 pending) and a wake_up. */
#include "clock.h"
#include "ktest.h"
#include "sched.h"
#include "timer.h"
#include "wait.h"
#include "x86.h"

#define SAMPLES		2000
#define MANY_TIMERS	10000
#define O1_RATIO	3		/* 10,000 pending may cost at most 3x one pending */

static u32 samples[SAMPLES];
static u32 stamps[2][SAMPLES + 1];
static struct timer_list pending_timers[MANY_TIMERS];

static u32 median(u32 *v, int n)
{
	for (int gap = n / 2; gap > 0; gap /= 2)	/* shell sort */
		for (int i = gap; i < n; i++)
			for (int j = i; j >= gap && v[j - gap] > v[j]; j -= gap) {
				u32 x = v[j];
				v[j] = v[j - gap];
				v[j - gap] = x;
			}
	return v[n / 2];
}

static void log_cycles(const char *what, u32 cycles)
{
	ktest_log("%s: %u cycles (%llu ns), median of %d", what, cycles,
		  cycles_to_ns(cycles), SAMPLES);
}

static volatile int go;

static int yielder(void *arg)
{
	u32 *mine = stamps[(u32)arg];

	while (!go)
		yield();
	for (int i = 0; i <= SAMPLES; i++) {
		mine[i] = (u32)rdtsc();
		yield();
	}
	return 0;
}

static void context_switch(struct ktest *t)
{
	struct task *a, *b;

	go = 0;
	a = kthread_run(yielder, (void *)0, "bench0");
	b = kthread_run(yielder, (void *)1, "bench1");
	ASSERT_FALSE(t, IS_ERR(a) || IS_ERR(b));
	go = 1;
	kthread_stop(a);		/* kmain sleeps: only the two alternate */
	kthread_stop(b);
	for (int i = 0; i < SAMPLES; i++)	/* a's stamps are two switches apart */
		samples[i] = (stamps[0][i + 1] - stamps[0][i]) / 2;
	log_cycles("context switch (yield, thread to thread)", median(samples, SAMPLES));
}

static u32 time_add_del(void)
{
	struct timer_list tm;

	setup_timer(&tm, NULL, 0);
	for (int i = 0; i < SAMPLES; i++) {
		u64 t0;
		tm.expires = jiffies + 100 + (i * 7919) % 100000;	/* all wheel levels */
		t0 = rdtsc();
		add_timer(&tm);
		del_timer(&tm);
		samples[i] = rdtsc() - t0;
	}
	return median(samples, SAMPLES);
}

static void add_del_timer_is_o1(struct ktest *t)
{
	u32 one, many;

	setup_timer(&pending_timers[0], NULL, 0);
	pending_timers[0].expires = jiffies + 1000000;
	add_timer(&pending_timers[0]);
	one = time_add_del();
	for (int i = 1; i < MANY_TIMERS; i++) {
		setup_timer(&pending_timers[i], NULL, 0);
		pending_timers[i].expires = jiffies + 5000 + (i * 104729) % 1000000;
		add_timer(&pending_timers[i]);
	}
	many = time_add_del();
	for (int i = 0; i < MANY_TIMERS; i++)
		del_timer(&pending_timers[i]);
	log_cycles("add_timer + del_timer, 1 pending", one);
	log_cycles("add_timer + del_timer, 10000 pending", many);
	EXPECT_LE(t, many, O1_RATIO * one);
}

static DECLARE_WAIT_QUEUE_HEAD(bench_wq);
static volatile int bench_flag;

static int bench_waiter(void *arg)
{
	while (!kthread_should_stop()) {
		wait_event(bench_wq, bench_flag || kthread_should_stop());
		bench_flag = 0;
	}
	return 0;
}

static void wake_up_one_waiter(struct ktest *t)
{
	struct task *w = kthread_run(bench_waiter, NULL, "benchwait");

	ASSERT_FALSE(t, IS_ERR(w));
	for (int i = 0; i < SAMPLES; i++) {
		u64 t0;
		while (!waitqueue_active(&bench_wq) || w->state == TASK_RUNNING)
			yield();	/* let it go back to sleep */
		bench_flag = 1;
		t0 = rdtsc();
		wake_up(&bench_wq);
		samples[i] = rdtsc() - t0;
	}
	kthread_stop(w);
	log_cycles("wake_up of one waiter", median(samples, SAMPLES));
}

static void clock_read(struct ktest *t)
{
	for (int i = 0; i < SAMPLES; i++) {
		u64 t0 = rdtsc();
		(void)ktime_get_ns();
		samples[i] = rdtsc() - t0;
	}
	log_cycles("ktime_get_ns", median(samples, SAMPLES));
}

static const struct ktest_case sched_bench_cases[] = {
	KTEST_CASE(context_switch),
	KTEST_CASE(add_del_timer_is_o1),
	KTEST_CASE(wake_up_one_waiter),
	KTEST_CASE(clock_read),
};
KTEST_SUITE(sched_bench_suite, "sched_bench", sched_bench_cases);
