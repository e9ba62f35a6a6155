/* workqueue.c: work queues, each served in FIFO order by its own kernel thread.
 *
 * wq->lock (irq-safe: queue_work runs in interrupts) guards the list, every
 * queued item's entry and pending flag, current_work and the sequence numbers.
 */
#include "workqueue.h"
#include "atomic.h"
#include "mm.h"
#include "slab.h"
#include "panic.h"
#include "printk.h"
#include "sched.h"
#include "spinlock.h"
#include "string.h"
#include "wait.h"

struct workqueue_struct {
	spinlock_t lock;
	struct list_head list;		/* pending items, oldest first */
	struct work_struct *current_work;	/* running now (never dereferenced) */
	u32 next_seq;			/* seq of the next item queued */
	u32 done_seq;			/* seq of the last item that finished */
	wait_queue_head_t more_work;	/* the worker sleeps here */
	wait_queue_head_t work_done;	/* flushers and cancellers sleep here */
	struct task *worker;
	char name[TASK_COMM_LEN];
};

struct workqueue_struct *system_wq;

bool queue_work(struct workqueue_struct *wq, struct work_struct *w)
{
	bool queued = false;
	u32 flags;

	spin_lock_irqsave(&wq->lock, flags);
	if (!w->pending) {
		w->pending = true;
		w->wq = wq;
		w->seq = wq->next_seq++;
		list_add_tail(&w->entry, &wq->list);
		queued = true;
	}
	spin_unlock_irqrestore(&wq->lock, flags);
	if (queued)
		wake_up(&wq->more_work);
	return queued;
}

/* Take the oldest item, marked running; NULL if none. */
static struct work_struct *worker_next(struct workqueue_struct *wq, u32 *seq)
{
	struct work_struct *w = NULL;

	spin_lock_irq(&wq->lock);
	if (!list_empty(&wq->list)) {
		w = list_first_entry(&wq->list, struct work_struct, entry);
		list_del_init(&w->entry);
		w->pending = false;
		*seq = w->seq;
		wq->current_work = w;
	}
	spin_unlock_irq(&wq->lock);
	return w;
}

static void worker_done(struct workqueue_struct *wq, u32 seq)
{
	spin_lock_irq(&wq->lock);
	wq->current_work = NULL;
	wq->done_seq = seq;
	spin_unlock_irq(&wq->lock);
	wake_up_all(&wq->work_done);
}

static int worker_thread(void *arg)
{
	struct workqueue_struct *wq = arg;

	for (;;) {
		struct work_struct *w;
		work_func_t fn;
		u32 seq;

		wait_event(wq->more_work, !list_empty(&wq->list) || kthread_should_stop());
		w = worker_next(wq, &seq);
		if (!w) {
			if (kthread_should_stop())
				return 0;
			continue;
		}
		fn = w->func;
		fn(w);			/* w may be gone from here on */
		if (spinlocks_held || preempt_count)
			panic("work %p (%p) returned holding %d spinlocks, preempt_count %d",
			      w, fn, spinlocks_held, preempt_count);
		worker_done(wq, seq);
	}
}

struct workqueue_struct *create_workqueue(const char *name)
{
	struct workqueue_struct *wq = kmalloc(sizeof(*wq), GFP_KERNEL);

	if (!wq)
		return NULL;
	memset(wq, 0, sizeof(*wq));
	spin_lock_init(&wq->lock, "workqueue");
	INIT_LIST_HEAD(&wq->list);
	init_waitqueue_head(&wq->more_work);
	init_waitqueue_head(&wq->work_done);
	wq->done_seq = wq->next_seq - 1;
	strlcpy(wq->name, name, sizeof(wq->name));
	wq->worker = kthread_run(worker_thread, wq, wq->name);
	if (IS_ERR(wq->worker)) {
		kfree(wq);
		return NULL;
	}
	return wq;
}

/* Has everything queued before seq_end been run (or cancelled)? */
static bool flushed(struct workqueue_struct *wq, u32 seq_end)
{
	u32 flags;
	bool done;

	spin_lock_irqsave(&wq->lock, flags);
	done = (list_empty(&wq->list) && !wq->current_work) ||
	       (s32)(wq->done_seq - (seq_end - 1)) >= 0;
	spin_unlock_irqrestore(&wq->lock, flags);
	return done;
}

void flush_workqueue(struct workqueue_struct *wq)
{
	u32 flags, seq_end;

	if (current == wq->worker)
		panic("flush_workqueue: %s flushes itself", wq->name);
	spin_lock_irqsave(&wq->lock, flags);
	seq_end = wq->next_seq;
	spin_unlock_irqrestore(&wq->lock, flags);
	wait_event(wq->work_done, flushed(wq, seq_end));
}

static bool work_running(struct workqueue_struct *wq, struct work_struct *w)
{
	return READ_ONCE(wq->current_work) == w;
}

bool cancel_work_sync(struct work_struct *w)
{
	struct workqueue_struct *wq = w->wq;
	bool was_pending = false;
	u32 flags;

	if (!wq)
		return false;			/* never queued */
	spin_lock_irqsave(&wq->lock, flags);
	if (w->pending) {
		list_del_init(&w->entry);
		w->pending = false;
		was_pending = true;
	}
	spin_unlock_irqrestore(&wq->lock, flags);
	if (!was_pending && current != wq->worker)
		wait_event(wq->work_done, !work_running(wq, w));
	return was_pending;
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	flush_workqueue(wq);
	kthread_stop(wq->worker);
	kfree(wq);
}

bool schedule_work(struct work_struct *w)
{
	return queue_work(system_wq, w);
}

void flush_scheduled_work(void)
{
	flush_workqueue(system_wq);
}

void workqueue_init(void)
{
	system_wq = create_workqueue("events");
	if (!system_wq)
		panic("workqueue_init: cannot start the events thread");
}
