/* aread.c: buffered AIO reads of ext2 files that miss the page cache, sent to
 * the device from io_submit and completed from the device's completions.
 *
 * io_submit's try (aio.c) holds the inode's lock with its nowait set; when its read
 * misses, ext2_aread_start looks at every page the read covers: each must be
 * uptodate (a hit), busy (a fill in flight: the request joins it, no second
 * device read), or absent / not uptodate and clean with its blocks one mapped
 * run whose map is cached (a fill is started, readahead.c). Any other page (a
 * hole, a partly written page, an indirect block to read) sends the whole
 * request to the worker as before, with nothing started. The pages of the
 * read-ahead window behind a sequential read are filled too, and waited for
 * by the request (the next sequential read then hits). The device is kicked
 * once at the end of io_submit (its plug); a wait for a busy page kicks the
 * plug first (ext2_fill_wait_page), so a fault later in the same io_submit
 * on a page this started never waits for a read still held back.
 *
 * The request holds a reference on each of its own pages and pins the user's
 * segments; its count of pending fills (+ one for the submitter) ends at the
 * last fill's completion, which copies the pages into the pinned user pages
 * (kmap_atomic, KM_BIO_SRC_IRQ / KM_BIO_DST_IRQ, interrupts off) and calls
 * aio_complete: -EIO if any fill failed (the page stays not uptodate; the next
 * reader reads it again). No lock of the file system is taken at completion.
 *
 * io_cancel (ext2_aread_cancel, under the inode's lock, so nobody joins or starts a
 * fill meanwhile) takes back from the driver's queue every fill the request
 * alone waits for (readahead.c: ext2_fill_withdraw; its pages stay cached,
 * not uptodate, for the next reader to fill) and stops waiting for the fills
 * other readers share (they go on): 0, and the AIO core posts the event as
 * -ECANCELED, as a block device's cancel. All or none: when one of its own
 * fills is on the device already, the ones taken start again and io_cancel
 * answers -EAGAIN; the request completes on its own (as a block-device
 * request the driver has started). The request is found through the kiocb's
 * private pointer, cleared under ext2_fill_lock before the request is freed;
 * a cancel holds one of its pending references while it works.
 */
#include "aio.h"
#include "errno.h"
#include "fs.h"
#include "highmem.h"
#include "mm.h"
#include "pin.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "ext2.h"

#define EXT2_AREAD_MAX	128		/* pages of one request (512 KiB); more: the worker */
#define EXT2_AREAD_ROOM	16		/* page pointers of the user's pins kept inside */

struct ext2_aread {
	struct kiocb *iocb;
	loff_t pos;
	size_t n;
	atomic_t pending;		/* fills waited for + the submitter's */
	bool failed;			/* a fill failed (its completion) */
	bool cancelled;			/* io_cancel took it back: no event of ours */
	int err;			/* a fill could not be started (submit) */
	u32 nr_pages;			/* the request's own pages */
	u32 nr_waits;			/* waits in use */
	struct pinned_vec buf;		/* the user's segments */
	struct page *room[EXT2_AREAD_ROOM];
	struct page **pages;		/* nr_pages cached pages, a reference each */
	struct ext2_fill_wait *waits;	/* nr_pages + EXT2_RA_MAX */
};

atomic_t ext2_aread_sent = ATOMIC_INIT(0);	/* misses sent from io_submit, since boot */

/* Can every page of [first, last] be a hit, a join or a fill? (No side
 * effects but the LRU order.) */
static bool ext2_aread_can(struct inode *inode, u32 first, u32 last)
{
	struct ext2_page *ep;
	u32 len;

	for (u32 i = first; i <= last; i++) {
		ep = ext2_pc_lookup(inode, i, false);
		if (ep && (ep->busy || ep->uptodate))
			continue;
		if ((ep && ep->dirty) || !ext2_fill_where(inode, i, &len))
			return false;
	}
	return true;
}

/* Make every page of [first, last] cached before anything starts, then look
 * again: making one may evict another (the cache's eviction takes the least
 * recently used clean page), and a page found uptodate and then evicted may
 * not be fillable from here. False: the worker takes the request, nothing
 * started; true: the pages are there and no further allocation evicts one. */
static bool ext2_aread_make_room(struct inode *inode, u32 first, u32 last)
{
	for (u32 i = first; i <= last; i++)
		if (IS_ERR(ext2_pc_lookup(inode, i, true)))
			return false;
	return ext2_aread_can(inode, first, last);
}

/* The request's bytes from its pages into the user's; the bytes. Any
 * context: interrupts off around the atomic slots. */
static long ext2_aread_copy(struct ext2_aread *ar)
{
	u32 off = ar->pos & (PAGE_SIZE - 1), flags = local_irq_save();
	size_t done = 0;

	for (u32 i = 0; i < ar->nr_pages; i++) {
		u32 len = MIN((size_t)(PAGE_SIZE - off), ar->n - done);
		char *src = kmap_atomic(ar->pages[i], KM_BIO_SRC_IRQ);
		pinned_vec_copy_to(&ar->buf, done, src + off, len, KM_BIO_DST_IRQ);
		kunmap_atomic(src, KM_BIO_SRC_IRQ);
		done += len;
		off = 0;
	}
	local_irq_restore(flags);
	return done;
}

/* The last reference: copy (unless a fill failed), let go of everything and
 * complete. Any context. */
static void ext2_aread_finish(struct ext2_aread *ar)
{
	struct kiocb *iocb = ar->iocb;
	bool cancelled = ar->cancelled;
	long res = cancelled ? 0 : ar->err ? ar->err : ar->failed ? -EIO : ext2_aread_copy(ar);
	u32 flags;

	lock_stat_spin_lock_irqsave(&ext2_fill_lock, &ext2_ls_fill, flags);
	kiocb_set_private(iocb, NULL);		/* no cancel finds it any more */
	lock_stat_spin_unlock_irqrestore(&ext2_fill_lock, &ext2_ls_fill, flags);
	for (u32 i = 0; i < ar->nr_pages; i++)
		if (ar->pages[i])
			put_page(ar->pages[i]);
	unpin_user_vec(&ar->buf);
	kfree(ar);
	if (!cancelled)				/* (else io_cancel posts -ECANCELED) */
		aio_complete(iocb, res, 0);
}

static void ext2_aread_put(struct ext2_aread *ar)
{
	if (atomic_dec_and_test(&ar->pending))
		ext2_aread_finish(ar);
}

/* A fill the request waits for ended (its completion). */
static void ext2_aread_filled(struct ext2_fill_wait *w, bool ok)
{
	struct ext2_aread *ar = w->priv;

	if (!ok)
		ar->failed = true;
	ext2_aread_put(ar);
}

/* A read-ahead page's fill ended: its outcome is not the request's. */
static void ext2_aread_ahead_filled(struct ext2_fill_wait *w, bool ok)
{
	ext2_aread_put(w->priv);
}

/* The next wait of ar, counted as pending. */
static struct ext2_fill_wait *ext2_aread_next_wait(struct ext2_aread *ar,
						   void (*done)(struct ext2_fill_wait *, bool))
{
	struct ext2_fill_wait *w = &ar->waits[ar->nr_waits];

	w->done = done;
	w->priv = ar;
	atomic_inc(&ar->pending);
	return w;
}

/* Wait for ep: join its fill in flight, or start one (nr, len: where). */
static void ext2_aread_wait(struct ext2_aread *ar, struct ext2_page *ep, u32 nr, u32 len)
{
	struct ext2_fill_wait *w = ext2_aread_next_wait(ar, ext2_aread_filled);

	if ((ep->busy && ext2_fill_join(ep, w)) || (nr && !ext2_fill_start(ep, nr, len, w))) {
		ar->nr_waits++;
		return;
	}
	atomic_dec(&ar->pending);		/* never the last: the submitter's is held */
	if (!ep->uptodate)
		ar->err = -EIO;			/* the fill it found failed, or none started */
}

/* Page i of the request (index idx): a hit, a join or a fill. */
static void ext2_aread_page(struct ext2_aread *ar, struct inode *inode, u32 idx, u32 i)
{
	struct ext2_page *ep = ext2_pc_lookup(inode, idx, true);
	u32 len = 0, nr = 0;

	if (IS_ERR(ep)) {
		ar->err = PTR_ERR(ep);
		return;
	}
	get_page(ep->page);
	ar->pages[i] = ep->page;
	if (!ep->busy && !ep->uptodate)
		nr = ext2_fill_where(inode, idx, &len);
	if (ep->busy || !ep->uptodate)
		ext2_aread_wait(ar, ep, nr, len);
}

/* The read-ahead window after pages [first, last] (sequential reads only):
 * new pages filled and waited for by ar (their failure is not its); stops at
 * the first page it cannot fill. */
static void ext2_aread_ahead(struct ext2_aread *ar, struct inode *inode, u32 first, u32 last)
{
	u32 win = ext2_ra_window(EXT2_I(inode), first, last), len, nr;
	struct ext2_fill_wait *w;
	struct ext2_page *ep;

	for (u32 idx = last + 1; idx <= last + win; idx++) {
		if (ext2_pc_lookup(inode, idx, false))
			continue;		/* cached or being filled */
		nr = ext2_fill_where(inode, idx, &len);
		ep = nr ? ext2_pc_lookup(inode, idx, true) : NULL;
		if (!ep || IS_ERR(ep))
			break;
		w = ext2_aread_next_wait(ar, ext2_aread_ahead_filled);
		if (ext2_fill_start(ep, nr, len, w)) {
			atomic_dec(&ar->pending);
			break;
		}
		ar->nr_waits++;
		atomic_inc(&ext2_ra_pages);
	}
}

/* The request io_cancel names, with a reference (pending), or NULL when it
 * is ending. */
static struct ext2_aread *ext2_aread_get(struct kiocb *iocb)
{
	struct ext2_aread *ar;
	u32 flags;

	lock_stat_spin_lock_irqsave(&ext2_fill_lock, &ext2_ls_fill, flags);
	ar = kiocb_private(iocb);
	if (ar && !atomic_inc_not_zero(&ar->pending))
		ar = NULL;
	lock_stat_spin_unlock_irqrestore(&ext2_fill_lock, &ext2_ls_fill, flags);
	return ar;
}

/* A cancel that could not take back every fill: the ones it took (gone[i])
 * start again, waited for as before (a failed start fails the request). */
static void ext2_aread_restart(struct ext2_aread *ar, struct ext2_page **gone)
{
	for (u32 i = 0; i < ar->nr_waits; i++) {
		if (!gone[i])
			continue;
		atomic_inc(&ar->pending);
		if (ext2_fill_restart(gone[i], &ar->waits[i]))
			ar->waits[i].done(&ar->waits[i], false);
	}
}

/* Take back the fills ar alone waits for, the last started first (deepest
 * in the driver's queue); all or none: one already on the device and the
 * rest start again (-EAGAIN). Then stop waiting for the fills other readers
 * share (they go on). 0 when ar waits for nothing now and its event is the
 * canceller's; -EAGAIN when it ends by itself. The inode's lock held, a reference. */
static int ext2_aread_withdraw(struct ext2_aread *ar)
{
	struct ext2_page **gone = kmalloc(MAX(ar->nr_waits, 1u) * sizeof(*gone), GFP_KERNEL);
	u32 taken = 0;
	int err = 0;

	if (!gone)
		return -EAGAIN;
	memset(gone, 0, MAX(ar->nr_waits, 1u) * sizeof(*gone));
	for (u32 i = ar->nr_waits; i-- > 0 && err != -EAGAIN;) {
		err = ext2_fill_withdraw(&ar->waits[i], &gone[i]);
		if (!err) {
			taken++;
			atomic_dec(&ar->pending);	/* never the last: ours is held */
		}
	}
	if (err == -EAGAIN) {
		ext2_aread_restart(ar, gone);
		kfree(gone);
		return -EAGAIN;
	}
	kfree(gone);
	for (u32 i = 0; i < ar->nr_waits; i++)
		if (ext2_fill_detach(&ar->waits[i], false)) {
			taken++;
			atomic_dec(&ar->pending);
		}
	ar->cancelled = taken > 0;
	return taken ? 0 : -EAGAIN;
}

/* io_cancel / io_destroy of a miss sent from io_submit: its fills still in
 * the driver's queue withdrawn (ext2_aread_withdraw). Process context. */
static int ext2_aread_cancel(struct kiocb *iocb)
{
	struct inode *inode = kiocb_file(iocb)->f_inode;
	struct ext2_aread *ar = ext2_aread_get(iocb);
	int err;

	if (!ar)
		return -EAGAIN;
	ext2_ilock(inode);			/* nobody joins or refills its pages */
	err = ext2_aread_withdraw(ar);
	ext2_iunlock(inode);
	ext2_aread_put(ar);			/* cancelled: no aio_complete */
	return err;
}

/* A request for pages [first, last] with the user's segments pinned, or an
 * ERR_PTR (-EAGAIN when pinning faulted on a mapping of this file system). */
static struct ext2_aread *ext2_aread_alloc(struct ext2_sb *sb, const struct iovec *iov, u32 nr,
					   u32 first, u32 last)
{
	u32 np = last - first + 1;
	struct ext2_aread *ar = kmalloc(sizeof(*ar) + np * sizeof(struct page *) +
					(np + EXT2_RA_MAX) * sizeof(struct ext2_fill_wait),
					GFP_KERNEL);
	int err;

	if (!ar)
		return ERR_PTR(-ENOMEM);
	memset(ar, 0, sizeof(*ar));
	ar->nr_pages = np;
	ar->pages = (struct page **)(ar + 1);
	ar->waits = (struct ext2_fill_wait *)(ar->pages + np);
	memset(ar->pages, 0, np * sizeof(struct page *));
	err = pin_user_iov(current->mm, iov, nr, true, &ar->buf, ar->room, EXT2_AREAD_ROOM);
	if (ext2_fault_taken_held()) {	/* a mapping of ours: the worker pins unlocked */
		if (!err)
			unpin_user_vec(&ar->buf);
		err = -EAGAIN;
	}
	if (err) {
		kfree(ar);
		return ERR_PTR(err);
	}
	return ar;
}

ssize_t ext2_aread_start(struct kiocb *iocb, const struct iovec *iov, u32 nr, size_t n,
			 loff_t pos)
{
	struct inode *inode = kiocb_file(iocb)->f_inode;
	struct ext2_aread *ar;
	u32 first, last;

	if (pos >= inode->size)
		return -EAGAIN;
	n = MIN((u64)n, (u64)(inode->size - pos));
	first = (u64)pos >> PAGE_SHIFT;
	last = ((u64)pos + n - 1) >> PAGE_SHIFT;
	if (last - first >= EXT2_AREAD_MAX || !ext2_aread_can(inode, first, last))
		return -EAGAIN;
	if (atomic_read(&EXT2_I(inode)->dio_writes))
		return -EAGAIN;		/* a fill now would cache the old bytes (dio.c) */
	if (!ext2_aread_make_room(inode, first, last))
		return -EAGAIN;
	ar = ext2_aread_alloc(EXT2_SB(inode), iov, nr, first, last);
	if (IS_ERR(ar))
		return PTR_ERR(ar);
	ar->iocb = iocb;
	ar->pos = pos;
	ar->n = n;
	atomic_set(&ar->pending, 1);
	for (u32 i = 0; i <= last - first && !ar->err; i++)
		ext2_aread_page(ar, inode, first + i, i);
	if (!ar->err)
		ext2_aread_ahead(ar, inode, first, last);
	ext2_accessed(inode);
	atomic_inc(&ext2_aread_sent);
	kiocb_set_private(iocb, ar);
	kiocb_set_cancel_fn(iocb, ext2_aread_cancel);
	ext2_aread_put(ar);			/* the submitter's: may be the last */
	return -EIOCBQUEUED;
}
