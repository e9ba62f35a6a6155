/* clone.c: task creation for user space: fork, vfork and clone (threads with CLONE_THREAD, shared or copied mm, files, handlers), set_tid_address, and exec's end of the other threads. */
#include "errno.h"
#include "fpu.h"
#include "fs.h"
#include "panic.h"
#include "proc.h"
#include "proc_internal.h"
#include "sched.h"
#include "signal.h"
#include "string.h"
#include "syscall_table.h"
#include "tls.h"
#include "trap.h"
#include "uaccess.h"
#include "uapi/sched.h"
#include "vm.h"
#include "wait.h"

#define CLONE_SUPPORTED	(KCLONE_CSIGNAL | KCLONE_VM | KCLONE_FS | KCLONE_FILES | KCLONE_SIGHAND | \
			 KCLONE_VFORK | KCLONE_THREAD | KCLONE_SYSVSEM | KCLONE_SETTLS | \
			 KCLONE_PARENT_SETTID | KCLONE_CHILD_CLEARTID | KCLONE_DETACHED | \
			 KCLONE_CHILD_SETTID)

extern char ret_from_fork[];
extern wait_queue_head_t task_exit_wait;

/* Lay the child's kernel stack out so that its first switch-in returns to user
 * mode through ret_from_fork with a copy of the parent's frame (eax = 0), on
 * its own user stack if one was given (a bad one is the child's problem: it
 * faults in user mode and gets SIGSEGV). */
static void fork_build_stack(struct task *child, const struct trap_frame *ptf, u32 newsp)
{
	struct trap_frame *tf = (struct trap_frame *)(child->kstack_top - sizeof(*tf));
	u32 *sp = (u32 *)tf;

	*tf = *ptf;
	tf->eax = 0;
	tf->err = (u32)-1;		/* no system call to restart in the child */
	if (newsp)
		tf->user_esp = newsp;
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

/* Linux's rules: a thread shares handlers, shared handlers need a shared mm.
 * cwd and umask live in the descriptor table here, so CLONE_FS and
 * CLONE_FILES go together or not at all. */
static int clone_flags_ok(u32 flags)
{
	if (flags & ~CLONE_SUPPORTED)
		return -EINVAL;
	if ((flags & KCLONE_THREAD) && !(flags & KCLONE_SIGHAND))
		return -EINVAL;
	if ((flags & KCLONE_SIGHAND) && !(flags & KCLONE_VM))
		return -EINVAL;
	if ((flags & KCLONE_VFORK) && (flags & KCLONE_THREAD))
		return -EINVAL;		/* a thread frees itself: the wait below needs a child */
	if (!(flags & KCLONE_FS) != !(flags & KCLONE_FILES))
		return -EINVAL;
	return 0;
}

/* The child's share of mm and files: the same (counted) or a copy. */
static int clone_resources(struct task *child, u32 flags)
{
	struct mm *mm = current->mm;

	if (flags & KCLONE_VM) {
		atomic_inc(&mm->users);
		atomic_inc(&mm->tasks);
		child->mm = mm;
	} else {
		child->mm = mm_dup(mm);
	}
	if (flags & KCLONE_FILES) {
		atomic_inc(&current->files->count);
		child->files = current->files;
	} else {
		child->files = files_dup(current->files);
	}
	return child->mm && child->files ? 0 : -ENOMEM;
}

static void clone_undo(struct task *child)
{
	struct mm *mm = child->mm;

	if (mm) {
		atomic_dec(&mm->tasks);
		task_set_mm(child, NULL);	/* before the put: the OOM scan reads it */
		mm_put(mm);
	}
	if (child->files)
		files_put(child->files);
	if (child->signal)
		signal_task_abort(child);
	task_release(child);
}

/* Thread identity and family: a thread joins its creator's group; a process
 * is a child of the creator's group leader. */
static void clone_identity(struct task *child, u32 flags)
{
	if (flags & KCLONE_THREAD) {
		child->tgid = current->tgid;
		child->group_leader = current->group_leader;
		child->exit_signal = 0;
	} else {
		child->tgid = child->pid;
		child->group_leader = child;
		child->exit_signal = flags & KCLONE_CSIGNAL;
		family_link(current->group_leader, child);
	}
}

/* The child starts with the caller's FPU registers as they are now (the
 * saved area is only as recent as the last switch). fnsave, on a CPU without
 * fxsave, resets the FPU: the registers are loaded back. */
static void clone_fpu(struct task *child)
{
	u32 flags = local_irq_save();

	fpu_save(child->fpu);
	fpu_restore(child->fpu);
	local_irq_restore(flags);
}

/* vfork_lock (irq-safe, a leaf but for the completion's wait-queue lock)
 * guards every task's vfork_done: a child that completes it and a parent that
 * stops waiting (fatal signal) take it, so the completion on the parent's
 * stack is never completed after the parent left. */
DEFINE_SPINLOCK(vfork_lock);

/* Until the child execs or exits, or a fatal signal for us: then the child
 * forgets our completion. The child is ours to reap, so it is still there. */
static void vfork_wait(struct task *child, struct completion *done)
{
	u32 flags;

	if (!wait_for_completion_killable(done))
		return;
	spin_lock_irqsave(&vfork_lock, flags);
	if (child->vfork_done == done)
		child->vfork_done = NULL;
	spin_unlock_irqrestore(&vfork_lock, flags);
}

static long do_clone(u32 flags, u32 newsp, int *parent_tid, struct user_desc *utls, int *child_tid)
{
	struct user_desc tls;
	struct completion vfork;
	struct task *child;
	int err = clone_flags_ok(flags);

	if (err)
		return err;
	if ((flags & KCLONE_SETTLS) && copy_from_user(&tls, utls, sizeof(tls)))
		return -EFAULT;
	child = kthread_create(fork_unused, NULL, current->name);
	if (IS_ERR(child))
		return PTR_ERR(child);
	err = clone_resources(child, flags);
	if (!err)
		err = signal_task_init(child, current, flags);
	memcpy(child->tls, current->tls, sizeof(child->tls));
	if (!err && (flags & KCLONE_SETTLS))
		err = tls_set(child, &tls);
	if (err) {
		clone_undo(child);
		return err;
	}
	clone_fpu(child);
	if ((flags & KCLONE_VM) && !(flags & KCLONE_VFORK))
		child->sas_sp = child->sas_size = 0;	/* a new stack: no alternate one */
	else {
		child->sas_sp = current->sas_sp;
		child->sas_size = current->sas_size;
	}
	fork_build_stack(child, current_user_frame(), newsp);
	if (flags & KCLONE_CHILD_CLEARTID)
		child->clear_child_tid = (u32)child_tid;
	if (flags & KCLONE_CHILD_SETTID) {
		child->set_child_tid = (u32)child_tid;
		child->sigpending = 1;		/* through signal_deliver first */
	}
	clone_identity(child, flags);
	if (flags & KCLONE_PARENT_SETTID)
		put_user(child->pid, parent_tid);	/* before the child runs; a bad address is ignored */
	if (flags & KCLONE_VFORK) {
		init_completion(&vfork);
		child->vfork_done = &vfork;
	}
	err = child->pid;
	wake_up_process(child);
	if (flags & KCLONE_VFORK)
		vfork_wait(child, &vfork);
	return err;
}

long sys_fork(void)
{
	return do_clone(SIGCHLD, 0, NULL, NULL, NULL);
}

long sys_vfork(void)
{
	return do_clone(KCLONE_VM | KCLONE_VFORK | SIGCHLD, 0, NULL, NULL, NULL);
}

long sys_clone(unsigned long flags, void *stack, int *parent_tid, struct user_desc *tls,
	       int *child_tid)
{
	return do_clone(flags, (u32)stack, parent_tid, tls, child_tid);
}

long sys_set_tid_address(int *tidptr)
{
	current->clear_child_tid = (u32)tidptr;
	return current->pid;
}

/* The exec-ing thread takes the old leader's place: its pid, parent and
 * children; the old leader (a zombie by now) is freed. */
static void take_leadership(struct task *leader)
{
	struct task *t = current;
	int tid = t->pid;
	u32 flags;

	spin_lock_irqsave(&family_lock, flags);
	t->parent = leader->parent;
	list_replace_init(&leader->sibling, &t->sibling);
	list_splice_init(&leader->children, &t->children);
	t->pid = leader->pid;
	leader->pid = tid;
	t->group_leader = t;
	t->exit_signal = leader->exit_signal;
	t->signal->leader = t;
	spin_unlock_irqrestore(&family_lock, flags);
	task_release(leader);		/* and its references to the group and handlers */
}

int proc_exec_single(void)
{
	struct signal_struct *s = current->signal;
	struct task *leader = current->group_leader;

	if (s->nr_threads == 1)
		return 0;
	signal_kill_others();
	if (wait_event_killable(task_exit_wait, s->nr_threads == 1 &&
				(leader == current || leader->state == TASK_ZOMBIE)))
		return -EINTR;
	if (leader != current)
		take_leadership(leader);
	return 0;
}
