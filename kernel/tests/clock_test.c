/* clock_test.c: the "clock" suite: jiffies, the TSC clock, REALTIME vs MONOTONIC,
 * and the realtime-deadline to jiffies conversion the AIO core uses. */
#include "clock.h"
#include "irq.h"
#include "ktest.h"
#include "test_hooks.h"
#include "timing.h"
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
	ktest_log("realtime %ld.%09ld, TSC %u kHz", ts.tv_sec, ts.tv_nsec, tsc_khz);
	EXPECT_GE(t, ts.tv_sec, EPOCH_2023);
	EXPECT_LE(t, ts.tv_sec, EPOCH_2100);
	EXPECT_TRUE(t, ts.tv_nsec >= 0 && ts.tv_nsec < (long)NSEC_PER_SEC);
	EXPECT_GE(t, tsc_khz, 10000);		/* at least 10 MHz */
}

static void monotonic_has_sub_tick_resolution(struct ktest *t)
{
	u64 prev = ktime_get_ns(), now;
	int backwards = 0, distinct = 0, best = 0;
	unsigned long j = jiffies;

	for (int i = 0; i < 20000; i++) {
		now = ktime_get_ns();
		backwards += now < prev;
		if (jiffies != j) {		/* count per tick: keep the best tick */
			j = jiffies;
			distinct = 0;
		}
		distinct += now != prev;
		best = distinct > best ? distinct : best;
		prev = now;
	}
	EXPECT_EQ(t, backwards, 0);
	EXPECT_GE(t, best, 100);		/* many values inside one tick */
}

/* Timing upper bounds below are checked as "best of ATTEMPTS": a loaded host
 * can deschedule the emulator (late ticks, a gap between two reads) and only
 * ever makes a measurement longer, never shorter. Lower bounds hold always. */
#define ATTEMPTS	4

static s64 abs64(s64 v) { return v < 0 ? -v : v; }

/* |(realtime delta) - (monotonic delta)| over ten ticks. */
static s64 real_mono_skew(void)
{
	u64 m0 = ktime_get_ns(), r0 = ktime_get_real_ns(), m1, r1;

	wait_jiffies(jiffies + 10);
	m1 = ktime_get_ns();
	r1 = ktime_get_real_ns();
	return abs64((s64)(r1 - r0) - (s64)(m1 - m0));
}

static void realtime_advances_with_monotonic(struct ktest *t)
{
	s64 best = real_mono_skew();		/* also warms the code up */
	u64 m0 = ktime_get_ns(), r0 = ktime_get_real_ns();

	for (int i = 0; i < ATTEMPTS && best > 100000; i++) {
		s64 skew = real_mono_skew();
		best = skew < best ? skew : best;
	}
	EXPECT_LE(t, best, 100000);		/* 100 us: two reads apart */
	EXPECT_GE(t, ktime_get_real_ns() - r0, ktime_get_ns() - m0 - 100000);
}

/* TSC time of `ticks` ticks minus what jiffies says they last. */
static s64 tsc_vs_jiffies(int ticks)
{
	unsigned long j0 = next_tick();
	u64 t0 = ktime_get_ns();

	wait_jiffies(j0 + ticks);
	return (s64)(ktime_get_ns() - t0) - (s64)ticks * TICK_NSEC;
}

static void tsc_agrees_with_jiffies(struct ktest *t)
{
	const int ticks = 50;
	s64 err = tsc_vs_jiffies(ticks);

	for (int i = 0; i < ATTEMPTS && abs64(err) > TICK_NSEC; i++)
		err = tsc_vs_jiffies(ticks);
	ktest_log("%d ticks: the TSC clock and jiffies differ by %lld ns", ticks, err);
	EXPECT_LE(t, abs64(err), TICK_NSEC);	/* within one tick */
}

/* TSC time of n PIT interrupts minus n ticks: checks the calibration itself
 * (jiffies alone agrees with the TSC by construction: it catches up lost
 * ticks). *valid is false when jiffies moved by other than n: ticks were lost
 * to a descheduled emulator (or the TSC runs fast). */
static s64 tsc_vs_pit_interrupts(u32 n, bool *valid)
{
	u32 c = irq_count[0];
	unsigned long j0;
	u64 t0;

	while (irq_count[0] == c)
		cpu_relax();
	t0 = ktime_get_ns();
	j0 = jiffies;
	c = irq_count[0];
	while (irq_count[0] - c < n)
		hlt();
	*valid = jiffies - j0 == n;
	return (s64)(ktime_get_ns() - t0) - (s64)n * TICK_NSEC;
}

static void tsc_calibrated_against_pit(struct ktest *t)
{
	const u32 n = 50;
	int attempts = 0, valid = 0;
	bool ok = false;
	s64 err = 0;

	while (!ok && attempts++ < TIMING_ATTEMPTS) {
		bool whole;
		err = tsc_vs_pit_interrupts(n, &whole);
		valid += whole;
		ok = whole && abs64(err) <= TICK_NSEC;	/* 0.4% of the window */
	}
	ktest_log("%u PIT interrupts: %lld ns off by the TSC clock (%d attempts, %d without lost ticks)",
		  n, err, attempts - (ok ? 0 : 1), valid);
	if (!valid)
		ktest_log("host too loaded: every window lost ticks, calibration not judged");
	EXPECT_TRUE(t, ok || !valid);
}

/* CLOCK_REALTIME - CLOCK_MONOTONIC, as bounds: the two clocks cannot be read
 * at one instant, and the host may stall the emulator between two reads. */
static void real_offset_bounds(s64 *lo, s64 *hi)
{
	u64 m0 = ktime_get_ns(), r = ktime_get_real_ns(), m1 = ktime_get_ns();

	*lo = (s64)(r - m1);
	*hi = (s64)(r - m0);
}

#define HOST_LATE_NS	(500 * NSEC_PER_USEC)

/* The conversion of a deadline 30 ms ahead, judged by arithmetic alone: the
 * tick it picks is due at or after the deadline, and the first such tick.
 * Then wait (spinning) for that tick: returns how late the wait ended;
 * *host_late when ticks were lost meanwhile or the tick came more than
 * HOST_LATE_NS after it was due, i.e. when the host, not the kernel, made it
 * late. (Spinning: a loaded host wakes a halted emulator 4 ms late.) */
static s64 deadline_lateness(struct ktest *t, bool *host_late)
{
	u64 now = ktime_get_real_ns(), deadline = now + 30 * NSEC_PER_MSEC, due;
	unsigned long j = ktime_real_to_jiffies(deadline);
	struct tick_window w;
	s64 off_lo, off_hi;

	due = jiffies_to_ktime(j);
	real_offset_bounds(&off_lo, &off_hi);
	EXPECT_GE(t, (s64)(due - deadline) + off_hi, 0);		/* not before it */
	EXPECT_LE(t, (s64)(due - deadline) + off_lo, (s64)TICK_NSEC);	/* the first one */
	tick_window_start(&w);
	/* ticks the host has not delivered yet put jiffies behind the clock */
	EXPECT_LE(t, j - jiffies, msecs_to_jiffies(30) + 1 +
		  (ktime_get_ns() - jiffies_to_ktime(jiffies)) / TICK_NSEC);
	while (time_before(jiffies, j))
		cpu_relax();
	now = ktime_get_real_ns();
	*host_late = tick_window_stalled(&w) ||
		     ktime_get_ns() - jiffies_to_ktime(j) > HOST_LATE_NS;
	/* Never early, in a window the host left alone. After a stall, the
	 * edge the PIC latched meanwhile may come up to a quarter tick before
	 * its grid point and count (ticks_due): jiffies then leads the clock by
	 * that much; the callers that must not return early (io_getevents_abs,
	 * futex waits) check the clock again after the timer and sleep on. */
	if (!*host_late)
		EXPECT_GE(t, now, deadline);
	return (s64)(now - deadline);
}

static void deadline_to_jiffies(struct ktest *t)
{
	const s64 bound = TICK_NSEC + HOST_LATE_NS;	/* at most a tick late */
	unsigned long j0, past;
	int attempts = 0, valid = 0;
	bool ok = false, host_late;
	s64 late = 0;

	j0 = jiffies;				/* a past deadline: the jiffies of the call */
	past = ktime_real_to_jiffies(ktime_get_real_ns() - NSEC_PER_SEC);
	EXPECT_TRUE(t, time_after_eq(past, j0) && time_before_eq(past, jiffies));
	while (!ok && attempts++ < TIMING_ATTEMPTS) {
		late = deadline_lateness(t, &host_late);
		valid += !host_late;
		ok = !host_late && late <= bound;
		if (!ok)
			ktest_log("attempt %d: late by %lld ns%s", attempts, late,
				  host_late ? " (the host delivered the tick late: not judged)" : "");
	}
	if (!valid)
		ktest_log("host too loaded: every tick came late, lateness not judged");
	EXPECT_TRUE(t, ok || !valid);
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

/* ---- the TSC calibration (time.c): each window brackets the cycles it took */

/* Cycles one calibration window lasts at the boot's rate, and how far the
 * boot's rate may be from the true one (half its window's width, rounded up). */
static u64 window_cycles(void)
{
	return (u64)TSC_CAL_LATCH * tsc_khz * 1000 / PIT_HZ;
}

static bool window_holds_boot_rate(const struct tsc_cal_window *w)
{
	u64 c = window_cycles(), slack = c * ((tsc_cal_ppm + 1) / 2) / 1000000 + 1;

	return w->lo <= c + slack && c <= w->hi + slack;
}

static u64 stall_from, stall_cycles;
static bool stalled_once;

/* The calibration's test hook: once per window, stall across its end. */
static void stall_across_the_end(u64 start)
{
	u64 until;

	if (stalled_once || rdtsc() - start < stall_from)
		return;
	stalled_once = true;
	until = rdtsc() + stall_cycles;
	while ((s64)(rdtsc() - until) < 0)
		cpu_relax();
}

/* Interrupts stay on: one that lands in a bracket only widens it. */
static bool measure_window(struct tsc_cal_window *w, void (*hook)(u64 start))
{
	bool ok;

	tsc_cal_test_hook = hook;
	ok = tsc_cal_measure(w);
	tsc_cal_test_hook = NULL;
	return ok;
}

/* A stall from 90% to 110% of a window, as a descheduled emulator makes one
 * during the poll that sees the count end: the window widens past trust but
 * still holds the true length (it used to come out 10% short, and trusted).
 * Should the host itself stall across the end first, the hook never runs:
 * that window is judged too, and the stall tried again. */
static void tsc_calibration_survives_a_stall(struct ktest *t)
{
	struct tsc_cal_window w;

	stall_from = window_cycles() * 9 / 10;
	stall_cycles = window_cycles() / 5;
	stalled_once = false;
	for (int i = 0; i < ATTEMPTS && !stalled_once; i++) {
		ASSERT_TRUE(t, measure_window(&w, stall_across_the_end));
		EXPECT_TRUE(t, window_holds_boot_rate(&w));
		ktest_log("window with a stall: %llu..%llu cycles (%u ppm wide), %llu expected%s",
			  w.lo, w.hi, tsc_cal_width_ppm(&w), window_cycles(),
			  stalled_once ? "" : " (the host stalled first)");
	}
	if (stalled_once)
		EXPECT_FALSE(t, tsc_cal_narrow(&w));
	else
		ktest_log("host too loaded: it stalled every window before the hook");
}

/* Fresh windows, whatever the host does, each bracket the true rate: the
 * boot's rate must be inside each, give or take its own half width. */
static void tsc_calibration_within_fresh_windows(struct ktest *t)
{
	struct tsc_cal_window w;
	int narrow = 0;

	for (int i = 0; i < ATTEMPTS; i++) {
		ASSERT_TRUE(t, measure_window(&w, NULL));
		narrow += tsc_cal_narrow(&w);
		if (!EXPECT_TRUE(t, window_holds_boot_rate(&w)))
			ktest_log("window %llu..%llu cycles, boot rate %u kHz (+-%u ppm) gives %llu",
				  w.lo, w.hi, tsc_khz, (tsc_cal_ppm + 1) / 2, window_cycles());
	}
	ktest_log("%d of %d fresh windows narrower than %u ppm; boot: +-%u ppm",
		  narrow, ATTEMPTS, TSC_CAL_PPM, (tsc_cal_ppm + 1) / 2);
}

static void udelay_waits_long_enough(struct ktest *t)
{
	u64 t0 = ktime_get_ns(), d;

	udelay(2000);
	d = ktime_get_ns() - t0;
	EXPECT_GE(t, d, 2000 * NSEC_PER_USEC);
	EXPECT_LE(t, d, 200 * NSEC_PER_MSEC);	/* a gross miscalibration */
}

static const struct ktest_case clock_cases[] = {
	KTEST_CASE(realtime_is_plausible),
	KTEST_CASE(monotonic_has_sub_tick_resolution),
	KTEST_CASE(realtime_advances_with_monotonic),
	KTEST_CASE(tsc_agrees_with_jiffies),
	KTEST_CASE(tsc_calibrated_against_pit),
	KTEST_CASE(deadline_to_jiffies),
	KTEST_CASE(conversions),
	KTEST_CASE(udelay_waits_long_enough),
	/* Last: they spin for 60 ms, after which a loaded host wakes the halted
	 * guest later for a while (its scheduler's fairness). */
	KTEST_CASE(tsc_calibration_survives_a_stall),
	KTEST_CASE(tsc_calibration_within_fresh_windows),
};
KTEST_SUITE(clock_suite, "clock", clock_cases);
