/* readahead.c: page-cache fills: a page read from the device without waiting,
 * marked busy until the read's completion makes it uptodate (or leaves it not
 * uptodate after an error) and calls the readers that wait for it; the AIO
 * worker's batches of fills, and the read-ahead window behind sequential reads.
 *
 * A fill (ext2_fill_start) starts under the inode's lock on a cached page that is not
 * uptodate, not dirty and not busy, whose blocks inside the file are one
 * mapped run (ext2_fill_where); its bytes past the file's end (as it was at
 * the start: a write to the page waits for the fill) are zeroed by the
 * completion. A reader that finds the page busy joins the fill
 * (ext2_fill_join): one device read however many readers. A busy page is
 * never freed, written, or filled again: everything that would (a write, a
 * truncate, eviction, a synchronous fill) waits in ext2_fill_wait_page, with
 * the inode's lock held: a completion takes no lock of the file system, so that
 * wait always ends.
 *
 * The worker (aio.c) starts the fills of the pages that a batch of queued
 * buffered reads miss under each inode's lock (ext2_fill_begin, ext2_fill_read) and
 * waits for them without it (ext2_fill_end); any page a fill cannot read
 * (holes, partly written pages, split runs) is left to ext2_pc_get's
 * synchronous fill.
 *
 * Read-ahead: each inode keeps the page after its last window (ra_next; 0:
 * none yet) and the window's size (ra_win). A read that misses and starts
 * inside the last window or just after it is sequential: the window doubles
 * (EXT2_RA_MIN to EXT2_RA_MAX pages) and is read after the request's own
 * pages; any other read resets it (random reads cost no extra I/O). Reads
 * that hit the cache never come here: the window advances when a read first
 * misses past it.
 *
 * Withdrawal (io_cancel of a buffered read sent from io_submit, aread.c):
 * under the inode's lock, a fill that only one reader waits for and that is still in
 * the driver's queue (not on the device) is taken back (ext2_fill_withdraw):
 * its completion runs at once with -ECANCELED, the page stays cached, not
 * uptodate and not busy (the next reader fills it again), and the reader is
 * not called. The inode's lock keeps anyone from joining it meanwhile.
 *
 * Locks: ext2_fill_lock (a spinlock, irqsave, innermost) guards every page's
 * busy flag, the uptodate flag of a busy page and its waiters; busy is set
 * only under the inode's lock, so a holder of that lock that reads it clear knows it
 * stays clear.
 */
#include "aio.h"
#include "blk_file.h"
#include "errno.h"
#include "highmem.h"
#include "mm.h"
#include "slab.h"
#include "string.h"
#include "wait.h"
#include "ext2.h"

#define EXT2_FILL_MAX	64		/* the worker's fills in flight per wait */
#define EXT2_RA_MIN	4		/* read-ahead window, pages: first */

DEFINE_SPINLOCK(ext2_fill_lock);
static DECLARE_WAIT_QUEUE_HEAD(ext2_fill_wq);	/* a fill ended (pages, batches) */

struct ext2_fill {
	struct ext2_sb *sb;
	u32 nr;				/* fills started since the last wait */
	atomic_t pending;		/* ... not yet completed */
	struct ext2_fill_wait waits[EXT2_FILL_MAX];
};

atomic_t ext2_fill_pages = ATOMIC_INIT(0);	/* pages fills read, since boot */
atomic_t ext2_ra_pages = ATOMIC_INIT(0);	/* ... of them read ahead (no request's own) */
atomic_t ext2_fill_joined = ATOMIC_INIT(0);	/* readers that joined a fill in flight */
atomic_t ext2_fill_withdrawn = ATOMIC_INIT(0);	/* fills taken back from the driver's
						 * queue (io_cancel), never read */

/* The read's completion (interrupts off, any context): the page is uptodate
 * when read whole, its tail past the file's end zeroed; wake and call its
 * waiters. The page may be freed as soon as busy is clear. */
static void ext2_fill_end_io(void *priv, long res)
{
	struct ext2_page *ep = priv;
	struct ext2_fill_wait *w, *n;
	bool ok = res == ep->fill_len;
	LIST_HEAD(done);
	u32 flags = local_irq_save();
	char *p;

	if (ok && ep->fill_eof < PAGE_SIZE) {
		p = kmap_atomic(ep->page, KM_BIO_DST_IRQ);
		memset(p + ep->fill_eof, 0, PAGE_SIZE - ep->fill_eof);
		kunmap_atomic(p, KM_BIO_DST_IRQ);
	}
	lock_stat_spin_lock(&ext2_fill_lock, &ext2_ls_fill);
	ep->uptodate = ok;
	ep->busy = false;
	list_for_each_entry(w, &ep->waiters, link)
		w->ep = NULL;			/* called now: no cancel detaches it */
	list_splice_init(&ep->waiters, &done);
	lock_stat_spin_unlock(&ext2_fill_lock, &ext2_ls_fill);
	local_irq_restore(flags);
	wake_up_all(&ext2_fill_wq);
	list_for_each_entry_safe(w, n, &done, link)
		w->done(w, ok);
}

int ext2_fill_start(struct ext2_page *ep, u32 nr, u32 len, struct ext2_fill_wait *w)
{
	struct ext2_sb *sb = EXT2_SB(ep->inode);
	u64 in_file = ep->inode->size - ((u64)ep->index << PAGE_SHIFT);
	u32 flags;
	int err;

	lock_stat_spin_lock_irqsave(&ext2_fill_lock, &ext2_ls_fill, flags);
	ep->busy = true;
	ep->fill_len = len;
	ep->fill_eof = MIN(in_file, (u64)len);
	if (w) {
		list_add_tail(&w->link, &ep->waiters);
		w->ep = ep;
	}
	lock_stat_spin_unlock_irqrestore(&ext2_fill_lock, &ext2_ls_fill, flags);
	err = blk_file_kernel_async(sb->dev, BLK_READ, ep->page, 0, len,
				    sb->dev_offset + ((u64)nr << sb->block_log), ext2_fill_end_io, ep);
	if (err) {			/* nothing started: nobody else saw it busy */
		lock_stat_spin_lock_irqsave(&ext2_fill_lock, &ext2_ls_fill, flags);
		if (w) {
			list_del(&w->link);
			w->ep = NULL;
		}
		ep->busy = false;
		lock_stat_spin_unlock_irqrestore(&ext2_fill_lock, &ext2_ls_fill, flags);
		return err;
	}
	atomic_inc(&ext2_fill_pages);
	return 0;
}

/* Add w to ep's waiters while its fill is in flight: true, else false. */
static bool ext2_fill_add_waiter(struct ext2_page *ep, struct ext2_fill_wait *w)
{
	bool busy;
	u32 flags;

	lock_stat_spin_lock_irqsave(&ext2_fill_lock, &ext2_ls_fill, flags);
	busy = ep->busy;
	if (busy) {
		list_add_tail(&w->link, &ep->waiters);
		w->ep = ep;
	}
	lock_stat_spin_unlock_irqrestore(&ext2_fill_lock, &ext2_ls_fill, flags);
	return busy;
}

bool ext2_fill_join(struct ext2_page *ep, struct ext2_fill_wait *w)
{
	if (!ext2_fill_add_waiter(ep, w))
		return false;
	atomic_inc(&ext2_fill_joined);
	return true;
}

struct ext2_page *ext2_fill_detach(struct ext2_fill_wait *w, bool alone)
{
	struct ext2_page *ep;
	u32 flags;

	lock_stat_spin_lock_irqsave(&ext2_fill_lock, &ext2_ls_fill, flags);
	ep = w->ep;
	if (ep && alone && (ep->waiters.next != &w->link || ep->waiters.prev != &w->link))
		ep = NULL;			/* another reader waits too */
	if (ep) {
		list_del(&w->link);
		w->ep = NULL;
	}
	lock_stat_spin_unlock_irqrestore(&ext2_fill_lock, &ext2_ls_fill, flags);
	return ep;
}

/* Wait for ep again through w after a withdrawal failed: joined while the
 * fill is in flight, else w->done runs now with its outcome. The inode's lock held
 * (ep stays cached). */
static void ext2_fill_reattach(struct ext2_page *ep, struct ext2_fill_wait *w)
{
	if (!ext2_fill_add_waiter(ep, w))
		w->done(w, ep->uptodate);
}

int ext2_fill_withdraw(struct ext2_fill_wait *w, struct ext2_page **epp)
{
	struct ext2_page *ep = READ_ONCE(w->ep);

	if (!ep)
		return -ENOENT;			/* called already */
	if (!(ep = ext2_fill_detach(w, true)))
		return READ_ONCE(w->ep) ? -EBUSY : -ENOENT;	/* joined; or ended now */
	if (blk_file_cancel_async(EXT2_SB(ep->inode)->dev, ep)) {
		ext2_fill_reattach(ep, w);	/* on the device: it goes on */
		return -EAGAIN;
	}
	atomic_inc(&ext2_fill_withdrawn);	/* ext2_fill_end_io ran: not busy */
	*epp = ep;
	return 0;
}

int ext2_fill_restart(struct ext2_page *ep, struct ext2_fill_wait *w)
{
	u32 len, nr = ext2_fill_where(ep->inode, ep->index, &len);

	if (ep->busy || ep->uptodate)		/* (the inode's lock held: neither is possible) */
		return -EAGAIN;
	return nr ? ext2_fill_start(ep, nr, len, w) : -EIO;
}

static bool ext2_fill_busy(struct ext2_page *ep)
{
	bool busy;
	u32 flags;

	lock_stat_spin_lock_irqsave(&ext2_fill_lock, &ext2_ls_fill, flags);
	busy = ep->busy;
	lock_stat_spin_unlock_irqrestore(&ext2_fill_lock, &ext2_ls_fill, flags);
	return busy;
}

void ext2_fill_wait_page(struct ext2_page *ep)
{
	if (ep->busy) {
		blk_flush_plug();	/* a fill this io_submit started may wait there */
		ext2_dev_kick(EXT2_SB(ep->inode));	/* or another submitter's plug,
							 * that submitter asleep on an ext2 lock */
		wait_event(ext2_fill_wq, !ext2_fill_busy(ep));
	}
}

u32 ext2_fill_where(struct inode *inode, u32 index, u32 *len)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u64 start = (u64)index << PAGE_SHIFT, size = inode->size;
	u32 bpp = PAGE_SIZE >> sb->block_log, nb;
	long first;

	if (start >= size)
		return 0;
	nb = MIN((u64)bpp, (size - start + sb->block_size - 1) >> sb->block_log);
	first = ext2_map_span(inode, index * bpp, nb);
	if (first <= 0)
		return 0;			/* a hole, an error, a map not cached, a split */
	*len = nb << sb->block_log;
	return first;
}

u32 ext2_ra_window(struct ext2_inode_info *ei, u32 first, u32 last)
{
	bool seq = ei->ra_next && first + ei->ra_win + 1 >= ei->ra_next && first <= ei->ra_next;

	if (!seq)
		ei->ra_win = 0;
	else
		ei->ra_win = ei->ra_win ? MIN(ei->ra_win * 2, (u32)EXT2_RA_MAX) : EXT2_RA_MIN;
	ei->ra_next = last + ei->ra_win + 1;
	return ei->ra_win;
}

struct ext2_fill *ext2_fill_begin(struct ext2_sb *sb)
{
	struct ext2_fill *f = kmalloc(sizeof(*f), GFP_KERNEL);

	if (f) {
		f->sb = sb;
		f->nr = 0;
		atomic_set(&f->pending, 0);
	}
	return f;
}

/* One of a batch's fills ended (its completion): the last wakes the worker. */
static void ext2_fill_batch_done(struct ext2_fill_wait *w, bool ok)
{
	struct ext2_fill *f = w->priv;

	if (atomic_dec_and_test(&f->pending))
		wake_up_all(&ext2_fill_wq);
}

/* Wait for every fill of the batch (with or without the inode's lock). */
static void ext2_fill_wait_all(struct ext2_fill *f)
{
	wait_event(ext2_fill_wq, atomic_read(&f->pending) == 0);
	f->nr = 0;
}

/* Start reading page index of inode unless cached or not simple (ahead: a
 * read-ahead page). */
static void ext2_fill_page(struct ext2_fill *f, struct inode *inode, u32 index, bool ahead)
{
	struct ext2_fill_wait *w;
	struct ext2_page *ep;
	u32 len, nr = ext2_fill_where(inode, index, &len);

	if (!nr)
		return;
	ep = ext2_pc_lookup(inode, index, true);
	if (IS_ERR(ep) || ep->uptodate || ep->dirty || ep->busy)
		return;
	if (f->nr == EXT2_FILL_MAX)
		ext2_fill_wait_all(f);
	w = &f->waits[f->nr];
	w->done = ext2_fill_batch_done;
	w->priv = f;
	atomic_inc(&f->pending);
	if (ext2_fill_start(ep, nr, len, w)) {
		atomic_dec(&f->pending);	/* not started: the synchronous fill tries */
		return;
	}
	f->nr++;
	if (ahead)
		atomic_inc(&ext2_ra_pages);
}

void ext2_fill_read(struct ext2_fill *f, struct inode *inode, loff_t pos, size_t n)
{
	u64 end = MIN((u64)pos + n, (u64)inode->size);
	u32 first, last, win;

	if (!n || (u64)pos >= end || ext2_dio_wait_writes(inode))
		return;				/* (waits for direct writes in flight) */
	first = (u64)pos >> PAGE_SHIFT;
	last = (end - 1) >> PAGE_SHIFT;
	win = ext2_ra_window(EXT2_I(inode), first, last);
	for (u64 i = first; i <= (u64)last + win; i++)
		ext2_fill_page(f, inode, i, i > last);
}

void ext2_fill_end(struct ext2_fill *f)
{
	ext2_fill_wait_all(f);
	kfree(f);
}
