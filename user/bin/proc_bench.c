/* proc_bench.c: the "proc_bench" suite: median costs of a null system call, of
 * fork + exit + wait, of a 4 KiB pipe round trip, and of wake-up round trips
 * between two threads on two CPUs (a pipe, a futex), timed with the TSC; a
 * yield storm with rq_lock's contention; a nanosleep storm (a thread per CPU
 * sleeping 100 us at a time: the timers' wake-ups). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/* The kernel's wake-up work so far, summed over the CPUs (/proc/aiok/sched):
 * reschedule IPIs taken, wake-ups of a polling idle CPU without one, halts. */
struct sched_counts {
	long ipis, saved, halts;
};

static void sched_counts(struct sched_counts *sc)
{
	static char buf[2048];
	int fd = open("/proc/aiok/sched", O_RDONLY), len;
	unsigned cpu, sw, ipi, saved, halts;
	char *p = buf;

	memset(sc, 0, sizeof(*sc));
	len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	buf[len > 0 ? len : 0] = 0;
	while ((p = strstr(p, "\ncpu"))) {
		p++;
		if (sscanf(p, "cpu%u switches %u resched_ipis %u ipis_saved %u idle_halts %u", &cpu, &sw,
			   &ipi, &saved, &halts) == 5) {
			sc->ipis += ipi;
			sc->saved += saved;
			sc->halts += halts;
		}
	}
}

/* "x.yy IPIs, ..." per round of the n between a and now, into out. */
static const char *per_round(const struct sched_counts *a, int n)
{
	static char out[128];
	struct sched_counts b;

	sched_counts(&b);
	snprintf(out, sizeof(out), "%ld.%02ld IPIs, %ld.%02ld without (polling), %ld.%02ld halts per round",
		 (b.ipis - a->ipis) / n, (b.ipis - a->ipis) * 100 / n % 100,
		 (b.saved - a->saved) / n, (b.saved - a->saved) * 100 / n % 100,
		 (b.halts - a->halts) / n, (b.halts - a->halts) * 100 / n % 100);
	return out;
}

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
	struct sched_counts sc;
	int st;

	sched_counts(&sc);
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
	utest_log("fork + exit + wait: %lld ns median; %s", ns, per_round(&sc, RUNS));
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

#define NR_FUTEX	240
#define FUTEX_WAIT_PRIVATE	128	/* FUTEX_WAIT | FUTEX_PRIVATE_FLAG */
#define FUTEX_WAKE_PRIVATE	129

static long futex4(volatile int *w, int op, int val)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(NR_FUTEX), "b"(w), "c"(op), "d"(val), "S"(0)
			 : "memory");
	return r;
}

/* Two threads: the caller on CPU 0 and a partner on CPU 1 (CPU 0 too when
 * there is one CPU) pass a token back and forth; each round trip is two
 * cross-CPU wake-ups of a sleeping thread. */
static struct {
	int ab[2], ba[2];
	volatile int word;
	int cpu;
	const char *counts;	/* the last run's wake-up work per round */
} pp;

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static void unpin(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	for (long i = 0; i < sysconf(_SC_NPROCESSORS_ONLN); i++)
		CPU_SET(i, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static void *pipe_partner(void *arg)
{
	char c;

	pin(pp.cpu);
	for (int i = 0; i < RUNS; i++)
		if (read(pp.ab[0], &c, 1) != 1 || write(pp.ba[1], &c, 1) != 1)
			break;
	return arg;
}

static void *futex_partner(void *arg)
{
	pin(pp.cpu);
	for (int i = 0; i < RUNS; i++) {
		while (pp.word == 0)
			futex4(&pp.word, FUTEX_WAIT_PRIVATE, 0);
		pp.word = 0;
		futex4(&pp.word, FUTEX_WAKE_PRIVATE, 1);
	}
	return arg;
}

/* The median of RUNS round trips with partner, over the pipes or the futex word. */
static long long ping_pong(void *(*partner)(void *), int use_pipe)
{
	uint64_t v[RUNS];
	pthread_t t;
	char c = 'p';
	struct sched_counts sc;

	pp.cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
	pp.word = 0;
	pin(0);
	if (pthread_create(&t, 0, partner, 0))
		return -1;
	sched_counts(&sc);
	for (int i = 0; i < RUNS; i++) {
		uint64_t t0 = rdtsc();
		if (use_pipe) {
			if (write(pp.ab[1], &c, 1) != 1 || read(pp.ba[0], &c, 1) != 1)
				break;
		} else {
			pp.word = 1;
			futex4(&pp.word, FUTEX_WAKE_PRIVATE, 1);
			while (pp.word == 1)
				futex4(&pp.word, FUTEX_WAIT_PRIVATE, 1);
		}
		v[i] = rdtsc() - t0;
	}
	pp.counts = per_round(&sc, RUNS);
	pthread_join(t, 0);
	unpin();
	return to_ns(median(v, RUNS));
}

static int pipe_ping_pong_threads(void)
{
	long long ns;

	CHECK(pipe(pp.ab) == 0 && pipe(pp.ba) == 0);
	ns = ping_pong(pipe_partner, 1);
	close(pp.ab[0]), close(pp.ab[1]), close(pp.ba[0]), close(pp.ba[1]);
	utest_log("1-byte pipe ping-pong, threads on CPUs 0 and %d: %lld ns round trip median; %s",
		  pp.cpu, ns, pp.counts);
	CHECK(ns > 0 && ns < 50000000LL);	/* loose: a loaded host's vCPU wake-ups */
	return 0;
}

static int futex_ping_pong_threads(void)
{
	long long ns = ping_pong(futex_partner, 0);

	utest_log("futex wake ping-pong, threads on CPUs 0 and %d: %lld ns round trip median; %s",
		  pp.cpu, ns, pp.counts);
	CHECK(ns > 0 && ns < 50000000LL);
	return 0;
}

/* rq_lock's counters (/proc/aiok/sched's first line). */
static void rq_counts(unsigned long long *acq, unsigned long long *cont, unsigned long long *wait_us)
{
	char buf[256] = { 0 };
	int fd = open("/proc/aiok/sched", O_RDONLY);

	*acq = *cont = *wait_us = 0;
	if (fd < 0)
		return;
	if (read(fd, buf, sizeof(buf) - 1) > 0)
		sscanf(buf, "rq_lock acquired %llu contended %llu wait_us %llu", acq, cont, wait_us);
	close(fd);
}

#define YIELDS	500

static void *yielder(void *arg)
{
	for (int i = 0; i < YIELDS; i++)
		sched_yield();
	return arg;
}

/* The worst case for one run-queue lock: twice as many threads as CPUs do
 * nothing but sched_yield; the yields per second and how often rq_lock was
 * found held meanwhile (its wait time in us), the figures docs/locking.md
 * weighs against per-CPU run queues. */
static int yield_storm(void)
{
	long n = 2 * sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long a0, c0, w0, a1, c1, w1;
	pthread_t t[16];
	long long ns;
	uint64_t t0;

	CHECK(n <= 16);
	rq_counts(&a0, &c0, &w0);
	t0 = rdtsc();
	for (long i = 0; i < n; i++)
		CHECK_EQ(pthread_create(&t[i], 0, yielder, 0), 0);
	for (long i = 0; i < n; i++)
		CHECK_EQ(pthread_join(t[i], 0), 0);
	ns = to_ns(rdtsc() - t0);
	rq_counts(&a1, &c1, &w1);
	utest_log("yield storm, %ld threads x %d yields: %lld yields/s; rq_lock %llu acquired, "
		  "%llu found held (%llu.%llu%%), %llu us waited in %lld us",
		  n, YIELDS, n * YIELDS * 1000000000LL / ns, a1 - a0, c1 - c0,
		  a1 > a0 ? (c1 - c0) * 100 / (a1 - a0) : 0,
		  a1 > a0 ? (c1 - c0) * 1000 / (a1 - a0) % 10 : 0, w1 - w0, ns / 1000);
	CHECK(ns > 0);
	return 0;
}

#define SLEEP_MS	500		/* each sleeper's run */
#define SLEEP_SAMPLES	256

struct sleeper {
	int cpu;
	int n;				/* sleeps done */
	uint64_t took[SLEEP_SAMPLES];	/* the first ones' lengths, TSC */
};

static void *sleeper(void *arg)
{
	const struct timespec d = { 0, 100000 };	/* 100 us: one tick at HZ 250 */
	struct sleeper *s = arg;
	uint64_t end, t;

	pin(s->cpu);
	end = rdtsc() + (uint64_t)(SLEEP_MS * 1000 * per_us);
	while ((t = rdtsc()) < end) {
		if (nanosleep(&d, NULL))
			break;
		if (s->n < SLEEP_SAMPLES)
			s->took[s->n] = rdtsc() - t;
		s->n++;
	}
	return arg;
}

/* A thread pinned per CPU sleeps 100 us at a time: wake-ups per second, how
 * long a sleep took (p50, p90) and the reschedule IPIs per wake-up (timer
 * wheels per CPU: the sleeper's timer fires on its own CPU). */
static int nanosleep_storm(void)
{
	static struct sleeper s[16];
	static uint64_t all[16 * SLEEP_SAMPLES];
	long n = sysconf(_SC_NPROCESSORS_ONLN), wakes = 0, k = 0;
	struct sched_counts sc;
	pthread_t t[16];

	CHECK(n <= 16);
	if (!per_us)
		per_us = tsc_per_us();
	memset(s, 0, sizeof(s));
	sched_counts(&sc);
	for (long i = 0; i < n; i++) {
		s[i].cpu = i;
		CHECK_EQ(pthread_create(&t[i], 0, sleeper, &s[i]), 0);
	}
	for (long i = 0; i < n; i++) {
		CHECK_EQ(pthread_join(t[i], 0), 0);
		wakes += s[i].n;
		for (int j = 0; j < s[i].n && j < SLEEP_SAMPLES; j++)
			all[k++] = s[i].took[j];
	}
	CHECK(wakes > 0);
	qsort(all, k, sizeof(all[0]), cmp_u64);
	utest_log("nanosleep storm, %ld threads x 100 us sleeps: %ld wake-ups/s, a sleep took "
		  "p50 %lld us p90 %lld us; %s", n, wakes * 1000 / SLEEP_MS,
		  to_ns(all[k / 2]) / 1000, to_ns(all[k * 9 / 10]) / 1000, per_round(&sc, wakes));
	return 0;
}

static const struct utest_case cases[] = {
	UTEST_INPROC(null_syscall),
	UTEST_INPROC(fork_exit_wait),
	UTEST_INPROC(pipe_round_trip_4k),
	UTEST_INPROC(pipe_ping_pong_threads),
	UTEST_INPROC(futex_ping_pong_threads),
	UTEST_INPROC(yield_storm),
	UTEST_INPROC(nanosleep_storm),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "proc_bench", cases, sizeof(cases) / sizeof(cases[0]));
}
