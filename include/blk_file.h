/* blk_file.h: block devices as files (/dev/<name>), their AIO and sync I/O. */
#ifndef BLK_FILE_H
#define BLK_FILE_H

#include "atomic.h"

struct blkdev;

/* Make /dev/<name> for dev: 0, or -errno from vfs_create (-EEXIST).
 * Process context. */
int blk_file_create(struct blkdev *dev);
/* A /dev node for every registered block device. Boot, after fs_init. */
void blk_file_init(void);
/* sync(2): flush every block device's volatile write cache and wait.
 * Thread context, may sleep. */
void blk_file_sync_all(void);
extern atomic_t blk_io_live;		/* struct blk_io alive (leak checks) */
/* Since boot, for /proc/aiok/blk: driver requests sent (reads and writes),
 * and user pages they moved in place (pinned, never copied). */
extern atomic_t blk_file_requests, blk_file_pages_pinned;

#endif
