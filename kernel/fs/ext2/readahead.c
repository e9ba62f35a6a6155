/* readahead.c: the AIO worker's page-cache fills: the pages that a batch of
 * buffered AIO reads misses, and a read-ahead window behind sequential ones,
 * read from the device all at once (up to EXT2_FILL_MAX page reads in flight)
 * instead of one page at a time.
 *
 * Contract: the worker (aio.c) takes sb->lock, calls ext2_fill_read for each
 * buffered read of its batch and ext2_fill_end, then runs the reads with the
 * ordinary path, which finds their pages cached. A page is filled here only
 * when it is new (not cached, not dirty), its blocks are one mapped run and it
 * lies wholly before the end of the file; any other page (holes, partly
 * written pages, the last page, a block size that splits the page over runs)
 * is left to ext2_pc_get's synchronous fill. A page being read is marked busy,
 * so making room for the next one never frees it (pagecache.c); a failed read
 * leaves the page not uptodate, and the reader's own fill reports the error.
 *
 * Read-ahead: each inode keeps the page after its last window (ra_next; 0:
 * none yet) and the window's size (ra_win). A worker read starting inside the last window
 * or just after it is sequential: the window doubles (EXT2_RA_MIN to
 * EXT2_RA_MAX pages) and is read after the request's own pages; any other
 * read resets it (random reads cost no extra I/O). Reads that hit the cache
 * inside io_submit never come here: the window advances when a read first
 * misses past it. Process context, sb->lock held throughout.
 */
#include "aio.h"
#include "blk_file.h"
#include "errno.h"
#include "mm.h"
#include "slab.h"
#include "string.h"
#include "ext2.h"

#define EXT2_FILL_MAX	64		/* page reads in flight per wait */
#define EXT2_RA_MIN	4		/* read-ahead window, pages: first */
#define EXT2_RA_MAX	64		/* ... and largest */

struct ext2_fill {
	struct ext2_sb *sb;
	u32 nr;				/* reads in flight */
	struct ext2_page *pages[EXT2_FILL_MAX];
	struct kiocb kiocbs[EXT2_FILL_MAX];	/* synchronous, waited in ext2_fill_wait */
};

atomic_t ext2_fill_pages = ATOMIC_INIT(0);	/* pages the worker's fills read, since boot */
atomic_t ext2_ra_pages = ATOMIC_INIT(0);	/* ... of them read ahead (no request's own) */

struct ext2_fill *ext2_fill_begin(struct ext2_sb *sb)
{
	struct ext2_fill *f = kmalloc(sizeof(*f), GFP_KERNEL);

	if (f) {
		f->sb = sb;
		f->nr = 0;
	}
	return f;
}

/* Wait for every read in flight: a page read whole is uptodate. */
static void ext2_fill_wait(struct ext2_fill *f)
{
	for (u32 i = 0; i < f->nr; i++) {
		long r = wait_on_sync_kiocb(&f->kiocbs[i], -EIOCBQUEUED);
		struct ext2_page *ep = f->pages[i];

		ep->busy = false;
		ep->uptodate = r == PAGE_SIZE;
	}
	f->nr = 0;
}

/* The device block where page index of inode starts when its blocks are one
 * mapped run inside the file; 0 otherwise (or on any error: the synchronous
 * path reports it). */
static u32 ext2_fill_map(struct inode *inode, u32 index)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 bpp = PAGE_SIZE >> sb->block_log, lblk = index * bpp;
	long first;

	if (((u64)index + 1) << PAGE_SHIFT > (u64)inode->size)
		return 0;			/* the last page: its tail is zeroed there */
	first = ext2_bmap(inode, lblk, false, NULL);
	if (first <= 0)
		return 0;
	for (u32 i = 1; i < bpp; i++)
		if (ext2_bmap(inode, lblk + i, false, NULL) != first + (long)i)
			return 0;
	return first;
}

/* Start reading page index of inode unless cached or not simple (ahead: a
 * read-ahead page). */
static void ext2_fill_page(struct ext2_fill *f, struct inode *inode, u32 index, bool ahead)
{
	struct ext2_sb *sb = f->sb;
	struct ext2_page *ep;
	u32 nr = ext2_fill_map(inode, index);
	struct kiocb *k;

	if (!nr)
		return;
	ep = ext2_pc_get(inode, index, false);	/* cached as it is, or new and zeroed */
	if (IS_ERR(ep) || ep->uptodate || ep->dirty || ep->busy)
		return;
	if (f->nr == EXT2_FILL_MAX)
		ext2_fill_wait(f);
	k = &f->kiocbs[f->nr];
	init_sync_kiocb(k, sb->dev);
	if (blk_file_kernel_rw(k, BLK_READ, ep->page, 0, PAGE_SIZE,
			       sb->dev_offset + ((u64)nr << sb->block_log)) != -EIOCBQUEUED)
		return;				/* not started: the synchronous fill tries */
	ep->busy = true;
	f->pages[f->nr++] = ep;
	atomic_inc(&ext2_fill_pages);
	if (ahead)
		atomic_inc(&ext2_ra_pages);
}

/* The read-ahead window after pages [first, last] of a worker read (0: none). */
static u32 ext2_ra_window(struct ext2_inode_info *ei, u32 first, u32 last)
{
	bool seq = ei->ra_next && first + ei->ra_win + 1 >= ei->ra_next && first <= ei->ra_next;

	if (!seq)
		ei->ra_win = 0;
	else
		ei->ra_win = ei->ra_win ? MIN(ei->ra_win * 2, (u32)EXT2_RA_MAX) : EXT2_RA_MIN;
	ei->ra_next = last + ei->ra_win + 1;
	return ei->ra_win;
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
	ext2_fill_wait(f);
	kfree(f);
}
