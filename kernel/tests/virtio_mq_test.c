/* virtio_mq_test.c: the "virtio_mq" suite: a multi-queue virtio disk
 * (VIRTIO_BLK_F_MQ, QEMU num-queues=4) on 4 CPUs: one request queue per CPU,
 * each with its MSI-X message naming that CPU; a request submitted on CPU n
 * (an IPI handler there) goes to queue n and completes on CPU n; then queue
 * 0's message aimed at each AP in turn while CPU 0 keeps submitting, so the
 * driver's reaping on the AP races CPU 0's submissions on the same queue
 * lock, with every byte checked. The completion callbacks here use atomics
 * only: the AIO path's completions wait for tasks on every CPU (smp.h).
 * Run only when named: it needs vda with 4 queues and 4 CPUs. */
#include "blktest.h"
#include "clock.h"
#include "errno.h"
#include "irq.h"
#include "pci.h"
#include "smp.h"
#include "spinlock.h"
#include "string.h"
#include "trap.h"
#include "virtio_blk.h"
#include "x86.h"

#define MQ_BATCH	48		/* requests per steered round (slots 0..) */
#define MQ_WAIT_MS	10000
#define MQ_SECTOR	2048		/* where the suite writes */

static struct blkdev *vda;
static struct virtio_blk_irqs *qi;
static u32 mq_done;			/* completions seen; atomic */
static u32 done_cpu[BLKTEST_MAX_REQS];	/* the CPU each slot completed on */

static int virtio_mq_suite_init(void)
{
	vda = blkdev_find("vda");
	qi = virtio_blk_irqs(vda);
	return qi ? blktest_setup() : -ENODEV;
}

/* Completion callback, on whichever CPU the queue's message names: atomics
 * and stores to its own slot only. */
static void mq_done_fn(struct blk_request *r, int result)
{
	struct blktest_req *q = r->private;
	u32 slot = q - blktest_reqs;

	q->result = result;
	q->calls++;
	done_cpu[slot] = smp_processor_id();
	__atomic_fetch_add(&mq_done, 1, __ATOMIC_RELEASE);
}

static struct blk_request *mq_prep(int slot, enum blk_op op, u64 sector, u32 phys)
{
	struct blk_request *r = blktest_prep(slot, op, sector, 1, phys);

	r->done = mq_done_fn;
	done_cpu[slot] = NR_CPUS;
	return r;
}

static bool mq_wait(u32 target)
{
	for (u32 ms = 0; ms < MQ_WAIT_MS; ms++) {
		if (__atomic_load_n(&mq_done, __ATOMIC_ACQUIRE) >= target)
			return true;
		udelay(1000);
	}
	return false;
}

/* One queue per CPU, queue n's MSI-X entry (1 + n) naming CPU n with its
 * own vector, and the device holding that entry for queue n. */
static void queue_per_cpu(struct ktest *t)
{
	u16 io = qi->msix.pdev->bar[0].base;

	ASSERT_TRUE(t, qi->msix_on);
	ASSERT_EQ(t, nr_cpus_online, 4);
	ASSERT_EQ(t, qi->nr_queues, 4);
	for (u16 n = 0; n < qi->nr_queues; n++) {
		u32 dest;
		u8 vec;
		bool masked;

		ASSERT_NOT_NULL(t, virtio_blk_vq(vda, n));
		EXPECT_EQ(t, virtio_blk_vq(vda, n)->index, n);
		EXPECT_EQ(t, qi->q[n].cpu, n);
		ASSERT_EQ(t, pci_msix_get_entry(&qi->msix, 1 + n, &dest, &vec, &masked), 0);
		EXPECT_EQ(t, dest, cpus[n].apic_id);
		EXPECT_EQ(t, vec, T_IRQ_BASE + qi->q[n].irq);
		EXPECT_FALSE(t, masked);
		EXPECT_EQ(t, virtio_legacy_queue_vector(io, n), 1 + n);
		for (u16 m = 0; m < n; m++)
			EXPECT_NE(t, qi->q[m].irq, qi->q[n].irq);
	}
	EXPECT_NULL(t, virtio_blk_vq(vda, qi->nr_queues));
}

/* Run on every AP in its call-function IPI: submit one read there. */
static void submit_here(void *arg)
{
	u32 me = smp_processor_id();

	blkdev_submit(vda, mq_prep(me, BLK_READ, MQ_SECTOR + me, blktest_b_phys + me * 512));
	blkdev_kick(vda);
}

/* A read submitted on CPU n rings queue n's doorbell and completes on CPU n,
 * through queue n's interrupt. */
static void submit_on_cpu_n_completes_on_cpu_n(struct ktest *t)
{
	u32 notify[VIRTIO_BLK_MAX_QUEUES], intr[VIRTIO_BLK_MAX_QUEUES];
	u32 target = __atomic_load_n(&mq_done, __ATOMIC_ACQUIRE) + nr_cpus_online, flags;

	ASSERT_EQ(t, qi->nr_queues, nr_cpus_online);
	for (u16 n = 0; n < qi->nr_queues; n++) {
		notify[n] = virtio_blk_vq(vda, n)->nr_notify;
		intr[n] = qi->q[n].intr_cpu[n];
	}
	flags = local_irq_save();
	submit_here(NULL);			/* CPU 0, with its interrupts off too */
	local_irq_restore(flags);
	smp_call_function_start(submit_here, NULL);
	smp_call_function_wait();
	ASSERT_TRUE(t, mq_wait(target));
	for (u32 n = 0; n < nr_cpus_online; n++) {
		EXPECT_EQ(t, blktest_reqs[n].result, 512);
		EXPECT_EQ(t, blktest_reqs[n].calls, 1);
		EXPECT_EQ(t, done_cpu[n], n);
		EXPECT_EQ(t, virtio_blk_vq(vda, n)->nr_notify - notify[n], 1);
		EXPECT_GE(t, qi->q[n].intr_cpu[n] - intr[n], 1);
	}
	blktest_expect_balanced(t, vda);
}

/* CPU 0 submits a batch in four bursts while queue 0's message names cpu:
 * every completion runs there, as CPU 0 goes on feeding the same queue. */
static bool steered_round(struct ktest *t, enum blk_op op, u32 cpu, u32 phys)
{
	u32 target = __atomic_load_n(&mq_done, __ATOMIC_ACQUIRE) + MQ_BATCH;
	bool ok = true;

	for (int i = 0; i < MQ_BATCH; i++) {
		EXPECT_EQ(t, blkdev_submit(vda, mq_prep(i, op, MQ_SECTOR + 8 * i, phys + i * 512)), 0);
		if (i % (MQ_BATCH / 4) == MQ_BATCH / 4 - 1)
			blkdev_kick(vda);	/* earlier bursts may be completing */
	}
	if (!EXPECT_TRUE(t, mq_wait(target)))
		return false;
	for (int i = 0; i < MQ_BATCH; i++) {
		ok &= EXPECT_EQ(t, blktest_reqs[i].result, 512);
		ok &= EXPECT_EQ(t, blktest_reqs[i].calls, 1);
		ok &= EXPECT_EQ(t, done_cpu[i], cpu);
	}
	return ok;
}

static void completions_on_aps_while_cpu0_submits(struct ktest *t)
{
	u32 seed = blktest_new_seed();

	blktest_fill(blktest_a, 0, MQ_BATCH, seed);
	for (u32 cpu = 1; cpu < nr_cpus_online; cpu++) {
		u32 before = qi->q[0].intr_cpu[cpu];

		ASSERT_EQ(t, virtio_blk_set_queue_cpu(vda, 0, cpu), 0);
		EXPECT_EQ(t, qi->q[0].cpu, cpu);
		memset(blktest_b, 0, MQ_BATCH * 512);
		if (!steered_round(t, BLK_WRITE, cpu, blktest_a_phys) ||
		    !steered_round(t, BLK_READ, cpu, blktest_b_phys))
			break;
		EXPECT_EQ(t, memcmp(blktest_a, blktest_b, MQ_BATCH * 512), 0);
		EXPECT_GE(t, qi->q[0].intr_cpu[cpu] - before, 1);
	}
	EXPECT_EQ(t, virtio_blk_set_queue_cpu(vda, 0, 0), 0);
	EXPECT_EQ(t, virtio_blk_set_queue_cpu(vda, 0, nr_cpus_online), -EINVAL);
	EXPECT_EQ(t, virtio_blk_set_queue_cpu(vda, qi->nr_queues, 0), -EINVAL);
	EXPECT_EQ(t, blktest_rw(vda, BLK_READ, MQ_SECTOR, blktest_b_phys, 8), 4096);	/* back on 0 */
	blktest_expect_balanced(t, vda);
}

static const struct ktest_case virtio_mq_cases[] = {
	KTEST_CASE(queue_per_cpu),
	KTEST_CASE(submit_on_cpu_n_completes_on_cpu_n),
	KTEST_CASE(completions_on_aps_while_cpu0_submits),
};
KTEST_SUITE(virtio_mq_suite, "virtio_mq", virtio_mq_cases, .init = virtio_mq_suite_init,
	    .explicit_only = true);
