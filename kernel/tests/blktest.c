/* blktest.c: block test helpers and the driver-independent cases that the
 * virtio_blk and ide suites run against their disks. */
#include "blktest.h"
#include "clock.h"
#include "errno.h"
#include "mm.h"
#include "spinlock.h"
#include "string.h"
#include "wait.h"

u8 *blktest_a, *blktest_b;
u32 blktest_a_phys, blktest_b_phys;
struct blktest_req blktest_reqs[BLKTEST_MAX_REQS];
volatile int blktest_completions;
static DECLARE_WAIT_QUEUE_HEAD(blktest_wq);	/* woken by every done() here */
static u32 blktest_seed = 0x5EED0001;

/* A test buffer: low memory, aligned to its size (so to 64 KiB). */
static u8 *blktest_buf(u32 *phys)
{
	u8 *v = (u8 *)__get_free_pages(GFP_KERNEL, 6);	/* 256 KiB */

	BUILD_BUG_ON(BLKTEST_BUF_SIZE != PAGE_SIZE << 6);
	if (v)
		*phys = __pa(v);
	return v;
}

int blktest_setup(void)
{
	if (!blktest_a)
		blktest_a = blktest_buf(&blktest_a_phys);
	if (!blktest_b)
		blktest_b = blktest_buf(&blktest_b_phys);
	return blktest_a && blktest_b ? 0 : -ENOMEM;
}

u32 blktest_new_seed(void)
{
	blktest_seed = blktest_seed * 1103515245u + 12345u;
	return blktest_seed;
}

void blktest_fill(void *buf, u64 sector, u32 nr, u32 seed)
{
	u32 *w = buf;

	for (u32 s = 0; s < nr; s++)
		for (u32 i = 0; i < BLK_SECTOR_SIZE / 4; i++)
			*w++ = blktest_word(sector + s, i, seed);
}

long blktest_check(const void *buf, u64 sector, u32 nr, u32 seed)
{
	const u32 *w = buf;

	for (u32 s = 0; s < nr; s++)
		for (u32 i = 0; i < BLK_SECTOR_SIZE / 4; i++, w++)
			if (*w != blktest_word(sector + s, i, seed))
				return w - (const u32 *)buf;
	return -1;
}

static void blktest_done(struct blk_request *r, int result)
{
	struct blktest_req *q = r->private;

	q->calls++;
	q->result = result;
	q->order = ++blktest_completions;
	wake_up(&blktest_wq);
}

struct blk_request *blktest_prep(int i, enum blk_op op, u64 sector, u32 nr, u32 phys)
{
	struct blktest_req *q = &blktest_reqs[i];

	memset(q, 0, sizeof(*q));
	q->req.op = op;
	q->req.done = blktest_done;
	q->req.private = q;
	q->req.seg = q->seg;
	if (op != BLK_FLUSH) {
		q->req.sector = sector;
		q->req.nr_sectors = nr;
		q->seg[0].phys = phys;
		q->seg[0].len = nr * BLK_SECTOR_SIZE;
		q->req.nr_seg = 1;
	}
	return &q->req;
}

bool blktest_wait(int target, u32 ms)
{
	return wait_event_timeout(blktest_wq, blktest_completions >= target,
				  msecs_to_jiffies(ms)) > 0;
}

static void blktest_rw_done(struct blk_request *r, int result)
{
	wake_up(&blktest_wq);
}

int blktest_rw(struct blkdev *dev, enum blk_op op, u64 sector, u32 phys, u32 nr)
{
	struct blk_seg seg = { phys, nr * BLK_SECTOR_SIZE, NULL, 0 };
	struct blk_request r = { .op = op, .done = blktest_rw_done };
	int err;

	if (op != BLK_FLUSH) {
		r.sector = sector;
		r.nr_sectors = nr;
		r.seg = &seg;
		r.nr_seg = 1;
	}
	if ((err = blkdev_submit(dev, &r)))
		return err;
	blkdev_kick(dev);
	if (!wait_event_timeout(blktest_wq, READ_ONCE(r.state) == BLK_REQ_DONE,
				msecs_to_jiffies(BLKTEST_WAIT_MS))) {
		if (blktest_cancel_req(dev, &r))
			return -ETIMEDOUT;
		wait_event(blktest_wq, READ_ONCE(r.state) == BLK_REQ_DONE);	/* the device has it */
	}
	return r.result;
}

void blktest_expect_balanced(struct ktest *t, struct blkdev *dev)
{
	EXPECT_EQ(t, atomic_read(&dev->submitted),
		  atomic_read(&dev->completed) + atomic_read(&dev->cancelled));
	EXPECT_EQ(t, atomic_read(&dev->in_flight), 0);
}

bool blktest_roundtrip(struct ktest *t, struct blkdev *dev, u64 sector, u32 nr)
{
	u32 seed = blktest_new_seed(), bytes = nr * BLK_SECTOR_SIZE;

	blktest_fill(blktest_a, sector, nr, seed);
	if (!EXPECT_EQ(t, blktest_rw(dev, BLK_WRITE, sector, blktest_a_phys, nr), bytes))
		return false;
	memset(blktest_b, 0, bytes);
	if (!EXPECT_EQ(t, blktest_rw(dev, BLK_READ, sector, blktest_b_phys, nr), bytes))
		return false;
	if (!EXPECT_EQ(t, blktest_check(blktest_b, sector, nr, seed), -1)) {
		ktest_log("%s: sector %llu x%u reads back wrong", dev->name, sector, nr);
		return false;
	}
	return true;
}

void blktest_rw_sizes(struct ktest *t, struct blkdev *dev)
{
	static const u32 sizes[] = { 1, 2, 8, 17, 128, 255, 256 };	/* 512 B .. 128 KiB */
	u64 offsets[] = { 0, 1, 63, 4097, 0 };

	for (u32 i = 0; i < ARRAY_SIZE(sizes); i++) {
		u32 nr = MIN(sizes[i], dev->max_sectors);
		offsets[ARRAY_SIZE(offsets) - 1] = dev->nr_sectors - nr;	/* the very end */
		for (u32 j = 0; j < ARRAY_SIZE(offsets); j++)
			if (!blktest_roundtrip(t, dev, offsets[j], nr))
				return;
	}
}

/* Submit one prepared request, kick, and wait for it. */
static int blktest_run_one(struct ktest *t, struct blkdev *dev, struct blk_request *r)
{
	int target = blktest_completions + 1, err = blkdev_submit(dev, r);

	if (err)
		return err;
	blkdev_kick(dev);
	if (!EXPECT_TRUE(t, blktest_wait(target, BLKTEST_WAIT_MS)))
		return -ETIMEDOUT;
	return ((struct blktest_req *)r->private)->result;
}

/* Scatter list over buffer a: odd sizes, one piece across a 64 KiB boundary,
 * one piece of 96 KiB crossing two. Total 128 KiB, 256 sectors. */
static const struct { u32 off, len; } blktest_layout[] = {
	{ 0, 512 }, { 8192, 3584 }, { 65536 - 2048, 8192 }, { 100 << 10, 4096 },
	{ 128 << 10, 96 << 10 }, { 240 << 10, 16384 },
};

static struct blk_request *blktest_prep_scatter(enum blk_op op, u64 sector)
{
	struct blk_request *r = blktest_prep(0, op, sector, 0, 0);
	u32 total = 0;

	for (u32 i = 0; i < ARRAY_SIZE(blktest_layout); i++) {
		r->seg[i].phys = blktest_a_phys + blktest_layout[i].off;
		r->seg[i].len = blktest_layout[i].len;
		total += blktest_layout[i].len;
	}
	r->nr_seg = ARRAY_SIZE(blktest_layout);
	r->nr_sectors = total / BLK_SECTOR_SIZE;
	return r;
}

/* Copy between buffer b (contiguous) and the scatter pieces of buffer a. */
static void blktest_scatter(bool to_a)
{
	u32 pos = 0;

	for (u32 i = 0; i < ARRAY_SIZE(blktest_layout); i++) {
		u8 *piece = blktest_a + blktest_layout[i].off;
		if (to_a)
			memcpy(piece, blktest_b + pos, blktest_layout[i].len);
		else
			memcpy(blktest_b + pos, piece, blktest_layout[i].len);
		pos += blktest_layout[i].len;
	}
}

void blktest_multi_segment(struct ktest *t, struct blkdev *dev)
{
	u64 sector = 3001;
	u32 seed = blktest_new_seed(), nr, bytes;
	struct blk_request *r = blktest_prep_scatter(BLK_WRITE, sector);

	nr = r->nr_sectors;
	bytes = nr * BLK_SECTOR_SIZE;
	ASSERT_EQ(t, bytes, 128u << 10);
	blktest_fill(blktest_b, sector, nr, seed);
	blktest_scatter(true);
	ASSERT_EQ(t, blktest_run_one(t, dev, r), bytes);
	memset(blktest_b, 0, bytes);				/* contiguous read back */
	ASSERT_EQ(t, blktest_rw(dev, BLK_READ, sector, blktest_b_phys, nr), bytes);
	EXPECT_EQ(t, blktest_check(blktest_b, sector, nr, seed), -1);
	memset(blktest_a, 0, BLKTEST_BUF_SIZE);			/* scattered read */
	r = blktest_prep_scatter(BLK_READ, sector);
	ASSERT_EQ(t, blktest_run_one(t, dev, r), bytes);
	memset(blktest_b, 0, bytes);
	blktest_scatter(false);
	EXPECT_EQ(t, blktest_check(blktest_b, sector, nr, seed), -1);
	blktest_expect_balanced(t, dev);
}

/* n one-sector requests at spread sectors, all submitted before one kick.
 * Returns how many were ACTIVE right after the kick (interrupts still off). */
static int blktest_batch(struct ktest *t, struct blkdev *dev, enum blk_op op, int n,
			 u32 phys, void (*after_kick)(void))
{
	int target = blktest_completions + n, active = 0;
	u32 flags = local_irq_save();

	for (int i = 0; i < n; i++) {
		struct blk_request *r = blktest_prep(i, op, 5000 + i * 3, 1,
						     phys + i * BLK_SECTOR_SIZE);
		EXPECT_EQ(t, blkdev_submit(dev, r), 0);
	}
	blkdev_kick(dev);
	if (after_kick)
		after_kick();
	for (int i = 0; i < n; i++)
		active += blktest_reqs[i].req.state == BLK_REQ_ACTIVE;
	local_irq_restore(flags);
	EXPECT_TRUE(t, blktest_wait(target, BLKTEST_WAIT_MS));
	for (int i = 0; i < n; i++) {
		EXPECT_EQ(t, blktest_reqs[i].calls, 1);
		EXPECT_EQ(t, blktest_reqs[i].result, BLK_SECTOR_SIZE);
	}
	return active;
}

int blktest_many_active;	/* ACTIVE right after the write batch's kick */
void (*blktest_many_hook)(void);	/* run right after that kick, interrupts off */

void blktest_many(struct ktest *t, struct blkdev *dev, int n)
{
	u32 seed = blktest_new_seed();

	ASSERT_TRUE(t, n <= BLKTEST_MAX_REQS && (u32)n * BLK_SECTOR_SIZE <= BLKTEST_BUF_SIZE);
	for (int i = 0; i < n; i++)
		blktest_fill(blktest_a + i * BLK_SECTOR_SIZE, 5000 + i * 3, 1, seed);
	blktest_many_active = blktest_batch(t, dev, BLK_WRITE, n, blktest_a_phys,
					    blktest_many_hook);
	memset(blktest_b, 0, n * BLK_SECTOR_SIZE);
	blktest_batch(t, dev, BLK_READ, n, blktest_b_phys, NULL);
	for (int i = 0; i < n; i++)
		if (!EXPECT_EQ(t, blktest_check(blktest_b + i * BLK_SECTOR_SIZE, 5000 + i * 3,
						1, seed), -1))
			break;
	blktest_expect_balanced(t, dev);
}

static int blktest_submit_bad(struct blkdev *dev, struct blk_request *r)
{
	int err = blkdev_submit(dev, r);

	return err ? err : -9999;	/* accepted: never expected here */
}

void blktest_invalid(struct ktest *t, struct blkdev *dev)
{
	int before = atomic_read(&dev->submitted);
	u64 end = dev->nr_sectors;
	struct blk_request *r;

	r = blktest_prep(0, BLK_READ, end - 1, 2, blktest_b_phys);
	EXPECT_EQ(t, blktest_submit_bad(dev, r), -EINVAL);	/* runs past the end */
	r = blktest_prep(0, BLK_READ, end, 1, blktest_b_phys);
	EXPECT_EQ(t, blktest_submit_bad(dev, r), -EINVAL);	/* starts at the end */
	r = blktest_prep(0, BLK_WRITE, ~0ull - 1, 4, blktest_b_phys);
	EXPECT_EQ(t, blktest_submit_bad(dev, r), -EINVAL);	/* wraps around */
	r = blktest_prep(0, BLK_READ, 0, dev->max_sectors + 1, blktest_b_phys);
	EXPECT_EQ(t, blktest_submit_bad(dev, r), -EINVAL);	/* too long */
	r = blktest_prep(0, BLK_READ, 0, 1, blktest_b_phys);
	r->seg[0].len = 256;
	r->seg[1] = (struct blk_seg){ blktest_b_phys + 4096, 256, NULL, 0 };
	r->nr_seg = 2;
	EXPECT_EQ(t, blktest_submit_bad(dev, r), -EINVAL);	/* half-sector segments */
	r = blktest_prep(0, BLK_READ, 0, 1, blktest_b_phys + 2);
	EXPECT_EQ(t, blktest_submit_bad(dev, r), -EINVAL);	/* misaligned address */
	r = blktest_prep(0, BLK_READ, 0, 1, blktest_b_phys);
	r->seg[0].len = 1024;
	EXPECT_EQ(t, blktest_submit_bad(dev, r), -EINVAL);	/* total != nr * 512 */
	r = blktest_prep(0, BLK_FLUSH, 0, 0, 0);
	r->nr_sectors = 1;
	EXPECT_EQ(t, blktest_submit_bad(dev, r), -EINVAL);	/* flush with data */
	r = blktest_prep(0, 7, 0, 1, blktest_b_phys);
	EXPECT_EQ(t, blktest_submit_bad(dev, r), -EINVAL);	/* no such op */
	EXPECT_EQ(t, blktest_reqs[0].calls, 0);
	EXPECT_EQ(t, blktest_reqs[0].req.state, BLK_REQ_NEW);
	EXPECT_EQ(t, atomic_read(&dev->submitted), before);
	blktest_expect_balanced(t, dev);
}

void blktest_cancel(struct ktest *t, struct blkdev *dev, int n)
{
	int target = blktest_completions + n - 1, queued = -1;
	int cancelled = atomic_read(&dev->cancelled);
	u32 flags = local_irq_save();

	for (int i = 0; i < n; i++)
		blkdev_submit(dev, blktest_prep(i, BLK_READ, 7000 + 2 * i, 1,	/* gaps: no merging */
						blktest_b_phys + i * BLK_SECTOR_SIZE));
	blkdev_kick(dev);
	for (int i = n - 1; i >= 0 && queued < 0; i--)
		if (blktest_reqs[i].req.state == BLK_REQ_QUEUED)
			queued = i;
	if (queued >= 0) {
		EXPECT_TRUE(t, blktest_cancel_req(dev, &blktest_reqs[queued].req));
		EXPECT_EQ(t, blktest_reqs[queued].req.state, BLK_REQ_NEW);
		EXPECT_FALSE(t, blktest_cancel_req(dev, &blktest_reqs[queued].req));
	}
	EXPECT_EQ(t, blktest_reqs[0].req.state, BLK_REQ_ACTIVE);
	EXPECT_FALSE(t, blktest_cancel_req(dev, &blktest_reqs[0].req));
	local_irq_restore(flags);
	ASSERT_TRUE(t, queued >= 0);
	EXPECT_TRUE(t, blktest_wait(target, BLKTEST_WAIT_MS));
	EXPECT_FALSE(t, blktest_cancel_req(dev, &blktest_reqs[0].req));	/* done */
	for (int i = 0; i < n; i++) {				/* withdrawn: never done() */
		EXPECT_EQ(t, blktest_reqs[i].calls, i == queued ? 0 : 1);
		EXPECT_EQ(t, blktest_reqs[i].result, i == queued ? 0 : BLK_SECTOR_SIZE);
	}
	EXPECT_EQ(t, atomic_read(&dev->cancelled), cancelled + 1);
	blktest_expect_balanced(t, dev);
}

void blktest_flush(struct ktest *t, struct blkdev *dev)
{
	struct blk_request *r;

	EXPECT_EQ(t, blktest_rw(dev, BLK_FLUSH, 0, 0, 0), 0);
	r = blktest_prep(0, BLK_FLUSH, 0, 0, 0);
	EXPECT_EQ(t, blktest_run_one(t, dev, r), 0);
	EXPECT_EQ(t, blktest_reqs[0].calls, 1);
	blktest_expect_balanced(t, dev);
}
