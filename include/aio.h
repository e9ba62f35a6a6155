/* aio.h: the AIO core's kernel side: contexts (kioctx), requests (kiocb), completion.
 *
 * Locking and lifetimes:
 *  - ctx->ctx_lock (irq-safe) guards the request slots, the active list, each
 *    request's ki_users/ki_flags, the trusted ring tail and the ring event slots.
 *    aio_complete() runs with it held, possibly in interrupt context, and reaches
 *    the ring only through kmap_atomic(KM_IRQ0/KM_IRQ1).
 *  - ctx->ring_lock, a mutex (process context), serialises readers of the ring:
 *    only its holder moves the head, and it copies events to user space with
 *    no spinlock held. Order: ring_lock, then ctx_lock.
 *  - A context is referenced by its mm's table (until io_destroy, exit or exec), by each
 *    lookup in a system call, and by each request in flight (ctx->users).
 *  - A request has ki_users references: one for being in flight (dropped by its
 *    completion, or by a successful cancel) and one per cancel attempt running.
 *    The last reference frees it: its slot, its file (fput deferred out of
 *    interrupt context) and its context reference. Each accepted request ends
 *    exactly once: one event in the ring, or one event returned by io_cancel.
 */
#ifndef AIO_H
#define AIO_H

#include "atomic.h"
#include "list.h"
#include "mutex.h"
#include "spinlock.h"
#include "types.h"
#include "uapi/aio_abi.h"
#include "wait.h"

#define EIOCBQUEUED	529	/* kernel-internal: the operation will complete later */
#define AIO_MAX_NR_DEFAULT 65536
#define AIO_HASH_SIZE	256	/* context hash buckets per address space */

struct file;
struct kioctx;
struct mm;
struct page;

/* ki_flags */
#define KIF_COMPLETED	0x1	/* aio_complete() has run */
#define KIF_CANCELLING	0x2	/* io_cancel is calling the cancel method */
#define KIF_CANCELLED	0x4	/* the cancel method succeeded */

struct kiocb {
	struct list_head ki_list;	/* ctx->active_reqs while in flight */
	struct file *ki_filp;
	struct kioctx *ki_ctx;
	int ki_users;			/* references, under ctx_lock */
	u32 ki_flags;			/* KIF_*, under ctx_lock */
	u32 ki_key;			/* slot index: O(1) lookup for io_cancel */
	u64 ki_user_obj;		/* user address of the iocb */
	u64 ki_user_data;		/* iocb->aio_data, returned in the event */
	u16 ki_opcode;
	s64 ki_res, ki_res2;		/* result kept while a cancel is racing */
	/* Set by the file's aio method when the request can be cancelled: returns 0
	 * when it withdrew the request (it will never complete), -EAGAIN when too
	 * late. Called without locks, in process context. */
	int (*ki_cancel)(struct kiocb *req);
	void *ki_private;		/* for the file's aio method */
};

struct aio_ring_info {
	u32 user_base;			/* the ring's user address = context id */
	u32 nr_pages;
	struct page **pages;
	u32 nr;				/* events in the ring (trusted copy) */
	u32 tail;			/* next event slot to fill (trusted copy) */
	u32 posted;			/* events ever posted (wraps) */
	u32 empty_at;			/* posted when a reader last found the ring empty */
	u32 head_seen;			/* the user head as last read (ctx_lock): it only
					 * lags, so room computed from it is a lower bound */
};

struct kioctx {
	atomic_t users;
	bool dead;			/* io_destroy or exit has begun */
	struct mm *mm;
	struct kioctx *hash_next;	/* in mm->aio->hash[] */
	struct list_head mm_list;	/* in mm->aio->contexts */
	wait_queue_head_t wait;		/* io_getevents sleepers, teardown */
	spinlock_t ctx_lock;
	struct mutex ring_lock;		/* ring readers (see above) */
	u32 max_reqs;
	u32 reqs_active;		/* under ctx_lock */
	struct list_head active_reqs;	/* under ctx_lock */
	struct kiocb **slots;		/* [max_reqs], under ctx_lock */
	u32 *free_keys;			/* stack of free slot indices */
	u32 nr_free_keys;
	struct aio_ring_info ring;
};

/* Per address space: the contexts, found by id in O(1) through a hash. */
struct aio_mm {
	spinlock_t lock;
	struct kioctx *hash[AIO_HASH_SIZE];
	struct list_head contexts;
	u32 nr_contexts;
};

extern atomic_t aio_nr;		/* request slots reserved by all contexts */
extern u32 aio_max_nr;

/* Report the end of a request: post an event with res/res2 (or hand it to a
 * racing io_cancel). Callable from interrupt context. Returns true if this
 * dropped the last reference to the request. */
bool aio_complete(struct kiocb *req, long res, long res2);
static inline struct file *kiocb_file(struct kiocb *req) { return req->ki_filp; }

/* Tear down every context of mm as the last task using it leaves it: process
 * exit (do_exit) and exec (the old image's address space), in that task's
 * process context, before mm_put. Cancels what can be cancelled and waits for
 * the rest; the rings are not unmapped (the address space goes next).
 * Today each address space has one task. With threads (clone with CLONE_VM),
 * contexts belong to the address space: do_exit then calls this only for the
 * last thread of mm (a count of the tasks sharing it, not mm->users, which
 * also counts borrowed references), and exec first ends the other threads. */
void exit_aio(struct mm *mm);
void aio_init(void);

/* Counters for tests and gdb helpers. */
extern atomic_t aio_nr_contexts, aio_nr_kiocbs;

#endif
