/* blk_fault_test.c: the "blk_fault" suite: QEMU's blkdebug fails reads of sector 1000
 * (tools/blkdebug.conf) on vda and hda; completions must carry -EIO, nothing
 * may hang, the good sectors keep working and the counters balance.
 * Run only when named (blk_fault plan entry). */
#include "blktest.h"
#include "errno.h"

#define BAD_SECTOR	1000	/* keep in step with tools/blkdebug.conf */

static int blk_fault_suite_init(void)
{
	return blktest_setup();
}

static void sync_reads(struct ktest *t, struct blkdev *dev)
{
	int errors = atomic_read(&dev->errors);

	EXPECT_EQ(t, blktest_rw(dev, BLK_READ, 0, blktest_b_phys, 64), 64 * 512);
	EXPECT_EQ(t, blktest_rw(dev, BLK_READ, BAD_SECTOR, blktest_b_phys, 1), -EIO);
	EXPECT_EQ(t, blktest_rw(dev, BLK_READ, BAD_SECTOR - 10, blktest_b_phys, 20), -EIO);
	EXPECT_EQ(t, blktest_rw(dev, BLK_READ, BAD_SECTOR + 1, blktest_b_phys, 8), 8 * 512);
	EXPECT_EQ(t, blktest_rw(dev, BLK_WRITE, BAD_SECTOR, blktest_a_phys, 1), 512);
	EXPECT_EQ(t, atomic_read(&dev->errors), errors + 2);
	blktest_expect_balanced(t, dev);
}

/* 16 one-sector reads around the bad sector in one batch: exactly one fails.
 * Every other sector, so QEMU cannot merge neighbours into one failing read. */
static void batch_reads(struct ktest *t, struct blkdev *dev)
{
	int target = blktest_completions + 16, errors = atomic_read(&dev->errors);

	for (int i = 0; i < 16; i++)
		EXPECT_EQ(t, blkdev_submit(dev, blktest_prep(i, BLK_READ, BAD_SECTOR - 16 + 2 * i, 1,
							      blktest_b_phys + i * 512)), 0);
	blkdev_kick(dev);
	ASSERT_TRUE(t, blktest_wait(target, BLKTEST_WAIT_MS));
	for (int i = 0; i < 16; i++) {
		EXPECT_EQ(t, blktest_reqs[i].calls, 1);
		EXPECT_EQ(t, blktest_reqs[i].result, i == 8 ? -EIO : 512);
	}
	EXPECT_EQ(t, atomic_read(&dev->errors), errors + 1);
	blktest_expect_balanced(t, dev);
}

/* After the errors the device still reads and writes correctly. */
static void still_works(struct ktest *t, struct blkdev *dev)
{
	u32 seed = blktest_new_seed();

	blktest_fill(blktest_a, 3000, 32, seed);
	ASSERT_EQ(t, blktest_rw(dev, BLK_WRITE, 3000, blktest_a_phys, 32), 32 * 512);
	ASSERT_EQ(t, blktest_rw(dev, BLK_READ, 3000, blktest_b_phys, 32), 32 * 512);
	EXPECT_EQ(t, blktest_check(blktest_b, 3000, 32, seed), -1);
	ktest_log("%s: submitted %d completed %d errors %d", dev->name,
		  atomic_read(&dev->submitted), atomic_read(&dev->completed),
		  atomic_read(&dev->errors));
	EXPECT_EQ(t, atomic_read(&dev->errors), 3);
	blktest_expect_balanced(t, dev);
}

#define ON(dev, fn) static void fn##_##dev(struct ktest *t)		\
	{ struct blkdev *d = blkdev_find(#dev); ASSERT_NOT_NULL(t, d); fn(t, d); }
ON(vda, sync_reads)
ON(vda, batch_reads)
ON(vda, still_works)
ON(hda, sync_reads)
ON(hda, batch_reads)
ON(hda, still_works)

static const struct ktest_case blk_fault_cases[] = {
	KTEST_CASE(sync_reads_vda),
	KTEST_CASE(batch_reads_vda),
	KTEST_CASE(still_works_vda),
	KTEST_CASE(sync_reads_hda),
	KTEST_CASE(batch_reads_hda),
	KTEST_CASE(still_works_hda),
};
KTEST_SUITE(blk_fault_suite, "blk_fault", blk_fault_cases,
	    .init = blk_fault_suite_init, .explicit_only = true);
