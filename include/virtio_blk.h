/* virtio_blk.h: the virtio block driver (legacy/transitional PCI 1af4:1001). */
#ifndef VIRTIO_BLK_H
#define VIRTIO_BLK_H

#include "blkdev.h"
#include "virtio.h"

/* Register the PCI driver; disks appear as vda, vdb, ... in probe order.
 * Boot context, after pci_init. */
void virtio_blk_init(void);
/* The virtqueue behind a virtio disk (tests and stats), or NULL if dev is
 * not one. */
struct virtqueue *virtio_blk_vq(struct blkdev *dev);

#endif
