/* mm.h: physical pages: struct page, zones, GFP flags and the buddy allocator.
 *
 * Every physical page frame below the highest usable address has a struct
 * page in mem_map[pfn]. Pages are grouped in three zones: DMA (< 16 MiB),
 * Normal (the rest of the direct-mapped low memory) and HighMem (above the
 * low-memory limit, reached only through kmap/kmap_atomic). Each zone keeps
 * buddy free lists of orders 0..MAX_ORDER-1 under its own irq-safe lock, so
 * allocation and free work from interrupt context (GFP_ATOMIC).
 */
#ifndef MM_H
#define MM_H

#include "atomic.h"
#include "list.h"
#include "paging.h"
#include "spinlock.h"
#include "types.h"

#define MAX_ORDER	11		/* orders 0..10: up to 4 MiB blocks */

struct kmem_cache;

struct page {
	u32 flags;			/* PG_* bits; zone number in the top bits */
	atomic_t count;			/* references; 0 while free in the buddy */
	atomic_t pincount;		/* pinned for I/O (pin.c): fork copies, never shares */
	union {
		u32 private;		/* buddy: order (free block or allocation) */
		u32 slab_inuse;		/* PG_slab head: objects allocated */
	};
	struct list_head lru;		/* free list; slab list; owner's use */
	union {
		void *virtual;		/* highmem: kmap address, or NULL */
		struct page *slab_head;	/* PG_slab: first page of the slab */
	};
	struct kmem_cache *slab_cache;	/* PG_slab: owning cache */
	void *freelist;			/* PG_slab head: first free object */
};

#define PG_reserved	0x01	/* never handed out (firmware, kernel, holes) */
#define PG_buddy	0x02	/* head of a free block; private = order */
#define PG_slab		0x04	/* belongs to a slab */
#define PG_highmem	0x08	/* no permanent kernel mapping */
#define PG_head		0x10	/* head of an allocated block; private = order */
#define PG_ZONE_SHIFT	30	/* zone id in flags bits 30-31 */

enum zone_type { ZONE_DMA, ZONE_NORMAL, ZONE_HIGHMEM, MAX_NR_ZONES };

#define DMA_LIMIT_PFN	(16u << (20 - PAGE_SHIFT))	/* ISA DMA reaches 16 MiB */

struct free_area {
	struct list_head free_list;	/* heads of free blocks of this order */
	u32 nr_free;			/* blocks on the list */
};

struct zone {
	const char *name;
	u32 start_pfn, end_pfn;		/* [start, end) */
	u32 present_pages;		/* RAM pages given to the buddy at boot */
	u32 reserve;			/* low zones: pages user memory (__GFP_HIGHMEM)
					 * leaves free for the kernel (present / 32) */
	spinlock_t lock;		/* guards the fields below */
	u32 free_pages;
	struct free_area free_area[MAX_ORDER];
};

extern struct zone zones[MAX_NR_ZONES];
extern struct page *mem_map;	/* indexed by pfn */
extern u32 max_pfn;		/* one past the highest page with a struct page */
extern u32 max_low_pfn;		/* one past the last direct-mapped page */

/* GFP flags: where the pages may come from and whether the caller may sleep. */
typedef u32 gfp_t;
#define __GFP_DMA	0x01	/* only the DMA zone */
#define __GFP_HIGHMEM	0x02	/* HighMem first, then Normal, then DMA: user
				 * memory, which leaves each low zone's
				 * reserve to the kernel */
#define __GFP_WAIT	0x10	/* the caller may sleep: process context, no
				 * spinlock held (the allocator never sleeps yet) */
#define __GFP_HIGH	0x20	/* an atomic caller: must not sleep */
#define __GFP_ZERO	0x40	/* clear the pages (low memory only) */
#define GFP_ATOMIC	(__GFP_HIGH)
#define GFP_KERNEL	(__GFP_WAIT)
#define GFP_DMA		(__GFP_DMA)
#define GFP_HIGHUSER	(__GFP_WAIT | __GFP_HIGHMEM)

static inline u32 page_to_pfn(const struct page *p) { return p - mem_map; }
void mm_bad_pfn(u32 pfn, u32 caller) __attribute__((noreturn));
static inline struct page *pfn_to_page(u32 pfn) { return &mem_map[pfn]; }
static inline bool pfn_valid(u32 pfn) { return pfn < max_pfn; }
static inline u32 page_to_phys(const struct page *p) { return page_to_pfn(p) << PAGE_SHIFT; }
/* The page of a physical address; one past RAM is a broken caller, caught
 * here rather than by a write past the page array. */
static inline struct page *phys_to_page(u32 phys)
{
	if (unlikely((phys >> PAGE_SHIFT) >= max_pfn))
		mm_bad_pfn(phys >> PAGE_SHIFT, (u32)__builtin_return_address(0));
	return pfn_to_page(phys >> PAGE_SHIFT);
}
/* The page of a direct-mapped (low memory) kernel address. */
static inline struct page *virt_to_page(const void *va) { return phys_to_page(__pa(va)); }
static inline bool PageHighMem(const struct page *p) { return p->flags & PG_highmem; }
static inline bool PageReserved(const struct page *p) { return p->flags & PG_reserved; }
static inline bool PageSlab(const struct page *p) { return p->flags & PG_slab; }
static inline enum zone_type page_zonenum(const struct page *p)
{
	return (enum zone_type)(p->flags >> PG_ZONE_SHIFT);
}
static inline struct zone *page_zone(const struct page *p) { return &zones[page_zonenum(p)]; }
static inline int page_count(const struct page *p) { return atomic_read(&p->count); }

/* Kernel address of a page: the direct map for low pages, the kmap address
 * (or NULL when not kmapped) for highmem pages. Any context. */
void *page_address(const struct page *page);

/* Set up the zones from the boot memory map and free every usable page;
 * after paging_init. Prints the zones. */
void page_alloc_init(void);
/* All of the memory layer: paging, zones, highmem, slab, the fault handler. */
void mm_init(void);

/* Allocate 2^order contiguous pages; NULL when no zone allowed by gfp has a
 * block (never panics): user memory (__GFP_HIGHMEM) only above a low zone's
 * reserve. Any context with GFP_ATOMIC. The pages have count 1. Never kills:
 * the OOM killer is the page fault's (oom.h). */
struct page *alloc_pages(gfp_t gfp, unsigned order);
#define alloc_page(gfp)	alloc_pages(gfp, 0)
/* Drop a reference to a block from alloc_pages; the last one frees it.
 * Any context. A double free or a reserved page is reported (mm_bug). */
void __free_pages(struct page *page, unsigned order);
#define __free_page(p)	__free_pages(p, 0)
/* Low-memory allocation returning the kernel address (0 on failure). */
unsigned long __get_free_pages(gfp_t gfp, unsigned order);
unsigned long get_zeroed_page(gfp_t gfp);
#define __get_free_page(gfp)	__get_free_pages(gfp, 0)
void free_pages(unsigned long addr, unsigned order);
#define free_page(addr)	free_pages(addr, 0)

/* Take a reference to an allocated page (or block head). */
static inline void get_page(struct page *page) { atomic_inc(&page->count); }
/* Drop a reference; the last one frees the block (the order is in the head). */
void put_page(struct page *page);

/* Free pages in all zones / in one zone. */
u32 nr_free_pages(void);
u32 nr_free_pages_zone(enum zone_type z);
/* Snapshot of a zone's free-block counts per order (for tests). */
void zone_free_counts(enum zone_type z, u32 counts[MAX_ORDER]);

/* Debug checks (double free, slot misuse, ...): panic by default; tests
 * switch to MM_CHECK_REPORT to see a report and count it instead. */
enum mm_check_mode { MM_CHECK_PANIC, MM_CHECK_REPORT };
extern enum mm_check_mode mm_check_mode;
extern atomic_t mm_check_reports;	/* reports made in MM_CHECK_REPORT mode */
/* Report a broken memory-layer rule: panic, or print and count (test mode). */
void mm_bug(const char *fmt, ...) __printf(1, 2);
/* Print "name+off" for a code address into buf (call-site reports). */
const char *mm_symbolize(u32 addr, char *buf, size_t size);

#endif
