/* syscall.c: the one system-call dispatcher, shared by the int 0x80 gate
 * (here) and the SYSENTER entry (sysenter.c), through the generated table. */
#include "errno.h"
#include "futex.h"
#include "mutex.h"
#include "proc.h"
#include "sched.h"
#include "syscall.h"
#include "syscall_table.h"
#include "sysenter.h"
#include "trace.h"
#include "trap.h"
#include "x86.h"

void syscall_dispatch(struct trap_frame *tf)
{
	u32 nr = tf->eax;

	tf->err = nr;			/* orig eax: a restart after a signal needs it */
	trace_syscall_enter(nr);
	if (likely(nr < NR_SYSCALLS))
		tf->eax = syscall_table[nr](tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp);
	else
		tf->eax = -ENOSYS;	/* exec: the fresh frame's eax is 0 */
	trace_syscall_exit(nr, tf->eax);
	mutex_check_user_return();
}

/* The int 0x80 gate: signals and preemption are looked at by the trap exit. */
static void syscall_entry(struct trap_frame *tf)
{
	sti();				/* system calls run with interrupts on */
	syscall_dispatch(tf);
}

void syscall_init(void)
{
	futex_init();
	trap_set_handler(T_SYSCALL, syscall_entry, 3);
	sysenter_init();
}
