/* timing.h: helpers for tests with real-time bounds on an emulated machine.
 *
 * Under TCG a loaded host deschedules QEMU: ticks arrive late and the PIC
 * drops edges, so jiffies has to catch up (time.c) and any "at most X late"
 * bound measured across such a stall is about the host, not the kernel. A
 * timing test therefore measures in a tick window, judges upper bounds only on
 * windows without lost ticks (retrying up to TIMING_ATTEMPTS times), and says
 * so in its log when the host never gave it one. Lower bounds ("never early")
 * are judged always: a stall can only make things later.
 */
#ifndef KTEST_TIMING_H
#define KTEST_TIMING_H

#include "clock.h"
#include "irq.h"

#define TIMING_ATTEMPTS	12

struct tick_window {
	u32 irq0;
	unsigned long j0;
};

static inline void tick_window_start(struct tick_window *w)
{
	w->irq0 = irq_count[0];
	w->j0 = jiffies;
}

/* Did jiffies move other than one tick per interrupt (ticks lost and caught up)? */
static inline bool tick_window_stalled(const struct tick_window *w)
{
	return jiffies - w->j0 != irq_count[0] - w->irq0;
}

#endif
