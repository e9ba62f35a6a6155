/* inode.c: ext2 inodes in memory: one struct inode per inode number in use, kept
 * in the file system's cache while referenced; read from and written into the
 * inode tables; new inodes; the last reference of an inode without names
 * frees its blocks and its number. */
#include "clock.h"
#include "errno.h"
#include "ext2.h"
#include "lockdep.h"
#include "slab.h"
#include "smp.h"
#include "string.h"

u32 ext2_now(void)
{
	struct kernel_timespec now;

	ktime_get_real_ts(&now);
	return now.tv_sec;
}

void ext2_touch(struct inode *inode, bool mtime)
{
	struct ext2_inode *di = &EXT2_I(inode)->di;

	di->i_ctime = ext2_now();
	if (mtime)
		di->i_mtime = di->i_ctime;
	inode->time_sec = di->i_mtime;
}

#define EXT2_RELATIME_SECS	(24 * 3600)	/* relatime: an atime this old moves anyway */

/* Does a read at now move inode's atime, as the mount says? */
static bool ext2_atime_due(const struct ext2_sb *sb, const struct inode *inode, u32 now)
{
	const struct ext2_inode *di = &EXT2_I(inode)->di;

	if (sb->rdonly || sb->atime == EXT2_ATIME_NONE || (sb->nodiratime && S_ISDIR(inode->mode)))
		return false;
	if (sb->atime == EXT2_ATIME_STRICT)
		return di->i_atime != now;
	return di->i_atime <= di->i_mtime || di->i_atime <= di->i_ctime ||
	       now - di->i_atime >= EXT2_RELATIME_SECS;
}

/* Under relatime an atime newer than mtime and ctime stays for a day. Once
 * found so, the inode remembers until when (in jiffies, at most a day: no
 * wrap), so that the reads meanwhile (every cache hit inside io_submit) read
 * no clock. */
static bool ext2_atime_fresh(const struct ext2_sb *sb, const struct ext2_inode_info *ei)
{
	const struct ext2_inode *di = &ei->di;

	return sb->atime == EXT2_ATIME_RELATIME && di->i_atime == ei->atime_fresh &&
	       di->i_atime > di->i_mtime && di->i_atime > di->i_ctime &&
	       time_before(jiffies, ei->atime_fresh_until);
}

void ext2_accessed(struct inode *inode)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct ext2_inode *di = &ei->di;
	u32 now;

	if (sb->rdonly || sb->atime == EXT2_ATIME_NONE || ext2_atime_fresh(sb, ei))
		return;
	now = ext2_now();
	if (!ext2_atime_due(sb, inode, now)) {
		if (sb->atime == EXT2_ATIME_RELATIME && now - di->i_atime < EXT2_RELATIME_SECS) {
			ei->atime_fresh = di->i_atime;
			ei->atime_fresh_until = jiffies +
				(EXT2_RELATIME_SECS - (now - di->i_atime)) * HZ;
		}
		return;
	}
	di->i_atime = now;
	ext2_write_inode(inode);	/* -EAGAIN under nowait: written with the inode later */
}

/* Where inode ino lives: its inode-table block and byte offset in it. */
static int ext2_inode_loc(struct ext2_sb *sb, u32 ino, u32 *blk, u32 *off)
{
	u32 g, idx;

	if (ino < 1 || ino > sb->inodes_count)
		return ext2_corrupt(sb, "inode number", ino);
	g = (ino - 1) / sb->ipg;
	idx = (ino - 1) % sb->ipg;
	*blk = sb->gd[g].bg_inode_table + (u32)((u64)idx * sb->inode_size / sb->block_size);
	*off = (u32)((u64)idx * sb->inode_size % sb->block_size);
	return 0;
}

/* Is the on-disk inode one we can use? mode's type, links, no extents, a
 * directory's size in whole blocks. */
static int ext2_inode_valid(struct ext2_sb *sb, u32 ino, const struct ext2_inode *di)
{
	u32 type = di->i_mode & S_IFMT;

	if (!di->i_links_count)
		return ext2_corrupt(sb, "inode not in use", ino);
	if (type != S_IFREG && type != S_IFDIR && type != S_IFLNK && type != S_IFCHR &&
	    type != S_IFBLK && type != S_IFIFO && type != S_IFSOCK)
		return ext2_corrupt(sb, "inode mode", ino);
	if (di->i_flags & EXT4_EXTENTS_FL)
		return ext2_corrupt(sb, "inode flags", ino);
	if (type == S_IFDIR && (di->i_size & (sb->block_size - 1)))
		return ext2_corrupt(sb, "directory size", ino);
	if (type == S_IFLNK && (di->i_size >= sb->block_size || !di->i_size))
		return ext2_corrupt(sb, "symlink size", ino);
	return 0;
}

static void ext2_set_ops(struct inode *inode)
{
	switch (inode->mode & S_IFMT) {
	case S_IFREG:
		inode->fops = &ext2_file_ops;
		inode->i_op = &ext2_file_iops;
		break;
	case S_IFDIR:
		inode->fops = &ext2_dir_ops;
		inode->i_op = &ext2_dir_iops;
		break;
	case S_IFLNK:
		inode->i_op = &ext2_symlink_iops;
		break;
	default:			/* devices, fifos, sockets: stat only */
		inode->i_op = &ext2_file_iops;
	}
}

/* A struct inode for di (sb->lock held), put in the cache with one reference. */
static struct inode *ext2_inode_make(struct ext2_sb *sb, u32 ino, const struct ext2_inode *di)
{
	struct ext2_inode_info *ei = kmalloc(sizeof(*ei), GFP_KERNEL);
	struct inode *inode = ei ? inode_alloc(di->i_mode, NULL) : NULL;
	u32 flags;

	if (!inode) {
		kfree(ei);
		return ERR_PTR(-ENOMEM);
	}
	mutex_init(&ei->lock);
	mutex_set_stat(&ei->lock, &ext2_ls_inode);
	ei->nowait = ei->fault_again = false;
	ei->flush_pass = 0;
	ei->di = *di;
	ei->inode = inode;
	ext2_pc_init(ei);
	ei->wb_seq = 0;
	ei->synced_size = di->i_size | (S_ISREG(di->i_mode) ? (u64)di->i_size_high << 32 : 0);
	ei->synced_blocks = di->i_blocks;
	ei->map_changed = false;
	ei->atime_fresh_until = jiffies;	/* not known fresh: read the clock */
	atomic_set(&ei->dio_reads, 0);
	atomic_set(&ei->dio_writes, 0);
	ext2_runs_forget(ei);
	inode->ino = ino;
	inode->nlink = di->i_links_count;
	inode->size = di->i_size;
	if (S_ISREG(di->i_mode))
		inode->size |= (u64)di->i_size_high << 32;
	inode->time_sec = di->i_mtime;
	inode->time_nsec = 0;
	inode->i_sb = sb;
	inode->private = ei;
	ext2_set_ops(inode);
	spin_lock_irqsave(&sb->icache_lock, flags);
	list_add(&ei->link, &sb->inodes);
	sb->nr_inodes++;
	spin_unlock_irqrestore(&sb->icache_lock, flags);
	return inode;
}

/* The cached inode ino with a new reference, or NULL. */
static struct inode *ext2_icache_find(struct ext2_sb *sb, u32 ino)
{
	struct ext2_inode_info *ei;
	struct inode *found = NULL;
	u32 flags;

	spin_lock_irqsave(&sb->icache_lock, flags);
	list_for_each_entry(ei, &sb->inodes, link) {
		if (ei->inode->ino == ino) {
			found = ei->inode;
			atomic_inc(&found->count);
			break;
		}
	}
	spin_unlock_irqrestore(&sb->icache_lock, flags);
	return found;
}

struct inode *ext2_iget(struct ext2_sb *sb, u32 ino)
{
	struct inode *inode = ext2_icache_find(sb, ino);
	struct ext2_inode di;
	struct ext2_buf *b;
	u32 blk, off;
	int err;

	if (inode)
		return inode;
	if ((err = ext2_inode_loc(sb, ino, &blk, &off)))
		return ERR_PTR(err);
	b = ext2_bread(sb, blk);
	if (IS_ERR(b))
		return ERR_PTR(PTR_ERR(b));
	memcpy(&di, (char *)b->data + off, sizeof(di));
	ext2_brelse(b);
	if ((err = ext2_inode_valid(sb, ino, &di)))
		return ERR_PTR(err);
	return ext2_inode_make(sb, ino, &di);
}

int ext2_mlock(struct inode *inode)
{
	struct ext2_sb *sb = EXT2_SB(inode);

	if (mutex_held_by_current(&sb->lock))
		return 0;
	if (!EXT2_I(inode)->nowait) {
		mutex_lock_spin(&sb->lock, EXT2_MLOCK_SPIN_US);	/* holds are microseconds */
		return 1;
	}
	if (!mutex_trylock(&sb->lock))	/* io_submit's try: never a wait */
		return -EAGAIN;
	sb->nowait = true;
	return 1;
}

void ext2_munlock(struct inode *inode, int taken)
{
	struct ext2_sb *sb = EXT2_SB(inode);

	if (taken <= 0)
		return;
	sb->nowait = false;
	mutex_unlock(&sb->lock);
}

/* ext2_write_inode with sb->lock held. */
static int ext2_write_inode_locked(struct inode *inode)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	struct ext2_inode *di = &EXT2_I(inode)->di;
	struct ext2_buf *b;
	u32 blk, off;
	int err;

	if (sb->rdonly)
		return -EROFS;
	if ((err = ext2_inode_loc(sb, inode->ino, &blk, &off)))
		return err;
	di->i_mode = inode->mode;
	di->i_links_count = inode->nlink;
	di->i_size = (u32)inode->size;
	if (S_ISREG(inode->mode))
		di->i_size_high = (u32)(inode->size >> 32);
	b = ext2_bread(sb, blk);
	if (IS_ERR(b))
		return PTR_ERR(b);
	memcpy((char *)b->data + off, di, sizeof(*di));
	ext2_bdirty(b, inode->ino);
	ext2_brelse(b);
	return 0;
}

int ext2_write_inode(struct inode *inode)
{
	int taken = ext2_mlock(inode), err;

	if (taken < 0)
		return taken;
	err = ext2_write_inode_locked(inode);
	ext2_munlock(inode, taken);
	return err;
}

/* Zero inode ino's whole record in its table (all inode_size bytes). */
static int ext2_inode_clear(struct ext2_sb *sb, u32 ino)
{
	struct ext2_buf *b;
	u32 blk, off;
	int err;

	if ((err = ext2_inode_loc(sb, ino, &blk, &off)))
		return err;
	b = ext2_bread(sb, blk);
	if (IS_ERR(b))
		return PTR_ERR(b);
	memset((char *)b->data + off, 0, sb->inode_size);
	ext2_bdirty(b, ino);
	ext2_brelse(b);
	return 0;
}

static u32 ext2_generation;

struct inode *ext2_new_inode(struct inode *dir, u32 mode)
{
	struct ext2_sb *sb = EXT2_SB(dir);
	struct ext2_inode di;
	struct inode *inode;
	long ino;
	int err;

	if (sb->rdonly)
		return ERR_PTR(-EROFS);
	ino = ext2_alloc_ino(sb, (dir->ino - 1) / sb->ipg, S_ISDIR(mode));
	if (ino < 0)
		return ERR_PTR(ino);
	if ((err = ext2_inode_clear(sb, ino))) {
		ext2_free_ino(sb, ino, S_ISDIR(mode));
		return ERR_PTR(err);
	}
	memset(&di, 0, sizeof(di));
	di.i_mode = mode;
	di.i_links_count = 1;		/* the caller sets the real count */
	di.i_atime = di.i_ctime = di.i_mtime = ext2_now();
	di.i_generation = ++ext2_generation;
	inode = ext2_inode_make(sb, ino, &di);
	if (IS_ERR(inode))
		ext2_free_ino(sb, ino, S_ISDIR(mode));
	else
		EXT2_I(inode)->map_changed = true;	/* fdatasync writes it once */
	return inode;
}

bool ext2_fast_symlink(const struct ext2_sb *sb, const struct ext2_inode *di)
{
	u32 acl = di->i_file_acl ? sb->block_size / 512 : 0;

	return S_ISLNK(di->i_mode) && di->i_blocks == acl;
}

/* The last name and the last reference are gone: free the blocks and the
 * number (sb->lock held). Errors leave the rest to e2fsck. */
static void ext2_evict(struct inode *inode)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	struct ext2_inode *di = &EXT2_I(inode)->di;
	u32 type = inode->mode & S_IFMT;

	ext2_pc_drop(inode);		/* its data goes with it: nothing to write */
	if (type == S_IFREG || type == S_IFDIR || (type == S_IFLNK && !ext2_fast_symlink(sb, di)))
		ext2_free_blocks_from(inode, 0);
	memset(di->i_block, 0, sizeof(di->i_block));
	inode->size = 0;
	di->i_dtime = ext2_now();
	ext2_write_inode(inode);
	ext2_free_ino(sb, inode->ino, type == S_IFDIR);
}

/* Free the memory of an inode already off the cache list, then stop counting
 * it (umount waits for that: sb stays alive until then); its parent reference
 * goes last. */
static void ext2_inode_free(struct inode *inode)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	struct inode *parent = inode->parent;
	u32 flags;

	kfree(inode->private);
	kfree(inode);
	spin_lock_irqsave(&sb->icache_lock, flags);
	sb->nr_inodes--;
	spin_unlock_irqrestore(&sb->icache_lock, flags);
	if (parent)
		iput(parent);
}

void ext2_drop_inode(struct inode *inode)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 flags;

	spin_lock_irqsave(&sb->icache_lock, flags);
	list_del(&EXT2_I(inode)->link);
	spin_unlock_irqrestore(&sb->icache_lock, flags);
	ext2_inode_free(inode);
}

/* Drop a reference that may not be the last: true when it was not (the
 * count went down, nothing else to do). icache_lock held. */
static bool ext2_put_shared(struct inode *inode)
{
	if (atomic_read(&inode->count) > 1) {
		atomic_dec(&inode->count);
		return true;
	}
	return false;
}

/* The last reference of a file with a name: its dirty pages are written
 * while it is still on the list, under its lock, so a lookup meanwhile finds
 * this inode (never a second copy reading stale bytes from the disk); then,
 * if nobody took a reference meanwhile, it leaves the list, clean. */
static bool ext2_put_named(struct inode *inode)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 flags;
	bool last;

	ext2_ilock(inode);	/* also waits out an eviction's or the flusher's trylock */
	if (EXT2_I(inode)->nr_pages && ext2_pc_sync_inode(inode)) {
		mutex_lock(&sb->lock);	/* the inode's wb_seq goes with it */
		sb->wb_seq++;		/* so the next fsync says it */
		mutex_unlock(&sb->lock);
	}
	spin_lock_irqsave(&sb->icache_lock, flags);
	last = atomic_dec_and_test(&inode->count);
	if (last)
		list_del(&EXT2_I(inode)->link);
	spin_unlock_irqrestore(&sb->icache_lock, flags);
	if (last && !inode->nlink && !sb->rdonly) {	/* unlinked meanwhile */
		mutex_lock(&sb->lock);
		ext2_evict(inode);
		mutex_unlock(&sb->lock);
	} else if (last) {
		ext2_pc_drop(inode);	/* clean: written above, nobody wrote since */
	}
	ext2_iunlock(inode);
	return last;
}

/* The last reference takes the inode off the list (no lookup finds it), frees
 * it on disk when it has no name left, and frees it; it is counted in
 * nr_inodes until then, so a umount cannot free sb under the eviction. */
void ext2_put(struct inode *inode)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 flags;

	spin_lock_irqsave(&sb->icache_lock, flags);
	if (ext2_put_shared(inode)) {
		spin_unlock_irqrestore(&sb->icache_lock, flags);
		return;
	}
	if (inode->nlink || sb->rdonly) {
		spin_unlock_irqrestore(&sb->icache_lock, flags);
		if (ext2_put_named(inode))
			ext2_inode_free(inode);
		return;
	}
	atomic_dec(&inode->count);		/* no name: no lookup can find it */
	list_del(&EXT2_I(inode)->link);
	spin_unlock_irqrestore(&sb->icache_lock, flags);
	ext2_ilock(inode);		/* (an eviction's trylock may race) */
	mutex_lock(&sb->lock);
	ext2_evict(inode);
	mutex_unlock(&sb->lock);
	ext2_iunlock(inode);
	ext2_inode_free(inode);
}

u32 ext2_inodes_with_pages(struct ext2_sb *sb, struct inode ***out)
{
	struct ext2_inode_info *ei;
	struct inode **v;
	u32 n = 0, max, flags;

	max = READ_ONCE(sb->nr_inodes) + 8;	/* those that come meanwhile: a later pass */
	v = kmalloc(max * sizeof(*v), GFP_KERNEL);
	*out = v;
	if (!v)
		return 0;
	spin_lock_irqsave(&sb->icache_lock, flags);
	list_for_each_entry(ei, &sb->inodes, link) {
		if (n == max)
			break;
		if (READ_ONCE(ei->nr_pages)) {	/* listed: its count is not 0 */
			atomic_inc(&ei->inode->count);
			v[n++] = ei->inode;
		}
	}
	spin_unlock_irqrestore(&sb->icache_lock, flags);
	return n;
}

bool ext2_busy(struct inode *root)
{
	struct ext2_sb *sb = EXT2_SB(root);
	u32 flags;
	bool busy;

	spin_lock_irqsave(&sb->icache_lock, flags);
	busy = sb->nr_inodes > 1 || atomic_read(&root->count) > 1;
	spin_unlock_irqrestore(&sb->icache_lock, flags);
	return busy;
}

void ext2_getattr(struct inode *inode, struct kstat *k)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	struct ext2_inode *di = &EXT2_I(inode)->di;

	k->dev = sb->dev_id;
	k->blksize = sb->block_size;
	k->blocks = di->i_blocks;
	k->atime_sec = di->i_atime;
	k->mtime_sec = di->i_mtime;
	k->ctime_sec = di->i_ctime;
	k->atime_nsec = k->mtime_nsec = k->ctime_nsec = 0;
	if (S_ISCHR(inode->mode) || S_ISBLK(inode->mode))
		k->rdev = di->i_block[0] ? di->i_block[0] : di->i_block[1];
}
