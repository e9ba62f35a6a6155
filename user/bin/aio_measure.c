/* aio_measure.c: the "aio_measure" suite: median costs of the AIO calls (TSC, in ns by CLOCK_MONOTONIC), O(1) checks. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#define UAPI_STRUCTS_ONLY
#include "uapi/time.h"
#undef UAPI_STRUCTS_ONLY
#include "libaio.h"
#include "utest.h"

/* The raw calls, on libaio's structs (the kernel's layout): -errno, kernel numbering. */
static inline long sys4(long nr, long a, long b, long c, long d)
{
	long r;

	asm volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d) : "memory");
	return r;
}

#define raw_io_setup(n, ctxp)		sys4(244, (n), (long)(ctxp), 0, 0)
#define raw_io_destroy(ctx)		sys4(245, (long)(ctx), 0, 0, 0)
#define raw_io_getevents_abs(ctx, n, ev, when) sys4(246, (long)(ctx), (n), (long)(ev), (long)(when))
#define raw_io_submit(ctx, n, list)	sys4(247, (long)(ctx), (n), (long)(list), 0)
#define raw_io_cancel(ctx, cb, res)	sys4(248, (long)(ctx), (long)(cb), (long)(res), 0)

#define SAMPLES		401
#define O1_RATIO	3		/* 4,096 requests may cost at most 3x one */
/* An io_cancel costs ~2 us under TCG and a walk of 1,000 contexts adds ~3.5 us
 * (2.7x): a 3x bound would not see an O(n) lookup, so contexts get 2x. */
#define O1_RATIO_CTX	2
#define ATTEMPTS	3		/* re-measure a crowded case the host may have slowed */
#define MANY_REQS	4096
#define MANY_CTXS	1000

static unsigned long long tsc_hz;	/* measured against CLOCK_MONOTONIC */
static unsigned samples[SAMPLES];

static inline unsigned long long rdtsc(void)
{
	unsigned lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}

static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* TSC ticks per second, over 50 ms of CLOCK_MONOTONIC. */
static void calibrate(void)
{
	unsigned long long t0 = mono_ns(), c0 = rdtsc(), t1, c1;

	usleep(50000);
	t1 = mono_ns();
	c1 = rdtsc();
	tsc_hz = (c1 - c0) * 1000000000ULL / (t1 - t0);
}

static unsigned long long cycles_to_ns(unsigned cycles)
{
	return tsc_hz ? cycles * 1000000000ULL / tsc_hz : 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

static unsigned median(void)
{
	qsort(samples, SAMPLES, sizeof(samples[0]), cmp_unsigned);
	return samples[SAMPLES / 2];
}

static void report(const char *what, unsigned cycles)
{
	utest_log("%s: %llu ns (%u cycles, median of %d)", what, cycles_to_ns(cycles), cycles,
		  SAMPLES);
}

/* Median cycles of op(); 0 if op ever failed. */
static unsigned measure(int (*op)(void))
{
	for (int i = 0; i < SAMPLES; i++) {
		unsigned long long t0 = rdtsc();
		int ok = op();
		samples[i] = (unsigned)(rdtsc() - t0);
		if (!ok)
			return 0;
	}
	return median();
}

static unsigned long m_ctx;		/* used through the raw calls */
static io_context_t m_lctx;		/* used through libaio */
static struct iocb m_cb, *m_list[1] = { &m_cb };
static struct io_event m_ev;

static int op_noop_syscall(void)
{
	return raw_io_submit(m_ctx, 1, m_list) == 1 &&
	       raw_io_getevents_abs(m_ctx, 1, &m_ev, NULL) == 1;
}

static int op_noop_ring(void)
{
	struct io_event ev;

	return io_submit(m_lctx, 1, m_list) == 1 && io_getevents(m_lctx, 1, 1, &ev, NULL) == 1;
}

static int op_submit_ebadf(void)
{
	return raw_io_submit(m_ctx, 1, m_list) == -EBADF;
}

static int op_getevents_past(void)
{
	struct kernel_timespec past = { 0, 0 };

	return raw_io_getevents_abs(m_ctx, 1, &m_ev, &past) == 0;
}

static int op_setup_destroy(void)
{
	unsigned long ctx = 0;

	return raw_io_setup(128, &ctx) == 0 && raw_io_destroy(ctx) == 0;
}

static int noop_submit_reap(void)
{
	int null = open("/dev/null", O_RDONLY);
	unsigned long sys0;
	unsigned raw, ring;

	CHECK_EQ(raw_io_setup(16, &m_ctx), 0);
	io_prep_noop(&m_cb, null);
	CHECK(raw = measure(op_noop_syscall));
	report("NOOP io_submit + io_getevents_abs", raw);
	CHECK_EQ(io_setup(16, &m_lctx), 0);
	sys0 = libaio_stats.syscalls;
	CHECK(ring = measure(op_noop_ring));
	CHECK_EQ(libaio_stats.syscalls, sys0);		/* every event came from the ring */
	report("NOOP io_submit + libaio io_getevents (ring)", ring);
	CHECK_EQ(io_destroy(m_lctx), 0);
	CHECK_EQ(raw_io_destroy(m_ctx), 0);
	close(null);
	return 0;
}

static int error_and_idle_paths(void)
{
	unsigned c;

	CHECK_EQ(raw_io_setup(16, &m_ctx), 0);
	io_prep_noop(&m_cb, 999);
	CHECK(c = measure(op_submit_ebadf));
	report("io_submit -> -EBADF", c);
	CHECK(c = measure(op_getevents_past));
	report("io_getevents_abs, idle, past deadline", c);
	CHECK_EQ(raw_io_destroy(m_ctx), 0);
	CHECK(c = measure(op_setup_destroy));
	report("io_setup(128) + io_destroy", c);
	return 0;
}

/* Median cycles of io_cancel on a pending pipe read (resubmitted untimed each time). */
static unsigned time_cancel(unsigned long ctx, int rfd)
{
	static char buf[4];
	struct io_event res;

	io_prep_pread(&m_cb, rfd, buf, sizeof(buf), 0);
	for (int i = 0; i < SAMPLES; i++) {
		unsigned long long t0;
		if (raw_io_submit(ctx, 1, m_list) != 1)
			return 0;
		t0 = rdtsc();
		if (raw_io_cancel(ctx, &m_cb, &res) != 0)
			return 0;
		samples[i] = (unsigned)(rdtsc() - t0);
	}
	return median();
}

/* The crowded case's median, re-measured while above bound (keeping the least). */
static unsigned time_cancel_bounded(unsigned long ctx, int rfd, unsigned bound)
{
	unsigned best = time_cancel(ctx, rfd), c;

	for (int i = 1; i < ATTEMPTS && best > bound; i++)
		if ((c = time_cancel(ctx, rfd)) && c < best)
			best = c;
	return best;
}

static int cancel_with_4096_outstanding(void)
{
	static struct iocb cbs[MANY_REQS], *list[MANY_REQS];
	static char buf[MANY_REQS];
	unsigned long ctx = 0;
	unsigned one, many;
	int fds[2], other[2];

	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(pipe(other), 0);
	CHECK_EQ(raw_io_setup(MANY_REQS + 8, &ctx), 0);
	CHECK(one = time_cancel(ctx, fds[0]));
	for (int i = 0; i < MANY_REQS; i++) {
		io_prep_pread(&cbs[i], other[0], &buf[i], 1, 0);
		list[i] = &cbs[i];
	}
	CHECK_EQ(raw_io_submit(ctx, MANY_REQS, list), MANY_REQS);
	CHECK(many = time_cancel_bounded(ctx, fds[0], O1_RATIO * one));
	report("io_cancel, 1 request outstanding", one);
	report("io_cancel, 4096 more requests outstanding", many);
	CHECK(many <= O1_RATIO * one);
	CHECK_EQ(raw_io_destroy(ctx), 0);		/* cancels the 4096 */
	return 0;
}

static int cancel_with_1000_contexts(void)
{
	static unsigned long ctxs[MANY_CTXS];
	unsigned one, many;
	int fds[2];

	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(raw_io_setup(4, &ctxs[0]), 0);
	CHECK(one = time_cancel(ctxs[0], fds[0]));
	for (int i = 1; i < MANY_CTXS; i++)
		CHECK_EQ(raw_io_setup(1, &ctxs[i]), 0);
	/* the oldest context: the deepest in its hash bucket */
	CHECK(many = time_cancel_bounded(ctxs[0], fds[0], O1_RATIO_CTX * one));
	report("io_cancel, 1 context", one);
	report("io_cancel, 1000 contexts", many);
	CHECK(many <= O1_RATIO_CTX * one);
	for (int i = 0; i < MANY_CTXS; i++)
		CHECK_EQ(raw_io_destroy(ctxs[i]), 0);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(noop_submit_reap),
	UTEST(error_and_idle_paths),
	UTEST(cancel_with_4096_outstanding),
	UTEST(cancel_with_1000_contexts),
};

int main(int argc, char **argv)
{
	calibrate();
	return utest_main(argc, argv, "aio_measure", cases, sizeof(cases) / sizeof(cases[0]));
}
