/* pin.h: pinning a user buffer's pages so the kernel can reach them from any
 * context (another process, an interrupt handler, a device's DMA). */
#ifndef PIN_H
#define PIN_H

#include "highmem.h"
#include "types.h"

struct iovec;
struct mm;
struct page;

struct pinned_buf {
	u32 nr_pages;
	u32 offset;			/* of the buffer in the first page */
	size_t len;
	struct page **pages;		/* each with a reference */
	bool own_pages;			/* pages was allocated here (freed by unpin) */
};

/* Fault in and pin [addr, addr+len) of mm (for writing if write: the device
 * will write the pages). Returns 0, -EFAULT (not a valid access: unmapped, or
 * a mapping without PROT_WRITE for write, or without PROT_READ otherwise) or
 * -ENOMEM. */
int pin_user_buf(struct mm *mm, u32 addr, size_t len, bool write, struct pinned_buf *pb);
/* The same, keeping the page pointers in the caller's array when it has room
 * for them (room entries): no allocation for small buffers. */
int pin_user_buf_into(struct mm *mm, u32 addr, size_t len, bool write, struct pinned_buf *pb,
		      struct page **room_pages, u32 room);
/* Drop the references (any context). */
void unpin_user_buf(struct pinned_buf *pb);
/* Copy between a kernel buffer and the pinned buffer at off, through slot km. */
void pinned_copy_to(struct pinned_buf *pb, size_t off, const void *src, size_t n, enum km_type km);
void pinned_copy_from(struct pinned_buf *pb, size_t off, void *dst, size_t n, enum km_type km);

/* Several user ranges (an iovec) pinned as one buffer of len bytes. */
struct pinned_vec {
	u32 nr;				/* ranges */
	size_t len;			/* bytes in all of them */
	struct pinned_buf *bufs;	/* [nr]: &one, or allocated */
	struct pinned_buf one;
};

/* Pin nr ranges of mm (a kernel copy of the user's iovec); the first range
 * keeps its page pointers in room when it is the only one and fits. 0,
 * -EFAULT or -ENOMEM (nothing left pinned). */
int pin_user_iov(struct mm *mm, const struct iovec *iov, u32 nr, bool write,
		 struct pinned_vec *pv, struct page **room_pages, u32 room);
/* Drop the references (any context). */
void unpin_user_vec(struct pinned_vec *pv);
/* Copy at byte off of the whole vector, across its ranges (any context). */
void pinned_vec_copy_to(struct pinned_vec *pv, size_t off, const void *src, size_t n,
			enum km_type km);
void pinned_vec_copy_from(struct pinned_vec *pv, size_t off, void *dst, size_t n,
			  enum km_type km);

#endif
