/* proc.c: processes and threads: exit of a thread and of its group, wait4 and waitid (exits, stops, continues), getpid/getppid/gettid, and the first process. Creation is kernel/clone.c. */
#include "aio.h"
#include "errno.h"
#include "syscall_table.h"
#include "panic.h"
#include "fs.h"
#include "futex.h"
#include "printk.h"
#include "proc.h"
#include "proc_internal.h"
#include "rusage.h"
#include "sched.h"
#include "signal.h"
#include "slab.h"
#include "string.h"
#include "test_hooks.h"
#include "trap.h"
#include "uaccess.h"
#include "uapi/signal.h"
#include "uapi/wait.h"
#include "vm.h"
#include "wait.h"

#define WALL_FLAGS	0xC0000000u	/* __WALL, __WCLONE: accepted, no meaning here */

DEFINE_SPINLOCK(family_lock);		/* parent, children, sibling of every task */
static struct task *init_task;
static DECLARE_WAIT_QUEUE_HEAD(child_exit_wait);	/* a child's group ended, stopped or went on */

struct trap_frame *current_user_frame(void)
{
	return (struct trap_frame *)(current->kstack_top - sizeof(struct trap_frame));
}

bool task_is_process(const struct task *t)
{
	return t->signal != NULL;
}

void proc_wake_waiters(struct task *parent)
{
	wake_up_all(&child_exit_wait);
}

/* Hand the group's children to init (family_lock held). Init itself never
 * gets here: its group never ends. */
static void reparent_children(struct task *leader)
{
	while (!list_empty(&leader->children)) {
		struct task *c = list_first_entry(&leader->children, struct task, sibling);
		list_del(&c->sibling);
		c->parent = init_task;
		list_add_tail(&c->sibling, &init_task->children);
	}
}

/* What the thread leaves behind in user memory: the clear-tid word (0 and a
 * futex wake, for pthread_join) and a vfork parent's wait. Before the mm goes. */
void proc_mm_release(struct task *t)
{
	if (t->clear_child_tid) {
		u32 uaddr = t->clear_child_tid;
		t->clear_child_tid = 0;
		if (!put_user(0, (int *)uaddr))
			futex_wake(uaddr, 1, true, ~0u);
	}
	if (t->vfork_done) {		/* vfork_lock: see clone.c vfork_wait */
		u32 flags;
		struct completion *c;

		spin_lock_irqsave(&vfork_lock, flags);
		c = t->vfork_done;
		t->vfork_done = NULL;
		if (c)
			complete(c);
		spin_unlock_irqrestore(&vfork_lock, flags);
	}
}

/* The task stops using mm: the last task of it ends its AIO contexts first. */
void proc_mm_leave(struct task *t, struct mm *mm)
{
	if (atomic_dec_and_test(&mm->tasks))
		exit_aio(mm);			/* waits for its I/O */
	task_set_mm(t, NULL);			/* before the put: the OOM scan reads t->mm */
	mm_activate(NULL);			/* off the address space we may free */
	mm_put(mm);
}

static int exit_why(int status)
{
	if (!(status & 0x7f))
		return CLD_EXITED;
	return (status & 0x80) ? CLD_DUMPED : CLD_KILLED;
}

void do_exit(int wait_status)
{
	struct task *t = current, *leader = t->group_leader;
	struct mm *mm = t->mm;
	int status;
	u32 flags;

	if (proc_is_init(leader) && t->signal->nr_threads <= 1)
		panic("init (pid %d) exits: wait status %#x", t->pid, wait_status);
	if (mm)
		proc_mm_release(t);
	if (t->files) {
		files_put(t->files);
		t->files = NULL;
	}
	if (mm)
		proc_mm_leave(t, mm);
	status = signal_thread_exit(t, wait_status);
	if (status >= 0) {			/* the group is gone */
		spin_lock_irqsave(&family_lock, flags);
		reparent_children(leader);
		spin_unlock_irqrestore(&family_lock, flags);
		signal_notify_parent(leader, exit_why(status),
				     exit_why(status) == CLD_EXITED ? WEXITSTATUS(status) : status & 0x7f);
		signal_group_dead(t);	/* leader not touched after: it may be reaped */
	}
	ktest_exit_yield();		/* test kernel: a preemption at the last moment */
	if (t == leader) {		/* reaped by the parent once the group is gone */
		local_irq_save();	/* the last thread may set exit_code: read it with */
		task_exit_notify(t->exit_code, &child_exit_wait);	/* nobody else running */
	}
	task_exit_dead(wait_status);	/* a thread frees itself after its last switch */
}

void do_exit_group(int wait_status)
{
	signal_group_exit(wait_status);
	do_exit(current->signal->group_exit_code);
}

long sys_exit(int code)
{
	do_exit(WAIT_EXITED(code));
}

long sys_exit_group(int code)
{
	do_exit_group(WAIT_EXITED(code));
}

/* What a wait looks for: wait4's pid, or waitid's idtype and id. */
struct wait_opts {
	int type;			/* P_ALL, P_PID, P_PGID */
	int id;
	int options;			/* W*; wait4 implies WEXITED */
};

/* Whether live child c's group has report flag set; taken (cleared) unless
 * keep. Under c's sighand->lock, which every other writer of s->flags holds
 * (a SIGCONT's flags set meanwhile are not lost); family_lock held. */
static bool child_take_flag(struct task *c, u32 flag, bool keep)
{
	struct signal_struct *s = c->signal;
	bool set;

	spin_lock(&c->sighand->lock);
	set = s->flags & flag;
	if (set && !keep)
		s->flags &= ~flag;
	spin_unlock(&c->sighand->lock);
	return set;
}

/* A report from child c (family_lock held): its wait status, or -1. A stop
 * or a continue is reported once, unless WNOWAIT leaves it for later. */
static int child_report(struct task *c, int options)
{
	struct signal_struct *s = c->signal;
	bool keep = options & WNOWAIT;

	if ((options & WEXITED) && c->state == TASK_ZOMBIE && s->nr_threads == 0)
		return c->exit_code;
	if ((options & WUNTRACED) && (READ_ONCE(s->flags) & SIGNAL_REPORT_STOP) &&
	    child_take_flag(c, SIGNAL_REPORT_STOP, keep))
		return (s->stop_sig << 8) | 0x7f;
	if ((options & WCONTINUED) && (READ_ONCE(s->flags) & SIGNAL_REPORT_CONT) &&
	    child_take_flag(c, SIGNAL_REPORT_CONT, keep))
		return 0xffff;
	return -1;
}

/* A child wo matches with something to report (options: wo's, perhaps
 * with WNOWAIT added), or NULL; *any tells whether one matches at all
 * (family_lock held). */
static struct task *find_report(const struct wait_opts *wo, int options, bool *any, int *status)
{
	struct task *c;

	*any = false;
	list_for_each_entry(c, &current->group_leader->children, sibling) {
		if (!pgrp_child_matches(c, wo->type, wo->id))
			continue;
		*any = true;
		*status = child_report(c, options);
		if (*status >= 0)
			return c;
	}
	return NULL;
}

/* The wait's sleep ends: a report is there, or no child matches any more. */
static bool wait_ready(const struct wait_opts *wo)
{
	bool any, found;
	u32 flags;
	int status;

	spin_lock_irqsave(&family_lock, flags);
	found = find_report(wo, wo->options | WNOWAIT, &any, &status) != NULL;
	spin_unlock_irqrestore(&family_lock, flags);
	return found || !any;
}

/* Is c's report (family_lock held) its end, to be released (no WNOWAIT)? */
static bool child_ended(struct task *c, int options)
{
	return (options & (WEXITED | WNOWAIT)) == WEXITED && c->state == TASK_ZOMBIE &&
	       c->signal->nr_threads == 0;
}

/* What wait_child found: taken under family_lock, so that no other waiter
 * (another thread of the caller's group) can release the child meanwhile. */
struct wait_report {
	int status;			/* the wait status */
	int pid;
	bool reap;			/* its end: off the children list, ours to release */
};

/* The child with a report (*r filled; *ru too when asked, except for a
 * child to reap, whose usage wait_release reads), or NULL with *err:
 * -ECHILD (none matches), 0 (WNOHANG, none ready) or -ERESTARTSYS. */
static struct task *wait_child(const struct wait_opts *wo, struct wait_report *r,
			       struct kernel_rusage *ru, long *err)
{
	struct task *c;
	bool any;
	u32 flags;

	for (;;) {
		spin_lock_irqsave(&family_lock, flags);
		c = find_report(wo, wo->options, &any, &r->status);
		if (c) {
			r->pid = c->pid;
			r->reap = child_ended(c, wo->options);
			if (r->reap)
				list_del_init(&c->sibling);	/* no other waiter finds it */
			else if (ru)
				rusage_of_child(c, ru);		/* it may go once unlocked */
		}
		spin_unlock_irqrestore(&family_lock, flags);
		if (c)
			return c;
		*err = !any ? -ECHILD : 0;
		if (!any || (wo->options & WNOHANG))
			return NULL;
		if (wait_event_interruptible(child_exit_wait, wait_ready(wo))) {
			*err = -ERESTARTSYS;
			return NULL;
		}
	}
}

/* After the report: a child that ended (r->reap) gives its usage to *ru (if
 * asked) and is released. Returns its pid. */
static int wait_release(struct task *c, const struct wait_report *r, struct kernel_rusage *ru)
{
	if (r->reap) {
		if (ru)
			rusage_of_child(c, ru);
		rusage_reap(current, c);
		task_release(c);
	}
	return r->pid;
}

/* pid: > 0 that child, -1 any, 0 any in the caller's process group, < -1
 * any in group -pid. rusage: the child's times and its reaped children's
 * (kernel/rusage.c). */
long sys_wait4(int pid, int *ustatus, int options, struct kernel_rusage *urusage)
{
	struct wait_opts wo = { P_ALL, 0, options | WEXITED };
	struct kernel_rusage ru;
	struct wait_report r;
	struct task *c;
	long err;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | WALL_FLAGS))
		return -EINVAL;
	if (pid == (int)0x80000000)
		return -ESRCH;			/* -INT_MIN is no group (Linux) */
	if ((ustatus && !access_ok(ustatus, sizeof(int))) ||
	    (urusage && !access_ok(urusage, sizeof(*urusage))))
		return -EFAULT;
	if (pid != -1) {
		wo.type = pid > 0 ? P_PID : P_PGID;
		wo.id = pid > 0 ? pid : pid < 0 ? -pid : current->signal->pgrp;
	}
	c = wait_child(&wo, &r, urusage ? &ru : NULL, &err);
	if (!c)
		return err;
	pid = wait_release(c, &r, urusage ? &ru : NULL);
	if (ustatus && put_user(r.status, ustatus))
		return -EFAULT;
	if (urusage && copy_to_user(urusage, &ru, sizeof(ru)))
		return -EFAULT;
	return pid;
}

/* waitid's siginfo from a wait status (SIGCHLD, CLD_*, the code or signal). */
static void wait_info(struct kernel_siginfo *info, int pid, int status)
{
	info->si_signo = SIGCHLD;
	info->f.chld.pid = pid;
	if (status == 0xffff) {
		info->si_code = CLD_CONTINUED;
		info->f.chld.status = SIGCONT;
	} else if ((status & 0xff) == 0x7f) {
		info->si_code = CLD_STOPPED;
		info->f.chld.status = (status >> 8) & 0xff;
	} else {
		info->si_code = exit_why(status);
		info->f.chld.status = info->si_code == CLD_EXITED ? WEXITSTATUS(status) : status & 0x7f;
	}
}

/* The target of waitid's which and id: 0, or -EINVAL. */
static int waitid_target(int which, int id, struct wait_opts *wo)
{
	wo->type = which;
	wo->id = id;
	if (which == P_ALL)
		return 0;
	if (which == P_PID)
		return id > 0 ? 0 : -EINVAL;
	if (which != P_PGID || id < 0)
		return -EINVAL;
	if (!id)
		wo->id = current->signal->pgrp;	/* the caller's group (Linux 5.4) */
	return 0;
}

/* waitid (284): returns 0; with WNOHANG and nothing to report, a zeroed
 * siginfo (si_pid 0). infop may be NULL (Linux); rusage is written only
 * with a report. */
long sys_waitid(int which, int id, struct kernel_siginfo *uinfo, int options,
		struct kernel_rusage *urusage)
{
	struct wait_opts wo;
	struct kernel_siginfo info;
	struct kernel_rusage ru;
	struct wait_report r;
	struct task *c;
	long err;

	if ((options & ~(WNOHANG | WNOWAIT | WEXITED | WUNTRACED | WCONTINUED | WALL_FLAGS)) ||
	    !(options & (WEXITED | WUNTRACED | WCONTINUED)) || waitid_target(which, id, &wo))
		return -EINVAL;
	if ((uinfo && !access_ok(uinfo, sizeof(*uinfo))) ||
	    (urusage && !access_ok(urusage, sizeof(*urusage))))
		return -EFAULT;
	wo.options = options;
	memset(&info, 0, sizeof(info));
	c = wait_child(&wo, &r, urusage ? &ru : NULL, &err);
	if (!c && err)
		return err;
	if (c)
		wait_info(&info, wait_release(c, &r, urusage ? &ru : NULL), r.status);
	if (uinfo && copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	if (c && urusage && copy_to_user(urusage, &ru, sizeof(ru)))
		return -EFAULT;
	return 0;
}

long sys_waitpid(int pid, int *ustatus, int options)
{
	return sys_wait4(pid, ustatus, options, NULL);
}

long sys_getpid(void)
{
	return current->tgid;
}

long sys_gettid(void)
{
	return current->pid;
}

/* The parent's pid (init's after a reparent), under family_lock: a parent
 * that exits hands its children to init under it before its task can go. */
long sys_getppid(void)
{
	struct task *p;
	long ppid;
	u32 flags;

	spin_lock_irqsave(&family_lock, flags);
	p = current->group_leader->parent;
	ppid = p ? p->tgid : 0;
	spin_unlock_irqrestore(&family_lock, flags);
	return ppid;
}

struct init_args {
	const char *path;
	char *const *argv;
};

/* The first process: descriptors 0-2 on the console, then exec init. */
static int init_thread(void *arg)
{
	struct init_args *ia = arg;
	char *envp[] = { "PATH=/bin", NULL };
	struct inode *console = namei("/dev/console");
	long err = IS_ERR(console) ? PTR_ERR(console) : 0;

	current->files = files_alloc();
	for (int fd = 0; !err && fd < 3; fd++) {
		struct file *f = vfs_open_inode(console, FMODE_READ | FMODE_WRITE, 0);
		err = IS_ERR(f) ? PTR_ERR(f) : fd_install(current->files, f) == fd ? 0 : -EMFILE;
	}
	if (!IS_ERR(console))
		iput(console);
	if (!err)
		err = kernel_execve(ia->path, ia->argv, envp);
	if (err)
		panic("init: cannot run %s: error %ld", ia->path, err);
	enter_user(current_user_frame());
}

bool proc_is_init(const struct task *t)
{
	return t && t == init_task;
}

int proc_start_init(const char *path, char *const argv[])
{
	static struct init_args ia;
	struct task *t;
	int err;

	ia.path = path;
	ia.argv = argv;
	t = kthread_create_user(init_thread, &ia, "init");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t->pid = t->tgid = PID_INIT;	/* reserved for it (sched.h); not yet visible to anyone */
	t->cpus_allowed = ~0u;		/* every CPU, unlike kmain that made it */
	err = signal_task_init(t, NULL, 0);
	if (err) {
		task_release(t);
		return err;
	}
	init_task = t;
	wake_up_process(t);
	return 0;
}
