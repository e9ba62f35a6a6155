/* crash.c: the test-only "crash=" switch: fault on purpose so the runner must notice. */
#include "crash.h"
#include "panic.h"
#include "smp.h"
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

/* On the last CPU, from its call-function IPI: that CPU panics and must stop
 * the others, the boot CPU among them (waiting in smp_call_function_wait). */
static void crash_ap_panic_here(void *arg)
{
	if (smp_processor_id() == nr_cpus_online - 1)
		panic("crash: panic on CPU %u", smp_processor_id());
}

static __noinline void crash_ap_panic(void)
{
	if (nr_cpus_online < 2)
		return;
	smp_call_function_start(crash_ap_panic_here, NULL);
	smp_call_function_wait();
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
	else if (!strcmp(how, "ap_panic"))
		crash_ap_panic();
	pr_warn("crash: unknown kind '%s', ignored\n", how);
}
