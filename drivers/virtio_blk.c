/* virtio_blk.c: virtio block driver over the legacy PCI transport, one virtqueue,
 * many requests in flight, completion from the interrupt handler.
 *
 * Interrupts: MSI-X when the device has it (entry 0 for config changes,
 * entry 1 for the queue, each its own MSI IRQ aimed at the boot CPU), so the
 * queue's handler knows the interrupt is its own and never reads the ISR;
 * with nomsi on the command line (or no MSI-X) the shared INTx line, whose
 * handler reads the ISR to acknowledge it and to learn whether it was ours.
 *
 * A request becomes one descriptor chain: header (device reads), data
 * segments, status byte (device writes). Headers and status bytes live in a
 * slot array indexed by the chain's head descriptor; the slot is the chain's
 * token. Requests that find too few free descriptors wait in `pending`
 * (state QUEUED, cancellable) and are fed from the interrupt handler as
 * chains come back. Lock: vb->lock (irq-safe) guards vq, pending and slots;
 * blkdev_complete() is called after it is dropped.
 */
#include "virtio_blk.h"
#include "apic.h"
#include "cmdline.h"
#include "errno.h"
#include "irq.h"
#include "panic.h"
#include "pci.h"
#include "printk.h"
#include "slab.h"
#include "spinlock.h"
#include "string.h"
#include "trap.h"

#define VIRTIO_VENDOR		0x1AF4	/* Red Hat / virtio */
#define VIRTIO_BLK_LEGACY	0x1001	/* transitional block device */

#define VIRTIO_BLK_F_SIZE_MAX	(1u << 1)	/* config size_max: max bytes per segment */
#define VIRTIO_BLK_F_SEG_MAX	(1u << 2)	/* config seg_max: max segments per request */
#define VIRTIO_BLK_F_BLK_SIZE	(1u << 6)	/* config blk_size: logical block size */
#define VIRTIO_BLK_F_FLUSH	(1u << 9)	/* VIRTIO_BLK_T_FLUSH supported */
#define VIRTIO_BLK_WANTED	(VIRTIO_BLK_F_SIZE_MAX | VIRTIO_BLK_F_SEG_MAX | \
				 VIRTIO_BLK_F_BLK_SIZE | VIRTIO_BLK_F_FLUSH)

#define VIRTIO_BLK_CFG_CAPACITY	0x00	/* u64: size in 512-byte sectors */
#define VIRTIO_BLK_CFG_SIZE_MAX	0x08	/* u32 */
#define VIRTIO_BLK_CFG_SEG_MAX	0x0C	/* u32 */
#define VIRTIO_BLK_CFG_BLK_SIZE	0x14	/* u32 */

#define VIRTIO_BLK_T_IN		0	/* read */
#define VIRTIO_BLK_T_OUT	1	/* write */
#define VIRTIO_BLK_T_FLUSH	4	/* write back the cache */
#define VIRTIO_BLK_S_OK		0	/* status: success */
#define VIRTIO_BLK_S_IOERR	1	/* status: device or driver error */
#define VIRTIO_BLK_S_UNSUPP	2	/* status: request unsupported */

#define VIRTIO_BLK_MAX_DEVS	4	/* vda..vdd */
#define VIRTIO_BLK_MAX_SEGS	64	/* our per-request limit */
#define VIRTIO_BLK_MAX_SECTORS	1024	/* 512 KiB per request */
#define VIRTIO_BLK_MSIX_CONFIG	0	/* MSI-X entry: configuration changes */
#define VIRTIO_BLK_MSIX_QUEUE	1	/* MSI-X entry: queue 0 */

struct virtio_blk_hdr {
	u32 type;
	u32 ioprio;
	u64 sector;
} __packed;

/* Per-chain memory; the slot of head descriptor h is slots[h]. */
struct virtio_blk_slot {
	struct virtio_blk_hdr hdr;	/* device reads */
	u8 status;			/* device writes */
	u8 pad[3];
	struct blk_request *req;
} __aligned(8);

struct virtio_blk {
	struct blkdev blk;
	struct pci_dev *pdev;
	u16 io;				/* BAR0 I/O base */
	struct virtio_blk_irqs irqs;	/* how its interrupts arrive, and counts */
	u32 features;
	u32 size_max;			/* bytes per segment, 0: no limit */
	spinlock_t lock;
	/* guarded by lock: */
	struct virtqueue vq;
	struct blk_queue pending;	/* QUEUED: waiting for descriptors */
	struct virtio_blk_slot *slots;
	u32 slots_phys;
	void *ring;			/* vq's rings, vring_size bytes */
	u32 nr_spurious;
};

static struct virtio_blk virtio_blks[VIRTIO_BLK_MAX_DEVS];
static int virtio_blk_count;
static const struct blk_ops virtio_blk_ops;

static u32 virtio_blk_slot_phys(struct virtio_blk *vb, u16 head, u32 field)
{
	return vb->slots_phys + head * sizeof(struct virtio_blk_slot) + field;
}

/* Turn the first pending request into a chain; false if it does not fit now. */
static bool virtio_blk_feed_one(struct virtio_blk *vb, struct blk_request *r)
{
	struct vq_buf bufs[VIRTIO_BLK_MAX_SEGS + 2];
	u16 head = virtqueue_next_head(&vb->vq);
	struct virtio_blk_slot *s = &vb->slots[head];
	int n = 0;

	if (r->nr_seg > VIRTIO_BLK_MAX_SEGS || r->state != BLK_REQ_QUEUED)
		panic("virtio_blk: bad request %p in the queue: %u segments, state %d, op %d",
		      r, r->nr_seg, r->state, r->op);	/* would overrun bufs[] */
	if (r->nr_seg + 2 > vb->vq.nr_free)
		return false;
	s->hdr.type = r->op == BLK_READ ? VIRTIO_BLK_T_IN :
		      r->op == BLK_WRITE ? VIRTIO_BLK_T_OUT : VIRTIO_BLK_T_FLUSH;
	s->hdr.ioprio = 0;
	s->hdr.sector = r->op == BLK_FLUSH ? 0 : r->sector;
	s->status = 0xFF;			/* the device overwrites it */
	s->req = r;
	bufs[n++] = (struct vq_buf){ virtio_blk_slot_phys(vb, head, 0), sizeof(s->hdr), false };
	for (u32 i = 0; i < r->nr_seg; i++)
		bufs[n++] = (struct vq_buf){ r->seg[i].phys, r->seg[i].len, r->op == BLK_READ };
	bufs[n++] = (struct vq_buf){
		virtio_blk_slot_phys(vb, head, offsetof(struct virtio_blk_slot, status)), 1, true };
	if (virtqueue_add(&vb->vq, bufs, n, s))
		return false;
	r->state = BLK_REQ_ACTIVE;
	blk_trace_start(r);
	return true;
}

/* Move pending requests onto the ring while descriptors last, then ring the
 * doorbell once for all of them. Caller holds vb->lock. */
static void virtio_blk_feed(struct virtio_blk *vb)
{
	struct blk_request *r;

	assert_spin_locked(&vb->lock);
	while ((r = vb->pending.head) && virtio_blk_feed_one(vb, r))
		blk_queue_pop(&vb->pending);
	virtqueue_kick(&vb->vq);
}

static void virtio_blk_notify(struct virtqueue *vq)
{
	struct virtio_blk *vb = vq->priv;

	outw(vb->io + VIRTIO_PCI_QUEUE_NOTIFY, vq->index);
}

/* Completes at once (interrupts off) a flush the device has no cache for. */
static void virtio_blk_complete_now(struct blk_request *r, int result)
{
	u32 flags = local_irq_save();

	blkdev_complete(r, result);
	local_irq_restore(flags);
}

static int virtio_blk_submit(struct blkdev *dev, struct blk_request *r)
{
	struct virtio_blk *vb = dev->priv;
	u32 flags;

	if (r->op == BLK_FLUSH && !(vb->features & VIRTIO_BLK_F_FLUSH)) {
		virtio_blk_complete_now(r, 0);	/* write-through: nothing to do */
		return 0;
	}
	for (u32 i = 0; vb->size_max && i < r->nr_seg; i++)
		if (r->seg[i].len > vb->size_max)
			return -EINVAL;
	spin_lock_irqsave(&vb->lock, flags);
	blk_queue_push(&vb->pending, r);
	spin_unlock_irqrestore(&vb->lock, flags);
	return 0;
}

static void virtio_blk_kick(struct blkdev *dev)
{
	struct virtio_blk *vb = dev->priv;
	u32 flags;

	spin_lock_irqsave(&vb->lock, flags);
	virtio_blk_feed(vb);
	spin_unlock_irqrestore(&vb->lock, flags);
}

static struct blk_request *virtio_blk_cancel(struct blkdev *dev, blk_match_fn *match, void *arg)
{
	struct virtio_blk *vb = dev->priv;
	struct blk_request *r;
	u32 flags;

	spin_lock_irqsave(&vb->lock, flags);
	r = blk_queue_remove_match(&vb->pending, match, arg);
	spin_unlock_irqrestore(&vb->lock, flags);
	return r;
}

static int virtio_blk_result(struct virtio_blk *vb, struct virtio_blk_slot *s)
{
	struct blk_request *r = s->req;

	if (s->status == VIRTIO_BLK_S_OK)
		return r->nr_sectors * BLK_SECTOR_SIZE;
	pr_err("%s: %s sector %llu x%u failed, status %u\n", vb->blk.name,
	       r->op == BLK_READ ? "read" : r->op == BLK_WRITE ? "write" : "flush",
	       r->sector, r->nr_sectors, s->status);
	return -EIO;
}

/* Collect finished chains into a private list (lock held). */
static struct blk_request *virtio_blk_reap(struct virtio_blk *vb)
{
	struct blk_request *done = NULL, **tail = &done;
	struct virtio_blk_slot *s;

	while ((s = virtqueue_get_buf(&vb->vq, NULL))) {
		struct blk_request *r = s->req;
		r->result = virtio_blk_result(vb, s);
		s->req = NULL;
		r->next = NULL;
		*tail = r;
		tail = &r->next;
	}
	return done;
}

/* The queue's interrupt: reap, refill, complete. Interrupt context on the
 * CPU the interrupt was aimed at. */
static void virtio_blk_vq_intr(int irq, void *data)
{
	struct virtio_blk *vb = data;
	struct blk_request *done;

	__atomic_fetch_add(&vb->irqs.nr_intr, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&vb->irqs.intr_cpu[smp_processor_id()], 1, __ATOMIC_RELAXED);
	spin_lock(&vb->lock);
	done = virtio_blk_reap(vb);
	virtio_blk_feed(vb);
	spin_unlock(&vb->lock);
	blk_complete_list(done);
}

/* INTx handler (shared line): reading ISR acknowledges; 0 means not ours. */
static void virtio_blk_intr(int irq, void *data)
{
	struct virtio_blk *vb = data;
	u8 isr = virtio_legacy_isr(vb->io);

	vb->irqs.nr_isr_reads++;
	if (!(isr & VIRTIO_PCI_ISR_QUEUE)) {
		if (!isr)
			vb->nr_spurious++;
		return;				/* another device, or a config change */
	}
	virtio_blk_vq_intr(irq, vb);
}

/* MSI-X entry 0: the device's configuration changed (a resize); counted. */
static void virtio_blk_config_intr(int irq, void *data)
{
	struct virtio_blk *vb = data;

	__atomic_fetch_add(&vb->irqs.nr_config, 1, __ATOMIC_RELAXED);
}

static const struct blk_ops virtio_blk_ops = {
	.submit = virtio_blk_submit,
	.kick = virtio_blk_kick,
	.cancel = virtio_blk_cancel,
};

/* Rings and slots (DMA zone pages, the ring page-aligned as the legacy
 * transport wants) and the token array for a queue of num entries. */
static int virtio_blk_alloc_queue(struct virtio_blk *vb, u16 num)
{
	u32 ring_phys;

	vb->ring = blk_dma_alloc(vring_size(num, VIRTIO_LEGACY_ALIGN), &ring_phys);
	vb->vq.token = kmalloc(num * sizeof(void *), GFP_KERNEL);
	vb->slots = blk_dma_alloc(num * sizeof(struct virtio_blk_slot), &vb->slots_phys);
	if (!vb->ring || !vb->vq.token || !vb->slots)
		return -ENOMEM;
	if (virtqueue_init(&vb->vq, 0, num, vb->ring, VIRTIO_LEGACY_ALIGN, vb->vq.token))
		return -EINVAL;
	vb->vq.notify = virtio_blk_notify;
	vb->vq.priv = vb;
	virtio_legacy_setup_queue(vb->io, &vb->vq, ring_phys);
	return 0;
}

/* Undo virtio_blk_alloc_queue (any part of it), the device reset first. */
static void virtio_blk_free_queue(struct virtio_blk *vb, u16 num)
{
	virtio_legacy_set_status(vb->io, 0);	/* the device forgets the queue */
	blk_dma_free(vb->ring, vring_size(num, VIRTIO_LEGACY_ALIGN));
	blk_dma_free(vb->slots, num * sizeof(struct virtio_blk_slot));
	kfree(vb->vq.token);
	memset(&vb->vq, 0, sizeof(vb->vq));
	vb->ring = vb->slots = NULL;
}

static void virtio_blk_read_config(struct virtio_blk *vb)
{
	u32 seg_max = 0;

	vb->blk.nr_sectors = virtio_legacy_config32(vb->io, vb->irqs.msix_on, VIRTIO_BLK_CFG_CAPACITY) |
		(u64)virtio_legacy_config32(vb->io, vb->irqs.msix_on, VIRTIO_BLK_CFG_CAPACITY + 4) << 32;
	if (vb->features & VIRTIO_BLK_F_SIZE_MAX)
		vb->size_max = virtio_legacy_config32(vb->io, vb->irqs.msix_on, VIRTIO_BLK_CFG_SIZE_MAX);
	if (vb->features & VIRTIO_BLK_F_SEG_MAX)
		seg_max = virtio_legacy_config32(vb->io, vb->irqs.msix_on, VIRTIO_BLK_CFG_SEG_MAX);
	if (vb->features & VIRTIO_BLK_F_BLK_SIZE &&
	    virtio_legacy_config32(vb->io, vb->irqs.msix_on, VIRTIO_BLK_CFG_BLK_SIZE) != BLK_SECTOR_SIZE)
		pr_warn("%s: logical block size %u: unaligned I/O may fail\n", vb->blk.name,
			virtio_legacy_config32(vb->io, vb->irqs.msix_on, VIRTIO_BLK_CFG_BLK_SIZE));
	vb->blk.max_segs = MIN(VIRTIO_BLK_MAX_SEGS, vb->vq.num - 2);
	if (seg_max)
		vb->blk.max_segs = MIN(vb->blk.max_segs, seg_max);
	vb->blk.max_sectors = VIRTIO_BLK_MAX_SECTORS;
	vb->blk.flags = BLKDEV_F_DMA | (vb->features & VIRTIO_BLK_F_FLUSH ? BLKDEV_F_FLUSH : 0);
}

static void virtio_blk_free_msix(struct virtio_blk *vb)
{
	irq_free_msi(vb->irqs.config_irq);
	irq_free_msi(vb->irqs.queue_irq);
	vb->irqs.config_irq = vb->irqs.queue_irq = -1;
}

/* MSI-X: two MSI IRQs aimed at the boot CPU, the table entries, MSI-X on,
 * then the device told which entry is which (it may refuse). 0 or -errno,
 * and then nothing is left on. Boot. */
static int virtio_blk_setup_msix(struct virtio_blk *vb)
{
	struct virtio_blk_irqs *q = &vb->irqs;
	u32 dest = cpus[0].apic_id;
	int err;

	if (cmdline_get(&boot_cmdline, "nomsi") || !lapic_present())
		return -ENODEV;
	err = pci_msix_init(vb->pdev, &q->msix);
	if (err || q->msix.nr_entries <= VIRTIO_BLK_MSIX_QUEUE)
		return err ? err : -ENODEV;
	q->config_irq = irq_alloc_msi();
	q->queue_irq = irq_alloc_msi();
	if (q->config_irq < 0 || q->queue_irq < 0 ||
	    irq_register(q->config_irq, virtio_blk_config_intr, vb) ||
	    irq_register(q->queue_irq, virtio_blk_vq_intr, vb)) {
		virtio_blk_free_msix(vb);
		return -ENOSPC;
	}
	pci_msix_set_entry(&q->msix, VIRTIO_BLK_MSIX_CONFIG, dest, T_IRQ_BASE + q->config_irq);
	pci_msix_set_entry(&q->msix, VIRTIO_BLK_MSIX_QUEUE, dest, T_IRQ_BASE + q->queue_irq);
	pci_msix_enable(&q->msix, true);
	if (virtio_legacy_set_config_vector(vb->io, VIRTIO_BLK_MSIX_CONFIG) ||
	    virtio_legacy_set_queue_vector(vb->io, 0, VIRTIO_BLK_MSIX_QUEUE)) {
		pci_msix_enable(&q->msix, false);
		virtio_blk_free_msix(vb);
		return -EBUSY;
	}
	q->msix_on = true;
	return 0;
}

/* MSI-X, else the INTx line the firmware routed. Boot. */
static int virtio_blk_setup_irq(struct virtio_blk *vb)
{
	struct pci_dev *p = vb->pdev;
	int err = virtio_blk_setup_msix(vb);

	if (!err)
		return 0;
	if (err != -ENODEV)
		pr_warn("%s: no MSI-X (%d), INTx instead\n", vb->blk.name, err);
	if (!p->irq_pin || p->irq_line >= NR_LINE_IRQS)
		return -ENODEV;
	vb->irqs.queue_irq = p->irq_line;
	return irq_register(p->irq_line, virtio_blk_intr, vb);
}

static int virtio_blk_probe(struct pci_dev *p)
{
	struct virtio_blk *vb;
	u16 num;
	int err;

	if (virtio_blk_count == VIRTIO_BLK_MAX_DEVS)
		return -ENOSPC;
	if (!p->bar[0].io || !p->bar[0].size)
		return -ENODEV;
	vb = &virtio_blks[virtio_blk_count];
	vb->pdev = p;
	vb->io = p->bar[0].base;
	vb->irqs.config_irq = vb->irqs.queue_irq = -1;
	spin_lock_init(&vb->lock, "virtio_blk");
	snprintf(vb->blk.name, sizeof(vb->blk.name), "vd%c", 'a' + virtio_blk_count);
	pci_enable(p, PCI_COMMAND_IO | PCI_COMMAND_MASTER);
	virtio_legacy_reset(vb->io);
	vb->features = virtio_legacy_negotiate(vb->io, VIRTIO_BLK_WANTED);
	num = virtio_legacy_queue_size(vb->io, 0);
	err = num ? virtio_blk_alloc_queue(vb, num) : -ENODEV;
	if (err)
		goto out_failed;
	vb->blk.ops = &virtio_blk_ops;
	vb->blk.priv = vb;
	err = virtio_blk_setup_irq(vb);	/* before the config: MSI-X moves it */
	if (err)
		goto out_failed;
	virtio_blk_read_config(vb);
	virtio_legacy_set_status(vb->io, virtio_legacy_status(vb->io) | VIRTIO_STATUS_DRIVER_OK);
	p->drvdata = vb;
	virtio_blk_count++;
	return blkdev_register(&vb->blk);

out_failed:
	if (num)
		virtio_blk_free_queue(vb, num);
	virtio_legacy_set_status(vb->io, VIRTIO_STATUS_FAILED);
	return err;
}

struct virtqueue *virtio_blk_vq(struct blkdev *dev)
{
	return dev && dev->ops == &virtio_blk_ops ? &((struct virtio_blk *)dev->priv)->vq : NULL;
}

struct virtio_blk_irqs *virtio_blk_irqs(struct blkdev *dev)
{
	return dev && dev->ops == &virtio_blk_ops ? &((struct virtio_blk *)dev->priv)->irqs : NULL;
}

static const struct pci_device_id virtio_blk_ids[] = {
	{ VIRTIO_VENDOR, VIRTIO_BLK_LEGACY },
	{ 0, 0 },
};

static struct pci_driver virtio_blk_driver = {
	.name = "virtio_blk",
	.ids = virtio_blk_ids,
	.probe = virtio_blk_probe,
};

void virtio_blk_init(void)
{
	pci_register_driver(&virtio_blk_driver);
}
