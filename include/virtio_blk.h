/* virtio_blk.h: the virtio block driver (legacy/transitional PCI 1af4:1001). */
#ifndef VIRTIO_BLK_H
#define VIRTIO_BLK_H

#include "acpi.h"
#include "blkdev.h"
#include "pci.h"
#include "virtio.h"

#define VIRTIO_BLK_MAX_QUEUES	NR_CPUS	/* request queues per disk: one per CPU */

/* One queue's interrupt, and how many came where. */
struct virtio_blk_qirq {
	int irq;			/* its MSI IRQ, or the INTx line (every queue) */
	u32 cpu;			/* the CPU its MSI-X message names */
	u32 nr_intr;			/* interrupts handled for it; atomic */
	u32 intr_cpu[NR_CPUS];		/* of which on each CPU; atomic */
};

/* How a virtio disk's interrupts arrive. */
struct virtio_blk_irqs {
	bool msix_on;			/* MSI-X (else the INTx line) */
	u16 nr_queues;			/* request queues in use */
	int config_irq;			/* MSI: configuration changes; -1 with INTx */
	struct pci_msix msix;		/* the table (MSI-X only) */
	u32 nr_isr_reads;		/* ISR reads (INTx only: MSI-X needs none) */
	u32 nr_config;			/* config-change interrupts; atomic */
	struct virtio_blk_qirq q[VIRTIO_BLK_MAX_QUEUES];
};

/* Register the PCI driver; disks appear as vda, vdb, ... in probe order.
 * Boot context, after pci_init. */
void virtio_blk_init(void);
/* Request queue queue's virtqueue (tests and stats), or NULL if dev is not
 * a virtio disk or has no such queue. */
struct virtqueue *virtio_blk_vq(struct blkdev *dev, u16 queue);
/* Its interrupt set-up and counts (tests and stats), or NULL. */
struct virtio_blk_irqs *virtio_blk_irqs(struct blkdev *dev);
/* Aim queue's MSI-X message at cpu (an online CPU): its completions run
 * there from then on. 0, -EINVAL, or -EOPNOTSUPP on INTx. Process context.
 * While the APs run no task (smp.h) only what is safe in an AP's interrupt
 * may complete there: the msix and virtio_mq suites' own callbacks. */
int virtio_blk_set_queue_cpu(struct blkdev *dev, u16 queue, u32 cpu);

#endif
