/* file.c: ext2 regular files and directories as open files: read, write (holes
 * read as zeros; a write allocates the blocks it reaches), truncate, fsync,
 * getdents. Data moves through the block cache under sb->lock, copied to and
 * from user memory (which may fault: sb->lock is a mutex, and no ext2 file is
 * mapped into memory, so a fault never comes back here).
 *
 * No AIO methods yet: io_submit on an ext2 file is -EINVAL until the page
 * cache and the asynchronous block map of the next increment. */
#include "errno.h"
#include "fs.h"
#include "resource.h"
#include "string.h"
#include "uaccess.h"
#include "ext2.h"

static const char ext2_zeros[1u << EXT2_MAX_BLOCK_LOG];

/* The most a file may hold: the block map's reach, 2^31 - 1 without the
 * large_file feature, and what i_blocks (512-byte units, 32 bits) counts. */
static u64 ext2_max_size(const struct ext2_sb *sb)
{
	u64 max = ext2_max_blocks(sb) << sb->block_log;

	if (!(sb->es->s_feature_ro_compat & EXT2_FEATURE_RO_COMPAT_LARGE_FILE))
		max = MIN(max, 0x7fffffffull);
	return MIN(max, (u64)0xffffffffull * 512 / 2);
}

/* One block's part of a read: chunk bytes at off of file block lblk to buf;
 * bytes not copied, or -errno. */
static long ext2_read_chunk(struct inode *inode, u32 lblk, u32 off, char *buf, u32 chunk)
{
	long nr = ext2_bmap(inode, lblk, false, NULL);
	struct ext2_buf *b;
	long left;

	if (nr < 0)
		return nr;
	if (!nr)
		return copy_to_user(buf, ext2_zeros, chunk);
	b = ext2_bread(EXT2_SB(inode), nr);
	if (IS_ERR(b))
		return PTR_ERR(b);
	left = copy_to_user(buf, (char *)b->data + off, chunk);
	ext2_brelse(b);
	return left;
}

/* One block's part of a write; bytes not copied, or -errno. A block written
 * whole, or new, is not read first. */
static long ext2_write_chunk(struct inode *inode, u32 lblk, u32 off, const char *buf, u32 chunk)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	bool fresh;
	long nr = ext2_bmap(inode, lblk, true, &fresh), left;
	struct ext2_buf *b;

	if (nr < 0)
		return nr;
	b = fresh || chunk == sb->block_size ? ext2_bget(sb, nr) : ext2_bread(sb, nr);
	if (IS_ERR(b))
		return PTR_ERR(b);
	left = raw_copy_from_user((char *)b->data + off, buf, chunk);
	ext2_bdirty(b);			/* a short copy leaves zeros or old bytes */
	ext2_brelse(b);
	return left;
}

ssize_t ext2_file_rw(struct inode *inode, char *buf, size_t n, loff_t pos, bool write)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 bs = sb->block_size;
	size_t done = 0;
	long left = 0;

	if (!write && pos >= inode->size)
		return 0;
	if (!write)
		n = MIN((u64)n, (u64)(inode->size - pos));
	else if ((u64)pos >= ext2_max_size(sb))
		return -EFBIG;
	else
		n = MIN((u64)n, ext2_max_size(sb) - pos);
	while (done < n && !left) {
		u64 at = pos + done;
		u32 off = at & (bs - 1), chunk = MIN(n - done, (size_t)(bs - off));
		left = write ? ext2_write_chunk(inode, at >> sb->block_log, off, buf + done, chunk) :
			ext2_read_chunk(inode, at >> sb->block_log, off, buf + done, chunk);
		if (left >= 0)
			done += chunk - left;
	}
	if (write && done && (u64)pos + done > (u64)inode->size)
		inode->size = pos + done;
	if (write && (done || left < 0)) {
		ext2_touch(inode, true);
		ext2_write_inode(inode);	/* size and blocks: its buffer is in memory */
	}
	if (done)
		return done;
	return left < 0 ? left : left ? -EFAULT : 0;
}

/* Zero the bytes past size in its last block (so a later extension reads
 * zeros there), when that block is mapped. */
static int ext2_zero_tail(struct inode *inode, loff_t size)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 off = size & (sb->block_size - 1);
	long nr;
	struct ext2_buf *b;

	if (!off)
		return 0;
	nr = ext2_bmap(inode, size >> sb->block_log, false, NULL);
	if (nr <= 0)
		return nr;
	b = ext2_bread(sb, nr);
	if (IS_ERR(b))
		return PTR_ERR(b);
	memset((char *)b->data + off, 0, sb->block_size - off);
	ext2_bdirty(b);
	ext2_brelse(b);
	return 0;
}

int ext2_truncate_locked(struct inode *inode, loff_t size)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u64 keep = ((u64)size + sb->block_size - 1) >> sb->block_log;
	int err = 0;

	if (sb->rdonly)
		return -EROFS;
	if ((u64)size > ext2_max_size(sb))
		return -EFBIG;
	if (size < inode->size) {
		err = ext2_free_blocks_from(inode, keep);
		if (!err)
			err = ext2_zero_tail(inode, size);
	}
	if (!err)
		inode->size = size;
	ext2_touch(inode, true);
	return ext2_write_inode(inode) ? -EIO : err;
}

static ssize_t ext2_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	struct inode *inode = f->f_inode;
	struct ext2_sb *sb = EXT2_SB(inode);
	ssize_t ret;

	mutex_lock(&sb->lock);
	ret = ext2_file_rw(inode, ubuf, n, *pos, false);
	mutex_unlock(&sb->lock);
	if (ret > 0)
		*pos += ret;
	return ret;
}

static ssize_t ext2_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	struct inode *inode = f->f_inode;
	struct ext2_sb *sb = EXT2_SB(inode);
	ssize_t ret;

	mutex_lock(&sb->lock);
	if (f->f_flags & O_APPEND)
		*pos = inode->size;
	ret = sb->rdonly ? -EROFS : rlimit_fsize_check(*pos, &n);
	if (!ret)
		ret = ext2_file_rw(inode, (char *)ubuf, n, *pos, true);
	mutex_unlock(&sb->lock);
	if (ret > 0)
		*pos += ret;
	return ret;
}

/* fsync and fdatasync: every dirty block of the file system, then a flush. */
static int ext2_fsync(struct file *f, int datasync)
{
	struct ext2_sb *sb = EXT2_SB(f->f_inode);
	int err;

	mutex_lock(&sb->lock);
	err = ext2_sync_fs(sb);
	mutex_unlock(&sb->lock);
	return err;
}

/* Opening for writing needs a writable file system. */
static int ext2_open(struct inode *inode, struct file *f)
{
	return (f->f_mode & FMODE_WRITE) && EXT2_SB(inode)->rdonly ? -EROFS : 0;
}

const struct file_operations ext2_file_ops = {
	.open = ext2_open,
	.llseek = generic_llseek,
	.read = ext2_read,
	.write = ext2_write,
	.fsync = ext2_fsync,
};

const struct file_operations ext2_dir_ops = {
	.llseek = generic_llseek,
	.fsync = ext2_fsync,
	.readdir = ext2_readdir,
};
