/* blk_pattern_test.c: the "blk_pattern" suite: write a known pattern at known sectors
 * of vda and hda and flush, for tools/blk_check.py to verify in the image files
 * after QEMU exits. Run only when named (blk_pattern plan entry). */
#include "blktest.h"
#include "errno.h"

/* Keep in step with tools/blk_check.py. */
#define BLK_PATTERN_SEED_VDA	0x56444101u
#define BLK_PATTERN_SEED_HDA	0x48444101u

static const struct { u32 sector, nr; } blk_pattern_regions[] = {
	{ 0, 1 }, { 1, 7 }, { 100, 64 }, { 2048, 256 }, { 32760, 8 },
};

static int blk_pattern_suite_init(void)
{
	return blktest_setup();
}

static void write_regions(struct ktest *t, const char *name, u32 seed)
{
	struct blkdev *dev = blkdev_find(name);

	ASSERT_NOT_NULL(t, dev);
	for (u32 i = 0; i < ARRAY_SIZE(blk_pattern_regions); i++) {
		u32 s = blk_pattern_regions[i].sector, nr = blk_pattern_regions[i].nr;
		blktest_fill(blktest_a, s, nr, seed);
		EXPECT_EQ(t, blktest_rw(dev, BLK_WRITE, s, blktest_a_phys, nr),
			  nr * BLK_SECTOR_SIZE);
	}
	EXPECT_EQ(t, blktest_rw(dev, BLK_FLUSH, 0, 0, 0), 0);
	blktest_expect_balanced(t, dev);
}

static void write_vda(struct ktest *t)
{
	write_regions(t, "vda", BLK_PATTERN_SEED_VDA);
}

static void write_hda(struct ktest *t)
{
	write_regions(t, "hda", BLK_PATTERN_SEED_HDA);
}

static const struct ktest_case blk_pattern_cases[] = {
	KTEST_CASE(write_vda),
	KTEST_CASE(write_hda),
};
KTEST_SUITE(blk_pattern_suite, "blk_pattern", blk_pattern_cases,
	    .init = blk_pattern_suite_init, .explicit_only = true);
