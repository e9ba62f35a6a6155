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
 *    victim's memory is not yet freed, nobody else is killed (for OOM_GRACE_MS
 *    at most: after that it no longer counts, and the next biggest is chosen).
 *    On several CPUs: one decision at a time (oom_lock); a victim counts from
 *    its kill until mm_put has freed its pages (oom_victims), on whichever CPU;
 *    a user page free again once oom_lock is ours means no kill at all.
 *  - When the biggest is the faulting process itself, or nothing can be
 *    killed, the fault fails: the process dies of the SIGKILL it sent itself
 *    (or of SIGSEGV), a kernel copy returns -EFAULT.
 *  - Other allocations (kmalloc, pipe buffers, ramfs pages, rings) never kill:
 *    their system call fails with -ENOMEM (ramfs: -ENOSPC).
 */
#include "clock.h"
#include "errno.h"
#include "mutex.h"
#include "mm.h"
#include "oom.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "string.h"
#include "uapi/signal.h"
#include "vm.h"

#define OOM_GRACE_MS	30000	/* a victim still there after this no longer blocks a kill */
#define OOM_WAIT_MS	10	/* one nap while memory comes back */

atomic_t oom_kills = ATOMIC_INIT(0);
/* Address spaces of victims not yet torn down: marked at the kill
 * (mm->oom_victim), counted down by oom_mm_gone once mm_put has freed their
 * pages. A victim's memory comes back only then, after its threads have all
 * left it (on any CPU), not when they are signalled nor when t->mm clears. */
static atomic_t oom_victims = ATOMIC_INIT(0);

/* One decision at a time, on every CPU: two faults that find no page at once
 * must not both kill (the second waits, then sees the first's victim). It
 * guards oom_victim_ns. Taken killable: a task being killed stops waiting. */
static DEFINE_MUTEX(oom_lock);
static u64 oom_victim_ns;		/* when the last victim was killed */

struct oom_scan {
	int best_pid;			/* a thread of the biggest that may be killed */
	int best_tgid;
	u32 best_pages;
};

/* task_for_each callback (tasklist_lock held, interrupts off): t->mm stays
 * alive meanwhile, since it is cleared under that lock before its put
 * (task_set_mm). nr_pages is read without mm->lock: a size, for a choice. */
static void oom_scan_task(struct task *t, void *arg)
{
	struct oom_scan *s = arg;
	struct mm *mm = t->mm;

	if (!mm || mm->oom_victim)
		return;				/* a kernel thread, past its exit_mm, or killed */
	if (!task_is_process(t) || proc_is_init(t) || fatal_signal_pending(t))
		return;				/* (a group being killed: all its threads) */
	if (mm->nr_pages > s->best_pages) {
		s->best_pid = t->pid;
		s->best_tgid = t->tgid;
		s->best_pages = mm->nr_pages;
	}
}

struct oom_kill {
	char name[TASK_COMM_LEN];
	int tgid;
};

/* The other processes on victim's mm (clone(CLONE_VM) without CLONE_THREAD,
 * a vfork pair) die with it, never init (as Linux): the mm is freed only when
 * they all left it, and the scan skips a marked mm, so a sharer left alive
 * would hold the memory and the victim count. tasklist_lock held. */
static void oom_kill_sharers(struct task *victim)
{
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
		if (t->mm == victim->mm && t->tgid != victim->tgid && !proc_is_init(t))
			signal_send(t, SIGKILL);	/* (its group: again per thread, harmless) */
}

/* task_call callback (tasklist_lock held, oom_lock held): SIGKILL t's whole
 * group and mark its mm, unless t is past its exit_mm. */
static int oom_kill_task(struct task *t, void *arg)
{
	struct oom_kill *k = arg;

	if (!t->mm)
		return -ESRCH;
	memcpy(k->name, t->name, sizeof(k->name));
	k->tgid = t->tgid;
	if (!t->mm->oom_victim) {
		t->mm->oom_victim = true;	/* one count per mm: oom_mm_gone's */
		atomic_inc(&oom_victims);
	}
	signal_send(t, SIGKILL);		/* SIGKILL ends the whole group */
	oom_kill_sharers(t);
	return 0;
}

/* SIGKILL the process of thread pid (oom_lock held); false if it is gone or
 * past its exit_mm. */
static bool oom_kill_pid(int pid, u32 pages)
{
	struct oom_kill k = { "", 0 };

	if (task_call(pid, oom_kill_task, &k))
		return false;
	oom_victim_ns = ktime_get_ns();
	atomic_inc(&oom_kills);
	printk(KERN_WARNING "oom: out of memory (%u pages free): killed pid %d (%.*s), %u pages\n",
	       nr_free_pages(), k.tgid, TASK_COMM_LEN, k.name, pages);
	return true;
}

/* Whether a user page can be had now (a victim's memory came back between
 * the caller's failed allocation and oom_lock): then nobody is killed. The
 * page goes straight back; the caller allocates again. */
static bool oom_room_now(void)
{
	struct page *page = alloc_pages(GFP_HIGHUSER, 0);

	if (!page)
		return false;
	__free_page(page);
	return true;
}

/* One step of the policy (oom_lock held): true when the caller should wait
 * and try again (a victim is exiting, or was just killed), false when it
 * should fail. */
static bool oom_kill_one_locked(void)
{
	struct oom_scan s = { 0, 0, 0 };

	if (atomic_read(&oom_victims) &&
	    ktime_get_ns() - oom_victim_ns < OOM_GRACE_MS * 1000000ull)
		return true;			/* its memory is on its way back */
	if (oom_room_now())
		return true;			/* it came back as we got here */
	task_for_each(oom_scan_task, &s);
	if (!s.best_pid)
		return false;			/* nothing to kill holds user memory */
	if (!oom_kill_pid(s.best_pid, s.best_pages))
		return true;			/* it went meanwhile: try again */
	return s.best_tgid != current->tgid;	/* ourselves: fail, and die of it */
}

static bool oom_kill_one(void)
{
	bool again;

	if (mutex_lock_killable(&oom_lock))
		return false;			/* killed while waiting: fail the fault */
	again = oom_kill_one_locked();
	mutex_unlock(&oom_lock);
	return again;
}

void oom_mm_gone(struct mm *mm)
{
	if (mm->oom_victim)
		atomic_dec(&oom_victims);
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
