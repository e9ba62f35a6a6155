/* bcache.c: ext2's block cache: up to EXT2_CACHE_MAX metadata blocks of one file
 * system (bitmaps, inode tables, indirect blocks, directories, symlink targets;
 * regular files' data is in the page cache, pagecache.c), a low-memory page
 * each, read and written through the block device's file (blk_file_kernel_sync:
 * the one block path). Dirty blocks are written back on fsync, sync, umount, or
 * when the least recently used one must make room. A freed block leaves the
 * cache (ext2_bforget): a stale copy must never be written over new data.
 * A block whose write fails stays dirty (the cached copy is the truth: a
 * bitmap read back from the disk would hand out blocks twice) and bumps
 * sb->wb_seq, which fsync reports (file.c).
 * Everything here runs under sb->lock (ext2.h; but ext2_sync_fs, which takes
 * it); with sb->nowait set, a miss is -EAGAIN and nothing waits on the disk. */
#include "blk_file.h"
#include "errno.h"
#include "mm.h"
#include "slab.h"
#include "string.h"
#include "ext2.h"

atomic_t ext2_cached_blocks = ATOMIC_INIT(0);	/* all file systems' (leak checks) */
atomic_t ext2_blocks_written = ATOMIC_INIT(0);	/* metadata block writes, since boot */
atomic_t ext2_dev_waits = ATOMIC_INIT(0);	/* device round trips waited for (ext2.h) */

bool ext2_block_ok(const struct ext2_sb *sb, u32 nr)
{
	return nr >= sb->first_data_block && nr < sb->blocks_count && nr > 0;
}

int ext2_dev_rw(struct ext2_sb *sb, bool write, struct page *page, u32 off, u32 len, u64 pos)
{
	if (pos + len > sb->dev_bytes)
		return -EIO;			/* past the device (or the mount's window) */
	atomic_inc(&ext2_dev_waits);
	return blk_file_kernel_sync(sb->dev, write ? BLK_WRITE : BLK_READ, page, off, len,
				    sb->dev_offset + pos);
}

void ext2_owners_add(struct ext2_owners *o, u32 ino)
{
	if (o->nr == EXT2_OWNERS_ALL)
		return;
	if (!ino) {
		o->nr = EXT2_OWNERS_ALL;
		return;
	}
	for (u32 i = 0; i < o->nr; i++)
		if (o->ino[i] == ino)
			return;
	if (o->nr == EXT2_OWNERS)
		o->nr = EXT2_OWNERS_ALL;
	else
		o->ino[o->nr++] = ino;
}

bool ext2_owners_has(const struct ext2_owners *o, u32 ino)
{
	if (o->nr == EXT2_OWNERS_ALL)
		return true;
	for (u32 i = 0; i < o->nr; i++)
		if (o->ino[i] == ino)
			return true;
	return false;
}

void ext2_owners_del(struct ext2_owners *o, u32 ino)
{
	if (o->nr == EXT2_OWNERS_ALL)
		return;
	for (u32 i = 0; i < o->nr; i++)
		if (o->ino[i] == ino) {
			o->ino[i] = o->ino[--o->nr];
			return;
		}
}

void ext2_bown(struct ext2_buf *b, u32 ino)
{
	ext2_owners_add(&b->owners, ino);
}

void ext2_bdirty(struct ext2_buf *b, u32 ino)
{
	b->dirty = true;
	ext2_owners_add(&b->owners, ino);
	if (b->sb->meta_also)
		ext2_owners_add(&b->owners, b->sb->meta_also);
}

void ext2_super_dirty(struct ext2_sb *sb, u32 ino)
{
	sb->super_dirty = true;
	ext2_owners_add(&sb->super_owners, ino);
	if (sb->meta_also)
		ext2_owners_add(&sb->super_owners, sb->meta_also);
}

static int ext2_bwrite(struct ext2_sb *sb, struct ext2_buf *b)
{
	int err = ext2_dev_rw(sb, true, b->page, 0, sb->block_size, (u64)b->blocknr * sb->block_size);

	atomic_inc(&ext2_blocks_written);
	if (!err) {
		b->dirty = false;
		b->owners.nr = 0;
		return 0;
	}
	sb->wb_seq++;
	atomic_inc(&ext2_wb_errors);
	return err;
}

static void ext2_bfree(struct ext2_sb *sb, struct ext2_buf *b)
{
	list_del(&b->lru);
	sb->nr_bufs--;
	__free_page(b->page);
	kfree(b);
	atomic_dec(&ext2_cached_blocks);
}

/* Make room for one more block: write back and free the least recently used
 * unreferenced one. A write error keeps it (and the cache grows past its size). */
static void ext2_bevict(struct ext2_sb *sb)
{
	struct ext2_buf *b;

	if (sb->nr_bufs < EXT2_CACHE_MAX)
		return;
	for (struct list_head *e = sb->bufs.prev; e != &sb->bufs; e = e->prev) {
		b = list_entry(e, struct ext2_buf, lru);
		if (b->refs || (b->dirty && (sb->nowait || ext2_bwrite(sb, b))))
			continue;
		ext2_bfree(sb, b);
		return;
	}
}

static struct ext2_buf *ext2_bfind(struct ext2_sb *sb, u32 nr)
{
	struct ext2_buf *b;

	list_for_each_entry(b, &sb->bufs, lru) {
		if (b->blocknr == nr) {
			list_del(&b->lru);
			list_add(&b->lru, &sb->bufs);	/* most recently used */
			b->refs++;
			return b;
		}
	}
	return NULL;
}

/* A new buffer for nr, zeroed, with a reference, in the cache. */
static struct ext2_buf *ext2_bnew(struct ext2_sb *sb, u32 nr)
{
	struct ext2_buf *b;

	ext2_bevict(sb);
	b = kmalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return ERR_PTR(-ENOMEM);
	b->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!b->page) {
		kfree(b);
		return ERR_PTR(-ENOMEM);
	}
	b->data = page_address(b->page);
	b->blocknr = nr;
	b->refs = 1;
	b->dirty = false;
	b->owners.nr = 0;
	b->sb = sb;
	list_add(&b->lru, &sb->bufs);
	sb->nr_bufs++;
	atomic_inc(&ext2_cached_blocks);
	return b;
}

struct ext2_buf *ext2_bget(struct ext2_sb *sb, u32 nr)
{
	struct ext2_buf *b;

	if (!ext2_block_ok(sb, nr))
		return ERR_PTR(ext2_corrupt(sb, "block number", nr));
	b = ext2_bfind(sb, nr);
	if (b) {
		memset(b->data, 0, sb->block_size);
		return b;
	}
	return ext2_bnew(sb, nr);
}

struct ext2_buf *ext2_bread(struct ext2_sb *sb, u32 nr)
{
	struct ext2_buf *b;
	int err;

	if (nr >= sb->blocks_count)
		return ERR_PTR(ext2_corrupt(sb, "block number", nr));
	b = ext2_bfind(sb, nr);
	if (b)
		return b;
	if (sb->nowait)
		return ERR_PTR(-EAGAIN);	/* a read from the disk */
	b = ext2_bnew(sb, nr);
	if (IS_ERR(b))
		return b;
	err = ext2_dev_rw(sb, false, b->page, 0, sb->block_size, (u64)nr * sb->block_size);
	if (err) {
		ext2_bfree(sb, b);
		return ERR_PTR(-EIO);
	}
	return b;
}

void ext2_brelse(struct ext2_buf *b)
{
	if (b && !IS_ERR(b))
		b->refs--;
}

void ext2_bforget(struct ext2_sb *sb, u32 nr)
{
	struct ext2_buf *b;

	list_for_each_entry(b, &sb->bufs, lru) {
		if (b->blocknr != nr)
			continue;
		if (b->refs) {
			b->dirty = false;	/* its holder drops it soon */
			b->owners.nr = 0;
		}
		else
			ext2_bfree(sb, b);
		return;
	}
}

/* Superblock and descriptors when changed, then every dirty block, of
 * everyone (ino 0) or of what ino's fsync must write. When all of it was
 * written, the blocks that waited for it may be handed out (alloc.c). */
static int ext2_sync_meta_of(struct ext2_sb *sb, u32 ino)
{
	struct ext2_buf *b;
	int err = 0, e;

	if (sb->rdonly)
		return 0;
	if (sb->super_dirty && (!ino || ext2_owners_has(&sb->super_owners, ino)) &&
	    (e = ext2_write_super(sb)))
		err = e;			/* (the descriptors into their buffers too) */
	list_for_each_entry(b, &sb->bufs, lru)
		if (b->dirty && (!ino || ext2_owners_has(&b->owners, ino)) &&
		    (e = ext2_bwrite(sb, b)) && !err)
			err = e;
	if (!err)
		ext2_pend_done(sb, ino);
	return err;
}

int ext2_sync_meta(struct ext2_sb *sb)
{
	return ext2_sync_meta_of(sb, 0);
}

int ext2_sync_meta_inode(struct ext2_sb *sb, u32 ino)
{
	return ext2_sync_meta_of(sb, ino);
}

int ext2_sync_meta_flush(struct ext2_sb *sb)
{
	int err, e;

	if (sb->rdonly)
		return 0;
	err = ext2_sync_meta(sb);
	e = blk_file_kernel_sync(sb->dev, BLK_FLUSH, NULL, 0, 0, 0);
	return err ? err : e;
}

/* Data first (the file pages, each inode under its lock), then the metadata
 * blocks and the superblock under sb->lock, then the device's FLUSH: what
 * the metadata points at is on the disk before it. */
int ext2_sync_fs(struct ext2_sb *sb)
{
	int err, e;

	if (sb->rdonly)
		return 0;
	err = ext2_pc_sync_all(sb);
	mutex_lock(&sb->lock);
	e = ext2_sync_meta_flush(sb);
	mutex_unlock(&sb->lock);
	return err ? err : e;
}

void ext2_bcache_drop(struct ext2_sb *sb)
{
	struct ext2_buf *b, *n;

	list_for_each_entry_safe(b, n, &sb->bufs, lru)
		ext2_bfree(sb, b);
}
