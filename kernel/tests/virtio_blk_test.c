/* virtio_blk_test.c: the "virtio_blk" suite: vda (16 MiB, virtio-blk-pci) end to end.
 * Run only when named (needs the disk of the blk_virtio plan entry). */
#include "blktest.h"
#include "errno.h"
#include "virtio_blk.h"

#define VDA_SECTORS	32768	/* the plan entry's 16 MiB image */

static struct blkdev *vda;
static u32 notify_before, notify_after;

static int virtio_blk_suite_init(void)
{
	vda = blkdev_find("vda");
	return vda && virtio_blk_vq(vda) ? blktest_setup() : -ENODEV;
}

static void capacity_and_features(struct ktest *t)
{
	struct virtqueue *vq = virtio_blk_vq(vda);

	EXPECT_EQ(t, vda->nr_sectors, VDA_SECTORS);
	EXPECT_TRUE(t, vda->flags & BLKDEV_F_DMA);
	EXPECT_TRUE(t, vda->flags & BLKDEV_F_FLUSH);	/* QEMU offers VIRTIO_BLK_F_FLUSH */
	EXPECT_GE(t, vq->num, 16);
	EXPECT_EQ(t, vq->num & (vq->num - 1), 0);
	EXPECT_EQ(t, vq->nr_free, vq->num);
	EXPECT_GE(t, vda->max_segs, 8);
	EXPECT_TRUE(t, blkdev_find("vdb") == NULL);
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
	notify_after = virtio_blk_vq(vda)->nr_notify;
}

/* 128 requests in one batch: the ring holds num/3 chains at once, the rest
 * wait in the software queue and are fed from the interrupt handler. */
static void many_in_flight_one_notify(struct ktest *t)
{
	struct virtqueue *vq = virtio_blk_vq(vda);

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

static void counters_balanced(struct ktest *t)
{
	ktest_log("vda: submitted %d completed %d errors %d cancelled %d",
		  atomic_read(&vda->submitted), atomic_read(&vda->completed),
		  atomic_read(&vda->errors), atomic_read(&vda->cancelled));
	EXPECT_GE(t, atomic_read(&vda->submitted), 400);
	EXPECT_EQ(t, atomic_read(&vda->errors), 0);
	blktest_expect_balanced(t, vda);
	EXPECT_EQ(t, virtio_blk_vq(vda)->nr_free, virtio_blk_vq(vda)->num);
}

static const struct ktest_case virtio_blk_cases[] = {
	KTEST_CASE(capacity_and_features),
	KTEST_CASE(rw_sizes_and_offsets),
	KTEST_CASE(multi_segment),
	KTEST_CASE(many_in_flight_one_notify),
	KTEST_CASE(cancel_queued_not_active),
	KTEST_CASE(flush),
	KTEST_CASE(invalid_requests),
	KTEST_CASE(counters_balanced),
};
KTEST_SUITE(virtio_blk_suite, "virtio_blk", virtio_blk_cases,
	    .init = virtio_blk_suite_init, .explicit_only = true);
