/* aio.h: the AIO core's kernel side: contexts (kioctx), requests (kiocb), completion.
 *
 * Locking and lifetimes:
 *  - ctx->ctx_lock (irq-safe) guards the request slots and free keys, the
 *    active list and count, each request's ki_flags, the
 *    trusted ring tail, posted, empty_at, head_seen and the ring event slots.
 *    aio_complete() takes it, possibly in interrupt context, and reaches the
 *    ring only through kmap_atomic(KM_IRQ0/KM_IRQ1). Nothing nests inside it.
 *  - ctx->ring_lock, a mutex (process context), serialises readers of the ring:
 *    only its holder moves the head, and it copies events to user space with
 *    no spinlock held. Order: ring_lock, then ctx_lock.
 *  - A context is referenced by its mm's table (until io_destroy, exit or exec), by each
 *    lookup in a system call, and by each request in flight (ctx->users).
 *  - A request has ki_users references: one for being in flight (dropped by its
 *    completion, or by a successful cancel), one held by io_submit until the
 *    file's method has returned, and one per cancel attempt running. The last
 *    reference frees it: its slot, its file (fput deferred out of interrupt
 *    context) and its context reference. ki_users is atomic: a drop that is
 *    not the last needs no lock (the submitter's, usually); the last one
 *    unlinks the request under ctx_lock, and a lookup under ctx_lock takes a
 *    reference only while the count is not zero. Each accepted request ends
 *    exactly once: one event in the ring, or one event returned by io_cancel.
 *  - Cancel: a file's cancel method either withdraws the request, so that
 *    nobody will ever complete it, and returns 0 (the core then completes it
 *    once with -ECANCELED into io_cancel's result), or returns -EAGAIN and the
 *    request completes as usual. A method never calls aio_complete().
 *  - A synchronous kiocb (init_sync_kiocb) lives on its waiter's stack, in no
 *    context: the same file methods run it, and aio_complete() wakes the
 *    waiter instead of posting an event. read/write/fsync are built on it.
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
struct kiocb;
struct kioctx;
struct mm;
struct page;

/* ki_flags */
#define KIF_COMPLETED	0x1	/* aio_complete() has run */
#define KIF_CANCELLING	0x2	/* io_cancel is calling the cancel method */
#define KIF_CANCELLED	0x4	/* the cancel method withdrew it */

/* A file's cancel method: 0 when it withdrew req (never to be completed by
 * anyone; its event says -ECANCELED), a positive count when it withdrew a
 * request that had already moved that many bytes (its event carries the
 * count: a pipe write that only the process's own reader could finish,
 * issue 14 finding 3), -EAGAIN when too late. Process context, no lock held. */
typedef int kiocb_cancel_fn(struct kiocb *req);

struct kiocb {
	struct list_head ki_list;	/* ctx->active_reqs while in flight */
	struct file *ki_filp;
	struct kioctx *ki_ctx;		/* NULL for a synchronous kiocb */
	atomic_t ki_users;		/* references (sync: 1 until done); see above */
	u32 ki_flags;			/* KIF_*, under ctx_lock */
	u32 ki_key;			/* slot index: O(1) lookup for io_cancel */
	u64 ki_user_obj;		/* user address of the iocb */
	u64 ki_user_data;		/* iocb->aio_data, returned in the event */
	u16 ki_opcode;
	u32 ki_rw_flags;		/* iocb aio_rw_flags (RWF_*), for the file's method */
	struct file *ki_eventfd;	/* IOCB_FLAG_RESFD: signalled after the event is
					 * posted (a reference, dropped with the request) */
	struct task *ki_waiter;		/* synchronous kiocb: who waits */
	long ki_sync_res;		/* synchronous kiocb: the result */
	/* The file method's, set only through the helpers below: */
	kiocb_cancel_fn *ki_cancel;	/* one store; read once under ctx_lock */
	void *ki_private;
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
	u32 reading;			/* events a reader took and is copying out: their
					 * slots stay reserved until the copy is over */
};

/* A context's per-CPU part: the credits that CPU caches (aio/credits.c). */
struct kioctx_cpu {
	s32 reqs_available;
} __attribute__((aligned(64)));

struct kioctx {
	atomic_t users;
	u32 trace_id;			/* never reused: names it in the trace (trace.h) */
	bool dead;			/* io_destroy or exit has begun (set under
					 * mm->aio->lock, read under ctx_lock) */
	struct mm *mm;
	struct kioctx *hash_next;	/* in mm->aio->hash[] */
	struct list_head mm_list;	/* in mm->aio->contexts */
	wait_queue_head_t wait;		/* io_getevents sleepers, teardown */
	spinlock_t ctx_lock;
	struct mutex ring_lock;		/* ring readers (see above) */
	u32 max_reqs;
	/* Request credits (aio/credits.c): max_reqs in all, in the pool, cached
	 * per CPU or held by a request until its slot is released. Atomics. */
	s32 reqs_available;		/* the pool */
	s32 req_batch;			/* what a CPU takes from the pool at once */
	struct kioctx_cpu *cpu;		/* [NR_CPUS], each on its own cache line */
	u32 reqs_active;		/* under ctx_lock */
	struct list_head active_reqs;	/* under ctx_lock */
	struct kiocb **slots;		/* [max_reqs], under ctx_lock */
	u32 *free_keys;			/* stack of free slot indices, under ctx_lock */
	u32 nr_free_keys;		/* under ctx_lock */
	/* kiocbs that requests completed inside io_submit left for the next
	 * ones, linked through their first word; under ctx_lock (aio/kiocb.c) */
	struct kiocb *req_cache;
	u32 nr_req_cache;
	struct aio_ring_info ring;
};

/* Per address space: the contexts, found by id in O(1) through a hash. */
struct aio_mm {
	spinlock_t lock;		/* the fields below and each ctx->dead; process
					 * context only (no irqsave) */
	struct kioctx *hash[AIO_HASH_SIZE];
	struct list_head contexts;
	u32 nr_contexts;
};

extern atomic_t aio_nr;		/* request slots reserved by all contexts */
extern u32 aio_max_nr;

/* Report the end of a request: post an event with res/res2, or wake the
 * waiter of a synchronous kiocb. Once per request, never for one a cancel
 * method withdrew. Callable from interrupt context. Returns true if this
 * dropped the last reference to the request. */
bool aio_complete(struct kiocb *req, long res, long res2);
static inline struct file *kiocb_file(struct kiocb *req) { return req->ki_filp; }
static inline bool is_sync_kiocb(const struct kiocb *req) { return !req->ki_ctx; }

/* For a cancel method: is req's context being torn down (io_destroy, exit,
 * exec)? Then nobody waits for the request's result any more. */
bool aio_ctx_dying(const struct kiocb *req);

/* For a file's aio method: its private data in req (the file's own lock
 * orders it with its cancel method). */
static inline void kiocb_set_private(struct kiocb *req, void *priv) { req->ki_private = priv; }
static inline void *kiocb_private(const struct kiocb *req) { return req->ki_private; }
/* Make req cancellable by io_cancel / io_destroy from now on (the method may
 * run as soon as this returns). Process context. */
void kiocb_set_cancel_fn(struct kiocb *req, kiocb_cancel_fn *fn);

/* Should a write of req append (O_APPEND on its file, or RWF_APPEND)? */
bool kiocb_is_append(const struct kiocb *req);
/* Should req report -EAGAIN instead of waiting (RWF_NOWAIT, or O_NONBLOCK on
 * a synchronous kiocb's file)? */
bool kiocb_nowait(const struct kiocb *req);
/* Must a write of req reach stable storage before its event (RWF_DSYNC,
 * RWF_SYNC, O_DSYNC)? */
bool kiocb_dsync(const struct kiocb *req);

/* Synchronous kiocbs: req on the caller's stack runs f's aio methods. */
void init_sync_kiocb(struct kiocb *req, struct file *f);
/* The end of a synchronous request whose method returned ret: when ret is
 * -EIOCBQUEUED, sleep (uninterruptibly: a device owns the buffer) until
 * aio_complete(). The result. Process context. */
ssize_t wait_on_sync_kiocb(struct kiocb *req, ssize_t ret);
/* read / write / fsync file operations for a file that has the aio ones. */
ssize_t do_sync_read(struct file *f, char *ubuf, size_t n, loff_t *pos);
ssize_t do_sync_write(struct file *f, const char *ubuf, size_t n, loff_t *pos);
int do_sync_fsync(struct file *f, int datasync);

/* Tear down every context of mm as the last task using it leaves it: the
 * exit of that task (kernel/proc.c proc_mm_leave) or its exec (the old
 * image's address space), in its process context, before mm_put. The last
 * task is counted by mm->tasks (threads and a vfork child share an mm), never
 * mm->users: so the first thread's exit leaves the contexts to the others.
 * No other task uses mm by then, so the table is walked without its lock.
 * Cancels what can be cancelled and waits for the rest; the rings are not
 * unmapped (the address space goes next). */
void exit_aio(struct mm *mm);
/* mremap moved the AIO ring at old to new (whole, in mm's owner's process
 * context): the context's id becomes new, as on Linux. */
void aio_ring_moved(struct mm *mm, u32 old, u32 new);
/* May mremap move the ring region [old, old + len) to [to, to + len) (before
 * it moves anything)? 0 when it is a live context's whole ring and the
 * destination lies in no other live context's ring range, mapped or not (an
 * id names one live context, and io_destroy reaches only its own ring); else
 * -EINVAL. Process context (takes mm->aio->lock). */
int aio_ring_may_move(struct mm *mm, u32 old, u32 len, u32 to);
void aio_init(void);

/* Counters for tests and gdb helpers. */
extern atomic_t aio_nr_contexts;
/* AIO requests allocated: the sum of per-CPU counts (each CPU adds to its
 * own cache line), read by aiok_stat and the tests. */
u32 aio_nr_kiocbs_read(void);

#endif
