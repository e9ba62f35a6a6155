/* uaccess_test.c: the "uaccess" suite: user accessors against user pages the
 * suite maps itself in a fresh page directory (no processes yet), and the
 * check that reports an access in atomic context.
 *
 * Layout: one page at UPAGE with nothing after it (a page-boundary hole), and
 * the last user page at UTOP_PAGE, right below the kernel.
 */
#include "errno.h"
#include "ktest.h"
#include "mm.h"
#include "paging.h"
#include "printk.h"
#include "sched.h"
#include "spinlock.h"
#include "string.h"
#include "uaccess.h"

#define UPAGE		0x40000000u	/* mapped; UPAGE + PAGE_SIZE is not */
#define UHOLE		(UPAGE + PAGE_SIZE)
#define UTOP_PAGE	(USER_TOP - PAGE_SIZE)	/* 0xBFFFF000, mapped */
#define KADDR		0xC0010000u	/* a kernel address */
#define UFLAGS		(PTE_PRESENT | PTE_WRITE | PTE_USER)

static u32 *test_pgdir;
static struct page *upage, *toppage;
static char buf[64];
static u32 kernel_word = 0x600dcafe;

static int uaccess_init(void)
{
	test_pgdir = pgdir_create();
	upage = alloc_page(GFP_HIGHUSER);	/* user pages may be highmem */
	toppage = alloc_page(GFP_KERNEL);
	if (!test_pgdir || !upage || !toppage)
		return -ENOMEM;
	if (map_page(test_pgdir, UPAGE, page_to_phys(upage), UFLAGS) ||
	    map_page(test_pgdir, UTOP_PAGE, page_to_phys(toppage), UFLAGS))
		return -ENOMEM;
	switch_pgdir(test_pgdir);
	return 0;
}

static void uaccess_exit(void)
{
	switch_pgdir(kernel_pgdir);
	unmap_page(test_pgdir, UPAGE);
	unmap_page(test_pgdir, UTOP_PAGE);
	pgdir_destroy(test_pgdir);
	__free_page(upage);
	__free_page(toppage);
}

static void round_trip_mapped(struct ktest *t)
{
	u8 b8 = 0;
	u16 b16 = 0;
	u32 b32 = 0, *uptr = (u32 *)UPAGE;
	u64 b64 = 0;
	void *p = NULL;

	EXPECT_TRUE(t, access_ok(UPAGE, PAGE_SIZE));
	EXPECT_EQ(t, copy_to_user((void *)UPAGE, "hello, user", 12), 0);
	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(t, copy_from_user(buf, (void *)UPAGE, 12), 0);
	EXPECT_STREQ(t, buf, "hello, user");
	EXPECT_EQ(t, put_user((u8)0xab, (u8 *)UPAGE), 0);
	EXPECT_EQ(t, put_user((u16)0xbeef, (u16 *)(UPAGE + 2)), 0);
	EXPECT_EQ(t, put_user(0xdeadbeefu, uptr + 1), 0);
	EXPECT_EQ(t, put_user(0x1122334455667788ull, (u64 *)(UPAGE + 8)), 0);
	EXPECT_EQ(t, put_user((void *)0x12345678, (void **)(UPAGE + 16)), 0);
	EXPECT_EQ(t, get_user(b8, (const u8 *)UPAGE), 0);
	EXPECT_EQ(t, get_user(b16, (u16 *)(UPAGE + 2)), 0);
	EXPECT_EQ(t, get_user(b32, uptr + 1), 0);
	EXPECT_EQ(t, get_user(b64, (u64 *)(UPAGE + 8)), 0);
	EXPECT_EQ(t, get_user(p, (void **)(UPAGE + 16)), 0);
	EXPECT_EQ(t, b8, 0xab);
	EXPECT_EQ(t, b16, 0xbeef);
	EXPECT_EQ(t, b32, 0xdeadbeef);
	EXPECT_EQ(t, b64, 0x1122334455667788ull);
	EXPECT_EQ(t, (u32)p, 0x12345678);
	EXPECT_EQ(t, clear_user((void *)UPAGE, PAGE_SIZE), 0);
	EXPECT_EQ(t, get_user(b64, (u64 *)(UPAGE + 8)), 0);
	EXPECT_EQ(t, b64, 0);
}

static void unmapped_address_faults(struct ktest *t)
{
	u32 fixups = page_fault_fixups, x = 1;

	memset(buf, 0x55, sizeof(buf));
	EXPECT_EQ(t, copy_from_user(buf, (void *)UHOLE, 16), 16);
	EXPECT_EQ(t, buf[0], 0);		/* the unfilled part is zeroed */
	EXPECT_EQ(t, buf[15], 0);
	EXPECT_EQ(t, buf[16], 0x55);
	EXPECT_EQ(t, copy_to_user((void *)UHOLE, buf, 16), 16);
	EXPECT_EQ(t, get_user(x, (u32 *)(UHOLE + 64)), -EFAULT);
	EXPECT_EQ(t, x, 0);
	EXPECT_EQ(t, put_user(7u, (u32 *)UHOLE), -EFAULT);
	EXPECT_EQ(t, get_user(x, (u32 *)0), -EFAULT);	/* the null page */
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)UHOLE, 10), -EFAULT);
	EXPECT_EQ(t, clear_user((void *)UHOLE, 100), 100);
	/* each one really faulted; the two copies twice: a word, then its first byte */
	EXPECT_EQ(t, page_fault_fixups, fixups + 9);
}

static void kernel_address_rejected(struct ktest *t)
{
	u32 fixups = page_fault_fixups, x = 1;

	EXPECT_FALSE(t, access_ok(KADDR, 1));
	EXPECT_FALSE(t, access_ok(&kernel_word, 4));
	EXPECT_EQ(t, copy_from_user(buf, (void *)KADDR, 8), 8);
	EXPECT_EQ(t, get_user(x, (u32 *)KADDR), -EFAULT);
	EXPECT_EQ(t, x, 0);
	EXPECT_EQ(t, put_user(1u, &kernel_word), -EFAULT);
	EXPECT_EQ(t, kernel_word, 0x600dcafe);	/* not written */
	EXPECT_EQ(t, copy_to_user(&kernel_word, "xxxx", 4), 4);
	EXPECT_EQ(t, kernel_word, 0x600dcafe);
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)KADDR, 8), -EFAULT);
	EXPECT_EQ(t, clear_user(&kernel_word, 4), 4);
	EXPECT_EQ(t, kernel_word, 0x600dcafe);
	EXPECT_EQ(t, page_fault_fixups, fixups);	/* refused before touching */
}

static void range_crossing_into_kernel(struct ktest *t)
{
	const u32 near_top = USER_TOP - 16;

	EXPECT_TRUE(t, access_ok(near_top, 16));
	EXPECT_FALSE(t, access_ok(near_top, 17));
	EXPECT_FALSE(t, access_ok(UPAGE, 0xFFFFFFFFu));	/* would wrap */
	EXPECT_FALSE(t, access_ok(UPAGE, 1ull << 32));	/* 64-bit sizes too */
	EXPECT_TRUE(t, access_ok(0, 0));
	EXPECT_EQ(t, copy_to_user((void *)near_top, "abc", 4), 0);
	EXPECT_EQ(t, copy_from_user(buf, (void *)near_top, 32), 32);
	EXPECT_EQ(t, copy_to_user((void *)near_top, buf, 17), 17);
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)near_top, 64), 3);
	EXPECT_STREQ(t, buf, "abc");
	EXPECT_EQ(t, clear_user((void *)near_top, 16), 0);
	EXPECT_EQ(t, copy_to_user((void *)near_top, "xxxxxxxxxxxxxxxx", 16), 0);
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)near_top, 64), -EFAULT);
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)near_top, 16), 16);	/* count reached */
	EXPECT_EQ(t, clear_user((void *)near_top, 32), 32);
}

static void page_boundary_crossing(struct ktest *t)
{
	const u32 edge = UHOLE - 8;		/* 8 mapped bytes, then the hole */
	u32 x = 1;

	EXPECT_EQ(t, copy_to_user((void *)edge, "01234567", 8), 0);
	memset(buf, 0x55, sizeof(buf));
	EXPECT_EQ(t, copy_from_user(buf, (void *)edge, 16), 8);
	EXPECT_EQ(t, memcmp(buf, "01234567", 8), 0);	/* the mapped part came */
	EXPECT_EQ(t, buf[8], 0);
	EXPECT_EQ(t, buf[15], 0);
	EXPECT_EQ(t, copy_to_user((void *)edge, "ABCDEFGHIJKLMNOP", 16), 8);
	EXPECT_EQ(t, copy_from_user(buf, (void *)edge, 8), 0);
	EXPECT_EQ(t, memcmp(buf, "ABCDEFGH", 8), 0);
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)edge, 64), -EFAULT);	/* no NUL */
	EXPECT_EQ(t, put_user((char)0, (char *)(UHOLE - 1)), 0);
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)edge, 64), 7);
	EXPECT_STREQ(t, buf, "ABCDEFG");
	EXPECT_EQ(t, get_user(x, (u32 *)(UHOLE - 2)), -EFAULT);	/* straddles */
	EXPECT_EQ(t, x, 0);
	EXPECT_EQ(t, clear_user((void *)edge, 20), 12);	/* 8 cleared, 12 not */
	EXPECT_EQ(t, copy_from_user(buf, (void *)edge, 8), 0);
	EXPECT_EQ(t, memcmp(buf, "\0\0\0\0\0\0\0\0", 8), 0);
}

static u8 big[3 * PAGE_SIZE];	/* the pattern, then room for a page and more */

/* Byte i of the pattern the large copies move (never 0: a zeroed byte shows). */
static u8 big_byte(u32 i)
{
	return (u8)(i * 7 + 1) | 1;
}

/* The unrolled 64-byte block copy (copies of 64 bytes and more): whole and
 * misaligned copies of a page move every byte, and one that runs into the
 * hole stops at its exact byte, wherever in a block the fault falls: the
 * count left and the bytes before the hole are right, and copy_from_user
 * zeroes the rest. */
static void block_copy_stops_at_the_fault(struct ktest *t)
{
	static const u32 before_hole[] = { 1, 3, 63, 64, 100, 200, 255, 4093 };

	for (u32 i = 0; i < PAGE_SIZE; i++)
		big[i] = big_byte(i);
	EXPECT_EQ(t, copy_to_user((void *)UPAGE, big, PAGE_SIZE), 0);
	memset(big + PAGE_SIZE, 0, PAGE_SIZE);
	EXPECT_EQ(t, copy_from_user(big + PAGE_SIZE + 5, (void *)(UPAGE + 3), PAGE_SIZE - 3), 0);
	EXPECT_EQ(t, memcmp(big + PAGE_SIZE + 5, big + 3, PAGE_SIZE - 3), 0);
	for (u32 k = 0; k < ARRAY_SIZE(before_hole); k++) {
		u32 n = before_hole[k], len = n + 300;
		char *edge = (char *)(UHOLE - n);
		EXPECT_EQ(t, clear_user(edge, n), 0);
		EXPECT_EQ(t, copy_to_user(edge, big, len), 300);
		memset(big + PAGE_SIZE, 0x55, len);
		EXPECT_EQ(t, copy_from_user(big + PAGE_SIZE, edge, len), 300);
		EXPECT_EQ(t, memcmp(big + PAGE_SIZE, big, n), 0);	/* what was mapped */
		EXPECT_EQ(t, big[PAGE_SIZE + n], 0);			/* the rest zeroed */
		EXPECT_EQ(t, big[PAGE_SIZE + len - 1], 0);
	}
}

static void strncpy_counts(struct ktest *t)
{
	EXPECT_EQ(t, copy_to_user((void *)UPAGE, "hello", 6), 0);
	memset(buf, 'z', sizeof(buf));
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)UPAGE, sizeof(buf)), 5);
	EXPECT_STREQ(t, buf, "hello");
	memset(buf, 'z', sizeof(buf));
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)UPAGE, 3), 3);
	EXPECT_EQ(t, buf[3], 'z');		/* not terminated, as in Linux */
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)UPAGE, 0), 0);
}

static void kernel_carries_on(struct ktest *t)
{
	volatile u32 canary = 0x5afe5afe;
	u32 fixups = page_fault_fixups, x, bad = 0;

	for (int i = 0; i < 1000; i++)
		bad += get_user(x, (u32 *)(UHOLE + 4 * i)) != -EFAULT || x != 0;
	EXPECT_EQ(t, bad, 0);
	EXPECT_EQ(t, page_fault_fixups, fixups + 1000);
	EXPECT_EQ(t, canary, 0x5afe5afe);
	EXPECT_EQ(t, copy_to_user((void *)UPAGE, "ok", 3), 0);
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)UPAGE, 8), 2);
	EXPECT_TRUE(t, current_pgdir() == test_pgdir);
}

static DEFINE_SPINLOCK(atomic_test_lock);

/* Each way of being atomic is reported once per access, and the access still
 * happens; an access in a sleepable context is not reported. */
static void access_in_atomic_context_is_reported(struct ktest *t)
{
	static char tail[1024];
	u32 before = uaccess_atomic_bugs, flags, x = 0;

	ktest_log("'BUG: user memory access in atomic context' reports follow, on purpose");
	spin_lock(&atomic_test_lock);
	EXPECT_EQ(t, copy_to_user((void *)UPAGE, "locked", 7), 0);
	spin_unlock(&atomic_test_lock);
	EXPECT_EQ(t, uaccess_atomic_bugs, before + 1);
	log_tail(tail, sizeof(tail));
	EXPECT_TRUE(t, strstr(tail, "access_in_atomic_context_is_reported") != NULL);
	flags = local_irq_save();
	EXPECT_EQ(t, get_user(x, (u32 *)UPAGE), 0);	/* the inline 4-byte get_user */
	local_irq_restore(flags);
	EXPECT_EQ(t, x, 0x6b636f6c);		/* "lock" */
	EXPECT_EQ(t, uaccess_atomic_bugs, before + 2);
	preempt_disable();			/* as under kmap_atomic */
	EXPECT_EQ(t, put_user(1u, (u32 *)UPAGE), 0);
	EXPECT_EQ(t, clear_user((void *)UPAGE, 4), 0);
	EXPECT_EQ(t, strncpy_from_user(buf, (char *)UPAGE + 4, 8), 2);	/* "ed" */
	preempt_enable();
	EXPECT_EQ(t, uaccess_atomic_bugs, before + 5);
	EXPECT_EQ(t, copy_from_user(buf, (void *)UPAGE, 8), 0);	/* sleepable: quiet */
	EXPECT_EQ(t, uaccess_atomic_bugs, before + 5);
	uaccess_atomic_bugs = before;
}

static const struct ktest_case uaccess_cases[] = {
	KTEST_CASE(round_trip_mapped),
	KTEST_CASE(unmapped_address_faults),
	KTEST_CASE(kernel_address_rejected),
	KTEST_CASE(range_crossing_into_kernel),
	KTEST_CASE(page_boundary_crossing),
	KTEST_CASE(block_copy_stops_at_the_fault),
	KTEST_CASE(strncpy_counts),
	KTEST_CASE(kernel_carries_on),
	KTEST_CASE(access_in_atomic_context_is_reported),
};
KTEST_SUITE(uaccess_suite, "uaccess", uaccess_cases,
	    .init = uaccess_init, .exit = uaccess_exit);
