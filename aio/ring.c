/* ring.c: the completion ring: HighMem pages mapped into the process, reached by
 * the kernel only through kmap_atomic; the kernel keeps its own nr and tail and
 * clamps the head it reads from user-writable memory. */
#include "aio.h"
#include "errno.h"
#include "highmem.h"
#include "mm.h"
#include "paging.h"
#include "slab.h"
#include "string.h"
#include "trace.h"
#include "uaccess.h"
#include "vm.h"
#include "aio_internal.h"

#define AIO_RING_HINT	0x70000000u	/* rings are placed from here upward */
#define EVENTS_FIRST_PAGE ((PAGE_SIZE - sizeof(struct aio_ring)) / sizeof(struct io_event))
#define EVENTS_PER_PAGE	(PAGE_SIZE / sizeof(struct io_event))

static void ring_free_pages(struct aio_ring_info *r)
{
	if (!r->pages)
		return;
	for (u32 i = 0; i < r->nr_pages; i++)
		if (r->pages[i])
			put_page(r->pages[i]);
	kfree(r->pages);
	r->pages = NULL;
}

static int ring_alloc_pages(struct aio_ring_info *r)
{
	r->pages = kmalloc(r->nr_pages * sizeof(*r->pages), GFP_KERNEL);
	if (!r->pages)
		return -ENOMEM;
	memset(r->pages, 0, r->nr_pages * sizeof(*r->pages));
	for (u32 i = 0; i < r->nr_pages; i++) {
		void *addr;
		r->pages[i] = alloc_pages(GFP_HIGHUSER, 0);
		if (!r->pages[i])
			return -ENOMEM;
		addr = kmap_atomic(r->pages[i], KM_USER0);
		memset(addr, 0, PAGE_SIZE);
		kunmap_atomic(addr, KM_USER0);
	}
	return 0;
}

/* A free range of size bytes for a new ring, from AIO_RING_HINT up, that is
 * no live context's ring range either (see ioctx_ring_busy); 0 if none. */
static u32 ring_find_room(struct mm *mm, u32 size)
{
	u32 base = AIO_RING_HINT, busy;

	for (;;) {
		base = vm_find_free(mm, base, size);
		if (!base || !(busy = ioctx_ring_busy(mm, base, size)))
			return base;
		base = busy;		/* past it: strictly upward, so this ends */
	}
}

/* Under the mm's map_mutex (ioctx_alloc): no other thread's mmap takes the
 * range between the search and the mapping. */
static int ring_map(struct kioctx *ctx)
{
	struct aio_ring_info *r = &ctx->ring;
	u32 size = r->nr_pages * PAGE_SIZE, base;
	int err;

	mutex_assert_held(&ctx->mm->map_mutex);
	base = ring_find_room(ctx->mm, size);
	if (!base)
		return -ENOMEM;
	err = vm_map(ctx->mm, base, size, VM_READ | VM_WRITE | VM_RING);
	for (u32 i = 0; !err && i < r->nr_pages; i++)
		err = vm_insert_page(ctx->mm, base + i * PAGE_SIZE, r->pages[i], true);
	if (err) {
		vm_unmap_flagged(ctx->mm, base, size, VM_RING);
		return err;
	}
	r->user_base = base;
	return 0;
}

int aio_ring_setup(struct kioctx *ctx)
{
	struct aio_ring_info *r = &ctx->ring;
	u32 want = ctx->max_reqs + 2;	/* one slot always stays empty, one spare */
	struct aio_ring *hdr;
	int err;

	r->nr_pages = DIV_ROUND_UP(sizeof(struct aio_ring) + want * sizeof(struct io_event),
				   PAGE_SIZE);
	r->nr = (r->nr_pages * PAGE_SIZE - sizeof(struct aio_ring)) / sizeof(struct io_event);
	r->tail = 0;
	r->posted = 0;
	r->empty_at = ~0u;
	err = ring_alloc_pages(r);
	if (!err)
		err = ring_map(ctx);
	if (err) {
		ring_free_pages(r);
		return err;
	}
	hdr = kmap_atomic(r->pages[0], KM_USER0);
	hdr->id = r->user_base;
	hdr->nr = r->nr;
	hdr->head = hdr->tail = 0;
	hdr->magic = AIO_RING_MAGIC;
	hdr->compat_features = AIO_RING_COMPAT_FEATURES;
	hdr->incompat_features = AIO_RING_INCOMPAT_FEATURES;
	hdr->header_length = sizeof(struct aio_ring);
	kunmap_atomic(hdr, KM_USER0);
	return 0;
}

/* Only ring regions go (a mapping the program put over an unmapped ring
 * stays), and only this context's: no other ring is ever placed in its range
 * while it lives (ring_find_room), and ioctx_end unlinks the context and
 * unmaps in one step under map_mutex, so no io_setup of another thread can
 * claim the range in between. */
void aio_ring_unmap(struct kioctx *ctx)
{
	struct aio_ring_info *r = &ctx->ring;

	mutex_assert_held(&ctx->mm->map_mutex);
	vm_unmap_flagged(ctx->mm, r->user_base, r->nr_pages * PAGE_SIZE, VM_RING);
}

void aio_ring_free(struct kioctx *ctx)
{
	ring_free_pages(&ctx->ring);
}

/* i (below 2 * nr) brought into the ring: a compare, not a division (a
 * division is a helper call under TCG, and the ring moves by one). */
static inline u32 ring_wrap(const struct aio_ring_info *r, u32 i)
{
	return i >= r->nr ? i - r->nr : i;
}

/* Map event idx with slot km; release with ring_event_unmap(). */
static struct io_event *ring_event_map(struct aio_ring_info *r, u32 idx, enum km_type km)
{
	struct aio_ring *hdr;
	struct io_event *ev;

	if (idx < EVENTS_FIRST_PAGE) {
		hdr = kmap_atomic(r->pages[0], km);
		return &hdr->io_events[idx];
	}
	idx -= EVENTS_FIRST_PAGE;
	ev = kmap_atomic(r->pages[1 + idx / EVENTS_PER_PAGE], km);
	return ev + idx % EVENTS_PER_PAGE;
}

static void ring_event_unmap(struct io_event *ev, enum km_type km)
{
	kunmap_atomic((void *)((u32)ev & PAGE_MASK), km);
}

/* The head as user space left it, clamped into the ring (ctx_lock held). */
static u32 ring_head(struct aio_ring_info *r, enum km_type km)
{
	struct aio_ring *hdr = kmap_atomic(r->pages[0], km);
	u32 head = __atomic_load_n(&hdr->head, __ATOMIC_ACQUIRE);	/* user reads done */

	kunmap_atomic(hdr, km);
	return head < r->nr ? head : head % r->nr;
}

/* The kernel read the user head (ctx_lock held): what user space consumed
 * since it last looked is traced as one TR_AIO_USER_REAP; head_seen = head. */
static void ring_see_head(struct kioctx *ctx, u32 head)
{
	struct aio_ring_info *r = &ctx->ring;

	if (head != r->head_seen)
		trace_aio(TR_AIO_USER_REAP, ctx->trace_id, ~0u, (head + r->nr - r->head_seen) % r->nr,
			  0, r->head_seen);
	r->head_seen = head;
}

void aio_ring_trace_head(struct kioctx *ctx)
{
	u32 flags;

	if (!trace_on(TRACE_AIO))
		return;
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	ring_see_head(ctx, ring_head(&ctx->ring, KM_USER0));
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
}

static bool ring_room_from(struct kioctx *ctx, u32 head)
{
	struct aio_ring_info *r = &ctx->ring;

	return ctx->reqs_active + READ_ONCE(r->reading) + ring_wrap(r, r->tail + r->nr - head) <
	       r->nr - 1;
}

/* Room for one more request's event? The user head only moves towards the
 * tail, so the last one seen answers "yes" safely; only a "no" maps the header
 * (a kmap_atomic pair costs about 0.75 us under TCG) to look again. */
bool aio_ring_has_room(struct kioctx *ctx)
{
	struct aio_ring_info *r = &ctx->ring;

	assert_spin_locked(&ctx->ctx_lock);
	if (ring_room_from(ctx, r->head_seen))
		return true;
	ring_see_head(ctx, ring_head(r, KM_USER0));
	return ring_room_from(ctx, r->head_seen);
}

void aio_ring_post_begin(struct kioctx *ctx, struct aio_ring_post *p)
{
	assert_spin_locked(&ctx->ctx_lock);
	p->hdr = kmap_atomic(ctx->ring.pages[0], KM_IRQ1);
	p->page = NULL;
	p->page_nr = 0;
}

/* The slot of event idx, mapped through p: the header's page, or the page
 * of the last event written when idx lies on it too (one mapping for a run
 * of events on one page). */
static struct io_event *ring_post_slot(struct aio_ring_info *r, struct aio_ring_post *p, u32 idx)
{
	u32 nr;

	if (idx < EVENTS_FIRST_PAGE)
		return &p->hdr->io_events[idx];
	idx -= EVENTS_FIRST_PAGE;
	nr = 1 + idx / EVENTS_PER_PAGE;
	if (p->page_nr != nr) {
		if (p->page)
			kunmap_atomic(p->page, KM_IRQ0);
		p->page = kmap_atomic(r->pages[nr], KM_IRQ0);
		p->page_nr = nr;
	}
	return p->page + idx % EVENTS_PER_PAGE;
}

u32 aio_ring_post_one(struct kioctx *ctx, struct aio_ring_post *p, const struct io_event *ev)
{
	struct aio_ring_info *r = &ctx->ring;
	u32 at = r->tail;

	*ring_post_slot(r, p, at) = *ev;
	r->tail = ring_wrap(r, at + 1);
	r->posted++;
	return at;
}

void aio_ring_post_end(struct kioctx *ctx, struct aio_ring_post *p)
{
	if (p->page)
		kunmap_atomic(p->page, KM_IRQ0);
	/* Release: the events are visible before the tail that covers them (a
	 * reader loads the tail with acquire, then the events). */
	__atomic_store_n(&p->hdr->tail, ctx->ring.tail, __ATOMIC_RELEASE);
	kunmap_atomic(p->hdr, KM_IRQ1);
}

u32 aio_ring_post(struct kioctx *ctx, const struct io_event *ev)
{
	struct aio_ring_post p;
	u32 at;

	aio_ring_post_begin(ctx, &p);
	at = aio_ring_post_one(ctx, &p, ev);
	aio_ring_post_end(ctx, &p);
	return at;
}

#define READ_BATCH	16		/* events copied out per pass */

/* Copy up to n events from head into evs, reading them through hdr (the
 * header's page, mapped by the caller) or their own page. */
static u32 ring_peek(struct aio_ring_info *r, struct aio_ring *hdr, u32 head,
		     struct io_event *evs, u32 n)
{
	u32 got = 0;

	for (; got < n && head != r->tail; got++, head = ring_wrap(r, head + 1)) {
		struct io_event *slot;
		if (head < EVENTS_FIRST_PAGE) {
			evs[got] = hdr->io_events[head];
			continue;
		}
		slot = ring_event_map(r, head, KM_USER1);
		evs[got] = *slot;
		ring_event_unmap(slot, KM_USER1);
	}
	return got;
}

/* ctx_lock held: copy up to n events from the user head into evs and move
 * the head past them by compare-and-swap (release: after the copies), as the
 * library's readers do, so that a thread reaping the mapped ring at the same
 * time never takes the same events; retried when one moved the head first.
 * *headp gets the head they start at. */
static u32 ring_take_events(struct aio_ring_info *r, struct aio_ring *hdr,
			    struct io_event *evs, u32 n, u32 *headp)
{
	u32 head, seen, got;

	do {
		seen = __atomic_load_n(&hdr->head, __ATOMIC_ACQUIRE);
		head = seen < r->nr ? seen : seen % r->nr;	/* user-writable: clamp */
		got = ring_peek(r, hdr, head, evs, n);
	} while (got && !__atomic_compare_exchange_n(&hdr->head, &seen, ring_wrap(r, head + got),
						     false, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	*headp = head;
	return got;
}

/* Under ctx_lock and one mapping of the header: copy up to n events from the
 * user head into evs and move the head past them at once, keeping their slots
 * reserved (r->reading) until the caller's copy to user space is over.
 * *headp gets the head they start at. Returns the number taken (0: empty). */
static u32 ring_take(struct kioctx *ctx, struct io_event *evs, u32 n, u32 *headp)
{
	struct aio_ring_info *r = &ctx->ring;
	struct aio_ring *hdr;
	u32 flags, head, got = 0;

	spin_lock_irqsave(&ctx->ctx_lock, flags);
	if (r->posted != r->empty_at) {		/* else: nothing posted since found empty */
		hdr = kmap_atomic(r->pages[0], KM_USER0);
		got = ring_take_events(r, hdr, evs, n, &head);
		ring_see_head(ctx, head);		/* what user space took itself */
		*headp = head;
		r->head_seen = ring_wrap(r, head + got);
		r->reading = got;
		if (r->head_seen == r->tail)
			r->empty_at = r->posted;
		kunmap_atomic(hdr, KM_USER0);
	}
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	return got;
}

/* A copy out failed after done of the events taken from head: give the rest
 * back (the head returns to the first one not copied, unless user space moved
 * it meanwhile). Rare: a bad or unmapped event buffer. */
static void ring_untake(struct kioctx *ctx, u32 head, u32 done)
{
	struct aio_ring_info *r = &ctx->ring;
	struct aio_ring *hdr;
	u32 flags, expect, back = ring_wrap(r, head + done);

	spin_lock_irqsave(&ctx->ctx_lock, flags);
	hdr = kmap_atomic(r->pages[0], KM_USER0);
	expect = r->head_seen;		/* unless a user-space reader moved it since */
	if (__atomic_compare_exchange_n(&hdr->head, &expect, back, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		r->head_seen = back;
		r->empty_at = r->posted - 1;	/* not empty: look again */
	}
	r->reading = 0;
	kunmap_atomic(hdr, KM_USER0);
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
}

/* One pass (ring_lock held): copy up to n events to uevents; those whose copy
 * failed go back into the ring. Returns the number delivered, or -EFAULT if
 * the first copy failed. The copy to user space runs with no spinlock held (it
 * may fault and sleep) from a kernel copy of the events: their slots stay
 * reserved meanwhile, and only ring_lock's holder moves the head. */
static long ring_read_batch(struct kioctx *ctx, struct io_event *uevents, u32 n)
{
	struct io_event evs[READ_BATCH];
	u32 head = 0, got, done;

	mutex_assert_held(&ctx->ring_lock);
	got = ring_take(ctx, evs, n, &head);
	if (!got)
		return 0;
	done = (got * sizeof(evs[0]) - copy_to_user(uevents, evs, got * sizeof(evs[0])))
		/ sizeof(evs[0]);
	if (done < got)
		ring_untake(ctx, head, done);
	else
		WRITE_ONCE(ctx->ring.reading, 0);	/* one store: no lock needed */
	for (u32 i = 0; trace_on(TRACE_AIO) && i < done; i++)
		__trace_rec(TR_AIO_REAP, ctx->trace_id, ~0u, (u32)evs[i].obj, (s32)evs[i].res,
			    ring_wrap(&ctx->ring, head + i));
	return done ? (long)done : -EFAULT;
}

bool aio_ring_maybe_ready(struct kioctx *ctx)
{
	return READ_ONCE(ctx->ring.posted) != READ_ONCE(ctx->ring.empty_at);
}

/* Move up to nr events to user space. An event is consumed only after its copy
 * succeeded, so a bad pointer never loses one. Returns the count or -EFAULT. */
long aio_ring_read(struct kioctx *ctx, struct io_event *uevents, long nr)
{
	long got = 0, n;

	if (!aio_ring_maybe_ready(ctx))
		return 0;
	mutex_lock(&ctx->ring_lock);
	while (got < nr) {
		n = ring_read_batch(ctx, uevents + got, MIN((long)READ_BATCH, nr - got));
		if (n <= 0) {
			if (n < 0 && !got)
				got = n;
			break;
		}
		got += n;
		if (n < MIN((long)READ_BATCH, nr - got + n))
			break;			/* the ring is empty, or a copy failed */
	}
	mutex_unlock(&ctx->ring_lock);
	return got;
}

u32 aio_ring_head_peek(struct kioctx *ctx)
{
	u32 flags = local_irq_save(), head = ring_head(&ctx->ring, KM_USER0);

	local_irq_restore(flags);
	return head;
}
