/* timer_test.c: the "timer" suite: deadline order, punctuality, mod/del against a
 * firing timer, and 10,000 pending timers across the wheel's levels. */
#include "clock.h"
#include "ktest.h"
#include "softirq.h"
#include "spinlock.h"
#include "string.h"
#include "timing.h"
#include "timer.h"
#include "x86.h"

#define MANY		10000
#define MANY_SPAN	300		/* ticks: past tv1's 256, so tv2 cascades */
#define ORDER_N		64
#define S64_MAX_LATE	((s64)1 << 62)

static struct timer_list many[MANY];
static unsigned long many_fired_at[MANY];
static volatile int fired, inversions, bad_context;
static volatile unsigned long last_expires;

static void wait_jiffies(unsigned long j)
{
	while (time_before(jiffies, j))
		hlt();
}

static u32 lcg(u32 *s)
{
	*s = *s * 1103515245 + 12345;
	return *s >> 8;
}

/* Records when it ran, counts deadline-order inversions and wrong contexts. */
static void record_fire(unsigned long i)
{
	if (time_before(many[i].expires, last_expires))
		inversions++;
	last_expires = many[i].expires;
	many_fired_at[i] = jiffies;
	if (!in_softirq() || in_irq() || !(read_eflags() & EFLAGS_IF))
		bad_context++;
	fired++;
}

static void reset_record(void)
{
	fired = inversions = bad_context = 0;
	last_expires = jiffies;
	memset(many_fired_at, 0, sizeof(many_fired_at));
}

/* The timers are added with interrupts off: jiffies and the wheel (CPU 0's
 * tick, ours) cannot move meanwhile, so none is already due when added (a
 * loaded host once stalled the loop past start + 2: the due ones shared one
 * slot in the order added, an inversion that is no wheel bug). */
static void fire_in_deadline_order(struct ktest *t)
{
	u32 seed = 1, flags = local_irq_save();
	unsigned long start = jiffies, latest = start;

	reset_record();
	for (int i = 0; i < ORDER_N; i++) {
		setup_timer(&many[i], record_fire, i);
		many[i].expires = start + 2 + lcg(&seed) % 40;
		latest = time_after(many[i].expires, latest) ? many[i].expires : latest;
		add_timer(&many[i]);
	}
	local_irq_restore(flags);
	wait_jiffies(latest + 2);
	EXPECT_EQ(t, fired, ORDER_N);
	EXPECT_EQ(t, inversions, 0);
	EXPECT_EQ(t, bad_context, 0);
	for (int i = 0; i < ORDER_N; i++)		/* never early */
		EXPECT_TRUE(t, time_after_eq(many_fired_at[i], many[i].expires));
}

static volatile u64 fired_ns, fired_due_ns;
static volatile unsigned long fired_jiffies;

/* data: the timer's expiry. Also records when its tick was due on the grid
 * that counted it (jiffies follow the PIT: when the TSC runs a few ppm slow
 * against it, the grid moves back by that much, and a tick comes that much
 * before the time computed at arming; never before its own due time). */
static void stamp_fire(unsigned long expires)
{
	fired_ns = ktime_get_ns();
	fired_jiffies = jiffies;
	fired_due_ns = jiffies_to_ktime(expires);
}

/* Arm a timer delay ticks ahead; returns how late it fired past the time its
 * expiry tick was due when armed, in ns (negative: early by the grid's move),
 * and checks it never ran before its tick. Waits by spinning: a loaded host
 * wakes a halted emulator milliseconds late, the host's lateness, not ours. */
static s64 timer_lateness(struct ktest *t, int delay, bool *stalled)
{
	struct timer_list tm;
	struct tick_window w;
	unsigned long expires = jiffies + delay;
	u64 due = jiffies_to_ktime(expires);

	setup_timer(&tm, stamp_fire, expires);
	fired_ns = 0;
	tm.expires = expires;
	tick_window_start(&w);
	add_timer(&tm);
	while (time_before(jiffies, expires + 1))
		cpu_relax();
	*stalled = tick_window_stalled(&w);
	if (!fired_ns)
		return S64_MAX_LATE;
	EXPECT_GE(t, fired_ns, fired_due_ns);		/* never before its tick was due */
	EXPECT_TRUE(t, time_after_eq(fired_jiffies, expires));
	return (s64)(fired_ns - due);
}

static void fire_on_time(struct ktest *t)
{
	static const int delays[] = { 1, 2, 5, 25 };

	int unjudged = 0;

	for (size_t i = 0; i < ARRAY_SIZE(delays); i++) {
		int attempts = 0, valid = 0;
		bool ok = false, stalled;
		s64 late = 0;

		while (!ok && attempts++ < TIMING_ATTEMPTS) {
			late = timer_lateness(t, delays[i], &stalled);
			valid += !stalled;
			ok = !stalled && late <= (s64)TICK_NSEC;	/* within one tick */
		}
		unjudged += !valid;
		if (valid && !ok)
			ktest_log("delay %d: %lld ns late", delays[i], late);
		EXPECT_TRUE(t, ok || !valid);
	}
	if (unjudged)
		ktest_log("host too loaded: %d delays never had a window without lost ticks",
			  unjudged);
}

static void mod_and_del(struct ktest *t)
{
	struct timer_list tm;
	u32 base = timers_pending;

	setup_timer(&tm, stamp_fire, 0);
	fired_ns = 0;
	EXPECT_EQ(t, mod_timer(&tm, jiffies + 100), 0);
	EXPECT_TRUE(t, timer_pending(&tm));
	EXPECT_EQ(t, timers_pending, base + 1);
	EXPECT_EQ(t, mod_timer(&tm, jiffies + 2), 1);	/* moved earlier */
	wait_jiffies(jiffies + 4);
	EXPECT_NE(t, fired_ns, 0);
	EXPECT_FALSE(t, timer_pending(&tm));
	fired_ns = 0;
	tm.expires = jiffies + 2;
	add_timer(&tm);
	EXPECT_EQ(t, del_timer(&tm), 1);
	EXPECT_EQ(t, del_timer(&tm), 0);
	wait_jiffies(jiffies + 4);
	EXPECT_EQ(t, fired_ns, 0);			/* a deleted timer never fires */
	EXPECT_EQ(t, timers_pending, base);
}

static struct timer_list rearm;
static volatile int rearm_runs, rearm_inside;

/* A self-rearming periodic timer; flags whether its callback is running. */
static void rearm_fire(unsigned long data)
{
	rearm_inside = 1;
	rearm_runs++;
	mod_timer(&rearm, jiffies + 1);
	rearm_inside = 0;
}

static void mod_and_del_sync_against_firing_timer(struct ktest *t)
{
	int seen_inside = 0, runs;

	setup_timer(&rearm, rearm_fire, 0);
	rearm_runs = 0;
	mod_timer(&rearm, jiffies + 1);
	for (int i = 0; i < 2000; i++) {		/* race mod_timer with the firing */
		mod_timer(&rearm, jiffies + (i & 1));
		seen_inside |= rearm_inside;
		if (!(i % 100))
			hlt();
	}
	wait_jiffies(jiffies + 3);
	EXPECT_GE(t, rearm_runs, 3);
	EXPECT_EQ(t, del_timer_sync(&rearm), 1);
	EXPECT_FALSE(t, timer_pending(&rearm));
	EXPECT_EQ(t, rearm_inside, 0);
	EXPECT_EQ(t, seen_inside, 0);		/* a callback never observed half-run */
	runs = rearm_runs;
	wait_jiffies(jiffies + 5);
	EXPECT_EQ(t, rearm_runs, runs);			/* it stays dead */
	EXPECT_EQ(t, del_timer_sync(&rearm), 0);
}

/* The set-up runs with interrupts off: the earliest timers expire one tick
 * after start, and one that fired before its del_timer or mod_timer below
 * (the host descheduled the emulator for a tick during the set-up) would be
 * counted as fired when deleted, or twice. With no tick meanwhile, those
 * that are due by the end fire late, on the first tick, never early. */
static void ten_thousand_pending(struct ktest *t)
{
	unsigned long start;
	u32 seed = 7, base = timers_pending, flags;
	int expected = 0;

	reset_record();
	flags = local_irq_save();
	start = jiffies;
	for (int i = 0; i < MANY; i++) {
		setup_timer(&many[i], record_fire, i);
		many[i].expires = start + 1 + lcg(&seed) % MANY_SPAN;
		add_timer(&many[i]);
	}
	EXPECT_EQ(t, timers_pending, base + MANY);
	for (int i = 0; i < MANY; i += 10) {
		EXPECT_EQ(t, del_timer(&many[i]), 1);		/* a tenth deleted */
		mod_timer(&many[i + 1], start + MANY_SPAN + 2);	/* a tenth moved last */
	}
	local_irq_restore(flags);
	wait_jiffies(start + MANY_SPAN + 4);
	for (int i = 0; i < MANY; i++) {
		bool deleted = i % 10 == 0;
		expected += !deleted;
		if (deleted ? many_fired_at[i] != 0 : time_before(many_fired_at[i], many[i].expires)) {
			EXPECT_TRUE(t, false);
			ktest_log("timer %d: expires %lu fired %lu", i, many[i].expires, many_fired_at[i]);
			break;
		}
	}
	EXPECT_EQ(t, fired, expected);
	EXPECT_EQ(t, inversions, 0);
	EXPECT_EQ(t, bad_context, 0);
	EXPECT_EQ(t, timers_pending, base);
}

static const struct ktest_case timer_cases[] = {
	KTEST_CASE(fire_in_deadline_order),
	KTEST_CASE(fire_on_time),
	KTEST_CASE(mod_and_del),
	KTEST_CASE(mod_and_del_sync_against_firing_timer),
	KTEST_CASE(ten_thousand_pending),
};
KTEST_SUITE(timer_suite, "timer", timer_cases);
