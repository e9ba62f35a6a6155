/* crash.c: the test-only "crash=" switch: fault on purpose so the runner must notice. */
#include "crash.h"
#include "panic.h"
#include "printk.h"
#include "string.h"

static volatile int zero;
static u32 *volatile bad_pointer = (u32 *)0x00000010;	/* nothing is mapped at 0 */

static __noinline void crash_page_fault(void)
{
	*bad_pointer = 0xdead;
}

static __noinline void crash_divide(void)
{
	volatile int x = 1 / zero;
	(void)x;
}

static __noinline void crash_invalid_opcode(void)
{
	asm volatile("ud2");
}

static __noinline void crash_panic(void)
{
	panic("crash: panic requested on the command line");
}

void crash_if_asked(const char *how)
{
	if (!how)
		return;
	pr_warn("crash: faulting on purpose (%s)\n", how);
	if (!strcmp(how, "pagefault"))
		crash_page_fault();
	else if (!strcmp(how, "divide"))
		crash_divide();
	else if (!strcmp(how, "invalid"))
		crash_invalid_opcode();
	else if (!strcmp(how, "panic"))
		crash_panic();
	pr_warn("crash: unknown kind '%s', ignored\n", how);
}
