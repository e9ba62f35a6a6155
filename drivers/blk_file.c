/* blk_file.c: block devices as files (/dev/hda, /dev/vda, ...): reads, writes
 * and flushes straight from the user's pinned pages, as driver requests that
 * the driver's interrupt handler completes through aio_complete. The aio
 * methods are the only path: read, write and fsync run them on a synchronous
 * kiocb and wait (do_sync_read, ...).
 *
 * Rules: offset, length and buffer address (each segment's, for the vectored
 * IOCB_CMD_PREADV/PWRITEV) must be multiples of 512 (-EINVAL);
 * a request reaching past the end of the device is -EINVAL at submit. A
 * request that fits one driver request (max_segs / max_sectors) can be
 * cancelled while the driver still has it queued; a larger one is split and
 * cannot be cancelled. A write with RWF_DSYNC/RWF_SYNC (or on an O_DSYNC file)
 * is followed by a flush of the device's write cache before its event.
 * O_APPEND and RWF_APPEND are ignored: a device has no end to append to (as
 * Linux 5.x and later, whose block devices write at the offset given).
 *
 * Lifetime of a struct blk_io: refs counts its driver requests not finished
 * plus one for the submitter, who drops it once every part is with the driver
 * and the kiocb is set up, however fast the device finishes the parts (as
 * Linux 2.6's direct I/O counts its bios). The last drop unpins the pages,
 * frees the io and completes the kiocb (unless a cancel withdrew it: then the
 * AIO core does), or calls the kernel's done callback instead
 * (blk_file_kernel_async: a file system's page fill). A cancel finds its part through the driver's queue, where a
 * queued part keeps its io alive. No lock: refs is atomic and each part keeps
 * its own result.
 */
#include "aio.h"
#include "blkdev.h"
#include "blk_file.h"
#include "errno.h"
#include "fs.h"
#include "mm.h"
#include "panic.h"
#include "pin.h"
#include "printk.h"
#include "sched.h"
#include "slab.h"
#include "string.h"

#define SECTOR_MASK	(BLK_SECTOR_SIZE - 1)
#define BLK_IO_INLINE	16		/* pages kept inside struct blk_io (64 KiB) */

/* One I/O on a block device (asynchronous or synchronous kiocb): one or more
 * driver requests. */
struct blk_io {
	struct blkdev *dev;
	struct kiocb *iocb;
	struct pinned_vec buf;		/* the user's segments, pinned */
	u32 nr_parts;			/* driver requests */
	atomic_t refs;			/* parts not finished + the submitter's */
	bool withdrawn;			/* a cancel took the part back */
	bool kernel;			/* the kernel's own pages (blk_file_kernel_rw) */
	bool flush_after;		/* RWF_DSYNC write: a flush before the event */
	long written;			/* its bytes, while the flush runs */
	blk_done_fn *done;		/* the kernel's callback instead of aio_complete */
	void *done_priv;
	void (*end)(struct kiocb *);	/* a file system's: called once as the io
					 * ends (reported or withdrawn), before
					 * aio_complete; any context */
	struct blk_request *parts;
	struct blk_seg *segs;
	/* Room for a request of up to BLK_IO_INLINE pages in one driver request,
	 * so the common case costs one allocation, not four. */
	struct blk_request part_inline;
	struct blk_seg seg_inline[BLK_IO_INLINE];
	struct page *page_inline[BLK_IO_INLINE];
};

/* The part of a blk_io zeroed when made: the fields before the inline
 * request and arrays (blk_io_build zeroes the parts and fills what it uses). */
#define BLK_IO_HEAD_SIZE	offsetof(struct blk_io, part_inline)
#define BLK_IO_POISON		0x6b6b6b6bu

static struct kmem_cache *blk_io_cache;
atomic_t blk_io_live = ATOMIC_INIT(0);	/* read by aiok_stat for init's leak check */
atomic_t blk_file_requests = ATOMIC_INIT(0);
atomic_t blk_file_pages_pinned = ATOMIC_INIT(0);

/* Free io; a use after free then follows poison, not a live pointer. */
static void blk_io_free(struct blk_io *io)
{
	if (io->parts != &io->part_inline)
		kfree(io->parts);
	if (io->segs != io->seg_inline)
		kfree(io->segs);
	io->dev = (void *)BLK_IO_POISON;
	io->iocb = (void *)BLK_IO_POISON;
	io->parts = (void *)BLK_IO_POISON;
	io->segs = (void *)BLK_IO_POISON;
	io->buf.bufs = (void *)BLK_IO_POISON;
	atomic_set(&io->refs, (int)BLK_IO_POISON);
	io->part_inline.private = (void *)BLK_IO_POISON;
	io->part_inline.dev = (void *)BLK_IO_POISON;
	kmem_cache_free(blk_io_cache, io);
	atomic_dec(&blk_io_live);
}

/* Unpin the user pages and free io, which no driver holds any part of. */
static void blk_io_discard(struct blk_io *io)
{
	unpin_user_vec(&io->buf);
	blk_io_free(io);
}

/* The bytes of every part, or the error of the first part that failed. */
static long blk_io_result(const struct blk_io *io)
{
	long bytes = 0;

	for (u32 i = 0; i < io->nr_parts; i++) {
		if (io->parts[i].result < 0)
			return io->parts[i].result;
		bytes += io->parts[i].result;
	}
	return bytes;
}

static int blk_io_flush(struct blk_io *io, long written);

/* Drop a reference; the last one ends the io: free it, then report to the
 * kiocb (gone when its event can be seen). A write that asked for a flush
 * (RWF_DSYNC/RWF_SYNC/O_DSYNC) first sends it, and reports when it is done.
 * Any context. */
static void blk_io_put(struct blk_io *io)
{
	void (*end)(struct kiocb *);
	struct kiocb *iocb;
	blk_done_fn *done;
	void *priv;
	bool report;
	long res;

	if (!atomic_dec_and_test(&io->refs))
		return;
	iocb = io->iocb;
	report = !io->withdrawn;
	res = report ? blk_io_result(io) : -ECANCELED;
	if (io->flush_after && report && res >= 0) {
		if (!blk_io_flush(io, res))
			return;			/* the flush's completion reports */
		res = -EIO;			/* the flush was refused */
	} else if (io->written && res >= 0) {
		res = io->written;		/* the flush went well: the write's bytes */
	}
	done = io->done;
	priv = io->done_priv;
	end = io->end;
	blk_io_discard(io);
	if (done) {
		done(priv, res);
		return;
	}
	if (end)
		end(iocb);
	if (report)
		aio_complete(iocb, res, 0);
}

/* Driver callback, interrupts disabled: req->result holds its outcome. */
static void blk_part_done(struct blk_request *req, int result)
{
	blk_io_put(req->private);
}

/* The scatter list: one entry per pinned page of every range, in order
 * (every range is 512-aligned, so every entry is whole sectors). */
static void blk_io_fill_segs(struct blk_io *io)
{
	u32 k = 0;

	for (u32 r = 0; r < io->buf.nr; r++) {
		struct pinned_buf *pb = &io->buf.bufs[r];
		size_t off = 0;
		for (u32 i = 0; i < pb->nr_pages; i++, k++) {
			u32 in = i ? 0 : pb->offset, len = MIN(PAGE_SIZE - in, pb->len - off);
			io->segs[k] = (struct blk_seg){ page_to_phys(pb->pages[i]) + in, len,
							pb->pages[i], in };
			off += len;
		}
	}
}

static u32 blk_io_nr_pages(const struct blk_io *io)
{
	u32 n = 0;

	for (u32 r = 0; r < io->buf.nr; r++)
		n += io->buf.bufs[r].nr_pages;
	return n;
}

/* Tag a driver request with the AIO request it serves, for the trace. */
static void blk_io_tag(const struct blk_io *io, struct blk_request *r)
{
	if (io->iocb && io->iocb->ki_ctx) {
		r->trace_ctx = io->iocb->ki_ctx->trace_id;
		r->trace_key = io->iocb->ki_key;
	}
}

/* Cut the pinned buffer into driver requests of at most max_segs pages and
 * max_sectors sectors: the device range is one contiguous run, so segments
 * from several user ranges share a request as long as the limits allow. */
static int blk_io_build(struct blk_io *io, enum blk_op op, u64 sector)
{
	struct blkdev *dev = io->dev;
	u32 per = MAX(1u, MIN(dev->max_segs, dev->max_sectors / (PAGE_SIZE / BLK_SECTOR_SIZE)));
	u32 pages = blk_io_nr_pages(io), nsegs = MAX(pages, 1u);

	io->nr_parts = op == BLK_FLUSH ? 1 : DIV_ROUND_UP(nsegs, per);
	io->parts = io->nr_parts == 1 ? &io->part_inline :
		kmalloc(io->nr_parts * sizeof(*io->parts), GFP_KERNEL);
	io->segs = nsegs <= BLK_IO_INLINE ? io->seg_inline :
		kmalloc(nsegs * sizeof(*io->segs), GFP_KERNEL);
	if (!io->parts || !io->segs)
		return -ENOMEM;
	memset(io->parts, 0, io->nr_parts * sizeof(*io->parts));
	blk_io_fill_segs(io);
	for (u32 p = 0, s = 0; p < io->nr_parts; p++) {
		struct blk_request *r = &io->parts[p];
		r->op = op;
		r->seg = &io->segs[s];
		r->nr_seg = op == BLK_FLUSH ? 0 : MIN(per, pages - s);
		for (u32 k = 0; k < r->nr_seg; k++)
			r->nr_sectors += r->seg[k].len / BLK_SECTOR_SIZE;
		r->sector = sector;
		sector += r->nr_sectors;
		s += r->nr_seg;
		r->done = blk_part_done;
		r->private = io;
		blk_io_tag(io, r);
	}
	return 0;
}

/* The write is done (written bytes, the last reference gone, any context):
 * unpin its pages and send one flush with the io's first part. 0 when sent;
 * else the caller reports the write's result as it is. */
static int blk_io_flush(struct blk_io *io, long written)
{
	struct blk_request *r = &io->parts[0];

	unpin_user_vec(&io->buf);
	io->flush_after = false;
	io->written = written;
	io->nr_parts = 1;
	memset(r, 0, sizeof(*r));
	r->op = BLK_FLUSH;
	r->done = blk_part_done;
	r->private = io;
	blk_io_tag(io, r);
	atomic_set(&io->refs, 1);
	if (blkdev_submit(io->dev, r))
		return -EIO;
	blkdev_kick(io->dev);
	return 0;
}

/* Every segment 512-aligned in address and length (-EINVAL). */
static bool blk_iov_aligned(const struct iovec *iov, u32 nr)
{
	for (u32 i = 0; i < nr; i++)
		if (((u32)iov[i].iov_base | iov[i].iov_len) & SECTOR_MASK)
			return false;
	return true;
}

/* A blk_io for n bytes at pos of iocb's device, nothing pinned yet: checks
 * the alignment rules and the device's end (-EINVAL). */
static struct blk_io *blk_io_alloc(struct blkdev *dev, struct kiocb *iocb, enum blk_op op,
				   size_t n, loff_t pos, bool aligned)
{
	struct blk_io *io;

	if (op != BLK_FLUSH && (!aligned || ((u32)pos & SECTOR_MASK)))
		return ERR_PTR(-EINVAL);
	if (op != BLK_FLUSH && (pos < 0 || (u64)pos + n > dev->nr_sectors * BLK_SECTOR_SIZE))
		return ERR_PTR(-EINVAL);
	io = kmem_cache_alloc(blk_io_cache, GFP_KERNEL);
	if (!io)
		return ERR_PTR(-ENOMEM);
	memset(io, 0, BLK_IO_HEAD_SIZE);	/* the arrays are filled before use */
	atomic_inc(&blk_io_live);
	io->dev = dev;
	io->iocb = iocb;
	io->flush_after = op == BLK_WRITE && (dev->flags & BLKDEV_F_FLUSH) && iocb &&
		kiocb_dsync(iocb);
	return io;
}

/* Cut io into driver requests and count the submitter's reference; on an
 * error io is gone. */
static struct blk_io *blk_io_ready(struct blk_io *io, enum blk_op op, loff_t pos, int err)
{
	if (!err)
		err = blk_io_build(io, op, (u64)pos / BLK_SECTOR_SIZE);
	if (err) {
		blk_io_discard(io);
		return ERR_PTR(err);
	}
	atomic_set(&io->refs, io->nr_parts + 1);	/* + the submitter's */
	return io;
}

static struct blk_io *blk_io_new(struct blkdev *dev, struct kiocb *iocb, enum blk_op op,
				 const struct iovec *iov, u32 nr, loff_t pos)
{
	size_t n = iov_total(iov, nr);
	struct blk_io *io = blk_io_alloc(dev, iocb, op, n, pos, blk_iov_aligned(iov, nr));
	int err;

	if (IS_ERR(io))
		return io;
	err = op == BLK_FLUSH || !n ? 0 :
		pin_user_iov(current->mm, iov, nr, op == BLK_READ, &io->buf,
			     io->page_inline, BLK_IO_INLINE);
	return blk_io_ready(io, op, pos, err);
}

/* The kernel's page range as the io's one pinned range: a page reference
 * and a pin, dropped by unpin_user_vec as for user pages. */
static struct blk_io *blk_io_new_kernel(struct blkdev *dev, struct kiocb *iocb, enum blk_op op,
					struct page *page, u32 offset, u32 len, loff_t pos)
{
	bool aligned = !((offset | len) & SECTOR_MASK) && offset + len <= PAGE_SIZE;
	struct blk_io *io = blk_io_alloc(dev, iocb, op, len, pos, aligned);
	struct pinned_buf *pb;

	if (IS_ERR(io))
		return io;
	io->kernel = true;
	if (op != BLK_FLUSH) {
		pb = &io->buf.one;
		io->buf = (struct pinned_vec){ .nr = 1, .len = len, .bufs = pb };
		*pb = (struct pinned_buf){ 1, offset, len, io->page_inline, false };
		io->page_inline[0] = page;
		get_page(page);
		atomic_inc(&page->pincount);
	}
	return blk_io_ready(io, op, pos, 0);
}

/* Hand every part to the driver and note the device in the plug (kicked now
 * when there is none). 0, or the error of the first part (nothing queued).
 * Parts after a refused one end with its error. The submitter's reference
 * keeps io unfinished throughout. */
static int blk_io_start(struct blk_io *io)
{
	u32 i;
	int err = 0;

	for (i = 0; i < io->nr_parts; i++)
		if ((err = blkdev_submit(io->dev, &io->parts[i])))
			break;
	if (err && i == 0)
		return err;
	if (io->parts[0].op != BLK_FLUSH && !io->kernel) {
		atomic_add(&blk_file_requests, i);
		atomic_add(&blk_file_pages_pinned, blk_io_nr_pages(io));
	}
	for (u32 k = i; k < io->nr_parts; k++) {
		io->parts[k].result = err;
		blk_io_put(io);		/* never the last: ours is still held */
	}
	if (io->kernel && !io->done)
		blkdev_kick(io->dev);	/* its caller may wait inside a plug */
	else
		blk_plug_add(io->dev);	/* one kick at io_submit's end (none: now) */
	return 0;
}

/* Cancel's match, under the driver's lock: the queued part of iocb's io (a
 * queued part holds a reference, so its io is alive). */
static bool blk_part_of(struct blk_request *req, void *iocb)
{
	return req->done == blk_part_done && ((struct blk_io *)req->private)->iocb == iocb;
}

int blk_file_cancel(struct blkdev *dev, struct kiocb *iocb)
{
	struct blk_request *part = blkdev_cancel(dev, blk_part_of, iocb);
	struct blk_io *io;

	if (!part)
		return -EAGAIN;
	io = part->private;
	io->withdrawn = true;
	blk_io_put(io);				/* the withdrawn part's reference */
	return 0;
}

/* Cancel's match for the kernel's own request with callback argument priv. */
static bool blk_part_of_kernel(struct blk_request *req, void *priv)
{
	struct blk_io *io = req->private;

	return req->done == blk_part_done && io->done && io->done_priv == priv;
}

int blk_file_cancel_async(struct file *devf, void *priv)
{
	struct blkdev *dev = blk_file_dev(devf);
	struct blk_request *part = dev ? blkdev_cancel(dev, blk_part_of_kernel, priv) : NULL;
	struct blk_io *io;

	if (!part)
		return -EAGAIN;
	io = part->private;
	io->withdrawn = true;
	blk_io_put(io);				/* its done(priv, -ECANCELED) */
	return 0;
}

/* Withdraw a one-part request the driver still has queued (process context). */
static int blk_aio_cancel(struct kiocb *iocb)
{
	return blk_file_cancel(kiocb_file(iocb)->f_inode->private, iocb);
}

static const struct file_operations blk_file_ops;

/* Start io: -EIOCBQUEUED, or -errno with nothing started. cancel: the
 * kiocb's cancel method when io is one part (blk_aio_cancel for a device's
 * own file; a file system's for its O_DIRECT requests). */
static ssize_t blk_io_go(struct kiocb *iocb, struct blk_io *io, kiocb_cancel_fn *cancel)
{
	int err;

	if (IS_ERR(io))
		return PTR_ERR(io);
	if ((err = blk_io_start(io))) {
		blk_io_discard(io);
		return err;
	}
	/* One part can be withdrawn; not a write whose flush may follow it. */
	if (io->nr_parts == 1 && !io->flush_after && !io->kernel && cancel)
		kiocb_set_cancel_fn(iocb, cancel);
	blk_io_put(io);				/* the submitter's reference */
	return -EIOCBQUEUED;
}

static ssize_t blk_aio_submit(struct kiocb *iocb, enum blk_op op, const struct iovec *iov,
			      u32 nr, loff_t pos)
{
	if (op != BLK_FLUSH && !iov_total(iov, nr))
		return 0;
	return blk_io_go(iocb, blk_io_new(kiocb_file(iocb)->f_inode->private, iocb, op, iov, nr,
					  pos), blk_aio_cancel);
}

ssize_t blk_file_user_rw(struct file *devf, struct kiocb *iocb, enum blk_op op,
			 const struct iovec *iov, u32 nr, loff_t pos, kiocb_cancel_fn *cancel,
			 void (*end)(struct kiocb *))
{
	struct blkdev *dev = blk_file_dev(devf);
	struct blk_io *io;

	if (!dev || op == BLK_FLUSH)
		return -EINVAL;
	if (!iov_total(iov, nr))
		return 0;
	io = blk_io_new(dev, iocb, op, iov, nr, pos);
	if (!IS_ERR(io))
		io->end = end;
	return blk_io_go(iocb, io, cancel);
}

/* io takes over the caller's pinned vector pv (left empty): a range whose
 * page pointers live in the caller's room has them copied into io's own. */
static int blk_io_take_vec(struct blk_io *io, struct pinned_vec *pv)
{
	struct pinned_buf *one = &io->buf.one;

	if (pv->nr == 1 && pv->bufs == &pv->one && !pv->one.own_pages &&
	    pv->one.nr_pages > BLK_IO_INLINE)
		return -EINVAL;			/* no room for its page pointers */
	io->buf = *pv;
	if (pv->bufs == &pv->one) {
		io->buf.bufs = one;
		if (!one->own_pages) {
			memcpy(io->page_inline, one->pages, one->nr_pages * sizeof(struct page *));
			one->pages = io->page_inline;
		}
	}
	*pv = (struct pinned_vec){ 0 };
	return 0;
}

/* A blk_io for the pinned vector pv (taken over when built), ending through
 * end (iocb's) or done (the kernel's callback), or an ERR_PTR. */
static struct blk_io *blk_io_new_pinned(struct file *devf, struct kiocb *iocb, enum blk_op op,
					struct pinned_vec *pv, loff_t pos,
					void (*end)(struct kiocb *), blk_done_fn *done, void *priv)
{
	struct blkdev *dev = blk_file_dev(devf);
	struct blk_io *io;

	if (!dev || op == BLK_FLUSH)
		return ERR_PTR(-EINVAL);
	io = blk_io_alloc(dev, iocb, op, pv->len, pos, true);
	if (IS_ERR(io))
		return io;
	io->end = end;
	io->done = done;
	io->done_priv = priv;
	return blk_io_ready(io, op, pos, blk_io_take_vec(io, pv));
}

ssize_t blk_file_pinned_rw(struct file *devf, struct kiocb *iocb, enum blk_op op,
			   struct pinned_vec *pv, loff_t pos, int (*cancel)(struct kiocb *),
			   void (*end)(struct kiocb *))
{
	return blk_io_go(iocb, blk_io_new_pinned(devf, iocb, op, pv, pos, end, NULL, NULL), cancel);
}

int blk_file_pinned_async(struct file *devf, enum blk_op op, struct pinned_vec *pv, loff_t pos,
			  blk_done_fn *done, void *priv)
{
	ssize_t r;

	if (!pv->len)
		return -EINVAL;
	r = blk_io_go(NULL, blk_io_new_pinned(devf, NULL, op, pv, pos, NULL, done, priv), NULL);
	return r == -EIOCBQUEUED ? 0 : (int)r;
}

ssize_t blk_file_kernel_rw(struct kiocb *iocb, enum blk_op op, struct page *page, u32 offset,
			   u32 len, loff_t pos)
{
	struct blkdev *dev = kiocb_file(iocb)->f_inode->private;

	if (op == BLK_FLUSH && !(dev->flags & BLKDEV_F_FLUSH))
		return 0;			/* no volatile cache: already durable */
	if (op != BLK_FLUSH && !len)
		return 0;
	return blk_io_go(iocb, blk_io_new_kernel(dev, iocb, op, page, offset, len, pos), NULL);
}

int blk_file_kernel_async(struct file *devf, enum blk_op op, struct page *page, u32 offset,
			  u32 len, loff_t pos, blk_done_fn *done, void *priv)
{
	struct blkdev *dev = blk_file_dev(devf);
	struct blk_io *io;
	ssize_t r;

	if (!dev || op == BLK_FLUSH || !len)
		return -EINVAL;
	io = blk_io_new_kernel(dev, NULL, op, page, offset, len, pos);
	if (!IS_ERR(io)) {
		io->done = done;
		io->done_priv = priv;
	}
	r = blk_io_go(NULL, io, NULL);
	return r == -EIOCBQUEUED ? 0 : (int)r;
}

int blk_file_kernel_sync(struct file *f, enum blk_op op, struct page *page, u32 offset, u32 len,
			 loff_t pos)
{
	struct kiocb req;
	ssize_t ret;

	init_sync_kiocb(&req, f);
	ret = wait_on_sync_kiocb(&req, blk_file_kernel_rw(&req, op, page, offset, len, pos));
	if (ret < 0)
		return ret;
	return op == BLK_FLUSH || (size_t)ret == len ? 0 : -EIO;
}

struct blkdev *blk_file_dev(struct file *f)
{
	struct inode *inode = f->f_inode;

	return inode && inode->fops == &blk_file_ops ? inode->private : NULL;
}

static ssize_t blk_aio_read(struct kiocb *iocb, char *ubuf, size_t n, loff_t pos)
{
	struct iovec one = { ubuf, n };

	return blk_aio_submit(iocb, BLK_READ, &one, 1, pos);
}

static ssize_t blk_aio_write(struct kiocb *iocb, const char *ubuf, size_t n, loff_t pos)
{
	struct iovec one = { (void *)ubuf, n };

	return blk_aio_submit(iocb, BLK_WRITE, &one, 1, pos);
}

/* Vectored: the segments go to consecutive sectors from pos, zero-copy like
 * the plain ones (each segment 512-aligned in address and length). */
static ssize_t blk_aio_readv(struct kiocb *iocb, const struct iovec *iov, u32 nr, loff_t pos)
{
	return blk_aio_submit(iocb, BLK_READ, iov, nr, pos);
}

static ssize_t blk_aio_writev(struct kiocb *iocb, const struct iovec *iov, u32 nr, loff_t pos)
{
	return blk_aio_submit(iocb, BLK_WRITE, iov, nr, pos);
}

static int blk_aio_fsync(struct kiocb *iocb, int datasync)
{
	struct blkdev *dev = kiocb_file(iocb)->f_inode->private;

	if (!(dev->flags & BLKDEV_F_FLUSH))
		return 0;			/* no volatile cache: already durable */
	return blk_aio_submit(iocb, BLK_FLUSH, NULL, 0, 0);
}

static const struct file_operations blk_file_ops = {
	.llseek = generic_llseek,
	.read = do_sync_read,
	.write = do_sync_write,
	.fsync = do_sync_fsync,
	.aio_read = blk_aio_read,
	.aio_write = blk_aio_write,
	.aio_fsync = blk_aio_fsync,
	.aio_readv = blk_aio_readv,
	.aio_writev = blk_aio_writev,
};

int blk_file_create(struct blkdev *dev)
{
	char path[PATH_MAX];
	struct inode *inode;

	snprintf(path, sizeof(path), "/dev/%s", dev->name);
	inode = vfs_create(path, S_IFBLK | 0660, &blk_file_ops);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	inode->private = dev;
	inode->size = dev->nr_sectors * BLK_SECTOR_SIZE;
	iput(inode);
	return 0;
}

void blk_file_init(void)
{
	struct blkdev *dev;

	blk_io_cache = kmem_cache_create("blk_io", sizeof(struct blk_io), 0, NULL);
	if (!blk_io_cache)
		panic("blk_file_init: no memory for the blk_io cache");

	for (int i = 0; (dev = blkdev_nth(i)); i++)
		blk_file_create(dev);
}

/* Flush dev's volatile cache through its /dev node (a synchronous kiocb,
 * as fsync on the node): 0 or -errno. A node renamed away is skipped. */
static int blk_file_sync(struct blkdev *dev)
{
	char path[PATH_MAX];
	struct inode *inode;
	struct file *f;
	int err = 0;

	snprintf(path, sizeof(path), "/dev/%s", dev->name);
	inode = namei(path);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	if (inode->fops == &blk_file_ops && inode->private == dev) {
		f = vfs_open_inode(inode, FMODE_WRITE, O_WRONLY);
		err = IS_ERR(f) ? PTR_ERR(f) : f->f_op->fsync(f, 0);
		if (!IS_ERR(f))
			fput(f);
	}
	iput(inode);
	return err;
}

void blk_file_sync_all(void)
{
	struct blkdev *dev;

	for (int i = 0; (dev = blkdev_nth(i)); i++)
		blk_file_sync(dev);
}
