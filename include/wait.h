/* wait.h: wait queues, wait_event helpers, and completions.
 *
 * A sleeper queues itself and sets its state under the queue's lock, then
 * tests its condition, then sleeps; a waker makes the condition true, then
 * calls wake_up(). Either the waker finds the sleeper queued and sets it
 * RUNNING (its schedule() returns at once), or the sleeper sees the condition:
 * no wake-up is lost. Non-exclusive waiters are queued at the head, exclusive
 * ones at the tail: wake_up() wakes every non-exclusive waiter and one
 * exclusive one. The queue lock is irq-safe: wake_up() works from any context.
 */
#ifndef WAIT_H
#define WAIT_H

#include "errno.h"
#include "list.h"
#include "sched.h"
#include "spinlock.h"

#define WQ_FLAG_EXCLUSIVE	0x01

typedef struct wait_queue_entry wait_queue_entry_t;
/* Called by __wake_up with the queue lock held; returns 1 if it woke a task. */
typedef int (*wait_queue_func_t)(wait_queue_entry_t *w, unsigned int mode);

struct wait_queue_entry {
	unsigned int flags;		/* WQ_FLAG_EXCLUSIVE */
	struct task *task;
	wait_queue_func_t func;
	struct list_head entry;		/* in the head's list, under its lock */
};

typedef struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
	unsigned long key;		/* during a wake-up (lock held): what the waker
					 * said happened (POLL* of wake_up_poll), 0 if
					 * it did not say */
} wait_queue_head_t;

int default_wake_function(wait_queue_entry_t *w, unsigned int mode);
/* Wakes and takes the entry off the queue (used by DEFINE_WAIT). */
int autoremove_wake_function(wait_queue_entry_t *w, unsigned int mode);

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) \
	{ SPINLOCK_INIT(#name), LIST_HEAD_INIT((name).head), 0 }
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)
#define init_waitqueue_head(q)	__init_waitqueue_head((q), #q)
#define DECLARE_WAITQUEUE(name, tsk) \
	wait_queue_entry_t name = { 0, (tsk), default_wake_function, { NULL, NULL } }
#define DEFINE_WAIT(name) \
	wait_queue_entry_t name = { 0, current, autoremove_wake_function, \
				    LIST_HEAD_INIT((name).entry) }

static inline void __init_waitqueue_head(wait_queue_head_t *q, const char *name)
{
	spin_lock_init(&q->lock, name);
	INIT_LIST_HEAD(&q->head);
	q->key = 0;
}

/* Is anyone queued? A hint for wakers that may skip wake_up(); the waker must
 * have made its condition visible first (smp_mb() before it on SMP). */
static inline bool waitqueue_active(wait_queue_head_t *q)
{
	return !list_empty(&q->head);
}

/* Queue w (non-exclusive, at the head / exclusive, at the tail). Any context. */
void add_wait_queue(wait_queue_head_t *q, wait_queue_entry_t *w);
void add_wait_queue_exclusive(wait_queue_head_t *q, wait_queue_entry_t *w);
void remove_wait_queue(wait_queue_head_t *q, wait_queue_entry_t *w);

/* Wake waiters sleeping in a state in mode: all non-exclusive ones and up to
 * nr_exclusive exclusive ones (0: all). Any context. */
void __wake_up(wait_queue_head_t *q, unsigned int mode, int nr_exclusive);
/* ... telling the wake functions (through q->key) which POLL* events became
 * ready: an IOCB_CMD_POLL request completes with them without looking again. */
void __wake_up_key(wait_queue_head_t *q, unsigned int mode, int nr_exclusive, unsigned long key);
#define wake_up_poll(q, mask)		__wake_up_key((q), TASK_NORMAL, 0, (mask))
#define wake_up(q)			__wake_up((q), TASK_NORMAL, 1)
#define wake_up_nr(q, nr)		__wake_up((q), TASK_NORMAL, (nr))
#define wake_up_all(q)			__wake_up((q), TASK_NORMAL, 0)
#define wake_up_interruptible(q)	__wake_up((q), TASK_INTERRUPTIBLE, 1)
#define wake_up_interruptible_all(q)	__wake_up((q), TASK_INTERRUPTIBLE, 0)

/* Queue w if it is not queued and set the current state, both under the queue
 * lock; the caller then tests its condition and calls schedule(). */
void prepare_to_wait(wait_queue_head_t *q, wait_queue_entry_t *w, long state);
void prepare_to_wait_exclusive(wait_queue_head_t *q, wait_queue_entry_t *w, long state);
/* Back to RUNNING and off the queue. */
void finish_wait(wait_queue_head_t *q, wait_queue_entry_t *w);

/* The loop behind every wait_event*: returns the jiffies left (at least 1)
 * when cond became true, 0 on timeout, -EINTR on a signal (interruptible). */
#define ___wait_event(wq, cond, state, exclusive, timeout) ({			\
	long __ret = (timeout);							\
	DEFINE_WAIT(__wait);							\
	might_sleep();								\
	for (;;) {								\
		if (exclusive)							\
			prepare_to_wait_exclusive(&(wq), &__wait, (state));	\
		else								\
			prepare_to_wait(&(wq), &__wait, (state));		\
		if (cond) {							\
			if (!__ret)						\
				__ret = 1;					\
			break;							\
		}								\
		if (signal_pending_state((state), current)) {			\
			__ret = -EINTR;						\
			break;							\
		}								\
		if (!__ret)							\
			break;							\
		__ret = schedule_timeout(__ret);				\
	}									\
	finish_wait(&(wq), &__wait);						\
	__ret; })

/* Sleep uninterruptibly until cond is true. Thread context. */
#define wait_event(wq, cond) do {						\
	if (!(cond))								\
		___wait_event(wq, cond, TASK_UNINTERRUPTIBLE, 0, MAX_SCHEDULE_TIMEOUT); \
} while (0)
#define wait_event_exclusive(wq, cond) do {					\
	if (!(cond))								\
		___wait_event(wq, cond, TASK_UNINTERRUPTIBLE, 1, MAX_SCHEDULE_TIMEOUT); \
} while (0)
/* ... or until a signal is pending: 0, or -EINTR. */
#define wait_event_interruptible(wq, cond) ({					\
	long __r = 0;								\
	if (!(cond))								\
		__r = ___wait_event(wq, cond, TASK_INTERRUPTIBLE, 0, MAX_SCHEDULE_TIMEOUT); \
	__r < 0 ? (int)__r : 0; })
#define wait_event_interruptible_exclusive(wq, cond) ({			\
	long __r = 0;								\
	if (!(cond))								\
		__r = ___wait_event(wq, cond, TASK_INTERRUPTIBLE, 1, MAX_SCHEDULE_TIMEOUT); \
	__r < 0 ? (int)__r : 0; })
/* ... or until a fatal signal (SIGKILL, a group exit): 0, or -EINTR. For
 * waits that may last on another process or user space but must not end
 * for an ordinary signal. */
#define wait_event_killable(wq, cond) ({					\
	long __r = 0;								\
	if (!(cond))								\
		__r = ___wait_event(wq, cond, TASK_KILLABLE, 0, MAX_SCHEDULE_TIMEOUT); \
	__r < 0 ? (int)__r : 0; })
/* ... for at most timeout jiffies: jiffies left (>= 1) if cond, 0 on timeout. */
#define wait_event_timeout(wq, cond, timeout) ({				\
	long __r = (timeout);							\
	if (!(cond) || !__r)							\
		__r = ___wait_event(wq, cond, TASK_UNINTERRUPTIBLE, 0, __r);	\
	__r; })
/* ... and a signal ends it too: jiffies left, 0 on timeout, or -EINTR. */
#define wait_event_interruptible_timeout(wq, cond, timeout) ({		\
	long __r = (timeout);							\
	if (!(cond) || !__r)							\
		__r = ___wait_event(wq, cond, TASK_INTERRUPTIBLE, 0, __r);	\
	__r; })

/* Completions: a count of "done" events with exclusive waiters. */
struct completion {
	unsigned int done;
	wait_queue_head_t wait;
};

#define COMPLETION_INITIALIZER(x)	{ 0, __WAIT_QUEUE_HEAD_INITIALIZER((x).wait) }
#define DECLARE_COMPLETION(x)		struct completion x = COMPLETION_INITIALIZER(x)

static inline void init_completion(struct completion *x)
{
	x->done = 0;
	__init_waitqueue_head(&x->wait, "completion");
}

/* Signal one waiter (or the next one to wait). Any context. */
void complete(struct completion *x);
/* Release every present and future waiter. Any context. */
void complete_all(struct completion *x);
/* Consume one completion if there is one; never sleeps. */
bool try_wait_for_completion(struct completion *x);
/* Sleep until completed. Thread context. */
void wait_for_completion(struct completion *x);
/* ... or until a fatal signal: 0, or -EINTR. */
int wait_for_completion_killable(struct completion *x);
/* ... at most timeout jiffies: jiffies left (>= 1), or 0 on timeout. */
long wait_for_completion_timeout(struct completion *x, long timeout);

#endif
