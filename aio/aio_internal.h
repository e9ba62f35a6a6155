/* aio_internal.h: what the AIO core's files share with each other (not exported). */
#ifndef AIO_INTERNAL_H
#define AIO_INTERNAL_H

#include "aio.h"

/* ring.c */
/* Allocate the ring's pages and map them at a free range that is no live
 * context's (ioctx_ring_busy). Under the mm's map_mutex, which the caller
 * keeps until the context is linked: the range is found and claimed in one
 * step. */
int aio_ring_setup(struct kioctx *ctx);
/* Remove the ring from its address space (io_destroy, in the owner's process
 * context, under the mm's map_mutex, in the step that unlinks the context);
 * events are still written through the ring's own pages. */
void aio_ring_unmap(struct kioctx *ctx);
/* Drop the ring's pages. A mapping left in an address space that is going away
 * holds its own references, dropped by that address space's teardown. */
void aio_ring_free(struct kioctx *ctx);
bool aio_ring_has_room(struct kioctx *ctx);
/* Post ev at the tail (ctx_lock held); returns the ring slot it took. */
u32 aio_ring_post(struct kioctx *ctx, const struct io_event *ev);
/* Several events under one ctx_lock hold and one mapping of the header:
 * begin, one call per event (its slot), end (the tail published once, after
 * every event). Interrupts off throughout (the atomic kmap slots). */
struct aio_ring_post {
	struct aio_ring *hdr;		/* the header's page, mapped */
	struct io_event *page;		/* the events' page last mapped, or NULL */
	u32 page_nr;			/* its index in the ring's pages */
};
void aio_ring_post_begin(struct kioctx *ctx, struct aio_ring_post *p);
u32 aio_ring_post_one(struct kioctx *ctx, struct aio_ring_post *p, const struct io_event *ev);
void aio_ring_post_end(struct kioctx *ctx, struct aio_ring_post *p);
/* Tracing: note how far user space has consumed the ring (TR_AIO_USER_REAP).
 * Process context, no lock held. */
void aio_ring_trace_head(struct kioctx *ctx);
long aio_ring_read(struct kioctx *ctx, struct io_event *uevents, long nr);
/* The ring's head as user space left it, clamped (any process context; the
 * aio_core tests read it, the kernel paths keep head_seen instead). */
/* Has anything been posted since a reader last found the ring empty? Without
 * locks, never sleeps (a u32 read is atomic here): a completion racing this
 * check is seen by the next one, as a sleeper sets its state before checking. */
bool aio_ring_maybe_ready(struct kioctx *ctx);
u32 aio_ring_head_peek(struct kioctx *ctx);

/* ioctx.c */
struct kioctx *ioctx_alloc(u32 nr_reqs);
/* Find the current process's context by id, with a reference; NULL if none. */
struct kioctx *ioctx_lookup(u32 id);
void get_ioctx(struct kioctx *ctx);
void put_ioctx(struct kioctx *ctx);
/* Free a context whose count reached zero (process context). */
void ioctx_free(struct kioctx *ctx);
/* io_destroy: unlink ctx from its mm, unmap its ring, cancel what can be, wait
 * for the rest, drop the table's reference. The owner's process context; the
 * caller holds one reference besides the table's. */
void ioctx_kill(struct kioctx *ctx);
/* The address range of a live context's ring belongs to that context for as
 * long as it lives, whether the program unmapped the ring or not: no other
 * ring may be placed there, so an id names one live context, and io_destroy,
 * which unmaps the ring regions of that range, reaches only its own ring.
 * Returns the highest end of a live context's ring range that overlaps
 * [start, start + len), or 0 when none does. Process context (mm->aio->lock). */
u32 ioctx_ring_busy(struct mm *mm, u32 start, u32 len);

/* kiocb.c */
int kiocb_slots_init(struct kioctx *ctx);
void kiocb_slots_free(struct kioctx *ctx);
/* A request for ctx (a slot and a ring slot reserved), with two references:
 * in flight, and the submitter's. NULL -> -EAGAIN. */
struct kiocb *aio_get_req(struct kioctx *ctx);
/* The submitter is done with req, whose file method returned ret: complete
 * it (ret >= 0), drop the in-flight reference (an error: it never started),
 * or leave it to its completion (-EIOCBQUEUED); then drop the submitter's
 * reference. Process context. */
void aio_submit_end(struct kiocb *req, long ret);
/* Requests that io_submit's file methods finished inside the call, whose
 * events are posted together (one ctx_lock hold, one ring mapping, one
 * wake-up) when the batch fills or the call ends. On io_submit's stack; the
 * submitter holds a context reference throughout. */
#define AIO_BATCH	32
struct aio_batch {
	struct kioctx *ctx;
	u32 nr;
	struct kiocb *req[AIO_BATCH];
	long res[AIO_BATCH];
};
/* aio_submit_end, except that a request finished inside its method (ret >=
 * 0) with no cancel method and no eventfd joins b instead of being posted at
 * once. Process context. */
void aio_submit_end_batch(struct aio_batch *b, struct kiocb *req, long ret);
/* Post b's events and release its requests; b is empty afterwards. Before
 * io_submit returns (and so before its caller can reap), process context. */
void aio_batch_flush(struct aio_batch *b);
/* The submitter ends req at once with the error err as its event (RWF_NOWAIT's
 * -EAGAIN): post it, drop both references; returns 0 (io_submit accepted it). */
long aio_submit_end_error(struct kiocb *req, long err);
/* Drop one reference to req (any context). */
void aio_put_req(struct kiocb *req);
/* Find an active request by (user iocb address, key) and take a reference. */
struct kiocb *aio_lookup_req(struct kioctx *ctx, u32 user_iocb, u32 key);
/* Try to cancel req (a reference held by the caller) through its file's
 * cancel method: 0 and *ev filled with its one event (-ECANCELED) when the
 * method withdrew it; -EAGAIN otherwise (it completes as usual). */
int aio_cancel_req(struct kiocb *req, struct io_event *ev);
/* Cancel everything cancellable in ctx (ctx->dead set). */
void aio_cancel_all(struct kioctx *ctx);
void kiocb_cache_init(void);

/* credits.c: the per-CPU request credits (see there). */
int aio_credits_init(struct kioctx *ctx);
/* Free them; panics unless all max_reqs are back (no request left). */
void aio_credits_free(struct kioctx *ctx);
/* Take one for a new request: false when max_reqs requests hold them all.
 * Any context. */
bool aio_credit_get(struct kioctx *ctx);
/* Give one back (a request's slot released). Any context. */
void aio_credit_put(struct kioctx *ctx);
/* Pool + every CPU's cache (tests; exact only when nothing moves). */
u32 aio_credits_total(struct kioctx *ctx);

/* sysctl.c */
void aio_sysctl_init(void);

#endif
