/* blk_file.h: block devices as files (/dev/<name>), their AIO and sync I/O. */
#ifndef BLK_FILE_H
#define BLK_FILE_H

#include "atomic.h"
#include "blkdev.h"
#include "types.h"

struct file;
struct iovec;
struct kiocb;
struct page;

struct blkdev;

/* Make /dev/<name> for dev: 0, or -errno from vfs_create (-EEXIST).
 * Process context. */
int blk_file_create(struct blkdev *dev);
/* A /dev node for every registered block device. Boot, after fs_init. */
void blk_file_init(void);
/* The kernel's own I/O on a block-device file f (a file system's metadata
 * and data: the one block path, as user AIO takes). op BLK_READ/BLK_WRITE moves
 * [offset, offset + len) of page (lowmem or HighMem; 512-aligned, inside the
 * page) to or from byte pos of the device; BLK_FLUSH writes back the device's
 * cache (0 at once without one). The device is kicked at once, never left to
 * a plug. blk_file_kernel_rw starts it on iocb (any kiocb of f: a synchronous
 * one, or later a file system's asynchronous request) and returns
 * -EIOCBQUEUED, 0 (nothing to do) or -EINVAL/-ENOMEM/-EIO with nothing
 * started; aio_complete(iocb) reports the bytes or -EIO. Process context. */
ssize_t blk_file_kernel_rw(struct kiocb *iocb, enum blk_op op, struct page *page, u32 offset,
			   u32 len, loff_t pos);
/* The same without a kiocb (a file system's page fill): done(priv, bytes or
 * -EIO) is called once at the end, from the driver's completion (interrupts
 * off, any context; inside this call when the device is that fast). Inside
 * io_submit the device is kicked at the end of its plug (nothing may wait
 * for the read before then), else at once. 0 when started,
 * -EINVAL/-ENOMEM/-EIO with nothing started (done not called). */
typedef void blk_done_fn(void *priv, long res);
int blk_file_kernel_async(struct file *devf, enum blk_op op, struct page *page, u32 offset,
			  u32 len, loff_t pos, blk_done_fn *done, void *priv);
/* The same, waited for (uninterruptibly): 0 when all of it moved, else -EIO
 * or the submit's error. Process context, no spinlock held. */
int blk_file_kernel_sync(struct file *f, enum blk_op op, struct page *page, u32 offset, u32 len,
			 loff_t pos);
/* Another file's user AIO (a file system's O_DIRECT request, in io_submit)
 * moved zero-copy between the user's segments iov[0..nr) (512-aligned) and
 * byte pos of the block device behind devf, as the device's own AIO does:
 * iocb is completed by the driver's interrupt (aio_complete: bytes or -EIO),
 * the device kicked at the end of io_submit's plug, RWF_DSYNC followed by a
 * flush. cancel becomes iocb's cancel method when the request is one driver
 * request (it may call blk_file_cancel). -EIOCBQUEUED, 0 for nothing, or
 * -EINVAL (not a device, past its end, misaligned) / -ENOMEM / -EFAULT with
 * nothing started. end (or NULL) is called once when a started request
 * ends, completed or withdrawn, just before its aio_complete (any context:
 * the driver's interrupt, a cancel); never when nothing was started.
 * Process context, the submitter's address space. */
ssize_t blk_file_user_rw(struct file *devf, struct kiocb *iocb, enum blk_op op,
			 const struct iovec *iov, u32 nr, loff_t pos, int (*cancel)(struct kiocb *),
			 void (*end)(struct kiocb *));
/* The same for segments a file system pinned earlier (its worker, which has
 * no user address space): a started request takes over pv's pins and leaves
 * pv empty; after an error the caller unpins whatever pv still holds
 * (unpin_user_vec of an emptied vector does nothing). Segments 512-aligned
 * (the caller checked). */
struct pinned_vec;
ssize_t blk_file_pinned_rw(struct file *devf, struct kiocb *iocb, enum blk_op op,
			   struct pinned_vec *pv, loff_t pos, int (*cancel)(struct kiocb *),
			   void (*end)(struct kiocb *));
/* The same for the kernel's own use of such pinned segments (a file
 * system's O_DIRECT request cut at its block runs, one call per run): done
 * as for blk_file_kernel_async, the device kicked at the end of io_submit's
 * plug. 0 when started (pv taken over), -EINVAL/-ENOMEM/-EIO with nothing
 * started (the caller unpins pv). */
int blk_file_pinned_async(struct file *devf, enum blk_op op, struct pinned_vec *pv, loff_t pos,
			  blk_done_fn *done, void *priv);
/* Withdraw iocb's one driver request from dev's queue: 0, or -EAGAIN when
 * the device has it already (or it is not there). Process context. */
int blk_file_cancel(struct blkdev *dev, struct kiocb *iocb);
/* Withdraw the kernel's one-part request started with callback argument priv
 * (blk_file_kernel_async: a page fill) from the driver's queue: 0, its done
 * called with -ECANCELED before this returns; -EAGAIN when the device has it
 * already (or it is not there). Process context. */
int blk_file_cancel_async(struct file *devf, void *priv);
/* The device behind f when f is a block-device file, else NULL. */
struct blkdev *blk_file_dev(struct file *f);
/* sync(2): flush every block device's volatile write cache and wait.
 * Thread context, may sleep. */
void blk_file_sync_all(void);
extern atomic_t blk_io_live;		/* struct blk_io alive (leak checks) */
/* Since boot, for /proc/aiok/blk: driver requests sent (reads and writes),
 * and user pages they moved in place (pinned, never copied). */
extern atomic_t blk_file_requests, blk_file_pages_pinned;

#endif
