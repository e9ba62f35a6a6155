/* page_alloc_test.c: the "page_alloc" suite: buddy split and merge, exhaustion,
 * zone fallback, reference counts and the free checks. */
#include "cmdline.h"
#include "ktest.h"
#include "mm.h"
#include "mm_test.h"
#include "paging.h"

#define NR_SMALL	1024

extern char _text[];
static struct page *small[NR_SMALL];

static bool same_counts(const u32 *a, const u32 *b)
{
	return !memcmp(a, b, MAX_ORDER * sizeof(u32));
}

/* Allocate with gfp until NULL or until stop(page) says so; list them. */
static u32 grab_all(gfp_t gfp, struct list_head *list, bool (*stop)(struct page *))
{
	struct page *p;
	u32 n = 0;

	while ((p = alloc_page(gfp))) {
		list_add(&p->lru, list);
		n++;
		if (stop && stop(p))
			break;
	}
	return n;
}

static void release_all(struct list_head *list)
{
	struct page *p, *next;

	list_for_each_entry_safe(p, next, list, lru) {
		list_del(&p->lru);
		__free_page(p);
	}
}

static void split_and_merge(struct ktest *t)
{
	u32 before[MAX_ORDER], after[MAX_ORDER], free0 = nr_free_pages();
	struct page *big;

	zone_free_counts(ZONE_NORMAL, before);
	ASSERT_TRUE(t, before[MAX_ORDER - 1] > 0);
	big = alloc_pages(GFP_KERNEL, MAX_ORDER - 1);
	ASSERT_NOT_NULL(t, big);
	EXPECT_EQ(t, page_to_pfn(big) % (1u << (MAX_ORDER - 1)), 0);
	zone_free_counts(ZONE_NORMAL, after);
	EXPECT_EQ(t, after[MAX_ORDER - 1] + 1, before[MAX_ORDER - 1]);
	__free_pages(big, MAX_ORDER - 1);
	for (int i = 0; i < NR_SMALL; i++) {	/* splits larger blocks */
		small[i] = alloc_page(GFP_KERNEL);
		ASSERT_NOT_NULL(t, small[i]);
		EXPECT_EQ(t, page_zonenum(small[i]), ZONE_NORMAL);
	}
	EXPECT_EQ(t, nr_free_pages(), free0 - NR_SMALL);
	for (int i = 0; i < NR_SMALL; i += 2)	/* evens first: no merge yet */
		__free_page(small[i]);
	for (int i = NR_SMALL - 1; i > 0; i -= 2)
		__free_page(small[i]);
	zone_free_counts(ZONE_NORMAL, after);
	EXPECT_TRUE(t, same_counts(before, after));	/* largest order whole again */
	EXPECT_EQ(t, after[MAX_ORDER - 1], before[MAX_ORDER - 1]);
	EXPECT_EQ(t, nr_free_pages(), free0);
}

static void blocks_are_aligned(struct ktest *t)
{
	u32 free0 = nr_free_pages();

	for (unsigned order = 0; order < MAX_ORDER; order++) {
		struct page *p = alloc_pages(GFP_KERNEL, order);
		ASSERT_NOT_NULL(t, p);
		EXPECT_EQ(t, page_to_pfn(p) & ((1u << order) - 1), 0);
		EXPECT_EQ(t, page_count(p), 1);
		EXPECT_EQ(t, nr_free_pages(), free0 - (1u << order));
		__free_pages(p, order);
	}
	EXPECT_NULL(t, alloc_pages(GFP_KERNEL, MAX_ORDER));
	EXPECT_EQ(t, nr_free_pages(), free0);
}

static void exhaustion_returns_null(struct ktest *t)
{
	u32 dma_free = nr_free_pages_zone(ZONE_DMA), free0 = nr_free_pages();
	LIST_HEAD(list);
	u32 n = grab_all(GFP_DMA, &list, NULL);

	EXPECT_EQ(t, n, dma_free);
	EXPECT_EQ(t, nr_free_pages_zone(ZONE_DMA), 0);
	EXPECT_NULL(t, alloc_page(GFP_DMA));
	EXPECT_NULL(t, alloc_pages(GFP_DMA, 3));
	EXPECT_EQ(t, nr_free_pages(), free0 - dma_free);	/* no other zone used */
	release_all(&list);
	EXPECT_EQ(t, nr_free_pages(), free0);
}

static bool not_highmem(struct page *p)
{
	return !PageHighMem(p);
}

static void zone_fallback(struct ktest *t)
{
	u32 high_free = nr_free_pages_zone(ZONE_HIGHMEM), free0 = nr_free_pages();
	LIST_HEAD(list);
	struct page *p;
	u32 n;

	ASSERT_TRUE(t, high_free > 0);		/* boot with lowmem= below RAM */
	p = alloc_page(GFP_KERNEL);
	ASSERT_NOT_NULL(t, p);
	EXPECT_EQ(t, page_zonenum(p), ZONE_NORMAL);
	__free_page(p);
	p = alloc_page(GFP_DMA);
	ASSERT_NOT_NULL(t, p);
	EXPECT_LE(t, page_to_pfn(p), DMA_LIMIT_PFN - 1);
	__free_page(p);
	n = grab_all(GFP_HIGHUSER, &list, not_highmem);
	EXPECT_EQ(t, n, high_free + 1);		/* the last one fell back */
	p = list_first_entry(&list, struct page, lru);
	EXPECT_EQ(t, page_zonenum(p), ZONE_NORMAL);
	EXPECT_EQ(t, nr_free_pages_zone(ZONE_HIGHMEM), 0);
	release_all(&list);
	EXPECT_EQ(t, nr_free_pages(), free0);
}

static void refcounts(struct ktest *t)
{
	u32 free0 = nr_free_pages();
	struct page *p = alloc_pages(GFP_KERNEL, 2);

	ASSERT_NOT_NULL(t, p);
	get_page(p);
	EXPECT_EQ(t, page_count(p), 2);
	put_page(p);
	EXPECT_EQ(t, page_count(p), 1);
	EXPECT_EQ(t, nr_free_pages(), free0 - 4);
	put_page(p);				/* last reference frees all 4 */
	EXPECT_EQ(t, nr_free_pages(), free0);
	EXPECT_EQ(t, page_count(p), 0);
}

static void free_checks_report(struct ktest *t)
{
	u32 free0 = nr_free_pages();
	struct page *p = alloc_page(GFP_KERNEL), *q = alloc_pages(GFP_KERNEL, 1);
	int before;

	ASSERT_NOT_NULL(t, p);
	ASSERT_NOT_NULL(t, q);
	__free_page(p);
	before = mm_report_mode_begin();
	__free_page(p);				/* double free */
	EXPECT_TRUE(t, mm_log_tail_has("double free", "free_checks_report"));
	__free_page(virt_to_page(_text));	/* the kernel image is reserved */
	EXPECT_TRUE(t, mm_log_tail_has("reserved", NULL));
	__free_page(pfn_to_page(0));
	__free_pages(q, 0);			/* wrong order */
	EXPECT_TRUE(t, mm_log_tail_has("order", NULL));
	free_page(0x1000);			/* not a kernel address */
	EXPECT_EQ(t, mm_report_mode_end(before), 5);
	__free_pages(q, 1);
	EXPECT_EQ(t, nr_free_pages(), free0);
}

static void address_helpers(struct ktest *t)
{
	struct page *low = alloc_page(GFP_KERNEL), *high = alloc_page(GFP_HIGHUSER);
	unsigned long zp = get_zeroed_page(GFP_KERNEL);
	bool zero = true;

	ASSERT_NOT_NULL(t, low);
	ASSERT_NOT_NULL(t, high);
	ASSERT_NE(t, zp, 0);
	EXPECT_TRUE(t, virt_to_page(page_address(low)) == low);
	EXPECT_EQ(t, (u32)page_address(low), page_to_phys(low) + KERNEL_BASE);
	EXPECT_TRUE(t, phys_to_page(page_to_phys(low)) == low);
	EXPECT_TRUE(t, PageHighMem(high));
	EXPECT_NULL(t, page_address(high));	/* not kmapped */
	EXPECT_GE(t, page_to_phys(high), lowmem_limit);
	for (u32 i = 0; i < PAGE_SIZE; i++)
		zero &= ((u8 *)zp)[i] == 0;
	EXPECT_TRUE(t, zero);
	__free_page(low);
	__free_page(high);
	free_page(zp);
}

static void zones_match_boot_map(struct ktest *t)
{
	EXPECT_EQ(t, zones[ZONE_DMA].end_pfn, DMA_LIMIT_PFN);
	EXPECT_EQ(t, zones[ZONE_NORMAL].end_pfn, max_low_pfn);
	if (zones[ZONE_HIGHMEM].present_pages)	/* RAM above the limit: lowmem= ruled */
		EXPECT_EQ(t, lowmem_limit,
			  MIN(cmdline_get_num(&boot_cmdline, "lowmem", MAX_LOWMEM), MAX_LOWMEM));
	if (lowmem_limit >= (32u << 20))	/* boot allocations spared the DMA zone */
		EXPECT_GE(t, __pa(mem_map), DMA_LIMIT_PFN << PAGE_SHIFT);
	EXPECT_GE(t, zones[ZONE_HIGHMEM].present_pages, 1);
	EXPECT_TRUE(t, PageReserved(pfn_to_page(0)));
	EXPECT_TRUE(t, PageReserved(virt_to_page(_text)));
	EXPECT_TRUE(t, PageReserved(virt_to_page(mem_map)));
	EXPECT_EQ(t, kernel_pgdir[0], 0);		/* the null page stays unmapped */
	EXPECT_TRUE(t, current_pgdir() == kernel_pgdir);
	EXPECT_EQ(t, virt_to_phys_walk(kernel_pgdir, (u32)_text), __pa(_text));
	EXPECT_EQ(t, virt_to_phys_walk(kernel_pgdir, KERNEL_BASE + lowmem_limit), 0);
}

static const struct ktest_case page_alloc_cases[] = {
	KTEST_CASE(split_and_merge),
	KTEST_CASE(blocks_are_aligned),
	KTEST_CASE(exhaustion_returns_null),
	KTEST_CASE(zone_fallback),
	KTEST_CASE(refcounts),
	KTEST_CASE(free_checks_report),
	KTEST_CASE(address_helpers),
	KTEST_CASE(zones_match_boot_map),
};
KTEST_SUITE(page_alloc_suite, "page_alloc", page_alloc_cases);
