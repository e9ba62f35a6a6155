/* mutex.c: sleeping locks: an owner, waiters queued in order on a wait queue,
 * hand-off to the first waiter on unlock, and the debug checks of mutex.h.
 *
 * Everything below runs under m->wait.lock (irq-safe like every wait-queue
 * lock, though a mutex is never used from an interrupt). A waiter queues its
 * entry and sets its sleep state under that lock, then sleeps; mutex_unlock,
 * under the same lock, makes the first waiter the owner, unqueues it and wakes
 * it. The waiter only tests "am I the owner?", so a wake-up can neither be lost
 * nor stolen. Lock order: m->wait.lock, then the scheduler's rq_lock.
 */
#include "irq.h"
#include "mutex.h"
#include "panic.h"
#include "printk.h"
#include "spinlock.h"

#define CALLER()	((u32)__builtin_return_address(0))

u32 mutex_bugs;

void __mutex_init(struct mutex *m, const char *name)
{
	m->owner = NULL;
	__init_waitqueue_head(&m->wait, name);
	m->name = name;
	m->owner_pc = 0;
}

static void mutex_report(const struct mutex *m, u32 caller, const char *what)
{
	struct task *owner = READ_ONCE(m->owner);

	lock_bug_report(&mutex_bugs, caller, "mutex %s: %s (owner %s/%d)", m->name, what,
			owner ? owner->name : "none", owner ? owner->pid : 0);
}

/* The checks before a lock that may sleep: false when it must not go on. */
static bool mutex_lock_allowed(struct mutex *m, u32 caller)
{
	if (unlikely(READ_ONCE(m->owner) == current)) {
		mutex_report(m, caller, "recursive lock (it would sleep forever)");
		return false;
	}
	if (unlikely(in_atomic_context())) {
		mutex_report(m, caller, "lock in atomic context (it may sleep)");
		if (in_interrupt() && mutex_is_locked(m))
			panic("mutex %s: lock of a held mutex in an interrupt", m->name);
	}
	return true;
}

/* Lock held: m is now the caller's. */
static void mutex_set_owner(struct mutex *m, u32 caller)
{
	m->owner = current;
	m->owner_pc = caller;
	current->mutexes_held++;
}

/* Lock held, m owned by someone else: queue at the tail and sleep until the
 * owner hands m over (0), or a signal comes first in TASK_INTERRUPTIBLE
 * (-EINTR, unqueued). Returns with the lock held again. */
static int mutex_wait(struct mutex *m, long state, u32 *flags)
{
	DECLARE_WAITQUEUE(w, current);
	int ret = 0;

	w.flags = WQ_FLAG_EXCLUSIVE;
	list_add_tail(&w.entry, &m->wait.head);
	for (;;) {
		set_current_state(state);
		current->wait_channel = m;
		spin_unlock_irqrestore(&m->wait.lock, *flags);
		schedule();
		spin_lock_irqsave(&m->wait.lock, *flags);
		if (m->owner == current)
			break;			/* handed over: already unqueued */
		if (state == TASK_INTERRUPTIBLE && signal_pending(current)) {
			list_del_init(&w.entry);
			ret = -EINTR;
			break;
		}
	}
	__set_current_state(TASK_RUNNING);
	current->wait_channel = NULL;
	return ret;
}

static int __mutex_lock(struct mutex *m, long state, u32 caller)
{
	u32 flags;
	int ret = 0;

	if (!mutex_lock_allowed(m, caller))
		return -EDEADLK;
	spin_lock_irqsave(&m->wait.lock, flags);
	if (m->owner)
		ret = mutex_wait(m, state, &flags);
	if (!ret)
		mutex_set_owner(m, caller);
	spin_unlock_irqrestore(&m->wait.lock, flags);
	return ret;
}

void mutex_lock(struct mutex *m)
{
	__mutex_lock(m, TASK_UNINTERRUPTIBLE, CALLER());
}

int mutex_lock_interruptible(struct mutex *m)
{
	return __mutex_lock(m, TASK_INTERRUPTIBLE, CALLER());
}

int mutex_trylock(struct mutex *m)
{
	int taken = 0;
	u32 flags;

	if (unlikely(in_interrupt())) {
		mutex_report(m, CALLER(), "trylock in an interrupt (no task to own it)");
		return 0;
	}
	spin_lock_irqsave(&m->wait.lock, flags);
	if (!m->owner) {
		mutex_set_owner(m, CALLER());
		taken = 1;
	}
	spin_unlock_irqrestore(&m->wait.lock, flags);
	return taken;
}

void mutex_unlock(struct mutex *m)
{
	wait_queue_entry_t *next;
	u32 flags;

	spin_lock_irqsave(&m->wait.lock, flags);
	if (unlikely(m->owner != current)) {
		spin_unlock_irqrestore(&m->wait.lock, flags);
		mutex_report(m, CALLER(), m->owner ? "unlock by a task that does not hold it"
						   : "unlock of a mutex not held");
		return;
	}
	current->mutexes_held--;
	m->owner = NULL;
	m->owner_pc = 0;
	if (!list_empty(&m->wait.head)) {
		next = list_first_entry(&m->wait.head, wait_queue_entry_t, entry);
		list_del_init(&next->entry);
		m->owner = next->task;		/* hand-off: nobody can overtake it */
		wake_up_process(next->task);
	}
	spin_unlock_irqrestore(&m->wait.lock, flags);
}

void mutex_report_not_held(const struct mutex *m, const char *file, int line)
{
	char what[96];

	snprintf(what, sizeof(what), "not held by the caller (asserted at %s:%d)", file, line);
	mutex_report(m, CALLER(), what);
}

void mutex_report_user_return(void)
{
	lock_bug_report(&mutex_bugs, CALLER(), "return to user space with %d mutex(es) held",
			current->mutexes_held);
}
