/* proc.c: processes: fork (copy-on-write), exit, wait, and the first process. */
#include "aio.h"
#include "errno.h"
#include "syscall_table.h"
#include "panic.h"
#include "fs.h"
#include "gdt.h"
#include "paging.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "test_hooks.h"
#include "trap.h"
#include "uaccess.h"
#include "uapi/wait.h"
#include "vm.h"
#include "wait.h"

static DEFINE_SPINLOCK(family_lock);	/* parent, children, sibling of every task */
static struct task *init_task;
static DECLARE_WAIT_QUEUE_HEAD(child_exit_wait);	/* a child became a zombie: do_exit */
extern char ret_from_fork[];

struct trap_frame *current_user_frame(void)
{
	return (struct trap_frame *)(current->kstack_top - sizeof(struct trap_frame));
}

/* Lay the child's kernel stack out so that its first switch-in returns to user
 * mode through trap_return with a copy of the parent's frame (eax = 0). */
static void fork_build_stack(struct task *child, const struct trap_frame *ptf)
{
	struct trap_frame *tf = (struct trap_frame *)(child->kstack_top - sizeof(*tf));
	u32 *sp = (u32 *)tf;

	*tf = *ptf;
	tf->eax = 0;
	*--sp = (u32)ret_from_fork;	/* switch_context's ret */
	*--sp = 0;			/* ebp: the backtrace ends */
	*--sp = 0;			/* ebx */
	*--sp = 0;			/* esi */
	*--sp = 0;			/* edi */
	child->esp = (u32)sp;
}

static void family_link(struct task *parent, struct task *child)
{
	u32 flags;

	spin_lock_irqsave(&family_lock, flags);
	child->parent = parent;
	list_add_tail(&child->sibling, &parent->children);
	spin_unlock_irqrestore(&family_lock, flags);
}

static int fork_unused(void *arg)
{
	return 0;			/* never runs: fork_build_stack replaces it */
}

long sys_fork(void)
{
	struct task *child = kthread_create(fork_unused, NULL, current->name);

	if (IS_ERR(child))
		return PTR_ERR(child);
	child->mm = mm_dup(current->mm);
	child->files = files_dup(current->files);
	if (!child->mm || !child->files) {
		if (child->mm)
			mm_put(child->mm);
		if (child->files)
			files_put(child->files);
		task_release(child);
		return -ENOMEM;
	}
	memcpy(child->fpu, current->fpu, FPU_STATE_SIZE);
	fork_build_stack(child, current_user_frame());
	family_link(current, child);
	wake_up_process(child);
	return child->pid;
}

bool task_is_process(const struct task *t)
{
	return t->parent || proc_is_init(t);
}

/* Hand the exiting task's children to init (family_lock held). Init itself
 * never gets here: do_exit stops it first. */
static void reparent_children(struct task *t)
{
	while (!list_empty(&t->children)) {
		struct task *c = list_first_entry(&t->children, struct task, sibling);
		list_del(&c->sibling);
		c->parent = init_task;
		list_add_tail(&c->sibling, &init_task->children);
	}
}

void do_exit(int wait_status)
{
	struct task *t = current;
	struct mm *mm = t->mm;
	u32 flags;

	if (proc_is_init(t))		/* its orphans would have no one to go to */
		panic("init (pid %d) exits: wait status %#x", t->pid, wait_status);
	if (t->files) {
		files_put(t->files);
		t->files = NULL;
	}
	if (mm) {
		exit_aio(mm);			/* waits for its I/O; see exit_aio for threads */
		t->mm = NULL;
		mm_activate(NULL);		/* off the address space we free */
		mm_put(mm);
	}
	spin_lock_irqsave(&family_lock, flags);
	reparent_children(t);
	spin_unlock_irqrestore(&family_lock, flags);
	ktest_exit_yield();		/* test kernel: a preemption at the last moment */
	task_exit_notify(wait_status, &child_exit_wait);	/* wakes the parent once a zombie */
}

long sys_exit(int code)
{
	do_exit(WAIT_EXITED(code));
}

long sys_exit_group(int code)
{
	do_exit(WAIT_EXITED(code));
}

/* A zombie child matching pid (-1: any), or NULL; *any tells if one matches at all. */
static struct task *find_zombie(int pid, bool *any)
{
	struct task *c;

	*any = false;
	list_for_each_entry(c, &current->children, sibling) {
		if (pid != -1 && c->pid != pid)
			continue;
		*any = true;
		if (c->state == TASK_ZOMBIE)
			return c;
	}
	return NULL;
}

static long reap(struct task *c, int *ustatus)
{
	int pid = c->pid, status = c->exit_code;
	u32 flags;

	spin_lock_irqsave(&family_lock, flags);
	list_del(&c->sibling);
	spin_unlock_irqrestore(&family_lock, flags);
	task_release(c);
	if (ustatus && put_user(status, ustatus))
		return -EFAULT;
	return pid;
}

long sys_wait4(int pid, int *ustatus, int options, void *rusage)
{
	struct task *c;
	bool any;
	u32 flags;
	long err;

	if (pid < -1 || pid == 0 || (options & ~WNOHANG) || rusage)
		return -EINVAL;
	if (ustatus && !access_ok(ustatus, sizeof(int)))
		return -EFAULT;
	for (;;) {
		spin_lock_irqsave(&family_lock, flags);
		c = find_zombie(pid, &any);
		spin_unlock_irqrestore(&family_lock, flags);
		if (c)
			return reap(c, ustatus);
		if (!any)
			return -ECHILD;
		if (options & WNOHANG)
			return 0;
		err = wait_event_interruptible(child_exit_wait,
					       child_has_exited(current, pid));
		if (err)
			return -EINTR;
	}
}

long sys_waitpid(int pid, int *ustatus, int options)
{
	return sys_wait4(pid, ustatus, options, NULL);
}

long sys_getpid(void)
{
	return current->pid;
}

/* Has a child matching pid become a zombie (or gone)? For the wait loop. */
bool child_has_exited(struct task *t, int pid)
{
	struct task *c;
	bool found = false;
	u32 flags;

	spin_lock_irqsave(&family_lock, flags);
	list_for_each_entry(c, &t->children, sibling)
		if ((pid == -1 || c->pid == pid) && c->state == TASK_ZOMBIE)
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

	ia.path = path;
	ia.argv = argv;
	t = kthread_create_user(init_thread, &ia, "init");
	if (IS_ERR(t))
		return PTR_ERR(t);
	t->pid = PID_INIT;		/* reserved for it (sched.h); not yet visible to anyone */
	init_task = t;
	wake_up_process(t);
	return 0;
}
