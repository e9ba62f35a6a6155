/* bmap.c: an ext2 file's block map: 12 direct blocks in the inode, then single,
 * double and triple indirect blocks. Mapping a file block (and allocating the
 * path to it on a write) and freeing the blocks past a new end.
 *
 * The map is a tree of fixed depth (at most 3 indirect levels), so a block
 * that points back at itself or an ancestor ("a loop") is read again a
 * bounded number of times, never followed forever; freeing such a tree finds
 * the block free already and stops with -EUCLEAN. sb->lock held throughout (the
 * data paths take it through ext2_mlock, inside the inode's lock).
 *
 * For the next increment (file AIO): a lookup is ext2_bmap_path() (the slot
 * per level, computed without I/O) and then one block read per indirect
 * level. An asynchronous mapper walks the same path through the cache only,
 * stops at the first indirect block that is not there (-EAGAIN and its
 * number), reads it with blk_file_kernel_rw on the request's own kiocb, and
 * maps again from that completion; ext2_bmap() stays the synchronous form.
 */
#include "errno.h"
#include "string.h"
#include "ext2.h"

#define EXT2_MAX_DEPTH	4		/* the inode's slot + three indirect levels */

/* The path to file block lblk: slot indices per level (offsets[0] in i_block),
 * its depth (1-4), or -EFBIG past the triple indirect block's reach. */
static int ext2_bmap_path(const struct ext2_sb *sb, u32 lblk, u32 offsets[EXT2_MAX_DEPTH])
{
	u64 a = sb->addr_per_block, l = lblk;

	if (l < EXT2_NDIR_BLOCKS) {
		offsets[0] = l;
		return 1;
	}
	l -= EXT2_NDIR_BLOCKS;
	if (l < a) {
		offsets[0] = EXT2_IND_BLOCK;
		offsets[1] = l;
		return 2;
	}
	l -= a;
	if (l < a * a) {			/* below 2^20: 32-bit division (no __udivdi3) */
		offsets[0] = EXT2_DIND_BLOCK;
		offsets[1] = (u32)l / (u32)a;
		offsets[2] = (u32)l % (u32)a;
		return 3;
	}
	l -= a * a;
	if (l < a * a * a) {			/* below 2^30 */
		offsets[0] = EXT2_TIND_BLOCK;
		offsets[1] = (u32)l / (u32)(a * a);
		offsets[2] = ((u32)l / (u32)a) % (u32)a;
		offsets[3] = (u32)l % (u32)a;
		return 4;
	}
	return -EFBIG;
}

u64 ext2_max_blocks(const struct ext2_sb *sb)
{
	u64 a = sb->addr_per_block;

	return EXT2_NDIR_BLOCKS + a + a * a + a * a * a;
}

/* A new block for the map at *slot (in the inode, or in the indirect block
 * holder, made dirty), zeroed in the cache; the inode's block count grows. */
static long ext2_bmap_alloc(struct inode *inode, u32 *slot, struct ext2_buf *holder, u32 goal,
			    bool file_data)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	long nr = ext2_alloc_block(sb, goal, inode->ino);
	struct ext2_buf *b;

	if (nr < 0)
		return nr;
	if (!file_data) {
		b = ext2_bget(sb, nr);
		if (IS_ERR(b)) {
			ext2_free_block(sb, nr, inode->ino);
			return PTR_ERR(b);
		}
		ext2_bdirty(b, inode->ino);	/* zeros on the disk too: no stale pointers */
		ext2_brelse(b);
	}
	*slot = nr;
	if (holder)
		ext2_bdirty(holder, inode->ino);
	EXT2_I(inode)->di.i_blocks += sb->block_size / 512;
	return nr;
}

/* Where new blocks of inode should go: after the previous one, else its group. */
static u32 ext2_goal(struct inode *inode, u32 prev)
{
	struct ext2_sb *sb = EXT2_SB(inode);

	if (prev && ext2_block_ok(sb, prev + 1))
		return prev + 1;
	return sb->first_data_block + (inode->ino - 1) / sb->ipg * sb->bpg;
}

static long ext2_bmap_locked(struct inode *inode, u32 lblk, bool create, bool *fresh)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 offsets[EXT2_MAX_DEPTH], *slot, prev = 0;
	struct ext2_buf *holder = NULL, *b;
	int depth = ext2_bmap_path(sb, lblk, offsets);
	long nr = 0;

	if (fresh)
		*fresh = false;
	if (depth < 0)
		return depth;
	slot = &EXT2_I(inode)->di.i_block[offsets[0]];
	for (int level = 0; level < depth; level++) {
		if (level)
			slot = (u32 *)holder->data + offsets[level];
		nr = *slot;
		if (nr && !ext2_block_ok(sb, nr)) {
			nr = ext2_corrupt(sb, "block pointer", nr);
			break;
		}
		if (!nr && !create)
			break;			/* a hole */
		if (!nr) {
			/* a regular file's data block is the page cache's to fill */
			nr = ext2_bmap_alloc(inode, slot, holder, ext2_goal(inode, prev),
					     level == depth - 1 && S_ISREG(inode->mode));
			if (nr < 0)
				break;
			if (fresh && level == depth - 1)
				*fresh = true;
		}
		prev = nr;
		if (level == depth - 1)
			break;
		b = ext2_bread(sb, nr);
		ext2_brelse(holder);
		holder = b;
		if (IS_ERR(b)) {
			holder = NULL;
			nr = PTR_ERR(b);
			break;
		}
	}
	ext2_brelse(holder);
	return nr;
}

/* The run around slot idx of the map block slots (lim slots): the first slot
 * and the count of consecutive slots holding consecutive valid blocks. */
static u32 ext2_bmap_span(const struct ext2_sb *sb, const u32 *slots, u32 idx, u32 lim,
			  u32 *first)
{
	u32 lo = idx, hi = idx + 1;

	while (lo > 0 && slots[lo - 1] == slots[idx] - (idx - lo + 1) &&
	       ext2_block_ok(sb, slots[lo - 1]))
		lo--;
	while (hi < lim && slots[hi] == slots[idx] + (hi - idx) && ext2_block_ok(sb, slots[hi]))
		hi++;
	*first = lo;
	return hi - lo;
}

/* ext2_bmap_run's walk, sb->lock held. */
static long ext2_bmap_run_locked(struct inode *inode, u32 lblk, u32 *first, u32 *len)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 offsets[EXT2_MAX_DEPTH], *slots = EXT2_I(inode)->di.i_block, lim = EXT2_NDIR_BLOCKS;
	int depth = ext2_bmap_path(sb, lblk, offsets);
	struct ext2_buf *holder = NULL, *b;
	u32 at;
	long nr = depth;

	for (int level = 0; level < depth; level++) {
		nr = slots[offsets[level]];
		if (nr && !ext2_block_ok(sb, nr))
			nr = ext2_corrupt(sb, "block pointer", nr);
		if (nr <= 0)
			break;			/* a hole, or corrupt */
		if (level == depth - 1) {
			*len = ext2_bmap_span(sb, slots, offsets[level], lim, &at);
			*first = lblk - (offsets[level] - at);
			break;
		}
		b = ext2_bread(sb, nr);
		ext2_brelse(holder);
		holder = IS_ERR(b) ? NULL : b;
		if (IS_ERR(b)) {
			nr = PTR_ERR(b);
			break;
		}
		slots = b->data;
		lim = sb->addr_per_block;
	}
	ext2_brelse(holder);
	return nr;
}

long ext2_bmap_run(struct inode *inode, u32 lblk, u32 *first, u32 *len)
{
	int taken = ext2_mlock(inode);	/* the block map is sb->lock's */
	long nr;

	if (taken < 0)
		return taken;
	nr = ext2_bmap_run_locked(inode, lblk, first, len);
	ext2_munlock(inode, taken);
	return nr;
}

/* Blocks one slot at a level spans: 1 for data, a^levels below for indirect. */
static u64 ext2_span(const struct ext2_sb *sb, int levels)
{
	u64 n = 1;

	while (levels-- > 0)
		n *= sb->addr_per_block;
	return n;
}

/* Free what the subtree at *slot maps from file block keep on; it maps file
 * blocks [base, base + span). levels: indirect levels below *slot (0: data).
 * holder: the buffer *slot lives in (NULL: the inode). */
static int ext2_trunc_tree(struct inode *inode, u32 *slot, struct ext2_buf *holder, int levels,
			   u64 base, u64 keep)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u64 sub = ext2_span(sb, levels - 1);
	struct ext2_buf *b;
	int err = 0;

	if (!*slot || keep >= base + ext2_span(sb, levels))
		return 0;
	if (!ext2_block_ok(sb, *slot))
		return ext2_corrupt(sb, "block pointer", *slot);
	if (levels > 0) {
		b = ext2_bread(sb, *slot);
		if (IS_ERR(b))
			return PTR_ERR(b);
		for (u32 i = 0; i < sb->addr_per_block && !err; i++)
			err = ext2_trunc_tree(inode, (u32 *)b->data + i, b, levels - 1,
					      base + i * sub, keep);
		ext2_brelse(b);
		if (err || keep > base)
			return err;		/* part of it stays */
	}
	if ((err = ext2_free_block(sb, *slot, inode->ino)))
		return err;
	*slot = 0;
	if (holder)
		ext2_bdirty(holder, inode->ino);
	EXT2_I(inode)->di.i_blocks -= MIN(EXT2_I(inode)->di.i_blocks, sb->block_size / 512);
	return 0;
}

static int ext2_free_locked(struct inode *inode, u32 keep)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 *blocks = EXT2_I(inode)->di.i_block;
	u64 a = sb->addr_per_block, base = EXT2_NDIR_BLOCKS;
	int err = 0;

	ext2_runs_forget(EXT2_I(inode));	/* (dio.c) no cached run outlives a block */

	for (u32 i = 0; i < EXT2_NDIR_BLOCKS && !err; i++)
		err = ext2_trunc_tree(inode, &blocks[i], NULL, 0, i, keep);
	if (!err)
		err = ext2_trunc_tree(inode, &blocks[EXT2_IND_BLOCK], NULL, 1, base, keep);
	base += a;
	if (!err)
		err = ext2_trunc_tree(inode, &blocks[EXT2_DIND_BLOCK], NULL, 2, base, keep);
	base += a * a;
	if (!err)
		err = ext2_trunc_tree(inode, &blocks[EXT2_TIND_BLOCK], NULL, 3, base, keep);
	return err;
}

/* The block map is sb->lock's (ext2.h): taken here for a data path. */
long ext2_bmap(struct inode *inode, u32 lblk, bool create, bool *fresh)
{
	int taken = ext2_mlock(inode);
	long nr;

	if (taken < 0)
		return taken;
	nr = ext2_bmap_locked(inode, lblk, create, fresh);
	ext2_munlock(inode, taken);
	return nr;
}

int ext2_free_blocks_from(struct inode *inode, u32 keep)
{
	int taken = ext2_mlock(inode), err, e;

	if (taken < 0)
		return taken;
	err = ext2_free_locked(inode, keep);
	e = ext2_write_inode(inode);	/* sb->lock held: the map into its buffer */
	ext2_munlock(inode, taken);
	return err ? err : e;
}
