/* pagecache.c: ext2's page cache: the data of regular files, one page per
 * PAGE_SIZE of a file, found through a small hash per inode and kept on the
 * file system's LRU list (at most EXT2_PC_MAX pages; the oldest clean or
 * written-back page makes room). Pages come from low memory (at most 4 MiB
 * per file system): kmap of them is an address computation, not a
 * HighMem mapping and its TLB flush, on the cache-hit path that copies
 * from them inside io_submit; every access still goes through kmap. A page is filled from the disk once
 * (uptodate); each of its blocks carries a dirty bit, and write-back sends
 * the dirty blocks, coalesced into runs of consecutive device blocks.
 * The block cache (bcache.c) holds metadata and directory blocks only.
 * Mappings (mmap, exec) take the cached page itself with a reference
 * (ext2_pc_map): such a page is never evicted, and one a shared mapping may
 * write (mapwrite) is written whole at every write-back while it is mapped.
 *
 * Write-back errors (as Linux's): a page whose write fails is made clean all
 * the same (its data is lost to the disk; the cached copy stays), and the
 * failure bumps the inode's error sequence (ext2_inode_info.wb_seq), which
 * the next fsync of each open file reports once (file.c). Dirty pages are
 * counted (ext2_dirty_pages) and stamped with the jiffies they became dirty,
 * for the flusher (flush.c).
 *
 * Locks (ext2.h): an inode's pages (its hash, each page's bits and bytes)
 * are its lock's (ext2_ilock); the LRU list and the count are sb->pc_lock's
 * (a spinlock, inside the inode lock). Eviction takes the victim's inode
 * lock with mutex_trylock only (busy inodes' pages are skipped): two inode
 * locks never wait for each other. The sync of every inode's pages
 * (ext2_pc_sync_older) takes each inode's lock in turn, with no other ext2
 * lock held. With ei->nowait set (an AIO request tried inside io_submit),
 * nothing here waits on the disk: a page that must be read, or a dirty page
 * in the way of a new one, is -EAGAIN.
 * A page whose fill is in flight (busy, readahead.c) is never evicted; a
 * lookup for its bytes (ext2_pc_get) and a free wait for the fill first.
 */
#include "blk_file.h"
#include "wait.h"
#include "clock.h"
#include "errno.h"
#include "highmem.h"
#include "mm.h"
#include "slab.h"
#include "string.h"
#include "vm.h"
#include "ext2.h"

atomic_t ext2_cached_pages = ATOMIC_INIT(0);	/* all file systems' (leak checks) */
atomic_t ext2_dirty_pages = ATOMIC_INIT(0);	/* of which dirty */
atomic_t ext2_pages_written = ATOMIC_INIT(0);	/* pages written back, since boot */
atomic_t ext2_wb_errors = ATOMIC_INIT(0);	/* write-backs failed (pages, blocks) */

void ext2_pc_mark(struct ext2_page *ep, u8 bits)
{
	if (!bits)
		return;
	if (!ep->dirty) {
		ep->dirtied = jiffies;
		atomic_inc(&ext2_dirty_pages);
	}
	ep->dirty |= bits;
}

/* Keep only the dirty bits of ep in keep. */
static void ext2_pc_clean(struct ext2_page *ep, u8 keep)
{
	if (ep->dirty && !(ep->dirty & keep))
		atomic_dec(&ext2_dirty_pages);
	ep->dirty &= keep;
}

void ext2_pc_init(struct ext2_inode_info *ei)
{
	for (u32 i = 0; i < EXT2_PC_HASH; i++)
		INIT_LIST_HEAD(&ei->pc_hash[i]);
	ei->nr_pages = 0;
	ei->ra_next = ei->ra_win = 0;
}

static u32 ext2_pc_blocks(const struct ext2_sb *sb)
{
	return PAGE_SIZE >> sb->block_log;	/* blocks per page: 1, 2 or 4 */
}

static struct ext2_page *ext2_pc_find(struct inode *inode, u32 index)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	struct ext2_page *ep;

	list_for_each_entry(ep, &EXT2_I(inode)->pc_hash[index % EXT2_PC_HASH], hash) {
		if (ep->index == index) {
			lock_stat_spin_lock(&sb->pc_lock, &ext2_ls_pc);
			list_del(&ep->lru);
			list_add(&ep->lru, &sb->pages);	/* most recently used */
			lock_stat_spin_unlock(&sb->pc_lock, &ext2_ls_pc);
			return ep;
		}
	}
	return NULL;
}

/* Does a mapping (or anyone besides the cache) hold ep's page? */
static bool ext2_pc_mapped(const struct ext2_page *ep)
{
	return page_count(ep->page) > 1;
}

/* Free ep (a fill in flight is waited for first: its read writes the page). */
static void ext2_pc_free(struct ext2_sb *sb, struct ext2_page *ep)
{
	ext2_fill_wait_page(ep);
	ext2_pc_clean(ep, 0);
	list_del(&ep->hash);
	lock_stat_spin_lock(&sb->pc_lock, &ext2_ls_pc);
	list_del(&ep->lru);
	sb->nr_pages--;
	lock_stat_spin_unlock(&sb->pc_lock, &ext2_ls_pc);
	EXT2_I(ep->inode)->nr_pages--;
	put_page(ep->page);		/* a mapping may hold it a while longer */
	kfree(ep);
	atomic_dec(&ext2_cached_pages);
}

/* The device blocks of ep's blocks in mask (0: a hole, or not in mask)
 * into nr: 0 or -errno. */
static int ext2_pc_map_blocks(struct ext2_page *ep, u32 mask, long *nr)
{
	struct ext2_sb *sb = EXT2_SB(ep->inode);
	u32 bpp = ext2_pc_blocks(sb), lblk = ep->index * bpp;

	for (u32 i = 0; i < bpp; i++) {
		nr[i] = (mask & (1u << i)) ? ext2_bmap(ep->inode, lblk + i, false, NULL) : 0;
		if (nr[i] < 0)
			return nr[i];
	}
	return 0;
}

int ext2_pc_io(struct ext2_page *ep, bool write, u32 mask)
{
	struct inode *inode = ep->inode;
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 bpp = ext2_pc_blocks(sb), bs = sb->block_size;
	long nr[4];
	int err;

	if (EXT2_I(inode)->nowait)
		return -EAGAIN;			/* it would wait on the disk */
	if (!write)
		ext2_dio_wait_writes(inode);	/* else the old bytes would be cached */
	if ((err = ext2_pc_map_blocks(ep, mask, nr)))
		return err;
	for (u32 i = 0, run; i < bpp; i += run) {
		int err;
		for (run = 1; nr[i] && i + run < bpp && nr[i + run] == nr[i] + (long)run; run++)
			;
		if (!nr[i]) {
			if (!write && (mask & (1u << i)))
				ext2_pc_zero(ep, i * bs, bs);
			continue;
		}
		err = ext2_dev_rw(sb, write, ep->page, i * bs, run * bs, (u64)nr[i] * bs);
		if (err)
			return err;
	}
	return 0;
}

void ext2_pc_zero(struct ext2_page *ep, u32 off, u32 len)
{
	char *p = kmap_atomic(ep->page, KM_USER0);

	memset(p + off, 0, len);
	kunmap_atomic(p, KM_USER0);
}

/* The blocks of ep inside the file (one bit each). */
static u32 ext2_pc_in_file(const struct ext2_page *ep)
{
	struct ext2_sb *sb = EXT2_SB(ep->inode);
	u64 start = (u64)ep->index << PAGE_SHIFT, size = ep->inode->size;
	u32 nr;

	if (size <= start)
		return 0;
	nr = MIN((u64)ext2_pc_blocks(sb), (size - start + sb->block_size - 1) >> sb->block_log);
	return (1u << nr) - 1;
}

/* A shared mapping may have written ep since the last write-back: its blocks
 * in the file are dirty. The mark goes once no mapping holds the page. */
static void ext2_pc_fold_mapwrite(struct ext2_page *ep)
{
	if (!ep->mapwrite)
		return;
	ext2_pc_mark(ep, ext2_pc_in_file(ep));
	if (!ext2_pc_mapped(ep))
		ep->mapwrite = false;
}

/* Write ep's dirty blocks back (ei->nowait must be clear); the page is
 * clean afterwards either way: a failure is in the inode's wb_seq. */
static int ext2_pc_writepage(struct ext2_page *ep)
{
	int err;

	ext2_pc_fold_mapwrite(ep);
	if (!ep->dirty)
		return 0;
	err = ext2_pc_io(ep, true, ep->dirty);
	ext2_pc_clean(ep, 0);
	atomic_inc(&ext2_pages_written);
	if (err) {
		EXT2_I(ep->inode)->wb_seq++;
		atomic_inc(&ext2_wb_errors);
	}
	return err;
}

/* The least recently used page that can go, its inode locked (inode's own
 * lock, held by the caller, or another's taken by mutex_trylock: *other),
 * or NULL. Not busy, not mapped, not dirty under nowait. sb->pc_lock held. */
static struct ext2_page *ext2_pc_victim(struct ext2_sb *sb, struct inode *inode, bool nowait,
					bool *other)
{
	struct ext2_page *ep;

	for (struct list_head *e = sb->pages.prev; e != &sb->pages; e = e->prev) {
		ep = list_entry(e, struct ext2_page, lru);
		*other = ep->inode != inode;
		if (*other && !mutex_trylock(&EXT2_I(ep->inode)->lock))
			continue;		/* its inode is busy: its pages stay */
		if (!ep->busy && !ext2_pc_mapped(ep) && !(nowait && (ep->dirty || ep->mapwrite)))
			return ep;		/* busy: a fill's read in flight (readahead.c) */
		if (*other)
			mutex_unlock(&EXT2_I(ep->inode)->lock);
	}
	return NULL;
}

/* Make room for one more page of inode (its lock held): write back and free
 * the least recently used one that no mapping holds (only a clean one under
 * nowait); a write error is the page's inode's wb_seq. */
static void ext2_pc_evict(struct inode *inode)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	struct ext2_inode_info *vi;
	struct ext2_page *ep;
	bool other = false;

	lock_stat_spin_lock(&sb->pc_lock, &ext2_ls_pc);
	ep = sb->nr_pages < EXT2_PC_MAX ? NULL :
		ext2_pc_victim(sb, inode, EXT2_I(inode)->nowait, &other);
	lock_stat_spin_unlock(&sb->pc_lock, &ext2_ls_pc);
	if (!ep)
		return;
	vi = EXT2_I(ep->inode);
	ext2_pc_writepage(ep);			/* (the victim's inode is locked) */
	ext2_pc_free(sb, ep);
	if (other)
		mutex_unlock(&vi->lock);
}

static struct ext2_page *ext2_pc_new(struct inode *inode, u32 index)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct ext2_page *ep;

	ext2_pc_evict(inode);
	ep = kmalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return ERR_PTR(-ENOMEM);
	ep->page = alloc_page(GFP_KERNEL);
	if (!ep->page) {
		kfree(ep);
		return ERR_PTR(-ENOMEM);
	}
	ep->index = index;
	ep->dirty = 0;
	ep->dirtied = 0;
	ep->uptodate = false;
	ep->busy = false;
	ep->fill_len = ep->fill_eof = 0;
	INIT_LIST_HEAD(&ep->waiters);
	ep->mapwrite = false;
	ep->inode = inode;
	list_add(&ep->hash, &ei->pc_hash[index % EXT2_PC_HASH]);
	lock_stat_spin_lock(&sb->pc_lock, &ext2_ls_pc);
	list_add(&ep->lru, &sb->pages);
	sb->nr_pages++;
	lock_stat_spin_unlock(&sb->pc_lock, &ext2_ls_pc);
	ei->nr_pages++;
	atomic_inc(&ext2_cached_pages);
	return ep;
}

/* Bytes of a filled page past the end of the file read as zeros, whatever
 * the disk holds there (dirty blocks keep what was written). */
static void ext2_pc_zero_eof(struct ext2_page *ep)
{
	struct ext2_sb *sb = EXT2_SB(ep->inode);
	u64 start = (u64)ep->index << PAGE_SHIFT, size = ep->inode->size;
	u32 from, log = sb->block_log;

	if (start + PAGE_SIZE <= size)
		return;
	from = size > start ? size - start : 0;
	for (u32 b = from >> log; b < ext2_pc_blocks(sb); b++) {
		u32 lo = MAX(from, b << log);
		if (!(ep->dirty & (1u << b)))
			ext2_pc_zero(ep, lo, ((b + 1) << log) - lo);
	}
}

struct ext2_page *ext2_pc_lookup(struct inode *inode, u32 index, bool create)
{
	struct ext2_page *ep = ext2_pc_find(inode, index);

	return ep || !create ? ep : ext2_pc_new(inode, index);
}

struct ext2_page *ext2_pc_get(struct inode *inode, u32 index, bool fill)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	struct ext2_page *ep = ext2_pc_find(inode, index);
	int err;

	if (ep && ep->busy) {			/* a fill in flight (readahead.c) */
		if (EXT2_I(inode)->nowait)
			return ERR_PTR(-EAGAIN);
		ext2_fill_wait_page(ep);
	}
	if (ep && (ep->uptodate || !fill))
		return ep;
	if (fill && EXT2_I(inode)->nowait)
		return ERR_PTR(-EAGAIN);	/* a read from the disk */
	if (!ep)
		ep = ext2_pc_new(inode, index);
	if (IS_ERR(ep))
		return ep;
	if (!fill) {
		ext2_pc_zero(ep, 0, PAGE_SIZE);
		return ep;
	}
	/* dirty blocks are newer than the disk: keep them */
	err = ext2_pc_io(ep, false, ((1u << ext2_pc_blocks(sb)) - 1) & ~ep->dirty);
	if (err) {
		if (!ep->dirty)
			ext2_pc_free(sb, ep);
		return ERR_PTR(err);
	}
	ext2_pc_zero_eof(ep);
	ep->uptodate = true;
	return ep;
}

void ext2_pc_dirty(struct ext2_page *ep, u32 off, u32 len)
{
	u32 log = EXT2_SB(ep->inode)->block_log;
	u8 bits = 0;

	for (u32 b = off >> log; b <= (off + len - 1) >> log; b++)
		bits |= 1u << b;
	ext2_pc_mark(ep, bits);
}

/* One inode's write-back batch (ext2_pc_sync_inode): the writes of up to
 * EXT2_WB_BATCH dirty pages sent at once and waited for together, one wait
 * for the lot instead of a device round trip per page (each a sleep and a
 * wake-up: at -smp 4, 1 ms and more under MTTCG). */
#define EXT2_WB_BATCH	16

struct ext2_wb;
struct ext2_wb_page {
	struct ext2_page *ep;
	int err;			/* a map lookup's or a send's error */
	u32 sent;			/* bytes of its writes started */
	atomic_t moved;			/* bytes their completions reported */
	struct ext2_wb *wb;
};

struct ext2_wb {
	atomic_t pending;		/* writes in flight, + 1 while sending */
	struct completion done;		/* pending reached 0 */
	u32 nr;
	struct ext2_wb_page pg[EXT2_WB_BATCH];
};

/* A batch write's end (the driver's completion, any context). The last one
 * completes the batch: complete() holds its lock throughout, so the waiter
 * may free the batch once wait_for_completion returns. */
static void ext2_wb_end_io(void *priv, long res)
{
	struct ext2_wb_page *pg = priv;
	struct ext2_wb *wb = pg->wb;

	if (res > 0)
		atomic_add(&pg->moved, res);	/* short or -EIO: the sum falls short */
	if (atomic_dec_and_test(&wb->pending))
		complete(&wb->done);
}

/* Send the dirty blocks of pg's page, runs of consecutive device blocks,
 * without waiting: 0, or the error of a map lookup or a send (what was sent
 * goes on). */
static int ext2_wb_send(struct ext2_wb_page *pg)
{
	struct ext2_page *ep = pg->ep;
	struct ext2_sb *sb = EXT2_SB(ep->inode);
	u32 bpp = ext2_pc_blocks(sb), bs = sb->block_size;
	long nr[4];
	int err = ext2_pc_map_blocks(ep, ep->dirty, nr);

	for (u32 i = 0, run; !err && i < bpp; i += run) {
		for (run = 1; nr[i] && i + run < bpp && nr[i + run] == nr[i] + (long)run; run++)
			;
		if (!nr[i])
			continue;
		if ((u64)nr[i] * bs + run * bs > sb->dev_bytes)
			return -EIO;		/* past the device (as ext2_dev_rw) */
		atomic_inc(&pg->wb->pending);
		pg->sent += run * bs;
		err = blk_file_kernel_async(sb->dev, BLK_WRITE, ep->page, i * bs, run * bs,
					    sb->dev_offset + (u64)nr[i] * bs, ext2_wb_end_io, pg);
		if (err) {
			atomic_dec(&pg->wb->pending);	/* not started: done not called */
			pg->sent -= run * bs;
		}
	}
	return err;
}

/* Write the batch's pages, wait for them all, make them clean (a failed
 * one too, with its inode's wb_seq bumped, as ext2_pc_writepage): 0 or the
 * first error. */
static int ext2_wb_run(struct ext2_wb *wb)
{
	int err = 0;

	atomic_set(&wb->pending, 1);
	init_completion(&wb->done);
	for (u32 i = 0; i < wb->nr; i++)
		wb->pg[i].err = ext2_wb_send(&wb->pg[i]);	/* its sent bytes stand */
	if (!atomic_dec_and_test(&wb->pending)) {
		ext2_dev_kick(EXT2_SB(wb->pg[0].ep->inode));	/* a plug may hold them */
		atomic_inc(&ext2_dev_waits);
		wait_for_completion(&wb->done);
	}
	for (u32 i = 0; i < wb->nr; i++) {
		struct ext2_page *ep = wb->pg[i].ep;
		int e = wb->pg[i].err;

		if (!e && (u32)atomic_read(&wb->pg[i].moved) != wb->pg[i].sent)
			e = -EIO;			/* a write failed, or moved less */

		ext2_pc_clean(ep, 0);
		atomic_inc(&ext2_pages_written);
		if (e) {
			EXT2_I(ep->inode)->wb_seq++;
			atomic_inc(&ext2_wb_errors);
			if (!err)
				err = e;
		}
	}
	wb->nr = 0;
	return err;
}

int ext2_pc_sync_inode(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct ext2_wb *wb = kmalloc(sizeof(*wb), GFP_KERNEL);
	struct ext2_page *ep;
	int err = 0, e;

	if (wb)
		wb->nr = 0;
	for (u32 i = 0; i < EXT2_PC_HASH; i++) {
		list_for_each_entry(ep, &ei->pc_hash[i], hash) {
			ext2_pc_fold_mapwrite(ep);
			if (!ep->dirty)
				continue;
			if (!wb) {			/* no memory: one page at a time */
				if ((e = ext2_pc_writepage(ep)) && !err)
					err = e;
				continue;
			}
			wb->pg[wb->nr++] = (struct ext2_wb_page){ ep, 0, 0, ATOMIC_INIT(0), wb };
			if (wb->nr == EXT2_WB_BATCH && (e = ext2_wb_run(wb)) && !err)
				err = e;
		}
	}
	if (wb && wb->nr && (e = ext2_wb_run(wb)) && !err)
		err = e;
	kfree(wb);
	return err;
}

/* ext2_pc_sync_older's part for one inode (its lock held). */
static int ext2_pc_sync_inode_older(struct inode *inode, unsigned long age, u32 *written)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct ext2_page *ep;
	int err = 0, e;

	for (u32 i = 0; i < EXT2_PC_HASH; i++) {
		list_for_each_entry(ep, &ei->pc_hash[i], hash) {
			ext2_pc_fold_mapwrite(ep);	/* a shared mapping may write it still */
			if (!ep->dirty || (age && !time_after_eq(jiffies, ep->dirtied + age)))
				continue;
			(*written)++;
			if ((e = ext2_pc_writepage(ep)) && !err)
				err = e;
		}
	}
	return err;
}

int ext2_pc_sync_all(struct ext2_sb *sb)
{
	struct inode **held;
	int err = 0, e;
	u32 n = ext2_inodes_with_pages(sb, &held), written = 0;

	for (u32 i = 0; i < n; i++) {
		ext2_ilock(held[i]);
		if ((e = ext2_pc_sync_inode_older(held[i], 0, &written)) && !err)
			err = e;
		ext2_iunlock(held[i]);
		iput(held[i]);
	}
	kfree(held);
	return err;
}

#define EXT2_FLUSH_BATCH	8	/* inodes one sweep of the flusher locks */

/* Up to EXT2_FLUSH_BATCH inodes of sb with pages, not yet seen by pass,
 * each locked by mutex_trylock (a busy one waits for a later pass): the
 * lock keeps the inode alive (ext2_put takes it before freeing an inode
 * that has pages), and no reference is taken (a umount would find it busy). */
static u32 ext2_pc_flush_sweep(struct ext2_sb *sb, u32 pass, struct ext2_inode_info **v)
{
	struct ext2_inode_info *ei;
	u32 n = 0, flags;

	spin_lock_irqsave(&sb->icache_lock, flags);
	list_for_each_entry(ei, &sb->inodes, link) {
		if (n == EXT2_FLUSH_BATCH)
			break;
		if (!ei->nr_pages || ei->flush_pass == pass || !mutex_trylock(&ei->lock))
			continue;
		ei->flush_pass = pass;
		v[n++] = ei;
	}
	spin_unlock_irqrestore(&sb->icache_lock, flags);
	return n;
}

int ext2_pc_sync_older(struct ext2_sb *sb, unsigned long age, u32 pass, u32 *written)
{
	struct ext2_inode_info *v[EXT2_FLUSH_BATCH];
	int err = 0, e;
	u32 n;

	while ((n = ext2_pc_flush_sweep(sb, pass, v))) {
		for (u32 i = 0; i < n; i++) {
			if ((e = ext2_pc_sync_inode_older(v[i]->inode, age, written)) && !err)
				err = e;
			mutex_unlock(&v[i]->lock);
		}
	}
	return err;
}

/* Drop inode's pages from index first on (all of them with 0), dirty or not. */
static void ext2_pc_drop_from(struct inode *inode, u32 first)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct ext2_page *ep, *n;

	for (u32 i = 0; i < EXT2_PC_HASH; i++)
		list_for_each_entry_safe(ep, n, &ei->pc_hash[i], hash)
			if (ep->index >= first)
				ext2_pc_free(EXT2_SB(inode), ep);
}

/* Does a mapping hold one of inode's cached pages [first, last]? */
static bool ext2_pc_range_mapped(struct inode *inode, u64 first, u64 last)
{
	struct ext2_page *ep;

	for (u32 i = 0; i < EXT2_PC_HASH; i++)
		list_for_each_entry(ep, &EXT2_I(inode)->pc_hash[i], hash)
			if (ep->index >= first && ep->index <= last && ext2_pc_mapped(ep))
				return true;
	return false;
}

int ext2_pc_flush_range(struct inode *inode, loff_t pos, size_t n)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	u64 first = (u64)pos >> PAGE_SHIFT, last = ((u64)pos + n - 1) >> PAGE_SHIFT;
	struct ext2_page *ep, *nx;
	int err;

	if (!n)
		return 0;
	/* mappings let go first (their writes end up in the write-back below);
	 * their next access finds what the direct I/O leaves */
	if (ext2_pc_range_mapped(inode, first, last))
		vm_unmap_file_pages(inode, first, MIN(last, (u64)~0u));
	for (u32 i = 0; i < EXT2_PC_HASH; i++) {
		list_for_each_entry_safe(ep, nx, &ei->pc_hash[i], hash) {
			if (ep->index < first || ep->index > last)
				continue;
			if ((err = ext2_pc_writepage(ep)))
				return err;
			ext2_pc_free(EXT2_SB(inode), ep);
		}
	}
	return 0;
}

void ext2_pc_drop(struct inode *inode)
{
	ext2_pc_drop_from(inode, 0);
}

int ext2_pc_truncate(struct inode *inode, loff_t size)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 off = size & (PAGE_SIZE - 1), boff = size & (sb->block_size - 1);
	struct ext2_page *ep;

	ext2_pc_drop_from(inode, (size + PAGE_SIZE - 1) >> PAGE_SHIFT);
	if (!off)
		return 0;
	ep = ext2_pc_get(inode, size >> PAGE_SHIFT, true);
	if (IS_ERR(ep))
		return PTR_ERR(ep);
	ext2_pc_zero(ep, off, PAGE_SIZE - off);
	/* blocks past the new end are freed next: never write them back */
	ext2_pc_clean(ep, (1u << ((off + sb->block_size - 1) >> sb->block_log)) - 1);
	if (boff)
		ext2_pc_dirty(ep, off - 1, 1);	/* the zeros of the last block's tail */
	return 0;
}

void ext2_pc_drop_all(struct ext2_sb *sb)
{
	struct ext2_page *ep, *n;

	list_for_each_entry_safe(ep, n, &sb->pages, lru)
		ext2_pc_free(sb, ep);
}

struct page *ext2_pc_map(struct inode *inode, u32 index, bool write)
{
	struct ext2_page *ep = ext2_pc_get(inode, index, true);

	if (IS_ERR(ep))
		return (struct page *)ep;
	if (write) {
		ep->mapwrite = true;
		ext2_pc_mark(ep, ext2_pc_in_file(ep));
	}
	get_page(ep->page);
	return ep->page;
}
