/* utest.c: run a table of test cases, each in its own child, and print KTAP. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "utest.h"

int utest_failed;
static const char *current_case = "";

void utest_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("    # %s: FAILED at %s:%d: ", current_case, file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	utest_failed = 1;
}

void utest_log(const char *fmt, ...)
{
	va_list ap;

	printf("    # %s: ", current_case);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Run one case in a child; passed iff it exits 0. */
static int run_case(const struct utest_case *c)
{
	int status;
	pid_t pid;

	current_case = c->name;
	fflush(stdout);
	if (c->in_process)
		return c->run() == 0 && !utest_failed;
	pid = fork();
	if (pid < 0) {
		printf("    # %s: fork failed: errno %d\n", c->name, errno);
		return 0;
	}
	if (pid == 0) {
		int r = c->run();
		fflush(stdout);
		_exit(r || utest_failed ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) != pid) {
		printf("    # %s: waitpid failed: errno %d\n", c->name, errno);
		return 0;
	}
	if (WIFSIGNALED(status))
		printf("    # %s: killed by signal %d\n", c->name, WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int utest_main(int argc, char **argv, const char *suite,
	       const struct utest_case *cases, int n)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	const char *idx = getenv("UTEST_INDEX");
	int failed = 0, total = 0;

	for (int i = 0; i < n; i++)
		total += !only || !strcmp(only, cases[i].name);
	printf("    KTAP version 1\n    # Subtest: %s\n    1..%d\n", suite, total);
	for (int i = 0, k = 0; i < n; i++) {
		int ok;
		if (only && strcmp(only, cases[i].name))
			continue;
		utest_failed = 0;
		ok = run_case(&cases[i]);
		failed += !ok;
		printf("    %s %d %s\n", ok ? "ok" : "not ok", ++k, cases[i].name);
		fflush(stdout);
	}
	printf("# %s: pass:%d fail:%d skip:0 total:%d\n", suite, total - failed, failed, total);
	printf("%s %s %s\n", failed ? "not ok" : "ok", idx ? idx : "1", suite);
	fflush(stdout);
	return failed ? 1 : 0;
}
