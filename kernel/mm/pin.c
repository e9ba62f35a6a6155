/* pin.c: pin user buffers and iovecs (page references) and copy to/from them via kmap_atomic. */
#include "errno.h"
#include "mm.h"
#include "paging.h"
#include "pin.h"
#include "slab.h"
#include "string.h"
#include "uapi/uio.h"
#include "vm.h"

void unpin_user_buf(struct pinned_buf *pb)
{
	if (!pb->pages)
		return;
	for (u32 i = 0; i < pb->nr_pages; i++) {
		if (!pb->pages[i])
			continue;
		atomic_dec(&pb->pages[i]->pincount);
		put_page(pb->pages[i]);
	}
	if (pb->own_pages)
		kfree(pb->pages);
	pb->pages = NULL;
}

int pin_user_buf(struct mm *mm, u32 addr, size_t len, bool write, struct pinned_buf *pb)
{
	return pin_user_buf_into(mm, addr, len, write, pb, NULL, 0);
}

int pin_user_buf_into(struct mm *mm, u32 addr, size_t len, bool write, struct pinned_buf *pb,
		      struct page **room_pages, u32 room)
{
	u32 first = addr & PAGE_MASK;

	pb->offset = addr & (PAGE_SIZE - 1);
	pb->len = len;
	pb->nr_pages = len ? (ALIGN_UP(addr + len, PAGE_SIZE) - first) >> PAGE_SHIFT : 0;
	pb->own_pages = pb->nr_pages > room;
	pb->pages = pb->own_pages ? kmalloc(MAX(pb->nr_pages, 1u) * sizeof(*pb->pages), GFP_KERNEL)
				  : room_pages;
	if (!pb->pages)
		return -ENOMEM;
	memset(pb->pages, 0, MAX(pb->nr_pages, 1u) * sizeof(*pb->pages));
	for (u32 i = 0; i < pb->nr_pages; i++) {
		pb->pages[i] = get_user_page(mm, first + i * PAGE_SIZE, write);
		if (!pb->pages[i]) {
			unpin_user_buf(pb);
			return -EFAULT;
		}
		atomic_inc(&pb->pages[i]->pincount);
	}
	return 0;
}

/* Walk the pinned pages covering [off, off+n), calling fn on each mapped chunk. */
static void pinned_walk(struct pinned_buf *pb, size_t off, void *kbuf, size_t n,
			enum km_type km, bool to_pinned)
{
	while (n) {
		size_t pos = pb->offset + off, chunk;
		u32 idx = pos >> PAGE_SHIFT, in = pos & (PAGE_SIZE - 1);
		char *addr;

		chunk = MIN(n, PAGE_SIZE - in);
		addr = kmap_atomic(pb->pages[idx], km);
		if (to_pinned)
			memcpy(addr + in, kbuf, chunk);
		else
			memcpy(kbuf, addr + in, chunk);
		kunmap_atomic(addr, km);
		off += chunk;
		kbuf = (char *)kbuf + chunk;
		n -= chunk;
	}
}

void pinned_copy_to(struct pinned_buf *pb, size_t off, const void *src, size_t n, enum km_type km)
{
	pinned_walk(pb, off, (void *)src, n, km, true);
}

void pinned_copy_from(struct pinned_buf *pb, size_t off, void *dst, size_t n, enum km_type km)
{
	pinned_walk(pb, off, dst, n, km, false);
}

void unpin_user_vec(struct pinned_vec *pv)
{
	if (!pv->bufs)
		return;
	for (u32 i = 0; i < pv->nr; i++)
		unpin_user_buf(&pv->bufs[i]);
	if (pv->bufs != &pv->one)
		kfree(pv->bufs);
	pv->bufs = NULL;
}

int pin_user_iov(struct mm *mm, const struct iovec *iov, u32 nr, bool write,
		 struct pinned_vec *pv, struct page **room_pages, u32 room)
{
	int err = 0;

	pv->len = 0;
	pv->nr = 0;
	pv->bufs = nr <= 1 ? &pv->one : kmalloc(nr * sizeof(*pv->bufs), GFP_KERNEL);
	if (!pv->bufs)
		return -ENOMEM;
	memset(pv->bufs, 0, MAX(nr, 1u) * sizeof(*pv->bufs));
	for (u32 i = 0; i < nr && !err; i++) {
		if (!iov[i].iov_len) {		/* nothing to pin: an empty range */
			pv->nr = i + 1;
			continue;
		}
		err = pin_user_buf_into(mm, (u32)iov[i].iov_base, iov[i].iov_len, write,
					&pv->bufs[i], nr == 1 ? room_pages : NULL, nr == 1 ? room : 0);
		pv->nr = i + !err;
		pv->len += err ? 0 : iov[i].iov_len;
	}
	if (err)
		unpin_user_vec(pv);
	return err;
}

/* Walk the ranges covering [off, off+n) of the vector. */
static void pinned_vec_walk(struct pinned_vec *pv, size_t off, char *kbuf, size_t n,
			    enum km_type km, bool to_pinned)
{
	for (u32 i = 0; i < pv->nr && n; i++) {
		struct pinned_buf *pb = &pv->bufs[i];
		size_t chunk;

		if (off >= pb->len) {
			off -= pb->len;
			continue;
		}
		chunk = MIN(n, pb->len - off);
		pinned_walk(pb, off, kbuf, chunk, km, to_pinned);
		kbuf += chunk;
		n -= chunk;
		off = 0;
	}
}

void pinned_vec_copy_to(struct pinned_vec *pv, size_t off, const void *src, size_t n,
			enum km_type km)
{
	pinned_vec_walk(pv, off, (char *)src, n, km, true);
}

void pinned_vec_copy_from(struct pinned_vec *pv, size_t off, void *dst, size_t n,
			  enum km_type km)
{
	pinned_vec_walk(pv, off, dst, n, km, false);
}
