/* virtio_blk.c: virtio block driver over the legacy PCI transport: one request
 * queue per CPU (VIRTIO_BLK_F_MQ), many requests in flight, completion from
 * the interrupt handler.
 *
 * Queues (blk-mq's shape): with F_MQ the device offers num_queues virtqueues;
 * the driver uses min(num_queues, CPUs online) of them, and a request
 * submitted on CPU n goes to queue n (modulo the count). Interrupts: MSI-X
 * when the device has it: entry 0 for config changes, entry 1 + n for queue
 * n, each its own MSI IRQ whose message names queue n's CPU (n), so each
 * queue's handler runs where its requests were submitted and knows the
 * interrupt is its own (no ISR read); virtio_blk_set_queue_cpu() or
 * /proc/irq/N/smp_affinity moves one (irq_set_affinity calls
 * virtio_blk_irq_move).
 * With nomsi (or no MSI-X) the shared INTx line to the boot CPU, whose
 * handler reads the ISR to acknowledge it and services every queue.
 *
 * A request becomes one descriptor chain: header (device reads), data
 * segments, status byte (device writes). Headers and status bytes live in a
 * per-queue slot array indexed by the chain's head descriptor; the slot is
 * the chain's token. Requests that find too few free descriptors wait in the
 * queue's `pending` (state QUEUED, cancellable) and are fed from its
 * interrupt handler as chains come back. Lock: q->lock (irq-safe, one per
 * queue) guards its vq, pending and slots; it is taken on the submitting CPU
 * and on the CPU the queue's interrupt names, and blkdev_complete() is
 * called after it is dropped.
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
#define VIRTIO_BLK_F_MQ		(1u << 12)	/* config num_queues: several queues */
#define VIRTIO_BLK_WANTED	(VIRTIO_BLK_F_SIZE_MAX | VIRTIO_BLK_F_SEG_MAX | \
				 VIRTIO_BLK_F_BLK_SIZE | VIRTIO_BLK_F_FLUSH | VIRTIO_BLK_F_MQ)

#define VIRTIO_BLK_CFG_CAPACITY	0x00	/* u64: size in 512-byte sectors */
#define VIRTIO_BLK_CFG_SIZE_MAX	0x08	/* u32 */
#define VIRTIO_BLK_CFG_SEG_MAX	0x0C	/* u32 */
#define VIRTIO_BLK_CFG_BLK_SIZE	0x14	/* u32 */
#define VIRTIO_BLK_CFG_NUM_QUEUES 0x22	/* u16 (after geometry, topology, writeback) */

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
#define VIRTIO_BLK_MSIX_QUEUE0	1	/* MSI-X entry of queue n: 1 + n */

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

struct virtio_blk;

/* One request queue: a virtqueue and what waits for it. */
struct virtio_blk_queue {
	struct virtio_blk *vb;
	u16 num;			/* ring entries (0: not set up) */
	spinlock_t lock;
	/* guarded by lock: */
	struct virtqueue vq;
	struct blk_queue pending;	/* QUEUED: waiting for descriptors */
	struct virtio_blk_slot *slots;
	u32 slots_phys;
	void *ring;			/* vq's rings, vring_size bytes */
};

struct virtio_blk {
	struct blkdev blk;
	struct pci_dev *pdev;
	u16 io;				/* BAR0 I/O base */
	u32 features;
	u32 size_max;			/* bytes per segment, 0: no limit */
	u16 nr_queues;
	struct virtio_blk_queue q[VIRTIO_BLK_MAX_QUEUES];
	struct virtio_blk_irqs irqs;	/* how its interrupts arrive, and counts */
	u32 nr_spurious;		/* INTx interrupts that were not ours */
};

static struct virtio_blk virtio_blks[VIRTIO_BLK_MAX_DEVS];
static int virtio_blk_count;
static const struct blk_ops virtio_blk_ops;

static u32 virtio_blk_slot_phys(struct virtio_blk_queue *q, u16 head, u32 field)
{
	return q->slots_phys + head * sizeof(struct virtio_blk_slot) + field;
}

/* Turn the first pending request into a chain; false if it does not fit now. */
static bool virtio_blk_feed_one(struct virtio_blk_queue *q, struct blk_request *r)
{
	struct vq_buf bufs[VIRTIO_BLK_MAX_SEGS + 2];
	u16 head = virtqueue_next_head(&q->vq);
	struct virtio_blk_slot *s = &q->slots[head];
	int n = 0;

	if (r->nr_seg > VIRTIO_BLK_MAX_SEGS || r->state != BLK_REQ_QUEUED)
		panic("virtio_blk: bad request %p in the queue: %u segments, state %d, op %d",
		      r, r->nr_seg, r->state, r->op);	/* would overrun bufs[] */
	if (r->nr_seg + 2 > q->vq.nr_free)
		return false;
	s->hdr.type = r->op == BLK_READ ? VIRTIO_BLK_T_IN :
		      r->op == BLK_WRITE ? VIRTIO_BLK_T_OUT : VIRTIO_BLK_T_FLUSH;
	s->hdr.ioprio = 0;
	s->hdr.sector = r->op == BLK_FLUSH ? 0 : r->sector;
	s->status = 0xFF;			/* the device overwrites it */
	s->req = r;
	bufs[n++] = (struct vq_buf){ virtio_blk_slot_phys(q, head, 0), sizeof(s->hdr), false };
	for (u32 i = 0; i < r->nr_seg; i++)
		bufs[n++] = (struct vq_buf){ r->seg[i].phys, r->seg[i].len, r->op == BLK_READ };
	bufs[n++] = (struct vq_buf){
		virtio_blk_slot_phys(q, head, offsetof(struct virtio_blk_slot, status)), 1, true };
	if (virtqueue_add(&q->vq, bufs, n, s))
		return false;
	r->state = BLK_REQ_ACTIVE;
	blk_trace_start(r);
	return true;
}

/* Move pending requests onto the ring while descriptors last, then ring the
 * doorbell once for all of them. Caller holds q->lock. */
static void virtio_blk_feed(struct virtio_blk_queue *q)
{
	struct blk_request *r;

	assert_spin_locked(&q->lock);
	while ((r = q->pending.head) && virtio_blk_feed_one(q, r))
		blk_queue_pop(&q->pending);
	virtqueue_kick(&q->vq);
}

static void virtio_blk_notify(struct virtqueue *vq)
{
	struct virtio_blk_queue *q = vq->priv;

	irq_this_stat()->port_io++;
	outw(q->vb->io + VIRTIO_PCI_QUEUE_NOTIFY, vq->index);
}

/* The running CPU's queue (blk-mq's mapping: CPU n, queue n). */
static struct virtio_blk_queue *virtio_blk_this_queue(struct virtio_blk *vb)
{
	return &vb->q[smp_processor_id() % vb->nr_queues];
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
	struct virtio_blk_queue *q;
	u32 flags;

	if (r->op == BLK_FLUSH && !(vb->features & VIRTIO_BLK_F_FLUSH)) {
		virtio_blk_complete_now(r, 0);	/* write-through: nothing to do */
		return 0;
	}
	for (u32 i = 0; vb->size_max && i < r->nr_seg; i++)
		if (r->seg[i].len > vb->size_max)
			return -EINVAL;
	flags = local_irq_save();		/* no move to another CPU in between */
	q = virtio_blk_this_queue(vb);
	spin_lock(&q->lock);
	blk_queue_push(&q->pending, r);
	spin_unlock(&q->lock);
	local_irq_restore(flags);
	return 0;
}

/* Feed every queue that has requests waiting: this CPU's, and any other a
 * submitter left before it moved (a task may change CPUs between its
 * submits and the kick). */
static void virtio_blk_kick(struct blkdev *dev)
{
	struct virtio_blk *vb = dev->priv;
	u32 flags;

	for (u16 i = 0; i < vb->nr_queues; i++) {
		struct virtio_blk_queue *q = &vb->q[i];

		if (!READ_ONCE(q->pending.head))
			continue;
		spin_lock_irqsave(&q->lock, flags);
		virtio_blk_feed(q);
		spin_unlock_irqrestore(&q->lock, flags);
	}
}

static struct blk_request *virtio_blk_cancel(struct blkdev *dev, blk_match_fn *match, void *arg)
{
	struct virtio_blk *vb = dev->priv;
	struct blk_request *r = NULL;
	u32 flags;

	for (u16 i = 0; i < vb->nr_queues && !r; i++) {
		spin_lock_irqsave(&vb->q[i].lock, flags);
		r = blk_queue_remove_match(&vb->q[i].pending, match, arg);
		spin_unlock_irqrestore(&vb->q[i].lock, flags);
	}
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

/* Collect finished chains into a private list (q->lock held). */
static struct blk_request *virtio_blk_reap(struct virtio_blk_queue *q)
{
	struct blk_request *done = NULL, **tail = &done;
	struct virtio_blk_slot *s;

	while ((s = virtqueue_get_buf(&q->vq, NULL))) {
		struct blk_request *r = s->req;
		r->result = virtio_blk_result(q->vb, s);
		s->req = NULL;
		r->next = NULL;
		*tail = r;
		tail = &r->next;
	}
	return done;
}

/* Reap, refill and complete one queue; counts the interrupt for it on this
 * CPU. Interrupt context, on whichever CPU the queue's interrupt names. */
static void virtio_blk_service(struct virtio_blk_queue *q)
{
	struct virtio_blk_qirq *qi = &q->vb->irqs.q[q - q->vb->q];
	struct blk_request *done;

	__atomic_fetch_add(&qi->nr_intr, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&qi->intr_cpu[smp_processor_id()], 1, __ATOMIC_RELAXED);
	spin_lock(&q->lock);
	done = virtio_blk_reap(q);
	virtio_blk_feed(q);
	spin_unlock(&q->lock);
	blk_complete_list(done);
}

/* MSI-X: one queue's own message, no ISR to read. */
static void virtio_blk_vq_intr(int irq, void *data)
{
	virtio_blk_service(data);
}

/* INTx handler (shared line): reading ISR acknowledges; 0 means not ours. */
static void virtio_blk_intr(int irq, void *data)
{
	struct virtio_blk *vb = data;
	u8 isr = virtio_legacy_isr(vb->io);

	irq_this_stat()->port_io++;
	vb->irqs.nr_isr_reads++;
	if (!(isr & VIRTIO_PCI_ISR_QUEUE)) {
		if (!isr)
			vb->nr_spurious++;
		return;				/* another device, or a config change */
	}
	for (u16 i = 0; i < vb->nr_queues; i++)
		virtio_blk_service(&vb->q[i]);
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
 * transport wants) and the token array for queue index of num entries. */
static int virtio_blk_alloc_queue(struct virtio_blk *vb, u16 index, u16 num)
{
	struct virtio_blk_queue *q = &vb->q[index];
	u32 ring_phys;

	q->vb = vb;
	q->num = num;
	spin_lock_init(&q->lock, "virtio_blk");
	q->ring = blk_dma_alloc(vring_size(num, VIRTIO_LEGACY_ALIGN), &ring_phys);
	q->vq.token = kmalloc(num * sizeof(void *), GFP_KERNEL);
	q->slots = blk_dma_alloc(num * sizeof(struct virtio_blk_slot), &q->slots_phys);
	if (!q->ring || !q->vq.token || !q->slots)
		return -ENOMEM;
	if (virtqueue_init(&q->vq, index, num, q->ring, VIRTIO_LEGACY_ALIGN, q->vq.token))
		return -EINVAL;
	q->vq.notify = virtio_blk_notify;
	q->vq.priv = q;
	virtio_legacy_setup_queue(vb->io, &q->vq, ring_phys);
	return 0;
}

/* Undo virtio_blk_alloc_queue (any part of it) for every queue; the caller
 * has reset the device first. */
static void virtio_blk_free_queues(struct virtio_blk *vb)
{
	for (u16 i = 0; i < VIRTIO_BLK_MAX_QUEUES; i++) {
		struct virtio_blk_queue *q = &vb->q[i];

		if (!q->num)
			continue;
		blk_dma_free(q->ring, vring_size(q->num, VIRTIO_LEGACY_ALIGN));
		blk_dma_free(q->slots, q->num * sizeof(struct virtio_blk_slot));
		kfree(q->vq.token);
		memset(q, 0, sizeof(*q));
	}
}

static u32 virtio_blk_config32(struct virtio_blk *vb, u32 off)
{
	return virtio_legacy_config32(vb->io, vb->irqs.msix_on, off);
}

static void virtio_blk_read_config(struct virtio_blk *vb)
{
	u32 seg_max = 0, blk_size;

	vb->blk.nr_sectors = virtio_blk_config32(vb, VIRTIO_BLK_CFG_CAPACITY) |
		(u64)virtio_blk_config32(vb, VIRTIO_BLK_CFG_CAPACITY + 4) << 32;
	if (vb->features & VIRTIO_BLK_F_SIZE_MAX)
		vb->size_max = virtio_blk_config32(vb, VIRTIO_BLK_CFG_SIZE_MAX);
	if (vb->features & VIRTIO_BLK_F_SEG_MAX)
		seg_max = virtio_blk_config32(vb, VIRTIO_BLK_CFG_SEG_MAX);
	blk_size = virtio_blk_config32(vb, VIRTIO_BLK_CFG_BLK_SIZE);
	if (vb->features & VIRTIO_BLK_F_BLK_SIZE && blk_size != BLK_SECTOR_SIZE)
		pr_warn("%s: logical block size %u: unaligned I/O may fail\n", vb->blk.name,
			blk_size);
	vb->blk.max_segs = MIN(VIRTIO_BLK_MAX_SEGS, vb->q[0].vq.num - 2);
	for (u16 i = 1; i < vb->nr_queues; i++)
		vb->blk.max_segs = MIN(vb->blk.max_segs, (u32)vb->q[i].vq.num - 2);
	if (seg_max)
		vb->blk.max_segs = MIN(vb->blk.max_segs, seg_max);
	vb->blk.max_sectors = VIRTIO_BLK_MAX_SECTORS;
	vb->blk.flags = BLKDEV_F_DMA | (vb->features & VIRTIO_BLK_F_FLUSH ? BLKDEV_F_FLUSH : 0);
}

/* How many queues to use: the device's num_queues (F_MQ), at most one per
 * online CPU and one per MSI-X entry left after the config's. */
static u16 virtio_blk_nr_queues(struct virtio_blk *vb)
{
	u32 n = 1;

	if (vb->features & VIRTIO_BLK_F_MQ)
		n = virtio_legacy_config16(vb->io, vb->irqs.msix_on, VIRTIO_BLK_CFG_NUM_QUEUES);
	n = MIN(MAX(n, 1u), MIN(nr_cpus_online, (u32)VIRTIO_BLK_MAX_QUEUES));
	if (vb->irqs.msix_on)
		n = MIN(n, (u32)vb->irqs.msix.nr_entries - VIRTIO_BLK_MSIX_QUEUE0);
	return n;
}

/* Turn MSI-X on with every entry masked, so that the device config is at
 * its MSI-X offset for what follows; 0, or -errno with MSI-X off. Boot. */
static int virtio_blk_msix_on(struct virtio_blk *vb)
{
	struct virtio_blk_irqs *qi = &vb->irqs;
	int err;

	if (cmdline_get(&boot_cmdline, "nomsi") || !lapic_present())
		return -ENODEV;
	err = pci_msix_init(vb->pdev, &qi->msix);
	if (err || qi->msix.nr_entries <= VIRTIO_BLK_MSIX_QUEUE0)
		return err ? err : -ENODEV;
	pci_msix_enable(&qi->msix, true);
	qi->msix_on = true;
	return 0;
}

static void virtio_blk_msix_off(struct virtio_blk *vb)
{
	struct virtio_blk_irqs *qi = &vb->irqs;

	pci_msix_enable(&qi->msix, false);
	qi->msix_on = false;
	irq_free_msi(qi->config_irq);
	qi->config_irq = -1;
	for (u16 i = 0; i < VIRTIO_BLK_MAX_QUEUES; i++) {
		irq_free_msi(qi->q[i].irq);
		qi->q[i].irq = -1;
	}
}

/* An MSI IRQ with handler fn(data), its entry aimed at cpu; the IRQ or
 * -errno. Boot. */
static int virtio_blk_msix_vector(struct virtio_blk *vb, u16 entry, u32 cpu,
				  irq_handler_t fn, void *data)
{
	int irq = irq_alloc_msi();

	if (irq < 0)
		return irq;
	if (irq_register(irq, fn, data)) {
		irq_free_msi(irq);
		return -EBUSY;
	}
	pci_msix_set_entry(&vb->irqs.msix, entry, cpus[cpu].apic_id, T_IRQ_BASE + irq);
	return irq;
}

/* irq_set_affinity's hook for queue q's MSI: its entry aimed at cpu. */
static int virtio_blk_irq_move(int irq, u32 cpu, void *data)
{
	struct virtio_blk_queue *q = data;
	struct virtio_blk *vb = q->vb;
	u16 i = q - vb->q;

	vb->irqs.q[i].cpu = cpu;
	return pci_msix_set_entry(&vb->irqs.msix, VIRTIO_BLK_MSIX_QUEUE0 + i, cpus[cpu].apic_id,
				  T_IRQ_BASE + irq);
}

/* The config entry and one per queue (queue n's aimed at CPU n), then the
 * device told which entry is which (it may refuse one). 0 or -errno. */
static int virtio_blk_msix_vectors(struct virtio_blk *vb)
{
	struct virtio_blk_irqs *qi = &vb->irqs;

	qi->config_irq = virtio_blk_msix_vector(vb, VIRTIO_BLK_MSIX_CONFIG, 0,
						virtio_blk_config_intr, vb);
	if (qi->config_irq < 0)
		return qi->config_irq;
	if (virtio_legacy_set_config_vector(vb->io, VIRTIO_BLK_MSIX_CONFIG))
		return -EBUSY;
	for (u16 i = 0; i < vb->nr_queues; i++) {
		qi->q[i].cpu = i;
		qi->q[i].irq = virtio_blk_msix_vector(vb, VIRTIO_BLK_MSIX_QUEUE0 + i, i,
						      virtio_blk_vq_intr, &vb->q[i]);
		if (qi->q[i].irq < 0)
			return qi->q[i].irq;
		irq_set_affinity_hook(qi->q[i].irq, virtio_blk_irq_move, &vb->q[i], i);
		if (virtio_legacy_set_queue_vector(vb->io, i, VIRTIO_BLK_MSIX_QUEUE0 + i))
			return -EBUSY;
	}
	return 0;
}

/* The queues' interrupts: MSI-X vectors, else the INTx line the firmware
 * routed (every queue on it). Boot, the queues set up. */
static int virtio_blk_setup_irq(struct virtio_blk *vb)
{
	struct pci_dev *p = vb->pdev;
	int err = vb->irqs.msix_on ? virtio_blk_msix_vectors(vb) : -ENODEV;

	if (!err)
		return 0;
	if (vb->irqs.msix_on) {
		pr_warn("%s: MSI-X vectors refused (%d), INTx instead\n", vb->blk.name, err);
		virtio_blk_msix_off(vb);
	}
	if (!p->irq_pin || p->irq_line >= NR_LINE_IRQS)
		return -ENODEV;
	for (u16 i = 0; i < vb->nr_queues; i++)
		vb->irqs.q[i].irq = p->irq_line;
	return irq_register(p->irq_line, virtio_blk_intr, vb);
}

/* Queues 0 .. nr_queues - 1, each as large as the device makes it. */
static int virtio_blk_setup_queues(struct virtio_blk *vb)
{
	vb->nr_queues = virtio_blk_nr_queues(vb);
	vb->irqs.nr_queues = vb->nr_queues;
	for (u16 i = 0; i < vb->nr_queues; i++) {
		u16 num = virtio_legacy_queue_size(vb->io, i);
		int err = num ? virtio_blk_alloc_queue(vb, i, num) : -ENODEV;

		if (err)
			return err;
	}
	return 0;
}

static int virtio_blk_probe(struct pci_dev *p)
{
	struct virtio_blk *vb;
	int err;

	if (virtio_blk_count == VIRTIO_BLK_MAX_DEVS)
		return -ENOSPC;
	if (!p->bar[0].io || !p->bar[0].size)
		return -ENODEV;
	vb = &virtio_blks[virtio_blk_count];
	vb->pdev = p;
	vb->io = p->bar[0].base;
	vb->irqs.config_irq = -1;
	for (u16 i = 0; i < VIRTIO_BLK_MAX_QUEUES; i++)
		vb->irqs.q[i].irq = -1;
	snprintf(vb->blk.name, sizeof(vb->blk.name), "vd%c", 'a' + virtio_blk_count);
	pci_enable(p, PCI_COMMAND_IO | PCI_COMMAND_MASTER);
	virtio_legacy_reset(vb->io);
	vb->features = virtio_legacy_negotiate(vb->io, VIRTIO_BLK_WANTED);
	virtio_blk_msix_on(vb);		/* before any config read: MSI-X moves it */
	vb->blk.ops = &virtio_blk_ops;
	vb->blk.priv = vb;
	err = virtio_blk_setup_queues(vb);
	err = err ? err : virtio_blk_setup_irq(vb);
	if (err)
		goto out_failed;
	virtio_blk_read_config(vb);
	pr_info("%s: %u request queue%s, %s\n", vb->blk.name, vb->nr_queues,
		vb->nr_queues == 1 ? "" : "s", vb->irqs.msix_on ? "MSI-X" : "INTx");
	virtio_legacy_set_status(vb->io, virtio_legacy_status(vb->io) | VIRTIO_STATUS_DRIVER_OK);
	p->drvdata = vb;
	virtio_blk_count++;
	return blkdev_register(&vb->blk);

out_failed:
	virtio_legacy_set_status(vb->io, 0);	/* the device forgets the queues */
	if (vb->irqs.msix_on)
		virtio_blk_msix_off(vb);
	virtio_blk_free_queues(vb);
	virtio_legacy_set_status(vb->io, VIRTIO_STATUS_FAILED);
	return err;
}

static struct virtio_blk *virtio_blk_of(struct blkdev *dev)
{
	return dev && dev->ops == &virtio_blk_ops ? dev->priv : NULL;
}

struct virtqueue *virtio_blk_vq(struct blkdev *dev, u16 queue)
{
	struct virtio_blk *vb = virtio_blk_of(dev);

	return vb && queue < vb->nr_queues ? &vb->q[queue].vq : NULL;
}

struct virtio_blk_irqs *virtio_blk_irqs(struct blkdev *dev)
{
	struct virtio_blk *vb = virtio_blk_of(dev);

	return vb ? &vb->irqs : NULL;
}

int virtio_blk_set_queue_cpu(struct blkdev *dev, u16 queue, u32 cpu)
{
	struct virtio_blk *vb = virtio_blk_of(dev);
	struct virtio_blk_qirq *qi;

	if (!vb || queue >= vb->nr_queues || cpu >= nr_cpus_online)
		return -EINVAL;
	if (!vb->irqs.msix_on)
		return -EOPNOTSUPP;
	qi = &vb->irqs.q[queue];
	return irq_set_affinity(qi->irq, 1u << cpu);	/* virtio_blk_irq_move */
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
