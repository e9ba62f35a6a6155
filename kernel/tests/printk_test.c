/* printk_test.c: the "printk" suite: formatting and the in-memory log ring. */
#include "ktest.h"
#include "printk.h"
#include "string.h"

static char buf[128];
static const char *volatile null_string;	/* hidden from the compiler's checks */

#define FMT(...) (snprintf(buf, sizeof(buf), __VA_ARGS__), buf)

static void formats_signed(struct ktest *t)
{
	EXPECT_STREQ(t, FMT("%d", 0), "0");
	EXPECT_STREQ(t, FMT("%d", -42), "-42");
	EXPECT_STREQ(t, FMT("%i", 2147483647), "2147483647");
	EXPECT_STREQ(t, FMT("%d", (int)0x80000000), "-2147483648");
	EXPECT_STREQ(t, FMT("%ld", -7L), "-7");
}

static void formats_unsigned_hex(struct ktest *t)
{
	EXPECT_STREQ(t, FMT("%u", 4294967295u), "4294967295");
	EXPECT_STREQ(t, FMT("%x", 0xdeadbeefu), "deadbeef");
	EXPECT_STREQ(t, FMT("%X", 0xabcu), "ABC");
	EXPECT_STREQ(t, FMT("%o", 8u), "10");
	EXPECT_STREQ(t, FMT("%zu", (size_t)12), "12");
}

static void formats_64bit(struct ktest *t)
{
	EXPECT_STREQ(t, FMT("%llu", 18446744073709551615ull), "18446744073709551615");
	EXPECT_STREQ(t, FMT("%lld", -9223372036854775807ll - 1), "-9223372036854775808");
	EXPECT_STREQ(t, FMT("%lld", 176366841446ll), "176366841446");
	EXPECT_STREQ(t, FMT("%llx", 0x123456789abcdefull), "123456789abcdef");
	EXPECT_STREQ(t, FMT("%d %lld %d", 1, 2ll, 3), "1 2 3");
}

static void formats_widths(struct ktest *t)
{
	EXPECT_STREQ(t, FMT("[%5d]", 42), "[   42]");
	EXPECT_STREQ(t, FMT("[%-5d]", 42), "[42   ]");
	EXPECT_STREQ(t, FMT("[%05d]", -42), "[-0042]");
	EXPECT_STREQ(t, FMT("[%08x]", 0xbeefu), "[0000beef]");
	EXPECT_STREQ(t, FMT("[%-6s|%6s]", "ab", "cd"), "[ab    |    cd]");
	EXPECT_STREQ(t, FMT("[%.3s]", "abcdef"), "[abc]");
	EXPECT_STREQ(t, FMT("[%*d]", 4, 7), "[   7]");
	EXPECT_STREQ(t, FMT("[%.*s]", 2, "xyz"), "[xy]");
}

static void formats_misc(struct ktest *t)
{
	EXPECT_STREQ(t, FMT("%c%c", 'o', 'k'), "ok");
	EXPECT_STREQ(t, FMT("%s", null_string), "(null)");
	EXPECT_STREQ(t, FMT("%p", (void *)0xc0100000), "c0100000");
	EXPECT_STREQ(t, FMT("%p", (void *)0x10), "00000010");
	EXPECT_STREQ(t, FMT("100%%"), "100%");
}

static void truncates_safely(struct ktest *t)
{
	char small[6];
	int n;

	memset(small, 'Z', sizeof(small));
	n = snprintf(small, sizeof(small), "%s", "abcdefghij");
	EXPECT_EQ(t, n, 10);
	EXPECT_STREQ(t, small, "abcde");
	n = snprintf(small, 1, "%d", 12345);
	EXPECT_EQ(t, n, 5);
	EXPECT_EQ(t, small[0], 0);
}

static void log_ring_keeps_messages(struct ktest *t)
{
	char tail[64];
	u32 before = log_end;

	printk(KERN_DEBUG "printk_test: marker %d\n", 4242);
	EXPECT_EQ(t, log_end - before, strlen("printk_test: marker 4242\n"));
	log_tail(tail, sizeof(tail));
	EXPECT_NOT_NULL(t, strstr(tail, "printk_test: marker 4242\n"));
	EXPECT_NULL(t, strstr(tail, "<7>"));	/* level prefix is not stored */
}

static void log_ring_wraps(struct ktest *t)
{
	char tail[32];
	int saved = console_loglevel;
	u32 before = log_end;

	console_loglevel = 0;			/* keep the console quiet */
	for (int i = 0; i < LOG_BUF_LEN / 16 + 8; i++)
		printk("wrap line %05d\n", i);	/* 16 bytes each */
	console_loglevel = saved;
	EXPECT_GE(t, log_end - before, LOG_BUF_LEN);
	log_tail(tail, 17);
	EXPECT_STREQ(t, tail, "wrap line 04103\n");
	EXPECT_EQ(t, log_tail(tail, 1), 0);
}

static const struct ktest_case printk_cases[] = {
	KTEST_CASE(formats_signed),
	KTEST_CASE(formats_unsigned_hex),
	KTEST_CASE(formats_64bit),
	KTEST_CASE(formats_widths),
	KTEST_CASE(formats_misc),
	KTEST_CASE(truncates_safely),
	KTEST_CASE(log_ring_keeps_messages),
	KTEST_CASE(log_ring_wraps),
};
KTEST_SUITE(printk_suite, "printk", printk_cases);
