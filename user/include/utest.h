/* utest.h: user-level test suites as tables of named cases (xv6 usertests style),
 * reporting one KTAP suite nested under init's top-level document.
 *
 * A program defines `static const struct utest_case cases[]` and calls
 * utest_main(argc, argv, "suite", cases, n). Each case runs in a child process
 * (fork), so a crash fails only that case; the case reports failure by
 * returning non-zero or through the CHECK macros. argv[1] may name one case.
 * The suite's index in init's plan comes from the environment (UTEST_INDEX).
 */
#ifndef UTEST_H
#define UTEST_H

#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

struct utest_case {
	const char *name;
	int (*run)(void);
	int in_process;		/* 1: run in the test process itself, not a child */
};

#define UTEST(fn)		{ #fn, fn, 0 }
#define UTEST_INPROC(fn)	{ #fn, fn, 1 }

void utest_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Print a KTAP diagnostic line for the running case. */
void utest_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int utest_main(int argc, char **argv, const char *suite,
	       const struct utest_case *cases, int n);
extern int utest_failed;

/* Helpers (user/lib/utest_helpers.c). */
struct aiok_stat;
/* CLOCK_MONOTONIC in nanoseconds. */
long long utest_now_ns(void);
/* The absolute time ms (may be negative) from now on clock, for the timed waits. */
struct timespec utest_deadline(clockid_t clock, int ms);
/* Wait for child pid: 1 when it exited with status 0, else 0. */
int utest_child_ok(pid_t pid);
/* The number a file such as /proc/sys/fs/aio-nr holds, or -1. */
long utest_read_long(const char *path);
/* In a file such as /proc/interrupts (up to 8 KiB), the nth (from 0) of the
 * numbers that follow the first occurrence of key, or -1. Not thread-safe. */
long utest_read_field(const char *path, const char *key, int nth);
/* Write v and a newline to such a file: 0, or -1. */
int utest_write_long(const char *path, long v);
/* aiok_stat's AIO, open-file and block-I/O counters are back at *before:
 * 0, or 1 after reporting a failure (as a CHECK does). Memory may still differ
 * in a process that lives on. */
int utest_same_io_counters(const struct aiok_stat *before);
/* All that init's leak check watches is back at *before (memory, address
 * spaces and ramfs pages too): for after a child that used them was reaped.
 * *before must come from aiok_snapshot (free pages are compared settled). */
int utest_same_counters(const struct aiok_stat *before);
/* Spin 0..max iterations, a pseudo-random number of them (xorshift, one
 * sequence per process): for races, an event lands before, during or after
 * another. */
void utest_spin_random(unsigned max);

#define CHECK(cond) do { if (!(cond)) { \
	utest_fail(__FILE__, __LINE__, "%s", #cond); return 1; } } while (0)
#define CHECK_EQ(a, b) do { long long __a = (long long)(a), __b = (long long)(b); \
	if (__a != __b) { utest_fail(__FILE__, __LINE__, "%s == %s (%lld vs %lld)", \
				     #a, #b, __a, __b); return 1; } } while (0)
/* A system call result: -1 with errno e. */
#define CHECK_ERR(expr, e) do { errno = 0; long __r = (long)(expr); int __e = errno; \
	if (__r != -1 || __e != (e)) { utest_fail(__FILE__, __LINE__, \
		"%s: got %ld errno %d, want -1 errno %d", #expr, __r, __e, (e)); return 1; } } while (0)

#endif
