/* slab_test.c: the "slab" suite: caches under mixed load, constructors,
 * counters back to baseline, kmalloc size classes and the misuse checks. */
#include "errno.h"
#include "ktest.h"
#include "mm.h"
#include "mm_test.h"
#include "slab.h"
#include "x86.h"

#define NR_OBJS		5000

struct thing {
	u32 magic;
	u32 id;
	u8 payload[32];
};
#define THING_MAGIC	0x7415c0de

static void *objs[NR_OBJS];
static u32 ctor_calls;

static void thing_ctor(void *obj)
{
	struct thing *th = obj;

	th->magic = THING_MAGIC;
	th->id = 0;
	ctor_calls++;
}

/* Release every cache's empty slabs, so page counts can be compared. */
static void shrink_all(void)
{
	struct kmem_cache *c;

	list_for_each_entry(c, &kmem_caches, list)
		kmem_cache_shrink(c);
}

static void stamp(void *obj, u32 id, size_t size)
{
	memset(obj, (u8)id, size);
	*(u32 *)obj = id;
}

static bool stamped(const void *obj, u32 id, size_t size)
{
	const u8 *b = obj;

	if (*(const u32 *)obj != id)
		return false;
	for (size_t i = 4; i < size; i++)
		if (b[i] != (u8)id)
			return false;
	return true;
}

static void mixed_alloc_free(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("test-40", 40, 0, NULL);
	u32 free0, bad = 0, i;

	ASSERT_NOT_NULL(t, c);
	shrink_all();
	free0 = nr_free_pages();
	for (i = 0; i < NR_OBJS; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		ASSERT_NOT_NULL(t, objs[i]);
		stamp(objs[i], i, 40);
	}
	EXPECT_EQ(t, c->objs_in_use, NR_OBJS);
	for (i = 0; i < NR_OBJS; i += 3) {	/* holes everywhere */
		kmem_cache_free(c, objs[i]);
		objs[i] = NULL;
	}
	for (i = 0; i < NR_OBJS; i += 3) {	/* refill them */
		objs[i] = kmem_cache_alloc(c, GFP_ATOMIC);
		ASSERT_NOT_NULL(t, objs[i]);
		stamp(objs[i], i, 40);
	}
	for (i = 0; i < NR_OBJS; i++)		/* nothing overlapped */
		bad += !stamped(objs[i], i, 40);
	EXPECT_EQ(t, bad, 0);
	EXPECT_EQ(t, c->pages, c->nr_slabs << c->order);
	for (i = 0; i < NR_OBJS; i += 2)
		kmem_cache_free(c, objs[i]);
	for (i = NR_OBJS - 1; i < NR_OBJS; i -= 2)
		kmem_cache_free(c, objs[i]);
	EXPECT_EQ(t, c->objs_in_use, 0);
	EXPECT_LE(t, c->nr_free_slabs, c->keep_free);
	kmem_cache_shrink(c);
	EXPECT_EQ(t, c->pages, 0);
	EXPECT_EQ(t, c->allocs, c->frees);
	EXPECT_EQ(t, kmem_cache_destroy(c), 0);
	shrink_all();
	EXPECT_EQ(t, nr_free_pages(), free0);
}

static bool alloc_n(struct kmem_cache *c, u32 n)
{
	for (u32 i = 0; i < n; i++)
		if (!(objs[i] = kmem_cache_alloc(c, GFP_KERNEL)))
			return false;
	return true;
}

static void free_n(struct kmem_cache *c, u32 n)
{
	for (u32 i = 0; i < n; i++)
		kmem_cache_free(c, objs[i]);
}

/* A cache keeps the empty slabs of a burst of SLAB_KEEP_FREE_OBJS objects (at
 * least one slab, at most SLAB_KEEP_FREE_PAGES pages), so that the next burst
 * takes only what is missing from the page allocator; kmem_cache_shrink (what
 * aiok_shrink runs before a leak check) gives every kept slab back, and pages
 * and objects balance. */
static void empty_slabs_kept_for_a_burst(struct ktest *t)
{
	static const u32 sizes[] = { 40, 300, 1024, 2048 };
	const u32 n = SLAB_KEEP_FREE_OBJS;

	for (u32 k = 0; k < ARRAY_SIZE(sizes); k++) {
		struct kmem_cache *c = kmem_cache_create("test-keep", sizes[k], 0, NULL);
		u32 free0, free1, slabs, kept;

		ASSERT_NOT_NULL(t, c);
		slabs = DIV_ROUND_UP(n, c->objs_per_slab);
		kept = MAX(1u, MIN(slabs, SLAB_KEEP_FREE_PAGES >> c->order));
		EXPECT_EQ(t, c->keep_free, kept);
		shrink_all();
		free0 = nr_free_pages();
		ASSERT_TRUE(t, alloc_n(c, n));
		EXPECT_EQ(t, free0 - nr_free_pages(), slabs << c->order);
		free_n(c, n);
		EXPECT_EQ(t, c->objs_in_use, 0);
		EXPECT_EQ(t, c->nr_free_slabs, kept);
		EXPECT_EQ(t, c->pages, kept << c->order);
		free1 = nr_free_pages();
		EXPECT_EQ(t, free0 - free1, kept << c->order);
		ASSERT_TRUE(t, alloc_n(c, n));		/* the kept slabs first */
		EXPECT_EQ(t, free1 - nr_free_pages(), (slabs - kept) << c->order);
		free_n(c, n);
		EXPECT_EQ(t, nr_free_pages(), free1);
		EXPECT_EQ(t, kmem_cache_shrink(c), kept << c->order);
		EXPECT_EQ(t, c->pages, 0);
		EXPECT_EQ(t, c->nr_free_slabs, 0);
		EXPECT_EQ(t, c->allocs, 2 * n);
		EXPECT_EQ(t, c->frees, c->allocs);
		EXPECT_EQ(t, nr_free_pages(), free0);
		EXPECT_EQ(t, kmem_cache_destroy(c), 0);
	}
}

/* kmem_cache_free finds an object's start by multiplication (no division):
 * for sizes that do not divide a page, every object is accepted and a
 * pointer one byte in, or at its last byte, is reported. */
static void object_starts_checked_without_division(struct ktest *t)
{
	static const u32 sizes[] = { 12, 300, 1000, 2044, 4100, 30000 };

	for (u32 k = 0; k < ARRAY_SIZE(sizes); k++) {
		struct kmem_cache *c = kmem_cache_create("test-odd", sizes[k], 0, NULL);
		u32 n, size;
		int before;

		ASSERT_NOT_NULL(t, c);
		n = MIN(2 * c->objs_per_slab, 16u);	/* two slabs, or 16 objects */
		size = c->size;
		ASSERT_TRUE(t, alloc_n(c, n));
		before = mm_report_mode_begin();
		for (u32 i = 0; i < n; i++)	/* one byte in, or its last byte */
			kmem_cache_free(c, (char *)objs[i] + (i & 1 ? size - 1 : 1));
		EXPECT_EQ(t, mm_report_mode_end(before), (int)n);
		EXPECT_EQ(t, c->objs_in_use, n);
		before = mm_report_mode_begin();
		free_n(c, n);
		EXPECT_EQ(t, mm_report_mode_end(before), 0);
		EXPECT_EQ(t, c->objs_in_use, 0);
		EXPECT_EQ(t, kmem_cache_destroy(c), 0);
	}
}

static void constructor_once_per_object(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("test-thing", sizeof(struct thing), 0, thing_ctor);
	struct thing *a, *b;
	u32 calls;

	ASSERT_NOT_NULL(t, c);
	ctor_calls = 0;
	a = kmem_cache_alloc(c, GFP_KERNEL);
	ASSERT_NOT_NULL(t, a);
	EXPECT_EQ(t, ctor_calls, c->objs_per_slab);	/* the whole slab */
	EXPECT_EQ(t, a->magic, THING_MAGIC);
	EXPECT_GE(t, c->size, sizeof(struct thing) + sizeof(void *));
	a->id = 42;				/* constructed state the user keeps */
	kmem_cache_free(c, a);
	calls = ctor_calls;
	b = kmem_cache_alloc(c, GFP_KERNEL);
	EXPECT_TRUE(t, b == a);			/* LIFO: the same object back */
	EXPECT_EQ(t, b->magic, THING_MAGIC);	/* the free link did not clobber it */
	EXPECT_EQ(t, b->id, 42);
	EXPECT_EQ(t, ctor_calls, calls);
	for (u32 i = 0; i < 3 * c->objs_per_slab; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		ASSERT_NOT_NULL(t, objs[i]);
		EXPECT_EQ(t, ((struct thing *)objs[i])->magic, THING_MAGIC);
	}
	EXPECT_EQ(t, ctor_calls, c->nr_slabs * c->objs_per_slab);
	for (u32 i = 0; i < 3 * c->objs_per_slab; i++)
		kmem_cache_free(c, objs[i]);
	kmem_cache_free(c, b);
	EXPECT_EQ(t, kmem_cache_destroy(c), 0);
}

static void kmalloc_size_classes(struct ktest *t)
{
	static const u32 sizes[][2] = {	/* request, usable size */
		{ 1, 8 }, { 8, 8 }, { 9, 16 }, { 33, 64 }, { 64, 64 }, { 65, 128 },
		{ 200, 256 }, { 512, 512 }, { 1000, 1024 }, { 2048, 2048 },
		{ 2049, 4096 }, { 5000, 8192 }, { 40000, 65536 },
	};
	u32 free0;

	shrink_all();
	free0 = nr_free_pages();
	for (u32 i = 0; i < ARRAY_SIZE(sizes); i++) {
		u8 *p = kmalloc(sizes[i][0], GFP_KERNEL);
		ASSERT_NOT_NULL(t, p);
		EXPECT_EQ(t, ksize(p), sizes[i][1]);
		EXPECT_EQ(t, (u32)p % MIN(sizes[i][1], PAGE_SIZE), 0);	/* natural alignment */
		memset(p, 0xa5, sizes[i][0]);
		if (sizes[i][0] <= KMALLOC_MAX_CACHE_SIZE)
			EXPECT_TRUE(t, virt_to_page(p)->slab_cache ==
				    kmalloc_cache(sizes[i][0], GFP_KERNEL));
		else
			EXPECT_FALSE(t, PageSlab(virt_to_page(p)));
		kfree(p);
	}
	EXPECT_NULL(t, kmalloc(0, GFP_KERNEL));
	EXPECT_NULL(t, kmalloc(64u << 20, GFP_KERNEL));	/* above the largest block */
	kfree(NULL);
	shrink_all();
	EXPECT_EQ(t, nr_free_pages(), free0);
}

static void kmalloc_dma_and_zero(struct ktest *t)
{
	u8 *d = kmalloc(100, GFP_DMA), *z = kzalloc(3000, GFP_KERNEL);
	bool zero = true;

	ASSERT_NOT_NULL(t, d);
	ASSERT_NOT_NULL(t, z);
	EXPECT_LE(t, __pa(d), (16u << 20) - 1);
	EXPECT_TRUE(t, kmalloc_cache(100, GFP_DMA) != kmalloc_cache(100, GFP_KERNEL));
	for (u32 i = 0; i < 3000; i++)
		zero &= z[i] == 0;
	EXPECT_TRUE(t, zero);
	kfree(d);
	kfree(z);
}

static void counters_back_to_baseline(struct ktest *t)
{
	struct kmem_cache *k64 = kmalloc_cache(64, GFP_KERNEL);
	u32 in_use64 = k64->objs_in_use, free0, seed = 12345;

	shrink_all();
	free0 = nr_free_pages();
	for (u32 i = 0; i < NR_OBJS; i++) {
		seed = seed * 1103515245 + 12345;
		objs[i] = kmalloc(1 + (seed >> 16) % 3000, GFP_KERNEL);
		ASSERT_NOT_NULL(t, objs[i]);
	}
	EXPECT_GE(t, k64->objs_in_use, in_use64 + 1);
	for (u32 i = 0; i < NR_OBJS; i++)	/* free in a scattered order */
		kfree(objs[(i * 7919) % NR_OBJS]);
	EXPECT_EQ(t, k64->objs_in_use, in_use64);
	shrink_all();
	EXPECT_EQ(t, nr_free_pages(), free0);
}

static void alignment_honoured(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("test-align64", 24, 64, NULL);
	u32 misaligned = 0;

	ASSERT_NOT_NULL(t, c);
	for (u32 i = 0; i < 200; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		ASSERT_NOT_NULL(t, objs[i]);
		misaligned += (u32)objs[i] % 64 != 0;
	}
	EXPECT_EQ(t, misaligned, 0);
	for (u32 i = 0; i < 200; i++)
		kmem_cache_free(c, objs[i]);
	EXPECT_EQ(t, kmem_cache_destroy(c), 0);
	EXPECT_NULL(t, kmem_cache_create("test-bad-align", 24, 48, NULL));
	EXPECT_NULL(t, kmem_cache_create("test-zero", 0, 0, NULL));
}

static bool cache_listed(struct kmem_cache *want)
{
	struct kmem_cache *c;

	list_for_each_entry(c, &kmem_caches, list)
		if (c == want)
			return true;
	return false;
}

static void misuse_reported(struct ktest *t)
{
	struct kmem_cache *a = kmem_cache_create("test-a", 32, 0, NULL);
	struct kmem_cache *b = kmem_cache_create("test-b", 32, 0, NULL);
	void *x, *y;
	u32 on_stack;
	int before;

	ASSERT_NOT_NULL(t, a);
	ASSERT_NOT_NULL(t, b);
	EXPECT_TRUE(t, cache_listed(a) && cache_listed(b));
	x = kmem_cache_alloc(a, GFP_KERNEL);
	y = kmem_cache_alloc(a, GFP_KERNEL);
	ASSERT_TRUE(t, x && y);
	before = mm_report_mode_begin();
	kmem_cache_free(b, x);			/* wrong cache */
	EXPECT_TRUE(t, mm_log_tail_has("test-b", "not an object"));
	kmem_cache_free(a, (char *)x + 4);	/* inside an object */
	kmem_cache_free(a, x);
	kmem_cache_free(a, x);			/* double free */
	EXPECT_TRUE(t, mm_log_tail_has("double free", "misuse_reported"));
	kfree(&on_stack);			/* not from kmalloc */
	EXPECT_EQ(t, kmem_cache_destroy(a), -EBUSY);	/* y is still out */
	EXPECT_EQ(t, mm_report_mode_end(before), 5);
	EXPECT_EQ(t, a->objs_in_use, 1);
	kmem_cache_free(a, y);
	EXPECT_EQ(t, kmem_cache_destroy(a), 0);
	EXPECT_EQ(t, kmem_cache_destroy(b), 0);
	EXPECT_FALSE(t, cache_listed(a) || cache_listed(b));
}

static void atomic_with_interrupts_off(struct ktest *t)
{
	u32 flags = local_irq_save();
	void *p = kmalloc(128, GFP_ATOMIC);
	struct page *pg = alloc_pages(GFP_ATOMIC, 1);

	EXPECT_NOT_NULL(t, p);
	EXPECT_NOT_NULL(t, pg);
	kfree(p);
	if (pg)
		__free_pages(pg, 1);
	EXPECT_FALSE(t, read_eflags() & EFLAGS_IF);	/* locks restored, not enabled */
	local_irq_restore(flags);
}

static const struct ktest_case slab_cases[] = {
	KTEST_CASE(mixed_alloc_free),
	KTEST_CASE(empty_slabs_kept_for_a_burst),
	KTEST_CASE(object_starts_checked_without_division),
	KTEST_CASE(constructor_once_per_object),
	KTEST_CASE(kmalloc_size_classes),
	KTEST_CASE(kmalloc_dma_and_zero),
	KTEST_CASE(counters_back_to_baseline),
	KTEST_CASE(alignment_honoured),
	KTEST_CASE(misuse_reported),
	KTEST_CASE(atomic_with_interrupts_off),
};
KTEST_SUITE(slab_suite, "slab", slab_cases);
