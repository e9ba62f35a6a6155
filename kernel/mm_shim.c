/* mm_shim.c: TEMPORARY until the memory layer lands: a page bitmap over a static
 * pool, and power-of-two kmalloc buckets carved from it. Not for production. */
#include "mm_shim.h"
#include "panic.h"
#include "spinlock.h"
#include "string.h"

#define SHIM_POOL_PAGES	1024			/* 4 MiB pool */
#define SHIM_MIN_SHIFT	4			/* smallest kmalloc bucket: 16 B */
#define SHIM_MAX_SHIFT	11			/* largest bucket: 2 KiB */
#define SHIM_HDR	16			/* header keeps blocks 16-aligned */
#define SHIM_BIG	0xFFu			/* header tag: block is whole pages */

static u8 shim_pool[SHIM_POOL_PAGES * PAGE_SIZE] __aligned(PAGE_SIZE);
static u32 shim_used[SHIM_POOL_PAGES / 32];
static void *shim_free[SHIM_MAX_SHIFT + 1];
static DEFINE_SPINLOCK(shim_lock);

static bool page_used(u32 i) { return shim_used[i / 32] & (1u << (i % 32)); }

static void mark_pages(u32 first, u32 n, bool used)
{
	for (u32 i = first; i < first + n; i++) {
		if (used)
			shim_used[i / 32] |= 1u << (i % 32);
		else
			shim_used[i / 32] &= ~(1u << (i % 32));
	}
}

static long find_pages(u32 n)
{
	for (u32 i = 0; i + n <= SHIM_POOL_PAGES; i += n) {
		u32 j = 0;
		while (j < n && !page_used(i + j))
			j++;
		if (j == n)
			return i;
	}
	return -1;
}

unsigned long __get_free_pages(gfp_t gfp, unsigned order)
{
	u32 flags, n = 1u << order;
	long first;

	spin_lock_irqsave(&shim_lock, flags);
	first = find_pages(n);
	if (first >= 0)
		mark_pages(first, n, true);
	spin_unlock_irqrestore(&shim_lock, flags);
	return first < 0 ? 0 : (unsigned long)&shim_pool[first * PAGE_SIZE];
}

void free_pages(unsigned long addr, unsigned order)
{
	u32 flags, first = (addr - (unsigned long)shim_pool) / PAGE_SIZE;

	if (!addr)
		return;
	if (addr < (unsigned long)shim_pool || first >= SHIM_POOL_PAGES || (addr & (PAGE_SIZE - 1)))
		panic("free_pages: %08lx is not a shim page", addr);
	spin_lock_irqsave(&shim_lock, flags);
	mark_pages(first, 1u << order, false);
	spin_unlock_irqrestore(&shim_lock, flags);
}

static unsigned size_order(size_t bytes)
{
	unsigned order = 0;

	while (((size_t)PAGE_SIZE << order) < bytes)
		order++;
	return order;
}

/* Refill bucket shift from a fresh page; called with shim_lock held. */
static void refill(unsigned shift)
{
	u32 size = 1u << shift;
	long page = find_pages(1);
	u8 *p;

	if (page < 0)
		return;
	mark_pages(page, 1, true);
	p = &shim_pool[page * PAGE_SIZE];
	for (u32 off = 0; off + size <= PAGE_SIZE; off += size) {
		*(void **)(p + off) = shim_free[shift];
		shim_free[shift] = p + off;
	}
}

void *kmalloc(size_t size, gfp_t gfp)
{
	unsigned shift = SHIM_MIN_SHIFT;
	u32 flags;
	u8 *p;

	while (shift <= SHIM_MAX_SHIFT && (1u << shift) < size + SHIM_HDR)
		shift++;
	if (shift > SHIM_MAX_SHIFT) {
		unsigned order = size_order(size + SHIM_HDR);
		p = (u8 *)__get_free_pages(gfp, order);
		if (!p)
			return NULL;
		p[0] = SHIM_BIG;
		p[1] = order;
		return p + SHIM_HDR;
	}
	spin_lock_irqsave(&shim_lock, flags);
	if (!shim_free[shift])
		refill(shift);
	p = shim_free[shift];
	if (p)
		shim_free[shift] = *(void **)p;
	spin_unlock_irqrestore(&shim_lock, flags);
	if (!p)
		return NULL;
	p[0] = shift;
	return p + SHIM_HDR;
}

void kfree(const void *ptr)
{
	u8 *p = (u8 *)ptr - SHIM_HDR;
	u32 flags;

	if (!ptr)
		return;
	if (p[0] == SHIM_BIG) {
		free_pages((unsigned long)p, p[1]);
		return;
	}
	if (p[0] < SHIM_MIN_SHIFT || p[0] > SHIM_MAX_SHIFT)
		panic("kfree: %p has a bad header", ptr);
	spin_lock_irqsave(&shim_lock, flags);
	*(void **)p = shim_free[p[0]];
	shim_free[p[0]] = p;
	spin_unlock_irqrestore(&shim_lock, flags);
}
