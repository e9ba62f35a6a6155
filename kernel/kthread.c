/* kthread.c: task creation (kernel stacks, the first frame), exit, and reaping.
 *
 * tasklist_lock guards task_list and nr_tasks, and every clearing of a
 * task's mm (task_set_mm). A task is freed only by its reaper (kthread_stop,
 * wait4) once it is a zombie that has switched away for good; the reaper
 * unlinks it under tasklist_lock before it frees anything of it, so a
 * task_call or task_for_each callback finds every task whole.
 */
#include "sched_internal.h"
#include "errno.h"
#include "mm.h"
#include "slab.h"
#include "panic.h"
#include "proc.h"
#include "spinlock.h"
#include "string.h"
#include "trace.h"
#include "trap.h"
#include "x86.h"

LIST_HEAD(task_list);
int nr_tasks;
static DEFINE_SPINLOCK(tasklist_lock);
#define TASK_POISON	0x6b		/* a released task's bytes */
static int next_pid = PID_FIRST_FREE;	/* below it: sched.h's fixed pids */
DECLARE_WAIT_QUEUE_HEAD(task_exit_wait);

extern char kthread_entry[];

static void task_link(struct task *t)
{
	u32 flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_add_tail(&t->tasks, &task_list);
	nr_tasks++;
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

static void task_setup_fpu(struct task *t)
{
	t->fpu = (u8 *)ALIGN_UP((u32)t->fpu_area, FPU_ALIGN);
	fpu_init_state(t->fpu);
}

void task_setup_init(struct task *t)
{
	task_setup_fpu(t);
	task_link(t);
}

/* The stack a new task is first switched to: what switch_context pops. */
static void kthread_build_stack(struct task *t, int (*fn)(void *), void *arg, u32 top)
{
	u32 *sp = (u32 *)top;

	*--sp = 0;			/* no caller: the backtrace ends here */
	*--sp = (u32)kthread_entry;	/* switch_context's ret */
	*--sp = 0;			/* ebp */
	*--sp = (u32)fn;		/* ebx */
	*--sp = (u32)arg;		/* esi */
	*--sp = 0;			/* edi */
	t->esp = (u32)sp;
}

struct task *kthread_create(int (*fn)(void *arg), void *arg, const char *name)
{
	struct task *t = kmalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return ERR_PTR(-ENOMEM);
	memset(t, 0, sizeof(*t));
	t->kstack = __get_free_pages(GFP_KERNEL, KSTACK_ORDER);
	if (!t->kstack) {
		kfree(t);
		return ERR_PTR(-ENOMEM);
	}
	t->kstack_top = t->kstack + KSTACK_SIZE;
	thread_info_init(t->kstack, t);
	strlcpy(t->name, name, sizeof(t->name));
	t->state = TASK_UNINTERRUPTIBLE;	/* runs once woken */
	t->time_slice = SCHED_SLICE_TICKS;
	t->cpus_allowed = current->cpus_allowed;	/* kmain's (CPU 0): proc.c widens init's */
	t->cpu = smp_processor_id();		/* its last CPU: where a wake-up looks first */
	t->lock_depth = 1;			/* it starts holding its CPU's queue lock: sched_tail */
	INIT_LIST_HEAD(&t->run_list);
	INIT_LIST_HEAD(&t->children);
	INIT_LIST_HEAD(&t->sibling);
	task_setup_fpu(t);
	kthread_build_stack(t, fn, arg, t->kstack_top);
	t->pid = __atomic_fetch_add(&next_pid, 1, __ATOMIC_RELAXED);
	t->tgid = t->pid;			/* its own group until clone says otherwise */
	t->group_leader = t;
	task_link(t);
	trace_comm(t->pid, t->name);
	return t;
}

struct task *kthread_create_user(int (*fn)(void *arg), void *arg, const char *name)
{
	struct task *t = kthread_create(fn, arg, name);

	if (!IS_ERR(t))
		kthread_build_stack(t, fn, arg, t->kstack_top - sizeof(struct trap_frame));
	return t;
}

struct task *kthread_run(int (*fn)(void *arg), void *arg, const char *name)
{
	struct task *t = kthread_create(fn, arg, name);

	if (!IS_ERR(t))
		wake_up_process(t);
	return t;
}

bool kthread_should_stop(void)
{
	return current->should_stop;
}

/* Interrupts stay off from the zombie state to the final switch, so the reaper
 * cannot free the stack we still run on. Waiters are woken after the state is
 * ZOMBIE, never before: one that looked earlier and went back to sleep would
 * otherwise miss this exit for good. */
void task_exit_notify(int code, struct wait_queue_head *notify)
{
	if (current->pid == PID_IDLE || !current->kstack || current->pid == PID_BOOT)
		panic("task_exit: %s (pid %d) cannot exit", current->name, current->pid);
	cli();
	current->exit_code = code;
	current->state = TASK_ZOMBIE;
	current->wait_channel = NULL;
	__wake_up(&task_exit_wait, TASK_NORMAL | WAKE_SYNC, 0);	/* we switch away next */
	if (notify)
		__wake_up(notify, TASK_NORMAL | WAKE_SYNC, 0);
	schedule();
	panic("task_exit: zombie %s ran again", current->name);
}

void task_exit_dead(int code)
{
	cli();
	current->exit_code = code;
	current->state = TASK_DEAD;
	current->wait_channel = NULL;
	wake_up_all(&task_exit_wait);
	schedule();
	panic("task_exit: dead %s ran again", current->name);
}

void task_exit(int code)
{
	task_exit_notify(code, NULL);
}

void task_release(struct task *t)
{
	u32 flags;

	sched_wait_off_cpu(t);			/* its last switch may still be under way */
	spin_lock_irqsave(&tasklist_lock, flags);
	list_del(&t->tasks);			/* first: task_call finds it whole, or not */
	nr_tasks--;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (t->signal)
		signal_task_release(t);		/* the process layer's part */
	free_pages(t->kstack, KSTACK_ORDER);
	memset(t, TASK_POISON, sizeof(*t));	/* a use after free reads 0x6b6b6b6b */
	kfree(t);
}

int kthread_stop(struct task *t)
{
	int code;

	if (t == current)
		panic("kthread_stop: %s stops itself", t->name);
	t->should_stop = true;
	wake_up_process(t);
	wait_event(task_exit_wait, t->state == TASK_ZOMBIE);
	code = t->exit_code;
	task_release(t);
	return code;
}

void task_for_each(void (*fn)(struct task *t, void *arg), void *arg)
{
	struct task *t;
	u32 flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(t, &task_list, tasks)
		fn(t, arg);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/* The task with this pid on task_list, or NULL (tasklist_lock held). */
static struct task *task_find_locked(int pid)
{
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
		if (t->pid == pid)
			return t;
	return NULL;
}

struct task *task_find(int pid)
{
	struct task *found;
	u32 flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	found = task_find_locked(pid);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return found;
}

int task_call(int pid, int (*fn)(struct task *t, void *arg), void *arg)
{
	struct task *t;
	int ret = -ESRCH;
	u32 flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = task_find_locked(pid);
	if (t)
		ret = fn(t, arg);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ret;
}

void task_set_mm(struct task *t, struct mm *mm)
{
	u32 flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	t->mm = mm;
	spin_unlock_irqrestore(&tasklist_lock, flags);
}
