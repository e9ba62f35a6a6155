/* sysrq.c: show_tasks, the task dump a break on the serial console asks for (as Linux's SysRq t). */
#include "clock.h"
#include "ksyms.h"
#include "panic.h"
#include "printk.h"
#include "sched.h"
#include "sysrq.h"

#define SYSRQ_SWITCH_EBP	3	/* words switch_context left on a task's stack: */
#define SYSRQ_SWITCH_RET	4	/* edi, esi, ebx, ebp, return address */

static char task_state_char(const struct task *t)
{
	switch (t->state) {
	case TASK_RUNNING:		return 'R';
	case TASK_INTERRUPTIBLE:	return 'S';
	case TASK_UNINTERRUPTIBLE:	return 'D';
	case TASK_ZOMBIE:		return 'Z';
	case TASK_STOPPED:		return 'T';	/* group stop (SIGSTOP) */
	case TASK_KILLABLE:		return 'K';	/* D that SIGKILL ends */
	case TASK_DEAD:			return 'X';
	default:			return '?';
	}
}

/* What a task waits on: a function (ksyms names it) or a wait queue's address. */
static void show_wait_channel(const struct task *t, char *buf, size_t n)
{
	u32 off, size;
	const char *name = ksym_lookup((u32)t->wait_channel, &off, &size);

	if (!t->wait_channel)
		snprintf(buf, n, "-");
	else if (name && !off)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "%p", t->wait_channel);
}

static void show_task(struct task *t)
{
	u32 *sp = (u32 *)t->esp;
	char wchan[48];

	show_wait_channel(t, wchan, sizeof(wchan));
	printk(KERN_WARNING "task %d %s: %c%s, mm %s, %u switches, %llu ticks, wait %s\n",
	       t->pid, t->name, task_state_char(t), t == current ? " (current)" : "",
	       t->mm ? "user" : "-", t->nr_switches, t->ticks, wchan);
	if (t == current)
		dump_backtrace((u32)__builtin_return_address(0) - 1,
			       *(u32 *)__builtin_frame_address(0));
	else if (t->state != TASK_ZOMBIE && t->esp)
		dump_backtrace(sp[SYSRQ_SWITCH_RET] - 1, sp[SYSRQ_SWITCH_EBP]);
}

/* Interrupts off (the serial interrupt). task_list is changed only with
 * interrupts off on this uniprocessor, so it is walked without its lock: the
 * dump works even when a hung task holds that lock. */
void show_tasks(void)
{
	struct task *t;

	printk(KERN_WARNING "show tasks: jiffies %lu, %d tasks, current %d %s\n",
	       jiffies, nr_tasks, current->pid, current->name);
	list_for_each_entry(t, &task_list, tasks)
		show_task(t);
	printk(KERN_WARNING "---[ end show tasks ]---\n");
}
