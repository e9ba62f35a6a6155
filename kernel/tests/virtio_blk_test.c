/* virtio_blk_test.c: the "virtio_blk" suite: vda (16 MiB) and vdb (8 MiB), two
 * virtio-blk-pci functions, each with its MSI-X vectors (or, with nomsi, their
 * INTA lines, which QEMU routes to the same ISA IRQ).
 * Run only when named (needs the disks of the blk_virtio plan entry). */
#include "blktest.h"
#include "errno.h"
#include "irq.h"
#include "pci.h"
#include "spinlock.h"
#include "virtio_blk.h"

#define VDA_SECTORS	32768	/* the plan entry's 16 MiB image */
#define VDB_SECTORS	16384	/* and its 8 MiB one */

static struct blkdev *vda, *vdb;
static u32 notify_before, notify_after;

static int virtio_blk_suite_init(void)
{
	vda = blkdev_find("vda");
	vdb = blkdev_find("vdb");
	return vda && vdb && virtio_blk_vq(vda, 0) ? blktest_setup() : -ENODEV;
}

static void capacity_and_features(struct ktest *t)
{
	struct virtqueue *vq = virtio_blk_vq(vda, 0);

	EXPECT_EQ(t, vda->nr_sectors, VDA_SECTORS);
	EXPECT_TRUE(t, vda->flags & BLKDEV_F_DMA);
	EXPECT_TRUE(t, vda->flags & BLKDEV_F_FLUSH);	/* QEMU offers VIRTIO_BLK_F_FLUSH */
	EXPECT_GE(t, vq->num, 16);
	EXPECT_EQ(t, vq->num & (vq->num - 1), 0);
	EXPECT_EQ(t, vq->nr_free, vq->num);
	EXPECT_GE(t, vda->max_segs, 8);
	EXPECT_EQ(t, vdb->nr_sectors, VDB_SECTORS);	/* probe order = slot order */
	EXPECT_NULL(t, blkdev_find("vdc"));
}

static void rw_sizes_and_offsets(struct ktest *t)
{
	blktest_rw_sizes(t, vda);
	blktest_expect_balanced(t, vda);
}

static void multi_segment(struct ktest *t)
{
	blktest_multi_segment(t, vda);
}

static void record_notify(void)
{
	notify_after = virtio_blk_vq(vda, 0)->nr_notify;
}

/* 128 requests in one batch: the ring holds num/3 chains at once, the rest
 * wait in the software queue and are fed from the interrupt handler. */
static void many_in_flight_one_notify(struct ktest *t)
{
	struct virtqueue *vq = virtio_blk_vq(vda, 0);

	notify_before = vq->nr_notify;
	blktest_many_hook = record_notify;
	blktest_many(t, vda, 128);
	blktest_many_hook = NULL;
	ktest_log("%d of 128 on the ring after one kick; %u doorbells in all",
		  blktest_many_active, vq->nr_notify - notify_before);
	EXPECT_EQ(t, notify_after - notify_before, 1);
	EXPECT_GE(t, blktest_many_active, 64);
	EXPECT_EQ(t, blktest_many_active, MIN(128, vq->num / 3));
	EXPECT_EQ(t, vq->nr_free, vq->num);
}

static void cancel_queued_not_active(struct ktest *t)
{
	blktest_cancel(t, vda, 128);	/* more than the ring holds: some stay QUEUED */
}

static void flush(struct ktest *t)
{
	blktest_flush(t, vda);
}

static void invalid_requests(struct ktest *t)
{
	blktest_invalid(t, vda);
}

/* 32 writes on each disk in one go. With INTx (nomsi) both interrupt on one
 * line: each handler must take only its own completions (ISR) and ignore the
 * other's; with MSI-X each disk has its own IRQ and both arrive. */
static void two_disks_interrupts(struct ktest *t)
{
	struct pci_dev *p0 = pci_find(0x1AF4, 0x1001, 0), *p1 = pci_find(0x1AF4, 0x1001, 1);
	struct virtio_blk_irqs *qa = virtio_blk_irqs(vda), *qb = virtio_blk_irqs(vdb);
	int target = blktest_completions + 64;
	u32 seed = blktest_new_seed(), irqs_a, irqs_b, flags;

	ASSERT_TRUE(t, p0 && p1 && qa && qb);
	EXPECT_EQ(t, qa->msix_on, qb->msix_on);
	if (qa->msix_on) {
		EXPECT_NE(t, qa->q[0].irq, qb->q[0].irq);
	} else {
		EXPECT_EQ(t, p0->irq_line, p1->irq_line);
		EXPECT_EQ(t, qa->q[0].irq, p0->irq_line);
	}
	irqs_a = irq_count[qa->q[0].irq];
	irqs_b = irq_count[qb->q[0].irq];
	blktest_fill(blktest_a, 200, 64, seed);
	flags = local_irq_save();
	for (int i = 0; i < 64; i++)
		EXPECT_EQ(t, blkdev_submit(i < 32 ? vda : vdb,
			blktest_prep(i, BLK_WRITE, 200 + i, 1, blktest_a_phys + i * 512)), 0);
	blkdev_kick(vda);
	blkdev_kick(vdb);
	local_irq_restore(flags);
	ASSERT_TRUE(t, blktest_wait(target, BLKTEST_WAIT_MS));
	for (int i = 0; i < 64; i++)
		EXPECT_EQ(t, blktest_reqs[i].result, 512);
	EXPECT_GE(t, irq_count[qa->q[0].irq] - irqs_a, 1);
	EXPECT_GE(t, irq_count[qb->q[0].irq] - irqs_b, 1);
	ASSERT_EQ(t, blktest_rw(vda, BLK_READ, 200, blktest_b_phys, 32), 32 * 512);
	ASSERT_EQ(t, blktest_rw(vdb, BLK_READ, 232, blktest_b_phys + 32 * 512, 32), 32 * 512);
	EXPECT_EQ(t, blktest_check(blktest_b, 200, 64, seed), -1);
	blktest_expect_balanced(t, vdb);
}

static void counters_balanced(struct ktest *t)
{
	ktest_log("vda: submitted %d completed %d errors %d cancelled %d",
		  atomic_read(&vda->submitted), atomic_read(&vda->completed),
		  atomic_read(&vda->errors), atomic_read(&vda->cancelled));
	EXPECT_GE(t, atomic_read(&vda->submitted), 400);
	EXPECT_EQ(t, atomic_read(&vda->errors), 0);
	blktest_expect_balanced(t, vda);
	EXPECT_EQ(t, virtio_blk_vq(vda, 0)->nr_free, virtio_blk_vq(vda, 0)->num);
}

static const struct ktest_case virtio_blk_cases[] = {
	KTEST_CASE(capacity_and_features),
	KTEST_CASE(rw_sizes_and_offsets),
	KTEST_CASE(multi_segment),
	KTEST_CASE(many_in_flight_one_notify),
	KTEST_CASE(cancel_queued_not_active),
	KTEST_CASE(flush),
	KTEST_CASE(invalid_requests),
	KTEST_CASE(two_disks_interrupts),
	KTEST_CASE(counters_balanced),
};
KTEST_SUITE(virtio_blk_suite, "virtio_blk", virtio_blk_cases,
	    .init = virtio_blk_suite_init, .explicit_only = true);
