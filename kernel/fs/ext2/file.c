/* file.c: ext2 regular files and directories as open files: read, write (holes
 * read as zeros; a write allocates the blocks it reaches), truncate, fsync,
 * getdents, fsync / fdatasync of one file and its write-back errors, and the
 * pages of mmap and exec (map_page). Data moves through the page cache
 * (pagecache.c) under the inode's lock (ext2_ilock; sb->lock only inside it,
 * around the block map and the inode's block), copied to and from user
 * memory or from pinned pages (the AIO worker, aio.c). A user copy may fault
 * on a mapping of an ext2 file: that fault must not take an inode lock while
 * the copier holds one (two copiers could wait for each other), so map_page
 * refuses it (the holder's fault_again), the copy fails, and read/write
 * fault the user range in without the lock and try again. */
#include "blk_file.h"
#include "errno.h"
#include "highmem.h"
#include "pin.h"
#include "fs.h"
#include "resource.h"
#include "string.h"
#include "uaccess.h"
#include "vm.h"
#include "sched.h"
#include "mm.h"
#include "ext2.h"

/* The most a file may hold: the block map's reach, 2^31 - 1 without the
 * large_file feature, and what i_blocks (512-byte units, 32 bits) counts. */
static u64 ext2_max_size(const struct ext2_sb *sb)
{
	u64 max = ext2_max_blocks(sb) << sb->block_log;

	if (!(sb->es->s_feature_ro_compat & EXT2_FEATURE_RO_COMPAT_LARGE_FILE))
		max = MIN(max, 0x7fffffffull);
	return MIN(max, (u64)0xffffffffull * 512 / 2);
}

/* Copy n bytes between kernel address k and x at byte off of the transfer
 * (to_x: into x); bytes not copied (a user fault). */
static size_t ext2_xfer_copy(struct ext2_xfer *x, size_t off, char *k, size_t n, bool to_x)
{
	size_t left = n;

	if (!x->iov) {
		if (to_x)
			pinned_vec_copy_to(x->pinned, off, k, n, KM_USER1);
		else
			pinned_vec_copy_from(x->pinned, off, k, n, KM_USER1);
		return 0;
	}
	for (u32 i = 0; i < x->nr && left; i++) {
		size_t len = x->iov[i].iov_len, c, miss;
		char *u = (char *)x->iov[i].iov_base + off;
		if (off >= len) {
			off -= len;
			continue;
		}
		c = MIN(len - off, left);
		miss = to_x ? copy_to_user(u, k, c) : raw_copy_from_user(k, u, c);
		left -= c - miss;
		if (miss)
			break;
		k += c;
		off = 0;
	}
	return left;
}

/* Copy chunk bytes between x (from byte done) and ep at off; bytes not copied. */
static long ext2_page_copy(struct ext2_page *ep, u32 off, struct ext2_xfer *x, size_t done,
			   u32 chunk, bool to_x)
{
	char *p = kmap(ep->page);
	long left;

	if (!p)
		return -ENOMEM;
	left = ext2_xfer_copy(x, done, p + off, chunk, to_x);
	kunmap(ep->page);
	return left;
}

/* One page's part of a read: chunk bytes at file byte at into x from byte
 * done; bytes not copied, or -errno. Holes read as zeros (the page holds them). */
static long ext2_read_chunk(struct inode *inode, struct ext2_xfer *x, size_t done, u64 at,
			    u32 chunk)
{
	struct ext2_page *ep = ext2_pc_get(inode, at >> PAGE_SHIFT, true);

	if (IS_ERR(ep))
		return PTR_ERR(ep);
	return ext2_page_copy(ep, at & (PAGE_SIZE - 1), x, done, chunk, true);
}

/* One block's part of a write: the block is mapped (allocated when new), its
 * old bytes read first unless written whole (or cached), then the copy.
 * Bytes not copied, or -errno. */
static long ext2_write_chunk(struct inode *inode, struct ext2_xfer *x, size_t done, u64 at,
			     u32 chunk)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 off = at & (PAGE_SIZE - 1), bit = 1u << (off >> sb->block_log);
	struct ext2_page *ep = ext2_pc_get(inode, at >> PAGE_SHIFT, false);
	long nr, left;
	int err;

	if (IS_ERR(ep))
		return PTR_ERR(ep);
	if (!ep->uptodate && !(ep->dirty & bit) && chunk != sb->block_size &&
	    (err = ext2_pc_io(ep, false, bit)))
		return err;
	nr = ext2_bmap(inode, at >> sb->block_log, true, NULL);
	if (nr < 0)
		return nr;
	left = ext2_page_copy(ep, off, x, done, chunk, false);
	if (left >= 0)
		ext2_pc_mark(ep, bit);	/* a short copy leaves zeros or old bytes */
	if (ep->dirty == (1u << (PAGE_SIZE >> sb->block_log)) - 1)
		ep->uptodate = true;	/* every block written (each whole): a later
					 * read is a hit, not a read of the disk */
	return left;
}

/* The end of a write of done bytes (left: the last chunk's outcome): size,
 * times and the inode in its buffer. -EAGAIN when that needs the disk. */
static int ext2_write_end(struct inode *inode, loff_t pos, size_t done, long left)
{
	if (done && (u64)pos + done > (u64)inode->size)
		inode->size = pos + done;
	if (!done && left >= 0)
		return 0;
	ext2_touch(inode, true);
	return ext2_write_inode(inode) == -EAGAIN ? -EAGAIN : 0;
}

ssize_t ext2_file_rw(struct inode *inode, struct ext2_xfer *x, size_t n, loff_t pos, bool write)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u32 unit = write ? sb->block_size : PAGE_SIZE;
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
		u32 chunk = MIN(n - done, (size_t)(unit - (at & (unit - 1))));
		left = write ? ext2_write_chunk(inode, x, done, at, chunk) :
			ext2_read_chunk(inode, x, done, at, chunk);
		if (left >= 0)
			done += chunk - left;
	}
	if (write && ext2_write_end(inode, pos, done, left) == -EAGAIN)
		return -EAGAIN;
	if (ext2_fault_taken(inode)) {		/* a copy faulted on an ext2 mapping */
		if (!done || EXT2_I(inode)->nowait)
			return -EAGAIN;		/* (the AIO try is redone whole) */
	}
	if (left == -EAGAIN)
		return -EAGAIN;			/* ei->nowait: all of it again, later */
	if (done && !write)
		ext2_accessed(inode);
	if (done)
		return done;
	return left < 0 ? left : left ? -EFAULT : 0;
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
		ext2_dio_wait_inode(inode);	/* no direct I/O on blocks about to go */
		EXT2_I(inode)->map_changed = true;	/* for fdatasync */
		err = ext2_pc_truncate(inode, size);	/* pages first: their blocks go */
		/* mapped pages past the new end: gone from every mapping (SIGBUS) */
		vm_unmap_file_pages(inode, ((u64)size + PAGE_SIZE - 1) >> PAGE_SHIFT, ~0u);
		if (!err)
			err = ext2_free_blocks_from(inode, keep);
	}
	if (!err)
		inode->size = size;
	ext2_touch(inode, true);
	return ext2_write_inode(inode) ? -EIO : err;
}

/* Fault the user range [u, u + n) in (no lock held), for writing into it
 * when to_user: 0, or -EFAULT when part of it cannot be. */
static int ext2_fault_in(const char *u, size_t n, bool to_user)
{
	u32 va = (u32)u & PAGE_MASK, end = (u32)u + n;

	for (; n && va < end; va += PAGE_SIZE) {
		struct page *page = get_user_page(current->mm, va, to_user);
		if (!page)
			return -EFAULT;
		put_page(page);
		if (va + PAGE_SIZE < va)
			break;			/* the last page of the address space */
	}
	return 0;
}

#define EXT2_FAULT_TRIES	4	/* read/write attempts after faulting in */

/* A read or write through the user buffer: retried after faulting it in when
 * a copy faulted on an ext2 mapping (-EAGAIN from ext2_file_rw without
 * ei->nowait). */
static ssize_t ext2_rw_user(struct file *f, char *ubuf, size_t n, loff_t *pos, bool write)
{
	struct inode *inode = f->f_inode;
	struct ext2_sb *sb = EXT2_SB(inode);
	struct iovec one = { ubuf, n };
	struct ext2_xfer x = { &one, 1, NULL };
	ssize_t ret;

	for (int tries = 0;; tries++) {
		ext2_ilock(inode);
		if (write && (f->f_flags & O_APPEND))
			*pos = inode->size;
		ret = write && sb->rdonly ? -EROFS : write ? rlimit_fsize_check(*pos, &n) : 0;
		one.iov_len = n;
		if (!ret && (f->f_flags & O_DIRECT) && !ext2_dio_aligned(&one, 1, *pos))
			ret = -EINVAL;		/* as Linux: offset, length and buffer by 512 */
		if (!ret)
			ret = ext2_file_rw(inode, &x, n, *pos, write);
		if (write && ret > 0 && (f->f_flags & (O_DSYNC | O_DIRECT))) {	/* O_SYNC holds O_DSYNC's bit */
			/* O_DIRECT: through the cache, the data on the device before the
			 * return, as a direct write's is */
			int err = ext2_fsync_locked(f, (f->f_flags & O_SYNC) != O_SYNC);
			if (err)
				ret = err;
		}
		ext2_iunlock(inode);
		if (ret != -EAGAIN)
			break;
		if (tries == EXT2_FAULT_TRIES || ext2_fault_in(ubuf, n, !write))
			return -EFAULT;
	}
	if (ret > 0)
		*pos += ret;
	return ret;
}

static ssize_t ext2_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	return ext2_rw_user(f, ubuf, n, pos, false);
}

static ssize_t ext2_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	return ext2_rw_user(f, (char *)ubuf, n, pos, true);
}

/* map_page under the inode's lock: past the end -ENXIO; a write allocates the
 * page's blocks in the file (the page, filled first, holds their bytes) and
 * changes the times, as a write(2) would. */
static int ext2_map_page_locked(struct inode *inode, u32 idx, bool write, struct page **pagep)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	u64 start = (u64)idx << PAGE_SHIFT;
	u32 bpp = PAGE_SIZE >> sb->block_log;
	struct page *page;

	if (start >= (u64)inode->size)
		return -ENXIO;
	if (write && sb->rdonly)
		return -EROFS;
	page = ext2_pc_map(inode, idx, write);
	if (IS_ERR(page))
		return PTR_ERR(page);
	for (u32 b = 0; write && b < bpp && start + ((u64)b << sb->block_log) < (u64)inode->size;
	     b++) {
		long nr = ext2_bmap(inode, idx * bpp + b, true, NULL);
		if (nr < 0) {
			put_page(page);
			return nr;
		}
	}
	if (write) {
		ext2_touch(inode, true);
		ext2_write_inode(inode);
	} else {
		ext2_accessed(inode);
	}
	*pagep = page;
	return 0;
}

int ext2_map_page(struct inode *inode, u32 idx, bool write, struct page **pagep)
{
	struct ext2_inode_info *held = current->fs_held;
	int err;

	if (held) {
		held->fault_again = true;	/* a copy under an inode lock: see the head */
		return -EDEADLK;
	}
	if (mutex_held_by_current(&EXT2_SB(inode)->lock))
		return -EDEADLK;		/* a namespace operation's own copy */
	ext2_ilock(inode);
	err = ext2_map_page_locked(inode, idx, write, pagep);
	ext2_iunlock(inode);
	return err;
}

/* The write-back error sequence an open file of inode compares with. */
static u32 ext2_wb_seq(struct inode *inode)
{
	return EXT2_I(inode)->wb_seq + EXT2_SB(inode)->wb_seq;
}

/* Must fdatasync write the metadata? Not when only the times changed: the
 * size and the block map are as last written (ext2_fsync_locked). */
static bool ext2_datasync_meta(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);

	return ei->map_changed || (u64)inode->size != ei->synced_size ||
	       ei->di.i_blocks != ei->synced_blocks;
}

/* The inode into its buffer, then the dirty metadata blocks the file owns
 * (its inode's, its indirect blocks, the bitmaps and descriptors its
 * allocations changed, the directory blocks naming it), not other files'. */
static int ext2_fsync_meta(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	int taken = ext2_mlock(inode);
	int err = ext2_write_inode(inode);

	if (!err)
		err = ext2_sync_meta_inode(EXT2_SB(inode), inode->ino);
	ext2_munlock(inode, taken);
	if (!err) {
		ei->synced_size = inode->size;
		ei->synced_blocks = ei->di.i_blocks;
		ei->map_changed = false;
	}
	return err;
}

int ext2_fsync_locked(struct file *f, int datasync)
{
	struct inode *inode = f->f_inode;
	struct ext2_sb *sb = EXT2_SB(inode);
	u64 stamp[EXT2_SPANS + 1];
	int err = 0, e;
	u32 seq;

	if (sb->rdonly)
		return 0;
	stamp[0] = rdtsc();
	if (S_ISREG(inode->mode))
		err = ext2_pc_sync_inode(inode);
	stamp[1] = rdtsc();
	if ((!datasync || ext2_datasync_meta(inode)) && (e = ext2_fsync_meta(inode)) && !err)
		err = e;
	stamp[2] = rdtsc();
	ext2_dio_wait_writes(inode);	/* direct writes sent before: on the device first */
	stamp[3] = rdtsc();
	if ((e = blk_file_kernel_sync(sb->dev, BLK_FLUSH, NULL, 0, 0, 0)) && !err)
		err = e;
	stamp[4] = rdtsc();
	ext2_stat_request(EXT2_RQ_FSYNC_PARTS, stamp);
	seq = ext2_wb_seq(inode);
	if (seq != f->f_wb_err) {	/* a failure since this file last looked */
		f->f_wb_err = seq;
		if (!err)
			err = -EIO;
	}
	return err;
}

/* fsync and fdatasync of one file (ext2_fsync_locked). */
static int ext2_fsync(struct file *f, int datasync)
{
	int err;

	ext2_ilock(f->f_inode);
	err = ext2_fsync_locked(f, datasync);
	ext2_iunlock(f->f_inode);
	return err;
}

/* Opening for writing needs a writable file system. The file's fsync
 * reports write-back failures from now on. */
static int ext2_open(struct inode *inode, struct file *f)
{
	struct ext2_sb *sb = EXT2_SB(inode);

	if ((f->f_mode & FMODE_WRITE) && sb->rdonly)
		return -EROFS;
	f->f_wb_err = ext2_wb_seq(inode);	/* a racing failure is seen or not */
	return 0;
}

const struct file_operations ext2_file_ops = {
	.open = ext2_open,
	.llseek = generic_llseek,
	.read = ext2_read,
	.write = ext2_write,
	.fsync = ext2_fsync,
	.aio_read = ext2_aio_read,
	.aio_write = ext2_aio_write,
	.aio_readv = ext2_aio_readv,
	.aio_writev = ext2_aio_writev,
	.aio_fsync = ext2_aio_fsync,
	.map_page = ext2_map_page,
};

const struct file_operations ext2_dir_ops = {
	.open = ext2_open,
	.llseek = generic_llseek,
	.fsync = ext2_fsync,
	.readdir = ext2_readdir,
};
