/* signal_calls.c: the signal system calls: rt_sigaction and sigaction, rt_sigprocmask, rt_sigpending, rt_sigsuspend, pause, rt_sigtimedwait, kill, tgkill, tkill, rt_sigqueueinfo, rt_tgsigqueueinfo (alarm is kernel/itimer.c; sending and delivery are kernel/signal.c). */
#include "errno.h"
#include "clock.h"
#include "proc.h"
#include "sched.h"
#include "signal.h"
#include "signal_internal.h"
#include "string.h"
#include "syscall_table.h"
#include "test_hooks.h"
#include "uaccess.h"
#include "x86.h"

static u64 sigset_get(const struct kernel_sigset *k)
{
	return (u64)k->sig[1] << 32 | k->sig[0];
}

static void sigset_put(struct kernel_sigset *k, u64 v)
{
	k->sig[0] = (u32)v;
	k->sig[1] = (u32)(v >> 32);
}

/* Install act (NULL: none) for sig, the old action in *old. 0 or -EINVAL. */
static long do_sigaction(int sig, struct kernel_sigaction *act, struct kernel_sigaction *old)
{
	struct sighand_struct *sh = current->sighand;
	u32 flags;

	if (!sig_valid(sig) || (act && (SIG_KERNEL_ONLY & SIGBIT(sig))))
		return -EINVAL;
	spin_lock_irqsave(&sh->lock, flags);
	*old = sh->action[sig - 1];
	if (act) {
		sigset_put(&act->mask, sigset_get(&act->mask) & ~SIG_KERNEL_ONLY);
		sh->action[sig - 1] = *act;
		if (sig_ignored(current, sig)) {	/* POSIX: pending instances go */
			struct task *th;
			flush_sigs(&current->signal->shared_pending, &current->signal->shared_q,
				   SIGBIT(sig), current->signal);
			list_for_each_entry(th, &current->signal->threads, thread_node)
				flush_sigs(&th->pending, &th->pending_q, SIGBIT(sig), current->signal);
		}
	}
	spin_unlock_irqrestore(&sh->lock, flags);
	return 0;
}

long sys_rt_sigaction(int sig, const struct kernel_sigaction *uact,
		      struct kernel_sigaction *uoact, unsigned sigsetsize)
{
	struct kernel_sigaction act, old;
	long err;

	if (sigsetsize != KSIGSET_SIZE)
		return -EINVAL;
	if (uact && copy_from_user(&act, uact, sizeof(act)))
		return -EFAULT;
	err = do_sigaction(sig, uact ? &act : NULL, &old);
	if (!err && uoact && copy_to_user(uoact, &old, sizeof(old)))
		return -EFAULT;
	return err;
}

/* The old sigaction (67): a 32-bit mask; the same table as rt_sigaction. */
long sys_sigaction(int sig, const struct kernel_old_sigaction *uact,
		   struct kernel_old_sigaction *uoact)
{
	struct kernel_old_sigaction o;
	struct kernel_sigaction act, old;
	long err;

	if (uact) {
		if (copy_from_user(&o, uact, sizeof(o)))
			return -EFAULT;
		act.handler = o.handler;
		act.flags = o.flags;
		act.restorer = o.restorer;
		act.mask.sig[0] = o.mask;
		act.mask.sig[1] = 0;
	}
	err = do_sigaction(sig, uact ? &act : NULL, &old);
	if (err || !uoact)
		return err;
	o.handler = old.handler;
	o.flags = old.flags;
	o.restorer = old.restorer;
	o.mask = old.mask.sig[0];
	return copy_to_user(uoact, &o, sizeof(o)) ? -EFAULT : 0;
}

/* Set the current thread's mask; signals it unblocks may go to it now. */
void signal_set_blocked(u64 newmask)
{
	struct task *t = current;
	u32 flags;

	spin_lock_irqsave(&t->sighand->lock, flags);
	t->blocked = newmask & ~SIG_KERNEL_ONLY;
	recalc_sigpending_tsk(t);
	spin_unlock_irqrestore(&t->sighand->lock, flags);
}

long sys_rt_sigprocmask(int how, const struct kernel_sigset *uset, struct kernel_sigset *uoset,
			unsigned sigsetsize)
{
	struct kernel_sigset k;
	u64 old = current->blocked, set;

	if (sigsetsize != KSIGSET_SIZE)
		return -EINVAL;
	if (uset) {
		if (copy_from_user(&k, uset, sizeof(k)))
			return -EFAULT;
		set = sigset_get(&k);
		if (how == SIG_BLOCK)
			signal_set_blocked(old | set);
		else if (how == SIG_UNBLOCK)
			signal_set_blocked(old & ~set);
		else if (how == SIG_SETMASK)
			signal_set_blocked(set);
		else
			return -EINVAL;
	}
	sigset_put(&k, old);
	if (uoset && copy_to_user(uoset, &k, sizeof(k)))
		return -EFAULT;
	return 0;
}

long sys_rt_sigpending(struct kernel_sigset *uset, unsigned sigsetsize)
{
	struct kernel_sigset k;
	u32 flags;
	u64 p;

	if (sigsetsize != KSIGSET_SIZE)
		return -EINVAL;
	spin_lock_irqsave(&current->sighand->lock, flags);
	p = (current->pending | current->signal->shared_pending) & current->blocked;
	spin_unlock_irqrestore(&current->sighand->lock, flags);
	sigset_put(&k, p);
	return copy_to_user(uset, &k, sizeof(k)) ? -EFAULT : 0;
}

void signal_set_temp_mask(u64 mask)
{
	struct task *t = current;

	t->saved_blocked = t->blocked;
	t->restore_blocked = true;
	signal_set_blocked(mask);
}

void signal_restore_temp_mask(bool interrupted)
{
	struct task *t = current;
	u32 flags;

	if (interrupted && signal_pending(t))
		return;			/* after the handler: its frame holds the old mask */
	spin_lock_irqsave(&t->sighand->lock, flags);
	t->blocked = t->saved_blocked;
	t->restore_blocked = false;
	recalc_sigpending_tsk(t);
	spin_unlock_irqrestore(&t->sighand->lock, flags);
}

long sys_rt_sigsuspend(const struct kernel_sigset *umask, unsigned sigsetsize)
{
	struct kernel_sigset k;
	struct task *t = current;

	if (sigsetsize != KSIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&k, umask, sizeof(k)))
		return -EFAULT;
	t->saved_blocked = t->blocked;
	t->restore_blocked = true;
	signal_set_blocked(sigset_get(&k));
	while (!signal_pending(t)) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!signal_pending(t))
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return -ERESTARTNOHAND;
}

long sys_pause(void)
{
	while (!signal_pending(current)) {
		set_current_state(TASK_INTERRUPTIBLE);
		current->wait_channel = (void *)sys_pause;
		if (!signal_pending(current))
			schedule();
		__set_current_state(TASK_RUNNING);
		current->wait_channel = NULL;
	}
	return -ERESTARTNOHAND;
}

/* Wait for one of set (thread-directed or the group's); timeout NULL: forever. */
long sys_rt_sigtimedwait(const struct kernel_sigset *uset, void *uinfo,
			 const struct kernel_timespec *uts, unsigned sigsetsize)
{
	struct task *t = current;
	struct kernel_sigset k;
	struct kernel_siginfo info;
	struct kernel_timespec ts;
	long timeout = MAX_SCHEDULE_TIMEOUT;
	u64 want, saved;
	u32 flags;
	int sig;

	if (sigsetsize != KSIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&k, uset, sizeof(k)) || (uts && copy_from_user(&ts, uts, sizeof(ts))))
		return -EFAULT;
	if (uts && (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000L))
		return -EINVAL;
	if (uts)
		timeout = (long)MIN((u64)MAX_SCHEDULE_TIMEOUT - 1,
				    (u64)timespec_to_ns(&ts) / (NSEC_PER_SEC / HZ) +
				    (ts.tv_sec || ts.tv_nsec ? 1 : 0));
	want = sigset_get(&k) & ~SIG_KERNEL_ONLY;
	spin_lock_irqsave(&t->sighand->lock, flags);
	sig = dequeue_signal(t, ~want, &info);
	if (!sig && timeout) {
		saved = t->blocked;
		t->sigwait_set = want;		/* taken here, never fatal meanwhile */
		t->blocked &= ~want;		/* let them wake us */
		recalc_sigpending_tsk(t);
		set_current_state(TASK_INTERRUPTIBLE);
		spin_unlock_irqrestore(&t->sighand->lock, flags);
		timeout = schedule_timeout(timeout);
		spin_lock_irqsave(&t->sighand->lock, flags);
		t->blocked = saved;
		t->sigwait_set = 0;
		sig = dequeue_signal(t, ~want, &info);
		recalc_sigpending_tsk(t);
	}
	spin_unlock_irqrestore(&t->sighand->lock, flags);
	if (!sig)
		return timeout ? -EINTR : -EAGAIN;
	if (uinfo && copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return sig;
}

/* Is t alive (not a zombie whose group is gone, not a kernel thread)? Under
 * tasklist_lock (task_call): nobody releases it meanwhile. */
static bool task_is_live(const struct task *t)
{
	if (!t->sighand || !task_is_process(t) || t->state == TASK_DEAD)
		return false;
	return !(t->state == TASK_ZOMBIE && t->signal->nr_threads == 0);
}

static void fill_user_info(struct kernel_siginfo *info, int sig, int code)
{
	memset(info, 0, sizeof(*info));
	info->si_signo = sig;
	info->si_code = code;
	info->f.kill.pid = current->tgid;
	info->f.kill.uid = 0;
}

struct kill_req {
	int sig;
	const struct kernel_siginfo *info;
	bool group;
	int tgid;			/* the thread must be of this group; <= 0: any */
};

/* task_call callback: the signal to t, if it is alive and may take it. */
static int kill_task(struct task *t, void *arg)
{
	struct kill_req *k = arg;

	ktest_kill_delay();		/* test kernel: widen the look-up window */
	if (!task_is_live(t) || (k->tgid > 0 && t->tgid != k->tgid) ||
	    (!k->group && t->state == TASK_ZOMBIE))
		return -ESRCH;
	return k->sig ? send_signal(k->sig, k->info, t, k->group) : 0;
}

/* The look-up and the signal are one step under tasklist_lock, which the
 * reaper's task_release takes to unlink the task before it frees it. */
static long kill_one(int pid, int sig, const struct kernel_siginfo *info, bool group, int tgid)
{
	struct kill_req k = { sig, info, group, tgid };

	return pid > 0 ? task_call(pid, kill_task, &k) : -ESRCH;
}

/* pid > 0: that process; 0: the caller's process group; -1: every process
 * but init and the caller; below: process group -pid (kernel/pgrp.c). */
long sys_kill(int pid, int sig)
{
	struct kernel_siginfo info;

	if (sig < 0 || sig > KNSIG)
		return -EINVAL;
	fill_user_info(&info, sig, SI_USER);
	if (pid > 0)
		return kill_one(pid, sig, &info, true, 0);
	if (pid == -1)
		return pgrp_kill(0, sig, &info);
	if (pid == (int)0x80000000)
		return -ESRCH;			/* -INT_MIN is no group (Linux) */
	return pgrp_kill(pid ? -pid : current->signal->pgrp, sig, &info);
}

long sys_tgkill(int tgid, int tid, int sig)
{
	struct kernel_siginfo info;

	if (sig < 0 || sig > KNSIG || tgid <= 0 || tid <= 0)
		return -EINVAL;
	fill_user_info(&info, sig, SI_TKILL);
	return kill_one(tid, sig, &info, false, tgid);
}

long sys_tkill(int tid, int sig)
{
	struct kernel_siginfo info;

	if (sig < 0 || sig > KNSIG || tid <= 0)
		return -EINVAL;
	fill_user_info(&info, sig, SI_TKILL);
	return kill_one(tid, sig, &info, false, 0);
}

/*
 * The siginfo a program sends with sigqueue: Linux's checks.  A code the
 * kernel uses (>= 0: SI_USER, SI_KERNEL, a fault's) or SI_TKILL may only be
 * forged towards the sender's own process; -EPERM to another.
 */
static long queueinfo_get(struct kernel_siginfo *info, void *uinfo, int sig, int tgid)
{
	if (copy_from_user(info, uinfo, sizeof(*info)))
		return -EFAULT;
	if ((info->si_code >= 0 || info->si_code == SI_TKILL) && tgid != current->tgid)
		return -EPERM;
	if (sig < 0 || sig > KNSIG)
		return -EINVAL;
	info->si_signo = sig;
	return 0;
}

/* To the process tgid (any thread that does not block it); a real-time
 * signal is queued with info, -EAGAIN past SIGQUEUE_MAX. */
long sys_rt_sigqueueinfo(int tgid, int sig, void *uinfo)
{
	struct kernel_siginfo info;
	long err = queueinfo_get(&info, uinfo, sig, tgid);

	return err ? err : kill_one(tgid, sig, &info, true, 0);
}

/* As rt_sigqueueinfo, to the thread tid of the group tgid. */
long sys_rt_tgsigqueueinfo(int tgid, int tid, int sig, void *uinfo)
{
	struct kernel_siginfo info;
	long err;

	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	err = queueinfo_get(&info, uinfo, sig, tgid);
	return err ? err : kill_one(tid, sig, &info, false, tgid);
}
