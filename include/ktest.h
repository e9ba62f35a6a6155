/* ktest.h: KUnit-shaped in-kernel tests: suites of named cases reporting KTAP.
 *
 * Only the test kernel (build/kernel-test.elf, CONFIG_KTEST) has them: kernel/ktest.c
 * and kernel/tests/ are not linked into the shipped kernel (include/test_hooks.h).
 * A suite is a table of cases registered with KTEST_SUITE(); the kernel command
 * line "ktest=all" or "ktest=name,name" selects suites to run at boot. Each case
 * gets a struct ktest; EXPECT_* records a failure and goes on, ASSERT_* records
 * it and returns from the case function (use ASSERT_* only in the case body).
 */
#ifndef KTEST_H
#define KTEST_H

#include "types.h"

struct ktest {
	const char *name;
	bool failed;
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
};

struct ktest_suite {
	const char *name;
	const struct ktest_case *cases;
	size_t nr_cases;
	int (*init)(void);		/* optional, once before the cases */
	void (*exit)(void);		/* optional, once after them */
	bool explicit_only;		/* not part of "all": needs a special boot */
};

#define KTEST_CASE(fn)	{ #fn, fn }

#define KTEST_SUITE(var, sname, table, ...)					\
	static const struct ktest_suite var = {					\
		.name = sname, .cases = table, .nr_cases = ARRAY_SIZE(table),	\
		__VA_ARGS__ };							\
	static const struct ktest_suite *const var##_ptr			\
		__used __section(".ktest_suites") = &var

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
	__printf(4, 5);
/* Print a KTAP diagnostic line ("# ...") at the current case's indent. */
void ktest_log(const char *fmt, ...) __printf(1, 2);

#define KTEST_CHECK(t, cond, fmt, ...) ({					\
	bool __ok = (cond);							\
	if (!__ok)								\
		ktest_fail(t, __FILE__, __LINE__, fmt, ##__VA_ARGS__);		\
	__ok; })

#define EXPECT_TRUE(t, c)	KTEST_CHECK(t, (c), "expected %s", #c)
#define EXPECT_FALSE(t, c)	KTEST_CHECK(t, !(c), "expected !(%s)", #c)
#define EXPECT_EQ(t, a, b) ({							\
	long long __a = (long long)(a), __b = (long long)(b);			\
	KTEST_CHECK(t, __a == __b, "%s == %s (%lld vs %lld, 0x%llx vs 0x%llx)",	\
		    #a, #b, __a, __b, __a, __b); })
#define EXPECT_NE(t, a, b) ({							\
	long long __a = (long long)(a), __b = (long long)(b);			\
	KTEST_CHECK(t, __a != __b, "%s != %s (both %lld)", #a, #b, __a); })
#define EXPECT_LE(t, a, b) ({							\
	long long __a = (long long)(a), __b = (long long)(b);			\
	KTEST_CHECK(t, __a <= __b, "%s <= %s (%lld vs %lld)", #a, #b, __a, __b); })
#define EXPECT_GE(t, a, b) ({							\
	long long __a = (long long)(a), __b = (long long)(b);			\
	KTEST_CHECK(t, __a >= __b, "%s >= %s (%lld vs %lld)", #a, #b, __a, __b); })
#define EXPECT_STREQ(t, a, b) ({						\
	const char *__a = (a), *__b = (b);					\
	KTEST_CHECK(t, __a && __b && !strcmp(__a, __b),			\
		    "%s == %s (\"%s\" vs \"%s\")", #a, #b, __a, __b); })
#define EXPECT_NULL(t, p)	KTEST_CHECK(t, (p) == NULL, "%s is NULL", #p)
#define EXPECT_NOT_NULL(t, p)	KTEST_CHECK(t, (p) != NULL, "%s is not NULL", #p)

#define ASSERT_TRUE(t, c)	do { if (!EXPECT_TRUE(t, c)) return; } while (0)
#define ASSERT_FALSE(t, c)	do { if (!EXPECT_FALSE(t, c)) return; } while (0)
#define ASSERT_EQ(t, a, b)	do { if (!EXPECT_EQ(t, a, b)) return; } while (0)
#define ASSERT_NE(t, a, b)	do { if (!EXPECT_NE(t, a, b)) return; } while (0)
#define ASSERT_NOT_NULL(t, p)	do { if (!EXPECT_NOT_NULL(t, p)) return; } while (0)

/* Run the suites the command line selects ("ktest=..."); returns the number of
 * failed cases (a requested suite that does not exist counts as one; so do
 * debug-check reports made outside every case), or -1 when no suite was
 * requested. A case during which a mutex or uaccess debug check reported
 * fails, unless it put the counter back (it provoked the report on purpose). */
int ktest_run_selected(const char *selection);

#endif
