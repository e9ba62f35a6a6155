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

void kiocb_slots_free(struct kioctx *ctx)
{
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
	req = kmem_cache_alloc(kiocb_cache, GFP_KERNEL);
	if (!req) {
		aio_credit_put(ctx);
		return NULL;
	}
	memset(req, 0, sizeof(*req));
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	BUG_ON(!ctx->nr_free_keys);
	if (ctx->dead || !aio_ring_has_room(ctx)) {
		spin_unlock_irqrestore(&ctx->ctx_lock, flags);
		kmem_cache_free(kiocb_cache, req);
		aio_credit_put(ctx);
		return NULL;
	}
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

/* Free a request whose last reference is gone, and drop its context
 * reference (put_ioctx: a context being destroyed waits for that count, and
 * ioctx_free is never reached here while a table holds the context). */
static void req_free(struct kioctx *ctx, struct kiocb *req)
{
	if (req->ki_filp)
		fput_any(req->ki_filp);	/* deferred when in interrupt context */
	if (req->ki_eventfd)
		fput_any(req->ki_eventfd);
	kmem_cache_free(kiocb_cache, req);
	kiocbs_add(-1);
	put_ioctx(ctx);
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

/* A synchronous kiocb is done: hand the result over and wake the waiter,
 * interrupts off so that the waiter (which owns req) cannot run in between;
 * req is not touched after ki_users is cleared. */
static void sync_kiocb_complete(struct kiocb *req, long res)
{
	struct task *waiter = req->ki_waiter;
	u32 flags = local_irq_save();

	BUG_ON(atomic_read(&req->ki_users) != 1);
	req->ki_sync_res = res;
	smp_wmb();
	atomic_set(&req->ki_users, 0);
	wake_up_process(waiter);
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
		smp_rmb();
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
