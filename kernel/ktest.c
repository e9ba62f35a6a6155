/* ktest.c: the test kernel's boot-time tests: run the selected suites and report them as nested KTAP. */
#include "cmdline.h"
#include "crash.h"
#include "ktest.h"
#include "lockdep.h"
#include "mutex.h"
#include "printk.h"
#include "string.h"
#include "test_hooks.h"
#include "uaccess.h"

extern const struct ktest_suite *const __ktest_suites_start[];
extern const struct ktest_suite *const __ktest_suites_end[];

static struct ktest *current_test;
static int boot_failures;		/* failed cases of the boot-time run */

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->failed = true;
	printk("    # %s: FAILED at %s:%d: %s\n", t->name, file, line, msg);
}

void ktest_log(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk("    # %s%s%s\n", current_test ? current_test->name : "",
	       current_test ? ": " : "", msg);
}

/* A case during which a debug check reported fails, as KUnit fails a test on
 * a KASAN report; a case that provokes one on purpose puts the counter back.
 * The counters are put back after a failure too, so that each report is
 * charged once. */
static void run_case(const struct ktest_case *c, struct ktest *t)
{
	u32 mutex_before = mutex_bugs, uaccess_before = uaccess_atomic_bugs;
	u32 lockdep_before = lockdep_bugs;

	c->run(t);
	if (mutex_bugs == mutex_before && uaccess_atomic_bugs == uaccess_before &&
	    lockdep_bugs == lockdep_before)
		return;
	ktest_fail(t, __FILE__, __LINE__, "debug checks reported during the case: "
		   "mutex_bugs %u -> %u, uaccess_atomic_bugs %u -> %u, lockdep_bugs %u -> %u",
		   mutex_before, mutex_bugs, uaccess_before, uaccess_atomic_bugs,
		   lockdep_before, lockdep_bugs);
	mutex_bugs = mutex_before;
	uaccess_atomic_bugs = uaccess_before;
	lockdep_bugs = lockdep_before;
}

/* Reports made outside every case (boot, a suite's init or exit): one failure. */
static int lock_bugs_outside_cases(void)
{
	if (!mutex_bugs && !uaccess_atomic_bugs && !lockdep_bugs)
		return 0;
	printk("# ktest: debug checks reported outside the cases: mutex_bugs %u, "
	       "uaccess_atomic_bugs %u, lockdep_bugs %u\n", mutex_bugs, uaccess_atomic_bugs,
	       lockdep_bugs);
	return 1;
}

static int run_suite(const struct ktest_suite *s, int index)
{
	int failed = 0;

	printk("    KTAP version 1\n    # Subtest: %s\n    1..%u\n", s->name,
	       (unsigned)s->nr_cases);
	if (s->init && s->init()) {
		for (size_t i = 0; i < s->nr_cases; i++)
			printk("    not ok %u %s # suite init failed\n",
			       (unsigned)i + 1, s->cases[i].name);
		failed = s->nr_cases;
		goto out;
	}
	for (size_t i = 0; i < s->nr_cases; i++) {
		struct ktest t = { s->cases[i].name, false };
		current_test = &t;
		run_case(&s->cases[i], &t);
		current_test = NULL;
		printk("    %s %u %s\n", t.failed ? "not ok" : "ok", (unsigned)i + 1, t.name);
		failed += t.failed;
	}
	if (s->exit)
		s->exit();
out:
	printk("# %s: pass:%u fail:%u skip:0 total:%u\n", s->name,
	       (unsigned)(s->nr_cases - failed), (unsigned)failed, (unsigned)s->nr_cases);
	printk("%s %d %s\n", failed ? "not ok" : "ok", index, s->name);
	return failed;
}

static const struct ktest_suite *find_suite(const char *name, size_t len)
{
	for (const struct ktest_suite *const *s = __ktest_suites_start;
	     s < __ktest_suites_end; s++)
		if (strlen((*s)->name) == len && !strncmp((*s)->name, name, len))
			return *s;
	return NULL;
}

/* How many suites the selection names ("all": every suite not explicit_only). */
static int count_selected(const char *selection)
{
	int n = 0;

	if (!strcmp(selection, "all")) {
		for (const struct ktest_suite *const *s = __ktest_suites_start;
		     s < __ktest_suites_end; s++)
			n += !(*s)->explicit_only;
		return n;
	}
	for (const char *p = selection; *p; n++) {
		const char *c = strchr(p, ',');
		p = c ? c + 1 : p + strlen(p);
	}
	return n;
}

static int run_named(const char *selection)
{
	int failed = 0, index = 1;

	for (const char *p = selection; *p; index++) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		const struct ktest_suite *s = find_suite(p, len);
		if (s) {
			failed += run_suite(s, index);
		} else {
			printk("not ok %d %.*s # no such suite\n", index, (int)len, p);
			failed++;
		}
		p += len + (c ? 1 : 0);
	}
	return failed;
}

int ktest_run_selected(const char *selection)
{
	int failed = 0, index = 1;

	if (!selection || !*selection)
		return -1;
	printk("KTAP version 1\n1..%d\n", count_selected(selection));
	if (strcmp(selection, "all"))
		return run_named(selection) + lock_bugs_outside_cases();
	for (const struct ktest_suite *const *s = __ktest_suites_start;
	     s < __ktest_suites_end; s++)
		if (!(*s)->explicit_only)
			failed += run_suite(*s, index++);
	return failed + lock_bugs_outside_cases();
}

void ktest_boot(void)
{
	crash_if_asked(cmdline_get(&boot_cmdline, "crash"));
	boot_failures = ktest_run_selected(cmdline_get(&boot_cmdline, "ktest"));
	if (boot_failures < 0)
		boot_failures = 0;		/* no suite was asked for */
}

int ktest_boot_failures(void)
{
	return boot_failures;
}
