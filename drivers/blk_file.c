/* blk_file.c: block devices as files (/dev/hda, /dev/vda, ...): asynchronous
 * reads, writes and flushes straight from the user's pinned pages, completed
 * from the driver's interrupt handler through aio_complete; plain read, write,
 * pread, pwrite and fsync take the same path and wait.
 *
 * Rules: offset, length and buffer address must be multiples of 512 (-EINVAL);
 * a request reaching past the end of the device is -EINVAL at submit. A
 * request that fits one driver request (max_segs / max_sectors) can be
 * cancelled while the driver still has it queued; a larger one is split and
 * cannot be cancelled. */
#include "aio.h"
#include "blkdev.h"
#include "blk_file.h"
#include "errno.h"
#include "x86.h"
#include "clock.h"
#include "cmdline.h"
#include "fs.h"
#include "irq.h"
#include "mm.h"
#include "paging.h"
#include "pin.h"
#include "printk.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "wait.h"

#define SECTOR_MASK	(BLK_SECTOR_SIZE - 1)
#define BLK_IO_INLINE	16		/* pages kept inside struct blk_io (64 KiB) */

/* One user I/O on a block device: one or more driver requests. */
struct blk_io {
	struct blkdev *dev;
	struct kiocb *iocb;		/* NULL for a synchronous call */
	struct pinned_buf buf;
	u32 nr_parts, parts_left;	/* driver requests, and those not done */
	long result;			/* bytes, or the first error */
	int refs;			/* completion + a running cancel; under blk_io_lock */
	bool finished;
	wait_queue_head_t *waitq;	/* synchronous callers sleep here */
	volatile bool sync_done;
	struct blk_request *parts;
	struct blk_seg *segs;
	/* Room for a request of up to BLK_IO_INLINE pages in one driver request,
	 * so the common case costs one allocation, not four. */
	struct blk_request part_inline;
	struct blk_seg seg_inline[BLK_IO_INLINE];
	struct page *page_inline[BLK_IO_INLINE];
};

/* The part of a blk_io zeroed when made and poisoned when freed: all but the
 * inline segment and page arrays (blk_io_build fills what it uses). */
#define BLK_IO_HEAD_SIZE	offsetof(struct blk_io, seg_inline)

static DEFINE_SPINLOCK(blk_io_lock);	/* refs, finished, iocb->ki_private */
atomic_t blk_io_live = ATOMIC_INIT(0);	/* read by aiok_stat for init's leak check */

static void blk_io_free(struct blk_io *io)
{
	if (io->parts != &io->part_inline)
		kfree(io->parts);
	if (io->segs != io->seg_inline)
		kfree(io->segs);
	/* a use after free reads poison, not data (the inline page and segment
	 * arrays are only written and read between build and finish) */
	memset(io, 0x6b, BLK_IO_HEAD_SIZE);
	kfree(io);
	atomic_dec(&blk_io_live);
}

/* Undo blk_io_new for an io no driver holds: unpin the user pages, free it. */
static void blk_io_discard(struct blk_io *io)
{
	unpin_user_buf(&io->buf);
	blk_io_free(io);
}

/* Drop a reference (interrupts disabled, blk_io_lock held); true to free. */
static bool blk_io_put_locked(struct blk_io *io)
{
	return --io->refs == 0;
}

/* All parts are done (interrupts disabled): report, unpin, release. */
static void blk_io_finish(struct blk_io *io)
{
	struct kiocb *iocb = io->iocb;
	bool free;

	unpin_user_buf(&io->buf);
	spin_lock(&blk_io_lock);
	io->finished = true;
	if (iocb)
		iocb->ki_private = NULL;	/* cancel can no longer find it */
	free = blk_io_put_locked(io);
	spin_unlock(&blk_io_lock);
	if (iocb) {
		aio_complete(iocb, io->result, 0);
	} else {
		io->sync_done = true;
		wake_up(io->waitq);		/* the waiter frees io */
		free = false;
	}
	if (free)
		blk_io_free(io);
}

/* Driver callback, interrupts disabled. */
static void blk_part_done(struct blk_request *req, int result)
{
	struct blk_io *io = req->private;

	if (result < 0 && io->result >= 0)
		io->result = result;
	else if (io->result >= 0)
		io->result += result;
	if (--io->parts_left == 0)
		blk_io_finish(io);
}

/* Cut the pinned buffer into driver requests of at most max_segs pages and
 * max_sectors sectors. */
static int blk_io_build(struct blk_io *io, enum blk_op op, u64 sector)
{
	struct blkdev *dev = io->dev;
	u32 per = MAX(1u, MIN(dev->max_segs, dev->max_sectors / (PAGE_SIZE / BLK_SECTOR_SIZE)));
	u32 nsegs = MAX(io->buf.nr_pages, 1u), off = 0;

	io->nr_parts = op == BLK_FLUSH ? 1 : DIV_ROUND_UP(nsegs, per);
	io->parts = io->nr_parts == 1 ? &io->part_inline :
		kmalloc(io->nr_parts * sizeof(*io->parts), GFP_KERNEL);
	io->segs = nsegs <= BLK_IO_INLINE ? io->seg_inline :
		kmalloc(nsegs * sizeof(*io->segs), GFP_KERNEL);
	if (!io->parts || !io->segs)
		return -ENOMEM;
	memset(io->parts, 0, io->nr_parts * sizeof(*io->parts));
	for (u32 i = 0; i < io->buf.nr_pages; i++) {
		u32 in = i ? 0 : io->buf.offset, len = MIN(PAGE_SIZE - in, io->buf.len - off);
		io->segs[i] = (struct blk_seg){ page_to_phys(io->buf.pages[i]) + in, len,
						io->buf.pages[i], in };
		off += len;
	}
	for (u32 p = 0, s = 0; p < io->nr_parts; p++) {
		struct blk_request *r = &io->parts[p];
		r->op = op;
		r->seg = &io->segs[s];
		r->nr_seg = op == BLK_FLUSH ? 0 : MIN(per, io->buf.nr_pages - s);
		for (u32 k = 0; k < r->nr_seg; k++)
			r->nr_sectors += r->seg[k].len / BLK_SECTOR_SIZE;
		r->sector = sector;
		sector += r->nr_sectors;
		s += r->nr_seg;
		r->done = blk_part_done;
		r->private = io;
	}
	return 0;
}

static struct blk_io *blk_io_new(struct blkdev *dev, enum blk_op op, char *ubuf, size_t n,
				 loff_t pos, struct kiocb *iocb)
{
	struct blk_io *io;
	int err;

	if (op != BLK_FLUSH && (((u32)ubuf | (u32)pos | n) & SECTOR_MASK))
		return ERR_PTR(-EINVAL);
	if (op != BLK_FLUSH && (pos < 0 || (u64)pos + n > dev->nr_sectors * BLK_SECTOR_SIZE))
		return ERR_PTR(-EINVAL);
	io = kmalloc(sizeof(*io), GFP_KERNEL);
	if (!io)
		return ERR_PTR(-ENOMEM);
	memset(io, 0, BLK_IO_HEAD_SIZE);	/* the arrays are filled before use */
	atomic_inc(&blk_io_live);
	io->dev = dev;
	io->iocb = iocb;
	io->refs = 1;
	err = op == BLK_FLUSH || !n ? 0 :
		pin_user_buf_into(current->mm, (u32)ubuf, n, op == BLK_READ, &io->buf,
				  io->page_inline, BLK_IO_INLINE);
	if (!err)
		err = blk_io_build(io, op, (u64)pos / BLK_SECTOR_SIZE);
	if (err) {
		blk_io_discard(io);
		return ERR_PTR(err);
	}
	io->parts_left = io->nr_parts;
	return io;
}

/* Test hook (boot with blk_race_test): start each part at once and wait until
 * the device has finished it, as a driver's interrupt handler may do behind
 * the submitter's back; anything that touched the blk_io after its last submit
 * then reads freed, poisoned memory (plan entry blk_race). Waits on the
 * device's counter, never on the request. */
static bool blk_race_test;

static void blk_race_wait(struct blkdev *dev, int completed_before)
{
	u64 deadline = ktime_get_ns() + 1000000000ull;

	blkdev_kick(dev);
	while (atomic_read(&dev->completed) + atomic_read(&dev->cancelled) == completed_before &&
	       ktime_get_ns() < deadline)
		cpu_relax();
}

/* Queue every part; kick now unless an io_submit batch is open. Returns 0, or
 * the error of the first part (then nothing was queued).
 * Once a part is queued the driver may start and finish it at any moment (its
 * interrupt handler feeds queued requests as descriptors free up, plug or not),
 * and the last part to finish frees io: io is not touched after the last
 * successful submit, except to finish the parts the driver refused (until they
 * are finished, io cannot go). */
static int blk_io_start(struct blk_io *io)
{
	struct blkdev *dev = io->dev;
	u32 nr = io->nr_parts, i, flags;
	int err = 0;

	for (i = 0; i < nr; i++) {
		int before = atomic_read(&dev->completed) + atomic_read(&dev->cancelled);
		if ((err = blkdev_submit(dev, &io->parts[i])))
			break;
		if (blk_race_test)
			blk_race_wait(dev, before);
	}
	if (err && i == 0)
		return err;			/* nothing queued: the caller frees io */
	if (err) {				/* later parts refused: finish them here */
		flags = local_irq_save();
		for (u32 k = i; k < nr; k++)
			blk_part_done(&io->parts[k], err);
		local_irq_restore(flags);
	}
	blk_plug_add(dev);
	return 0;
}

static int blk_aio_cancel(struct kiocb *iocb)
{
	struct blk_io *io;
	bool free;
	u32 flags;
	int err;

	spin_lock_irqsave(&blk_io_lock, flags);
	io = iocb->ki_private;
	if (!io || io->nr_parts != 1) {
		spin_unlock_irqrestore(&blk_io_lock, flags);
		return -EAGAIN;
	}
	io->refs++;				/* keep it while we ask the driver */
	spin_unlock_irqrestore(&blk_io_lock, flags);
	err = blkdev_cancel(io->dev, &io->parts[0]);	/* 0: done() ran with -ECANCELED */
	spin_lock_irqsave(&blk_io_lock, flags);
	free = blk_io_put_locked(io);
	spin_unlock_irqrestore(&blk_io_lock, flags);
	if (free)
		blk_io_free(io);
	return err;
}

static ssize_t blk_aio_submit(struct kiocb *iocb, enum blk_op op, char *ubuf, size_t n, loff_t pos)
{
	struct blkdev *dev = iocb->ki_filp->f_inode->private;
	struct blk_io *io;
	int err;

	if (op != BLK_FLUSH && !n)
		return 0;
	io = blk_io_new(dev, op, ubuf, n, pos, iocb);
	if (IS_ERR(io))
		return PTR_ERR(io);
	iocb->ki_private = io;
	iocb->ki_cancel = blk_aio_cancel;
	err = blk_io_start(io);
	if (err) {
		iocb->ki_private = NULL;
		blk_io_discard(io);
		return err;
	}
	return -EIOCBQUEUED;
}

static ssize_t blk_aio_read(struct kiocb *iocb, char *ubuf, size_t n, loff_t pos)
{
	return blk_aio_submit(iocb, BLK_READ, ubuf, n, pos);
}

static ssize_t blk_aio_write(struct kiocb *iocb, const char *ubuf, size_t n, loff_t pos)
{
	return blk_aio_submit(iocb, BLK_WRITE, (char *)ubuf, n, pos);
}

static int blk_aio_fsync(struct kiocb *iocb, int datasync)
{
	struct blkdev *dev = iocb->ki_filp->f_inode->private;

	if (!(dev->flags & BLKDEV_F_FLUSH))
		return 0;			/* no volatile cache: already durable */
	return blk_aio_submit(iocb, BLK_FLUSH, NULL, 0, 0);
}

/* The synchronous path: same requests, then an uninterruptible wait (the
 * device is using our pages). */
static long blk_sync(struct blkdev *dev, enum blk_op op, char *ubuf, size_t n, loff_t pos)
{
	DECLARE_WAIT_QUEUE_HEAD(wq);
	struct blk_io *io;
	long ret;
	int err;

	if (op != BLK_FLUSH && !n)
		return 0;
	io = blk_io_new(dev, op, ubuf, n, pos, NULL);
	if (IS_ERR(io))
		return PTR_ERR(io);
	io->waitq = &wq;
	if ((err = blk_io_start(io))) {
		blk_io_discard(io);
		return err;
	}
	blk_plug_flush();
	wait_event(wq, io->sync_done);
	ret = io->result;
	blk_io_free(io);
	return ret;
}

static ssize_t blk_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	ssize_t ret = blk_sync(f->f_inode->private, BLK_READ, ubuf, n, *pos);

	if (ret > 0)
		*pos += ret;
	return ret;
}

static ssize_t blk_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	ssize_t ret = blk_sync(f->f_inode->private, BLK_WRITE, (char *)ubuf, n, *pos);

	if (ret > 0)
		*pos += ret;
	return ret;
}

static int blk_fsync(struct file *f, int datasync)
{
	struct blkdev *dev = f->f_inode->private;

	return dev->flags & BLKDEV_F_FLUSH ? (int)blk_sync(dev, BLK_FLUSH, NULL, 0, 0) : 0;
}

static const struct file_operations blk_file_ops = {
	.llseek = generic_llseek,
	.read = blk_read,
	.write = blk_write,
	.fsync = blk_fsync,
	.aio_read = blk_aio_read,
	.aio_write = blk_aio_write,
	.aio_fsync = blk_aio_fsync,
};

/* Make a /dev node for every registered block device. */
void blk_file_init(void)
{
	struct blkdev *dev;

	blk_race_test = cmdline_get(&boot_cmdline, "blk_race_test") != NULL;
	for (int i = 0; (dev = blkdev_get(i)); i++) {
		char path[PATH_MAX];
		struct inode *inode;
		snprintf(path, sizeof(path), "/dev/%s", dev->name);
		inode = vfs_create(path, S_IFBLK | 0660, &blk_file_ops);
		if (IS_ERR(inode))
			continue;
		inode->private = dev;
		inode->size = dev->nr_sectors * BLK_SECTOR_SIZE;
		iput(inode);
	}
}
