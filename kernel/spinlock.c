/* spinlock.c: the spinlock debug report, and the report shared by the
 * sleeping-context checks (mutexes, user copies). */
#include "irq.h"
#include "mm.h"
#include "panic.h"
#include "printk.h"
#include "sched.h"
#include "spinlock.h"

#define LOCK_BUG_REPORTS_MAX	3	/* printed per counter; later ones only counted */

void spin_lock_fail(spinlock_t *l, const char *why)
{
	panic("spinlock %s: %s (taken at %08x)", l->name ? l->name : "?", why, l->owner_pc);
}

__noinline void lock_bug_report(u32 *count, u32 caller, const char *fmt, ...)
{
	char msg[160], who[64];
	va_list ap;

	if (++*count > LOCK_BUG_REPORTS_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(KERN_ERR "BUG: %s, called from %s by %s/%d (in_interrupt %d, spinlocks held %d, "
	       "preempt_count %d, interrupts %s)\n", msg, mm_symbolize(caller, who, sizeof(who)),
	       current->name, current->pid, in_interrupt(), spinlocks_held, preempt_count,
	       read_eflags() & EFLAGS_IF ? "on" : "off");
	dump_backtrace((u32)__builtin_return_address(0) - 1, *(u32 *)__builtin_frame_address(0));
}
