/* pin.h: pinning a user buffer's pages so the kernel can reach them from any
 * context (another process, an interrupt handler, a device's DMA). */
#ifndef PIN_H
#define PIN_H

#include "highmem.h"
#include "types.h"

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

#endif
