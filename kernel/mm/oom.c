/* oom.c: out of memory: when a page fault finds no free page, the process that
 * holds the most user memory is killed (Linux's OOM killer, chosen by size).
 *
 * The policy, in full (README "Memory"):
 *  - User memory (anonymous pages, AIO rings, ramfs files: __GFP_HIGHMEM
 *    allocations) never takes the last zone->reserve pages of the low zones
 *    (page_alloc.c): those stay for the kernel, which needs them to run the
 *    processes, and the victim, to exit.
 *  - A page fault (of the CPU, or of a kernel copy or pin on a process's
 *    behalf) that finds no page, anonymous or of a mapped ramfs file, calls
 *    oom_make_room (through oom_alloc_user_page for the former): it kills the user
 *    process with the most pages mapped (mm->nr_pages), never init or a
 *    kernel thread, with SIGKILL, and waits for memory to come back. While a
 *    victim is still exiting, nobody else is killed (for OOM_GRACE_MS at most:
 *    after that it no longer counts, and the next biggest is chosen).
 *  - When the biggest is the faulting process itself, or nothing can be
 *    killed, the fault fails: the process dies of the SIGKILL it sent itself
 *    (or of SIGSEGV), a kernel copy returns -EFAULT.
 *  - Other allocations (kmalloc, pipe buffers, ramfs pages, rings) never kill:
 *    their system call fails with -ENOMEM (ramfs: -ENOSPC).
 */
#include "clock.h"
#include "mm.h"
#include "oom.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "string.h"
#include "uapi/signal.h"
#include "vm.h"

#define OOM_GRACE_MS	2000	/* a victim still there after this no longer blocks a kill */
#define OOM_WAIT_MS	10	/* one nap while memory comes back */

atomic_t oom_kills = ATOMIC_INIT(0);

/* The last victim's thread group (its leader's pid: pids are never reused)
 * and when it was killed; written with preemption off (one CPU: no other
 * writer runs meanwhile). */
static int oom_victim_tgid;
static u64 oom_victim_ns;

struct oom_scan {
	int best_pid;			/* a thread of the biggest that may be killed */
	int best_tgid;
	u32 best_pages;
	bool victim_exiting;		/* the last victim still holds its memory */
};

/* task_for_each callback (tasklist_lock held, interrupts off: t->mm cannot
 * go away meanwhile on one CPU). */
static void oom_scan_task(struct task *t, void *arg)
{
	struct oom_scan *s = arg;
	struct mm *mm = t->mm;

	if (!mm)
		return;				/* a kernel thread, or past its exit_mm */
	if (t->tgid == oom_victim_tgid)
		s->victim_exiting = true;	/* any of its threads still has the mm */
	if (!task_is_process(t) || proc_is_init(t) || fatal_signal_pending(t))
		return;				/* (a group being killed: all its threads) */
	if (mm->nr_pages > s->best_pages) {
		s->best_pid = t->pid;
		s->best_tgid = t->tgid;
		s->best_pages = mm->nr_pages;
	}
}

/* SIGKILL the process of thread pid, all its threads (preemption off, so it
 * cannot be reaped between the look-up and the signal); false if it is gone
 * or past its exit_mm. */
static bool oom_kill_pid(int pid, u32 pages)
{
	char name[TASK_COMM_LEN] = "";
	int tgid = 0;
	struct task *t;

	preempt_disable();
	t = task_find(pid);
	if (t && t->mm) {
		memcpy(name, t->name, sizeof(name));	/* t may be reaped once we are preemptible */
		tgid = t->tgid;
		signal_send(t, SIGKILL);	/* SIGKILL ends the whole group */
		oom_victim_tgid = tgid;
		oom_victim_ns = ktime_get_ns();
		atomic_inc(&oom_kills);
	}
	preempt_enable();
	if (tgid)
		printk(KERN_WARNING "oom: out of memory (%u pages free): killed pid %d (%.*s), "
		       "%u pages\n", nr_free_pages(), tgid, TASK_COMM_LEN, name, pages);
	return tgid != 0;
}

/* One step of the policy: true when the caller should wait and try again (a
 * victim is exiting, or was just killed), false when it should fail. */
static bool oom_kill_one(void)
{
	struct oom_scan s = { 0, 0, 0, false };

	task_for_each(oom_scan_task, &s);
	if (s.victim_exiting && ktime_get_ns() - oom_victim_ns < OOM_GRACE_MS * 1000000ull)
		return true;
	if (!s.best_pid)
		return false;			/* nothing to kill holds user memory */
	if (!oom_kill_pid(s.best_pid, s.best_pages))
		return true;			/* it went meanwhile: try again */
	return s.best_tgid != current->tgid;	/* ourselves: fail, and die of it */
}

bool oom_make_room(void)
{
	if (fatal_signal_pending(current) || !oom_kill_one())
		return false;
	msleep(OOM_WAIT_MS);			/* the victim runs to its exit */
	return true;
}

struct page *oom_alloc_user_page(void)
{
	struct page *page;

	while (!(page = alloc_pages(GFP_HIGHUSER, 0)))
		if (!oom_make_room())
			return NULL;
	return page;
}
