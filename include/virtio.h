/* virtio.h: split virtqueues (virtio 1.0 ring layout) and the legacy PCI transport.
 *
 * A virtqueue owns its descriptor table, available and used rings; the caller
 * gives it memory (vring_size bytes, 4096-aligned for the legacy transport)
 * and serialises every call on one queue with its own irq-safe lock.
 */
#ifndef VIRTIO_H
#define VIRTIO_H

#include "types.h"

/* Device status bits (virtio 1.0 2.1). */
#define VIRTIO_STATUS_ACKNOWLEDGE	0x01	/* guest noticed the device */
#define VIRTIO_STATUS_DRIVER		0x02	/* guest has a driver for it */
#define VIRTIO_STATUS_DRIVER_OK		0x04	/* driver ready: device goes live */
#define VIRTIO_STATUS_FEATURES_OK	0x08	/* modern only: features accepted */
#define VIRTIO_STATUS_FAILED		0x80	/* driver gave up */

/* Legacy PCI transport, registers in I/O BAR0 (virtio 0.9.5 / 1.0 4.1.4.8). */
#define VIRTIO_PCI_HOST_FEATURES	0x00	/* u32 RO: device features 0..31 */
#define VIRTIO_PCI_GUEST_FEATURES	0x04	/* u32 RW: features the driver accepts */
#define VIRTIO_PCI_QUEUE_PFN		0x08	/* u32 RW: ring physical address >> 12 */
#define VIRTIO_PCI_QUEUE_NUM		0x0C	/* u16 RO: size of the selected queue */
#define VIRTIO_PCI_QUEUE_SEL		0x0E	/* u16 RW: queue selector */
#define VIRTIO_PCI_QUEUE_NOTIFY		0x10	/* u16 WO: queue index to notify */
#define VIRTIO_PCI_STATUS		0x12	/* u8 RW: device status */
#define VIRTIO_PCI_ISR			0x13	/* u8 RO: interrupt status, read clears */
#define VIRTIO_PCI_CONFIG		0x14	/* device config while MSI-X is off */
/* With MSI-X enabled two registers follow the ISR and the device config
 * moves 4 bytes up (virtio 1.0 4.1.4.8, legacy interface). */
#define VIRTIO_MSI_CONFIG_VECTOR	0x14	/* u16 RW: MSI-X entry for config changes */
#define VIRTIO_MSI_QUEUE_VECTOR		0x16	/* u16 RW: MSI-X entry of the selected queue */
#define VIRTIO_PCI_CONFIG_MSIX		0x18	/* device config while MSI-X is on */
#define VIRTIO_MSI_NO_VECTOR		0xFFFF	/* no entry (or the device refused one) */
#define VIRTIO_PCI_ISR_QUEUE		0x01	/* ISR: a used ring was updated */
#define VIRTIO_PCI_ISR_CONFIG		0x02	/* ISR: configuration changed */
#define VIRTIO_PCI_QUEUE_ADDR_SHIFT	12	/* QUEUE_PFN unit: 4 KiB */
#define VIRTIO_LEGACY_ALIGN		4096	/* used ring alignment, legacy layout */

/* Ring structures (little-endian; i386 is). */
#define VRING_DESC_F_NEXT		0x01	/* chain continues at .next */
#define VRING_DESC_F_WRITE		0x02	/* device writes this buffer */
#define VRING_AVAIL_F_NO_INTERRUPT	0x01	/* driver: don't interrupt on used */

struct vring_desc {
	u64 addr;
	u32 len;
	u16 flags;
	u16 next;
} __packed;

struct vring_avail {
	u16 flags;
	u16 idx;
	u16 ring[];		/* then u16 used_event */
} __packed;

struct vring_used_elem {
	u32 id;			/* head of the finished chain */
	u32 len;		/* bytes the device wrote */
} __packed;

struct vring_used {
	u16 flags;
	u16 idx;
	struct vring_used_elem ring[];	/* then u16 avail_event */
} __packed;

/* One buffer of a chain. */
struct vq_buf {
	u32 phys;
	u32 len;
	bool device_writes;
};

struct virtqueue {
	u16 index;			/* queue number on the device */
	u16 num;			/* ring size (power of two) */
	u16 free_head;			/* free descriptors, linked by .next */
	u16 nr_free;
	u16 last_used;			/* next used-ring index to look at */
	u16 added;			/* chains made available since the last kick */
	volatile struct vring_desc *desc;
	volatile struct vring_avail *avail;
	volatile struct vring_used *used;
	void **token;			/* per head descriptor: the caller's cookie */
	void (*notify)(struct virtqueue *vq);	/* transport doorbell */
	void *priv;			/* the transport's */
	u32 nr_notify;			/* doorbells rung, for tests and stats */
};

/* Bytes of ring memory for num entries with the used ring aligned to align. */
u32 vring_size(u16 num, u32 align);
/* Lay the rings out in mem (zeroed, vring_size bytes) and chain all
 * descriptors free; token must have num slots. 0 or -EINVAL (num not a
 * power of two). */
int virtqueue_init(struct virtqueue *vq, u16 index, u16 num, void *mem, u32 align,
		   void **token);
/* Chain n buffers (device-readable ones first) and make the chain available
 * (no doorbell yet). 0, or -ENOSPC when fewer than n descriptors are free. */
int virtqueue_add(struct virtqueue *vq, const struct vq_buf *bufs, int n, void *token);
/* The head descriptor the next virtqueue_add will use (callers index
 * per-chain memory, such as request headers, by it). */
static inline u16 virtqueue_next_head(const struct virtqueue *vq)
{
	return vq->free_head;
}
/* Ring the doorbell once if anything was added since the last kick. */
void virtqueue_kick(struct virtqueue *vq);
/* Next finished chain: frees its descriptors, returns its token and stores
 * the device's written length; NULL when the used ring has nothing new. */
void *virtqueue_get_buf(struct virtqueue *vq, u32 *len);

/* Legacy PCI transport helpers (io = BAR0 port base). */
u8 virtio_legacy_status(u16 io);
void virtio_legacy_set_status(u16 io, u8 status);
/* Reset, then ACKNOWLEDGE | DRIVER. */
void virtio_legacy_reset(u16 io);
/* Offer features & wanted; returns what was accepted. */
u32 virtio_legacy_negotiate(u16 io, u32 wanted);
/* Read the size of queue index (0: no such queue). */
u16 virtio_legacy_queue_size(u16 io, u16 index);
/* Give the device vq's ring (physical address ring_phys, 4 KiB aligned). */
void virtio_legacy_setup_queue(u16 io, struct virtqueue *vq, u32 ring_phys);
/* Read and thereby acknowledge the interrupt status (VIRTIO_PCI_ISR_*). */
u8 virtio_legacy_isr(u16 io);
/* Device config word at off; msix: MSI-X is enabled (the config moved). */
u32 virtio_legacy_config32(u16 io, bool msix, u32 off);
/* The same for a 16-bit field (QEMU reads no word across a field's end). */
u16 virtio_legacy_config16(u16 io, bool msix, u32 off);
/* Ask for MSI-X entry vec for config changes, or for queue index's used
 * buffers; 0, or -EBUSY when the device did not take it (reads back
 * VIRTIO_MSI_NO_VECTOR). Only while MSI-X is enabled. */
int virtio_legacy_set_config_vector(u16 io, u16 vec);
int virtio_legacy_set_queue_vector(u16 io, u16 index, u16 vec);
/* What the device holds for queue index (tests). */
u16 virtio_legacy_queue_vector(u16 io, u16 index);

#endif
