/* clock.h: the tick (HZ, jiffies), CLOCK_MONOTONIC / CLOCK_REALTIME from the TSC,
 * conversions, busy delays, and the RTC periodic interrupt. */
#ifndef CLOCK_H
#define CLOCK_H

#include "types.h"
#include "uapi/time.h"

/* 250 Hz (4 ms): see the reasoning at the top of kernel/time.c. */
#define HZ		250
#define PIT_HZ		1193182			/* 8254 input clock */
#define PIT_LATCH	((PIT_HZ + HZ / 2) / HZ)	/* channel 0 divisor: 4773 */
#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_USEC	1000ULL
/* Real length of one tick in ns (the divisor is rounded): 4000229 ns. */
#define TICK_NSEC	((u32)((PIT_LATCH * NSEC_PER_SEC + PIT_HZ / 2) / PIT_HZ))
/* jiffies starts 5 minutes before wrapping, as in Linux, so that code which
 * compares jiffies without time_after() breaks early instead of after 198 days. */
#define INITIAL_JIFFIES	((unsigned long)(unsigned int)(-300 * HZ))
#define MAX_JIFFY_OFFSET ((unsigned long)(~0UL >> 1) - 1)

/* Ticks since boot + INITIAL_JIFFIES; written only by the timer interrupt. */
extern volatile unsigned long jiffies;

/* Wrap-safe comparisons of jiffies values. */
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

/* struct kernel_timespec (32-bit seconds, the system-call ABI) is uapi's. */

/* Program the PIT, calibrate the TSC, read the RTC. Interrupts off; after irq_init. */
void time_init(void);

/* 64-bit tick count since boot (no INITIAL_JIFFIES offset). Any context. */
u64 get_jiffies_64(void);

/* CLOCK_MONOTONIC in ns since time_init, TSC resolution. Any context. */
u64 ktime_get_ns(void);
/* CLOCK_REALTIME in ns since the Unix epoch (RTC at boot + monotonic). Any context. */
u64 ktime_get_real_ns(void);
void ktime_get_ts(struct kernel_timespec *ts);
void ktime_get_real_ts(struct kernel_timespec *ts);
/* Set CLOCK_REALTIME (settimeofday / clock_settime); monotonic is untouched. */
void ktime_set_real_ns(u64 ns);

/* The jiffies value at whose tick an absolute CLOCK_REALTIME deadline has
 * passed: a timer with this expiry never fires before the deadline and at most
 * one tick after it. A deadline in the past gives the current jiffies. */
unsigned long ktime_real_to_jiffies(u64 deadline_ns);
/* ... and for a CLOCK_MONOTONIC deadline. */
unsigned long ktime_mono_to_jiffies(u64 deadline_ns);

/* CLOCK_MONOTONIC time (ns) at which the tick making jiffies == j is due: a
 * timer expiring at j runs at this time or a little later, never before. */
u64 jiffies_to_ktime(unsigned long j);

static inline u64 timespec_to_ns(const struct kernel_timespec *ts)
{
	return (u64)ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}
void ns_to_timespec(u64 ns, struct kernel_timespec *ts);

/* Relative conversions, rounding up so a delay is never shorter than asked. */
unsigned long msecs_to_jiffies(unsigned int ms);
unsigned long nsecs_to_jiffies(u64 ns);
unsigned int jiffies_to_msecs(unsigned long j);

extern u32 tsc_khz;			/* measured TSC rate */

/* TSC calibration (time.c, at boot; the clock suite checks it): one window of
 * PIT channel 2 counting 10 ms, bracketed so that the TSC cycles it really took
 * lie in [lo, hi] whatever the host did meanwhile. A window at most
 * TSC_CAL_PPM wide (relative) calibrates; time_init takes the median of three. */
#define TSC_CAL_PPM	500
#define TSC_CAL_LATCH	(PIT_HZ / 100)	/* channel 2 clocks in a window: 10 ms */
struct tsc_cal_window {
	u64 lo, hi;
};
/* Width of the window the boot's rate comes from (ppm): tsc_khz is within half
 * of it of the TSC's true rate. */
extern u32 tsc_cal_ppm;
/* Measure one window, spinning 10 ms (an interrupt inside a bracket only
 * widens it); false if channel 2 never finished. */
bool tsc_cal_measure(struct tsc_cal_window *w);
u32 tsc_cal_width_ppm(const struct tsc_cal_window *w);
bool tsc_cal_narrow(const struct tsc_cal_window *w);
/* The TSC rate a window gives (its midpoint), in Hz. */
u64 tsc_cal_hz(const struct tsc_cal_window *w);
/* TSC cycles to ns with the calibrated rate. */
u64 cycles_to_ns(u64 cycles);
/* Busy-wait at least us microseconds (TSC). Any context; do not use for long waits. */
void udelay(u32 us);

/* Call fn(data) from the RTC's periodic interrupt (IRQ 8, hard interrupt
 * context) hz times a second; hz is a power of two in 2..8192. A second
 * interrupt source, independent of the tick, for drivers' tests and races.
 * Returns 0 or -EINVAL (bad rate) / -EBUSY (already running). */
int rtc_periodic_start(u32 hz, void (*fn)(void *data), void *data);
void rtc_periodic_stop(void);

#endif
