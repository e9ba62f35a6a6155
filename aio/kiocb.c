/* kiocb.c: request lifetime: slots, references, completion, cancellation.
 * Each accepted request ends exactly once: aio_complete posts its event, or a
 * successful cancel hands it to io_cancel; a completion racing a cancel is
 * parked in the request and posted by whichever side finishes last. */
#include "aio_internal.h"
#include "errno.h"
#include "fs.h"
#include "irq.h"
#include "panic.h"
#include "slab.h"
#include "string.h"

static struct kmem_cache *kiocb_cache;
atomic_t aio_nr_kiocbs = ATOMIC_INIT(0);

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

struct kiocb *aio_get_req(struct kioctx *ctx)
{
	struct kiocb *req = kmem_cache_alloc(kiocb_cache, GFP_KERNEL);
	u32 flags;

	if (!req)
		return NULL;
	memset(req, 0, sizeof(*req));
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	if (ctx->dead || !ctx->nr_free_keys || !aio_ring_has_room(ctx)) {
		spin_unlock_irqrestore(&ctx->ctx_lock, flags);
		kmem_cache_free(kiocb_cache, req);
		return NULL;
	}
	req->ki_key = ctx->free_keys[--ctx->nr_free_keys];
	ctx->slots[req->ki_key] = req;
	list_add_tail(&req->ki_list, &ctx->active_reqs);
	ctx->reqs_active++;
	req->ki_ctx = ctx;
	req->ki_users = 1;		/* the in-flight reference */
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	get_ioctx(ctx);
	atomic_inc(&aio_nr_kiocbs);
	return req;
}

/* Last reference gone (ctx_lock held): release the slot. */
static void req_unlink(struct kioctx *ctx, struct kiocb *req)
{
	list_del(&req->ki_list);
	ctx->slots[req->ki_key] = NULL;
	ctx->free_keys[ctx->nr_free_keys++] = req->ki_key;
	ctx->reqs_active--;
}

/* Free a request whose last reference is gone, and drop its context
 * reference. A context being destroyed waits for that count, so the drop and
 * the wake-up happen with interrupts off: the waiter cannot free the context
 * in between (uniprocessor; SMP would use the context lock). */
static void req_free(struct kioctx *ctx, struct kiocb *req)
{
	u32 flags;

	if (req->ki_filp)
		fput_any(req->ki_filp);	/* deferred when in interrupt context */
	kmem_cache_free(kiocb_cache, req);
	atomic_dec(&aio_nr_kiocbs);
	flags = local_irq_save();
	if (!atomic_dec_and_test(&ctx->users)) {
		if (ctx->dead)
			wake_up(&ctx->wait);
		local_irq_restore(flags);
		return;
	}
	local_irq_restore(flags);
	put_ioctx_final(ctx);		/* never reached while a table holds it */
}

/* Drop a reference with ctx_lock held; true if the caller must req_free(). */
static bool __put_req(struct kioctx *ctx, struct kiocb *req)
{
	BUG_ON(req->ki_users <= 0);
	if (--req->ki_users)
		return false;
	req_unlink(ctx, req);
	return true;
}

void aio_put_req(struct kiocb *req)
{
	struct kioctx *ctx = req->ki_ctx;
	bool last;
	u32 flags;

	spin_lock_irqsave(&ctx->ctx_lock, flags);
	last = __put_req(ctx, req);
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	if (last)
		req_free(ctx, req);
}

static void fill_event(struct io_event *ev, struct kiocb *req, s64 res, s64 res2)
{
	ev->data = req->ki_user_data;
	ev->obj = req->ki_user_obj;
	ev->res = res;
	ev->res2 = res2;
}

bool aio_complete(struct kiocb *req, long res, long res2)
{
	struct kioctx *ctx = req->ki_ctx;
	struct io_event ev;
	bool last;
	u32 flags;

	spin_lock_irqsave(&ctx->ctx_lock, flags);
	BUG_ON(req->ki_flags & KIF_COMPLETED);
	req->ki_flags |= KIF_COMPLETED;
	if (req->ki_flags & KIF_CANCELLING) {
		req->ki_res = res;		/* io_cancel decides where it goes */
		req->ki_res2 = res2;
	} else {
		fill_event(&ev, req, res, res2);
		aio_ring_post(ctx, &ev);
	}
	last = __put_req(ctx, req);
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	if (waitqueue_active(&ctx->wait))
		wake_up(&ctx->wait);
	if (last)
		req_free(ctx, req);
	return last;
}

struct kiocb *aio_lookup_req(struct kioctx *ctx, u32 user_iocb, u32 key)
{
	struct kiocb *req = NULL;
	u32 flags;

	spin_lock_irqsave(&ctx->ctx_lock, flags);
	if (key < ctx->max_reqs && ctx->slots[key] &&
	    ctx->slots[key]->ki_user_obj == user_iocb) {
		req = ctx->slots[key];
		req->ki_users++;
	}
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	return req;
}

/* Begin a cancel (ctx_lock held): false if not possible now. */
static bool cancel_begin(struct kiocb *req)
{
	if (!req->ki_cancel || (req->ki_flags & (KIF_COMPLETED | KIF_CANCELLING | KIF_CANCELLED)))
		return false;
	req->ki_flags |= KIF_CANCELLING;
	return true;
}

int aio_cancel_req(struct kiocb *req, struct io_event *ev)
{
	struct kioctx *ctx = req->ki_ctx;
	struct io_event late;
	bool drop_inflight = false;
	u32 flags;
	int err;

	spin_lock_irqsave(&ctx->ctx_lock, flags);
	err = cancel_begin(req) ? 0 : -EAGAIN;
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	if (err)
		return err;
	err = req->ki_cancel(req);		/* 0: withdrawn, will never complete */
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	req->ki_flags &= ~KIF_CANCELLING;
	if (!err) {
		/* Withdrawn. A method may have reported it through aio_complete()
		 * (parked above, in-flight reference already dropped); else drop it. */
		req->ki_flags |= KIF_CANCELLED;
		drop_inflight = !(req->ki_flags & KIF_COMPLETED);
		if (drop_inflight)
			fill_event(ev, req, -ECANCELED, 0);
		else
			fill_event(ev, req, req->ki_res, req->ki_res2);
	} else if (req->ki_flags & KIF_COMPLETED) {
		fill_event(&late, req, req->ki_res, req->ki_res2);
		aio_ring_post(ctx, &late);	/* completed while we tried */
	}
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	if (drop_inflight)
		aio_put_req(req);
	if (err && waitqueue_active(&ctx->wait))
		wake_up(&ctx->wait);
	return err ? -EAGAIN : 0;
}

void aio_cancel_all(struct kioctx *ctx)
{
	struct io_event ev;
	u32 flags;

	for (u32 key = 0; key < ctx->max_reqs; key++) {
		struct kiocb *req = NULL;
		spin_lock_irqsave(&ctx->ctx_lock, flags);
		if (ctx->slots[key]) {
			req = ctx->slots[key];
			req->ki_users++;
		}
		spin_unlock_irqrestore(&ctx->ctx_lock, flags);
		if (!req)
			continue;
		aio_cancel_req(req, &ev);	/* the event is discarded: nobody waits */
		aio_put_req(req);
	}
}

