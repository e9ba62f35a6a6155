/* thread_info.h: what sits at the bottom of every kernel stack: the running
 * task (`current`), its preempt_count and irq_nesting, found from esp.
 *
 * Every kernel stack is KSTACK_SIZE bytes aligned on KSTACK_SIZE (the buddy
 * allocator's order-1 blocks; the boot stack in sched.c; each CPU's SYSENTER
 * stack in gdt.c), and its lowest bytes hold a struct thread_info. A CPU runs
 * on the stack of the task it runs, interrupts included (they nest on it), so
 * esp rounded down names the running task on whichever CPU: three
 * instructions, no lock, no segment register, nothing to switch but esp
 * (Linux 2.6 i386's thread_info). preempt_count and irq_nesting live there
 * too: per task, so per CPU while the task runs, and saved with it for free.
 */
#ifndef THREAD_INFO_H
#define THREAD_INFO_H

#include "types.h"

#define KSTACK_ORDER		1	/* kernel stacks are 2 pages */
#define KSTACK_SIZE		(4096 << KSTACK_ORDER)
#define STACK_END_MAGIC		0x57AC6E9Du	/* just above the thread_info */

struct task;

struct thread_info {
	struct task *task;		/* the task this stack belongs to */
	int preempt_count;		/* preempt_disable() depth */
	int irq_nesting;		/* > 0 while in an interrupt handler or softirq */
	u32 stack_end;			/* STACK_END_MAGIC: an overflow hits it first */
};

/* A kernel stack as memory: its thread_info at the lowest address. */
union kstack {
	struct thread_info ti;
	u8 bytes[KSTACK_SIZE];
};

/* The running context's thread_info. Any context, any CPU. */
static inline struct thread_info *current_thread_info(void)
{
	u32 sp;

	asm("mov %%esp, %0" : "=r"(sp));
	return (struct thread_info *)(sp & ~(u32)(KSTACK_SIZE - 1));
}

/* Fill a new stack's thread_info (stack: its lowest address). */
static inline void thread_info_init(u32 stack, struct task *t)
{
	struct thread_info *ti = (struct thread_info *)stack;

	ti->task = t;
	ti->preempt_count = 0;
	ti->irq_nesting = 0;
	ti->stack_end = STACK_END_MAGIC;
}

#define current		(current_thread_info()->task)
#define preempt_count	(current_thread_info()->preempt_count)
#define irq_nesting	(current_thread_info()->irq_nesting)

#endif
