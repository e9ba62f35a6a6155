/* highmem_test.c: the "highmem" suite: kmap and kmap_atomic of highmem pages,
 * the slot-misuse checks (in report mode), and the slots page faults use. */
#include "fixmap.h"
#include "highmem.h"
#include "irq.h"
#include "ktest.h"
#include "mm.h"
#include "mm_test.h"
#include "errno.h"
#include "sched.h"
#include "vm.h"
#include "x86.h"

static struct page *high_page(void)
{
	struct page *p = alloc_page(GFP_HIGHUSER);

	if (p && !PageHighMem(p)) {
		__free_page(p);
		return NULL;
	}
	return p;
}

static void fill(void *addr, u32 seed)
{
	for (u32 i = 0; i < PAGE_SIZE / 4; i++)
		((u32 *)addr)[i] = seed ^ (i * 2654435761u);
}

static bool check(const void *addr, u32 seed)
{
	for (u32 i = 0; i < PAGE_SIZE / 4; i++)
		if (((const u32 *)addr)[i] != (seed ^ (i * 2654435761u)))
			return false;
	return true;
}

static void atomic_write_read_back(struct ktest *t)
{
	struct page *p = high_page();
	void *a, *b;

	ASSERT_NOT_NULL(t, p);
	a = kmap_atomic(p, KM_USER0);
	EXPECT_EQ(t, (u32)a, fix_to_virt(FIX_KMAP_BEGIN + KM_USER0));
	EXPECT_TRUE(t, kmap_atomic_slots[KM_USER0].page == p);
	EXPECT_TRUE(t, kmap_atomic_to_page(a) == p);
	fill(a, 0x1234);
	kunmap_atomic(a, KM_USER0);
	EXPECT_NULL(t, kmap_atomic_slots[KM_USER0].page);
	EXPECT_EQ(t, *kernel_pte((u32)a), 0);	/* a stale user would fault */
	b = kmap_atomic(p, KM_USER1);
	EXPECT_NE(t, (u32)b, (u32)a);
	EXPECT_TRUE(t, check(b, 0x1234));
	kunmap_atomic(b, KM_USER1);
	a = kmap(p);
	ASSERT_NOT_NULL(t, a);
	EXPECT_TRUE(t, page_address(p) == a);
	EXPECT_TRUE(t, check(a, 0x1234));
	kunmap(p);
	EXPECT_NULL(t, page_address(p));
	__free_page(p);
}

static void two_slots_copy(struct ktest *t)
{
	struct page *src = high_page(), *dst = high_page();
	void *s, *d;

	ASSERT_NOT_NULL(t, src);
	ASSERT_NOT_NULL(t, dst);
	s = kmap_atomic(src, KM_USER0);
	fill(s, 0xabcd);
	d = kmap_atomic(dst, KM_USER1);
	memcpy(d, s, PAGE_SIZE);
	kunmap_atomic(d, KM_USER1);
	kunmap_atomic(s, KM_USER0);
	d = kmap(dst);
	EXPECT_TRUE(t, check(d, 0xabcd));
	kunmap(dst);
	__free_page(src);
	__free_page(dst);
}

static void irq_slots_with_interrupts_off(struct ktest *t)
{
	struct page *p = high_page();
	u32 flags;
	void *a;
	int before = mm_report_mode_begin();

	ASSERT_NOT_NULL(t, p);
	flags = local_irq_save();
	a = kmap_atomic(p, KM_IRQ0);
	fill(a, 7);
	kunmap_atomic(a, KM_IRQ0);
	a = kmap_atomic(p, KM_BIO_DST_IRQ);
	EXPECT_TRUE(t, check(a, 7));
	kunmap_atomic(a, KM_BIO_DST_IRQ);
	local_irq_restore(flags);
	EXPECT_EQ(t, mm_report_mode_end(before), 0);
	__free_page(p);
}

static void low_pages_map_direct(struct ktest *t)
{
	struct page *p = alloc_page(GFP_KERNEL);
	u32 in_use = kmap_nr_in_use();

	ASSERT_NOT_NULL(t, p);
	EXPECT_TRUE(t, kmap_atomic(p, KM_USER0) == page_address(p));
	EXPECT_NULL(t, kmap_atomic_slots[KM_USER0].page);
	kunmap_atomic(page_address(p), KM_USER0);
	EXPECT_TRUE(t, kmap(p) == page_address(p));
	EXPECT_EQ(t, kmap_nr_in_use(), in_use);
	kunmap(p);
	__free_page(p);
}

/* The shipped kernel's way: kunmap_atomic leaves the PTE, so a later map of
 * another page into the slot must flush the old translation (else it would
 * write the first page), and a map of the same page may keep it. */
static void lazy_unmap_maps_the_right_page(struct ktest *t)
{
	struct page *p = high_page(), *q = high_page();
	u32 *a, *va = (u32 *)fix_to_virt(FIX_KMAP_BEGIN + KM_USER0);

	ASSERT_NOT_NULL(t, p);
	ASSERT_NOT_NULL(t, q);
	km_clear_on_unmap = false;
	a = kmap_atomic(p, KM_USER0);
	a[0] = 0x1111;
	kunmap_atomic(a, KM_USER0);
	EXPECT_NE(t, *kernel_pte((u32)va), 0);		/* left in place */
	EXPECT_NULL(t, kmap_atomic_slots[KM_USER0].page);	/* yet the slot is free */
	EXPECT_EQ(t, va[0], 0x1111);			/* the TLB holds p now */
	a = kmap_atomic(q, KM_USER0);
	a[0] = 0x2222;					/* must land in q */
	kunmap_atomic(a, KM_USER0);
	a = kmap_atomic(p, KM_USER0);
	EXPECT_EQ(t, a[0], 0x1111);
	kunmap_atomic(a, KM_USER0);
	a = kmap_atomic(p, KM_USER0);			/* the same page again */
	EXPECT_EQ(t, a[0], 0x1111);
	kunmap_atomic(a, KM_USER0);
	km_clear_on_unmap = true;
	a = kmap(q);
	EXPECT_EQ(t, a[0], 0x2222);
	kunmap(q);
	a = kmap_atomic(q, KM_USER0);			/* and back to clearing */
	kunmap_atomic(a, KM_USER0);
	EXPECT_EQ(t, *kernel_pte((u32)va), 0);
	__free_page(p);
	__free_page(q);
}

static void kmap_counts_and_shares(struct ktest *t)
{
	struct page *p = high_page();
	u32 in_use = kmap_nr_in_use();
	void *a, *b;

	ASSERT_NOT_NULL(t, p);
	a = kmap(p);
	b = kmap(p);
	EXPECT_TRUE(t, a && a == b);
	EXPECT_EQ(t, kmap_nr_in_use(), in_use + 1);
	EXPECT_GE(t, (u32)a, PKMAP_BASE);
	kunmap(p);
	EXPECT_TRUE(t, page_address(p) == a);	/* one kmap left */
	kunmap(p);
	EXPECT_NULL(t, page_address(p));
	EXPECT_EQ(t, kmap_nr_in_use(), in_use);
	EXPECT_EQ(t, *kernel_pte((u32)a), 0);
	__free_page(p);
}

static struct page *many[LAST_PKMAP + 1];

static volatile void *waiter_va;

/* Maps the spare page: sleeps until the test frees an entry. */
static int kmap_waiter(void *arg)
{
	waiter_va = kmap(arg);
	return 0;
}

static void kmap_full_sleeps_until_kunmap(struct ktest *t)
{
	u32 failures = kmap_failures, n;
	struct task *waiter;

	for (n = 0; n <= LAST_PKMAP; n++) {
		many[n] = high_page();
		ASSERT_NOT_NULL(t, many[n]);
	}
	for (n = 0; n < LAST_PKMAP; n++)
		if (!kmap(many[n]))
			break;
	EXPECT_EQ(t, n, LAST_PKMAP);
	waiter_va = NULL;
	waiter = kthread_run(kmap_waiter, many[LAST_PKMAP], "kmapwait");
	ASSERT_FALSE(t, IS_ERR(waiter));
	msleep(20);
	EXPECT_NULL(t, (void *)waiter_va);		/* asleep: every entry in use */
	EXPECT_EQ(t, kmap_failures, failures + 1);
	kunmap(many[0]);				/* frees one entry: wakes it */
	kthread_stop(waiter);
	EXPECT_NOT_NULL(t, (void *)waiter_va);
	EXPECT_TRUE(t, page_address(many[LAST_PKMAP]) == (void *)waiter_va);
	for (u32 i = 1; i < n; i++)
		kunmap(many[i]);
	kunmap(many[LAST_PKMAP]);
	EXPECT_EQ(t, kmap_nr_in_use(), 0);
	for (n = 0; n <= LAST_PKMAP; n++)
		__free_page(many[n]);
}

/* Distinct call sites, so the report can name both (noipa: gcc would fold
 * the two identical mappers into one). */
#define __call_site	__attribute__((noipa))
static __call_site void *map_first(struct page *p) { return kmap_atomic(p, KM_USER0); }
static __call_site void *map_second(struct page *p) { return kmap_atomic(p, KM_USER0); }
static __call_site void unmap_wrong(void *a) { kunmap_atomic(a, KM_USER1); }

/* The shipped kernel's lazy kunmap_atomic leaves the PTE, yet the checks
 * follow the slot, not the PTE: a map after an unmap is no "mapped twice", an
 * unmap of a slot no longer mapped is reported, and preemption is balanced. */
static void lazy_unmap_keeps_the_checks(struct ktest *t)
{
	struct page *p = high_page(), *q = high_page();
	int before, depth = preempt_count;
	void *a;

	ASSERT_NOT_NULL(t, p);
	ASSERT_NOT_NULL(t, q);
	km_clear_on_unmap = false;
	before = mm_report_mode_begin();
	a = map_first(p);
	kunmap_atomic(a, KM_USER0);		/* the PTE stays */
	a = map_first(p);			/* same page: no report */
	kunmap_atomic(a, KM_USER0);
	a = map_first(q);			/* another page: no report */
	EXPECT_EQ(t, preempt_count, depth + 1);
	kunmap_atomic(a, KM_USER0);
	EXPECT_EQ(t, mm_report_mode_end(before), 0);
	before = mm_report_mode_begin();
	kunmap_atomic(a, KM_USER0);		/* not mapped any more */
	EXPECT_EQ(t, mm_report_mode_end(before), 1);
	EXPECT_TRUE(t, mm_log_tail_has("KM_USER0", "not mapped"));
	EXPECT_EQ(t, preempt_count, depth);
	km_clear_on_unmap = true;
	a = kmap_atomic(q, KM_USER0);		/* and clear the PTE again */
	kunmap_atomic(a, KM_USER0);
	EXPECT_EQ(t, *kernel_pte((u32)a), 0);
	__free_page(p);
	__free_page(q);
}

/* kmap maps a free entry without a flush, which is right only because kunmap
 * flushed the entry it freed: going round every entry twice with two pages
 * in turn reads each page's own data every time. */
static void kmap_entries_reused_without_stale_data(struct ktest *t)
{
	struct page *pg[2] = { high_page(), high_page() };
	u32 bad = 0;

	ASSERT_NOT_NULL(t, pg[0]);
	ASSERT_NOT_NULL(t, pg[1]);
	for (int k = 0; k < 2; k++) {
		u32 *a = kmap(pg[k]);
		fill(a, 0x5150 + k);
		kunmap(pg[k]);
	}
	for (u32 i = 0; i < 2 * LAST_PKMAP + 1; i++) {
		u32 *a = kmap(pg[i & 1]);
		bad += a[0] != (0x5150 + (i & 1)) || a[PAGE_SIZE / 4 - 1] !=
			((0x5150 + (i & 1)) ^ ((PAGE_SIZE / 4 - 1) * 2654435761u));
		kunmap(pg[i & 1]);
	}
	EXPECT_EQ(t, bad, 0);
	EXPECT_EQ(t, kmap_nr_in_use(), 0);
	__free_page(pg[0]);
	__free_page(pg[1]);
}

static void slot_mapped_twice_reported(struct ktest *t)
{
	struct page *p = high_page(), *q = high_page();
	int before;
	void *a;

	ASSERT_NOT_NULL(t, p);
	ASSERT_NOT_NULL(t, q);
	before = mm_report_mode_begin();
	a = map_first(p);
	map_second(q);
	EXPECT_EQ(t, mm_report_mode_end(before), 1);
	EXPECT_TRUE(t, mm_log_tail_has("map_first", "map_second"));
	EXPECT_TRUE(t, mm_log_tail_has("KM_USER0", "mapped twice"));
	EXPECT_TRUE(t, kmap_atomic_slots[KM_USER0].page == q);	/* second one won */
	kunmap_atomic(a, KM_USER0);
	__free_page(p);
	__free_page(q);
}

static void unmap_with_wrong_address_reported(struct ktest *t)
{
	struct page *p = high_page();
	int before;
	void *a;

	ASSERT_NOT_NULL(t, p);
	before = mm_report_mode_begin();
	a = map_first(p);
	unmap_wrong(a);				/* KM_USER0's address as KM_USER1 */
	EXPECT_EQ(t, mm_report_mode_end(before), 1);
	EXPECT_TRUE(t, mm_log_tail_has("unmap_wrong", "map_first"));
	EXPECT_TRUE(t, mm_log_tail_has("KM_USER1", "KM_USER0"));
	EXPECT_TRUE(t, kmap_atomic_slots[KM_USER0].page == p);	/* left alone */
	kunmap_atomic(a, KM_USER0);
	before = mm_report_mode_begin();
	kunmap_atomic(a, KM_USER0);		/* not mapped any more */
	kunmap((struct page *)p);		/* never kmapped */
	EXPECT_EQ(t, mm_report_mode_end(before), 2);
	__free_page(p);
}

static void slot_context_checked(struct ktest *t)
{
	struct page *p = high_page();
	u32 flags;
	void *a;
	int before;

	ASSERT_NOT_NULL(t, p);
	before = mm_report_mode_begin();
	a = kmap_atomic(p, KM_IRQ1);		/* interrupts are on here */
	kunmap_atomic(a, KM_IRQ1);
	EXPECT_EQ(t, mm_report_mode_end(before), 1);
	EXPECT_TRUE(t, mm_log_tail_has("KM_IRQ1", "interrupts enabled"));
	flags = local_irq_save();
	irq_nesting++;				/* pretend to be an interrupt handler */
	before = mm_report_mode_begin();
	a = kmap_atomic(p, KM_USER1);
	kunmap_atomic(a, KM_USER1);
	kmap(p);
	EXPECT_EQ(t, mm_report_mode_end(before), 2);
	irq_nesting--;
	local_irq_restore(flags);
	kunmap(p);
	__free_page(p);
}

#define FAULT_VA	0x40000000u

/* The page mapped at FAULT_VA in mm (a reference the caller drops). */
static struct page *fault_page(struct mm *mm)
{
	return get_user_page(mm, FAULT_VA, false);
}

/* A demand-zero fault and a copy-on-write fault, while KM_PTE0 and KM_PTE1
 * stay mapped as a page-table walker would hold them: the fault path clears
 * and copies through KM_USER0/1, so neither slot is reported mapped twice. */
static void faults_use_the_user_slots(struct ktest *t)
{
	struct page *pt0 = high_page(), *pt1 = high_page(), *parent_pg, *child_pg;
	struct mm *mm = mm_create(), *child = NULL;
	void *a0, *a1, *va;
	int before;

	ASSERT_TRUE(t, pt0 && pt1 && mm);
	ASSERT_EQ(t, vm_map(mm, FAULT_VA, PAGE_SIZE, VM_READ | VM_WRITE), 0);
	before = mm_report_mode_begin();
	a0 = kmap_atomic(pt0, KM_PTE0);
	a1 = kmap_atomic(pt1, KM_PTE1);
	EXPECT_EQ(t, handle_mm_fault(mm, FAULT_VA, true), 0);	/* demand zero */
	kunmap_atomic(a1, KM_PTE1);
	kunmap_atomic(a0, KM_PTE0);
	parent_pg = fault_page(mm);
	ASSERT_NOT_NULL(t, parent_pg);
	va = kmap(parent_pg);
	EXPECT_EQ(t, ((u32 *)va)[17], 0);
	fill(va, 0xc0ffee);
	kunmap(parent_pg);
	child = mm_dup(mm);			/* the page is now copy-on-write */
	ASSERT_NOT_NULL(t, child);
	a0 = kmap_atomic(pt0, KM_PTE0);
	a1 = kmap_atomic(pt1, KM_PTE1);
	EXPECT_EQ(t, handle_mm_fault(child, FAULT_VA, true), 0);	/* the copy */
	kunmap_atomic(a1, KM_PTE1);
	kunmap_atomic(a0, KM_PTE0);
	EXPECT_EQ(t, mm_report_mode_end(before), 0);
	child_pg = fault_page(child);
	ASSERT_NOT_NULL(t, child_pg);
	EXPECT_TRUE(t, child_pg != parent_pg);
	EXPECT_TRUE(t, check(va = kmap(child_pg), 0xc0ffee));
	kunmap(child_pg);
	EXPECT_EQ(t, page_count(parent_pg), 2);	/* the parent's mapping and ours */
	put_page(parent_pg);
	put_page(child_pg);
	EXPECT_EQ(t, handle_mm_fault(mm, FAULT_VA, true), 0);	/* last user: no copy */
	child_pg = fault_page(mm);
	EXPECT_TRUE(t, child_pg == parent_pg);
	put_page(child_pg);
	mm_put(child);
	mm_put(mm);
	__free_page(pt0);
	__free_page(pt1);
}

static const struct ktest_case highmem_cases[] = {
	KTEST_CASE(atomic_write_read_back),
	KTEST_CASE(two_slots_copy),
	KTEST_CASE(irq_slots_with_interrupts_off),
	KTEST_CASE(low_pages_map_direct),
	KTEST_CASE(lazy_unmap_maps_the_right_page),
	KTEST_CASE(kmap_counts_and_shares),
	KTEST_CASE(kmap_full_sleeps_until_kunmap),
	KTEST_CASE(slot_mapped_twice_reported),
	KTEST_CASE(lazy_unmap_keeps_the_checks),
	KTEST_CASE(kmap_entries_reused_without_stale_data),
	KTEST_CASE(unmap_with_wrong_address_reported),
	KTEST_CASE(slot_context_checked),
	KTEST_CASE(faults_use_the_user_slots),
};
KTEST_SUITE(highmem_suite, "highmem", highmem_cases);
