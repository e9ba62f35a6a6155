/* signal.c: signals: handler tables and thread groups' signal state, sending (kill, tgkill, sigqueue, faults), the delivery loop with default actions, group exit and stop. The system calls are kernel/signal_calls.c.
 *
 * A signal is sent to a thread (tgkill, a fault) or to its group (kill);
 * complete_signal picks a thread that does not block it and wakes it. The
 * thread acts on it in signal_deliver on its way back to user mode: a handler
 * gets a frame (kernel/sigframe.c), a default action ignores, stops the group,
 * or ends it (with the core bit for the "core" set). A fatal signal nobody
 * catches ends every thread at once (fatal_pending wakes killable sleeps).
 * Init (pid 1) takes only the signals it has a handler for: any other is
 * dropped when sent, SIGKILL included (Linux's rule for a namespace's init).
 * Locking: include/signal.h (sighand->lock guards it all).
 */
#include "errno.h"
#include "clock.h"
#include "panic.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "rusage.h"
#include "signal.h"
#include "signalfd.h"
#include "signal_internal.h"
#include "slab.h"
#include "string.h"
#include "syscall_table.h"
#include "trap.h"
#include "uaccess.h"
#include "uapi/sched.h"
#include "uapi/wait.h"
#include "vm.h"
#include "wait.h"
#include "x86.h"

atomic_t nr_sigqueues = ATOMIC_INIT(0);
atomic_t nr_signal_structs = ATOMIC_INIT(0);

bool sig_valid(int sig)
{
	return sig >= 1 && sig <= KNSIG;
}

/* ---------------------------------------------------------------- lifetime */

struct signal_struct *signal_alloc(void)
{
	struct signal_struct *s = kmalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	memset(s, 0, sizeof(*s));
	atomic_set(&s->count, 1);
	INIT_LIST_HEAD(&s->threads);
	INIT_LIST_HEAD(&s->shared_q);
	itimers_init(s);
	atomic_inc(&nr_signal_structs);
	return s;
}

struct sighand_struct *sighand_alloc(const struct sighand_struct *copy)
{
	struct sighand_struct *sh = kmalloc(sizeof(*sh), GFP_KERNEL);

	if (!sh)
		return NULL;
	if (copy)
		memcpy(sh->action, copy->action, sizeof(sh->action));
	else
		memset(sh->action, 0, sizeof(sh->action));
	atomic_set(&sh->count, 1);
	spin_lock_init(&sh->lock, "sighand");
	return sh;
}

void sighand_put(struct sighand_struct *sh)
{
	if (sh && atomic_dec_and_test(&sh->count))
		kfree(sh);
}

static void sigqueue_free(struct sigqueue *q)
{
	kfree(q);
	atomic_dec(&nr_sigqueues);
}

/* Free every entry of q; returns how many there were. */
static int flush_queue(struct list_head *q)
{
	int n = 0;

	while (!list_empty(q)) {
		struct sigqueue *e = list_first_entry(q, struct sigqueue, list);
		list_del(&e->list);
		sigqueue_free(e);
		n++;
	}
	return n;
}

/* The last task of the group is released (any context: no sleeping). */
void signal_put(struct signal_struct *s)
{
	if (!s || !atomic_dec_and_test(&s->count))
		return;
	flush_queue(&s->shared_q);
	atomic_dec(&nr_signal_structs);
	kfree(s);
}

/* Thread-directed state of a task that is released. Its queue is empty:
 * signal_thread_exit discarded what was queued to it, giving the slots back
 * to the group's count (SIGQUEUE_MAX) under the group's lock, and nothing is
 * queued to a thread after that (__send_signal). Not here: an exec may have
 * given the group a new sighand (and lock) since. Before, a thread cancelled
 * with its KSIG_CANCEL still queued kept its slot, and after 256 such threads
 * every real-time signal to the process failed with -EAGAIN. */
void signal_task_release(struct task *t)
{
	flush_queue(&t->pending_q);		/* a task that never ran signal_thread_exit */
	sighand_put(t->sighand);
	signal_put(t->signal);
	t->sighand = NULL;
	t->signal = NULL;
}

/* The leader's own status waits for the others; the last thread stores the
 * group's (a group exit's code, else the leader's) in the leader, with
 * interrupts off: wait4 never sees the group gone with a stale code. */
int signal_thread_exit(struct task *t, int status)
{
	struct sighand_struct *sh = t->sighand;
	struct signal_struct *s = t->signal;
	struct task *leader = t->group_leader;
	int final = -1;
	u32 flags;

	if (t->nr_threads_done)
		return -1;
	t->nr_threads_done = true;
	spin_lock_irqsave(&sh->lock, flags);
	list_del_init(&t->thread_node);
	s->nr_queued -= flush_queue(&t->pending_q);	/* its own signals go with it */
	t->pending = 0;
	rusage_thread_exit(t, s);
	if (t == leader)
		leader->exit_code = status;
	if (s->nr_threads == 1) {	/* the last: 0 in signal_group_dead, once told */
		final = (s->flags & SIGNAL_GROUP_EXIT) ? s->group_exit_code : leader->exit_code;
		leader->exit_code = final;
	} else {
		s->nr_threads--;
	}
	spin_unlock_irqrestore(&sh->lock, flags);
	if (final >= 0)
		itimers_exit(s);
	return final;
}

void signal_group_dead(struct task *t)
{
	u32 flags;

	spin_lock_irqsave(&t->sighand->lock, flags);
	t->signal->nr_threads = 0;	/* from here the parent may reap the leader */
	spin_unlock_irqrestore(&t->sighand->lock, flags);
	proc_wake_waiters(NULL);
}

int signal_exec(void)
{
	struct sighand_struct *sh = current->sighand, *fresh;
	u32 flags;

	if (atomic_read(&sh->count) > 1) {	/* shared with another process: unshare */
		fresh = sighand_alloc(sh);
		if (!fresh)
			return -ENOMEM;
		current->sighand = fresh;	/* the group is one thread now (exec) */
		sighand_put(sh);
		sh = fresh;
	}
	spin_lock_irqsave(&sh->lock, flags);
	for (int i = 0; i < KNSIG; i++) {
		struct kernel_sigaction *ka = &sh->action[i];
		if (ka->handler != KSIG_IGN)
			ka->handler = KSIG_DFL;
		ka->flags = 0;
		ka->restorer = NULL;
		ka->mask.sig[0] = ka->mask.sig[1] = 0;
	}
	current->sas_sp = current->sas_size = 0;
	spin_unlock_irqrestore(&sh->lock, flags);
	return 0;
}

/* ---------------------------------------------------------------- sending */

static bool is_init_group(const struct task *t)
{
	return proc_is_init(t->group_leader);
}

static void *action_handler(struct task *t, int sig)
{
	return t->sighand->action[sig - 1].handler;
}

/* Would the signal be dropped at once? (Blocked signals stay queued.) */
bool sig_ignored(struct task *t, int sig)
{
	void *h = action_handler(t, sig);

	if (is_init_group(t))
		return h == KSIG_DFL || h == KSIG_IGN;
	if ((t->blocked | t->sigwait_set) & SIGBIT(sig))
		return false;
	return h == KSIG_IGN || (h == KSIG_DFL && (SIG_IGNORE_SET & SIGBIT(sig)));
}

void recalc_sigpending_tsk(struct task *t)
{
	struct signal_struct *s = t->signal;

	t->sigpending = t->fatal_pending || (s->flags & (SIGNAL_GROUP_EXIT | SIGNAL_STOPPED)) ||
			((t->pending | s->shared_pending) & ~t->blocked);
}

/* Remove the signals in mask from a pending set and its queue. */
void flush_sigs(u64 *set, struct list_head *q, u64 mask, struct signal_struct *s)
{
	struct sigqueue *e, *n;

	if (!(*set & mask))
		return;
	*set &= ~mask;
	list_for_each_entry_safe(e, n, q, list)
		if (mask & SIGBIT(e->info.si_signo)) {
			list_del(&e->list);
			s->nr_queued--;
			sigqueue_free(e);
		}
}

static void flush_group_sigs(struct signal_struct *s, u64 mask)
{
	struct task *th;

	flush_sigs(&s->shared_pending, &s->shared_q, mask, s);
	list_for_each_entry(th, &s->threads, thread_node)
		flush_sigs(&th->pending, &th->pending_q, mask, s);
}

/* SIGKILL/SIGCONT end a group stop; a stop signal cancels a pending SIGCONT.
 * Returns true when a stopped group was continued (the parent is told). */
static bool prepare_stop_cont(struct task *t, int sig)
{
	struct signal_struct *s = t->signal;
	struct task *th;

	if (SIG_STOP_SET & SIGBIT(sig)) {
		flush_group_sigs(s, SIGBIT(SIGCONT));
		return false;
	}
	if (sig != SIGCONT && sig != SIGKILL)
		return false;
	flush_group_sigs(s, SIG_STOP_SET);
	if (!(s->flags & SIGNAL_STOPPED))
		return false;
	s->flags &= ~(SIGNAL_STOPPED | SIGNAL_REPORT_STOP);
	if (sig == SIGCONT)
		s->flags |= SIGNAL_REPORT_CONT;
	list_for_each_entry(th, &s->threads, thread_node) {
		recalc_sigpending_tsk(th);
		wake_up_state(th, TASK_STOPPED);
	}
	return sig == SIGCONT;
}

static bool wants_signal(struct task *t, int sig)
{
	return sig == SIGKILL || !(t->blocked & SIGBIT(sig));
}

/* Every thread of the group exits with status (lock held). */
static void group_kill_locked(struct signal_struct *s, int status)
{
	struct task *th;

	if (s->flags & SIGNAL_GROUP_EXIT)
		return;
	s->flags = (s->flags & ~SIGNAL_STOPPED) | SIGNAL_GROUP_EXIT;
	s->group_exit_code = status;
	list_for_each_entry(th, &s->threads, thread_node) {
		th->pending |= SIGBIT(SIGKILL);
		th->fatal_pending = true;
		th->sigpending = 1;
		signal_wake_up(th, true);
	}
}

static bool sig_fatal_default(struct task *t, int sig)
{
	return action_handler(t, sig) == KSIG_DFL &&
	       !((SIG_IGNORE_SET | SIG_STOP_SET) & SIGBIT(sig));
}

static int core_status(int sig)
{
	return WAIT_SIGNALED(sig) | ((SIG_CORE_SET & SIGBIT(sig)) ? 0x80 : 0);
}

/* Pick the thread that takes the signal and wake it (lock held). */
static void complete_signal(int sig, struct task *t, bool group)
{
	struct signal_struct *s = t->signal;
	struct task *target = NULL, *th;

	if (!group || wants_signal(t, sig)) {
		target = t;
	} else {
		list_for_each_entry(th, &s->threads, thread_node)
			if (wants_signal(th, sig)) {
				target = th;
				break;
			}
	}
	if (!target)
		return;			/* every thread blocks it: it waits in the queue */
	if (sig == SIGKILL || (sig_fatal_default(t, sig) && !(SIG_SYNC_SET & SIGBIT(sig)) &&
			       !((target->blocked | target->sigwait_set) & SIGBIT(sig)))) {
		group_kill_locked(s, sig == SIGKILL ? WAIT_SIGNALED(SIGKILL) : core_status(sig));
		return;
	}
	target->sigpending = 1;
	signal_wake_up(target, false);
}

static struct sigqueue *sigqueue_alloc(struct signal_struct *s, int sig)
{
	struct sigqueue *q;

	if (sig >= SIGRTMIN && s->nr_queued >= SIGQUEUE_MAX)
		return NULL;
	q = kmalloc(sizeof(*q), GFP_ATOMIC);
	if (q) {
		atomic_inc(&nr_sigqueues);
		s->nr_queued++;
	}
	return q;
}

/* Lock held. Returns 0, or -EAGAIN for a real-time signal the queue cannot take. */
static int __send_signal(int sig, const struct kernel_siginfo *info, struct task *t, bool group,
			 bool *continued)
{
	struct signal_struct *s = t->signal;
	u64 *set = group ? &s->shared_pending : &t->pending;
	struct list_head *q = group ? &s->shared_q : &t->pending_q;
	struct sigqueue *e;

	if (is_init_group(t) && sig_ignored(t, sig))
		return 0;		/* init takes only what it handles */
	*continued = prepare_stop_cont(t, sig);
	if (sig_ignored(t, sig) || (s->flags & SIGNAL_GROUP_EXIT))
		return 0;
	if (!group && t->nr_threads_done)
		return 0;		/* the thread has exited: nobody takes it */
	if (sig < SIGRTMIN && (*set & SIGBIT(sig)))
		return 0;		/* a standard signal is pending once */
	e = sigqueue_alloc(s, sig);
	if (e) {
		if (info)
			e->info = *info;
		else {
			memset(&e->info, 0, sizeof(e->info));
			e->info.si_code = SI_KERNEL;
		}
		e->info.si_signo = sig;
		list_add_tail(&e->list, q);
	} else if (sig >= SIGRTMIN && info && info->si_code != SI_KERNEL) {
		return -EAGAIN;
	}
	*set |= SIGBIT(sig);
	signalfd_notify();		/* signal files' readers and pollers look again */
	complete_signal(sig, t, group);
	return 0;
}

int send_signal(int sig, const struct kernel_siginfo *info, struct task *t, bool group)
{
	bool continued = false;
	u32 flags;
	int err;

	if (!sig_valid(sig))
		return -EINVAL;
	if (!t->sighand)
		return 0;		/* a kernel thread, or a task already released */
	spin_lock_irqsave(&t->sighand->lock, flags);
	err = __send_signal(sig, info, t, group, &continued);
	spin_unlock_irqrestore(&t->sighand->lock, flags);
	if (continued)
		signal_notify_parent(t->group_leader, CLD_CONTINUED, SIGCONT);
	return err;
}

int signal_send(struct task *t, int sig)
{
	return send_signal(sig, NULL, t, false);
}

void force_sig_fault(int sig, int code, u32 addr)
{
	struct task *t = current;
	struct kernel_siginfo info;
	struct kernel_sigaction *ka = &t->sighand->action[sig - 1];
	u32 flags;

	memset(&info, 0, sizeof(info));
	info.si_signo = sig;
	info.si_code = code;
	info.f.fault.addr = (void *)addr;
	spin_lock_irqsave(&t->sighand->lock, flags);
	if (ka->handler == KSIG_IGN || (t->blocked & SIGBIT(sig))) {
		ka->handler = KSIG_DFL;
		t->blocked &= ~SIGBIT(sig);
	}
	spin_unlock_irqrestore(&t->sighand->lock, flags);
	send_signal(sig, &info, t, false);
}

void signal_group_exit(int status)
{
	u32 flags;

	spin_lock_irqsave(&current->sighand->lock, flags);
	group_kill_locked(current->signal, status);
	spin_unlock_irqrestore(&current->sighand->lock, flags);
}

/* ---------------------------------------------------------------- delivery */

static int next_signal(u64 pending, u64 blocked)
{
	u64 x = pending & ~blocked;

	if (!x)
		return 0;
	if (x & SIG_SYNC_SET)
		x &= SIG_SYNC_SET;
	return __builtin_ctzll(x) + 1;
}

/* Take sig's first entry from a queue into info; clear the bit if no other is left. */
static void collect_signal(int sig, u64 *set, struct list_head *q, struct signal_struct *s,
			   struct kernel_siginfo *info)
{
	struct sigqueue *e, *first = NULL;
	bool more = false;

	list_for_each_entry(e, q, list)
		if (e->info.si_signo == sig) {
			if (first) {
				more = true;
				break;
			}
			first = e;
		}
	if (!more)
		*set &= ~SIGBIT(sig);
	if (first) {
		*info = first->info;
		if (info->si_code == SI_TIMER)
			posix_timer_delivered(s, info);	/* timer_getoverrun's answer */
		list_del(&first->list);
		s->nr_queued--;
		sigqueue_free(first);
	} else {			/* no room was left when it was sent */
		memset(info, 0, sizeof(*info));
		info->si_signo = sig;
		info->si_code = SI_KERNEL;
	}
}

/* Dequeue the next signal not in blocked: thread-directed first (lock held). */
int dequeue_signal(struct task *t, u64 blocked, struct kernel_siginfo *info)
{
	struct signal_struct *s = t->signal;
	int sig = next_signal(t->pending, blocked);

	if (sig) {
		collect_signal(sig, &t->pending, &t->pending_q, s, info);
		return sig;
	}
	sig = next_signal(s->shared_pending, blocked);
	if (sig)
		collect_signal(sig, &s->shared_pending, &s->shared_q, s, info);
	return sig;
}

/* The group stops: every thread is told; the parent once (lock held, dropped). */
static void group_stop_locked(struct task *t, int sig, u32 *flags)
{
	struct signal_struct *s = t->signal;
	struct task *th;

	s->flags = (s->flags | SIGNAL_STOPPED | SIGNAL_REPORT_STOP) & ~SIGNAL_REPORT_CONT;
	s->stop_sig = sig;
	list_for_each_entry(th, &s->threads, thread_node)
		if (th != t) {
			th->sigpending = 1;
			signal_wake_up(th, false);
		}
	spin_unlock_irqrestore(&t->sighand->lock, *flags);
	signal_notify_parent(t->group_leader, CLD_STOPPED, sig);
	spin_lock_irqsave(&t->sighand->lock, *flags);
}

/* Sleep stopped until SIGCONT or SIGKILL (lock held, dropped and retaken). */
static void stopped_sleep(struct task *t, u32 *flags)
{
	__set_current_state(TASK_STOPPED);
	t->wait_channel = (void *)stopped_sleep;
	spin_unlock_irqrestore(&t->sighand->lock, *flags);
	schedule();
	t->wait_channel = NULL;
	spin_lock_irqsave(&t->sighand->lock, *flags);
}

/* The next signal with a handler to run (its action in *ka), or 0. Acts on
 * every default action meanwhile; a fatal one does not return. */
static int get_signal(struct kernel_sigaction *ka, struct kernel_siginfo *info)
{
	struct task *t = current;
	struct signal_struct *s = t->signal;
	u32 flags;
	int sig;

	spin_lock_irqsave(&t->sighand->lock, flags);
	for (;;) {
		struct kernel_sigaction *a;

		if (t->fatal_pending || (s->flags & SIGNAL_GROUP_EXIT)) {
			int status = (s->flags & SIGNAL_GROUP_EXIT) ? s->group_exit_code :
				     WAIT_SIGNALED(SIGKILL);
			spin_unlock_irqrestore(&t->sighand->lock, flags);
			do_exit(status);
		}
		if (s->flags & SIGNAL_STOPPED) {
			stopped_sleep(t, &flags);
			continue;
		}
		sig = dequeue_signal(t, t->blocked, info);
		if (!sig)
			break;
		a = &t->sighand->action[sig - 1];
		if (a->handler == KSIG_IGN)
			continue;
		if (a->handler != KSIG_DFL) {
			*ka = *a;
			if (a->flags & KSA_RESETHAND)
				a->handler = KSIG_DFL;
			spin_unlock_irqrestore(&t->sighand->lock, flags);
			return sig;
		}
		if ((SIG_IGNORE_SET & SIGBIT(sig)) || is_init_group(t))
			continue;
		if (SIG_STOP_SET & SIGBIT(sig)) {
			group_stop_locked(t, sig, &flags);
			continue;
		}
		group_kill_locked(s, core_status(sig));
	}
	recalc_sigpending_tsk(t);
	spin_unlock_irqrestore(&t->sighand->lock, flags);
	return 0;
}

/* The system call the frame left (orig eax in err) and its result: restart
 * it (back to the int $0x80, or to the entry page's restart jump) or turn an
 * internal code into -EINTR. tf->err is -1 once settled. */
static void syscall_restart(struct trap_frame *tf, const struct kernel_sigaction *ka)
{
	long ret = (long)tf->eax;
	bool restart = false;

	if (tf->vector != T_SYSCALL || (int)tf->err < 0)
		return;
	switch (ret) {
	case -ERESTARTNOHAND:
	case -ERESTART_RESTARTBLOCK:
		restart = !ka;
		break;
	case -ERESTARTSYS:
		restart = !ka || (ka->flags & KSA_RESTART);
		break;
	case -ERESTARTNOINTR:
		restart = true;
		break;
	default:
		tf->err = (u32)-1;
		return;
	}
	if (!restart)
		tf->eax = (u32)-EINTR;
	else {
		tf->eax = ret == -ERESTART_RESTARTBLOCK ? 0 /* restart_syscall */ : tf->err;
		tf->eip -= 2;			/* int $0x80, or the entry page's jmp back */
	}
	tf->err = (u32)-1;
}

static void restore_saved_mask(struct task *t)
{
	u32 flags;

	if (!t->restore_blocked)
		return;
	spin_lock_irqsave(&t->sighand->lock, flags);
	t->blocked = t->saved_blocked;
	t->restore_blocked = false;
	recalc_sigpending_tsk(t);
	spin_unlock_irqrestore(&t->sighand->lock, flags);
}

/* The handler runs with its mask added; a frame that cannot be written
 * leaves SIGSEGV with its default action (the stack is unusable). */
static void handle_signal(int sig, struct kernel_sigaction *ka, struct kernel_siginfo *info,
			  struct trap_frame *tf)
{
	struct task *t = current;
	u64 oldmask = t->restore_blocked ? t->saved_blocked : t->blocked;
	u32 flags;

	syscall_restart(tf, ka);
	if (sigframe_setup(sig, ka, info, oldmask, tf)) {
		spin_lock_irqsave(&t->sighand->lock, flags);
		t->sighand->action[SIGSEGV - 1].handler = KSIG_DFL;
		t->blocked &= ~SIGBIT(SIGSEGV);
		spin_unlock_irqrestore(&t->sighand->lock, flags);
		send_signal(SIGSEGV, NULL, t, false);
		return;
	}
	spin_lock_irqsave(&t->sighand->lock, flags);
	t->restore_blocked = false;
	t->blocked |= ((u64)ka->mask.sig[1] << 32 | ka->mask.sig[0]) |
		      ((ka->flags & KSA_NODEFER) ? 0 : SIGBIT(sig));
	t->blocked &= ~SIG_KERNEL_ONLY;
	recalc_sigpending_tsk(t);
	spin_unlock_irqrestore(&t->sighand->lock, flags);
}

void signal_deliver(struct trap_frame *tf)
{
	struct kernel_sigaction ka;
	struct kernel_siginfo info;
	int sig;

	if (!current->sighand) {
		current->sigpending = 0;
		return;
	}
	if (current->set_child_tid) {		/* CLONE_CHILD_SETTID, in the child's mm */
		put_user(current->pid, (int *)current->set_child_tid);
		current->set_child_tid = 0;
	}
	sig = get_signal(&ka, &info);
	if (sig) {
		handle_signal(sig, &ka, &info, tf);
		return;
	}
	syscall_restart(tf, NULL);
	restore_saved_mask(current);
}

/* Signals are delivered with interrupts on (a fatal one exits, which may
 * sleep); the reschedule runs with them off, as __schedule wants; and the last
 * look happens with them off, so nothing set by an interrupt or by another
 * task while this one was switched out goes unseen before the return to ring 3
 * (iret restores the user's IF; the SYSEXIT path does sti just before it). */
void user_return(struct trap_frame *tf)
{
	if (unlikely(current->restore_blocked && !current->sigpending))
		restore_saved_mask(current);	/* a temporary mask whose signal went elsewhere */
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

/* ---------------------------------------------------------------- faults */

static bool fault_will_kill(int sig)
{
	void *h = action_handler(current, sig);

	return h == KSIG_DFL || h == KSIG_IGN || (current->blocked & SIGBIT(sig));
}

static void user_fault(struct trap_frame *tf, int sig, int code, u32 addr)
{
	if (fault_will_kill(sig))
		printk(KERN_WARNING "pid %d (%s): %s at %08x ip %08x\n", current->pid,
		       current->name, sig == SIGSEGV ? "segfault" : sig == SIGFPE ?
		       "divide error" : sig == SIGILL ? "invalid opcode" : "fault", addr, tf->eip);
	force_sig_fault(sig, code, addr);
}

void user_exception(struct trap_frame *tf)
{
	switch (tf->vector) {
	case T_DIVIDE:
		user_fault(tf, SIGFPE, FPE_INTDIV, tf->eip);
		break;
	case 16:				/* x87 error */
	case 19:				/* SIMD error */
		user_fault(tf, SIGFPE, FPE_FLTINV, tf->eip);
		break;
	case T_INVALID_OP:
		user_fault(tf, SIGILL, ILL_ILLOPN, tf->eip);
		break;
	case T_BREAKPOINT:
		user_fault(tf, SIGTRAP, TRAP_BRKPT, tf->eip);
		break;
	case 17:				/* alignment check */
		user_fault(tf, SIGBUS, BUS_ADRALN, tf->eip);
		break;
	case T_PAGE_FAULT:
		user_fault(tf, SIGSEGV, SEGV_MAPERR, read_cr2());
		break;
	default:				/* #GP and the rest */
		user_fault(tf, SIGSEGV, SI_KERNEL, 0);
		break;
	}
}

bool handle_user_fault(struct trap_frame *tf, u32 addr)
{
	struct mm *mm = current->mm;
	bool mapped;
	int err = mm ? handle_mm_fault(mm, addr, tf->err & PF_WRITE) : -EFAULT;

	if (!err)
		return true;
	if (!trap_from_user(tf))
		return false;			/* a uaccess routine: its fixup runs */
	if (err == -EIO) {			/* a file page that is not there */
		user_fault(tf, SIGBUS, BUS_ADRERR, addr);
		return true;
	}
	spin_lock(&mm->lock);
	mapped = vm_find(mm, addr) != NULL;
	spin_unlock(&mm->lock);
	user_fault(tf, SIGSEGV, mapped ? SEGV_ACCERR : SEGV_MAPERR, addr);
	return true;
}

/* ---------------------------------------------------------------- parent */

void signal_notify_parent(struct task *leader, int why, int status)
{
	struct task *parent = leader->parent;
	struct kernel_siginfo info;
	int sig = why == CLD_EXITED || why == CLD_KILLED || why == CLD_DUMPED ?
		  leader->exit_signal : SIGCHLD;

	proc_wake_waiters(parent);
	if (!parent || !parent->sighand || !sig_valid(sig))
		return;
	if (why == CLD_STOPPED || why == CLD_CONTINUED) {
		struct kernel_sigaction *ka = &parent->sighand->action[SIGCHLD - 1];
		if (ka->flags & KSA_NOCLDSTOP)
			return;
	}
	memset(&info, 0, sizeof(info));
	info.si_signo = sig;
	info.si_code = why;
	info.f.chld.pid = leader->tgid;
	info.f.chld.status = status;
	send_signal(sig, &info, parent, true);
}

/* ---------------------------------------------------------------- creation */

/* A new task's signal state: its creator's mask and (CLONE_SIGHAND) handlers
 * or a copy of them, and (CLONE_THREAD) its group or a new one. The first
 * process (parent NULL) starts with defaults. */
int signal_task_init(struct task *t, struct task *parent, u32 clone_flags)
{
	bool thread = clone_flags & KCLONE_THREAD;
	u32 flags;

	INIT_LIST_HEAD(&t->pending_q);
	INIT_LIST_HEAD(&t->thread_node);
	if (parent && (clone_flags & KCLONE_SIGHAND)) {
		t->sighand = parent->sighand;
		atomic_inc(&t->sighand->count);
	} else {
		t->sighand = sighand_alloc(parent ? parent->sighand : NULL);
		if (!t->sighand)
			return -ENOMEM;
	}
	if (thread) {
		t->signal = parent->signal;
		atomic_inc(&t->signal->count);
	} else {
		t->signal = signal_alloc();
		if (!t->signal) {
			sighand_put(t->sighand);
			t->sighand = NULL;
			return -ENOMEM;
		}
		t->signal->leader = t;
		t->signal->timers.tgid = t->tgid;	/* timers send by it */
		t->signal->pgrp = parent ? parent->signal->pgrp : t->pid;	/* fork: the */
		t->signal->session = parent ? parent->signal->session : t->pid;	/* parent's */
	}
	t->blocked = parent ? parent->blocked : 0;
	spin_lock_irqsave(&t->sighand->lock, flags);
	list_add_tail(&t->thread_node, &t->signal->threads);
	t->signal->nr_threads++;
	spin_unlock_irqrestore(&t->sighand->lock, flags);
	return 0;
}

/* A thread killed before it ever ran (clone failed late) leaves its group. */
void signal_task_abort(struct task *t)
{
	if (signal_thread_exit(t, 0) >= 0)
		signal_group_dead(t);	/* a new process's only thread: nobody to tell */
}

/* Every other thread of the group is killed (exec); the caller waits. */
void signal_kill_others(void)
{
	struct task *t = current, *th;
	u32 flags;

	spin_lock_irqsave(&t->sighand->lock, flags);
	list_for_each_entry(th, &t->signal->threads, thread_node)
		if (th != t) {
			th->pending |= SIGBIT(SIGKILL);
			th->fatal_pending = true;
			th->sigpending = 1;
			signal_wake_up(th, true);
		}
	spin_unlock_irqrestore(&t->sighand->lock, flags);
}
