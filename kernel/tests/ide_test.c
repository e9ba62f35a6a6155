/* ide_test.c: the "ide" suite: hda (16 MiB) and hdb (130 GiB sparse, LBA48) on the
 * primary channel, in DMA mode or, with "ide=pio" on the command line, PIO.
 * Run only when named (needs the disks of the blk_ide plan entries). */
#include "blktest.h"
#include "cmdline.h"
#include "errno.h"
#include "irq.h"
#include "spinlock.h"
#include "string.h"

#define HDA_SECTORS	32768		/* 16 MiB image */
#define LBA28_LIMIT	(1ull << 28)
#define PRIMARY_IRQ	14

static struct blkdev *hda, *hdb;
static bool pio;

static int ide_suite_init(void)
{
	const char *mode = cmdline_get(&boot_cmdline, "ide");

	pio = mode && !strcmp(mode, "pio");
	hda = blkdev_find("hda");
	hdb = blkdev_find("hdb");
	return hda && hdb ? blktest_setup() : -ENODEV;
}

static void identify(struct ktest *t)
{
	ktest_log("mode %s", pio ? "PIO (ide=pio)" : "DMA");
	EXPECT_EQ(t, hda->nr_sectors, HDA_SECTORS);
	EXPECT_GE(t, hdb->nr_sectors, LBA28_LIMIT + 1000);
	EXPECT_TRUE(t, hdb->flags & BLKDEV_F_LBA48);
	EXPECT_EQ(t, !!(hda->flags & BLKDEV_F_DMA), !pio);
	EXPECT_EQ(t, !!(hdb->flags & BLKDEV_F_DMA), !pio);
	EXPECT_TRUE(t, hda->flags & BLKDEV_F_FLUSH);
	EXPECT_NULL(t, blkdev_find("hdc"));	/* the default CD-ROM (ATAPI) is skipped */
	EXPECT_NULL(t, blkdev_find("hdd"));
}

static void rw_sizes_and_offsets(struct ktest *t)
{
	blktest_rw_sizes(t, hda);
	blktest_expect_balanced(t, hda);
}

/* Sectors at and past 2^28 need the EXT commands; a wrong LBA48 task file
 * would alias them onto low sectors, so check a low sector stays intact. */
static void lba48_beyond_28_bits(struct ktest *t)
{
	u32 seed = blktest_new_seed();

	blktest_fill(blktest_a, 12345, 8, seed);
	ASSERT_EQ(t, blktest_rw(hdb, BLK_WRITE, 12345, blktest_a_phys, 8), 4096);
	EXPECT_TRUE(t, blktest_roundtrip(t, hdb, LBA28_LIMIT - 4, 8));	/* straddles 2^28 */
	EXPECT_TRUE(t, blktest_roundtrip(t, hdb, LBA28_LIMIT + 12345, 256));
	EXPECT_TRUE(t, blktest_roundtrip(t, hdb, hdb->nr_sectors - 17, 17));
	ASSERT_EQ(t, blktest_rw(hdb, BLK_READ, 12345, blktest_b_phys, 8), 4096);
	EXPECT_EQ(t, blktest_check(blktest_b, 12345, 8, seed), -1);
	blktest_expect_balanced(t, hdb);
}

static void multi_segment_prd_split(struct ktest *t)
{
	blktest_multi_segment(t, hda);
}

/* DMA: one interrupt per command; PIO: one per sector. */
static void interrupts_per_request(struct ktest *t)
{
	u32 before = irq_count[PRIMARY_IRQ];

	ASSERT_EQ(t, blktest_rw(hda, BLK_READ, 100, blktest_b_phys, 64), 64 * 512);
	EXPECT_EQ(t, irq_count[PRIMARY_IRQ] - before, pio ? 64 : 1);
}

/* Both drives share the channel: 8 requests alternating hda/hdb run one at a
 * time, in submission order. */
static void queued_fifo_two_drives(struct ktest *t)
{
	int base = blktest_completions, active = 0;
	bool first_active;
	u32 flags = local_irq_save();

	for (int i = 0; i < 8; i++) {
		struct blkdev *d = i & 1 ? hdb : hda;
		EXPECT_EQ(t, blkdev_submit(d, blktest_prep(i, i % 3 ? BLK_READ : BLK_WRITE,
							      9000 + i * 8, 8,
							      blktest_b_phys + i * 4096)), 0);
	}
	blkdev_kick(hda);
	blkdev_kick(hdb);
	for (int i = 0; i < 8; i++)
		active += blktest_reqs[i].req.state == BLK_REQ_ACTIVE;
	first_active = blktest_reqs[0].req.state == BLK_REQ_ACTIVE;
	local_irq_restore(flags);
	EXPECT_EQ(t, active, 1);
	EXPECT_TRUE(t, first_active);
	EXPECT_TRUE(t, blktest_wait(base + 8, BLKTEST_WAIT_MS));
	for (int i = 0; i < 8; i++) {
		EXPECT_EQ(t, blktest_reqs[i].order, base + i + 1);
		EXPECT_EQ(t, blktest_reqs[i].result, 4096);
	}
}

/* Sequential DMA requests queued together ride on one command (one interrupt);
 * in PIO mode each sector still interrupts. */
static void sequential_requests_merge(struct ktest *t)
{
	int base = blktest_completions;
	u32 before = irq_count[PRIMARY_IRQ], flags = local_irq_save();

	for (int i = 0; i < 4; i++)
		EXPECT_EQ(t, blkdev_submit(hda, blktest_prep(i, BLK_READ, 12000 + i, 1,
							     blktest_b_phys + i * 512)), 0);
	blkdev_kick(hda);
	local_irq_restore(flags);
	ASSERT_TRUE(t, blktest_wait(base + 4, BLKTEST_WAIT_MS));
	EXPECT_EQ(t, irq_count[PRIMARY_IRQ] - before, pio ? 4 : 1);
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(t, blktest_reqs[i].result, 512);
		EXPECT_EQ(t, blktest_reqs[i].order, base + i + 1);
	}
}

static void many_queued(struct ktest *t)
{
	blktest_many(t, hda, 48);
	EXPECT_EQ(t, blktest_many_active, 1);	/* one command on the wire at a time */
}

static void cancel_queued_not_active(struct ktest *t)
{
	blktest_cancel(t, hda, 4);
}

static void flush(struct ktest *t)
{
	blktest_flush(t, hda);
	blktest_flush(t, hdb);
}

static void invalid_requests(struct ktest *t)
{
	blktest_invalid(t, hda);
	blktest_invalid(t, hdb);
}

static void counters_balanced(struct ktest *t)
{
	struct blkdev *devs[] = { hda, hdb };

	for (int i = 0; i < 2; i++) {
		struct blkdev *d = devs[i];
		ktest_log("%s: submitted %d completed %d errors %d cancelled %d", d->name,
			  atomic_read(&d->submitted), atomic_read(&d->completed),
			  atomic_read(&d->errors), atomic_read(&d->cancelled));
		EXPECT_EQ(t, atomic_read(&d->errors), 0);
		blktest_expect_balanced(t, d);
	}
	EXPECT_GE(t, atomic_read(&hda->submitted), 100);
}

static const struct ktest_case ide_cases[] = {
	KTEST_CASE(identify),
	KTEST_CASE(rw_sizes_and_offsets),
	KTEST_CASE(lba48_beyond_28_bits),
	KTEST_CASE(multi_segment_prd_split),
	KTEST_CASE(interrupts_per_request),
	KTEST_CASE(queued_fifo_two_drives),
	KTEST_CASE(sequential_requests_merge),
	KTEST_CASE(many_queued),
	KTEST_CASE(cancel_queued_not_active),
	KTEST_CASE(flush),
	KTEST_CASE(invalid_requests),
	KTEST_CASE(counters_balanced),
};
KTEST_SUITE(ide_suite, "ide", ide_cases, .init = ide_suite_init, .explicit_only = true);
