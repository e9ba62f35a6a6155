/* pgrp.c: process groups and sessions: setpgid (57), getpgid (132), getpgrp (65), setsid (66), getsid (147), and the group side of kill (pid 0, -pgid, -1) and of wait (pid 0, -pgid). */
#include "errno.h"
#include "proc.h"
#include "proc_internal.h"
#include "sched.h"
#include "signal.h"
#include "syscall_table.h"
#include "uapi/wait.h"

/*
 * A process's group and session are its signal_struct's pgrp and session
 * (a process-wide property, as on Linux); a child of fork starts in its
 * parent's, init in group and session 1. They change under family_lock
 * (setpgid, setsid), which also keeps a child from being reaped while
 * setpgid looks at it; kill and wait read them without it (one int each).
 * There are no controlling terminals, so no job control on a tty, and an
 * orphaned process group with a stopped member is not sent SIGHUP and
 * SIGCONT (POSIX asks for that; left out).
 */

/* A process that kill and wait see: a group leader whose group lives. */
static bool pgrp_process(const struct task *t)
{
	return t->signal && t->sighand && t == t->group_leader && t->state != TASK_DEAD &&
	       t->signal->nr_threads > 0;
}

struct pgrp_kill {
	int pgid;			/* > 0: that group; 0: every process (kill -1) */
	int sig;
	const struct kernel_siginfo *info;
	struct signal_struct *self;	/* kill -1 skips the caller */
	int found, sent;
	int err;
};

/* task_for_each callback (tasklist_lock held): signal t's process if it is
 * one of the targets. Takes t's sighand lock (send_signal), which nests
 * inside tasklist_lock as in kill. */
static void pgrp_kill_one(struct task *t, void *arg)
{
	struct pgrp_kill *k = arg;
	int err;

	if (!pgrp_process(t))
		return;
	if (k->pgid ? t->signal->pgrp != k->pgid : (proc_is_init(t) || t->signal == k->self))
		return;
	k->found++;
	err = k->sig ? send_signal(k->sig, k->info, t, true) : 0;
	if (err)
		k->err = err;
	else
		k->sent++;
}

/* kill(-pgid) (and kill(0): the caller's group), or kill(-1) for pgid 0:
 * 0 when at least one process took the signal, else the last error, or
 * -ESRCH when there was nobody. */
long pgrp_kill(int pgid, int sig, const struct kernel_siginfo *info)
{
	struct pgrp_kill k = { pgid, sig, info, current->signal, 0, 0, -ESRCH };

	task_for_each(pgrp_kill_one, &k);
	return k.sent ? 0 : k.err;
}

bool pgrp_child_matches(const struct task *c, int type, int id)
{
	if (type == P_PID)
		return c->pid == id;
	return type != P_PGID || c->signal->pgrp == id;
}

struct pgrp_find {
	int pgid, session;		/* a group of this session; session -1: any */
	bool found;
};

static void pgrp_find_one(struct task *t, void *arg)
{
	struct pgrp_find *f = arg;

	if (t->signal && t == t->group_leader && t->signal->pgrp == f->pgid &&
	    (f->session < 0 || t->signal->session == f->session))
		f->found = true;
}

/* Is there a process in group pgid (of session, or any: -1)? */
static bool pgrp_exists(int pgid, int session)
{
	struct pgrp_find f = { pgid, session, false };

	task_for_each(pgrp_find_one, &f);
	return f.found;
}

/* The process setpgid(pid) may change: the caller or a child of its
 * (family_lock held), or NULL. */
static struct task *setpgid_target(int pid)
{
	struct task *me = current->group_leader, *c;

	if (!pid || pid == me->tgid)
		return me;
	list_for_each_entry(c, &me->children, sibling)
		if (c->tgid == pid)
			return c;
	return NULL;
}

/* family_lock held: Linux's checks, in its order. */
static long setpgid_locked(int pid, int pgid)
{
	struct task *me = current->group_leader, *t = setpgid_target(pid);
	struct signal_struct *s;

	if (!t || !pgrp_process(t))
		return -ESRCH;
	s = t->signal;
	if (t != me) {
		if (s->session != me->signal->session)
			return -EPERM;
		if (s->did_exec)
			return -EACCES;
	}
	if (s->session == t->tgid)
		return -EPERM;			/* a session leader stays where it is */
	if (pgid != t->tgid && !pgrp_exists(pgid, me->signal->session))
		return -EPERM;
	s->pgrp = pgid;
	return 0;
}

long sys_setpgid(int pid, int pgid)
{
	u32 flags;
	long err;

	if (pid < 0 || pgid < 0)
		return -EINVAL;
	spin_lock_irqsave(&family_lock, flags);
	if (!pgid)
		pgid = pid ? pid : current->tgid;
	err = setpgid_locked(pid, pgid);
	spin_unlock_irqrestore(&family_lock, flags);
	return err;
}

static int get_pgrp(struct task *t, void *arg)
{
	return t->signal ? t->signal->pgrp : -ESRCH;
}

static int get_session(struct task *t, void *arg)
{
	return t->signal ? t->signal->session : -ESRCH;
}

long sys_getpgid(int pid)
{
	if (pid < 0)
		return -ESRCH;
	return pid ? task_call(pid, get_pgrp, NULL) : current->signal->pgrp;
}

long sys_getpgrp(void)
{
	return current->signal->pgrp;
}

long sys_getsid(int pid)
{
	if (pid < 0)
		return -ESRCH;
	return pid ? task_call(pid, get_session, NULL) : current->signal->session;
}

/* A new session and group, both the caller's pid; -EPERM when a group with
 * that id exists already (the caller leads one). */
long sys_setsid(void)
{
	struct signal_struct *s = current->signal;
	int me = current->tgid;
	long ret = me;
	u32 flags;

	spin_lock_irqsave(&family_lock, flags);
	if (pgrp_exists(me, -1))
		ret = -EPERM;
	else
		s->pgrp = s->session = me;
	spin_unlock_irqrestore(&family_lock, flags);
	return ret;
}
