/* super.c: mounting ext2 (revision 0 and 1, 1-4 KiB blocks, Debian 12's default
 * features): the superblock and group descriptors checked against the device
 * and against each other, write-back of both, sync and umount. */
#include "blk_file.h"
#include "errno.h"
#include "ext2.h"
#include "ext2_mount.h"
#include "mm.h"
#include "printk.h"
#include "slab.h"
#include "statfs.h"
#include "string.h"
#include "uapi/mount.h"
#include "uapi/statfs.h"

static u32 ext2_next_dev = 0x0800;	/* st_dev of each mount: 8:0, 8:1, ... */

int ext2_corrupt(struct ext2_sb *sb, const char *what, u32 n)
{
	printk(KERN_DEBUG "ext2: bad %s %u\n", what, n);
	return -EUCLEAN;
}

/* The superblock's fields that make the geometry, checked alone: -EINVAL
 * when this is no ext2 this kernel can mount. */
static int ext2_check_geometry(const struct ext2_super_block *es, u64 dev_bytes)
{
	u32 bs, first;

	if (es->s_magic != EXT2_SUPER_MAGIC || es->s_rev_level > EXT2_DYNAMIC_REV)
		return -EINVAL;
	if (es->s_log_block_size > EXT2_MAX_BLOCK_LOG - EXT2_MIN_BLOCK_LOG)
		return -EINVAL;
	if (es->s_rev_level == EXT2_DYNAMIC_REV && (es->s_feature_incompat & ~EXT2_SUPP_INCOMPAT))
		return -EINVAL;			/* a feature we would misread */
	bs = 1024u << es->s_log_block_size;
	first = bs == 1024 ? 1 : 0;
	if (es->s_first_data_block != first || es->s_blocks_count <= first + 2)
		return -EINVAL;
	if ((u64)es->s_blocks_count * bs > dev_bytes)
		return -EINVAL;			/* larger than the device */
	if (es->s_blocks_per_group < 8 || es->s_blocks_per_group > 8 * bs ||
	    (es->s_blocks_per_group & 7))
		return -EINVAL;
	if (!es->s_inodes_per_group || es->s_inodes_per_group > 8 * bs)
		return -EINVAL;
	return 0;
}

/* Rev 1's inode size and first inode; the counts against the geometry. */
static int ext2_check_counts(struct ext2_sb *sb, const struct ext2_super_block *es)
{
	if (es->s_rev_level == EXT2_DYNAMIC_REV) {
		sb->inode_size = es->s_inode_size;
		sb->first_ino = es->s_first_ino;
	} else {
		sb->inode_size = EXT2_GOOD_OLD_INODE_SIZE;
		sb->first_ino = EXT2_GOOD_OLD_FIRST_INO;
	}
	if (sb->inode_size < EXT2_GOOD_OLD_INODE_SIZE || sb->inode_size > sb->block_size ||
	    (sb->inode_size & (sb->inode_size - 1)))
		return -EINVAL;
	if ((u64)sb->ngroups * sb->ipg != es->s_inodes_count)
		return -EINVAL;
	if (sb->first_ino < EXT2_GOOD_OLD_FIRST_INO || sb->first_ino > es->s_inodes_count)
		return -EINVAL;
	if (es->s_free_blocks_count > es->s_blocks_count ||
	    es->s_free_inodes_count > es->s_inodes_count)
		return -EINVAL;
	if (sb->first_data_block + 1 + sb->gdt_blocks > sb->blocks_count)
		return -EINVAL;
	return 0;
}

/* Group g's bitmaps and inode table lie inside its blocks. */
static int ext2_check_group(struct ext2_sb *sb, u32 g)
{
	const struct ext2_group_desc *d = &sb->gd[g];
	u32 start = sb->first_data_block + g * sb->bpg;
	u32 end = MIN(start + sb->bpg, sb->blocks_count);
	u32 itb = (sb->ipg * sb->inode_size + sb->block_size - 1) / sb->block_size;

	if (d->bg_block_bitmap < start || d->bg_block_bitmap >= end ||
	    d->bg_inode_bitmap < start || d->bg_inode_bitmap >= end ||
	    d->bg_inode_table < start || d->bg_inode_table + itb > end ||
	    d->bg_inode_table + itb < d->bg_inode_table)
		return -EINVAL;
	if (d->bg_free_blocks_count > sb->bpg || d->bg_free_inodes_count > sb->ipg)
		return -EINVAL;
	return 0;
}

/* Read the group descriptor table into sb->gd and check every group. */
static int ext2_load_groups(struct ext2_sb *sb)
{
	u32 bs = sb->block_size;
	int err = 0;

	sb->gd = kmalloc(sb->gdt_blocks * bs, GFP_KERNEL);
	if (!sb->gd)
		return -ENOMEM;
	for (u32 i = 0; i < sb->gdt_blocks && !err; i++) {
		struct ext2_buf *b = ext2_bread(sb, sb->first_data_block + 1 + i);
		if (IS_ERR(b))
			return PTR_ERR(b);
		memcpy((char *)sb->gd + i * bs, b->data, bs);
		ext2_brelse(b);
	}
	for (u32 g = 0; g < sb->ngroups && !err; g++)
		err = ext2_check_group(sb, g);
	return err;
}

/* The superblock at byte 1024: read, checked; sb's geometry filled. */
static int ext2_read_super(struct ext2_sb *sb)
{
	struct ext2_super_block *es = sb->es;
	int err = ext2_dev_rw(sb, false, virt_to_page(es), 0, 2 * EXT2_SUPER_OFFSET, 0);

	if (err)
		return err;
	if ((err = ext2_check_geometry(es, sb->dev_bytes)))
		return err;
	sb->block_log = EXT2_MIN_BLOCK_LOG + es->s_log_block_size;
	sb->block_size = 1u << sb->block_log;
	sb->addr_per_block = sb->block_size / 4;
	sb->bpg = es->s_blocks_per_group;
	sb->ipg = es->s_inodes_per_group;
	sb->first_data_block = es->s_first_data_block;
	sb->blocks_count = es->s_blocks_count;
	sb->inodes_count = es->s_inodes_count;
	sb->ngroups = (sb->blocks_count - sb->first_data_block + sb->bpg - 1) / sb->bpg;
	sb->gdt_blocks = (sb->ngroups * sizeof(struct ext2_group_desc) + sb->block_size - 1) /
			 sb->block_size;
	if ((err = ext2_check_counts(sb, es)))
		return err;
	if (es->s_rev_level == EXT2_DYNAMIC_REV &&
	    (es->s_feature_ro_compat & ~EXT2_SUPP_RO_COMPAT))
		sb->rdonly = true;		/* readable, not writable by us */
	return 0;
}

int ext2_write_super(struct ext2_sb *sb)
{
	u32 bs = sb->block_size;
	int err;

	if (sb->rdonly)
		return 0;
	for (u32 i = 0; i < sb->gdt_blocks; i++) {
		struct ext2_buf *b = ext2_bread(sb, sb->first_data_block + 1 + i);
		if (IS_ERR(b))
			return PTR_ERR(b);
		memcpy(b->data, (char *)sb->gd + i * bs, bs);
		ext2_bdirty(b, 0);	/* written in the same pass, whoever asked */
		ext2_brelse(b);
	}
	sb->es->s_wtime = ext2_now();
	sb->super_dirty = false;
	sb->super_owners.nr = 0;
	/* the superblock lives in a page of its own, at 1024 as on the disk:
	 * bytes 0-2047 go back whole (the boot block as it was read) */
	err = ext2_dev_rw(sb, true, virt_to_page(sb->es), 0, 2 * EXT2_SUPER_OFFSET, 0);
	atomic_inc(&ext2_blocks_written);
	if (err) {
		ext2_super_dirty(sb, 0);	/* again at the next write-back, anyone's */
		sb->wb_seq++;
		atomic_inc(&ext2_wb_errors);
	}
	return err;
}

static void ext2_sb_free(struct ext2_sb *sb)
{
	ext2_aio_exit(sb);
	ext2_pc_drop_all(sb);		/* none left: every inode is gone by now */
	ext2_bcache_drop(sb);
	ext2_pend_exit(sb);
	if (sb->dev)
		fput(sb->dev);
	kfree(sb->gd);
	if (sb->es)
		__free_page(virt_to_page(sb->es));
	kfree(sb);
}

/* mount(2)'s atime flags as Linux reads them: relatime unless MS_NOATIME;
 * MS_STRICTATIME overrides both. */
static enum ext2_atime ext2_atime_mode(u32 flags)
{
	if (flags & MS_STRICTATIME)
		return EXT2_ATIME_STRICT;
	return flags & MS_NOATIME ? EXT2_ATIME_NONE : EXT2_ATIME_RELATIME;
}

static struct ext2_sb *ext2_sb_alloc(struct file *dev, u64 offset, u64 bytes, u32 flags)
{
	struct ext2_sb *sb = kmalloc(sizeof(*sb), GFP_KERNEL);
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

	if (!sb || !page) {
		kfree(sb);
		if (page)
			__free_page(page);
		return NULL;
	}
	memset(sb, 0, sizeof(*sb));
	mutex_init(&sb->lock);
	mutex_set_stat(&sb->lock, &ext2_ls_sb);
	spin_lock_init(&sb->icache_lock, "ext2_icache");
	INIT_LIST_HEAD(&sb->bufs);
	spin_lock_init(&sb->pc_lock, "ext2_pc");
	INIT_LIST_HEAD(&sb->pages);
	INIT_LIST_HEAD(&sb->inodes);
	INIT_LIST_HEAD(&sb->flush_link);
	init_waitqueue_head(&sb->dio_wait);
	sb->dev = dev;
	sb->dev_offset = offset;
	sb->dev_bytes = bytes;
	sb->rdonly = flags & MS_RDONLY;
	sb->atime = ext2_atime_mode(flags);
	sb->nodiratime = flags & MS_NODIRATIME;
	if (ext2_aio_init(sb)) {
		__free_page(page);
		kfree(sb);
		return NULL;
	}
	/* es is at offset 1024 of its page: the page holds bytes 0-4095 of the
	 * device, so one 512-aligned transfer of [1024, 2048) reads it */
	sb->es = (struct ext2_super_block *)((char *)page_address(page) + EXT2_SUPER_OFFSET);
	return sb;
}

/* A read-write mount marks the file system in use (not cleanly unmounted
 * until umount says so: e2fsck then checks it). */
static int ext2_mark_mounted(struct ext2_sb *sb)
{
	sb->was_valid = sb->es->s_state & EXT2_VALID_FS;
	if (sb->rdonly)
		return 0;
	sb->es->s_state &= ~EXT2_VALID_FS;
	sb->es->s_mnt_count++;
	sb->es->s_mtime = ext2_now();
	return ext2_sync_meta_flush(sb) ? -EIO : ext2_write_super(sb);	/* no pages yet */
}

/* Superblock, groups and root of sb (sb->lock held): the root with a reference. */
static struct inode *ext2_fill_super(struct ext2_sb *sb)
{
	struct inode *root;
	int err;

	if ((err = ext2_read_super(sb)) || (err = ext2_load_groups(sb)))
		return ERR_PTR(err);
	root = ext2_iget(sb, EXT2_ROOT_INO);
	if (!IS_ERR(root) && !S_ISDIR(root->mode))
		err = -EUCLEAN;
	if (!err && !IS_ERR(root))
		err = ext2_mark_mounted(sb);
	if (err && !IS_ERR(root))
		ext2_drop_inode(root);		/* from memory only: nothing written */
	return err ? ERR_PTR(err) : root;
}

struct inode *ext2_mount(struct file *dev, u64 offset, u64 bytes, u32 flags)
{
	struct ext2_sb *sb = ext2_sb_alloc(dev, offset, bytes, flags);
	struct inode *root;

	if (!sb)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&sb->lock);
	root = ext2_fill_super(sb);
	mutex_unlock(&sb->lock);
	if (IS_ERR(root)) {
		ext2_sb_free(sb);		/* with the caller's dev reference */
		return root;
	}
	sb->root = root;
	sb->dev_id = __atomic_fetch_add(&ext2_next_dev, 1, __ATOMIC_RELAXED);
	ext2_flusher_start(sb);
	return root;
}

int ext2_sync_root(struct inode *root)
{
	return ext2_sync_fs(EXT2_SB(root));
}

int ext2_umount(struct inode *root)
{
	struct ext2_sb *sb = EXT2_SB(root);
	int err;

	ext2_flusher_stop(sb);		/* no pass touches sb after this */
	err = sb->rdonly ? 0 : ext2_pc_sync_all(sb);	/* each inode under its lock */
	mutex_lock(&sb->lock);
	if (!sb->rdonly && sb->was_valid)
		sb->es->s_state |= EXT2_VALID_FS;
	ext2_super_dirty(sb, 0);
	if (!err)
		err = ext2_sync_meta_flush(sb);
	else
		ext2_sync_meta_flush(sb);
	if (err && !sb->rdonly) {	/* something did not reach the disk: e2fsck */
		sb->es->s_state = (sb->es->s_state & ~EXT2_VALID_FS) | EXT2_ERROR_FS;
		ext2_write_super(sb);
	}
	mutex_unlock(&sb->lock);
	iput(root);			/* the mount's: the last inode of sb */
	ext2_sb_free(sb);
	return err;
}

/* Does group g hold a copy of the superblock and descriptors (sparse_super:
 * groups 0, 1 and the powers of 3, 5 and 7)? */
static bool ext2_group_has_super(struct ext2_sb *sb, u32 g)
{
	if (g <= 1 || !(sb->es->s_feature_ro_compat & EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER))
		return true;
	for (u32 b = 3; b <= 7; b += 2) {
		u32 p = b;

		while (p < g)
			p *= b;
		if (p == g)
			return true;
	}
	return false;
}

void ext2_statfs(struct inode *inode, struct kstatfs *st)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 itb = (sb->ipg * sb->inode_size + sb->block_size - 1) / sb->block_size;
	u64 overhead = sb->first_data_block, uuid[2];

	mutex_lock(&sb->lock);
	for (u32 g = 0; g < sb->ngroups; g++)
		overhead += 2 + itb + (ext2_group_has_super(sb, g) ?
				       1 + sb->gdt_blocks + sb->es->s_reserved_gdt_blocks : 0);
	st->type = EXT2_SUPER_MAGIC;
	st->bsize = sb->block_size;
	st->blocks = sb->blocks_count - overhead;
	st->bfree = sb->es->s_free_blocks_count;
	st->bavail = st->bfree > sb->es->s_r_blocks_count ?
		     st->bfree - sb->es->s_r_blocks_count : 0;
	st->files = sb->inodes_count;
	st->ffree = sb->es->s_free_inodes_count;
	memcpy(uuid, sb->es->s_uuid, sizeof(uuid));
	st->fsid[0] = (s32)(uuid[0] ^ uuid[1]);	/* Linux's: the UUID's halves xored */
	st->fsid[1] = (s32)((uuid[0] ^ uuid[1]) >> 32);
	st->namelen = EXT2_NAME_LEN;
	st->flags = ST_VALID | (sb->rdonly ? ST_RDONLY : 0) |
		    (sb->atime == EXT2_ATIME_NONE ? ST_NOATIME :
		     sb->atime == EXT2_ATIME_RELATIME ? ST_RELATIME : 0) |
		    (sb->nodiratime ? ST_NODIRATIME : 0);
	mutex_unlock(&sb->lock);
}
