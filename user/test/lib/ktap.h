/* ktap.h: a tiny KTAP reporter for the user test programs (one suite per program). */
#ifndef USER_TEST_KTAP_H
#define USER_TEST_KTAP_H

#include <stdio.h>

struct ktap {
	const char	*suite;
	int		n, failed;
};

static inline void ktap_begin(struct ktap *t, const char *suite, int cases)
{
	t->suite = suite;
	t->n = t->failed = 0;
	printf("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: %s\n    1..%d\n",
	       suite, cases);
}

/* One case; ok is the verdict, why is printed as a diagnostic when it failed. */
static inline void ktap_case(struct ktap *t, const char *name, int ok, const char *why)
{
	t->n++;
	if (!ok) {
		t->failed++;
		printf("    # %s: %s\n", name, why ? why : "failed");
	}
	printf("    %s %d %s\n", ok ? "ok" : "not ok", t->n, name);
}

static inline int ktap_end(struct ktap *t)
{
	printf("%s 1 %s\n", t->failed ? "not ok" : "ok", t->suite);
	fflush(stdout);
	return t->failed ? 1 : 0;
}

#endif
