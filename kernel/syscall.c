/* syscall.c: the int 0x80 entry: dispatch through the generated table, then
 * signals and preemption on the way back to user mode (SYSENTER: sysenter.c). */
#include "errno.h"
#include "mutex.h"
#include "proc.h"
#include "sched.h"
#include "syscall_table.h"
#include "sysenter.h"
#include "trap.h"
#include "x86.h"

/* Run the call in tf->eax with the frame's arguments; the result goes to tf->eax. */
static void syscall_run(struct trap_frame *tf)
{
	u32 nr = tf->eax;
	long ret = -ENOSYS;

	if (nr < NR_SYSCALLS)
		ret = syscall_table[nr](tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp);
	tf->eax = ret;			/* exec: the fresh frame's eax, 0 */
}

static void syscall_entry(struct trap_frame *tf)
{
	sti();				/* system calls run with interrupts on */
	syscall_run(tf);
	mutex_check_user_return();
}

void syscall_init(void)
{
	trap_set_handler(T_SYSCALL, syscall_entry, 3);
	sysenter_init();
}
