/* aio_core_test.c: the "aio_core" suite: the ring and request lifetime from kernel code, in a temporary address space. */
#include "../../aio/aio_internal.h"
#include "clock.h"
#include "errno.h"
#include "highmem.h"
#include "ktest.h"
#include "mm.h"
#include "paging.h"
#include "sched.h"
#include "string.h"
#include "timer.h"
#include "uaccess.h"
#include "vm.h"
#include "x86.h"

#define UBUF		0x40000000u	/* events are read into this user buffer */
#define UBUF_EVENTS	512
#define FIRST_PAGE_EVENTS ((PAGE_SIZE - sizeof(struct aio_ring)) / sizeof(struct io_event))
#define NR_CONTEXTS	1000
#define LOOKUP_SAMPLES	301
#define O1_RATIO	3		/* the last context may cost at most 3x the first */

static struct mm *test_mm, *saved_mm;
static u32 base_aio_nr, base_kiocbs, base_contexts;
static struct io_event events[UBUF_EVENTS];
static int cancel_calls;

static int aio_core_init(void)
{
	test_mm = mm_create();
	if (!test_mm || vm_map(test_mm, UBUF, UBUF_EVENTS * sizeof(struct io_event),
			       VM_READ | VM_WRITE))
		return -ENOMEM;
	saved_mm = current->mm;
	current->mm = test_mm;
	mm_activate(test_mm);
	base_aio_nr = atomic_read(&aio_nr);
	base_kiocbs = aio_nr_kiocbs_read();
	base_contexts = atomic_read(&aio_nr_contexts);
	return 0;
}

static void aio_core_exit(void)
{
	exit_aio(test_mm);		/* any context a failed case left behind */
	current->mm = saved_mm;
	mm_activate(saved_mm);
	mm_put(test_mm);
}

/* Counters back where the suite started: no context, slot or request left. */
static void expect_baseline(struct ktest *t)
{
	EXPECT_EQ(t, atomic_read(&aio_nr), base_aio_nr);
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs);
	EXPECT_EQ(t, atomic_read(&aio_nr_contexts), base_contexts);
}

/* What io_destroy does: unlink, cancel, wait, drop. */
static void kill_ctx(struct kioctx *ctx)
{
	get_ioctx(ctx);
	ioctx_kill(ctx);
	put_ioctx(ctx);
}

/* A request with no file, named by data (obj = ~data), in flight as after
 * a method that queued it (the submitter's reference dropped). */
static struct kiocb *fake_req(struct kioctx *ctx, u32 data)
{
	struct kiocb *req = aio_get_req(ctx);

	if (req) {
		req->ki_user_data = data;
		req->ki_user_obj = ~data;
		aio_submit_end(req, -EIOCBQUEUED);
	}
	return req;
}

/* Post n events data first..first+n-1 with res = 10 * data; the count posted. */
static int post_events(struct kioctx *ctx, u32 first, int n)
{
	for (int i = 0; i < n; i++) {
		struct kiocb *req = fake_req(ctx, first + i);
		if (!req)
			return i;
		aio_complete(req, 10 * (first + i), 0);
	}
	return n;
}

/* Read up to n events through the user buffer into events[]; the count or -errno. */
static long read_events(struct kioctx *ctx, long n)
{
	long got = aio_ring_read(ctx, (struct io_event *)UBUF, n);

	if (got > 0 && copy_from_user(events, (void *)UBUF, got * sizeof(events[0])))
		return -EFAULT;
	return got;
}

/* events[0..n) are data first.. in order, with res 10 * data; false on the first miss. */
static bool events_in_order(struct ktest *t, u32 first, int n)
{
	for (int i = 0; i < n; i++)
		if (!EXPECT_EQ(t, events[i].data, first + i) ||
		    !EXPECT_EQ(t, events[i].obj, (u32)~(first + i)) ||
		    !EXPECT_EQ(t, events[i].res, 10 * (first + i)))
			return false;
	return true;
}

/* Events the kernel posted and nobody consumed yet. */
static u32 unreaped(struct kioctx *ctx)
{
	return (ctx->ring.tail + ctx->ring.nr - aio_ring_head_peek(ctx)) % ctx->ring.nr;
}

static void ring_header_fields(struct ktest *t)
{
	struct kioctx *ctx = ioctx_alloc(100);
	struct aio_ring *hdr;
	u32 unr = 0, id;

	ASSERT_FALSE(t, IS_ERR(ctx));
	id = ctx->ring.user_base;
	EXPECT_EQ(t, atomic_read(&aio_nr), base_aio_nr + 100);
	EXPECT_EQ(t, atomic_read(&aio_nr_contexts), base_contexts + 1);
	EXPECT_EQ(t, ctx->ring.nr_pages, 1);
	EXPECT_EQ(t, ctx->ring.nr, FIRST_PAGE_EVENTS);
	hdr = kmap_atomic(ctx->ring.pages[0], KM_USER0);
	EXPECT_EQ(t, hdr->id, id);
	EXPECT_EQ(t, hdr->nr, ctx->ring.nr);
	EXPECT_EQ(t, hdr->head, 0);
	EXPECT_EQ(t, hdr->tail, 0);
	EXPECT_EQ(t, hdr->magic, AIO_RING_MAGIC);
	EXPECT_EQ(t, hdr->compat_features, AIO_RING_COMPAT_FEATURES);
	EXPECT_EQ(t, hdr->incompat_features, AIO_RING_INCOMPAT_FEATURES);
	EXPECT_EQ(t, hdr->header_length, sizeof(struct aio_ring));
	kunmap_atomic(hdr, KM_USER0);
	/* the same page is the process's view of the ring */
	EXPECT_EQ(t, get_user(unr, (u32 *)(id + 4)), 0);
	EXPECT_EQ(t, unr, ctx->ring.nr);
	EXPECT_TRUE(t, ioctx_lookup(id) == ctx);
	put_ioctx(ctx);
	kill_ctx(ctx);
	EXPECT_NULL(t, ioctx_lookup(id));
	expect_baseline(t);
}

/* A ring of two pages: events 126 | 127 straddle the page boundary. */
static void events_cross_page_boundary(struct ktest *t)
{
	struct kioctx *ctx = ioctx_alloc(200);
	const u32 first = FIRST_PAGE_EVENTS, n = first + 3;
	struct io_event *ev;
	long got;

	ASSERT_FALSE(t, IS_ERR(ctx));
	EXPECT_EQ(t, ctx->ring.nr_pages, 2);
	EXPECT_EQ(t, ctx->ring.nr, first + PAGE_SIZE / sizeof(struct io_event));
	EXPECT_EQ(t, post_events(ctx, 0, n), n);
	ev = kmap_atomic(ctx->ring.pages[1], KM_USER0);	/* slot first is page 1's first */
	EXPECT_EQ(t, ev[0].data, first);
	EXPECT_EQ(t, ev[2].data, first + 2);
	kunmap_atomic(ev, KM_USER0);
	ev = kmap_atomic(ctx->ring.pages[0], KM_USER0);
	EXPECT_EQ(t, ((struct aio_ring *)ev)->io_events[first - 1].data, first - 1);
	EXPECT_EQ(t, ((struct aio_ring *)ev)->tail, n);
	kunmap_atomic(ev, KM_USER0);
	got = read_events(ctx, UBUF_EVENTS);
	EXPECT_EQ(t, got, n);
	if (got == n)
		events_in_order(t, 0, n);
	EXPECT_EQ(t, aio_ring_head_peek(ctx), n);
	kill_ctx(ctx);
	expect_baseline(t);
}

/* A reader takes events out of the ring before it copies them to user space:
 * those whose copy faults go back, in order, and nothing is lost. */
static void failed_copy_gives_events_back(struct ktest *t)
{
	struct kioctx *ctx = ioctx_alloc(8);
	struct io_event *edge = (struct io_event *)UBUF + UBUF_EVENTS - 2;
	u32 posted_room;

	ASSERT_FALSE(t, IS_ERR(ctx));
	ASSERT_EQ(t, post_events(ctx, 0, 5), 5);
	posted_room = ctx->nr_free_keys;
	EXPECT_EQ(t, aio_ring_read(ctx, edge, 5), 2);	/* the buffer ends after 2 */
	EXPECT_EQ(t, unreaped(ctx), 3);
	EXPECT_EQ(t, ctx->ring.reading, 0);
	EXPECT_EQ(t, aio_ring_read(ctx, (struct io_event *)(UBUF + (1u << 20)), 3), -EFAULT);
	EXPECT_EQ(t, unreaped(ctx), 3);			/* an unmapped buffer: all back */
	EXPECT_EQ(t, read_events(ctx, UBUF_EVENTS), 3);
	events_in_order(t, 2, 3);
	EXPECT_EQ(t, unreaped(ctx), 0);
	EXPECT_EQ(t, ctx->nr_free_keys, posted_room);
	kill_ctx(ctx);
	expect_baseline(t);
}

/* Post and consume more than nr events: tail and head wrap, order holds. */
static void ring_wraps_around(struct ktest *t)
{
	struct kioctx *ctx = ioctx_alloc(200);
	const u32 batch = 100, rounds = 3;

	ASSERT_FALSE(t, IS_ERR(ctx));
	ASSERT_TRUE(t, batch * rounds > ctx->ring.nr);
	for (u32 r = 0; r < rounds; r++) {
		ASSERT_EQ(t, post_events(ctx, r * batch, batch), batch);
		ASSERT_EQ(t, read_events(ctx, UBUF_EVENTS), batch);
		ASSERT_TRUE(t, events_in_order(t, r * batch, batch));
	}
	EXPECT_EQ(t, ctx->ring.tail, batch * rounds % ctx->ring.nr);
	EXPECT_EQ(t, aio_ring_head_peek(ctx), batch * rounds % ctx->ring.nr);
	kill_ctx(ctx);
	expect_baseline(t);
}

/* aio_get_req refuses when reqs_active + unreaped would reach nr - 1. */
static void ring_never_overflows(struct ktest *t)
{
	struct kioctx *ctx = ioctx_alloc(10);
	struct kiocb *reqs[10];
	u32 nr, held = 0, full;

	ASSERT_FALSE(t, IS_ERR(ctx));
	nr = ctx->ring.nr;
	for (u32 i = 0; i < 10; i++)		/* the slot limit first */
		ASSERT_NOT_NULL(t, reqs[i] = fake_req(ctx, i));
	EXPECT_NULL(t, aio_get_req(ctx));
	for (u32 i = 0; i < 10; i++)
		aio_complete(reqs[i], 10 * i, 0);
	full = nr - 1 - 10 - 4;			/* leave room for 4 more requests */
	for (u32 i = 10; i < 10 + full; i += 5)
		ASSERT_EQ(t, post_events(ctx, i, MIN(5u, 10 + full - i)), MIN(5u, 10 + full - i));
	EXPECT_EQ(t, unreaped(ctx), nr - 5);
	while (held < 10 && (reqs[held] = fake_req(ctx, 1000 + held)))
		held++;
	EXPECT_EQ(t, held, 4);			/* slots remain, but the ring would not */
	EXPECT_EQ(t, ctx->reqs_active + unreaped(ctx), nr - 1);
	EXPECT_EQ(t, read_events(ctx, 1), 1);	/* consuming one makes room for one */
	ASSERT_NOT_NULL(t, reqs[held] = fake_req(ctx, 1000 + held));
	held++;
	EXPECT_NULL(t, aio_get_req(ctx));
	for (u32 i = 0; i < held; i++)		/* every request still finds a slot */
		aio_complete(reqs[i], 0, 0);
	EXPECT_EQ(t, unreaped(ctx), nr - 1);	/* full, and tail never met head */
	EXPECT_EQ(t, read_events(ctx, UBUF_EVENTS), nr - 1);
	kill_ctx(ctx);
	expect_baseline(t);
}

/* References: completion drops the in-flight one; a lookup's keeps the request. */
static void complete_once_and_refs(struct ktest *t)
{
	struct kioctx *ctx = ioctx_alloc(4);
	struct kiocb *req, *found;
	struct io_event ev = { .res = 77 };

	ASSERT_FALSE(t, IS_ERR(ctx));
	ASSERT_NOT_NULL(t, req = fake_req(ctx, 1));
	EXPECT_EQ(t, atomic_read(&req->ki_users), 1);
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs + 1);
	EXPECT_TRUE(t, aio_complete(req, 10, 0));	/* the last reference */
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs);
	ASSERT_NOT_NULL(t, req = fake_req(ctx, 2));
	found = aio_lookup_req(ctx, ~2u, req->ki_key);
	EXPECT_TRUE(t, found == req);
	EXPECT_NULL(t, aio_lookup_req(ctx, ~3u, req->ki_key));	/* wrong iocb */
	EXPECT_FALSE(t, aio_complete(req, 20, 0));	/* the lookup still holds it */
	EXPECT_TRUE(t, req->ki_flags & KIF_COMPLETED);
	EXPECT_EQ(t, aio_cancel_req(req, &ev), -EAGAIN);	/* too late: no second event */
	EXPECT_EQ(t, ev.res, 77);
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs + 1);
	aio_put_req(req);
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs);
	EXPECT_EQ(t, ctx->reqs_active, 0);
	EXPECT_EQ(t, read_events(ctx, UBUF_EVENTS), 2);	/* exactly one each */
	events_in_order(t, 1, 2);
	kill_ctx(ctx);
	expect_baseline(t);
}

/* Cancel methods: each simulates one side of the cancel/complete race. */
static int cancel_withdraw(struct kiocb *req)
{
	cancel_calls++;
	return 0;
}

static int cancel_complete_then_eagain(struct kiocb *req)
{
	cancel_calls++;
	aio_complete(req, 43, 0);	/* completion won the race */
	return -EAGAIN;
}


/* Run io_cancel's steps on a fresh request with method m; its result, *ev filled. */
static int cancel_with(struct kioctx *ctx, int (*m)(struct kiocb *), struct io_event *ev)
{
	struct kiocb *req = fake_req(ctx, 5), *found;
	int err;

	if (!req)
		return -ENOMEM;
	kiocb_set_cancel_fn(req, m);
	found = aio_lookup_req(ctx, ~5u, req->ki_key);
	if (found != req)
		return -ENOENT;
	err = aio_cancel_req(found, ev);
	aio_put_req(found);
	return err;
}

static void cancel_withdraws_request(struct ktest *t)
{
	struct kioctx *ctx = ioctx_alloc(4);
	struct io_event ev = { 0 };

	ASSERT_FALSE(t, IS_ERR(ctx));
	cancel_calls = 0;
	EXPECT_EQ(t, cancel_with(ctx, cancel_withdraw, &ev), 0);
	EXPECT_EQ(t, cancel_calls, 1);
	EXPECT_EQ(t, ev.data, 5);
	EXPECT_EQ(t, ev.obj, ~5u);
	EXPECT_EQ(t, ev.res, -ECANCELED);
	EXPECT_EQ(t, unreaped(ctx), 0);		/* the event went to io_cancel only */
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs);
	kill_ctx(ctx);
	expect_baseline(t);
}

static void cancel_races_completion_and_loses(struct ktest *t)
{
	struct kioctx *ctx = ioctx_alloc(4);
	struct io_event ev = { .res = 99 };

	ASSERT_FALSE(t, IS_ERR(ctx));
	EXPECT_EQ(t, cancel_with(ctx, cancel_complete_then_eagain, &ev), -EAGAIN);
	EXPECT_EQ(t, ev.res, 99);		/* io_cancel reports nothing */
	EXPECT_EQ(t, ctx->reqs_active, 0);	/* nothing parked: it ended at once */
	EXPECT_EQ(t, unreaped(ctx), 1);		/* the ring has the one event */
	EXPECT_EQ(t, read_events(ctx, UBUF_EVENTS), 1);
	EXPECT_EQ(t, events[0].data, 5);
	EXPECT_EQ(t, events[0].res, 43);
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs);
	kill_ctx(ctx);
	expect_baseline(t);
}

static struct kiocb *timer_req;
static struct timer_list timer_req_tm;

static void complete_from_timer(unsigned long data)
{
	aio_complete(timer_req, (long)data, 0);		/* interrupt context */
}

/* A request already on the device: the cancel is refused, and the device ends
 * it two ticks later (a timer: interrupt context). Armed by the refusal, so
 * that the end never comes before the cancel, however long the host stalls
 * the emulator between the submit and io_destroy. */
static int cancel_refuse_on_device(struct kiocb *req)
{
	cancel_calls++;
	mod_timer(&timer_req_tm, jiffies + 2);
	return -EAGAIN;
}

/* io_destroy: cancels what it can, waits for what it cannot (a timer completes it). */
static void kill_with_requests_in_flight(struct ktest *t)
{
	struct kioctx *ctx = ioctx_alloc(16);
	struct kiocb *req;

	ASSERT_FALSE(t, IS_ERR(ctx));
	cancel_calls = 0;
	for (int i = 0; i < 8; i++) {
		ASSERT_NOT_NULL(t, req = fake_req(ctx, i));
		kiocb_set_cancel_fn(req, cancel_withdraw);
	}
	ASSERT_NOT_NULL(t, timer_req = fake_req(ctx, 8));
	kiocb_set_cancel_fn(timer_req, cancel_refuse_on_device);
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs + 9);
	setup_timer(&timer_req_tm, complete_from_timer, 88);
	kill_ctx(ctx);				/* returns only once the timer fired */
	EXPECT_EQ(t, cancel_calls, 9);
	EXPECT_FALSE(t, del_timer(&timer_req_tm));
	expect_baseline(t);
}

/* io_destroy removes the ring from the live address space. */
static void destroy_unmaps_ring(struct ktest *t)
{
	struct kioctx *ctx = ioctx_alloc(4);
	u32 base;

	ASSERT_FALSE(t, IS_ERR(ctx));
	base = ctx->ring.user_base;
	EXPECT_NOT_NULL(t, vm_find(test_mm, base));
	kill_ctx(ctx);
	EXPECT_NULL(t, vm_find(test_mm, base));
	expect_baseline(t);
}

/* Exit and exec: exit_aio ends the contexts (cancels, waits) but leaves each ring
 * mapped in the address space that is going away; the ring's pages then go with
 * that address space's teardown (mm_put), not with the context. */
static void exit_leaves_ring_to_the_mm(struct ktest *t)
{
	struct mm *mm = mm_create();
	struct page *page = NULL;
	struct kioctx *ctx;
	u32 base = 0;

	ASSERT_NOT_NULL(t, mm);
	current->mm = mm;
	mm_activate(mm);
	ctx = ioctx_alloc(4);
	if (EXPECT_FALSE(t, IS_ERR(ctx))) {
		base = ctx->ring.user_base;
		page = ctx->ring.pages[0];
		get_page(page);			/* to watch who drops it */
	}
	exit_aio(mm);				/* kill_with_requests_in_flight: its I/O */
	EXPECT_NULL(t, mm->aio);
	EXPECT_TRUE(t, base && vm_find(mm, base));
	current->mm = test_mm;
	mm_activate(test_mm);
	if (page)
		EXPECT_EQ(t, atomic_read(&page->count), 2);	/* the mapping's and ours */
	mm_put(mm);
	if (page) {
		EXPECT_EQ(t, atomic_read(&page->count), 1);
		put_page(page);
	}
	expect_baseline(t);
}

/* The submitter's reference: a request its method saw end at once (a fast
 * device) stays until io_submit lets it go; then it ends once. */
static void submitter_reference_outlives_completion(struct ktest *t)
{
	struct kioctx *ctx = ioctx_alloc(4);
	struct kiocb *req;

	ASSERT_FALSE(t, IS_ERR(ctx));
	ASSERT_NOT_NULL(t, req = aio_get_req(ctx));
	req->ki_user_data = 7;
	EXPECT_EQ(t, atomic_read(&req->ki_users), 2);
	EXPECT_FALSE(t, aio_complete(req, 70, 0));	/* inside the method */
	EXPECT_EQ(t, atomic_read(&req->ki_users), 1);
	EXPECT_TRUE(t, req->ki_flags & KIF_COMPLETED);
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs + 1);
	aio_submit_end(req, -EIOCBQUEUED);
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs);
	EXPECT_EQ(t, read_events(ctx, UBUF_EVENTS), 1);
	EXPECT_EQ(t, events[0].res, 70);
	ASSERT_NOT_NULL(t, req = aio_get_req(ctx));	/* a method that failed */
	aio_submit_end(req, -EINVAL);
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs);
	EXPECT_EQ(t, read_events(ctx, UBUF_EVENTS), 0);	/* no event for it */
	kill_ctx(ctx);
	expect_baseline(t);
}

static void complete_sync_from_timer(unsigned long data)
{
	aio_complete((struct kiocb *)data, 1234, 0);	/* interrupt context */
}

/* A synchronous kiocb: in no context, completed from an interrupt while its
 * owner sleeps, completed inside the method, or not queued at all; the
 * result comes back and nothing of the AIO core is used. */
static void sync_kiocb_waits(struct ktest *t)
{
	struct timer_list tm;
	struct kiocb req;

	init_sync_kiocb(&req, NULL);
	EXPECT_TRUE(t, is_sync_kiocb(&req));
	setup_timer(&tm, complete_sync_from_timer, (unsigned long)&req);
	tm.expires = jiffies + 2;
	add_timer(&tm);
	EXPECT_EQ(t, wait_on_sync_kiocb(&req, -EIOCBQUEUED), 1234);
	EXPECT_FALSE(t, del_timer(&tm));
	EXPECT_FALSE(t, time_before(jiffies, tm.expires));	/* it slept until then */
	init_sync_kiocb(&req, NULL);
	EXPECT_TRUE(t, aio_complete(&req, 55, 0));	/* before the wait */
	EXPECT_EQ(t, wait_on_sync_kiocb(&req, -EIOCBQUEUED), 55);
	init_sync_kiocb(&req, NULL);
	EXPECT_EQ(t, wait_on_sync_kiocb(&req, -EINVAL), -EINVAL);	/* never queued */
	expect_baseline(t);
}

static u32 median(u32 *v, int n)
{
	for (int i = 1; i < n; i++)		/* insertion sort: n is small */
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			u32 x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return v[n / 2];
}

/* Median cycles of ioctx_lookup(id) (with its reference dropped untimed). */
static u32 time_lookup(struct ktest *t, struct kioctx *want)
{
	static u32 samples[LOOKUP_SAMPLES];

	for (int i = 0; i < LOOKUP_SAMPLES; i++) {
		u64 t0 = rdtsc();
		struct kioctx *ctx = ioctx_lookup(want->ring.user_base);
		samples[i] = rdtsc() - t0;
		if (!EXPECT_TRUE(t, ctx == want))
			return 0;
		put_ioctx(ctx);
	}
	return median(samples, LOOKUP_SAMPLES);
}

static void lookup_is_o1(struct ktest *t)
{
	static struct kioctx *ctxs[NR_CONTEXTS];
	u32 first, last;
	int n;

	for (n = 0; n < NR_CONTEXTS; n++) {
		ctxs[n] = ioctx_alloc(1);
		if (!EXPECT_FALSE(t, IS_ERR(ctxs[n])))
			break;
	}
	if (n == NR_CONTEXTS) {
		EXPECT_EQ(t, current->mm->aio->nr_contexts, NR_CONTEXTS);
		first = time_lookup(t, ctxs[0]);
		last = time_lookup(t, ctxs[NR_CONTEXTS - 1]);
		ktest_log("ioctx_lookup, %d contexts: first %u cycles (%llu ns), last %u cycles (%llu ns)",
			  NR_CONTEXTS, first, cycles_to_ns(first), last, cycles_to_ns(last));
		EXPECT_LE(t, first, O1_RATIO * last);
		EXPECT_LE(t, last, O1_RATIO * first);
	}
	while (n-- > 0)
		kill_ctx(ctxs[n]);
	expect_baseline(t);
}

static const struct ktest_case aio_core_cases[] = {
	KTEST_CASE(ring_header_fields),
	KTEST_CASE(events_cross_page_boundary),
	KTEST_CASE(ring_wraps_around),
	KTEST_CASE(failed_copy_gives_events_back),
	KTEST_CASE(ring_never_overflows),
	KTEST_CASE(complete_once_and_refs),
	KTEST_CASE(cancel_withdraws_request),
	KTEST_CASE(cancel_races_completion_and_loses),
	KTEST_CASE(kill_with_requests_in_flight),
	KTEST_CASE(destroy_unmaps_ring),
	KTEST_CASE(exit_leaves_ring_to_the_mm),
	KTEST_CASE(submitter_reference_outlives_completion),
	KTEST_CASE(sync_kiocb_waits),
	KTEST_CASE(lookup_is_o1),
};

KTEST_SUITE(aio_core_suite, "aio_core", aio_core_cases,
	    .init = aio_core_init, .exit = aio_core_exit);
