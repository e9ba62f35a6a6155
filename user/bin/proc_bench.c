/* proc_bench.c: the "proc_bench" suite: median costs of a null system call, of
 * fork + exit + wait, and of a 4 KiB pipe round trip, timed with the TSC. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "utest.h"

#define RUNS	101

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* TSC ticks per microsecond, measured against CLOCK_MONOTONIC over 20 ms. */
static double tsc_per_us(void)
{
	long long t0 = utest_now_ns();
	uint64_t c0 = rdtsc();

	while (utest_now_ns() - t0 < 20000000LL)
		;
	return (double)(rdtsc() - c0) / ((utest_now_ns() - t0) / 1000.0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

static double per_us;

static long long to_ns(uint64_t ticks)
{
	return (long long)(ticks * 1000.0 / per_us);
}

static int null_syscall(void)
{
	uint64_t v[RUNS];

	per_us = tsc_per_us();
	for (int i = 0; i < RUNS; i++) {
		uint64_t t = rdtsc();
		for (int k = 0; k < 100; k++)
			getpid();
		v[i] = (rdtsc() - t) / 100;
	}
	long long ns = to_ns(median(v, RUNS));
	utest_log("null system call (getpid): %lld ns median", ns);
	CHECK(ns > 0 && ns < 20000);
	return 0;
}

static int fork_exit_wait(void)
{
	uint64_t v[RUNS];
	int st;

	for (int i = 0; i < RUNS; i++) {
		uint64_t t = rdtsc();
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		CHECK_EQ(waitpid(pid, &st, 0), pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		v[i] = rdtsc() - t;
	}
	long long ns = to_ns(median(v, RUNS));
	utest_log("fork + exit + wait: %lld ns median", ns);
	CHECK(ns > 0 && ns < 50000000LL);
	return 0;
}

static int pipe_round_trip_4k(void)
{
	static char buf[4096];
	uint64_t v[RUNS];
	int to_child[2], to_parent[2];
	pid_t pid;

	CHECK(pipe(to_child) == 0 && pipe(to_parent) == 0);
	pid = fork();
	if (pid == 0) {			/* echo 4 KiB messages back */
		for (int i = 0; i < RUNS; i++) {
			size_t got = 0;
			while (got < sizeof(buf)) {
				ssize_t n = read(to_child[0], buf + got, sizeof(buf) - got);
				if (n <= 0)
					_exit(1);
				got += n;
			}
			if (write(to_parent[1], buf, sizeof(buf)) != sizeof(buf))
				_exit(1);
		}
		_exit(0);
	}
	memset(buf, 'r', sizeof(buf));
	for (int i = 0; i < RUNS; i++) {
		uint64_t t = rdtsc();
		size_t got = 0;
		CHECK_EQ(write(to_child[1], buf, sizeof(buf)), (int)sizeof(buf));
		while (got < sizeof(buf)) {
			ssize_t n = read(to_parent[0], buf + got, sizeof(buf) - got);
			CHECK(n > 0);
			got += n;
		}
		v[i] = rdtsc() - t;
	}
	CHECK(utest_child_ok(pid));
	long long ns = to_ns(median(v, RUNS));
	utest_log("4 KiB pipe round trip: %lld ns median", ns);
	CHECK(ns > 0 && ns < 50000000LL);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST_INPROC(null_syscall),
	UTEST_INPROC(fork_exit_wait),
	UTEST_INPROC(pipe_round_trip_4k),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "proc_bench", cases, sizeof(cases) / sizeof(cases[0]));
}
