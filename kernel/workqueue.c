/* workqueue.c: work queues, each served by one kernel thread per CPU (pinned
 * there), in FIFO order per CPU.
 *
 * queue_work puts an item on the queuing CPU's list (cwq: struct
 * cpu_workqueue), whose worker runs it on that CPU; CPU 0's when that CPU
 * has no worker (it came up after the queue was made). An item runs on one
 * CPU at a time: queued while it runs, it goes to the list of the CPU that
 * runs it (w->cwq is where it last ran or waits), so its function is never
 * entered twice at once.
 *
 * w->pending is claimed with an atomic exchange by whoever queues (or
 * cancels) the item: only its owner writes w->cwq and adds it to a list.
 * Each cwq->lock (irq-safe: queue_work runs in interrupts) guards that
 * CPU's list, the entry of every item on it, current_work and the sequence
 * numbers. No two cwq locks are held together.
 */
#include "workqueue.h"
#include "atomic.h"
#include "mm.h"
#include "slab.h"
#include "panic.h"
#include "printk.h"
#include "sched.h"
#include "smp.h"
#include "spinlock.h"
#include "string.h"
#include "wait.h"

struct cpu_workqueue {
	spinlock_t lock;
	struct list_head list;		/* pending items, oldest first */
	struct work_struct *current_work;	/* running now (never dereferenced) */
	u32 next_seq;			/* seq of the next item queued */
	u32 done_seq;			/* seq of the last item that finished */
	wait_queue_head_t more_work;	/* the worker sleeps here */
	wait_queue_head_t work_done;	/* flushers and cancellers sleep here */
	struct task *worker;		/* pinned to this CPU; NULL: none */
	struct workqueue_struct *wq;
};

struct workqueue_struct {
	struct cpu_workqueue cwq[NR_CPUS];	/* [n]: CPU n's */
	u32 nr_cwq;			/* CPUs with a worker: 0 .. nr_cwq - 1 */
	char name[TASK_COMM_LEN];
};

struct workqueue_struct *system_wq;

/* The list the running CPU queues on; interrupts off. */
static struct cpu_workqueue *this_cwq(struct workqueue_struct *wq)
{
	u32 cpu = smp_processor_id();

	return &wq->cwq[cpu < wq->nr_cwq ? cpu : 0];
}

/* Where w, whose pending flag the caller owns, must go: the list of the CPU
 * that runs it now if it runs, else this CPU's. Interrupts off. */
static struct cpu_workqueue *queue_target(struct workqueue_struct *wq, struct work_struct *w)
{
	struct cpu_workqueue *old = w->cwq;
	bool running = false;

	if (old && old->wq == wq) {
		spin_lock(&old->lock);
		running = old->current_work == w;
		spin_unlock(&old->lock);
	}
	return running ? old : this_cwq(wq);
}

bool queue_work(struct workqueue_struct *wq, struct work_struct *w)
{
	struct cpu_workqueue *cwq;
	u32 flags;

	flags = local_irq_save();		/* no preemption while we own pending */
	if (__atomic_exchange_n(&w->pending, true, __ATOMIC_ACQ_REL)) {
		local_irq_restore(flags);
		return false;			/* queued already, or being cancelled */
	}
	cwq = queue_target(wq, w);
	spin_lock(&cwq->lock);
	WRITE_ONCE(w->cwq, cwq);
	w->seq = cwq->next_seq++;
	list_add_tail(&w->entry, &cwq->list);
	spin_unlock(&cwq->lock);
	local_irq_restore(flags);
	wake_up(&cwq->more_work);
	return true;
}

/* Take the oldest item, marked running; NULL if none. Its pending flag is
 * released under the lock: a queue_work from then on finds it running here. */
static struct work_struct *worker_next(struct cpu_workqueue *cwq, u32 *seq)
{
	struct work_struct *w = NULL;

	spin_lock_irq(&cwq->lock);
	if (!list_empty(&cwq->list)) {
		w = list_first_entry(&cwq->list, struct work_struct, entry);
		list_del_init(&w->entry);
		*seq = w->seq;
		cwq->current_work = w;
		__atomic_store_n(&w->pending, false, __ATOMIC_RELEASE);
	}
	spin_unlock_irq(&cwq->lock);
	return w;
}

static void worker_done(struct cpu_workqueue *cwq, u32 seq)
{
	spin_lock_irq(&cwq->lock);
	cwq->current_work = NULL;
	cwq->done_seq = seq;
	spin_unlock_irq(&cwq->lock);
	wake_up_all(&cwq->work_done);
}

static int worker_thread(void *arg)
{
	struct cpu_workqueue *cwq = arg;

	for (;;) {
		struct work_struct *w;
		work_func_t fn;
		u32 seq;

		wait_event(cwq->more_work, !list_empty(&cwq->list) || kthread_should_stop());
		w = worker_next(cwq, &seq);
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
		worker_done(cwq, seq);
	}
}

static void cwq_init(struct cpu_workqueue *cwq, struct workqueue_struct *wq)
{
	spin_lock_init(&cwq->lock, "workqueue");
	INIT_LIST_HEAD(&cwq->list);
	init_waitqueue_head(&cwq->more_work);
	init_waitqueue_head(&cwq->work_done);
	cwq->done_seq = cwq->next_seq - 1;
	cwq->wq = wq;
}

/* Start CPU cpu's worker, pinned there; 0 or -errno. */
static int cwq_start(struct cpu_workqueue *cwq, u32 cpu, const char *name)
{
	struct task *t = kthread_create(worker_thread, cwq, name);

	if (IS_ERR(t))
		return PTR_ERR(t);
	if (sched_set_affinity(t, 1u << cpu))
		printk(KERN_ERR "workqueue %s: worker not pinned to CPU %u\n", name, cpu);
	cwq->worker = t;
	wake_up_process(t);
	return 0;
}

static void stop_workers(struct workqueue_struct *wq)
{
	for (u32 cpu = 0; cpu < wq->nr_cwq; cpu++)
		kthread_stop(wq->cwq[cpu].worker);
}

struct workqueue_struct *create_workqueue(const char *name)
{
	struct workqueue_struct *wq = kmalloc(sizeof(*wq), GFP_KERNEL);

	if (!wq)
		return NULL;
	memset(wq, 0, sizeof(*wq));
	strlcpy(wq->name, name, sizeof(wq->name));
	for (u32 cpu = 0; cpu < NR_CPUS; cpu++)
		cwq_init(&wq->cwq[cpu], wq);
	for (u32 cpu = 0; cpu < nr_cpus_online; cpu++) {
		if (cwq_start(&wq->cwq[cpu], cpu, wq->name))
			break;
		wq->nr_cwq = cpu + 1;
	}
	if (!wq->nr_cwq) {
		kfree(wq);
		return NULL;
	}
	return wq;
}

/* Has everything queued on cwq before seq_end been run (or cancelled)? */
static bool flushed(struct cpu_workqueue *cwq, u32 seq_end)
{
	u32 flags;
	bool done;

	spin_lock_irqsave(&cwq->lock, flags);
	done = (list_empty(&cwq->list) && !cwq->current_work) ||
	       (s32)(cwq->done_seq - (seq_end - 1)) >= 0;
	spin_unlock_irqrestore(&cwq->lock, flags);
	return done;
}

static void flush_cwq(struct cpu_workqueue *cwq)
{
	u32 flags, seq_end;

	spin_lock_irqsave(&cwq->lock, flags);
	seq_end = cwq->next_seq;
	spin_unlock_irqrestore(&cwq->lock, flags);
	wait_event(cwq->work_done, flushed(cwq, seq_end));
}

void flush_workqueue(struct workqueue_struct *wq)
{
	for (u32 cpu = 0; cpu < wq->nr_cwq; cpu++)
		if (current == wq->cwq[cpu].worker)
			panic("flush_workqueue: %s flushes itself", wq->name);
	for (u32 cpu = 0; cpu < wq->nr_cwq; cpu++)
		flush_cwq(&wq->cwq[cpu]);
}

static bool work_running(struct cpu_workqueue *cwq, struct work_struct *w)
{
	return READ_ONCE(cwq->current_work) == w;
}

/* Take w, whose pending flag is set, off its list; false while a queue_work
 * still holds the flag but has not listed it yet. */
static bool unlist_pending(struct work_struct *w)
{
	struct cpu_workqueue *cwq = READ_ONCE(w->cwq);
	bool done = false;
	u32 flags;

	if (!cwq)
		return false;
	spin_lock_irqsave(&cwq->lock, flags);
	if (READ_ONCE(w->cwq) == cwq && !list_empty(&w->entry) &&
	    __atomic_load_n(&w->pending, __ATOMIC_ACQUIRE)) {
		list_del_init(&w->entry);
		done = true;
	}
	spin_unlock_irqrestore(&cwq->lock, flags);
	if (done)	/* a flusher may wait for the list to empty: it may be now */
		wake_up_all(&cwq->work_done);
	return done;
}

/* Own w's pending flag (taken free, or taken off a list: returns true then);
 * queue_work answers false meanwhile. */
static bool grab_pending(struct work_struct *w)
{
	for (;;) {
		if (!__atomic_exchange_n(&w->pending, true, __ATOMIC_ACQ_REL))
			return false;
		if (unlist_pending(w))
			return true;
		cpu_relax();
	}
}

bool cancel_work_sync(struct work_struct *w)
{
	struct cpu_workqueue *cwq;
	bool was_pending;

	if (!READ_ONCE(w->cwq))
		return false;			/* never queued */
	was_pending = grab_pending(w);
	cwq = w->cwq;				/* where it ran last: it runs nowhere else */
	if (current != cwq->worker)
		wait_event(cwq->work_done, !work_running(cwq, w));
	__atomic_store_n(&w->pending, false, __ATOMIC_RELEASE);
	return was_pending;
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	flush_workqueue(wq);
	stop_workers(wq);
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
