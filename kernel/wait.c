/* wait.c: wait queues, wake-ups and completions. */
#include "wait.h"

#define COMPLETE_ALL	(~0u >> 1)	/* done count meaning "completed for everyone" */

int default_wake_function(wait_queue_entry_t *w, unsigned int mode)
{
	return wake_up_state(w->task, mode);
}

int autoremove_wake_function(wait_queue_entry_t *w, unsigned int mode)
{
	int woken = default_wake_function(w, mode);

	if (woken)
		list_del_init(&w->entry);
	return woken;
}

void add_wait_queue(wait_queue_head_t *q, wait_queue_entry_t *w)
{
	u32 flags;

	w->flags &= ~WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&q->lock, flags);
	list_add(&w->entry, &q->head);
	spin_unlock_irqrestore(&q->lock, flags);
}

void add_wait_queue_exclusive(wait_queue_head_t *q, wait_queue_entry_t *w)
{
	u32 flags;

	w->flags |= WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&q->lock, flags);
	list_add_tail(&w->entry, &q->head);
	spin_unlock_irqrestore(&q->lock, flags);
}

void remove_wait_queue(wait_queue_head_t *q, wait_queue_entry_t *w)
{
	u32 flags;

	spin_lock_irqsave(&q->lock, flags);
	list_del_init(&w->entry);
	spin_unlock_irqrestore(&q->lock, flags);
}

void __wake_up(wait_queue_head_t *q, unsigned int mode, int nr_exclusive)
{
	__wake_up_key(q, mode, nr_exclusive, 0);
}

/* q->lock held. */
static void wake_up_locked(wait_queue_head_t *q, unsigned int mode, int nr_exclusive,
			   unsigned long key)
{
	struct list_head *pos, *n;

	q->key = key;			/* for the wake functions, under the lock */
	list_for_each_safe(pos, n, &q->head) {
		wait_queue_entry_t *w = list_entry(pos, wait_queue_entry_t, entry);
		unsigned int exclusive = w->flags & WQ_FLAG_EXCLUSIVE;

		if (w->func(w, mode) && exclusive && !--nr_exclusive)
			break;
	}
}

void __wake_up_key(wait_queue_head_t *q, unsigned int mode, int nr_exclusive, unsigned long key)
{
	u32 flags;

	spin_lock_irqsave(&q->lock, flags);
	wake_up_locked(q, mode, nr_exclusive, key);
	spin_unlock_irqrestore(&q->lock, flags);
}

static void prepare(wait_queue_head_t *q, wait_queue_entry_t *w, long state, bool exclusive)
{
	u32 flags;

	spin_lock_irqsave(&q->lock, flags);
	if (list_empty(&w->entry)) {
		if (exclusive) {
			w->flags |= WQ_FLAG_EXCLUSIVE;
			list_add_tail(&w->entry, &q->head);
		} else {
			w->flags &= ~WQ_FLAG_EXCLUSIVE;
			list_add(&w->entry, &q->head);
		}
	}
	set_current_state(state);
	current->wait_channel = q;
	spin_unlock_irqrestore(&q->lock, flags);
}

void prepare_to_wait(wait_queue_head_t *q, wait_queue_entry_t *w, long state)
{
	prepare(q, w, state, false);
}

void prepare_to_wait_exclusive(wait_queue_head_t *q, wait_queue_entry_t *w, long state)
{
	prepare(q, w, state, true);
}

void finish_wait(wait_queue_head_t *q, wait_queue_entry_t *w)
{
	u32 flags;

	__set_current_state(TASK_RUNNING);
	current->wait_channel = NULL;
	spin_lock_irqsave(&q->lock, flags);
	if (w->entry.next && !list_empty(&w->entry))
		list_del_init(&w->entry);
	spin_unlock_irqrestore(&q->lock, flags);
}

/* The wake-up happens under the completion's lock, and a waiter takes that
 * lock to consume done: a waiter on another CPU cannot return (and free a
 * completion on its stack, a vfork parent's) before the unlock, the last
 * touch of x here. */
void complete(struct completion *x)
{
	u32 flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done != COMPLETE_ALL)
		x->done++;
	wake_up_locked(&x->wait, TASK_NORMAL, 1, 0);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

void complete_all(struct completion *x)
{
	u32 flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	x->done = COMPLETE_ALL;
	wake_up_locked(&x->wait, TASK_NORMAL, 0, 0);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

bool try_wait_for_completion(struct completion *x)
{
	bool got = false;
	u32 flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done) {
		if (x->done != COMPLETE_ALL)
			x->done--;
		got = true;
	}
	spin_unlock_irqrestore(&x->wait.lock, flags);
	return got;
}

void wait_for_completion(struct completion *x)
{
	wait_event_exclusive(x->wait, try_wait_for_completion(x));
}

long wait_for_completion_timeout(struct completion *x, long timeout)
{
	long left = timeout;

	if (!try_wait_for_completion(x))
		left = ___wait_event(x->wait, try_wait_for_completion(x),
				     TASK_UNINTERRUPTIBLE, 1, timeout);
	return left ? left : 0;
}

int wait_for_completion_killable(struct completion *x)
{
	long r = 0;

	if (!try_wait_for_completion(x))
		r = ___wait_event(x->wait, try_wait_for_completion(x), TASK_KILLABLE, 1,
				  MAX_SCHEDULE_TIMEOUT);
	return r < 0 ? -EINTR : 0;
}
