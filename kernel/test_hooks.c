/* test_hooks.c: the test kernel's hooks into ordinary paths (include/test_hooks.h); not in the shipped kernel. */
#include "cmdline.h"
#include "sched.h"
#include "test_hooks.h"
#include "x86.h"

bool (*trap_test_hook)(struct trap_frame *tf);
void (*tsc_cal_test_hook)(u64 start);

void ktest_fork_pin_delay(void)
{
	static u32 loops = ~0u;		/* read from the command line at first use */

	if (loops == ~0u)
		loops = cmdline_get_num(&boot_cmdline, "fork_pin_delay", 0);
	for (u32 i = 0; i < loops; i++)
		cpu_relax();
}

void ktest_exit_yield(void)
{
	static int on = -1;		/* read from the command line at first use */

	if (on < 0)
		on = cmdline_get(&boot_cmdline, "exit_yield") != NULL;
	if (on)
		yield();
}
