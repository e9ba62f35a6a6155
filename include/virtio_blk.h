/* virtio_blk.h: the virtio block driver (legacy/transitional PCI 1af4:1001). */
#ifndef VIRTIO_BLK_H
#define VIRTIO_BLK_H

#include "acpi.h"
#include "blkdev.h"
#include "pci.h"
#include "virtio.h"

/* How a virtio disk's interrupts arrive, and how many came where. */
struct virtio_blk_irqs {
	bool msix_on;			/* MSI-X (else the INTx line) */
	int queue_irq;			/* the IRQ of queue 0 (MSI or INTx line) */
	int config_irq;			/* MSI: configuration changes; -1 with INTx */
	struct pci_msix msix;		/* the table (MSI-X only) */
	u32 nr_intr;			/* queue interrupts handled; atomic */
	u32 nr_isr_reads;		/* ISR reads (INTx only: MSI-X needs none) */
	u32 nr_config;			/* config-change interrupts; atomic */
	u32 intr_cpu[NR_CPUS];		/* queue interrupts per CPU; atomic */
};

/* Register the PCI driver; disks appear as vda, vdb, ... in probe order.
 * Boot context, after pci_init. */
void virtio_blk_init(void);
/* The virtqueue behind a virtio disk (tests and stats), or NULL if dev is
 * not one. */
struct virtqueue *virtio_blk_vq(struct blkdev *dev);
/* Its interrupt set-up and counts (tests and stats), or NULL. */
struct virtio_blk_irqs *virtio_blk_irqs(struct blkdev *dev);

#endif
