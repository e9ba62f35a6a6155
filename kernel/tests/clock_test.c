/* clock_test.c: the "clock" suite: jiffies, the TSC clock, REALTIME vs MONOTONIC,
 * and the realtime-deadline to jiffies conversion the AIO core uses. */
#include "clock.h"
#include "ktest.h"
#include "x86.h"

#define EPOCH_2023	1672531200ULL	/* 2023-01-01T00:00:00Z */
#define EPOCH_2100	4102444800ULL

/* Busy-wait (interrupts on) until jiffies reaches j. */
static void wait_jiffies(unsigned long j)
{
	while (time_before(jiffies, j))
		hlt();
}

/* Wait for a tick edge and return the jiffies value just reached. */
static unsigned long next_tick(void)
{
	unsigned long j = jiffies;

	while (jiffies == j)
		cpu_relax();
	return jiffies;
}

static void realtime_is_plausible(struct ktest *t)
{
	struct kernel_timespec ts;

	ktime_get_real_ts(&ts);
	ktest_log("realtime %lld.%09ld, TSC %u kHz", ts.tv_sec, ts.tv_nsec, tsc_khz);
	EXPECT_GE(t, ts.tv_sec, EPOCH_2023);
	EXPECT_LE(t, ts.tv_sec, EPOCH_2100);
	EXPECT_TRUE(t, ts.tv_nsec >= 0 && ts.tv_nsec < (long)NSEC_PER_SEC);
	EXPECT_GE(t, tsc_khz, 10000);		/* at least 10 MHz */
}

static void monotonic_has_sub_tick_resolution(struct ktest *t)
{
	u64 prev = ktime_get_ns(), now;
	int backwards = 0, distinct = 0;
	unsigned long j = jiffies;

	for (int i = 0; i < 20000; i++) {
		now = ktime_get_ns();
		backwards += now < prev;
		distinct += now != prev && jiffies == j;
		prev = now;
	}
	EXPECT_EQ(t, backwards, 0);
	EXPECT_GE(t, distinct, 100);		/* many values inside one tick */
}

static void realtime_advances_with_monotonic(struct ktest *t)
{
	u64 m0, r0, m1, r1;
	s64 skew;

	m0 = ktime_get_ns();			/* warm up: the first pass is translated */
	r0 = ktime_get_real_ns();
	m0 = ktime_get_ns();
	r0 = ktime_get_real_ns();

	wait_jiffies(jiffies + 10);
	m1 = ktime_get_ns();
	r1 = ktime_get_real_ns();
	skew = (s64)(r1 - r0) - (s64)(m1 - m0);
	EXPECT_GE(t, m1 - m0, 9 * (u64)TICK_NSEC);
	EXPECT_LE(t, skew < 0 ? -skew : skew, 100000);	/* 100 us: two reads apart */
}

static void tsc_agrees_with_jiffies(struct ktest *t)
{
	const int ticks = 50;
	unsigned long j0 = next_tick();
	u64 t0 = ktime_get_ns(), elapsed, expect = (u64)ticks * TICK_NSEC;
	s64 err;

	wait_jiffies(j0 + ticks);
	elapsed = ktime_get_ns() - t0;
	err = (s64)elapsed - (s64)expect;
	ktest_log("%d ticks: %llu ns by the TSC, %llu ns by jiffies", ticks, elapsed, expect);
	EXPECT_LE(t, err < 0 ? -err : err, TICK_NSEC);	/* within one tick */
}

static void deadline_to_jiffies(struct ktest *t)
{
	u64 now = ktime_get_real_ns(), deadline = now + 30 * NSEC_PER_MSEC, late;
	unsigned long j = ktime_real_to_jiffies(deadline);

	EXPECT_EQ(t, ktime_real_to_jiffies(now - NSEC_PER_SEC), jiffies);
	EXPECT_LE(t, j - jiffies, msecs_to_jiffies(30) + 1);
	wait_jiffies(j);
	now = ktime_get_real_ns();
	EXPECT_GE(t, now, deadline);			/* never early */
	late = now - deadline;
	EXPECT_LE(t, late, TICK_NSEC + 500 * NSEC_PER_USEC);	/* at most a tick late */
}

static void conversions(struct ktest *t)
{
	struct kernel_timespec ts;

	EXPECT_EQ(t, msecs_to_jiffies(0), 0);
	EXPECT_EQ(t, msecs_to_jiffies(1), 1);
	EXPECT_EQ(t, msecs_to_jiffies(4), 1);		/* 4 ms < one 4.0002 ms tick */
	EXPECT_EQ(t, msecs_to_jiffies(1000), 250);
	EXPECT_EQ(t, jiffies_to_msecs(HZ), 1000);
	ns_to_timespec(3 * NSEC_PER_SEC + 7, &ts);
	EXPECT_EQ(t, ts.tv_sec, 3);
	EXPECT_EQ(t, ts.tv_nsec, 7);
	EXPECT_EQ(t, timespec_to_ns(&ts), 3 * NSEC_PER_SEC + 7);
	EXPECT_TRUE(t, time_after(INITIAL_JIFFIES + 10, INITIAL_JIFFIES));
	EXPECT_TRUE(t, time_after(5UL, (unsigned long)-5));	/* across the wrap */
}

static void udelay_waits_long_enough(struct ktest *t)
{
	u64 t0 = ktime_get_ns(), d;

	udelay(2000);
	d = ktime_get_ns() - t0;
	EXPECT_GE(t, d, 2000 * NSEC_PER_USEC);
	EXPECT_LE(t, d, 20 * NSEC_PER_MSEC);
}

static const struct ktest_case clock_cases[] = {
	KTEST_CASE(realtime_is_plausible),
	KTEST_CASE(monotonic_has_sub_tick_resolution),
	KTEST_CASE(realtime_advances_with_monotonic),
	KTEST_CASE(tsc_agrees_with_jiffies),
	KTEST_CASE(deadline_to_jiffies),
	KTEST_CASE(conversions),
	KTEST_CASE(udelay_waits_long_enough),
};
KTEST_SUITE(clock_suite, "clock", clock_cases);
