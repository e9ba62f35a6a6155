/* spinlock.c: the spinlock mode (ticket order or take-when-free), the debug report, and the report shared by the
 * sleeping-context checks (mutexes, user copies). */
#include "cmdline.h"
#include "irq.h"
#include "mm.h"
#include "panic.h"
#include "printk.h"
#include "sched.h"
#include "spinlock.h"
#include "string.h"
#include "x86.h"

#define LOCK_BUG_REPORTS_MAX	3	/* printed per counter; later ones only counted */

u8 spin_fifo = 1;

/* Called by smp_init before the APs start (one CPU runs: a lock held now
 * stays consistent, both ways share the ticket word). */
void spin_mode_init(void)
{
	const char *mode = cmdline_get(&boot_cmdline, "spinlock");

	if (mode && !strcmp(mode, "ticket"))
		spin_fifo = 1;
	else if (mode && !strcmp(mode, "tas"))
		spin_fifo = 0;
	else
		spin_fifo = !(cpuid_ecx(1) & CPUID_ECX_HYPERVISOR);
	printk("spinlocks: %s\n", spin_fifo ? "ticket order" :
	       "taken when found free (under a hypervisor: no lock-waiter preemption)");
}

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
