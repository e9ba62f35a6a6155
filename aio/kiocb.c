/* kiocb.c: request lifetime: slots, references, completion, cancellation,
 * and synchronous kiocbs (read/write/fsync waiting on the same file methods).
 * Each accepted request ends exactly once: aio_complete posts its event, or a
 * cancel method withdraws it and io_cancel gets its -ECANCELED event. */
#include "aio_internal.h"
#include "errno.h"
#include "eventfd.h"
#include "fs.h"
#include "irq.h"
#include "panic.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "test_hooks.h"
#include "trace.h"
#include "uapi/uio.h"

static struct kmem_cache *kiocb_cache;

/* Requests allocated, counted per CPU: each CPU adds to its own line. */
struct aio_cpu_count {
	s32 kiocbs;
} __attribute__((aligned(64)));
static struct aio_cpu_count aio_cpu_counts[NR_CPUS];

static void kiocbs_add(s32 n)
{
	__atomic_add_fetch(&aio_cpu_counts[smp_processor_id()].kiocbs, n, __ATOMIC_RELAXED);
}

u32 aio_nr_kiocbs_read(void)
{
	s32 sum = 0;

	for (u32 i = 0; i < NR_CPUS; i++)
		sum += __atomic_load_n(&aio_cpu_counts[i].kiocbs, __ATOMIC_RELAXED);
	return (u32)sum;
}

void kiocb_cache_init(void)
{
	kiocb_cache = kmem_cache_create("kiocb", sizeof(struct kiocb), 0, NULL);
	BUG_ON(!kiocb_cache);
}

int kiocb_slots_init(struct kioctx *ctx)
{
	ctx->slots = kmalloc(ctx->max_reqs * sizeof(*ctx->slots), GFP_KERNEL);
	ctx->free_keys = kmalloc(ctx->max_reqs * sizeof(*ctx->free_keys), GFP_KERNEL);
	if (!ctx->slots || !ctx->free_keys)
		return -ENOMEM;
	for (u32 i = 0; i < ctx->max_reqs; i++) {
		ctx->slots[i] = NULL;
		ctx->free_keys[i] = ctx->max_reqs - 1 - i;
	}
	ctx->nr_free_keys = ctx->max_reqs;
	return 0;
}

/* At most this many kiocbs stay in a context's cache. */
#define REQ_CACHE_MAX	64

/* A kiocb from ctx's cache, or NULL (ctx_lock held). */
static struct kiocb *req_cache_pop(struct kioctx *ctx)
{
	struct kiocb *req = ctx->req_cache;

	if (req) {
		ctx->req_cache = *(struct kiocb **)req;
		ctx->nr_req_cache--;
	}
	return req;
}

/* Keep req's memory in ctx's cache (ctx_lock held); false when it is full. */
static bool req_cache_push(struct kioctx *ctx, struct kiocb *req)
{
	if (ctx->nr_req_cache == REQ_CACHE_MAX)
		return false;
	*(struct kiocb **)req = ctx->req_cache;
	ctx->req_cache = req;
	ctx->nr_req_cache++;
	return true;
}

void kiocb_slots_free(struct kioctx *ctx)
{
	struct kiocb *req;

	while ((req = req_cache_pop(ctx)))	/* the last reference is gone: no lock */
		kmem_cache_free(kiocb_cache, req);
	kfree(ctx->slots);
	kfree(ctx->free_keys);
}

/* A credit first (a full context answers without its lock); a credit
 * guarantees a free slot, as both are released together (req_unlink). */
struct kiocb *aio_get_req(struct kioctx *ctx)
{
	struct kiocb *req;
	u32 flags;

	if (!aio_credit_get(ctx))
		return NULL;
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	if (!(req = req_cache_pop(ctx))) {
		spin_unlock_irqrestore(&ctx->ctx_lock, flags);
		req = kmem_cache_alloc(kiocb_cache, GFP_KERNEL);
		if (!req) {
			aio_credit_put(ctx);
			return NULL;
		}
		spin_lock_irqsave(&ctx->ctx_lock, flags);
	}
	BUG_ON(!ctx->nr_free_keys);
	if (ctx->dead || !aio_ring_has_room(ctx)) {
		bool kept = req_cache_push(ctx, req);
		spin_unlock_irqrestore(&ctx->ctx_lock, flags);
		if (!kept)
			kmem_cache_free(kiocb_cache, req);
		aio_credit_put(ctx);
		return NULL;
	}
	memset(req, 0, sizeof(*req));
	req->ki_key = ctx->free_keys[--ctx->nr_free_keys];
	ctx->slots[req->ki_key] = req;
	list_add_tail(&req->ki_list, &ctx->active_reqs);
	ctx->reqs_active++;
	req->ki_ctx = ctx;
	atomic_set(&req->ki_users, 2);	/* in flight, and the submitter's */
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	get_ioctx(ctx);
	kiocbs_add(1);
	return req;
}

/* Last reference gone (ctx_lock held): release the slot. */
static void req_unlink(struct kioctx *ctx, struct kiocb *req)
{
	list_del(&req->ki_list);
	ctx->slots[req->ki_key] = NULL;
	ctx->free_keys[ctx->nr_free_keys++] = req->ki_key;
	ctx->reqs_active--;
	aio_credit_put(ctx);
}

/* Drop what a request whose last reference is gone holds: its files and
 * its context reference (put_ioctx: a context being destroyed waits for that
 * count, and ioctx_free is never reached here while a table holds the
 * context). The kiocb itself is the caller's to free or keep. */
static void req_put_refs(struct kioctx *ctx, struct kiocb *req)
{
	if (req->ki_filp)
		fput_any(req->ki_filp);	/* deferred when in interrupt context */
	if (req->ki_eventfd)
		fput_any(req->ki_eventfd);
	kiocbs_add(-1);
	put_ioctx(ctx);
}

static void req_free(struct kioctx *ctx, struct kiocb *req)
{
	req_put_refs(ctx, req);
	kmem_cache_free(kiocb_cache, req);
}

/* Drop nr references with ctx_lock held; true if the caller must req_free(). */
static bool __put_req(struct kioctx *ctx, struct kiocb *req, int nr)
{
	int left = atomic_add_return(&req->ki_users, -nr);

	BUG_ON(left < 0);
	if (left)
		return false;
	req_unlink(ctx, req);
	return true;
}

/* Take a reference to a request found in its slot (ctx_lock held); false when
 * its count already reached zero (a submitter dropping the last one without
 * the lock is about to unlink it): it is as good as gone. */
static bool __get_req(struct kiocb *req)
{
	return atomic_inc_not_zero(&req->ki_users);
}

/* Drop nr references at once (any context). */
static void put_req_nr(struct kiocb *req, int nr)
{
	struct kioctx *ctx = req->ki_ctx;
	bool last;
	u32 flags;

	spin_lock_irqsave(&ctx->ctx_lock, flags);
	last = __put_req(ctx, req, nr);
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	if (last)
		req_free(ctx, req);
}

void aio_put_req(struct kiocb *req)
{
	put_req_nr(req, 1);
}

static void fill_event(struct io_event *ev, struct kiocb *req, s64 res, s64 res2)
{
	ev->data = req->ki_user_data;
	ev->obj = req->ki_user_obj;
	ev->res = res;
	ev->res2 = res2;
}

/* A synchronous kiocb is done: hand the result over and wake the waiter.
 * The waiter owns req (often on its stack) and may see ki_users at 0 on
 * another CPU before it ever sleeps: it then waits for ki_waiter to turn
 * NULL, the last store here, so that neither req nor the waiting task is
 * gone while wake_up_process runs. Interrupts off: on one CPU the waiter
 * cannot run in between at all, and on several the window stays short. */
static void sync_kiocb_complete(struct kiocb *req, long res)
{
	struct task *waiter = req->ki_waiter;
	u32 flags = local_irq_save();

	BUG_ON(atomic_read(&req->ki_users) != 1);
	req->ki_sync_res = res;
	smp_wmb();
	atomic_set(&req->ki_users, 0);
	ktest_sync_wake_hook();		/* test kernel: widen the window */
	wake_up_process(waiter);
	__atomic_store_n(&req->ki_waiter, NULL, __ATOMIC_RELEASE);	/* req is the owner's again */
	local_irq_restore(flags);
}

/* complete_req left a reference to req with another holder (a submitter
 * still in io_submit, a canceller), which may free req, and with it its
 * references to the context and the eventfd, as soon as ctx_lock drops (on
 * another CPU, or by preempting a completing worker). Keep both for the
 * wake-up and the signal: ctx_lock held, req alive. The context's count never
 * reaches zero in complete_release: io_destroy holds two references while it
 * waits for the others to go. */
static void complete_hold(struct kioctx *ctx, struct file *efd)
{
	get_ioctx(ctx);
	if (efd)
		get_file(efd);
}

static void complete_release(struct kioctx *ctx, struct file *efd)
{
	if (efd)
		fput_any(efd);
	put_ioctx(ctx);
}

/* Post req's event and drop nr references (the in-flight one, and the
 * submitter's when it completes inside io_submit). */
static bool complete_req(struct kiocb *req, long res, long res2, int nr)
{
	struct kioctx *ctx = req->ki_ctx;
	struct file *efd = req->ki_eventfd;
	struct io_event ev;
	u32 flags, slot, key = req->ki_key;
	bool last;

	trace_aio(TR_AIO_COMPLETE, ctx->trace_id, key, 0, res, 0);
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	BUG_ON(req->ki_flags & (KIF_COMPLETED | KIF_CANCELLED));
	req->ki_flags |= KIF_COMPLETED;
	fill_event(&ev, req, res, res2);
	/* The references (and with the last, the request's credit) go before the
	 * event is posted: a reaper on another CPU that sees the event in the
	 * mapped ring and submits at once must find the credit back, or it gets
	 * -EAGAIN with fewer than nr_reqs in flight (programs case
	 * big_file_aio_random at -smp 4). The ring's room is checked under
	 * ctx_lock, which we hold, so posting after the unlink is safe. */
	last = __put_req(ctx, req, nr);
	if (!last)
		complete_hold(ctx, efd);
	slot = aio_ring_post(ctx, &ev);
	trace_aio(TR_AIO_POST, ctx->trace_id, key, 0, res, slot);
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	/* From here req is not read unless last: its other holder may free it. */
	if (waitqueue_active(&ctx->wait))
		wake_up(&ctx->wait);
	if (efd)			/* the event is in the ring: now the eventfd */
		eventfd_signal(efd, 1);
	if (last)
		req_free(ctx, req);
	else
		complete_release(ctx, efd);
	return last;
}

bool aio_complete(struct kiocb *req, long res, long res2)
{
	if (is_sync_kiocb(req)) {
		sync_kiocb_complete(req, res);
		return true;
	}
	return complete_req(req, res, res2, 1);
}

/* One aligned store, which cancel_begin reads once under ctx_lock: it sees
 * either no method (too early: -EAGAIN) or this one. No lock needed. */
void kiocb_set_cancel_fn(struct kiocb *req, kiocb_cancel_fn *fn)
{
	if (!is_sync_kiocb(req))	/* else nobody can name it to cancel it */
		WRITE_ONCE(req->ki_cancel, fn);
}

/* Drop the submitter's reference of a request left in flight. Usually the
 * completion has not run yet and this is a bare atomic decrement; when it was
 * the last, unlink under ctx_lock (lookups meanwhile see a count of zero and
 * leave the request alone). */
static void put_req_submitter(struct kiocb *req)
{
	struct kioctx *ctx = req->ki_ctx;
	u32 flags;

	if (!atomic_dec_and_test(&req->ki_users))
		return;
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	req_unlink(ctx, req);
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	req_free(ctx, req);
}

void aio_submit_end(struct kiocb *req, long ret)
{
	if (ret == -EIOCBQUEUED)
		put_req_submitter(req);		/* the common case: in flight */
	else if (ret >= 0)
		complete_req(req, ret, 0, 2);	/* finished inside the method */
	else
		put_req_nr(req, 2);		/* refused: it never was in flight */
}

long aio_submit_end_error(struct kiocb *req, long err)
{
	complete_req(req, err, 0, 2);
	return 0;
}

/* Can req's event wait for the batch's flush? Not when a canceller may
 * call its method meanwhile, nor with an eventfd to signal (complete_req's
 * references for it). */
static bool batch_may_hold(const struct kiocb *req)
{
	return !READ_ONCE(req->ki_cancel) && !req->ki_eventfd;
}

void aio_submit_end_batch(struct aio_batch *b, struct kiocb *req, long ret)
{
	if (ret == -EIOCBQUEUED || ret < 0 || !batch_may_hold(req)) {
		aio_submit_end(req, ret);
		return;
	}
	if (b->nr == AIO_BATCH)
		aio_batch_flush(b);
	b->req[b->nr] = req;
	b->res[b->nr++] = ret;
}

/* Post the batch's events (ctx_lock held, interrupts off); drop both
 * references of each request, keeping in b->req only those that were the
 * last (NULL for one a canceller's lookup still holds: it frees it). */
static void batch_post_locked(struct aio_batch *b)
{
	struct kioctx *ctx = b->ctx;
	struct aio_ring_post p;
	struct io_event ev;

	aio_ring_post_begin(ctx, &p);
	for (u32 i = 0; i < b->nr; i++) {
		struct kiocb *req = b->req[i];
		u32 slot;
		BUG_ON(req->ki_flags & (KIF_COMPLETED | KIF_CANCELLED));
		req->ki_flags |= KIF_COMPLETED;
		fill_event(&ev, req, b->res[i], 0);
		slot = aio_ring_post_one(ctx, &p, &ev);
		trace_aio(TR_AIO_POST, ctx->trace_id, req->ki_key, 0, b->res[i], slot);
		if (!__put_req(ctx, req, 2))
			b->req[i] = NULL;
	}
	aio_ring_post_end(ctx, &p);
}

/* The batch's requests whose last reference the flush dropped: their
 * references go, their kiocbs to the context's cache (one more ctx_lock hold
 * for the batch) or, when it is full, back to the slab. The submitter's
 * context reference keeps ctx alive throughout. */
static void batch_release(struct aio_batch *b)
{
	struct kioctx *ctx = b->ctx;
	u32 flags, n = 0;

	for (u32 i = 0; i < b->nr; i++)
		if (b->req[i]) {
			req_put_refs(ctx, b->req[i]);
			b->req[n++] = b->req[i];
		}
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	for (u32 i = 0; i < n; i++)
		if (req_cache_push(ctx, b->req[i]))
			b->req[i] = NULL;
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	for (u32 i = 0; i < n; i++)
		if (b->req[i])
			kmem_cache_free(kiocb_cache, b->req[i]);
	b->nr = 0;
}

void aio_batch_flush(struct aio_batch *b)
{
	struct kioctx *ctx = b->ctx;
	u32 flags;

	if (!b->nr)
		return;
	for (u32 i = 0; i < b->nr; i++)
		trace_aio(TR_AIO_COMPLETE, ctx->trace_id, b->req[i]->ki_key, 0, b->res[i], 0);
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	batch_post_locked(b);
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	if (waitqueue_active(&ctx->wait))
		wake_up(&ctx->wait);	/* one wake-up for the batch */
	batch_release(b);
}

bool kiocb_is_append(const struct kiocb *req)
{
	return (req->ki_rw_flags & RWF_APPEND) || (req->ki_filp->f_flags & O_APPEND);
}

bool kiocb_nowait(const struct kiocb *req)
{
	if (is_sync_kiocb(req))
		return req->ki_filp->f_flags & O_NONBLOCK;
	return req->ki_rw_flags & RWF_NOWAIT;
}

bool kiocb_dsync(const struct kiocb *req)
{
	return (req->ki_rw_flags & (RWF_DSYNC | RWF_SYNC)) || (req->ki_filp->f_flags & O_DSYNC);
}

struct kiocb *aio_lookup_req(struct kioctx *ctx, u32 user_iocb, u32 key)
{
	struct kiocb *req = NULL;
	u32 flags;

	spin_lock_irqsave(&ctx->ctx_lock, flags);
	if (key < ctx->max_reqs && ctx->slots[key] &&
	    ctx->slots[key]->ki_user_obj == user_iocb && __get_req(ctx->slots[key]))
		req = ctx->slots[key];
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	return req;
}

/* Begin a cancel (ctx_lock held): the method to call, or NULL if none may
 * run now (none set, completed, withdrawn, or another cancel running). */
static kiocb_cancel_fn *cancel_begin(struct kiocb *req)
{
	kiocb_cancel_fn *fn = READ_ONCE(req->ki_cancel);

	if (!fn || (req->ki_flags & (KIF_COMPLETED | KIF_CANCELLING | KIF_CANCELLED)))
		return NULL;
	req->ki_flags |= KIF_CANCELLING;
	return fn;
}

int aio_cancel_req(struct kiocb *req, struct io_event *ev)
{
	struct kioctx *ctx = req->ki_ctx;
	kiocb_cancel_fn *cancel;
	u32 flags;
	int err;

	spin_lock_irqsave(&ctx->ctx_lock, flags);
	cancel = cancel_begin(req);
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	err = cancel ? cancel(req) : -EAGAIN;	/* a completion may run meanwhile: it posts */
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	if (cancel)
		req->ki_flags &= ~KIF_CANCELLING;
	if (err >= 0) {
		/* Withdrawn: nobody else will complete it; its one event is ours. */
		BUG_ON((req->ki_flags & KIF_COMPLETED) || atomic_read(&req->ki_users) < 2);
		req->ki_flags |= KIF_CANCELLED;
		fill_event(ev, req, err ? err : -ECANCELED, 0);
		atomic_dec(&req->ki_users);	/* the in-flight one; the caller's stays */
	}
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	trace_aio(TR_AIO_CANCEL, ctx->trace_id, req->ki_key, 0,
		  err >= 0 ? (s32)ev->res : -EAGAIN, READ_ONCE(ctx->dead));
	return err >= 0 ? 0 : -EAGAIN;
}

bool aio_ctx_dying(const struct kiocb *req)
{
	return req->ki_ctx && READ_ONCE(req->ki_ctx->dead);
}

void aio_cancel_all(struct kioctx *ctx)
{
	struct io_event ev;
	u32 flags;

	for (u32 key = 0; key < ctx->max_reqs; key++) {
		struct kiocb *req = NULL;
		spin_lock_irqsave(&ctx->ctx_lock, flags);
		if (ctx->slots[key] && __get_req(ctx->slots[key]))
			req = ctx->slots[key];
		spin_unlock_irqrestore(&ctx->ctx_lock, flags);
		if (!req)
			continue;
		aio_cancel_req(req, &ev);	/* the event is discarded: nobody waits */
		aio_put_req(req);
	}
}

/* ---- synchronous kiocbs ---- */

void init_sync_kiocb(struct kiocb *req, struct file *f)
{
	memset(req, 0, sizeof(*req));
	req->ki_filp = f;		/* the caller's reference, not the request's */
	atomic_set(&req->ki_users, 1);
	req->ki_waiter = current;
}

ssize_t wait_on_sync_kiocb(struct kiocb *req, ssize_t ret)
{
	if (ret == -EIOCBQUEUED) {
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (!atomic_read(&req->ki_users))
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		while (__atomic_load_n(&req->ki_waiter, __ATOMIC_ACQUIRE))
			cpu_relax();	/* the completer is still waking us (another CPU) */
		ret = req->ki_sync_res;
	}
	return ret;
}

/* A read or write through a synchronous kiocb; *pos moves by what was done. */
static ssize_t do_sync_rw(struct file *f, char *ubuf, size_t n, loff_t *pos, bool write)
{
	struct kiocb req;
	ssize_t ret;

	init_sync_kiocb(&req, f);
	ret = write ? f->f_op->aio_write(&req, ubuf, n, *pos) : f->f_op->aio_read(&req, ubuf, n, *pos);
	ret = wait_on_sync_kiocb(&req, ret);
	if (ret > 0)
		*pos += ret;
	return ret;
}

ssize_t do_sync_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	return do_sync_rw(f, ubuf, n, pos, false);
}

ssize_t do_sync_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	return do_sync_rw(f, (char *)ubuf, n, pos, true);
}

int do_sync_fsync(struct file *f, int datasync)
{
	struct kiocb req;

	init_sync_kiocb(&req, f);
	return wait_on_sync_kiocb(&req, f->f_op->aio_fsync(&req, datasync));
}
