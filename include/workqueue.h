/* workqueue.h: deferred work: functions queued from any context (interrupt
 * handlers included) and run later by a kernel thread, where they may sleep.
 * The AIO core defers the last fput of a file this way.
 *
 * Per CPU: each queue has a worker thread pinned to each CPU that was up
 * when the queue was made; an item runs on the worker of the CPU that queued
 * it (CPU 0's if that CPU has none), in FIFO order among the items queued on
 * that CPU. An item never runs on two CPUs at once: queued while it runs, it
 * runs again on the same worker afterwards.
 *
 * A work item is queued at most once at a time: queueing a pending item does
 * nothing. Its function may free or re-queue the item. The item's memory must
 * stay valid until it ran or was cancelled.
 */
#ifndef WORKQUEUE_H
#define WORKQUEUE_H

#include "list.h"
#include "types.h"

struct work_struct;
struct workqueue_struct;
struct cpu_workqueue;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	struct list_head entry;		/* on cwq->list while pending, under cwq->lock */
	work_func_t func;
	bool pending;			/* queued, not yet started (atomic exchange) */
	u32 seq;			/* queue order on its CPU, for flushes */
	struct cpu_workqueue *cwq;	/* the CPU's list it was last queued on */
};

#define __WORK_INITIALIZER(n, f)	{ LIST_HEAD_INIT((n).entry), (f), false, 0, NULL }
#define DECLARE_WORK(n, f)		struct work_struct n = __WORK_INITIALIZER(n, f)

static inline void INIT_WORK(struct work_struct *w, work_func_t func)
{
	INIT_LIST_HEAD(&w->entry);
	w->func = func;
	w->pending = false;
	w->cwq = NULL;
}

/* A queue served by a kernel thread named name on each online CPU, pinned
 * there. Thread context. Returns the queue, or NULL without memory. */
struct workqueue_struct *create_workqueue(const char *name);
/* Run what is queued, stop the thread, free the queue. Thread context. */
void destroy_workqueue(struct workqueue_struct *wq);
/* Queue w at the tail. Any context. Returns false if it was already pending. */
bool queue_work(struct workqueue_struct *wq, struct work_struct *w);
/* Wait until every item queued before the call, on any CPU, has run. Thread
 * context; not from a work function of the same queue (it would wait for
 * itself: panics). */
void flush_workqueue(struct workqueue_struct *wq);
/* Take w off its queue if pending, and wait until it is not running on any
 * CPU (not when called from its own worker). A queue_work meanwhile does
 * nothing. Thread context. Returns true if it was pending (and so will not
 * run). */
bool cancel_work_sync(struct work_struct *w);

/* The system queue ("events" threads, one per CPU). */
bool schedule_work(struct work_struct *w);
void flush_scheduled_work(void);
extern struct workqueue_struct *system_wq;

/* Create the system queue; after sched_init. */
void workqueue_init(void);

#endif
