/* virtio.c: split virtqueues (descriptor chains, free list, used-ring reaping)
 * and the legacy virtio-PCI transport registers in I/O BAR0.
 *
 * Ordering: descriptors are written before the avail ring entry, the entry
 * before avail->idx, and avail->idx before the doorbell (x86 keeps stores in
 * order; the compiler barriers stop gcc from reordering, the OUT to the
 * notify port is serialising). used->idx is read before the used entries.
 */
#include "virtio.h"
#include "atomic.h"
#include "errno.h"
#include "x86.h"

u32 vring_size(u16 num, u32 align)
{
	u32 avail_end = sizeof(struct vring_desc) * num + sizeof(u16) * (3 + num);

	return ALIGN_UP(avail_end, align) + sizeof(u16) * 3 +
	       sizeof(struct vring_used_elem) * num;
}

int virtqueue_init(struct virtqueue *vq, u16 index, u16 num, void *mem, u32 align,
		   void **token)
{
	u32 avail_end = sizeof(struct vring_desc) * num + sizeof(u16) * (3 + num);

	if (!num || (num & (num - 1)))
		return -EINVAL;
	vq->index = index;
	vq->num = num;
	vq->desc = mem;
	vq->avail = (void *)((u8 *)mem + sizeof(struct vring_desc) * num);
	vq->used = (void *)((u8 *)mem + ALIGN_UP(avail_end, align));
	vq->token = token;
	vq->free_head = 0;
	vq->nr_free = num;
	vq->last_used = 0;
	vq->added = 0;
	vq->nr_notify = 0;
	for (u16 i = 0; i < num; i++) {
		vq->desc[i].next = i + 1;
		token[i] = NULL;
	}
	return 0;
}

int virtqueue_add(struct virtqueue *vq, const struct vq_buf *bufs, int n, void *token)
{
	u16 head = vq->free_head, d = head, last = head;

	if (n <= 0 || n > vq->nr_free)
		return -ENOSPC;
	for (int i = 0; i < n; i++) {
		vq->desc[d].addr = bufs[i].phys;
		vq->desc[d].len = bufs[i].len;
		vq->desc[d].flags = (bufs[i].device_writes ? VRING_DESC_F_WRITE : 0) |
				    (i + 1 < n ? VRING_DESC_F_NEXT : 0);
		last = d;
		d = vq->desc[d].next;
	}
	vq->free_head = vq->desc[last].next;
	vq->nr_free -= n;
	vq->token[head] = token;
	vq->avail->ring[vq->avail->idx & (vq->num - 1)] = head;
	smp_wmb();
	vq->avail->idx++;
	vq->added++;
	return 0;
}

void virtqueue_kick(struct virtqueue *vq)
{
	if (!vq->added)
		return;
	smp_mb();
	vq->added = 0;
	vq->nr_notify++;
	vq->notify(vq);
}

/* Put the chain starting at head back on the free list. */
static void virtqueue_free_chain(struct virtqueue *vq, u16 head)
{
	u16 d = head;

	vq->nr_free++;
	while (vq->desc[d].flags & VRING_DESC_F_NEXT) {
		d = vq->desc[d].next;
		vq->nr_free++;
	}
	vq->desc[d].next = vq->free_head;
	vq->free_head = head;
}

void *virtqueue_get_buf(struct virtqueue *vq, u32 *len)
{
	volatile struct vring_used_elem *e;
	void *token;
	u16 head;

	if (vq->last_used == READ_ONCE(vq->used->idx))
		return NULL;
	smp_rmb();
	e = &vq->used->ring[vq->last_used & (vq->num - 1)];
	head = e->id;
	if (len)
		*len = e->len;
	vq->last_used++;
	token = vq->token[head];
	vq->token[head] = NULL;
	virtqueue_free_chain(vq, head);
	return token;
}

/* ---- legacy PCI transport ---- */

u8 virtio_legacy_status(u16 io)
{
	return inb(io + VIRTIO_PCI_STATUS);
}

void virtio_legacy_set_status(u16 io, u8 status)
{
	outb(io + VIRTIO_PCI_STATUS, status);
}

void virtio_legacy_reset(u16 io)
{
	outb(io + VIRTIO_PCI_STATUS, 0);	/* legacy reset is immediate */
	outb(io + VIRTIO_PCI_STATUS, VIRTIO_STATUS_ACKNOWLEDGE);
	outb(io + VIRTIO_PCI_STATUS, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER);
}

u32 virtio_legacy_negotiate(u16 io, u32 wanted)
{
	u32 accepted = inl(io + VIRTIO_PCI_HOST_FEATURES) & wanted;

	outl(io + VIRTIO_PCI_GUEST_FEATURES, accepted);
	return accepted;
}

u16 virtio_legacy_queue_size(u16 io, u16 index)
{
	outw(io + VIRTIO_PCI_QUEUE_SEL, index);
	return inw(io + VIRTIO_PCI_QUEUE_NUM);
}

void virtio_legacy_setup_queue(u16 io, struct virtqueue *vq, u32 ring_phys)
{
	outw(io + VIRTIO_PCI_QUEUE_SEL, vq->index);
	outl(io + VIRTIO_PCI_QUEUE_PFN, ring_phys >> VIRTIO_PCI_QUEUE_ADDR_SHIFT);
}

u8 virtio_legacy_isr(u16 io)
{
	return inb(io + VIRTIO_PCI_ISR);
}

u32 virtio_legacy_config32(u16 io, bool msix, u32 off)
{
	return inl(io + (msix ? VIRTIO_PCI_CONFIG_MSIX : VIRTIO_PCI_CONFIG) + off);
}

u16 virtio_legacy_config16(u16 io, bool msix, u32 off)
{
	return inw(io + (msix ? VIRTIO_PCI_CONFIG_MSIX : VIRTIO_PCI_CONFIG) + off);
}

int virtio_legacy_set_config_vector(u16 io, u16 vec)
{
	outw(io + VIRTIO_MSI_CONFIG_VECTOR, vec);
	return inw(io + VIRTIO_MSI_CONFIG_VECTOR) == vec ? 0 : -EBUSY;
}

int virtio_legacy_set_queue_vector(u16 io, u16 index, u16 vec)
{
	outw(io + VIRTIO_PCI_QUEUE_SEL, index);
	outw(io + VIRTIO_MSI_QUEUE_VECTOR, vec);
	return inw(io + VIRTIO_MSI_QUEUE_VECTOR) == vec ? 0 : -EBUSY;
}

u16 virtio_legacy_queue_vector(u16 io, u16 index)
{
	outw(io + VIRTIO_PCI_QUEUE_SEL, index);
	return inw(io + VIRTIO_MSI_QUEUE_VECTOR);
}
