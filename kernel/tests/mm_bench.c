/* mm_bench.c: the "mm_bench" suite: cycles per memory-layer operation (median
 * of many rdtsc samples), each at two very different fill levels; the cases
 * assert the figures stay within MAX_RATIO of each other (O(1) behaviour).
 *
 * Fill levels: pages: nothing allocated vs. all of HighMem and Normal except
 * FILL_KEEP pages each; objects: no object live vs. LIVE_OBJECTS live in the
 * cache being measured.
 */
#include "highmem.h"
#include "ktest.h"
#include "mm.h"
#include "printk.h"
#include "slab.h"
#include "x86.h"

#define SAMPLES		301		/* per figure; the median is kept */
#define WARMUP		32
#define FILL_KEEP	512		/* pages left free in each filled zone */
#define LIVE_OBJECTS	100000
#define MAX_RATIO	5	/* a full zone may split a block through all MAX_ORDER levels: bounded, not O(n) */

enum bench_figure { B_PAGE0, B_PAGE3, B_CACHE, B_KMALLOC64, B_KMAP_ATOMIC, NR_FIGURES };

struct bench_result {
	const char *what;
	u32 empty, full;		/* median cycles at each fill level */
};

static struct bench_result results[NR_FIGURES] = {
	[B_PAGE0] = { "alloc_page+__free_page (order 0)" },
	[B_PAGE3] = { "alloc_pages+__free_pages (order 3)" },
	[B_CACHE] = { "kmem_cache_alloc+kmem_cache_free (32 B)" },
	[B_KMALLOC64] = { "kmalloc(64)+kfree" },
	[B_KMAP_ATOMIC] = { "kmap_atomic+kunmap_atomic (highmem)" },
};
static u32 samples[SAMPLES];
static u32 filled_pct;
static struct kmem_cache *bench_cache;
static struct page *bench_high;

static u32 median(u32 *v, int n)
{
	for (int i = 1; i < n; i++) {		/* insertion sort: n is small */
		u32 x = v[i];
		int j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return v[n / 2];
}

static void op_page0(void) { __free_page(alloc_page(GFP_KERNEL)); }
static void op_page3(void) { __free_pages(alloc_pages(GFP_KERNEL, 3), 3); }
static void op_cache(void) { kmem_cache_free(bench_cache, kmem_cache_alloc(bench_cache, GFP_KERNEL)); }
static void op_kmalloc64(void) { kfree(kmalloc(64, GFP_KERNEL)); }

static void op_kmap_atomic(void)
{
	volatile u32 *p = kmap_atomic(bench_high, KM_USER0);

	p[0]++;				/* touch it: the TLB fill is part of the cost */
	kunmap_atomic((void *)p, KM_USER0);
}

static u32 measure(void (*op)(void))
{
	for (int i = 0; i < WARMUP; i++)
		op();
	for (int i = 0; i < SAMPLES; i++) {
		u64 t0 = rdtsc();
		op();
		samples[i] = (u32)(rdtsc() - t0);
	}
	return median(samples, SAMPLES);
}

/* The figures whose fill level is "memory allocated". */
static void measure_pages(bool full)
{
	static const struct { enum bench_figure f; void (*op)(void); } ops[] = {
		{ B_PAGE0, op_page0 }, { B_PAGE3, op_page3 }, { B_KMAP_ATOMIC, op_kmap_atomic },
	};

	for (u32 i = 0; i < ARRAY_SIZE(ops); i++) {
		u32 cycles = measure(ops[i].op);
		if (full)
			results[ops[i].f].full = cycles;
		else
			results[ops[i].f].empty = cycles;
	}
}

/* Allocate everything but FILL_KEEP pages of HighMem and Normal. */
static void fill_pages(struct list_head *held)
{
	static const struct { enum zone_type z; gfp_t gfp; } fill[] = {
		{ ZONE_HIGHMEM, GFP_HIGHUSER }, { ZONE_NORMAL, GFP_KERNEL },
	};

	for (u32 i = 0; i < ARRAY_SIZE(fill); i++)
		while (nr_free_pages_zone(fill[i].z) > FILL_KEEP) {
			struct page *p = alloc_page(fill[i].gfp);
			if (!p)
				break;
			list_add(&p->lru, held);
		}
}

static void release_pages(struct list_head *held)
{
	struct page *p, *next;

	list_for_each_entry_safe(p, next, held, lru) {
		list_del(&p->lru);
		__free_page(p);
	}
}

/* Chain n live objects through their first word; returns the chain. */
static void **fill_objects(void *(*get)(void), u32 n)
{
	void **head = NULL;

	for (u32 i = 0; i < n; i++) {
		void **obj = get();
		if (!obj)
			break;
		*obj = head;
		head = obj;
	}
	return head;
}

static void release_objects(void **head, void (*put)(void *))
{
	while (head) {
		void **next = *head;
		put(head);
		head = next;
	}
}

static void *get_cached(void) { return kmem_cache_alloc(bench_cache, GFP_KERNEL); }
static void put_cached(void *p) { kmem_cache_free(bench_cache, p); }
static void *get_kmalloc64(void) { return kmalloc(64, GFP_KERNEL); }
static void put_kmalloc64(void *p) { kfree(p); }

static void measure_objects(void)
{
	void **live;

	results[B_CACHE].empty = measure(op_cache);
	results[B_KMALLOC64].empty = measure(op_kmalloc64);
	live = fill_objects(get_cached, LIVE_OBJECTS);
	results[B_CACHE].full = measure(op_cache);
	release_objects(live, put_cached);
	live = fill_objects(get_kmalloc64, LIVE_OBJECTS);
	results[B_KMALLOC64].full = measure(op_kmalloc64);
	release_objects(live, put_kmalloc64);
}

static int mm_bench_init(void)
{
	LIST_HEAD(held);
	u32 total = nr_free_pages();

	bench_cache = kmem_cache_create("bench-32", 32, 0, NULL);
	bench_high = alloc_page(GFP_HIGHUSER);
	if (!bench_cache || !bench_high || !PageHighMem(bench_high))
		return -1;
	measure_pages(false);
	fill_pages(&held);
	filled_pct = 100 - nr_free_pages() * 100 / total;
	measure_pages(true);
	release_pages(&held);
	measure_objects();
	return 0;
}

static void mm_bench_exit(void)
{
	__free_page(bench_high);
	kmem_cache_destroy(bench_cache);
}

static void check_figure(struct ktest *t, enum bench_figure f, const char *full_level)
{
	const struct bench_result *r = &results[f];
	u32 lo = MIN(r->empty, r->full), hi = MAX(r->empty, r->full);

	ktest_log("%s: %u cycles empty, %u cycles %s (ratio %u.%02u)", r->what,
		  r->empty, r->full, full_level, hi / MAX(lo, 1), hi * 100 / MAX(lo, 1) % 100);
	EXPECT_GE(t, lo, 1);
	EXPECT_LE(t, hi, MAX_RATIO * lo);
}

static void page_order0_o1(struct ktest *t)
{
	char level[40];

	snprintf(level, sizeof(level), "with %u%% of memory allocated", filled_pct);
	check_figure(t, B_PAGE0, level);
}

static void page_order3_o1(struct ktest *t)
{
	char level[40];

	snprintf(level, sizeof(level), "with %u%% of memory allocated", filled_pct);
	check_figure(t, B_PAGE3, level);
}

static void kmem_cache_o1(struct ktest *t)
{
	check_figure(t, B_CACHE, "with 100000 objects live");
}

static void kmalloc64_o1(struct ktest *t)
{
	check_figure(t, B_KMALLOC64, "with 100000 objects live");
}

static void kmap_atomic_o1(struct ktest *t)
{
	char level[40];

	snprintf(level, sizeof(level), "with %u%% of memory allocated", filled_pct);
	check_figure(t, B_KMAP_ATOMIC, level);
}

static const struct ktest_case mm_bench_cases[] = {
	KTEST_CASE(page_order0_o1),
	KTEST_CASE(page_order3_o1),
	KTEST_CASE(kmem_cache_o1),
	KTEST_CASE(kmalloc64_o1),
	KTEST_CASE(kmap_atomic_o1),
};
KTEST_SUITE(mm_bench_suite, "mm_bench", mm_bench_cases,
	    .init = mm_bench_init, .exit = mm_bench_exit);
