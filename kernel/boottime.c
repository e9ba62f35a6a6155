/* boottime.c: the boot timeline: raw TSC stamps of the boot's phases, one console line when init starts.
 *
 * QEMU (TCG) starts the guest's TSC at 0 when the virtual machine starts, and
 * real hardware resets it to 0 too, so a raw stamp divided by the calibrated
 * rate is the time since reset: firmware and boot loader included. The stamps
 * cost one rdtsc each; the line is printed once, so the boot is not slowed.
 */
#include "boottime.h"
#include "clock.h"
#include "printk.h"
#include "x86.h"

#define BOOT_MARKS	16

static struct {
	const char	*what;
	u64		tsc;
} marks[BOOT_MARKS];
static int nr_marks;

void boot_mark(const char *what)
{
	if (nr_marks < BOOT_MARKS) {
		marks[nr_marks].what = what;
		marks[nr_marks].tsc = rdtsc();
		nr_marks++;
	}
}

void boot_timeline_print(void)
{
	char line[400];
	int n = 0;

	for (int i = 0; i < nr_marks && n < (int)sizeof(line); i++) {
		u64 us = cycles_to_ns(marks[i].tsc) / NSEC_PER_USEC;

		n += snprintf(line + n, sizeof(line) - n, " %s %u.%01u", marks[i].what,
			      (u32)(us / 1000), (u32)(us % 1000) / 100);
	}
	printk("boot: ms since reset (TSC):%s\n", line);
}
