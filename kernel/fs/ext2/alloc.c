/* alloc.c: ext2 block and inode allocation: the groups' bitmaps, their free
 * counts and the superblock's, kept equal at every step (e2fsck compares them).
 * sb->lock held. A bitmap that disagrees with the counts, or a block it
 * offers that holds the group's own metadata, is -EUCLEAN.
 *
 * Freed blocks wait (issue 18): a block freed by an inode (truncate, the
 * last unlink) is not handed out again until the metadata that stopped
 * pointing at it is written: that inode's (its fsync: ext2_pend_done(ino))
 * or everyone's (the flusher's pass, sync, umount: ext2_pend_done(0)).
 * Otherwise another file's fsync could put its data and its pointer to the
 * block on the disk while the freeing inode there still points at it: after
 * a crash e2fsck finds the block claimed twice, and its repair changes the
 * fsynced file. An allocation that finds only waiting blocks writes every
 * dirty metadata block first and tries again (never a false -ENOSPC). A
 * write ends a wait once it completes, before any FLUSH: what the next
 * fsync promises comes after its own FLUSH, which covers that write too. */
#include "errno.h"
#include "slab.h"
#include "string.h"
#include "ext2.h"

atomic_t ext2_free_pending = ATOMIC_INIT(0);	/* all mounts' waiting blocks */
atomic_t ext2_free_waits = ATOMIC_INIT(0);	/* allocations that wrote them first */

/* First bit in [from, n) clear in map and in pend (NULL: none), or n. */
static u32 ext2_find_free(const u8 *map, const u8 *pend, u32 n, u32 from)
{
	for (u32 i = from; i < n; i++) {
		u8 used = map[i >> 3] | (pend ? pend[i >> 3] : 0);
		if (!(i & 7) && used == 0xff && i + 8 <= n) {
			i += 7;
			continue;
		}
		if (!(used & (1u << (i & 7))))
			return i;
	}
	return n;
}

static u32 ext2_find_zero(const u8 *map, u32 n, u32 from)
{
	return ext2_find_free(map, NULL, n, from);
}

static bool ext2_test_bit(const u8 *map, u32 i)
{
	return map[i >> 3] & (1u << (i & 7));
}

static void ext2_flip_bit(u8 *map, u32 i)
{
	map[i >> 3] ^= 1u << (i & 7);
}

/* Blocks in group g (the last one may be short). */
static u32 ext2_group_blocks(const struct ext2_sb *sb, u32 g)
{
	u32 start = sb->first_data_block + g * sb->bpg;

	return MIN(sb->bpg, sb->blocks_count - start);
}

/* Is nr one of group g's bitmaps or inode-table blocks? */
static bool ext2_is_group_meta(const struct ext2_sb *sb, u32 g, u32 nr)
{
	const struct ext2_group_desc *d = &sb->gd[g];
	u32 itb = (sb->ipg * sb->inode_size + sb->block_size - 1) / sb->block_size;

	return nr == d->bg_block_bitmap || nr == d->bg_inode_bitmap ||
	       (nr >= d->bg_inode_table && nr < d->bg_inode_table + itb);
}

/* Group g's waiting blocks (a bitmap), or NULL when none. */
static const u8 *ext2_pend_map(const struct ext2_sb *sb, u32 g)
{
	return sb->pend ? sb->pend[g].map : NULL;
}

/* Take a free block of group g at or after bit from that is not waiting: its
 * number, 0 when the bitmap has none, or -errno. */
static long ext2_alloc_in_group(struct ext2_sb *sb, u32 g, u32 from, u32 owner)
{
	struct ext2_buf *b = ext2_bread(sb, sb->gd[g].bg_block_bitmap);
	const u8 *pend = ext2_pend_map(sb, g);
	u32 n = ext2_group_blocks(sb, g), bit;
	long nr;

	if (IS_ERR(b))
		return PTR_ERR(b);
	bit = ext2_find_free(b->data, pend, n, from);
	if (bit == n && from)
		bit = ext2_find_free(b->data, pend, n, 0);
	nr = sb->first_data_block + g * sb->bpg + bit;
	if (bit < n && (!ext2_block_ok(sb, nr) || ext2_is_group_meta(sb, g, nr)))
		nr = ext2_corrupt(sb, "block bitmap of group", g);
	else if (bit < n)
		ext2_flip_bit(b->data, bit), ext2_bdirty(b, owner);
	else
		nr = 0;
	ext2_brelse(b);
	return nr;
}

/* A free block that is not waiting, near goal: its number, 0 when none, or -errno. */
static long ext2_alloc_scan(struct ext2_sb *sb, u32 goal, u32 owner)
{
	u32 g0 = 0, from = 0;

	if (ext2_block_ok(sb, goal)) {
		g0 = (goal - sb->first_data_block) / sb->bpg;
		from = (goal - sb->first_data_block) % sb->bpg;
	}
	if (!sb->es->s_free_blocks_count || sb->pend_all)
		return 0;
	for (u32 i = 0; i < sb->ngroups; i++) {
		u32 g = (g0 + i) % sb->ngroups;
		long nr;
		if (!sb->gd[g].bg_free_blocks_count)
			continue;
		nr = ext2_alloc_in_group(sb, g, i ? 0 : from, owner);
		if (nr < 0)
			return nr;
		if (!nr)
			continue;		/* all waiting, or the count was wrong */
		sb->gd[g].bg_free_blocks_count--;
		sb->es->s_free_blocks_count--;
		ext2_super_dirty(sb, owner);
		return nr;
	}
	return 0;
}

long ext2_alloc_block(struct ext2_sb *sb, u32 goal, u32 owner)
{
	long nr = ext2_alloc_scan(sb, goal, owner);
	int err;

	if (nr || !sb->pend_nr)
		return nr ? nr : -ENOSPC;
	/* only waiting blocks are free: write what freed them, then take one */
	if (sb->nowait)
		return -EAGAIN;
	atomic_inc(&ext2_free_waits);
	if ((err = ext2_sync_meta(sb)))
		return err;
	nr = ext2_alloc_scan(sb, goal, owner);
	return nr ? nr : -ENOSPC;
}

/* Group g's waiting blocks end (sb->lock). */
static void ext2_pend_clear(struct ext2_sb *sb, u32 g)
{
	struct ext2_pend *p = &sb->pend[g];

	atomic_sub(&ext2_free_pending, p->nr);
	sb->pend_nr -= p->nr;
	p->nr = 0;
	p->owners.nr = 0;
	kfree(p->map);
	p->map = NULL;
}

/* Block bit of group g, just freed by owner, waits. Without memory for the
 * record every free block of sb waits for the next write of all metadata. */
static void ext2_pend_add(struct ext2_sb *sb, u32 g, u32 bit, u32 owner)
{
	struct ext2_pend *p;

	atomic_inc(&ext2_free_pending);
	sb->pend_nr++;
	if (!sb->pend && !sb->pend_all)
		sb->pend = kzalloc(sb->ngroups * sizeof(*sb->pend), GFP_KERNEL);
	if (!sb->pend) {
		sb->pend_all = true;
		return;
	}
	p = &sb->pend[g];
	if (!p->map)
		p->map = kzalloc((sb->bpg + 7) / 8, GFP_KERNEL);
	if (!p->map) {
		sb->pend_all = true;	/* counted in pend_nr: cleared with everything */
		return;
	}
	p->map[bit >> 3] |= 1u << (bit & 7);
	p->nr++;
	ext2_owners_add(&p->owners, owner);
}

void ext2_pend_done(struct ext2_sb *sb, u32 ino)
{
	if (!sb->pend_nr)
		return;
	for (u32 g = 0; sb->pend && g < sb->ngroups; g++) {
		struct ext2_pend *p = &sb->pend[g];
		if (!p->nr)
			continue;
		if (ino)
			ext2_owners_del(&p->owners, ino);
		if (!ino || !p->owners.nr)
			ext2_pend_clear(sb, g);
	}
	if (!ino) {
		atomic_sub(&ext2_free_pending, sb->pend_nr);	/* pend_all's */
		sb->pend_nr = 0;
		sb->pend_all = false;
	}
}

void ext2_pend_exit(struct ext2_sb *sb)
{
	ext2_pend_done(sb, 0);
	kfree(sb->pend);
	sb->pend = NULL;
}

int ext2_free_block(struct ext2_sb *sb, u32 nr, u32 owner)
{
	u32 g, bit;
	struct ext2_buf *b;
	int err = 0;

	if (!ext2_block_ok(sb, nr))
		return ext2_corrupt(sb, "block to free", nr);
	g = (nr - sb->first_data_block) / sb->bpg;
	bit = (nr - sb->first_data_block) % sb->bpg;
	if (ext2_is_group_meta(sb, g, nr))
		return ext2_corrupt(sb, "block to free (metadata)", nr);
	b = ext2_bread(sb, sb->gd[g].bg_block_bitmap);
	if (IS_ERR(b))
		return PTR_ERR(b);
	if (!ext2_test_bit(b->data, bit)) {
		err = ext2_corrupt(sb, "block freed twice", nr);
	} else {
		ext2_flip_bit(b->data, bit);
		ext2_bdirty(b, owner);
		ext2_bforget(sb, nr);	/* no stale copy written over its next use */
		ext2_pend_add(sb, g, bit, owner);
		sb->gd[g].bg_free_blocks_count++;
		sb->es->s_free_blocks_count++;
		ext2_super_dirty(sb, owner);
	}
	ext2_brelse(b);
	return err;
}

/* A free inode of group g: its number, 0 when none, or -errno. */
static long ext2_ialloc_in_group(struct ext2_sb *sb, u32 g)
{
	struct ext2_buf *b = ext2_bread(sb, sb->gd[g].bg_inode_bitmap);
	u32 bit, from = 0;
	long ino = 0;

	if (IS_ERR(b))
		return PTR_ERR(b);
	if (g * sb->ipg < sb->first_ino - 1)
		from = sb->first_ino - 1 - g * sb->ipg;	/* the reserved inodes */
	bit = from < sb->ipg ? ext2_find_zero(b->data, sb->ipg, from) : sb->ipg;
	if (bit < sb->ipg) {
		ext2_flip_bit(b->data, bit);
		ino = g * sb->ipg + bit + 1;
		ext2_bdirty(b, ino);
	}
	ext2_brelse(b);
	return ino;
}

long ext2_alloc_ino(struct ext2_sb *sb, u32 group, bool dir)
{
	if (!sb->es->s_free_inodes_count)
		return -ENOSPC;
	for (u32 i = 0; i < sb->ngroups; i++) {
		u32 g = (group + i) % sb->ngroups;
		long ino;
		if (!sb->gd[g].bg_free_inodes_count)
			continue;
		ino = ext2_ialloc_in_group(sb, g);
		if (ino < 0)
			return ino;
		if (!ino)
			continue;
		sb->gd[g].bg_free_inodes_count--;
		if (dir)
			sb->gd[g].bg_used_dirs_count++;
		sb->es->s_free_inodes_count--;
		ext2_super_dirty(sb, ino);
		return ino;
	}
	return -ENOSPC;
}

int ext2_free_ino(struct ext2_sb *sb, u32 ino, bool dir)
{
	u32 g = (ino - 1) / sb->ipg, bit = (ino - 1) % sb->ipg;
	struct ext2_buf *b;
	int err = 0;

	if (ino < sb->first_ino || ino > sb->inodes_count)
		return ext2_corrupt(sb, "inode to free", ino);
	b = ext2_bread(sb, sb->gd[g].bg_inode_bitmap);
	if (IS_ERR(b))
		return PTR_ERR(b);
	if (!ext2_test_bit(b->data, bit)) {
		err = ext2_corrupt(sb, "inode freed twice", ino);
	} else {
		ext2_flip_bit(b->data, bit);
		ext2_bdirty(b, ino);
		sb->gd[g].bg_free_inodes_count++;
		if (dir && sb->gd[g].bg_used_dirs_count)
			sb->gd[g].bg_used_dirs_count--;
		sb->es->s_free_inodes_count++;
		ext2_super_dirty(sb, ino);
	}
	ext2_brelse(b);
	return err;
}
