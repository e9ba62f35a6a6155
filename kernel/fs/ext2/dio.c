/* dio.c: O_DIRECT AIO on ext2 regular files: zero-copy between the user's
 * pinned pages and the device, the request split at the file's block runs
 * (consecutive file blocks on consecutive device blocks), each run's pages
 * sent as driver requests at once and waited for together.
 *
 * A read inside the file whose map is cached, with no dirty cached page over
 * it, goes to the device from io_submit itself (ext2_dio_try): the user's
 * segments are pinned and sent as the block device's own AIO would be, and
 * the driver's interrupt completes the request; no worker, no wait. So does
 * a write inside the file (an overwrite: every block allocated, no i_size
 * change) whose map is cached, when no cached page over it is dirty or
 * mapped and the inode's block is cached (mtime): the clean cached pages
 * over it are dropped first, as Linux writes back and invalidates before
 * direct I/O. A request on one run of blocks is one block-device request
 * (io_cancel withdraws it while the driver queues it); one on up to
 * EXT2_DIO_PARTS runs (at most EXT2_DIO_SEGS user segments) is one device
 * request per run, all pinned before any is sent, and completes when the
 * last one ends: every byte, or -EIO (the first failed run's error) when
 * any run failed, as Linux's direct I/O reports a failed bio, never a
 * partial count; it cannot be cancelled (as a block device's split request).
 * The worker sends a one-run read the same way once it has read the
 * indirect blocks its map needs (ext2_dio_worker_send: the driver's
 * interrupt completes it, the worker goes on at once; a request of several
 * runs it moves itself and waits for), and so an overwrite it could not (the map or the
 * inode's block to read first, or the lock was taken): else one write in
 * the worker, holding the file's lock across its I/O, would send every
 * write to that file submitted meanwhile to the worker too.
 * The map lookups of these tries (and of page fills, readahead.c) go through
 * a small per-inode cache of block runs (ext2_map_run: one slot per map
 * block, forgotten when the file loses blocks), so a read inside a run
 * already seen costs no walk of the block cache's indirect blocks.
 * Such a request in flight is counted on its inode (dio_reads, dio_writes)
 * until the driver ends it (ext2_dio_end_*, interrupt context): a truncate
 * waits for both counts to reach 0 before it frees blocks, so a freed block
 * is never read or written by it after reuse; a read from the disk into the
 * page cache waits for dio_writes (it would cache the old bytes).
 * Everything else runs in an ext2aio worker (aio.c) with the file's lock held
 * until its I/O is done, so io_submit never waits: the block map may
 * read indirect blocks, a write allocates holes and appends (a new block
 * only partly written is zeroed on the disk first; the size and the inode
 * change only after the data is written), and the page cache's pages over
 * the range are written back and dropped before the transfer (a later
 * buffered read sees what was written directly).
 * Offset, length and every segment's address and length must be multiples of
 * 512 (-EINVAL at submit, as on block devices). A read stops at the end of
 * the file (the last sector is read whole; the count says where the file ends).
 */
#include "aio.h"
#include "blk_file.h"
#include "blkdev.h"
#include "errno.h"
#include "mm.h"
#include "pin.h"
#include "slab.h"
#include "string.h"
#include "ext2.h"

#define EXT2_DIO_BATCH	32		/* driver requests in flight per wait */
#define EXT2_DIO_PARTS	8		/* runs of a request io_submit sends itself */
#define EXT2_DIO_SEGS	8		/* user segments of such a request of runs */
#define EXT2_DIO_ROOM	16		/* page pointers kept inside a part (the
					 * block layer's inline room: blk_file.c) */

atomic_t ext2_dio_direct = ATOMIC_INIT(0);	/* O_DIRECT requests sent from io_submit */
atomic_t ext2_dio_async = ATOMIC_INIT(0);	/* ... sent by the worker, not waited for
						 * (reads and overwrites) */
atomic_t ext2_dio_direct_writes = ATOMIC_INIT(0);	/* writes sent from io_submit */
atomic_t ext2_dio_multi = ATOMIC_INIT(0);	/* ... of them (reads and writes) in
						 * several runs */

struct ext2_dio {
	struct ext2_sb *sb;
	struct pinned_vec *buf;
	enum blk_op op;
	u32 nr_inflight;
	long err;			/* the first failure */
	struct kiocb kiocbs[EXT2_DIO_BATCH];	/* synchronous, on the worker */
	u32 lens[EXT2_DIO_BATCH];
};

/* A piece of a direct request: bytes [off, off + len) of it at device byte at. */
struct ext2_dio_span {
	size_t off, len;
	u64 at;
};

struct ext2_dio_multi;

/* One piece of a request sent in several (its own driver request). */
struct ext2_dio_part {
	struct ext2_dio_multi *m;
	struct ext2_dio_span sp;
	long res;			/* its completion's bytes or -errno */
	struct pinned_vec pv;		/* its user pages, until the driver takes them */
	struct page *room[EXT2_DIO_ROOM];
};

/* A direct request of several runs sent from io_submit: it completes when
 * the last part does, with every byte or the first part's error. */
struct ext2_dio_multi {
	struct kiocb *iocb;
	atomic_t pending;		/* parts not ended + the submitter's */
	size_t n;
	bool write;
	u32 nr;
	struct ext2_dio_part parts[EXT2_DIO_PARTS];
};

bool ext2_dio_aligned(const struct iovec *iov, u32 nr, loff_t pos)
{
	if (pos & 511)
		return false;
	for (u32 i = 0; i < nr; i++)
		if (((u32)iov[i].iov_base | iov[i].iov_len) & 511)
			return false;
	return true;
}

/* Wait for every request in flight; note the first failure. */
static void ext2_dio_wait(struct ext2_dio *d)
{
	for (u32 i = 0; i < d->nr_inflight; i++) {
		long r = wait_on_sync_kiocb(&d->kiocbs[i], -EIOCBQUEUED);
		if (r != (long)d->lens[i] && !d->err)
			d->err = r < 0 ? r : -EIO;
	}
	d->nr_inflight = 0;
}

/* Send len bytes of page at off to or from device byte dev_pos. */
static void ext2_dio_send(struct ext2_dio *d, struct page *page, u32 off, u32 len, u64 dev_pos)
{
	struct kiocb *k;
	long r;

	if (d->nr_inflight == EXT2_DIO_BATCH)
		ext2_dio_wait(d);
	k = &d->kiocbs[d->nr_inflight];
	init_sync_kiocb(k, d->sb->dev);
	r = blk_file_kernel_rw(k, d->op, page, off, len, d->sb->dev_offset + dev_pos);
	if (r == -EIOCBQUEUED) {
		d->lens[d->nr_inflight++] = len;
	} else if (r != (long)len && !d->err) {
		d->err = r < 0 ? r : -EIO;
	}
}

/* The user's bytes [off, off + len) of the request (pinned), page by page,
 * to or from the device from dev_pos on. */
static void ext2_dio_run_pages(struct ext2_dio *d, size_t off, size_t len, u64 dev_pos)
{
	for (u32 r = 0; r < d->buf->nr && len; r++) {
		struct pinned_buf *pb = &d->buf->bufs[r];
		if (off >= pb->len) {
			off -= pb->len;
			continue;
		}
		while (off < pb->len && len) {
			size_t at = pb->offset + off;
			u32 in = at & (PAGE_SIZE - 1);
			u32 seg = MIN(MIN((size_t)(PAGE_SIZE - in), pb->len - off), len);
			ext2_dio_send(d, pb->pages[at >> PAGE_SHIFT], in, seg, dev_pos);
			off += seg;
			len -= seg;
			dev_pos += seg;
		}
		off = 0;
	}
}

/* A new block that the write covers only in part: zeros on the disk first. */
static int ext2_dio_zero_block(struct ext2_sb *sb, u32 nr)
{
	struct page *zero = alloc_page(GFP_KERNEL | __GFP_ZERO);
	int err;

	if (!zero)
		return -ENOMEM;
	err = ext2_dev_rw(sb, true, zero, 0, sb->block_size, (u64)nr * sb->block_size);
	__free_page(zero);
	return err;
}

/* Map file block lblk for the transfer (allocating for a write); its device
 * block, 0 for a hole, or -errno. covered: bytes of it the write fills. */
static long ext2_dio_map(struct inode *inode, u32 lblk, bool write, u32 covered)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	bool fresh;
	long nr = ext2_bmap(inode, lblk, write, &fresh);
	int err;

	if (nr > 0 && write && fresh && covered < sb->block_size &&
	    (err = ext2_dio_zero_block(sb, nr)))
		return err;
	return nr;
}

/* The next run from file byte at: bytes of consecutive device blocks (at
 * most left), its first device block in *nr (0: a hole, one block). */
static long ext2_dio_run_len(struct inode *inode, u64 at, size_t left, bool write, long *nr)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 bs = sb->block_size, boff = at & (bs - 1);
	size_t len = MIN(left, (size_t)(bs - boff));
	u32 lblk = at >> sb->block_log;
	long next;

	*nr = ext2_dio_map(inode, lblk, write, len);
	if (*nr <= 0)
		return *nr < 0 ? *nr : (long)len;
	while (len < left) {
		u32 part = MIN(left - len, (size_t)bs);
		next = ext2_dio_map(inode, ++lblk, write, part);
		if (next < 0)
			return next;
		if (next != *nr + (long)(lblk - (at >> sb->block_log)))
			break;
		len += part;
	}
	return len;
}

/* Zeros into the user's bytes [off, off + len) (a hole read directly). */
static void ext2_dio_zero_user(struct pinned_vec *buf, size_t off, size_t len)
{
	static const char zeros[512];

	for (size_t k = 0; k < len; k += MIN(len - k, sizeof(zeros)))
		pinned_vec_copy_to(buf, off + k, zeros, MIN(len - k, sizeof(zeros)), KM_USER1);
}

/* Move the transfer run by run; the bytes moved, or -errno. */
static long ext2_dio_move(struct inode *inode, struct ext2_dio *d, loff_t pos, size_t n)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	size_t done = 0;
	long len = 0, nr;

	while (done < n && !d->err) {
		len = ext2_dio_run_len(inode, pos + done, n - done, d->op == BLK_WRITE, &nr);
		if (len < 0)
			break;
		if (!nr)
			ext2_dio_zero_user(d->buf, done, len);
		else
			ext2_dio_run_pages(d, done, len,
					   (u64)nr * sb->block_size + ((pos + done) & (sb->block_size - 1)));
		done += len;
	}
	ext2_dio_wait(d);
	if (len < 0 && !d->err)
		d->err = len;
	return d->err ? d->err : (long)done;
}

long ext2_dio_rw(struct inode *inode, struct pinned_vec *buf, size_t n, loff_t pos, bool write)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	struct ext2_dio *d;
	long ret;

	if (!write && pos >= inode->size)
		return 0;
	if (!write)
		n = MIN((u64)n, ((u64)(inode->size - pos) + 511) & ~511ull);
	if ((ret = ext2_pc_flush_range(inode, pos, n)))
		return ret;
	d = kmalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	memset(d, 0, offsetof(struct ext2_dio, kiocbs));	/* the kiocbs: set as sent */
	d->sb = sb;
	d->buf = buf;
	d->op = write ? BLK_WRITE : BLK_READ;
	ret = ext2_dio_move(inode, d, pos, n);
	kfree(d);
	if (ret > 0 && !write) {
		ret = MIN((u64)ret, (u64)(inode->size - pos));
		ext2_accessed(inode);
	}
	if (ret > 0 && write) {
		if ((u64)pos + ret > (u64)inode->size)
			inode->size = pos + ret;
		ext2_touch(inode, true);
		ext2_write_inode(inode);
	}
	return ret;
}

/* Does inode have a cached page over [pos, pos + n) that a direct request
 * cannot pass: newer than the disk may be (dirty, or writable through a
 * shared mapping), or, for a write, mapped at all? The file's lock held. */
static bool ext2_dio_cached_in_way(struct inode *inode, loff_t pos, size_t n, bool write)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	u64 first = (u64)pos >> PAGE_SHIFT, last = ((u64)pos + n - 1) >> PAGE_SHIFT;
	struct ext2_page *ep;

	if (!ei->nr_pages)
		return false;
	for (u32 i = 0; i < EXT2_PC_HASH; i++)
		list_for_each_entry(ep, &ei->pc_hash[i], hash)
			if (ep->index >= first && ep->index <= last &&
			    (ep->dirty || ep->mapwrite || (write && page_count(ep->page) > 1)))
				return true;
	return false;
}

void ext2_runs_forget(struct ext2_inode_info *ei)
{
	memset(ei->runs, 0, sizeof(ei->runs));
}

/* The cache slot of file block lblk's map block (a run never leaves its map
 * block): the direct slots share slot 0, each indirect block of data
 * pointers the next one, modulo EXT2_RUNS. */
static u32 ext2_run_slot(const struct ext2_sb *sb, u32 lblk)
{
	if (lblk < EXT2_NDIR_BLOCKS)
		return 0;
	return (((lblk - EXT2_NDIR_BLOCKS) >> (sb->block_log - 2)) + 1) % EXT2_RUNS;
}

long ext2_map_run(struct inode *inode, u32 lblk, u32 *len)
{
	struct ext2_run *r = &EXT2_I(inode)->runs[ext2_run_slot(EXT2_SB(inode), lblk)];
	u32 first, n;
	long nr;

	if (lblk - r->lblk < r->len) {
		*len = r->len - (lblk - r->lblk);
		return r->pblk + (lblk - r->lblk);
	}
	nr = ext2_bmap_run(inode, lblk, &first, &n);
	if (nr <= 0)
		return nr;
	*r = (struct ext2_run){ first, nr - (lblk - first), n };
	*len = n - (lblk - first);
	return nr;
}

long ext2_map_span(struct inode *inode, u32 lblk, u32 nb)
{
	u32 len, more;
	long start = ext2_map_run(inode, lblk, &len), next;

	while (start > 0 && len < nb) {	/* the next run may go on where this ends */
		next = ext2_map_run(inode, lblk + len, &more);
		if (next != start + (long)len)
			return next < 0 ? next : 0;
		len += more;
	}
	return start;
}

/* Cut file bytes [pos, pos + n) at their block runs (runs consecutive on the
 * device merged): sp[] gets each piece's offset in the request, length and
 * device byte (from the file system's start); the count, or -EAGAIN (a hole,
 * more than EXT2_DIO_PARTS pieces, an indirect block not cached, a bad map:
 * the worker's path decides). the file's lock held with its nowait set. */
static int ext2_dio_plan(struct inode *inode, loff_t pos, size_t n, struct ext2_dio_span *sp)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 bs = sb->block_size, len;
	size_t off = 0, bytes;
	int k = 0;
	long nr;
	u64 at;

	while (off < n) {
		at = (u64)pos + off;
		nr = ext2_map_run(inode, at >> sb->block_log, &len);
		if (nr <= 0)
			return -EAGAIN;
		bytes = MIN(n - off, (size_t)(((u64)len << sb->block_log) - (at & (bs - 1))));
		at = ((u64)nr << sb->block_log) + (at & (bs - 1));
		if (k && sp[k - 1].at + sp[k - 1].len == at) {
			sp[k - 1].len += bytes;
		} else {
			if (k == EXT2_DIO_PARTS)
				return -EAGAIN;
			sp[k++] = (struct ext2_dio_span){ off, bytes, at };
		}
		off += bytes;
	}
	return k;
}

/* io_cancel of a request ext2_dio_try sent: withdrawn while the driver queues it. */
static int ext2_dio_cancel(struct kiocb *iocb)
{
	struct ext2_sb *sb = EXT2_SB(kiocb_file(iocb)->f_inode);

	return blk_file_cancel(blk_file_dev(sb->dev), iocb);
}

/* The pieces (ext2_dio_plan, device bytes from the device's start) a direct
 * read or write of [pos, pos + n) goes in: inside the file, no cached page in
 * the way; else -EAGAIN. The file's lock held (with nowait: no indirect block
 * read). */
static int ext2_dio_where(struct inode *inode, loff_t pos, size_t n, bool write,
			  struct ext2_dio_span *sp)
{
	int k;

	if ((u64)pos + n > (u64)inode->size || ext2_dio_cached_in_way(inode, pos, n, write))
		return -EAGAIN;
	k = ext2_dio_plan(inode, pos, n, sp);
	for (int i = 0; i < k; i++)
		sp[i].at += EXT2_SB(inode)->dev_offset;
	return k;
}

static struct ext2_inode_info *ext2_dio_ei(struct kiocb *iocb)
{
	return EXT2_I(kiocb_file(iocb)->f_inode);
}

/* A counted direct request ended (blk_file's end hook: the driver's
 * interrupt, or a cancel). The file, so the inode, is held until the
 * aio_complete that follows. */
static void ext2_dio_end(struct kiocb *iocb, atomic_t *count)
{
	if (atomic_dec_and_test(count))
		wake_up_all(&EXT2_SB(kiocb_file(iocb)->f_inode)->dio_wait);
}

static void ext2_dio_end_read(struct kiocb *iocb)
{
	ext2_dio_end(iocb, &ext2_dio_ei(iocb)->dio_reads);
}

static void ext2_dio_end_write(struct kiocb *iocb)
{
	ext2_dio_end(iocb, &ext2_dio_ei(iocb)->dio_writes);
}

/* Before waiting for direct requests: a request sent by an io_submit may
 * still sit in its submitter's plug, not yet kicked, and that submitter may
 * be asleep on an ext2 lock (a fault on a mapping of ours while pinning a later
 * request of its batch): start everything the device has queued now. */
void ext2_dev_kick(struct ext2_sb *sb)
{
	struct blkdev *dev = blk_file_dev(sb->dev);

	if (dev)
		blkdev_kick(dev);
}

void ext2_dio_wait_inode(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);

	if (!atomic_read(&ei->dio_reads) && !atomic_read(&ei->dio_writes))
		return;
	ext2_dev_kick(EXT2_SB(inode));
	wait_event(EXT2_SB(inode)->dio_wait,
		   !atomic_read(&ei->dio_reads) && !atomic_read(&ei->dio_writes));
}

int ext2_dio_wait_writes(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);

	if (!atomic_read(&ei->dio_writes))
		return 0;
	if (EXT2_I(inode)->nowait)
		return -EAGAIN;
	ext2_dev_kick(EXT2_SB(inode));
	wait_event(EXT2_SB(inode)->dio_wait, !atomic_read(&ei->dio_writes));
	return 0;
}

/* Send a direct request at device byte at without waiting, from the user's
 * segments (iov) or pinned pages (pv), counted on the inode until the driver
 * ends it. -EIOCBQUEUED, or blk_file's error with nothing sent. The file's lock held. */
static ssize_t ext2_dio_send_async(struct kiocb *iocb, bool write, const struct iovec *iov,
				   u32 nr, struct pinned_vec *pv, loff_t at)
{
	struct ext2_inode_info *ei = ext2_dio_ei(iocb);
	struct file *dev = EXT2_SB(kiocb_file(iocb)->f_inode)->dev;
	atomic_t *count = write ? &ei->dio_writes : &ei->dio_reads;
	void (*end)(struct kiocb *) = write ? ext2_dio_end_write : ext2_dio_end_read;
	enum blk_op op = write ? BLK_WRITE : BLK_READ;
	ssize_t ret;

	atomic_inc(count);		/* before: the interrupt may end it at once */
	ret = iov ? blk_file_user_rw(dev, iocb, op, iov, nr, at, ext2_dio_cancel, end) :
		blk_file_pinned_rw(dev, iocb, op, pv, at, ext2_dio_cancel, end);
	if (ret != -EIOCBQUEUED)
		ext2_dio_end(iocb, count);
	return ret;
}

/* Before a direct overwrite sent without waiting: the times in the inode's
 * block (under nowait -EAGAIN when it is not cached), the clean cached
 * pages over the range dropped (no I/O: ext2_dio_where left none dirty or
 * mapped). */
static int ext2_dio_write_prep(struct inode *inode, loff_t pos, size_t n)
{
	int err;

	ext2_touch(inode, true);
	if ((err = ext2_write_inode(inode)))
		return err;
	return ext2_pc_flush_range(inode, pos, n);
}

/* The user segments of bytes [off, off + len) of iov[0..nr): into sub, their count. */
static u32 ext2_dio_subiov(const struct iovec *iov, u32 nr, size_t off, size_t len,
			   struct iovec *sub)
{
	u32 k = 0;

	for (u32 i = 0; i < nr && len; i++) {
		size_t take;
		if (off >= iov[i].iov_len) {
			off -= iov[i].iov_len;
			continue;
		}
		take = MIN(iov[i].iov_len - off, len);
		sub[k++] = (struct iovec){ (char *)iov[i].iov_base + off, take };
		len -= take;
		off = 0;
	}
	return k;
}

/* A part ended, or the submitter let go: the last one completes the request
 * (any context: the driver's interrupt). */
static void ext2_dio_multi_put(struct ext2_dio_multi *m)
{
	struct kiocb *iocb = m->iocb;
	struct ext2_inode_info *ei = ext2_dio_ei(iocb);
	long res = m->n;

	if (!atomic_dec_and_test(&m->pending))
		return;
	for (u32 i = 0; i < m->nr; i++)
		if (m->parts[i].res != (long)m->parts[i].sp.len) {
			res = m->parts[i].res < 0 ? m->parts[i].res : -EIO;
			break;
		}
	ext2_dio_end(iocb, m->write ? &ei->dio_writes : &ei->dio_reads);
	kfree(m);
	aio_complete(iocb, res, 0);
}

static void ext2_dio_part_done(void *priv, long res)
{
	struct ext2_dio_part *p = priv;

	p->res = res;
	ext2_dio_multi_put(p->m);
}

/* Pin every part's user segments before anything is sent: 0, or -errno
 * with nothing left pinned. */
static int ext2_dio_multi_pin(struct ext2_dio_multi *m, const struct iovec *iov, u32 nr)
{
	struct iovec sub[EXT2_DIO_SEGS];
	int err = 0;
	u32 i, k;

	for (i = 0; i < m->nr && !err; i++) {
		struct ext2_dio_part *p = &m->parts[i];
		k = ext2_dio_subiov(iov, nr, p->sp.off, p->sp.len, sub);
		err = pin_user_iov(current->mm, sub, k, !m->write, &p->pv, p->room, EXT2_DIO_ROOM);
	}
	if (err)
		for (k = 0; k + 1 < i; k++)
			unpin_user_vec(&m->parts[k].pv);
	return err;
}

/* Send a direct request of k pieces (sp) from io_submit, one driver request
 * each, counted on the inode until the last ends: -EIOCBQUEUED, or -errno
 * with nothing sent. A part the device refuses after others went ends with
 * its error. The file's lock held. */
static ssize_t ext2_dio_send_multi(struct kiocb *iocb, bool write, const struct iovec *iov,
				   u32 nr, const struct ext2_dio_span *sp, int k, size_t n)
{
	struct ext2_inode_info *ei = ext2_dio_ei(iocb);
	struct file *dev = EXT2_SB(kiocb_file(iocb)->f_inode)->dev;
	atomic_t *count = write ? &ei->dio_writes : &ei->dio_reads;
	struct ext2_dio_multi *m;
	int err = 0, sent = 0;

	if (nr > EXT2_DIO_SEGS)
		return -EAGAIN;			/* the worker's */
	if (!(m = kmalloc(sizeof(*m), GFP_KERNEL)))
		return -ENOMEM;
	*m = (struct ext2_dio_multi){ .iocb = iocb, .n = n, .write = write, .nr = k };
	for (int i = 0; i < k; i++)
		m->parts[i] = (struct ext2_dio_part){ .m = m, .sp = sp[i] };
	if ((err = ext2_dio_multi_pin(m, iov, nr))) {
		kfree(m);
		return err;
	}
	atomic_inc(count);
	atomic_set(&m->pending, k + 1);
	for (int i = 0; i < k; i++) {
		struct ext2_dio_part *p = &m->parts[i];
		if (!err)
			err = blk_file_pinned_async(dev, write ? BLK_WRITE : BLK_READ, &p->pv,
						    p->sp.at, ext2_dio_part_done, p);
		if (err) {			/* not sent: it ends now, with the error */
			unpin_user_vec(&p->pv);
			p->res = err;
			atomic_dec(&m->pending);	/* never the last: ours is held */
		} else {
			sent++;
		}
	}
	if (!sent) {
		ext2_dio_end(iocb, count);
		kfree(m);
		return err;
	}
	ext2_dio_multi_put(m);
	return -EIOCBQUEUED;
}

long ext2_dio_worker_send(struct inode *inode, struct kiocb *iocb, struct pinned_vec *buf,
			  size_t n, loff_t pos, bool write)
{
	struct ext2_dio_span sp[EXT2_DIO_PARTS];
	int k = ext2_dio_where(inode, pos, n, write, sp);

	if (k == 1 && write && (kiocb_dsync(iocb) || ext2_dio_write_prep(inode, pos, n)))
		k = -EAGAIN;		/* (RWF_DSYNC: the worker's fsync follows) */
	if (k != 1)			/* (several runs: moved here, waited for) */
		return ext2_dio_rw(inode, buf, n, pos, write);
	atomic_inc(&ext2_dio_async);
	if (!write)
		ext2_accessed(inode);
	return ext2_dio_send_async(iocb, write, NULL, 0, buf, sp[0].at);
}

ssize_t ext2_dio_try(struct kiocb *iocb, const struct iovec *iov, u32 nr, size_t n, loff_t pos,
		     bool write)
{
	struct inode *inode = kiocb_file(iocb)->f_inode;
	struct ext2_dio_span sp[EXT2_DIO_PARTS];
	ssize_t ret = -EAGAIN;
	int k;

	if (write && (kiocb_dsync(iocb) || kiocb_is_append(iocb)))
		return -EAGAIN;		/* the worker: data, then fdatasync's metadata;
					 * an append at the end it finds */
	if (!ext2_itry_lock(inode))
		return -EAGAIN;
	k = ext2_dio_where(inode, pos, n, write, sp);
	if (k > 0 && write && ext2_dio_write_prep(inode, pos, n))
		k = -EAGAIN;
	if (k == 1)
		ret = ext2_dio_send_async(iocb, write, iov, nr, NULL, sp[0].at);
	else if (k > 1)
		ret = ext2_dio_send_multi(iocb, write, iov, nr, sp, k, n);
	if (ret == -EIOCBQUEUED && !write)
		ext2_accessed(inode);	/* (its block may not be cached: see there) */
	if (ret == -EIOCBQUEUED)
		atomic_inc(write ? &ext2_dio_direct_writes : &ext2_dio_direct);
	if (ret == -EIOCBQUEUED && k > 1)
		atomic_inc(&ext2_dio_multi);
	if (ext2_fault_taken(inode)) {	/* pinning faulted on a mapping of ours: the worker */
					/* pins without the lock */
		ret = ret == -EIOCBQUEUED ? ret : -EAGAIN;
	}
	ext2_itry_unlock(inode);
	return ret;
}
