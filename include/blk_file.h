/* blk_file.h: block devices as files, and the per-task plug that batches the
 * device notifications of one io_submit. */
#ifndef BLK_FILE_H
#define BLK_FILE_H

#include "atomic.h"
#include "types.h"

struct blkdev;

#define BLK_PLUG_DEVS	4

/* Devices with requests queued but not yet kicked, while a batch is open. */
struct blk_plug {
	int depth;
	int nr;
	struct blkdev *devs[BLK_PLUG_DEVS];
};

/* Open / close a batch for the current task (nestable); closing kicks. */
void aio_plug_begin(void);
void aio_plug_end(void);
/* Note that dev has queued requests: kick now, or at the batch's end. */
void blk_plug_add(struct blkdev *dev);
/* Kick what the current batch holds now (before a synchronous wait). */
void blk_plug_flush(void);

void blk_file_init(void);
extern atomic_t blk_io_live;		/* struct blk_io alive (leak checks) */

#endif
