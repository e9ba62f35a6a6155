/* page_alloc.c: the buddy page allocator over the DMA, Normal and HighMem zones.
 *
 * A free block of 2^k pages is listed on free_area[k] of its zone by its head
 * page (PG_buddy, private = k); its buddy is the block whose pfn differs in
 * bit k. Freeing merges with free buddies of the same order inside the zone,
 * so the free lists depend only on which pages are free. An allocated block
 * has count >= 1 and its head carries PG_head with private = order. Each
 * zone's lock is taken with interrupts off (callers in interrupt context).
 */
#include "errno.h"
#include "highmem.h"
#include "irq.h"
#include "ksyms.h"
#include "mm.h"
#include "multiboot.h"
#include "panic.h"
#include "printk.h"
#include "slab.h"
#include "smp.h"
#include "string.h"

#define KERNEL_PHYS_START	0x00100000u	/* load address (linker.ld) */
#define ZONE_RESERVE_RATIO	32	/* a low zone keeps 1/32 of its pages from user memory */

struct zone zones[MAX_NR_ZONES];
struct page *mem_map;
u32 max_pfn;
u32 max_low_pfn;
enum mm_check_mode mm_check_mode = MM_CHECK_PANIC;
atomic_t mm_check_reports;

static const char *const zone_names[MAX_NR_ZONES] = { "DMA", "Normal", "HighMem" };

/* ------------------------------------------------------------ debug reports */

const char *mm_symbolize(u32 addr, char *buf, size_t size)
{
	u32 off, len;
	const char *name = ksym_lookup(addr, &off, &len);

	if (name)
		snprintf(buf, size, "%s+0x%x", name, off);
	else
		snprintf(buf, size, "%08x", addr);
	return buf;
}

void mm_bug(const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (mm_check_mode == MM_CHECK_PANIC)
		panic("mm: %s", msg);
	printk(KERN_ERR "mm: BUG (reported, test mode): %s\n", msg);
	atomic_inc(&mm_check_reports);
}

/* -------------------------------------------------------------- the buddy */

static void free_list_add(struct zone *z, struct page *page, unsigned order)
{
	page->flags |= PG_buddy;
	page->private = order;
	list_add(&page->lru, &z->free_area[order].free_list);
	z->free_area[order].nr_free++;
}

static void free_list_del(struct zone *z, struct page *page, unsigned order)
{
	list_del(&page->lru);
	page->flags &= ~PG_buddy;
	z->free_area[order].nr_free--;
}

/* Put a block on the free lists, merging with its free buddies; lock held. */
static void buddy_free(struct zone *z, struct page *page, unsigned order)
{
	u32 pfn = page_to_pfn(page);

	assert_spin_locked(&z->lock);
	z->free_pages += 1u << order;
	while (order < MAX_ORDER - 1) {
		u32 buddy_pfn = pfn ^ (1u << order);
		struct page *buddy = pfn_to_page(buddy_pfn);

		if (buddy_pfn < z->start_pfn || buddy_pfn >= z->end_pfn ||
		    !(buddy->flags & PG_buddy) || buddy->private != order)
			break;
		free_list_del(z, buddy, order);
		pfn &= ~(1u << order);
		order++;
	}
	free_list_add(z, pfn_to_page(pfn), order);
}

/* Take a block of 2^order from the smallest free order that has one,
 * returning the unused halves to the lists; lock held. */
static struct page *buddy_alloc(struct zone *z, unsigned order)
{
	for (unsigned o = order; o < MAX_ORDER; o++) {
		struct free_area *fa = &z->free_area[o];
		struct page *page;

		if (list_empty(&fa->free_list))
			continue;
		page = list_first_entry(&fa->free_list, struct page, lru);
		free_list_del(z, page, o);
		while (o > order) {		/* split: keep the lower half */
			o--;
			free_list_add(z, page + (1u << o), o);
		}
		z->free_pages -= 1u << order;
		return page;
	}
	return NULL;
}

/* Zones to try for gfp, best first; returns how many. */
static int gfp_zonelist(gfp_t gfp, struct zone *list[MAX_NR_ZONES])
{
	int n = 0;

	if (gfp & __GFP_DMA) {
		list[n++] = &zones[ZONE_DMA];
		return n;
	}
	if (gfp & __GFP_HIGHMEM)
		list[n++] = &zones[ZONE_HIGHMEM];
	list[n++] = &zones[ZONE_NORMAL];
	list[n++] = &zones[ZONE_DMA];
	return n;
}

static void prep_new_block(struct page *page, unsigned order, gfp_t gfp)
{
	if (page_count(page) || PageReserved(page))
		mm_bug("alloc_pages: free block pfn 0x%x has count %d flags 0x%x",
		       page_to_pfn(page), page_count(page), page->flags);
	atomic_set(&page->count, 1);
	page->flags |= PG_head;
	page->private = order;
	if ((gfp & __GFP_ZERO) && !PageHighMem(page))
		memset(page_address(page), 0, PAGE_SIZE << order);
}

/* GFP_KERNEL may sleep once there is a scheduler: not in interrupt context. */
static void warn_sleeping_alloc(gfp_t gfp, u32 caller)
{
	char who[64];

	printk(KERN_WARNING "alloc_pages: gfp 0x%x may sleep, called in interrupt context from %s\n",
	       gfp, mm_symbolize(caller, who, sizeof(who)));
}

/* May an allocation of 2^order pages for gfp take them from z (lock held)?
 * User memory (__GFP_HIGHMEM) leaves a low zone's reserve to the kernel, so
 * that a process that fills memory cannot starve the kernel's own allocations
 * (page tables, slabs, kernel stacks, the exit of an OOM victim). */
static bool zone_allows(struct zone *z, gfp_t gfp, unsigned order)
{
	u32 keep = (gfp & __GFP_HIGHMEM) ? z->reserve : 0;

	return z->free_pages >= (1u << order) + keep;
}

struct page *alloc_pages(gfp_t gfp, unsigned order)
{
	struct zone *list[MAX_NR_ZONES];
	struct page *page = NULL;
	int n = gfp_zonelist(gfp, list);

	if (order >= MAX_ORDER)
		return NULL;
	if ((gfp & __GFP_WAIT) && in_interrupt())
		warn_sleeping_alloc(gfp, (u32)__builtin_return_address(0));
	for (int i = 0; i < n && !page; i++) {
		u32 flags;
		spin_lock_irqsave(&list[i]->lock, flags);
		if (zone_allows(list[i], gfp, order))
			page = buddy_alloc(list[i], order);
		spin_unlock_irqrestore(&list[i]->lock, flags);
	}
	if (page)
		prep_new_block(page, order, gfp);
	return page;
}

/* The checks of a free: false (after a report) when the free must not happen. */
static bool free_check(struct page *page, unsigned order, u32 caller)
{
	char who[64];

	if (!pfn_valid(page_to_pfn(page)) || PageReserved(page)) {
		mm_bug("free of reserved page pfn 0x%x from %s", page_to_pfn(page),
		       mm_symbolize(caller, who, sizeof(who)));
		return false;
	}
	if (page_count(page) <= 0 || (page->flags & PG_buddy)) {
		mm_bug("double free of page pfn 0x%x order %u from %s", page_to_pfn(page),
		       order, mm_symbolize(caller, who, sizeof(who)));
		return false;
	}
	if ((page->flags & PG_head) && page->private != order) {
		mm_bug("free of pfn 0x%x with order %u, allocated with order %u, from %s",
		       page_to_pfn(page), order, page->private,
		       mm_symbolize(caller, who, sizeof(who)));
		return false;
	}
	return true;
}

static void free_block(struct page *page, unsigned order)
{
	struct zone *z = page_zone(page);
	u32 flags;

	page->flags &= ~(PG_head | PG_slab);
	spin_lock_irqsave(&z->lock, flags);
	buddy_free(z, page, order);
	spin_unlock_irqrestore(&z->lock, flags);
}

void __free_pages(struct page *page, unsigned order)
{
	if (!free_check(page, order, (u32)__builtin_return_address(0)))
		return;
	if (atomic_dec_and_test(&page->count))
		free_block(page, order);
}

void put_page(struct page *page)
{
	unsigned order = (page->flags & PG_head) ? page->private : 0;

	if (!free_check(page, order, (u32)__builtin_return_address(0)))
		return;
	if (atomic_dec_and_test(&page->count))
		free_block(page, order);
}

void *page_address(const struct page *page)
{
	if (PageHighMem(page))
		return page->virtual;
	return __va(page_to_phys(page));
}

unsigned long __get_free_pages(gfp_t gfp, unsigned order)
{
	struct page *page = alloc_pages(gfp & ~__GFP_HIGHMEM, order);

	return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp)
{
	return __get_free_pages(gfp | __GFP_ZERO, 0);
}

void free_pages(unsigned long addr, unsigned order)
{
	if (!addr)
		return;
	if (addr < KERNEL_BASE || addr >= (unsigned long)__va(lowmem_limit) ||
	    (addr & ~PAGE_MASK)) {
		mm_bug("free_pages: 0x%lx is not a low-memory page address", addr);
		return;
	}
	__free_pages(virt_to_page((void *)addr), order);
}

u32 nr_free_pages_zone(enum zone_type z)
{
	return READ_ONCE(zones[z].free_pages);
}

u32 nr_free_pages(void)
{
	u32 n = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		n += nr_free_pages_zone(z);
	return n;
}

void zone_free_counts(enum zone_type zt, u32 counts[MAX_ORDER])
{
	struct zone *z = &zones[zt];
	u32 flags;

	spin_lock_irqsave(&z->lock, flags);
	for (int o = 0; o < MAX_ORDER; o++)
		counts[o] = z->free_area[o].nr_free;
	spin_unlock_irqrestore(&z->lock, flags);
}

/* ------------------------------------------------------------------- boot */

static void zone_setup(enum zone_type zt, u32 start, u32 end)
{
	struct zone *z = &zones[zt];

	z->name = zone_names[zt];
	z->start_pfn = start;
	z->end_pfn = MAX(start, end);
	spin_lock_init(&z->lock, z->name);
	for (int o = 0; o < MAX_ORDER; o++)
		INIT_LIST_HEAD(&z->free_area[o].free_list);
}

static enum zone_type pfn_zone(u32 pfn)
{
	if (pfn < zones[ZONE_DMA].end_pfn)
		return ZONE_DMA;
	return pfn < max_low_pfn ? ZONE_NORMAL : ZONE_HIGHMEM;
}

/* Mark [start, end) (bytes) reserved; partial pages count as reserved. */
static void reserve_range(u64 start, u64 end)
{
	u64 last = MIN((end + PAGE_SIZE - 1) >> PAGE_SHIFT, (u64)max_pfn);

	for (u64 pfn = start >> PAGE_SHIFT; pfn < last; pfn++)
		mem_map[pfn].flags |= PG_reserved;
}

/* Clear PG_reserved on the whole pages of an available region. */
static void mark_usable(u64 start, u64 end)
{
	u64 last = MIN(end >> PAGE_SHIFT, (u64)max_pfn);

	for (u64 pfn = (start + PAGE_SIZE - 1) >> PAGE_SHIFT; pfn < last; pfn++)
		mem_map[pfn].flags &= ~PG_reserved;
}

static void mem_map_init(void)
{
	struct boot_range boot[2];

	mem_map = boot_alloc(max_pfn * sizeof(struct page));
	for (u32 pfn = 0; pfn < max_pfn; pfn++) {
		struct page *p = &mem_map[pfn];
		p->flags = PG_reserved | (u32)pfn_zone(pfn) << PG_ZONE_SHIFT;
		if (pfn >= max_low_pfn)
			p->flags |= PG_highmem;
		atomic_set(&p->count, 1);
		INIT_LIST_HEAD(&p->lru);
	}
	for (u32 i = 0; i < boot_info.nr_regions; i++)
		if (boot_info.region[i].type == MMAP_AVAILABLE)
			mark_usable(boot_info.region[i].addr,
				    boot_info.region[i].addr + boot_info.region[i].len);
	for (u32 i = 0; i < boot_info.nr_regions; i++)	/* firmware wins overlaps */
		if (boot_info.region[i].type != MMAP_AVAILABLE)
			reserve_range(boot_info.region[i].addr,
				      boot_info.region[i].addr + boot_info.region[i].len);
	for (u32 i = 0; i < boot_info.nr_modules; i++)
		reserve_range(boot_info.module[i].start, boot_info.module[i].end);
	reserve_range(0, PAGE_SIZE);	/* real-mode IVT / BIOS data; keeps pfn 0 out */
	reserve_range(SMP_TRAMPOLINE_PHYS, SMP_TRAMPOLINE_PHYS + PAGE_SIZE);	/* smp.c */
	boot_alloc_done(boot);
	reserve_range(KERNEL_PHYS_START, boot[0].end);	/* image, page tables */
	reserve_range(boot[1].start, boot[1].end);	/* mem_map */
}

/* Hand [start, end) of one zone to the buddy in the largest aligned blocks. */
static void free_range(struct zone *z, u32 start, u32 end)
{
	while (start < end) {
		unsigned order = 0;

		while (order < MAX_ORDER - 1 && !(start & ((2u << order) - 1)) &&
		       start + (2u << order) <= end)
			order++;
		for (u32 i = 0; i < (1u << order); i++)
			atomic_set(&mem_map[start + i].count, 0);
		z->present_pages += 1u << order;
		buddy_free(z, pfn_to_page(start), order);
		start += 1u << order;
	}
}

static void zone_free_usable(struct zone *z)
{
	u32 pfn = z->start_pfn, flags;

	spin_lock_irqsave(&z->lock, flags);
	while (pfn < z->end_pfn) {
		u32 run = pfn;
		while (run < z->end_pfn && !PageReserved(&mem_map[run]))
			run++;
		free_range(z, pfn, run);
		pfn = MAX(run, pfn + 1);
	}
	spin_unlock_irqrestore(&z->lock, flags);
}

void page_alloc_init(void)
{
	u32 dma_end = MIN(DMA_LIMIT_PFN, max_low_pfn);

	zone_setup(ZONE_DMA, 0, dma_end);
	zone_setup(ZONE_NORMAL, dma_end, max_low_pfn);
	zone_setup(ZONE_HIGHMEM, max_low_pfn, max_pfn);
	mem_map_init();
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		zone_free_usable(&zones[z]);
		if (z != ZONE_HIGHMEM)
			zones[z].reserve = zones[z].present_pages / ZONE_RESERVE_RATIO;
		printk("zone %-7s pfn %05x-%05x: %6u pages (%u MiB), %6u free\n",
		       zones[z].name, zones[z].start_pfn, zones[z].end_pfn,
		       zones[z].present_pages, zones[z].present_pages >> (20 - PAGE_SHIFT),
		       zones[z].free_pages);
	}
}

void mm_init(void)
{
	paging_init();
	page_alloc_init();
	printk("mm: low memory %u MiB direct-mapped at %08x, %u MiB highmem, %u pages free\n",
	       lowmem_limit >> 20, KERNEL_BASE,
	       zones[ZONE_HIGHMEM].present_pages >> (20 - PAGE_SHIFT), nr_free_pages());
	highmem_init();
	slab_init();
	paging_fault_init();
}

void mm_bad_pfn(u32 pfn, u32 caller)
{
	char who[64];

	panic("pfn_to_page: pfn 0x%x is past the page array (max_pfn 0x%x), caller %s", pfn,
	      max_pfn, mm_symbolize(caller, who, sizeof(who)));
}
