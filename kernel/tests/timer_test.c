/* timer_test.c: the "timer" suite: deadline order, punctuality, mod/del against a
 * firing timer, 10,000 pending timers across the wheel's levels; per-CPU wheels:
 * a timer fires on the CPU that armed it, in deadline order there, across an
 * idle CPU's halts; del_timer_sync waits for a callback on another CPU; a
 * mod_timer/del_timer torture from every CPU; a sleep load on both designs. */
#include "clock.h"
#include "errno.h"
#include "ktest.h"
#include "sched.h"
#include "smp.h"
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
static u8 many_fired_cpu[MANY];
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
	many_fired_cpu[i] = smp_processor_id();
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
	u32 base = timers_pending();

	setup_timer(&tm, stamp_fire, 0);
	fired_ns = 0;
	EXPECT_EQ(t, mod_timer(&tm, jiffies + 100), 0);
	EXPECT_TRUE(t, timer_pending(&tm));
	EXPECT_EQ(t, timers_pending(), base + 1);
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
	EXPECT_EQ(t, timers_pending(), base);
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
	u32 seed = 7, base = timers_pending(), flags;
	int expected = 0;

	reset_record();
	flags = local_irq_save();
	start = jiffies;
	for (int i = 0; i < MANY; i++) {
		setup_timer(&many[i], record_fire, i);
		many[i].expires = start + 1 + lcg(&seed) % MANY_SPAN;
		add_timer(&many[i]);
	}
	EXPECT_EQ(t, timers_pending(), base + MANY);
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
	EXPECT_EQ(t, timers_pending(), base);
}

/* ---- per-CPU wheels ---- */

#define PCPU_SPIN_MS	60		/* the slow callback's run */
#define PCPU_SLACK	(2 * HZ)	/* ticks a loaded host may add */
#define TORTURE_TIMERS	8
#define TORTURE_MS	1000
#define LOAD_MS		1000
#define LOAD_SAMPLES	512

/* Run fn(arg) on CPU cpu only, in its call-function IPI (interrupts off
 * there: its wheel does not move meanwhile); on CPU 0 directly. */
struct on_cpu_call {
	u32 cpu;
	void (*fn)(void *arg);
	void *arg;
};

static void on_cpu_filter(void *arg)
{
	struct on_cpu_call *c = arg;

	if (smp_processor_id() == c->cpu)
		c->fn(c->arg);
}

static void run_on_cpu(u32 cpu, void (*fn)(void *arg), void *arg)
{
	struct on_cpu_call c = { cpu, fn, arg };

	if (cpu == smp_processor_id()) {
		u32 flags = local_irq_save();
		fn(arg);
		local_irq_restore(flags);
		return;
	}
	on_each_cpu(on_cpu_filter, &c);
}

/* The CPU a timer armed on cpu should fire on: cpu if it ticks, else 0. */
static u32 wheel_cpu(u32 cpu)
{
	return timer_cpu_ticking(cpu) ? cpu : 0;
}

static void add_one(void *arg)
{
	add_timer(arg);
}

/* Wait until n of many[] fired or jiffies reach limit (a loaded host may
 * hold an AP's vCPU off for many ticks: how late is fire_on_time's to judge),
 * then make sure none of many[0..n) is left pending for the next case. */
static void wait_fired(int n, unsigned long limit)
{
	while (fired < n && time_before(jiffies, limit))
		hlt();
	for (int i = 0; i < n; i++)
		del_timer_sync(&many[i]);
}

static void armed_cpu_fires_there(struct ktest *t)
{
	unsigned long start = jiffies;

	reset_record();
	for (u32 cpu = 0; cpu < nr_cpus_online; cpu++) {
		setup_timer(&many[cpu], record_fire, cpu);
		many[cpu].expires = start + 3 + cpu;	/* apart: record_fire's order */
		many_fired_cpu[cpu] = 0xff;
		run_on_cpu(cpu, add_one, &many[cpu]);
	}
	wait_fired(nr_cpus_online, start + 3 + nr_cpus_online + PCPU_SLACK);
	EXPECT_EQ(t, fired, (int)nr_cpus_online);
	EXPECT_EQ(t, bad_context, 0);
	for (u32 cpu = 0; cpu < nr_cpus_online; cpu++) {
		if (!EXPECT_EQ(t, many_fired_cpu[cpu], wheel_cpu(cpu)))
			ktest_log("timer armed on CPU %u fired on CPU %u", cpu, many_fired_cpu[cpu]);
		EXPECT_TRUE(t, time_after_eq(many_fired_at[cpu], many[cpu].expires));
	}
}

/* ORDER_N timers in random order, added on one CPU with its interrupts off. */
static void add_order_batch(void *arg)
{
	u32 seed = (u32)arg;
	unsigned long start = jiffies;

	for (int i = 0; i < ORDER_N; i++) {
		setup_timer(&many[i], record_fire, i);
		many[i].expires = start + 2 + lcg(&seed) % 40;
		add_timer(&many[i]);
	}
}

/* Each CPU's wheel fires its own timers in deadline order, even when its
 * ticks come late (MTTCG) and it catches up several at once. */
static void deadline_order_on_every_cpu(struct ktest *t)
{
	for (u32 cpu = 0; cpu < nr_cpus_online; cpu++) {
		reset_record();
		run_on_cpu(cpu, add_order_batch, (void *)(cpu + 11));
		wait_fired(ORDER_N, jiffies + 2 + 40 + PCPU_SLACK);
		EXPECT_EQ(t, fired, ORDER_N);
		if (!EXPECT_EQ(t, inversions, 0))
			ktest_log("CPU %u: %d inversions", cpu, inversions);
		EXPECT_EQ(t, bad_context, 0);
		for (int i = 0; i < ORDER_N; i++) {
			EXPECT_TRUE(t, time_after_eq(many_fired_at[i], many[i].expires));
			EXPECT_EQ(t, many_fired_cpu[i], wheel_cpu(cpu));
		}
	}
}

static volatile int slow_inside, slow_done, slow_cpu;

/* Spins PCPU_SPIN_MS inside its callback, then says it is done. */
static void slow_fire(unsigned long data)
{
	u64 until = rdtsc() + (u64)tsc_khz * PCPU_SPIN_MS;

	slow_cpu = smp_processor_id();
	slow_done = 0;
	__atomic_store_n(&slow_inside, 1, __ATOMIC_RELEASE);
	while (rdtsc() < until)
		cpu_relax();
	__atomic_store_n(&slow_done, 1, __ATOMIC_RELEASE);
	slow_inside = 0;
}

/* del_timer_sync on CPU 0 while the callback runs on the last CPU (CPU 2 of
 * 4... any other than ours) must wait until it has finished. With one CPU
 * the callback ran before we look: del_timer_sync finds it done. */
static void del_timer_sync_waits_for_other_cpu(struct ktest *t)
{
	static struct timer_list tm;
	u32 cpu = nr_cpus_online > 2 ? 2 : nr_cpus_online - 1;
	u64 until;

	slow_inside = slow_done = 0;
	slow_cpu = -1;
	setup_timer(&tm, slow_fire, 0);
	tm.expires = jiffies + 2;
	run_on_cpu(cpu, add_one, &tm);
	for (until = rdtsc() + (u64)tsc_khz * 2000; rdtsc() < until; cpu_relax())
		if (__atomic_load_n(&slow_inside, __ATOMIC_ACQUIRE) ||
		    (cpu == 0 && slow_done))
			break;
	EXPECT_TRUE(t, slow_inside || slow_done);
	EXPECT_EQ(t, del_timer_sync(&tm), 0);	/* fired: not pending */
	EXPECT_EQ(t, slow_done, 1);		/* and not running any more */
	EXPECT_EQ(t, slow_cpu, (int)wheel_cpu(cpu));
	EXPECT_FALSE(t, timer_pending(&tm));
}

/* A CPU that halts in its idle loop keeps its tick: its timers fire on time
 * (within a few ticks on a loaded host) and there. */
static void timers_survive_idle_cpu(struct ktest *t)
{
	u32 cpu = nr_cpus_online - 1, halts = cpus[cpu].idle_halts;
	unsigned long start = jiffies;

	reset_record();
	for (int i = 0; i < 4; i++) {
		setup_timer(&many[i], record_fire, i);
		many[i].expires = start + 10 + 10 * i;	/* 40 .. 160 ms */
		run_on_cpu(cpu, add_one, &many[i]);
	}
	wait_fired(4, start + 10 + 30 + PCPU_SLACK);
	EXPECT_EQ(t, fired, 4);
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(t, many_fired_cpu[i], wheel_cpu(cpu));
		EXPECT_TRUE(t, time_after_eq(many_fired_at[i], many[i].expires));
	}
	if (cpu)		/* an AP with nothing to run halted meanwhile */
		EXPECT_TRUE(t, cpus[cpu].idle_halts > halts);
}

/* Torture: a thread per CPU arms, re-arms and deletes TORTURE_TIMERS shared
 * timers at random, their callbacks sometimes re-arm themselves. Each arm
 * (mod_timer returning 0: not pending before) ends exactly once, fired or
 * deleted (del_timer returning 1); no callback runs twice at once. */
static struct {
	struct timer_list tm[TORTURE_TIMERS];
	u32 arms[TORTURE_TIMERS], fires[TORTURE_TIMERS], dels[TORTURE_TIMERS];
	u32 inside[TORTURE_TIMERS];
	u32 overlaps, ops, wrong_cpu;
	u64 until;
} tt;

static void tt_count(u32 *c)
{
	__atomic_add_fetch(c, 1, __ATOMIC_RELAXED);
}

static void tt_fire(unsigned long i)
{
	u32 seed = (u32)rdtsc();

	if (__atomic_add_fetch(&tt.inside[i], 1, __ATOMIC_ACQ_REL) != 1)
		tt_count(&tt.overlaps);
	tt_count(&tt.fires[i]);
	if (!(lcg(&seed) & 3) && !mod_timer(&tt.tm[i], jiffies + 1))
		tt_count(&tt.arms[i]);
	udelay(lcg(&seed) % 20);
	__atomic_sub_fetch(&tt.inside[i], 1, __ATOMIC_ACQ_REL);
}

static int tt_thread(void *arg)
{
	u32 seed = (u32)arg * 2654435761u + 1;

	while (rdtsc() < tt.until && !kthread_should_stop()) {
		u32 r = lcg(&seed), i = r % TORTURE_TIMERS;

		u32 op = (r >> 8) % 50;

		/* 2% deletes, 8% re-arms, else arms if idle: most arms get to fire */
		if (op >= 1 && (op < 5 || !timer_pending(&tt.tm[i]))) {
			if (!mod_timer(&tt.tm[i], jiffies + (r >> 14) % 3))
				tt_count(&tt.arms[i]);
		} else if (!op && del_timer(&tt.tm[i])) {
			tt_count(&tt.dels[i]);
		}
		tt_count(&tt.ops);
		udelay(50 + (r >> 20) % 100);
		if (!((r >> 16) & 63))
			schedule_timeout_uninterruptible(1);
	}
	return 0;
}

static u32 migrated_total(void)
{
	struct timer_stats s;
	u32 n = 0;

	for (u32 cpu = 0; cpu < nr_cpus_online; cpu++)
		if (!timer_cpu_stats(cpu, &s))
			n += s.migrated_out;
	return n;
}

/* Start fn on a kernel thread pinned to each online CPU; returns how many. */
static u32 start_per_cpu(struct task **th, int (*fn)(void *), const char *name)
{
	u32 n = 0;

	for (u32 cpu = 0; cpu < nr_cpus_online; cpu++) {
		th[cpu] = kthread_create(fn, (void *)cpu, name);
		if (IS_ERR(th[cpu]))
			break;
		sched_set_affinity(th[cpu], 1u << cpu);
		wake_up_process(th[cpu]);
		n++;
	}
	return n;
}

static void mod_timer_torture_all_cpus(struct ktest *t)
{
	struct task *th[NR_CPUS];
	u32 base = timers_pending(), moved = migrated_total(), n, fires = 0;

	memset(&tt, 0, sizeof(tt));
	for (int i = 0; i < TORTURE_TIMERS; i++)
		setup_timer(&tt.tm[i], tt_fire, i);
	tt.until = rdtsc() + (u64)tsc_khz * TORTURE_MS;
	n = start_per_cpu(th, tt_thread, "tmtorture");
	msleep(TORTURE_MS + 20);
	for (u32 cpu = 0; cpu < n; cpu++)
		kthread_stop(th[cpu]);
	ASSERT_EQ(t, n, nr_cpus_online);
	for (int i = 0; i < TORTURE_TIMERS; i++)
		if (del_timer_sync(&tt.tm[i]))
			tt.dels[i]++;
	for (int i = 0; i < TORTURE_TIMERS; i++) {
		if (!EXPECT_EQ(t, tt.fires[i] + tt.dels[i], tt.arms[i]))
			ktest_log("timer %d: %u arms, %u fires, %u deletes", i, tt.arms[i],
				  tt.fires[i], tt.dels[i]);
		EXPECT_FALSE(t, timer_pending(&tt.tm[i]));
		fires += tt.fires[i];
	}
	EXPECT_EQ(t, tt.overlaps, 0);
	EXPECT_EQ(t, timers_pending(), base);
	EXPECT_TRUE(t, fires > 0);
	moved = migrated_total() - moved;
	if (nr_cpus_online > 1)
		EXPECT_TRUE(t, moved > 0);		/* timers did change wheels */
	ktest_log("%u CPUs, %u ops, %u fires, %u timers moved between wheels",
		  n, tt.ops, fires, moved);
}

/* The load: a thread per CPU sleeps one tick at a time (schedule_timeout(1),
 * what a short nanosleep or io_getevents timeout comes to at HZ 250); counts
 * its wake-ups and samples how late each woke past its expiry tick's time. */
static struct {
	u64 until;
	u32 wakes[NR_CPUS], early;
	u32 lat_us[NR_CPUS][LOAD_SAMPLES];
} ld;

static int load_thread(void *arg)
{
	u32 cpu = (u32)arg;

	while (rdtsc() < ld.until && !kthread_should_stop()) {
		unsigned long expires = jiffies + 1;
		s64 late;

		schedule_timeout_uninterruptible(1);
		if (kthread_should_stop())
			break;			/* woken by kthread_stop */
		late = (s64)(ktime_get_ns() - jiffies_to_ktime(expires));
		if (late < 0)
			__atomic_add_fetch(&ld.early, 1, __ATOMIC_RELAXED);
		else if (ld.wakes[cpu] < LOAD_SAMPLES)
			ld.lat_us[cpu][ld.wakes[cpu]] = late / 1000;
		ld.wakes[cpu]++;
	}
	return 0;
}

static void sort_u32(u32 *v, u32 n)
{
	for (u32 i = 1; i < n; i++)
		for (u32 j = i; j && v[j] < v[j - 1]; j--) {
			u32 x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
}

/* Every online CPU's wheel counters added up, as of now. */
static void stats_sum(struct timer_stats *sum)
{
	struct timer_stats s;

	memset(sum, 0, sizeof(*sum));
	for (u32 cpu = 0; cpu < nr_cpus_online; cpu++) {
		timer_cpu_stats(cpu, &s);
		sum->lock_taken += s.lock_taken;
		sum->lock_contended += s.lock_contended;
		sum->sync_waits += s.sync_waits;
		sum->fired += s.fired;
	}
}

/* One run of the load; logs wake-ups/s, lock traffic and latency. */
static void sleep_load_run(struct ktest *t, bool percpu)
{
	static u32 all[NR_CPUS * LOAD_SAMPLES];
	struct timer_stats s0, s1;
	struct task *th[NR_CPUS];
	u32 n, wakes = 0, samples = 0;

	memset(&ld, 0, sizeof(ld));
	timer_percpu = percpu;
	stats_sum(&s0);
	ld.until = rdtsc() + (u64)tsc_khz * LOAD_MS;
	n = start_per_cpu(th, load_thread, "tmload");
	msleep(LOAD_MS + 20);
	for (u32 cpu = 0; cpu < n; cpu++)
		kthread_stop(th[cpu]);
	timer_percpu = true;
	stats_sum(&s1);
	for (u32 cpu = 0; cpu < nr_cpus_online; cpu++) {
		wakes += ld.wakes[cpu];
		for (u32 i = 0; i < MIN(ld.wakes[cpu], (u32)LOAD_SAMPLES); i++)
			all[samples++] = ld.lat_us[cpu][i];
	}
	EXPECT_EQ(t, n, nr_cpus_online);
	EXPECT_EQ(t, ld.early, 0);			/* never woken before its tick */
	EXPECT_TRUE(t, wakes > 0);
	sort_u32(all, samples);
	ktest_log("%s wheels, %u threads: %u wake-ups/s; timer locks taken %u (%u per "
		  "wake-up), found held %u, del_timer_sync spins %u; wake-up late p50 %u us "
		  "p90 %u us", percpu ? "per-CPU" : "one (CPU 0's)", n, wakes * 1000 / LOAD_MS,
		  s1.lock_taken - s0.lock_taken,
		  wakes ? (s1.lock_taken - s0.lock_taken) / wakes : 0,
		  s1.lock_contended - s0.lock_contended, s1.sync_waits - s0.sync_waits,
		  samples ? all[samples / 2] : 0, samples ? all[samples * 9 / 10] : 0);
}

/* Figures for docs/locking.md: the same load on one wheel and per CPU. */
static void sleep_load_one_vs_per_cpu_wheels(struct ktest *t)
{
	sleep_load_run(t, false);
	sleep_load_run(t, true);
}

static const struct ktest_case timer_cases[] = {
	KTEST_CASE(fire_in_deadline_order),
	KTEST_CASE(fire_on_time),
	KTEST_CASE(mod_and_del),
	KTEST_CASE(mod_and_del_sync_against_firing_timer),
	KTEST_CASE(ten_thousand_pending),
	KTEST_CASE(armed_cpu_fires_there),
	KTEST_CASE(deadline_order_on_every_cpu),
	KTEST_CASE(del_timer_sync_waits_for_other_cpu),
	KTEST_CASE(timers_survive_idle_cpu),
	KTEST_CASE(mod_timer_torture_all_cpus),
	KTEST_CASE(sleep_load_one_vs_per_cpu_wheels),
};
KTEST_SUITE(timer_suite, "timer", timer_cases);
