/* apic_timer.h: the local APIC timer as each application processor's tick. */
#ifndef APIC_TIMER_H
#define APIC_TIMER_H

#include "types.h"

/* Local APIC timer counts per tick (1/HZ s) at divide-by-16, measured at boot
 * (0: not calibrated, no local APIC timer). */
extern u32 apic_timer_per_tick;

/* Measure the timer's rate against the TSC (itself calibrated against the
 * PIT) and install the tick's handler. Boot CPU, after time_init and
 * lapic_map, before the APs start. Returns 0 or -ENODEV (it did not count). */
int apic_timer_calibrate(void);
/* Start the running CPU's local APIC timer, periodic at HZ on T_APIC_TIMER.
 * An AP, interrupts off, once its local APIC is enabled. */
void apic_timer_start(void);

/* CPU cpu is an idle AP whose tick is stopped (a hint, any context). */
bool apic_timer_tick_stopped(u32 cpu);
/* Interrupts off: start the running CPU's stopped tick again when it leaves
 * idle (leaving: __schedule switching from the idle task) or a timer is now
 * on its wheel (the idle loop, after each wake-up). */
void apic_timer_idle_check(bool leaving);

#endif
