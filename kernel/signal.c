/* signal.c: minimal signals: kill, default actions, fatal user faults. There are
 * no handlers: a signal whose default action terminates ends the process at its
 * next return to user mode; one whose default is to be ignored only interrupts
 * an interruptible sleep (-EINTR) and is dropped. */
#include "errno.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "trap.h"
#include "uapi/signal.h"
#include "uapi/wait.h"

#define NSIG_MAX	32

/* Default action is to ignore (Linux): SIGCHLD, SIGURG, SIGWINCH. */
static bool sig_ignored_by_default(int sig)
{
	return sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH;
}

int signal_send(struct task *t, int sig)
{
	if (sig <= 0 || sig >= NSIG_MAX)
		return -EINVAL;
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
	if (!t || !t->mm || t->state == TASK_ZOMBIE)
		return -ESRCH;		/* kernel threads take no signals */
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
		do_exit(W_SIGNALED(sig));
}

void user_fault_kill(struct trap_frame *tf, u32 addr, int sig)
{
	printk(KERN_WARNING "pid %d (%s): %s at %08x ip %08x\n", current->pid, current->name,
	       sig == SIGSEGV ? "segfault" : sig == SIGFPE ? "divide error" :
	       sig == SIGILL ? "invalid opcode" : "fault", addr, tf->eip);
	do_exit(W_SIGNALED(sig));
}
