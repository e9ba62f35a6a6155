/* blkdev.h: the driver-independent block interface: requests, device ops,
 * registry, the per-io_submit plug, DMA memory.
 *
 * Protocol. A submitter fills a struct blk_request (op, sector, nr_sectors, a
 * scatter list, done, private) and calls blkdev_submit(), which validates it in
 * one place and hands it to the driver's submit op: the driver queues it
 * (state QUEUED) and never waits for the device; it may also finish it at
 * once. blkdev_kick() then starts what was queued (virtio: one notification
 * for the whole batch; IDE: the next command when the channel is idle). When
 * the device answers, the driver's interrupt handler moves it to DONE through
 * blkdev_complete(), which calls done() exactly once, with interrupts
 * disabled. blkdev_cancel() withdraws a request still QUEUED, found by a
 * match on the queue (the submitter's data is alive while its request is
 * queued): done() is then never called for it. The request, its segment array
 * and its buffers belong to the driver from a successful submit until done()
 * is called or the request is withdrawn.
 *
 * Locks: each driver has one irq-safe lock per queue (device or channel); the
 * core takes none (its counters are atomic). done() runs with no driver lock.
 *
 * The core never names a driver; drivers fill struct blk_ops and register.
 */
#ifndef BLKDEV_H
#define BLKDEV_H

#include "atomic.h"
#include "trace.h"
#include "types.h"

#define BLK_SECTOR_SIZE		512
#define BLK_SECTOR_SHIFT	9

enum blk_op {
	BLK_READ,
	BLK_WRITE,
	BLK_FLUSH,		/* write back the device cache; no data, no sectors */
};

enum blk_req_state {
	BLK_REQ_NEW,		/* not submitted (or refused, or withdrawn) */
	BLK_REQ_QUEUED,		/* in the driver's queue, not on the device: cancellable */
	BLK_REQ_ACTIVE,		/* handed to the device */
	BLK_REQ_DONE,		/* done() has been called */
};

struct page;

/* One piece of the scatter list: phys is the bus address. A user page comes
 * with page/offset (PIO maps it with kmap_atomic and a KM_BIO_* slot); a
 * kernel buffer in low memory (reached by __va) has page NULL. */
struct blk_seg {
	u32 phys;
	u32 len;		/* a multiple of 512 */
	struct page *page;
	u32 offset;
};

struct blkdev;
struct blk_request;

/* Cancel's choice of a queued request: true for the one to withdraw. Called
 * under the driver's queue lock, interrupts off, on queued requests only. */
typedef bool blk_match_fn(struct blk_request *req, void *arg);

struct blk_request {
	enum blk_op op;
	u64 sector;
	u32 nr_sectors;
	struct blk_seg *seg;		/* scatter list, nr_seg entries */
	u32 nr_seg;
	/* Called once, interrupts disabled, no driver lock held; result =
	 * bytes transferred or -EIO. May submit new requests; must not wait. */
	void (*done)(struct blk_request *req, int result);
	void *private;			/* the submitter's */
	u32 trace_ctx, trace_key;	/* the AIO request it serves (trace.h), 0 for none */
	/* Owned by the core and the driver from submit to done: */
	enum blk_req_state state;
	int result;
	struct blkdev *dev;
	struct blk_request *next;	/* linkage in the driver's queue */
};

/* A FIFO of requests linked through ->next; the owner's lock guards it. */
struct blk_queue {
	struct blk_request *head, *tail;
};

struct blk_ops {
	/* Queue req (already validated), or finish it at once through
	 * blkdev_complete (interrupts off); never waits. 0 or -errno. */
	int (*submit)(struct blkdev *dev, struct blk_request *req);
	/* Start what submit queued. Any context. */
	void (*kick)(struct blkdev *dev);
	/* Take the first request of the driver's queue (not on the device)
	 * that match() accepts out of it, and return it (never complete it);
	 * NULL if none. Any context. */
	struct blk_request *(*cancel)(struct blkdev *dev, blk_match_fn *match, void *arg);
};

#define BLKDEV_F_DMA	0x01	/* transfers by bus-master DMA (else PIO) */
#define BLKDEV_F_LBA48	0x02	/* 48-bit addressing */
#define BLKDEV_F_FLUSH	0x04	/* has a volatile cache that BLK_FLUSH writes back */

struct blkdev {
	char name[8];			/* "hda", "vdb", ... */
	u64 nr_sectors;
	u32 max_sectors;		/* per request */
	u32 max_segs;			/* per request */
	u32 flags;			/* BLKDEV_F_* */
	const struct blk_ops *ops;
	void *priv;			/* the driver's */
	struct blkdev *next;		/* registry linkage */
	/* Counters kept by the core (submit, complete, cancel):
	 * submitted == completed + cancelled + in_flight at all times. */
	atomic_t submitted, completed, errors, cancelled, in_flight;
};

/* Add dev to the registry and print it (name, size, mode). 0, or -EEXIST
 * for a name already used, -EINVAL for an incomplete dev. Boot context. */
int blkdev_register(struct blkdev *dev);
/* The registered device with this name, or NULL. */
struct blkdev *blkdev_find(const char *name);
/* The index-th registered device (registration order), or NULL. */
struct blkdev *blkdev_nth(int index);

/* Validate req against dev (op, range: -EINVAL past the end; segments:
 * lengths multiples of 512, 4-byte aligned, total == nr_sectors * 512, at
 * most max_segs; nr_sectors <= max_sectors) and queue it. Does not start it:
 * call blkdev_kick() after a batch. Any context; never waits.
 * Returns 0 or -errno (then req is untouched by the driver). */
int blkdev_submit(struct blkdev *dev, struct blk_request *req);
/* Start the queued requests (one doorbell per batch). Any context. */
void blkdev_kick(struct blkdev *dev);
/* Withdraw the first request queued on dev, not yet on the device, that
 * match(req, arg) accepts: it is returned, NEW again, and done() will never be
 * called for it; NULL when there is none. Any context. */
struct blk_request *blkdev_cancel(struct blkdev *dev, blk_match_fn *match, void *arg);
/* For drivers: req finished with result (bytes or -errno). Interrupts must be
 * disabled and the driver's queue lock released. Updates the counters, marks
 * it DONE and calls done(); a second completion of one request panics. */
void blkdev_complete(struct blk_request *req, int result);

/* The devices an io_submit batch queued requests on, not kicked yet. It lives
 * on the submitter's stack; current->plug points at it meanwhile. */
#define BLK_PLUG_DEVS	4
struct blk_plug {
	int nr;
	struct blkdev *devs[BLK_PLUG_DEVS];
};
/* Open a batch for the current task (process context; an inner plug while
 * one is open is ignored). */
void blk_start_plug(struct blk_plug *plug);
/* Close it: kick every device it holds, once. */
void blk_finish_plug(struct blk_plug *plug);
/* dev has queued requests: kick it now when the current task has no plug,
 * else at the end of the batch. Process context. */
void blk_plug_add(struct blkdev *dev);
/* Kick the devices the current task's plug holds now, before it waits for
 * one of their requests (a page fill started earlier in the same io_submit).
 * Process context. */
void blk_flush_plug(void);

/* DMA-able memory for rings and descriptor tables: zeroed, physically
 * contiguous whole pages from the page allocator's DMA zone, aligned to
 * their size rounded up to a power of two. The kernel address, with the bus
 * address in *phys; NULL when the zone has no such block. Process context. */
void *blk_dma_alloc(u32 size, u32 *phys);
/* Give back what blk_dma_alloc(size) returned (NULL: nothing). */
void blk_dma_free(void *virt, u32 size);

/* For drivers: req goes onto the device now (trace point, any context). */
static inline void blk_trace_start(const struct blk_request *req)
{
	trace_blk(TR_BLK_START, req->trace_ctx, req->trace_key,
		  req->nr_sectors * BLK_SECTOR_SIZE, 0, req->dev->name);
}

/* Queue helpers; the caller holds the lock that guards q. */
static inline void blk_queue_push(struct blk_queue *q, struct blk_request *r)
{
	r->next = NULL;
	if (q->tail)
		q->tail->next = r;
	else
		q->head = r;
	q->tail = r;
}

static inline struct blk_request *blk_queue_pop(struct blk_queue *q)
{
	struct blk_request *r = q->head;

	if (r) {
		q->head = r->next;
		if (!q->head)
			q->tail = NULL;
		r->next = NULL;
	}
	return r;
}

/* Unlink and return the first request of q that match() accepts, or NULL. */
static inline struct blk_request *blk_queue_remove_match(struct blk_queue *q, blk_match_fn *match,
							 void *arg)
{
	struct blk_request *prev = NULL;

	for (struct blk_request *c = q->head; c; prev = c, c = c->next) {
		if (!match(c, arg))
			continue;
		if (prev)
			prev->next = c->next;
		else
			q->head = c->next;
		if (q->tail == c)
			q->tail = prev;
		c->next = NULL;
		return c;
	}
	return NULL;
}

/* Complete every request on a private list (linked through ->next). */
static inline void blk_complete_list(struct blk_request *list)
{
	while (list) {
		struct blk_request *r = list;
		list = r->next;
		r->next = NULL;
		blkdev_complete(r, r->result);
	}
}

#endif
