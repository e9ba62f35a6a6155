/* proc.c: processes and threads: exit of a thread and of its group, wait4 (exits, stops, continues), getpid/getppid/gettid, and the first process. Creation is kernel/clone.c. */
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

#define WUNTRACED	2
#define WCONTINUED	8
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

/* A report for wait4 from child c (family_lock held): its status, or -1. */
static int child_report(struct task *c, int options)
{
	struct signal_struct *s = c->signal;

	if (c->state == TASK_ZOMBIE && s->nr_threads == 0)
		return c->exit_code;
	if ((options & WUNTRACED) && (s->flags & SIGNAL_REPORT_STOP)) {
		s->flags &= ~SIGNAL_REPORT_STOP;
		return (s->stop_sig << 8) | 0x7f;
	}
	if ((options & WCONTINUED) && (s->flags & SIGNAL_REPORT_CONT)) {
		s->flags &= ~SIGNAL_REPORT_CONT;
		return 0xffff;
	}
	return -1;
}

/* A child matching pid (pgrp_child_matches) with something to report, or NULL; *any
 * tells whether one matches at all (family_lock held). */
static struct task *find_report(int pid, int options, bool *any, int *status)
{
	struct task *c;

	*any = false;
	list_for_each_entry(c, &current->group_leader->children, sibling) {
		if (!pgrp_child_matches(c, pid))
			continue;
		*any = true;
		*status = child_report(c, options);
		if (*status >= 0)
			return c;
	}
	return NULL;
}

static long reap(struct task *c, int status, int *ustatus, struct kernel_rusage *uru)
{
	int pid = c->pid;
	bool dead = c->state == TASK_ZOMBIE && c->signal->nr_threads == 0;
	struct kernel_rusage ru;
	u32 flags;

	if (uru)
		rusage_of_child(c, &ru);
	if (dead) {
		rusage_reap(current, c);
		spin_lock_irqsave(&family_lock, flags);
		list_del(&c->sibling);
		spin_unlock_irqrestore(&family_lock, flags);
		task_release(c);
	}
	if (ustatus && put_user(status, ustatus))
		return -EFAULT;
	if (uru && copy_to_user(uru, &ru, sizeof(ru)))
		return -EFAULT;
	return pid;
}

/* pid: > 0 that child, -1 any, 0 any in the caller's process group, < -1
 * any in group -pid. rusage: the child's times and its reaped children's
 * (kernel/rusage.c). */
long sys_wait4(int pid, int *ustatus, int options, struct kernel_rusage *rusage)
{
	struct task *c;
	bool any;
	u32 flags;
	int status;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | WALL_FLAGS))
		return -EINVAL;
	if (pid == (int)0x80000000)
		return -ESRCH;			/* -INT_MIN is no group (Linux) */
	if ((ustatus && !access_ok(ustatus, sizeof(int))) ||
	    (rusage && !access_ok(rusage, sizeof(*rusage))))
		return -EFAULT;
	for (;;) {
		spin_lock_irqsave(&family_lock, flags);
		c = find_report(pid, options, &any, &status);
		spin_unlock_irqrestore(&family_lock, flags);
		if (c)
			return reap(c, status, ustatus, rusage);
		if (!any)
			return -ECHILD;
		if (options & WNOHANG)
			return 0;
		if (wait_event_interruptible(child_exit_wait, child_has_exited(current, pid)))
			return -ERESTARTSYS;
	}
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

/* Has a child matching pid something for wait4 (an end, a stop, a continue)? */
bool child_has_exited(struct task *t, int pid)
{
	struct task *c;
	bool found = false;
	u32 flags;

	spin_lock_irqsave(&family_lock, flags);
	list_for_each_entry(c, &t->group_leader->children, sibling)
		if (pgrp_child_matches(c, pid) &&
		    ((c->state == TASK_ZOMBIE && c->signal->nr_threads == 0) ||
		     (c->signal->flags & (SIGNAL_REPORT_STOP | SIGNAL_REPORT_CONT))))
			found = true;
	spin_unlock_irqrestore(&family_lock, flags);
	return found;
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
