/* blkdev_test.c: the "blkdev" suite: the block core against a fake in-memory
 * device: registry, validation, counters, cancel states, the synchronous wait
 * and its timeout, the DMA pool, the queue helpers. Needs no hardware. */
#include "blktest.h"
#include "errno.h"
#include "spinlock.h"
#include "string.h"

enum fake_mode { FAKE_HOLD, FAKE_START, FAKE_COMPLETE };

static enum fake_mode fake_mode;
static struct blk_queue fake_queued, fake_active;
static int fake_kicks;

static int fake_submit(struct blkdev *dev, struct blk_request *r)
{
	u32 flags = local_irq_save();

	blk_queue_push(&fake_queued, r);
	local_irq_restore(flags);
	return 0;
}

/* Finish every started request with result (bytes when result is 0). */
static void fake_finish(int result)
{
	u32 flags = local_irq_save();
	struct blk_request *r;

	while ((r = blk_queue_pop(&fake_active)))
		blkdev_complete(r, result ? result : (int)r->nr_sectors * BLK_SECTOR_SIZE);
	local_irq_restore(flags);
}

static void fake_kick(struct blkdev *dev)
{
	u32 flags = local_irq_save();
	struct blk_request *r;

	fake_kicks++;
	while (fake_mode != FAKE_HOLD && (r = blk_queue_pop(&fake_queued))) {
		r->state = BLK_REQ_ACTIVE;
		blk_queue_push(&fake_active, r);
	}
	local_irq_restore(flags);
	if (fake_mode == FAKE_COMPLETE)
		fake_finish(0);
}

static int fake_cancel(struct blkdev *dev, struct blk_request *r)
{
	u32 flags = local_irq_save();
	bool found = r->state == BLK_REQ_QUEUED && blk_queue_remove(&fake_queued, r);

	if (found)
		blkdev_complete(r, -ECANCELED);
	local_irq_restore(flags);
	return found ? 0 : -EAGAIN;
}

static const struct blk_ops fake_ops = { fake_submit, fake_kick, fake_cancel };
static struct blkdev fake = {
	.name = "nul0", .nr_sectors = 2048, .max_sectors = 64, .max_segs = 4,
	.ops = &fake_ops,
};

static int blkdev_suite_init(void)
{
	return blktest_setup();
}

static void registry(struct ktest *t)
{
	static struct blkdev incomplete = { .name = "bad0" };
	int n = 0;

	EXPECT_EQ(t, blkdev_register(&fake), 0);
	EXPECT_EQ(t, blkdev_register(&fake), -EEXIST);
	EXPECT_EQ(t, blkdev_register(&incomplete), -EINVAL);
	EXPECT_TRUE(t, blkdev_find("nul0") == &fake);
	EXPECT_NULL(t, blkdev_find("nul"));
	EXPECT_NULL(t, blkdev_find("bad0"));
	while (blkdev_get(n))
		n++;
	EXPECT_TRUE(t, blkdev_get(n - 1) == &fake);	/* registration order */
	EXPECT_NULL(t, blkdev_get(-1));
}

static void validation(struct ktest *t)
{
	blktest_invalid(t, &fake);
	EXPECT_NULL(t, fake_queued.head);
}

static void counters_follow_requests(struct ktest *t)
{
	int base = blktest_completions;

	fake_mode = FAKE_START;
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(t, blkdev_submit(&fake, blktest_prep(i, BLK_READ, i, 1, blktest_b_phys)), 0);
	EXPECT_EQ(t, atomic_read(&fake.in_flight), 3);
	EXPECT_EQ(t, blktest_reqs[2].req.state, BLK_REQ_QUEUED);
	blkdev_kick(&fake);
	EXPECT_EQ(t, blktest_reqs[2].req.state, BLK_REQ_ACTIVE);
	fake_finish(-EIO);
	EXPECT_EQ(t, blktest_completions, base + 3);
	EXPECT_EQ(t, blktest_reqs[1].result, -EIO);
	EXPECT_EQ(t, blktest_reqs[1].req.state, BLK_REQ_DONE);
	EXPECT_EQ(t, atomic_read(&fake.errors), 3);
	EXPECT_EQ(t, atomic_read(&fake.completed), 3);
	blktest_expect_balanced(t, &fake);
}

static void cancel_by_state(struct ktest *t)
{
	struct blk_request *a = blktest_prep(0, BLK_WRITE, 10, 1, blktest_a_phys);
	struct blk_request *b = blktest_prep(1, BLK_WRITE, 11, 1, blktest_a_phys);

	fake_mode = FAKE_START;
	ASSERT_EQ(t, blkdev_submit(&fake, a), 0);
	blkdev_kick(&fake);
	fake_mode = FAKE_HOLD;
	ASSERT_EQ(t, blkdev_submit(&fake, b), 0);
	blkdev_kick(&fake);
	EXPECT_EQ(t, blkdev_cancel(&fake, b), 0);		/* queued */
	EXPECT_EQ(t, blktest_reqs[1].calls, 1);
	EXPECT_EQ(t, blktest_reqs[1].result, -ECANCELED);
	EXPECT_EQ(t, blkdev_cancel(&fake, b), -EAGAIN);		/* already done */
	EXPECT_EQ(t, blkdev_cancel(&fake, a), -EAGAIN);		/* on the device */
	EXPECT_EQ(t, blktest_reqs[1].calls, 1);
	fake_finish(0);
	EXPECT_EQ(t, blktest_reqs[0].result, 512);
	EXPECT_EQ(t, blkdev_cancel(&fake, a), -EAGAIN);
	EXPECT_EQ(t, blktest_reqs[0].calls, 1);
	EXPECT_EQ(t, atomic_read(&fake.cancelled), 1);
	blktest_expect_balanced(t, &fake);
}

static void resubmit_after_done(struct ktest *t)
{
	struct blk_request *r = blktest_prep(0, BLK_READ, 5, 2, blktest_b_phys);

	fake_mode = FAKE_COMPLETE;
	ASSERT_EQ(t, blkdev_submit(&fake, r), 0);
	EXPECT_EQ(t, blkdev_submit(&fake, r), -EBUSY);	/* still owned by the driver */
	blkdev_kick(&fake);
	EXPECT_EQ(t, blkdev_submit(&fake, r), 0);		/* done: may be reused */
	blkdev_kick(&fake);
	EXPECT_EQ(t, blktest_reqs[0].calls, 2);
	blktest_expect_balanced(t, &fake);
}

static void sync_io(struct ktest *t)
{
	fake_mode = FAKE_COMPLETE;
	EXPECT_EQ(t, blkdev_rw_sync(&fake, BLK_READ, 0, blktest_b_phys, 64), 64 * 512);
	EXPECT_EQ(t, blkdev_rw_sync(&fake, BLK_FLUSH, 0, 0, 0), 0);
	EXPECT_EQ(t, blkdev_rw_sync(&fake, BLK_READ, 2047, blktest_b_phys, 2), -EINVAL);
	blktest_expect_balanced(t, &fake);
}

/* A device that never answers: -ETIMEDOUT, not a hang. Queued: the waiter
 * cancels it. Started: the slot stays with the driver until done(). */
static void sync_timeout(struct ktest *t)
{
	u32 saved = blkdev_sync_timeout_ms, cancelled = atomic_read(&fake.cancelled);

	blkdev_sync_timeout_ms = 30;
	fake_mode = FAKE_HOLD;
	EXPECT_EQ(t, blkdev_rw_sync(&fake, BLK_WRITE, 0, blktest_a_phys, 1), -ETIMEDOUT);
	EXPECT_EQ(t, atomic_read(&fake.cancelled), cancelled + 1);
	EXPECT_EQ(t, atomic_read(&fake.in_flight), 0);
	fake_mode = FAKE_START;
	EXPECT_EQ(t, blkdev_rw_sync(&fake, BLK_WRITE, 0, blktest_a_phys, 1), -ETIMEDOUT);
	EXPECT_EQ(t, atomic_read(&fake.in_flight), 1);		/* abandoned, still active */
	fake_finish(0);
	blkdev_sync_timeout_ms = saved;
	fake_mode = FAKE_COMPLETE;
	for (int i = 0; i < 6; i++)				/* no sync slot leaked */
		EXPECT_EQ(t, blkdev_rw_sync(&fake, BLK_READ, i, blktest_b_phys, 1), 512);
	blktest_expect_balanced(t, &fake);
}

static void dma_pool(struct ktest *t)
{
	u32 p1, p2;
	u8 *v1 = blk_dma_alloc(4096, 4096, &p1), *v2;

	ASSERT_NOT_NULL(t, v1);
	EXPECT_EQ(t, p1 & 4095, 0);
	EXPECT_TRUE(t, blk_phys_to_virt(p1) == v1);
	EXPECT_LE(t, p1 + 4096, BLK_DIRECT_MAP_LIMIT);
	EXPECT_EQ(t, v1[0] | v1[4095], 0);
	memset(v1, 0xAB, 4096);
	blk_dma_free(v1, 4096);
	v2 = blk_dma_alloc(4096, 4096, &p2);
	EXPECT_TRUE(t, v2 == v1);				/* stack-order free */
	EXPECT_EQ(t, v2[100], 0);				/* zeroed again */
	blk_dma_free(v2, 4096);
	EXPECT_NULL(t, blk_dma_alloc(64u << 20, 4, &p2));	/* exhausted: NULL */
}

static void queue_helpers(struct ktest *t)
{
	struct blk_queue q = { NULL, NULL };
	struct blk_request r[3];

	for (int i = 0; i < 3; i++)
		blk_queue_push(&q, &r[i]);
	EXPECT_TRUE(t, blk_queue_remove(&q, &r[2]));
	EXPECT_TRUE(t, q.tail == &r[1]);
	EXPECT_FALSE(t, blk_queue_remove(&q, &r[2]));
	blk_queue_push(&q, &r[2]);
	EXPECT_TRUE(t, blk_queue_pop(&q) == &r[0]);
	EXPECT_TRUE(t, blk_queue_remove(&q, &r[1]));
	EXPECT_TRUE(t, blk_queue_pop(&q) == &r[2]);
	EXPECT_NULL(t, blk_queue_pop(&q));
	EXPECT_NULL(t, q.tail);
}

static void tsc_deadlines(struct ktest *t)
{
	u64 past = blk_deadline(0), soon = blk_deadline(5);
	u32 spins = 0;

	EXPECT_TRUE(t, blk_expired(past));
	EXPECT_FALSE(t, blk_expired(blk_deadline(1000)));
	while (!blk_expired(soon) && spins < 2000000000u)
		spins++;
	EXPECT_TRUE(t, blk_expired(soon));
}

static const struct ktest_case blkdev_cases[] = {
	KTEST_CASE(registry),
	KTEST_CASE(validation),
	KTEST_CASE(counters_follow_requests),
	KTEST_CASE(cancel_by_state),
	KTEST_CASE(resubmit_after_done),
	KTEST_CASE(sync_io),
	KTEST_CASE(sync_timeout),
	KTEST_CASE(dma_pool),
	KTEST_CASE(queue_helpers),
	KTEST_CASE(tsc_deadlines),
};
KTEST_SUITE(blkdev_suite, "blkdev", blkdev_cases, .init = blkdev_suite_init);
