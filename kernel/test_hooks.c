/* test_hooks.c: the test kernel's hooks into ordinary paths (include/test_hooks.h); not in the shipped kernel. */
#include "cmdline.h"
#include "sched.h"
#include "test_hooks.h"
#include "x86.h"

bool (*trap_test_hook)(struct trap_frame *tf);
void (*tsc_cal_test_hook)(u64 start);
void (*sync_wake_test_hook)(void);

/* Spin the number of pauses word= asks for (*loops caches the look-up: ~0u
 * until the first call). */
static void spin_if_asked(const char *word, u32 *loops)
{
	if (*loops == ~0u)
		*loops = cmdline_get_num(&boot_cmdline, word, 0);
	for (u32 i = 0; i < *loops; i++)
		cpu_relax();
}

void ktest_fork_pin_delay(void)
{
	static u32 loops = ~0u;

	spin_if_asked("fork_pin_delay", &loops);
}

void ktest_kill_delay(void)
{
	static u32 loops = ~0u;

	spin_if_asked("kill_delay", &loops);
}

void ktest_timer_send_delay(bool zombie)
{
	static u32 loops = ~0u;

	if (zombie)
		spin_if_asked("timer_send_delay", &loops);
}

/* Give the CPU away when word is on the command line (*on caches the look-up:
 * -1 until the first call). */
static void yield_if_asked(const char *word, int *on)
{
	if (*on < 0)
		*on = cmdline_get(&boot_cmdline, word) != NULL;
	if (*on)
		yield();
}

void ktest_exit_yield(void)
{
	static int on = -1;

	yield_if_asked("exit_yield", &on);
}

void ktest_destroy_yield(void)
{
	static int on = -1;

	yield_if_asked("destroy_yield", &on);
}

void ktest_nonblock_yield(void)
{
	static int on = -1;

	yield_if_asked("nonblock_yield", &on);
}
