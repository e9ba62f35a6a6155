/* apic_timer.c: the local APIC timer: calibrated at boot, then periodic at HZ
 * on every application processor, as its scheduler tick.
 *
 * Who ticks: the boot CPU keeps the PIT (IRQ 0, kernel/time.c) for
 * everything it did on one CPU: jiffies, the wall clock's tick grid, the
 * timer wheel and its own scheduler tick. So `-smp 1` runs exactly as before
 * and the boot CPU takes one interrupt per tick, not two. Each AP's own
 * local APIC timer (vector T_APIC_TIMER) is that AP's tick: the scheduler
 * tick of the task it runs (time slice, user/system time) and the tick of
 * its own timer wheel (kernel/timer.c; jiffies stays CPU 0's). The timer counts
 * the APIC bus clock; its rate is measured against the TSC, whose rate was
 * measured against the PIT (time.c), so an AP's tick is the PIT's HZ.
 *
 * An idle AP stops its tick (the timer masked) at a tick that finds it idle
 * for the second time in a row with nothing queued and no timer on its
 * wheel: an idle vCPU then sleeps on its host instead of waking HZ times a
 * second. __schedule starts it again when the AP leaves idle, its idle loop
 * when an interrupt armed a timer on it (apic_timer_idle_check); a busy CPU whose
 * queue holds waiting tasks wakes one such CPU to pull them
 * (sched_balance_tick), as its own tick would have. tick_stopped and
 * idle_ticks are the AP's own, touched with its interrupts off.
 */
#include "apic.h"
#include "apic_timer.h"
#include "clock.h"
#include "errno.h"
#include "irq.h"
#include "printk.h"
#include "sched_internal.h"
#include "sched.h"
#include "smp.h"
#include "softirq.h"
#include "spinlock.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

#define TIMER_DIV_16	0x3		/* divide configuration: bus clock / 16 */
#define LVT_PERIODIC	0x20000		/* LVT timer mode bit 17: periodic */
#define LVT_MASKED	0x10000
#define CAL_WINDOW_US	10000		/* one calibration window */
#define CAL_ROUNDS	3		/* median of three */

#define PHASE_NS	(TICK_NSEC / 4)	/* an AP's tick comes this long after the PIT's grid point */
#define PHASE_SLACK_NS	(TICK_NSEC / 8)	/* drift tolerated before re-phasing */

u32 apic_timer_per_tick;
static bool rephased[NR_CPUS];		/* this AP's current period was shortened */
static bool tick_stopped[NR_CPUS];	/* this idle AP's timer is masked */
static u8 idle_ticks[NR_CPUS];		/* its ticks in a row that found it idle */

/* Counts until the next time that lies PHASE_NS past a point of the tick grid
 * (jiffies_to_ktime: where CPU 0's PIT ticks are due); 0 when the tick is
 * already there within PHASE_SLACK_NS. Each CPU's timer wheel runs at its
 * own tick, which must come after jiffies moved: a tick at a random phase
 * fired a timer up to a whole tick after its expiry. PHASE_NS leaves CPU 0 a
 * quarter tick to take its PIT interrupt first. */
static u32 apic_timer_phase_counts(void)
{
	u64 now = ktime_get_ns(), grid = jiffies_to_ktime(jiffies);
	u32 phase = (u32)((now - grid) % TICK_NSEC), wait;

	if (now < grid)
		return 0;			/* jiffies moved meanwhile: next time */
	wait = (PHASE_NS + TICK_NSEC - phase) % TICK_NSEC;
	if (wait <= PHASE_SLACK_NS || TICK_NSEC - wait <= PHASE_SLACK_NS)
		return 0;			/* close enough */
	return (u64)wait * apic_timer_per_tick / TICK_NSEC;
}

/* In the AP's tick: once a second, shorten one period so the next tick is
 * back at its phase (the APIC timer and the PIT drift apart by the
 * calibration's error, ~0.01%: a tick's phase moves ~0.1 ms/s); the tick
 * after restores the full period. */
static void apic_timer_rephase(struct cpu *c)
{
	u32 counts;

	if (rephased[c->id]) {
		irq_this_stat()->timer_writes++;
		lapic_write(LAPIC_TIMER_INIT, apic_timer_per_tick);
		rephased[c->id] = false;
		return;
	}
	if (c->ticks % HZ)
		return;
	counts = apic_timer_phase_counts();
	if (counts) {
		irq_this_stat()->timer_writes++;
		lapic_write(LAPIC_TIMER_INIT, counts);	/* periodic: reloads this */
		rephased[c->id] = true;
	}
}

/* One window: timer counts per second, from the TSC cycles between the two
 * reads of the current count (each read right after its TSC read). */
static u64 apic_timer_window(void)
{
	u32 c0, c1;
	u64 t0, t1;

	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED | T_APIC_TIMER);	/* one-shot, masked */
	lapic_write(LAPIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(LAPIC_TIMER_INIT, 0xFFFFFFFFu);
	t0 = rdtsc();
	c0 = lapic_read(LAPIC_TIMER_CUR);
	udelay(CAL_WINDOW_US);
	t1 = rdtsc();
	c1 = lapic_read(LAPIC_TIMER_CUR);
	lapic_write(LAPIC_TIMER_INIT, 0);		/* stop it */
	if (c1 >= c0 || t1 <= t0)
		return 0;
	return (u64)(c0 - c1) * tsc_khz * 1000 / (t1 - t0);
}

static void apic_timer_program(void);

/* No timer on CPU cpu's wheel. */
static bool apic_timer_wheel_empty(u32 cpu)
{
	struct timer_stats st;

	return !timer_cpu_stats(cpu, &st) && !st.pending;
}

/* At the tick: mask the timer of an AP idle since its last tick with
 * nothing to run or time. Hard irq. */
static void apic_timer_maybe_stop(struct cpu *c)
{
	if (!sched_cpu_idle(c->id)) {
		idle_ticks[c->id] = 0;
		return;
	}
	if (++idle_ticks[c->id] < 2 || !apic_timer_wheel_empty(c->id))
		return;
	irq_this_stat()->timer_writes++;
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED | T_APIC_TIMER);
	tick_stopped[c->id] = true;
}

bool apic_timer_tick_stopped(u32 cpu)
{
	return cpu < NR_CPUS && READ_ONCE(tick_stopped[cpu]);
}

void apic_timer_idle_check(bool leaving)
{
	u32 cpu = smp_processor_id();

	if (!tick_stopped[cpu] || (!leaving && apic_timer_wheel_empty(cpu)))
		return;
	tick_stopped[cpu] = false;
	idle_ticks[cpu] = 0;
	apic_timer_program();
}

/* The tick of an AP: hard interrupt context, as an IRQ handler. */
static void apic_timer_interrupt(struct trap_frame *tf)
{
	struct cpu *c = this_cpu();
	struct trap_frame *outer = c->irq_regs;

	irq_nesting++;
	c->irq_regs = tf;
	c->ticks++;
	irq_cpu_stats[c->id].loc++;
	scheduler_tick(trap_from_user(tf));
	apic_timer_rephase(c);
	run_local_timers();			/* this AP's timer wheel */
	apic_timer_maybe_stop(c);
	c->irq_regs = outer;
	irq_nesting--;
	lapic_eoi();
	irq_exit(tf);
}

int apic_timer_calibrate(void)
{
	u64 hz[CAL_ROUNDS], t;
	u32 flags = local_irq_save();

	for (int i = 0; i < CAL_ROUNDS; i++)
		hz[i] = apic_timer_window();
	local_irq_restore(flags);
	for (int i = 0; i < CAL_ROUNDS; i++)	/* sort three */
		for (int j = i + 1; j < CAL_ROUNDS; j++)
			if (hz[j] < hz[i]) {
				t = hz[i];
				hz[i] = hz[j];
				hz[j] = t;
			}
	if (!hz[CAL_ROUNDS / 2] || hz[CAL_ROUNDS / 2] / HZ > 0xFFFFFFFFu) {
		printk(KERN_ERR "apic timer: did not count; the APs get no tick\n");
		return -ENODEV;
	}
	apic_timer_per_tick = hz[CAL_ROUNDS / 2] / HZ;
	trap_set_handler(T_APIC_TIMER, apic_timer_interrupt, 0);
	printk("apic timer: %llu kHz (bus / 16), %u counts per tick\n",
	       hz[CAL_ROUNDS / 2] / 1000, apic_timer_per_tick);
	return 0;
}

/* Periodic from now on, the first tick at its phase. Interrupts off. */
static void apic_timer_program(void)
{
	u32 counts = apic_timer_phase_counts();

	irq_this_stat()->timer_writes += 2;
	lapic_write(LAPIC_LVT_TIMER, LVT_PERIODIC | T_APIC_TIMER);
	lapic_write(LAPIC_TIMER_INIT, counts ? counts : apic_timer_per_tick);
	rephased[smp_processor_id()] = counts != 0;
}

void apic_timer_start(void)
{
	if (!apic_timer_per_tick)
		return;
	lapic_write(LAPIC_TIMER_DIV, TIMER_DIV_16);
	apic_timer_program();
	timer_cpu_start();			/* its timers on its own wheel */
}
