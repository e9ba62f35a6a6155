/* cmdline_test.c: the "cmdline" suite: parsing the kernel command line. */
#include "cmdline.h"
#include "errno.h"
#include "ktest.h"
#include "printk.h"
#include "string.h"

static struct cmdline cl;

static void parses_keys_and_flags(struct ktest *t)
{
	ASSERT_EQ(t, cmdline_parse(&cl, "ktest=all  quiet lowmem=64M"), 3);
	EXPECT_STREQ(t, cmdline_get(&cl, "ktest"), "all");
	EXPECT_STREQ(t, cmdline_get(&cl, "quiet"), "");
	EXPECT_STREQ(t, cmdline_get(&cl, "lowmem"), "64M");
	EXPECT_NULL(t, cmdline_get(&cl, "missing"));
	EXPECT_NULL(t, cmdline_get(&cl, "ktes"));
}

static void empty_and_spaces(struct ktest *t)
{
	EXPECT_EQ(t, cmdline_parse(&cl, ""), 0);
	EXPECT_EQ(t, cmdline_parse(&cl, "    "), 0);
	EXPECT_NULL(t, cmdline_get(&cl, ""));
}

static void later_word_wins(struct ktest *t)
{
	ASSERT_EQ(t, cmdline_parse(&cl, "a=1 b=2 a=3"), 3);
	EXPECT_STREQ(t, cmdline_get(&cl, "a"), "3");
}

static void quoted_values(struct ktest *t)
{
	ASSERT_EQ(t, cmdline_parse(&cl, "init=\"/bin/sh -c x\" k=v=w"), 2);
	EXPECT_STREQ(t, cmdline_get(&cl, "init"), "/bin/sh -c x");
	EXPECT_STREQ(t, cmdline_get(&cl, "k"), "v=w");
}

static void numbers_and_suffixes(struct ktest *t)
{
	cmdline_parse(&cl, "a=12 b=0x10 c=4K d=64M e=1G f=12x g= h");
	EXPECT_EQ(t, cmdline_get_num(&cl, "a", 0), 12);
	EXPECT_EQ(t, cmdline_get_num(&cl, "b", 0), 16);
	EXPECT_EQ(t, cmdline_get_num(&cl, "c", 0), 4096);
	EXPECT_EQ(t, cmdline_get_num(&cl, "d", 0), 64 << 20);
	EXPECT_EQ(t, cmdline_get_num(&cl, "e", 0), 1ull << 30);
	EXPECT_EQ(t, cmdline_get_num(&cl, "f", 7), 7);
	EXPECT_EQ(t, cmdline_get_num(&cl, "g", 8), 8);
	EXPECT_EQ(t, cmdline_get_num(&cl, "h", 9), 9);
	EXPECT_EQ(t, cmdline_get_num(&cl, "zz", 5), 5);
}

static void too_many_words(struct ktest *t)
{
	char line[CMDLINE_PARAMS * 4 + 8];
	char *p = line;

	for (int i = 0; i < CMDLINE_PARAMS + 2; i++)
		p += snprintf(p, 4, "w%c ", 'a' + i % 26);
	EXPECT_EQ(t, cmdline_parse(&cl, line), -E2BIG);
	EXPECT_EQ(t, cl.count, CMDLINE_PARAMS);
}

static void lists(struct ktest *t)
{
	EXPECT_TRUE(t, cmdline_list_has("printk,cmdline", "cmdline"));
	EXPECT_TRUE(t, cmdline_list_has("all", "traps"));
	EXPECT_FALSE(t, cmdline_list_has("printk,cmdline", "cmd"));
	EXPECT_FALSE(t, cmdline_list_has(NULL, "x"));
	EXPECT_FALSE(t, cmdline_list_has("", "x"));
}

static void boot_line_was_parsed(struct ktest *t)
{
	/* The runner boots us with ktest=... on the command line. */
	EXPECT_NOT_NULL(t, strstr(boot_cmdline_raw, "ktest="));
	EXPECT_NOT_NULL(t, cmdline_get(&boot_cmdline, "ktest"));
}

static const struct ktest_case cmdline_cases[] = {
	KTEST_CASE(parses_keys_and_flags),
	KTEST_CASE(empty_and_spaces),
	KTEST_CASE(later_word_wins),
	KTEST_CASE(quoted_values),
	KTEST_CASE(numbers_and_suffixes),
	KTEST_CASE(too_many_words),
	KTEST_CASE(lists),
	KTEST_CASE(boot_line_was_parsed),
};
KTEST_SUITE(cmdline_suite, "cmdline", cmdline_cases);
