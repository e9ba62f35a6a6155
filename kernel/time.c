/* time.c: the PIT tick (jiffies), the TSC calibrated against the PIT for
 * CLOCK_MONOTONIC, and the CMOS RTC read at boot for CLOCK_REALTIME.
 *
 * Why HZ = 250 (4 ms) on a TCG-emulated guest:
 *  - QEMU's 8254 raises its interrupt from a host timer; under TCG the guest
 *    sees it at the next translated-block boundary, with host timer slack of
 *    tens of microseconds to a millisecond when the host is loaded (several
 *    QEMUs run in parallel here). At 1000 Hz that slack is a large part of the
 *    period and consecutive edges can merge in the PIC (a lost tick); at 4 ms
 *    it is noise.
 *  - Every tick costs an emulated interrupt, the timer wheel and the scheduler
 *    tick: a few thousand guest instructions, each many host instructions
 *    under TCG. 250 Hz keeps that overhead small.
 *  - 100 Hz would make timer and msleep granularity, the round-robin slice and
 *    AIO timeouts 10 ms coarse and the sleep-based tests slower.
 *  Fine time does not depend on HZ: clocks read the TSC between ticks.
 */
#include "clock.h"
#include "errno.h"
#include "irq.h"
#include "panic.h"
#include "printk.h"
#include "sched.h"
#include "softirq.h"
#include "spinlock.h"
#include "test_hooks.h"
#include "timer.h"
#include "trap.h"
#include "x86.h"

#define PIT_CH0		0x40	/* channel 0 data: the system tick */
#define PIT_CH2		0x42	/* channel 2 data: speaker / calibration */
#define PIT_CMD		0x43	/* mode/command register */
#define PIT_CH0_RATE	0x34	/* channel 0, lo/hi byte, mode 2 (rate generator), binary */
#define PIT_CH2_ONESHOT	0xB0	/* channel 2, lo/hi byte, mode 0 (terminal count), binary */
#define PORT_B		0x61	/* system control port B */
#define PORT_B_GATE2	0x01	/* channel 2 gate */
#define PORT_B_SPKR	0x02	/* speaker data enable */
#define PORT_B_OUT2	0x20	/* channel 2 output (read only) */
#define CAL_ROUNDS	3	/* median of this many narrow windows */
#define CAL_TRIES	16	/* windows tried at most to find them (a loaded host) */

#define CMOS_INDEX	0x70	/* bit 7 of the index disables NMI */
#define CMOS_DATA	0x71
#define CMOS_NMI_OFF	0x80
#define RTC_SEC		0x00
#define RTC_MIN		0x02
#define RTC_HOUR	0x04
#define RTC_MDAY	0x07
#define RTC_MONTH	0x08
#define RTC_YEAR	0x09
#define RTC_REG_A	0x0A	/* bit 7: update in progress; bits 0-3: periodic rate */
#define RTC_REG_B	0x0B
#define RTC_REG_C	0x0C	/* interrupt flags; reading acknowledges */
#define RTC_CENTURY	0x32	/* the century byte QEMU and most BIOSes keep */
#define RTC_A_UIP	0x80	/* update in progress */
#define RTC_B_PIE	0x40	/* periodic interrupt enable */
#define RTC_B_24H	0x02	/* 24-hour mode */
#define RTC_B_BINARY	0x04	/* binary, not BCD */
#define RTC_HOUR_PM	0x80	/* 12-hour mode: PM flag */
#define RTC_IRQ		8

volatile unsigned long jiffies = INITIAL_JIFFIES;
static u64 jiffies_64;		/* ticks since boot */
static u64 tick_stamp_ns;	/* monotonic time the last counted tick was due */
u32 tsc_khz;
u32 tsc_cal_ppm;
static u64 tsc_base;		/* TSC at time_init: monotonic zero */
static u32 tsc_mult, tsc_shift;	/* ns = cycles * mult >> shift */
static s64 real_offset_ns;	/* CLOCK_REALTIME - CLOCK_MONOTONIC */
/* jiffies, jiffies_64, tick_stamp_ns and real_offset_ns change together under
 * time_lock (the boot CPU's tick, a settimeofday on any CPU) with time_seq
 * odd meanwhile; a reader on any CPU retries until it saw one even value
 * before and after (a seqlock: 64-bit values are two loads on i386). */
static DEFINE_SPINLOCK(time_lock);
static u32 time_seq;

static u32 time_write_begin(void)
{
	u32 flags;

	spin_lock_irqsave(&time_lock, flags);
	__atomic_store_n(&time_seq, time_seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return flags;
}

static void time_write_end(u32 flags)
{
	__atomic_store_n(&time_seq, time_seq + 1, __ATOMIC_RELEASE);
	spin_unlock_irqrestore(&time_lock, flags);
}

static u32 time_read_begin(void)
{
	u32 s;

	while ((s = __atomic_load_n(&time_seq, __ATOMIC_ACQUIRE)) & 1)
		cpu_relax();
	return s;
}

static bool time_read_retry(u32 s)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&time_seq, __ATOMIC_RELAXED) != s;
}

/* (a * mult) >> shift without overflow, for shift <= 32. */
static inline u64 mul_u64_u32_shr(u64 a, u32 mult, u32 shift)
{
	u64 lo = (u64)(u32)a * mult;
	u64 hi = (a >> 32) * mult;

	return (hi << (32 - shift)) + (lo >> shift);
}

u64 cycles_to_ns(u64 cycles)
{
	return mul_u64_u32_shr(cycles, tsc_mult, tsc_shift);
}

u64 ktime_get_ns(void)
{
	return cycles_to_ns(rdtsc() - tsc_base);
}

u64 ktime_get_real_ns(void)
{
	s64 off;
	u32 s;

	do {
		s = time_read_begin();
		off = real_offset_ns;
	} while (time_read_retry(s));
	return ktime_get_ns() + off;
}

void ktime_set_real_ns(u64 ns)
{
	u32 flags = time_write_begin();

	real_offset_ns = (s64)(ns - ktime_get_ns());
	time_write_end(flags);
}

void ns_to_timespec(u64 ns, struct kernel_timespec *ts)
{
	ts->tv_sec = ns / NSEC_PER_SEC;
	ts->tv_nsec = ns % NSEC_PER_SEC;
}

void ktime_get_ts(struct kernel_timespec *ts)
{
	ns_to_timespec(ktime_get_ns(), ts);
}

void ktime_get_real_ts(struct kernel_timespec *ts)
{
	ns_to_timespec(ktime_get_real_ns(), ts);
}

u64 get_jiffies_64(void)
{
	u64 j;
	u32 s;

	do {
		s = time_read_begin();
		j = jiffies_64;
	} while (time_read_retry(s));
	return j;
}

unsigned long nsecs_to_jiffies(u64 ns)
{
	u64 j = (ns + TICK_NSEC - 1) / TICK_NSEC;

	return j > MAX_JIFFY_OFFSET ? MAX_JIFFY_OFFSET : (unsigned long)j;
}

unsigned long msecs_to_jiffies(unsigned int ms)
{
	return nsecs_to_jiffies((u64)ms * NSEC_PER_MSEC);
}

unsigned int jiffies_to_msecs(unsigned long j)
{
	return (u64)j * TICK_NSEC / NSEC_PER_MSEC;
}

u64 jiffies_to_ktime(unsigned long j)
{
	u64 t;
	u32 s;

	do {
		s = time_read_begin();
		t = tick_stamp_ns + (s64)(long)(j - jiffies) * TICK_NSEC;
	} while (time_read_retry(s));
	return t;
}

/* The k-th tick from now is due at tick_stamp + k * TICK_NSEC: pick the first
 * one at or after the deadline (real: on CLOCK_REALTIME, else monotonic). */
static unsigned long deadline_to_jiffies(u64 deadline_ns, bool real)
{
	unsigned long now;
	u64 stamp;
	u32 s;

	do {
		s = time_read_begin();
		now = jiffies;
		stamp = tick_stamp_ns + (real ? real_offset_ns : 0);
	} while (time_read_retry(s));
	if (deadline_ns <= stamp)
		return now;
	return now + nsecs_to_jiffies(deadline_ns - stamp);
}

unsigned long ktime_real_to_jiffies(u64 deadline_ns)
{
	return deadline_to_jiffies(deadline_ns, true);
}

unsigned long ktime_mono_to_jiffies(u64 deadline_ns)
{
	return deadline_to_jiffies(deadline_ns, false);
}

void udelay(u32 us)
{
	u64 end = rdtsc() + (u64)us * tsc_khz / 1000 + 1;

	while ((s64)(rdtsc() - end) < 0)
		cpu_relax();
}

/* Ticks due since the last one counted, by the TSC. Under TCG a descheduled
 * emulator delivers late ticks and the PIC merges the edges it latched: without
 * this, jiffies (and every timeout) would fall behind real time on a loaded
 * host. A tick is counted once its time on the grid (tick_stamp_ns + TICK_NSEC)
 * has passed. An interrupt that comes more than a quarter tick before that is
 * a latched edge right after a late one: it counts nothing. One that comes
 * less early (the PIT and the TSC drift apart by ppm; or, after a stall, an
 * edge latched meanwhile) counts its tick and moves the grid back to it, so
 * the grid follows the PIT: jiffies may then lead the clock by up to a
 * quarter tick, and a wait that must not end early checks the clock again
 * (io_getevents_abs, futex waits). */
static u32 ticks_due(void)
{
	u64 now = ktime_get_ns();
	s64 since = (s64)(now - tick_stamp_ns);
	u32 n;

	if (since < (s64)(TICK_NSEC - TICK_NSEC / 4))
		return 0;
	n = since < (s64)TICK_NSEC ? 1 : (u64)since / TICK_NSEC;
	tick_stamp_ns += (u64)n * TICK_NSEC;
	if ((s64)(tick_stamp_ns - now) > 0)
		tick_stamp_ns = now;
	return n;
}

/* IRQ 0, hard interrupt context, CPU 0: count the ticks (jiffies is one
 * counter, advanced here only: by the PIT, whose ticks_due catch-up against
 * the TSC keeps it on the wall clock's grid under time_lock), charge the
 * running task; CPU 0's timer wheel runs in the bottom half on the way out. */
static void timer_interrupt(int irq, void *data)
{
	u32 flags = time_write_begin(), n = ticks_due();

	jiffies_64 += n;
	jiffies += n;
	time_write_end(flags);
	scheduler_tick(trap_from_user(get_irq_regs()));
	run_local_timers();		/* CPU 0's wheel */
}

static void pit_init(void)
{
	outb(PIT_CMD, PIT_CH0_RATE);
	outb(PIT_CH0, PIT_LATCH & 0xFF);
	outb(PIT_CH0, PIT_LATCH >> 8);
}

/* One window: channel 2 in mode 0 counts latch PIT clocks from the write
 * of the count's high byte until its output rises. Each end is bracketed by
 * TSC reads around the port access that defines it: the count starts between
 * a and b, and ends after the last poll that saw the output low (begun at
 * low) and before the poll that saw it high had returned (high_after). A host
 * that deschedules the emulator inside a bracket widens the window; it cannot
 * make it wrong. (Reading the TSC only before each poll, as this once did,
 * made such a stall during the last poll shorten the window: under load the
 * TSC was calibrated up to 22% slow and every clock ran that much fast.) */
static bool cal_window(struct tsc_cal_window *w, u32 latch)
{
	u64 a, b, low, t, high_after, limit = 1ULL << 36;	/* ~20 s even at 4 GHz */
	bool high;

	outb(PORT_B, (inb(PORT_B) & ~PORT_B_SPKR) | PORT_B_GATE2);
	outb(PIT_CMD, PIT_CH2_ONESHOT);
	outb(PIT_CH2, latch & 0xFF);
	a = rdtsc();
	outb(PIT_CH2, latch >> 8);		/* channel 2 counts from here */
	b = rdtsc();
	low = b;
	for (;;) {
		t = rdtsc();
		ktest_tsc_cal_hook(b);		/* test kernel: a stall here */
		high = inb(PORT_B) & PORT_B_OUT2;
		if (high)
			break;
		low = t;
		if (t - a > limit)
			return false;
	}
	high_after = rdtsc();
	w->lo = low - b;
	w->hi = high_after - a;
	return true;
}

bool tsc_cal_measure(struct tsc_cal_window *w)
{
	return cal_window(w, TSC_CAL_LATCH);
}

u32 tsc_cal_width_ppm(const struct tsc_cal_window *w)
{
	return ((w->hi - w->lo) * 1000000 + w->hi - 1) / w->hi;	/* rounded up */
}

bool tsc_cal_narrow(const struct tsc_cal_window *w)
{
	return tsc_cal_width_ppm(w) <= TSC_CAL_PPM;
}

u64 tsc_cal_hz(const struct tsc_cal_window *w)
{
	return (w->lo + w->hi) / 2 * PIT_HZ / TSC_CAL_LATCH;
}

/* Sort windows by width (narrowest first), or by midpoint. */
static void cal_sort(struct tsc_cal_window *w, int n, bool by_width)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0; j--) {
			struct tsc_cal_window x = w[j - 1];
			u64 kx = by_width ? x.hi - x.lo : x.lo + x.hi;
			u64 ky = by_width ? w[j].hi - w[j].lo : w[j].lo + w[j].hi;
			if (kx <= ky)
				break;
			w[j - 1] = w[j];
			w[j] = x;
		}
}

/* The median of CAL_ROUNDS narrow windows, trying up to CAL_TRIES; on a host
 * too busy for that, of the narrowest ones, with a warning. */
static void tsc_calibrate(void)
{
	struct tsc_cal_window w[CAL_TRIES];
	int n = 0, narrow = 0;
	u64 hz;

	cal_window(&w[0], TSC_CAL_LATCH / 16);	/* warm-up: the emulator translates the code */
	while (n < CAL_TRIES && narrow < CAL_ROUNDS) {
		if (!tsc_cal_measure(&w[n]))
			panic("time_init: PIT channel 2 never reached terminal count");
		narrow += tsc_cal_narrow(&w[n++]);
	}
	cal_sort(w, n, true);
	if (narrow < CAL_ROUNDS)
		pr_warn("time: TSC calibration: only %d of %d windows narrower than %u ppm\n",
			narrow, n, TSC_CAL_PPM);
	cal_sort(w, CAL_ROUNDS, false);
	hz = tsc_cal_hz(&w[CAL_ROUNDS / 2]);
	tsc_cal_ppm = tsc_cal_width_ppm(&w[CAL_ROUNDS / 2]);
	tsc_khz = hz / 1000;
	tsc_shift = 32;
	while ((NSEC_PER_SEC << tsc_shift) / hz > 0xFFFFFFFFULL)
		tsc_shift--;
	tsc_mult = (NSEC_PER_SEC << tsc_shift) / hz;
}

static u8 cmos_read(u8 reg)
{
	outb(CMOS_INDEX, CMOS_NMI_OFF | reg);
	return inb(CMOS_DATA);
}

static void cmos_write(u8 reg, u8 v)
{
	outb(CMOS_INDEX, CMOS_NMI_OFF | reg);
	outb(CMOS_DATA, v);
}

struct rtc_time {
	u32 sec, min, hour, mday, month, year, century;
};

static void rtc_read_raw(struct rtc_time *t)
{
	while (cmos_read(RTC_REG_A) & RTC_A_UIP)
		cpu_relax();
	t->sec = cmos_read(RTC_SEC);
	t->min = cmos_read(RTC_MIN);
	t->hour = cmos_read(RTC_HOUR);
	t->mday = cmos_read(RTC_MDAY);
	t->month = cmos_read(RTC_MONTH);
	t->year = cmos_read(RTC_YEAR);
	t->century = cmos_read(RTC_CENTURY);
}

static u32 bcd(u32 v) { return (v & 0x0F) + (v >> 4) * 10; }

/* Decode BCD / 12-hour formats into plain numbers and a full year. */
static void rtc_decode(struct rtc_time *t)
{
	u8 b = cmos_read(RTC_REG_B);
	bool pm = t->hour & RTC_HOUR_PM;

	t->hour &= ~RTC_HOUR_PM;
	if (!(b & RTC_B_BINARY)) {
		t->sec = bcd(t->sec); t->min = bcd(t->min); t->hour = bcd(t->hour);
		t->mday = bcd(t->mday); t->month = bcd(t->month);
		t->year = bcd(t->year); t->century = bcd(t->century);
	}
	if (!(b & RTC_B_24H))
		t->hour = (t->hour % 12) + (pm ? 12 : 0);
	if (t->century >= 19 && t->century <= 22)
		t->year += t->century * 100;
	else
		t->year += t->year < 70 ? 2000 : 1900;
}

/* Days from 1970-01-01 to a civil date (proleptic Gregorian). */
static s64 days_from_civil(s64 y, u32 m, u32 d)
{
	s64 era, yoe, doy;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/* Seconds since the epoch from the RTC; read until two reads agree. */
static u64 rtc_read_epoch(struct rtc_time *t)
{
	struct rtc_time again;

	rtc_read_raw(t);
	for (;;) {
		rtc_read_raw(&again);
		if (again.sec == t->sec && again.min == t->min && again.hour == t->hour &&
		    again.mday == t->mday && again.month == t->month && again.year == t->year)
			break;
		*t = again;
	}
	rtc_decode(t);
	return days_from_civil(t->year, t->month, t->mday) * 86400ULL +
	       t->hour * 3600 + t->min * 60 + t->sec;
}

static void (*rtc_periodic_fn)(void *data);
static void *rtc_periodic_data;

static void rtc_interrupt(int irq, void *data)
{
	cmos_read(RTC_REG_C);		/* acknowledge, or no further interrupt */
	if (rtc_periodic_fn)
		rtc_periodic_fn(rtc_periodic_data);
}

int rtc_periodic_start(u32 hz, void (*fn)(void *data), void *data)
{
	u32 flags, rate = 1;

	if (hz < 2 || hz > 8192 || (hz & (hz - 1)))
		return -EINVAL;
	while ((32768u >> (rate - 1)) != hz)	/* frequency = 32768 >> (rate - 1) */
		rate++;
	flags = local_irq_save();
	if (rtc_periodic_fn) {
		local_irq_restore(flags);
		return -EBUSY;
	}
	rtc_periodic_data = data;
	rtc_periodic_fn = fn;
	cmos_write(RTC_REG_A, (cmos_read(RTC_REG_A) & 0xF0) | rate);
	cmos_write(RTC_REG_B, cmos_read(RTC_REG_B) | RTC_B_PIE);
	cmos_read(RTC_REG_C);
	local_irq_restore(flags);
	return 0;
}

void rtc_periodic_stop(void)
{
	u32 flags = local_irq_save();

	cmos_write(RTC_REG_B, cmos_read(RTC_REG_B) & ~RTC_B_PIE);
	cmos_read(RTC_REG_C);
	rtc_periodic_fn = NULL;
	rtc_periodic_data = NULL;
	local_irq_restore(flags);
}

void time_init(void)
{
	struct rtc_time t;
	u64 epoch;

	tsc_calibrate();
	tsc_base = rdtsc();
	epoch = rtc_read_epoch(&t);
	real_offset_ns = (s64)(epoch * NSEC_PER_SEC - ktime_get_ns());
	tick_stamp_ns = ktime_get_ns();		/* the grid starts before channel 0 */
	pit_init();				/* counts, so no edge comes early */
	if (irq_register(0, timer_interrupt, NULL) || irq_register(RTC_IRQ, rtc_interrupt, NULL))
		panic("time_init: cannot register the timer interrupts");
	printk("time: HZ=%d, TSC %u.%03u MHz (+-%u ppm), RTC %04u-%02u-%02u %02u:%02u:%02u UTC\n",
	       HZ, tsc_khz / 1000, tsc_khz % 1000, (tsc_cal_ppm + 1) / 2,
	       t.year, t.month, t.mday, t.hour, t.min, t.sec);
}
