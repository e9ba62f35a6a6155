/* signal.c: minimal signals: kill, default actions, fatal user faults. There are
 * no handlers: a signal whose default action terminates ends the process at its
 * next return to user mode; one whose default is to be ignored only interrupts
 * an interruptible sleep (-EINTR) and is dropped. Init (pid 1) handles no
 * signal, so none is delivered to it: kill(1, SIGKILL) returns 0 and does nothing.
 * kill() finds a process until it is a zombie (exiting, it still counts: it may
 * be waiting for its I/O); a zombie or a kernel thread is -ESRCH. */
#include "errno.h"
#include "syscall_table.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "trap.h"
#include "uapi/signal.h"
#include "uapi/wait.h"
#include "vm.h"
#include "x86.h"

#define NSIG_MAX	32

/* Default action is to ignore (Linux): SIGCHLD, SIGURG, SIGWINCH. */
static bool sig_ignored_by_default(int sig)
{
	return sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH;
}

/* Init handles no signal (there are no handlers yet), so none reaches it. */
static bool sig_unwanted_by_init(struct task *t, int sig)
{
	return proc_is_init(t);
}

int signal_send(struct task *t, int sig)
{
	if (sig <= 0 || sig >= NSIG_MAX)
		return -EINVAL;
	if (sig_unwanted_by_init(t, sig))
		return 0;
	__atomic_or_fetch(&t->sigpending, 1u << sig, __ATOMIC_SEQ_CST);
	signal_wake_up(t);		/* out of an interruptible sleep */
	return 0;
}

long sys_kill(int pid, int sig)
{
	struct task *t;

	if (sig < 0 || sig >= NSIG_MAX)
		return -EINVAL;
	t = pid > 0 ? task_find(pid) : NULL;
	if (!t || !task_is_process(t) || t->state == TASK_ZOMBIE)
		return -ESRCH;		/* kernel threads take no signals; zombies neither */
	return sig ? signal_send(t, sig) : 0;
}

/* The lowest pending fatal signal, or 0; ignored ones are dropped. */
static int take_fatal_signal(struct task *t)
{
	u32 pending = __atomic_exchange_n(&t->sigpending, 0, __ATOMIC_SEQ_CST);

	for (int sig = 1; sig < NSIG_MAX; sig++)
		if ((pending & (1u << sig)) && !sig_ignored_by_default(sig))
			return sig;
	return 0;
}

void signal_deliver(struct trap_frame *tf)
{
	int sig;

	if (!current->sigpending)
		return;
	sig = take_fatal_signal(current);
	if (sig)
		do_exit(WAIT_SIGNALED(sig));
}

void user_fault_kill(struct trap_frame *tf, u32 addr, int sig)
{
	printk(KERN_WARNING "pid %d (%s): %s at %08x ip %08x\n", current->pid, current->name,
	       sig == SIGSEGV ? "segfault" : sig == SIGFPE ? "divide error" :
	       sig == SIGILL ? "invalid opcode" : "fault", addr, tf->eip);
	do_exit(WAIT_SIGNALED(sig));
}

void user_exception(struct trap_frame *tf)
{
	int sig = tf->vector == T_DIVIDE ? SIGFPE : tf->vector == T_INVALID_OP ? SIGILL :
		  tf->vector == T_BREAKPOINT ? SIGTRAP : SIGSEGV;

	user_fault_kill(tf, tf->vector == T_PAGE_FAULT ? read_cr2() : 0, sig);
}

/* Signals are delivered with interrupts on (a fatal one exits, which may
 * sleep); the reschedule runs with them off, as __schedule wants; and the last
 * look happens with them off, so nothing set by an interrupt or by another
 * task while this one was switched out goes unseen before the return to ring 3
 * (iret restores the user's IF; the SYSEXIT path does sti just before it). */
void user_return(struct trap_frame *tf)
{
	cli();
	for (;;) {
		if (current->sigpending) {
			sti();
			signal_deliver(tf);
			cli();
		} else if (current->need_resched) {
			preempt_irq_return(tf);
		} else {
			return;
		}
	}
}

bool handle_user_fault(struct trap_frame *tf, u32 addr)
{
	struct mm *mm = current->mm;

	if (mm && handle_mm_fault(mm, addr, tf->err & PF_WRITE) == 0)
		return true;
	if (trap_from_user(tf))
		user_fault_kill(tf, addr, SIGSEGV);
	return false;				/* a uaccess routine: its fixup runs */
}
