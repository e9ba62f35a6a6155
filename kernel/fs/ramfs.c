/* ramfs.c: regular files kept in memory, one page (HighMem preferred) per 4 KiB.
 *
 * inode->lock, a mutex, guards the size and the page array. Reads and writes
 * hold it while they copy between the file's pages (mapped with kmap, which
 * may sleep) and user memory, which may fault: no spinlock is held then. */
#include "aio.h"
#include "errno.h"
#include "fs.h"
#include "highmem.h"
#include "mm.h"
#include "resource.h"
#include "slab.h"
#include "string.h"
#include "uaccess.h"

#define RAMFS_MAX_PAGES	(RAMFS_MAX_SIZE >> PAGE_SHIFT)

struct ramfs_data {
	u32 nr_slots;			/* length of pages[] */
	struct page **pages;		/* NULL entries read as zeros */
};

atomic_t ramfs_pages = ATOMIC_INIT(0);
static const char hole_zeros[PAGE_SIZE];

static struct ramfs_data *rdata(struct inode *inode)
{
	return inode->private;
}

/* Make room for page index idx (< RAMFS_MAX_PAGES) in the page array
 * (inode->lock held). */
static int ramfs_grow(struct ramfs_data *d, u32 idx)
{
	u32 n = d->nr_slots ? d->nr_slots : 8;
	struct page **pages;

	if (idx < d->nr_slots)
		return 0;
	if (idx >= RAMFS_MAX_PAGES)
		return -EFBIG;
	while (n <= idx)
		n *= 2;			/* ends: idx < RAMFS_MAX_PAGES, a power of two */
	pages = kmalloc(n * sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	memset(pages, 0, n * sizeof(*pages));
	if (d->pages)
		memcpy(pages, d->pages, d->nr_slots * sizeof(*pages));
	kfree(d->pages);
	d->pages = pages;
	d->nr_slots = n;
	return 0;
}

static struct page *ramfs_page(struct ramfs_data *d, u32 idx, bool create)
{
	struct page *page;
	void *addr;

	if (idx < d->nr_slots && d->pages[idx])
		return d->pages[idx];
	if (!create || ramfs_grow(d, idx))
		return NULL;
	page = alloc_pages(GFP_HIGHUSER, 0);
	if (!page)
		return NULL;
	addr = kmap_atomic(page, KM_USER0);
	memset(addr, 0, PAGE_SIZE);
	kunmap_atomic(addr, KM_USER0);
	d->pages[idx] = page;
	atomic_inc(&ramfs_pages);
	return page;
}

struct page *ramfs_get_page(struct inode *inode, u32 idx)
{
	struct page *page;

	if (idx >= RAMFS_MAX_PAGES)
		return NULL;
	mutex_lock(&inode->lock);
	page = ramfs_page(rdata(inode), idx, true);
	if (page)
		get_page(page);
	mutex_unlock(&inode->lock);
	return page;
}

/* f_op->map_page: the page (made when missing: ramfs keeps pages past the
 * end, so write does not matter); -ENOMEM, or -EFBIG past the most a file
 * holds (SIGBUS). */
static int ramfs_map_page(struct inode *inode, u32 idx, bool write, struct page **pagep)
{
	(void)write;
	if (idx >= RAMFS_MAX_PAGES)
		return -EFBIG;
	*pagep = ramfs_get_page(inode, idx);
	return *pagep ? 0 : -ENOMEM;
}

/* How to move one chunk between a mapped file page and the caller's buffer;
 * returns the number of bytes NOT copied (as copy_*_user does). */
typedef size_t (*chunk_copy_t)(void *page_addr, void *buf, size_t n, bool to_file);

static size_t copy_user_chunk(void *page_addr, void *buf, size_t n, bool to_file)
{
	/* raw: a short write must not zero the file's bytes after it */
	return to_file ? raw_copy_from_user(page_addr, buf, n) : copy_to_user(buf, page_addr, n);
}

static size_t copy_kernel_chunk(void *page_addr, void *buf, size_t n, bool to_file)
{
	if (to_file)
		memcpy(page_addr, buf, n);
	else
		memcpy(buf, page_addr, n);
	return 0;
}

/* Move up to n bytes at pos (inode->lock held); returns bytes moved or -errno.
 * [pos, pos + n) must lie within RAMFS_MAX_SIZE (callers cut writes to it and
 * reads to the size): anything else is refused, so that the page index below
 * never wraps. */
static ssize_t ramfs_rw(struct inode *inode, char *buf, size_t n, loff_t pos,
			bool to_file, chunk_copy_t copy)
{
	struct ramfs_data *d = rdata(inode);
	size_t done = 0;

	mutex_assert_held(&inode->lock);
	if (pos < 0 || pos > RAMFS_MAX_SIZE || n > RAMFS_MAX_SIZE - pos)
		return -EFBIG;
	while (done < n) {
		u32 off = (pos + done) & (PAGE_SIZE - 1);
		size_t chunk = MIN(n - done, PAGE_SIZE - off), left;
		struct page *page = ramfs_page(d, (pos + done) >> PAGE_SHIFT, to_file);
		char *addr;

		if (!page && to_file)
			return done ? (ssize_t)done : -ENOSPC;
		if (!page) {			/* a hole reads as zeros */
			left = copy((void *)hole_zeros, buf + done, chunk, false);
		} else {
			addr = kmap(page);	/* not atomic: the copy may fault */
			left = copy(addr + off, buf + done, chunk, to_file);
			kunmap(page);
		}
		done += chunk - left;
		if (left)
			return done ? (ssize_t)done : -EFAULT;
	}
	return done;
}

static ssize_t ramfs_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	struct inode *inode = f->f_inode;
	ssize_t ret = 0;

	mutex_lock(&inode->lock);
	if (*pos < inode->size) {
		n = MIN((loff_t)n, inode->size - *pos);
		ret = ramfs_rw(inode, ubuf, n, *pos, false, copy_user_chunk);
		if (ret > 0)
			*pos += ret;
	}
	mutex_unlock(&inode->lock);
	return ret;
}

/* A write (inode->lock held), Linux's rule for a file system's largest size:
 * one of some bytes that starts at or past RAMFS_MAX_SIZE is -EFBIG, one that
 * crosses it is cut short there. pos is not negative (rw_verify_area). */
static ssize_t ramfs_write_locked(struct inode *inode, char *buf, size_t n, loff_t pos,
				  chunk_copy_t copy)
{
	ssize_t ret;

	if (!n)
		return 0;
	if (pos < 0 || pos >= RAMFS_MAX_SIZE)
		return pos < 0 ? -EINVAL : -EFBIG;
	n = MIN((loff_t)n, RAMFS_MAX_SIZE - pos);
	ret = ramfs_rw(inode, buf, n, pos, true, copy);
	if (ret > 0 && pos + ret > inode->size)
		inode->size = pos + ret;
	return ret;
}

static ssize_t ramfs_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	struct inode *inode = f->f_inode;
	ssize_t ret;

	mutex_lock(&inode->lock);
	if (f->f_flags & O_APPEND)
		*pos = inode->size;
	ret = rlimit_fsize_check(*pos, &n);
	if (!ret)
		ret = ramfs_write_locked(inode, (char *)ubuf, n, *pos, copy_user_chunk);
	if (ret > 0)
		*pos += ret;
	mutex_unlock(&inode->lock);
	return ret;
}

ssize_t ramfs_write_kernel(struct inode *inode, const void *buf, size_t n, loff_t pos)
{
	ssize_t ret;

	mutex_lock(&inode->lock);
	ret = ramfs_write_locked(inode, (char *)buf, n, pos, copy_kernel_chunk);
	mutex_unlock(&inode->lock);
	return ret;
}

ssize_t ramfs_read_kernel(struct inode *inode, void *buf, size_t n, loff_t pos)
{
	ssize_t ret = 0;

	mutex_lock(&inode->lock);
	if (pos < inode->size) {
		n = MIN((loff_t)n, inode->size - pos);
		ret = ramfs_rw(inode, buf, n, pos, false, copy_kernel_chunk);
	}
	mutex_unlock(&inode->lock);
	return ret;
}

/* Free the pages wholly past size, and zero the tail of the last one; a
 * larger size leaves a hole that reads as zeros. -EFBIG past the most a file
 * may hold. */
int ramfs_extend(struct inode *inode, loff_t size)
{
	if (size < 0 || size > RAMFS_MAX_SIZE)
		return -EFBIG;
	mutex_lock(&inode->lock);
	if (size > inode->size)
		inode->size = size;	/* the bytes past the old end are zeros */
	mutex_unlock(&inode->lock);
	return 0;
}

int ramfs_truncate(struct inode *inode, loff_t size)
{
	struct ramfs_data *d = rdata(inode);
	u32 first;

	if (size < 0 || size > RAMFS_MAX_SIZE)
		return -EFBIG;
	first = (size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	mutex_lock(&inode->lock);
	for (u32 i = first; i < d->nr_slots; i++) {
		if (d->pages[i]) {
			__free_pages(d->pages[i], 0);
			d->pages[i] = NULL;
			atomic_dec(&ramfs_pages);
		}
	}
	if ((size & (PAGE_SIZE - 1)) && first - 1 < d->nr_slots && d->pages[first - 1]) {
		char *addr = kmap_atomic(d->pages[first - 1], KM_USER0);
		memset(addr + (size & (PAGE_SIZE - 1)), 0, PAGE_SIZE - (size & (PAGE_SIZE - 1)));
		kunmap_atomic(addr, KM_USER0);
	}
	inode->size = size;
	mutex_unlock(&inode->lock);
	return 0;
}

static void ramfs_destroy(struct inode *inode)
{
	struct ramfs_data *d = rdata(inode);

	ramfs_truncate(inode, 0);
	kfree(d->pages);
	kfree(d);
}

struct inode *ramfs_create_at(struct inode *base, const char *path, u32 mode)
{
	struct ramfs_data *d = kmalloc(sizeof(*d), GFP_KERNEL);
	struct inode *inode;

	if (!d)
		return ERR_PTR(-ENOMEM);
	memset(d, 0, sizeof(*d));
	inode = vfs_create_at(base, path, S_IFREG | (mode & 07777), &ramfs_file_ops);
	if (IS_ERR(inode)) {
		kfree(d);
		return inode;
	}
	inode->private = d;
	inode->destroy = ramfs_destroy;
	return inode;
}

struct file *ramfs_anon_file(u32 size)
{
	struct ramfs_data *d = kzalloc(sizeof(*d), GFP_KERNEL);
	struct inode *inode = d ? inode_alloc(S_IFREG | 0600, &ramfs_file_ops) : NULL;
	struct file *f;

	if (!inode) {
		kfree(d);
		return ERR_PTR(-ENOMEM);
	}
	inode->private = d;
	inode->destroy = ramfs_destroy;
	inode->size = size;
	strlcpy(inode->name, "/dev/zero (deleted)", sizeof(inode->name));	/* maps shows it */
	f = file_alloc(inode, FMODE_READ | FMODE_WRITE, O_RDWR);
	iput(inode);			/* the file holds it now (or it goes) */
	return f ? f : ERR_PTR(-ENOMEM);
}

static int ramfs_fsync(struct file *f, int datasync)
{
	return 0;			/* memory is the backing store */
}

/* One segment of a vectored transfer at pos (inode->lock held): bytes or -errno. */
static ssize_t ramfs_rw_seg(struct inode *inode, const struct iovec *v, loff_t pos, bool write)
{
	size_t n = v->iov_len;
	int err;

	if (write && (err = rlimit_fsize_check(pos, &n)))
		return err;
	if (write)
		return ramfs_write_locked(inode, v->iov_base, n, pos, copy_user_chunk);
	if (pos >= inode->size)
		return 0;
	return ramfs_rw(inode, v->iov_base, MIN((loff_t)n, inode->size - pos), pos, false,
			copy_user_chunk);
}

/* AIO on ramfs completes inside io_submit: the segments in turn under one
 * hold of the lock (so a write, appending or not, is atomic with respect to
 * other writers), stopping at the first short one. A write with O_APPEND or
 * RWF_APPEND ignores pos and goes to the end. Bytes, or the first error. */
static ssize_t ramfs_aio_rw(struct kiocb *req, const struct iovec *iov, u32 nr, loff_t pos,
			    bool write)
{
	struct inode *inode = kiocb_file(req)->f_inode;
	ssize_t done = 0, r;

	mutex_lock(&inode->lock);
	if (write && kiocb_is_append(req))
		pos = inode->size;
	for (u32 i = 0; i < nr; i++) {
		r = ramfs_rw_seg(inode, &iov[i], pos + done, write);
		if (r < 0) {
			done = done ? done : r;
			break;
		}
		done += r;
		if ((size_t)r < iov[i].iov_len)
			break;
	}
	mutex_unlock(&inode->lock);
	return done;
}

static ssize_t ramfs_aio_readv(struct kiocb *req, const struct iovec *iov, u32 nr, loff_t pos)
{
	return ramfs_aio_rw(req, iov, nr, pos, false);
}

static ssize_t ramfs_aio_writev(struct kiocb *req, const struct iovec *iov, u32 nr, loff_t pos)
{
	return ramfs_aio_rw(req, iov, nr, pos, true);
}

static ssize_t ramfs_aio_read(struct kiocb *req, char *ubuf, size_t n, loff_t pos)
{
	struct iovec one = { ubuf, n };

	return ramfs_aio_rw(req, &one, 1, pos, false);
}

static ssize_t ramfs_aio_write(struct kiocb *req, const char *ubuf, size_t n, loff_t pos)
{
	struct iovec one = { (void *)ubuf, n };

	return ramfs_aio_rw(req, &one, 1, pos, true);
}

static int ramfs_aio_fsync(struct kiocb *req, int datasync)
{
	return 0;
}

const struct file_operations ramfs_file_ops = {
	.llseek = generic_llseek,
	.read = ramfs_read,
	.write = ramfs_write,
	.fsync = ramfs_fsync,
	.aio_read = ramfs_aio_read,
	.aio_write = ramfs_aio_write,
	.aio_fsync = ramfs_aio_fsync,
	.aio_readv = ramfs_aio_readv,
	.aio_writev = ramfs_aio_writev,
	.map_page = ramfs_map_page,
};
