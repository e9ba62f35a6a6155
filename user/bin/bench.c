/* bench.c: the AIO benchmark (QD1 latency and its histogram, QD32 IOPS, IOPS against queue depth, sequential MB/s, call costs), the thread and signal costs, and file AIO on ext2 (--ext2), one source for aiokern and Linux i386. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lx_syscall.h"	/* mount, umount2: Linux i386's numbers, aiokern's too */
#include "outf.h"
#include "libaio.h"	/* struct iocb / io_event (the kernel's layout, also Linux's), io_prep_* */

/*
 * Usage: bench [--quick] [--verify-all] [--no-verify] [--second=DEVICE2] [--ext2]
 *              [--warm-only] [--qd32-only] DEVICE LABEL
 *        e.g.  bench /dev/vda virtio
 * Prints "RESULT LABEL METRIC VALUE" lines, "COUNT LABEL qd32 FILE.ROW CPU N" lines (what
 * the kernel counted per CPU during one thread's QD32, per 1,000 requests: /proc/interrupts,
 * aiokern's /proc/aiok/cpustat and /proc/aiok/sched), and "HIST LABEL METRIC LO:COUNT ..." lines
 * (the QD1 latency histogram, tools/benchplot.py); exit status 0 when every read
 * completed and matched the image's pattern (tools/mkbenchimg.py).  --quick: few
 * operations (a smoke test), every word of every read checked; --verify-all: that
 * check on a full run; --no-verify: only the reads' lengths are checked (QEMU's
 * null-co disk, which holds no data).
 *
 * --ext2: DEVICE holds an ext2 image made by tools/mkbenchimg.py --ext2 (the files
 * "rand" and "warm" hold the pattern by file offset).  bench mounts it on /mnt/bench
 * and measures file AIO (see run_ext2): O_DIRECT QD1/QD32 on "rand" ("direct_*",
 * next to the raw device's "raw_*": QD1 reads of both in turn, lengths checked only
 * on the raw device),
 * buffered random reads with a warm cache on "warm" ("warm_*", with the share of
 * reads complete when io_submit returned), buffered QD32 with a cold cache on
 * "rand" ("cold_*": io_submit's time per call), and a sequential O_DIRECT write of
 * a new file, then its O_DIRECT and buffered reads ("seq_*").  --warm-only (implies
 * --ext2): the warm-cache phase alone (for measuring the cache-hit path quickly).
 *
 * The AIO calls go through the b_* layer below, the only part that differs between
 * the targets: aiokern's calls 244-248 (io_getevents_abs takes an absolute
 * CLOCK_REALTIME deadline) or, built with -DTARGET_LINUX, Linux i386's 245-249
 * (io_getevents takes min_nr and a relative timeout).  Everything else (open,
 * lseek, getpid, clock_gettime, write) goes through the same newlib glue, whose
 * numbers are Linux i386's on both kernels.
 */

#define SEC_NS		1000000000LL
#define TIME_CAP_NS	(2 * SEC_NS)	/* each metric stops after 2 s ... */
#define WAIT_NS		(30 * SEC_NS)	/* ... a completion not seen in 30 s is an error */
#define SECTOR		512
#define BLOCK		4096
#define SEQ_SIZE	65536
#define QD32_DEPTH	32
#define MAX_DEPTH	128		/* the deepest qd_sweep point */
#define SWEEP_CAP_NS	SEC_NS		/* each qd_sweep point stops after 1 s */
#define HIST_SUB	16		/* latency histogram: buckets per power of two */
#define HIST_BUCKETS	(HIST_SUB * 28)	/* up to 2^31 ns */
#define HIST_PER_LINE	8
#define SEQ_DEPTH	8
#define CTX_EVENTS	128
#define RING_BATCH	512		/* NOOPs queued in the ring per ring_reap round */
#define PAT_MAGIC	0x41494F21u
#define PAT_MUL_S	0x9E3779B1u
#define PAT_MUL_K	0x85EBCA77u
#define RNG_SEED	0x5EED0A10C0DEULL
#define KERR_EBADF	9		/* the same on aiokern and Linux */
#define NR_MOUNT	21		/* the same on aiokern and Linux i386 */
#define VERIFY_SAMPLE	64		/* QD loops check every word of one read in 64 */

/* ---------------- the target layer ---------------- */

/* A wait limit as the target's getevents takes it (32-bit seconds on both). */
struct b_timeout {
	long	tv_sec;
	long	tv_nsec;
};

#ifdef TARGET_LINUX
#define TARGET_NAME	"linux"
typedef unsigned long aio_context_t;	/* 32 bits: the compat calls take a u32 context */
#define NR_IO_SETUP	245
#define NR_IO_DESTROY	246
#define NR_IO_GETEVENTS	247
#define NR_IO_SUBMIT	248

static long b_setup(unsigned nr, aio_context_t *ctx)
{
	return lx_syscall(NR_IO_SETUP, nr, (long)ctx, 0, 0, 0);
}

static long b_destroy(aio_context_t ctx)
{
	return lx_syscall(NR_IO_DESTROY, (long)ctx, 0, 0, 0, 0);
}

static long b_submit(aio_context_t ctx, long nr, struct iocb **list)
{
	return lx_syscall(NR_IO_SUBMIT, (long)ctx, nr, (long)list, 0, 0);
}

/* At least one and at most nr events; t NULL waits without limit. */
static long b_getevents(aio_context_t ctx, long nr, struct io_event *ev,
			const struct b_timeout *t)
{
	return lx_syscall(NR_IO_GETEVENTS, (long)ctx, 1, nr, (long)ev, (long)t);
}

/* Linux: relative. */
static void b_timeout_arm(struct b_timeout *t, long long ns)
{
	t->tv_sec = (long)(ns / SEC_NS);
	t->tv_nsec = (long)(ns % SEC_NS);
}

#else /* aiokern */
#define TARGET_NAME	"aiokern"
#define UAPI_STRUCTS_ONLY
#include "uapi/time.h"		/* struct kernel_timespec */
#include "user/syscalls.h"	/* __sys_io_*: the generated stubs, 244-248 */

_Static_assert(sizeof(struct b_timeout) == sizeof(struct kernel_timespec), "timespec");

static long b_setup(unsigned nr, aio_context_t *ctx)
{
	return __sys_io_setup(nr, ctx);
}

static long b_destroy(aio_context_t ctx)
{
	return __sys_io_destroy(ctx);
}

static long b_submit(aio_context_t ctx, long nr, struct iocb **list)
{
	return __sys_io_submit(ctx, nr, list);
}

/* io_getevents_abs returns as soon as one event is there: min_nr is always 1. */
static long b_getevents(aio_context_t ctx, long nr, struct io_event *ev,
			const struct b_timeout *t)
{
	return __sys_io_getevents_abs(ctx, nr, ev, (const struct kernel_timespec *)t);
}

/* aiokern: an absolute CLOCK_REALTIME deadline, read once per metric. */
static void b_timeout_arm(struct b_timeout *t, long long ns)
{
	struct timespec now;
	long long at;

	clock_gettime(CLOCK_REALTIME, &now);
	at = (long long)now.tv_sec * SEC_NS + now.tv_nsec + ns;
	t->tv_sec = (long)(at / SEC_NS);
	t->tv_nsec = (long)(at % SEC_NS);
}
#endif

/* ---------------- state, output, time ---------------- */

struct limits {
	long	warmup, qd1, qd32, seq, micro, null_calls, setup, sweep;
	long	cold, file_seq_mib;	/* --ext2: cold-cache reads; the sequential file's MiB */
};

static const struct limits full_limits = { 256, 20000, 200000, 16384, 200000, 1000000, 2000,
					   100000, 8192, 256 };
static const struct limits quick_limits = { 16, 200, 2000, 256, 2000, 2000, 20, 500, 256, 4 };

struct bench {
	const char		*dev, *label;
	const char		*dev2;		/* --second DEV, or 0 */
	const struct limits	*lim;
	int			fd, fd2;	/* fd2: the second disk's, or -1 */
	long			nblocks;	/* 4 KiB blocks on the disk */
	aio_context_t		ctx;		/* for the I/O metrics */
	struct b_timeout	wait;		/* limit for one wait, armed per metric */
	struct b_timeout	expired;	/* a limit already past */
	int			verify_all;	/* check every word of every read */
	int			no_verify;	/* check only the lengths (null-co) */
	int			ext2;		/* --ext2: file AIO on the mounted image */
	int			warm_only;	/* --warm-only: of --ext2, the warm phase alone */
	int			qd32_only;	/* --qd32-only: one thread's QD32 alone, with counters */
	const char		*prefix;	/* before every metric's name ("raw_", ...), or NULL */
	unsigned long		io_errors, verify_errors;
};

static unsigned char bufs[MAX_DEPTH][BLOCK] __attribute__((aligned(BLOCK)));
static unsigned char seq_bufs[SEQ_DEPTH][SEQ_SIZE] __attribute__((aligned(BLOCK)));
static uint32_t pat_k[SECTOR / 4];	/* k * PAT_MUL_K */

/* A value given in thousandths, printed with three decimals; 0 means the metric failed. */
static void result_milli(const struct bench *b, const char *metric, long long milli)
{
	const char *pre = b->prefix ? b->prefix : "";

	if (milli <= 0)
		outf("# bench: %s %s%s: failed, no result\n", b->label, pre, metric);
	else
		outf("RESULT %s %s%s %lld.%03lld\n", b->label, pre, metric, milli / 1000,
		     milli % 1000);
}

static void result_count(const struct bench *b, const char *metric, unsigned long n)
{
	outf("RESULT %s %s %lu\n", b->label, metric, n);
}

static void io_error(struct bench *b, const char *what, long r)
{
	if (b->io_errors++ < 10)
		outf("# bench: %s: %s returned %ld\n", b->label, what, r);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * SEC_NS + ts.tv_nsec;
}

/* Fixed-seed xorshift64*: the same offsets on every run and both kernels. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static long long random_block_offset(const struct bench *b, uint64_t *rng)
{
	return (long long)((rng_next(rng) >> 16) % (uint64_t)b->nblocks) * BLOCK;
}

/* ---------------- verification ---------------- */

static void pattern_init(void)
{
	for (uint32_t k = 2; k < SECTOR / 4; k++)
		pat_k[k] = k * PAT_MUL_K;
}

/* The pattern of the len bytes at byte off (whole sectors): what a read there checks. */
static void fill_pattern(void *buf, unsigned len, long long off)
{
	uint32_t *w = buf, s = (uint32_t)(off / SECTOR);

	for (unsigned i = 0; i < len / SECTOR; i++, w += SECTOR / 4, s++) {
		uint32_t m = s * PAT_MUL_S;

		w[0] = s;
		w[1] = PAT_MAGIC;
		for (int k = 2; k < SECTOR / 4; k++)
			w[k] = m ^ pat_k[k];
	}
}

/* 1 when the sector at number s holds its pattern in every word. */
static int sector_ok(const uint32_t *w, uint32_t s)
{
	uint32_t m = s * PAT_MUL_S;
	uint32_t acc = (w[0] ^ s) | (w[1] ^ PAT_MAGIC);

	for (int k = 2; k < SECTOR / 4; k++)
		acc |= w[k] ^ m ^ pat_k[k];
	return acc == 0;
}

/* 1 when the sector's first two and last words (its number, the magic, a hash of both) fit. */
static int sector_id_ok(const uint32_t *w, uint32_t s)
{
	const int last = SECTOR / 4 - 1;

	return ((w[0] ^ s) | (w[1] ^ PAT_MAGIC) | (w[last] ^ s * PAT_MUL_S ^ pat_k[last])) == 0;
}

/*
 * Check a completed read of len bytes at off: its result, then its data, every
 * word (full) or each sector's identity words.  The timed queue-depth loops use the
 * identity check on every read and the full check on one in VERIFY_SAMPLE: a full
 * check of 64 KiB costs more than the read itself under TCG (docs/benchmarks.md).
 */
static void check_read(struct bench *b, const struct io_event *ev, const void *buf,
		       unsigned len, long long off, int full)
{
	const uint32_t *w = buf;
	uint32_t s = (uint32_t)(off / SECTOR);
	long res = (long)ev->res;

	if (res != (long)len) {
		io_error(b, "read", res);
		return;
	}
	if (b->no_verify)
		return;
	for (unsigned i = 0; i < len / SECTOR; i++, w += SECTOR / 4, s++) {
		if (full ? sector_ok(w, s) : sector_id_ok(w, s))
			continue;
		if (b->verify_errors++ < 10)
			outf("# bench: %s: pattern mismatch in sector %u (read at %lld)\n",
			    b->label, s, off);
		return;
	}
}

/* Submit all n, in as many calls as the kernel needs; with cost, note each
 * call's time in cost[(*nc)++]. -1 on an error. */
static int submit_timed(struct bench *b, aio_context_t ctx, struct iocb **list, long n,
			long long *cost, long *nc)
{
	while (n > 0) {
		long long t0 = cost ? now_ns() : 0;
		long r = b_submit(ctx, n, list);

		if (cost)
			cost[(*nc)++] = now_ns() - t0;
		if (r <= 0) {
			io_error(b, "io_submit", r);
			return -1;
		}
		list += r;
		n -= r;
	}
	return 0;
}

static int submit_all(struct bench *b, aio_context_t ctx, struct iocb **list, long n)
{
	return submit_timed(b, ctx, list, n, NULL, NULL);
}

/* ---------------- QD1 random 4 KiB reads ---------------- */

/* One read: submit, wait, verify; its latency in ns, or -1. */
static long long qd1_op(struct bench *b, uint64_t *rng)
{
	struct iocb cb, *cbp = &cb;
	struct io_event ev;
	long long off = random_block_offset(b, rng), t0, t1;
	long r;

	io_prep_pread(&cb, b->fd, bufs[0], BLOCK, off);
	t0 = now_ns();
	r = b_submit(b->ctx, 1, &cbp);
	if (r != 1) {
		io_error(b, "io_submit", r);
		return -1;
	}
	r = b_getevents(b->ctx, 1, &ev, &b->wait);
	t1 = now_ns();
	if (r != 1) {
		io_error(b, "io_getevents", r);
		return -1;
	}
	check_read(b, &ev, bufs[0], BLOCK, off, 1);
	return t1 - t0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of n sorted values. */
static long long percentile(const long long *v, long n, int p)
{
	long rank = (long)(((long long)p * n + 99) / 100);

	return v[rank > 0 ? rank - 1 : 0];
}

/* Histogram bucket of a latency: exact below HIST_SUB ns, then HIST_SUB buckets per
 * power of two (each 1/16 of its octave wide, about 4%). */
static int hist_bucket(long long ns)
{
	int e, idx;

	if (ns < HIST_SUB)
		return ns < 0 ? 0 : (int)ns;
	e = 63 - __builtin_clzll((unsigned long long)ns);
	idx = (e - 3) * HIST_SUB + (int)((ns >> (e - 4)) & (HIST_SUB - 1));
	return idx < HIST_BUCKETS ? idx : HIST_BUCKETS - 1;
}

/* The smallest latency of bucket idx, in ns. */
static long long hist_lo(int idx)
{
	int e = idx / HIST_SUB + 3;

	if (idx < HIST_SUB)
		return idx;
	return (long long)(HIST_SUB + idx % HIST_SUB) << (e - 4);
}

/* n sorted latencies as "HIST LABEL METRIC LO:COUNT ..." lines, the non-empty buckets
 * in order, HIST_PER_LINE per line (outf writes at most 255 bytes a line). */
static void print_hist(const struct bench *b, const char *metric, const long long *v, long n)
{
	char line[200];
	int len = 0, items = 0;

	for (long i = 0, j; i < n; i = j) {
		int k = hist_bucket(v[i]);

		for (j = i; j < n && hist_bucket(v[j]) == k; j++)
			;
		len += snprintf(line + len, sizeof(line) - len, " %lld:%ld", hist_lo(k), j - i);
		if (++items == HIST_PER_LINE || j == n) {
			outf("HIST %s %s%s\n", b->label, metric, line);
			len = items = 0;
		}
	}
}

static void run_qd1(struct bench *b)
{
	long limit = b->lim->qd1, n = 0;
	long long *lat = malloc(limit * sizeof(*lat)), t0, lsum = 0;
	uint64_t rng = RNG_SEED;

	if (!lat) {
		io_error(b, "malloc", 0);
		return;
	}
	b_timeout_arm(&b->wait, WAIT_NS);
	for (long i = 0; i < b->lim->warmup; i++)
		if (qd1_op(b, &rng) < 0)
			break;
	t0 = now_ns();
	while (n < limit && now_ns() - t0 < TIME_CAP_NS) {
		if ((lat[n] = qd1_op(b, &rng)) < 0)
			break;
		lsum += lat[n++];
	}
	if (n > 0) {
		long long elapsed = now_ns() - t0;

		qsort(lat, n, sizeof(*lat), cmp_ll);
		result_milli(b, "qd1_iops", n * SEC_NS * 1000 / elapsed);
		result_milli(b, "qd1_lat_p50_us", percentile(lat, n, 50));
		result_milli(b, "qd1_lat_p99_us", percentile(lat, n, 99));
		if (!b->prefix) {	/* the raw disks' histogram (tools/benchplot.py) */
			print_hist(b, "qd1_lat_ns", lat, n);
			outf("# bench: %s: qd1 %ld ops, mean latency %lld ns\n", b->label, n,
			     lsum / n);
		}
	}
	free(lat);
}

/* ---------------- queue-depth loops (QD32, sequential, NOOP) ---------------- */

struct qd_job {
	const char	*metric;
	int		depth;
	unsigned	size;		/* bytes per read; 0 for NOOP */
	int		sequential;	/* 1: sequential offsets, else random */
	long		limit;
	long long	cap_ns;		/* time limit; 0: TIME_CAP_NS */
	int		writes;		/* 1: writes of the pattern (fill_pattern) */
};

struct qd_run {
	struct bench		*b;
	const struct qd_job	*job;
	struct iocb		cbs[MAX_DEPTH];
	uint64_t		rng;
	long long		next_seq, disk_bytes;
	long			issued, done, inflight, checked;
	int			stop;
	int			slot_base;	/* first of bufs[] this run owns */
};

static void *slot_buf(const struct qd_run *q, int slot)
{
	return q->job->size == SEQ_SIZE ? (void *)seq_bufs[slot] : (void *)bufs[q->slot_base + slot];
}

static long long next_offset(struct qd_run *q)
{
	long long off;

	if (!q->job->sequential)
		return random_block_offset(q->b, &q->rng);
	if (q->next_seq + q->job->size > q->disk_bytes)
		q->next_seq = 0;
	off = q->next_seq;
	q->next_seq += q->job->size;
	return off;
}

/* Fill slot's iocb with the next request; it goes on list[*n]. */
static void slot_prep(struct qd_run *q, int slot, struct iocb **list, long *n)
{
	struct iocb *cb = &q->cbs[slot];

	if (q->job->size && q->job->writes) {
		long long off = next_offset(q);

		fill_pattern(slot_buf(q, slot), q->job->size, off);
		io_prep_pwrite(cb, q->b->fd, slot_buf(q, slot), q->job->size, off);
	} else if (q->job->size)
		io_prep_pread(cb, q->b->fd, slot_buf(q, slot), q->job->size, next_offset(q));
	else
		io_prep_noop(cb, q->b->fd);
	cb->data = (void *)(uintptr_t)slot;
	list[(*n)++] = cb;
	q->issued++;
}

/* Check one completion; its slot, or -1 if the event names none of ours. */
static int qd_complete(struct qd_run *q, const struct io_event *ev)
{
	int slot = (int)(uintptr_t)ev->data;
	const struct iocb *cb;

	if (slot < 0 || slot >= q->job->depth || ev->obj != &q->cbs[slot]) {
		io_error(q->b, "event data", slot);
		return -1;
	}
	cb = &q->cbs[slot];
	if (q->job->size && q->job->writes) {
		if ((long)ev->res != (long)q->job->size)
			io_error(q->b, "write", (long)ev->res);
	} else if (q->job->size)
		check_read(q->b, ev, cb->u.c.buf, q->job->size, cb->u.c.offset,
			   q->b->verify_all || q->checked++ % VERIFY_SAMPLE == 0);
	else if ((long)ev->res != 0)
		io_error(q->b, "noop", (long)ev->res);
	return slot;
}

/* Reap at least one event, refill each reaped slot, submit the refills in one call. */
static int qd_step(struct qd_run *q)
{
	struct io_event ev[MAX_DEPTH];
	struct iocb *list[MAX_DEPTH];
	long got = b_getevents(q->b->ctx, q->job->depth, ev, &q->b->wait), n = 0;

	if (got <= 0) {
		io_error(q->b, "io_getevents", got);
		return -1;
	}
	q->inflight -= got;
	q->done += got;
	for (long i = 0; i < got; i++) {
		int slot = qd_complete(q, &ev[i]);

		if (slot >= 0 && !q->stop && q->issued < q->job->limit)
			slot_prep(q, slot, list, &n);
	}
	if (n && submit_all(q->b, q->b->ctx, list, n) < 0)
		return -1;
	q->inflight += n;
	return 0;
}

/* Run job in *q (bufs[slot_base ..] are its buffers, b->ctx its context);
 * completions per second in thousandths (0 when nothing completed). */
static long long qd_run_in(struct qd_run *q, struct bench *b, const struct qd_job *job,
			   long long disk_bytes, int slot_base)
{
	struct iocb *list[MAX_DEPTH];
	long n = 0, done_at_end = 0;
	long long t0, t_end = 0;

	*q = (struct qd_run){ .b = b, .job = job, .rng = RNG_SEED ^ job->depth ^ slot_base,
			      .disk_bytes = disk_bytes, .slot_base = slot_base };
	b_timeout_arm(&b->wait, WAIT_NS);
	for (int s = 0; s < job->depth && q->issued < job->limit; s++)
		slot_prep(q, s, list, &n);
	t0 = now_ns();
	if (submit_all(b, b->ctx, list, n) < 0)
		return 0;
	q->inflight = n;
	for (long iter = 1; q->inflight > 0; iter++) {
		if (qd_step(q) < 0)
			break;
		if (!q->stop && (q->inflight == 0 || (iter & 7) == 0)) {
			t_end = now_ns();
			done_at_end = q->done;
			q->stop = q->inflight == 0 ||
				  t_end - t0 >= (job->cap_ns ? job->cap_ns : TIME_CAP_NS);
		}
	}
	if (q->inflight > 0)	/* an error: leave the rest to io_destroy */
		return 0;
	return t_end > t0 ? done_at_end * SEC_NS * 1000 / (t_end - t0) : 0;
}

static long long qd_run(struct bench *b, const struct qd_job *job, long long disk_bytes)
{
	static struct qd_run q;

	return qd_run_in(&q, b, job, disk_bytes, 0);
}

/* ---------------- per-request counters (QD32) ---------------- */

/* What the kernel counts per CPU, read before and after a phase: the rows of
 * /proc/interrupts and aiokern's /proc/aiok/cpustat ("NAME: n0 n1 ... what")
 * and the "cpuN key value ..." lines of /proc/aiok/sched.  Linux has only the
 * first; bench mounts /proc there itself (its /init does not). */
#define CNT_MAX		160
#define CNT_CPUS	8

struct cnt_snap {
	int	n;
	char	name[CNT_MAX][24];
	long long v[CNT_MAX][CNT_CPUS];
};

static long long cnt_slot_add(struct cnt_snap *s, const char *name, int cpu, long long v)
{
	int i;

	for (i = 0; i < s->n && strcmp(s->name[i], name); i++)
		;
	if (i == s->n) {
		if (s->n == CNT_MAX)
			return 0;
		snprintf(s->name[s->n++], sizeof(s->name[0]), "%s", name);
	}
	if (cpu >= 0 && cpu < CNT_CPUS)
		s->v[i][cpu] = v;
	return v;
}

/* "NAME: n0 n1 ... text": the numbers up to the first word that is none. */
static void cnt_row(struct cnt_snap *s, const char *file, char *line)
{
	char *colon = strchr(line, ':'), *p, name[24];
	int cpu = 0;

	if (!colon)
		return;
	*colon = '\0';
	for (p = line; *p == ' '; p++)
		;
	snprintf(name, sizeof(name), "%s.%s", file, p);
	for (p = colon + 1; ; cpu++) {
		char *end;
		long long v = strtoll(p, &end, 10);

		if (end == p || (*end && *end != ' ' && *end != '\n'))
			break;
		cnt_slot_add(s, name, cpu, v);
		p = end;
	}
}

/* "cpuN key value key value ...", or "rq_lock key value ..." (the run-queue
 * locks summed: shown as CPU 0's). */
static void cnt_pairs(struct cnt_snap *s, char *line)
{
	char key[24], name[24];
	long long v;
	int cpu = 0, used = 0, rq = !strncmp(line, "rq_lock", 7);

	if (rq)
		used = 7;
	else if (sscanf(line, "cpu%d%n", &cpu, &used) != 1)
		return;
	for (line += used; sscanf(line, " %23s %lld%n", key, &v, &used) == 2; line += used) {
		snprintf(name, sizeof(name), "sched.%s%s", rq ? "rq_" : "", key);
		cnt_slot_add(s, name, cpu, v);
	}
}

static void cnt_read(struct cnt_snap *s, const char *path, const char *file, int pairs)
{
	static char text[8192];
	int fd = open(path, O_RDONLY);
	long n = fd < 0 ? 0 : read(fd, text, sizeof(text) - 1);
	char *line, *next;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	text[n] = '\0';
	for (line = text; line && *line; line = next) {
		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		if (pairs)
			cnt_pairs(s, line);
		else
			cnt_row(s, file, line);
	}
}

static void cnt_snapshot(struct cnt_snap *s)
{
	s->n = 0;
	memset(s->v, 0, sizeof(s->v));
#ifdef TARGET_LINUX
	if (access("/proc/interrupts", R_OK)) {
		mkdir("/proc", 0555);
		lx_syscall(NR_MOUNT, (long)"proc", (long)"/proc", (long)"proc", 0, 0);
	}
#endif
	cnt_read(s, "/proc/interrupts", "irq", 0);
	cnt_read(s, "/proc/aiok/cpustat", "cpu", 0);
	cnt_read(s, "/proc/aiok/sched", "sched", 1);
}

/* "COUNT LABEL PHASE NAME CPU PER_1000" for each counter that moved, per
 * 1,000 requests (reqs done between the snapshots). */
static void cnt_report(const struct bench *b, const char *phase, const struct cnt_snap *a,
		       const struct cnt_snap *z, long reqs)
{
	for (int i = 0; i < z->n && reqs > 0; i++) {
		int j;

		for (j = 0; j < a->n && strcmp(a->name[j], z->name[i]); j++)
			;
		for (int c = 0; c < CNT_CPUS; c++) {
			long long d = z->v[i][c] - (j < a->n ? a->v[j][c] : 0);

			if (d > 0)
				outf("COUNT %s %s %s cpu%d %lld.%03lld\n", b->label, phase, z->name[i], c,
				     d * 1000 / reqs, d * 1000000 / reqs % 1000);
		}
	}
}

static void run_qd32(struct bench *b, long long disk_bytes)
{
	const struct qd_job job = { "qd32_iops", QD32_DEPTH, BLOCK, 0, b->lim->qd32, 0, 0 };
	static struct cnt_snap before, after;
	static struct qd_run q;
	long long rate;

	cnt_snapshot(&before);
	rate = qd_run_in(&q, b, &job, disk_bytes, 0);
	cnt_snapshot(&after);
	result_milli(b, job.metric, rate);
	cnt_report(b, "qd32", &before, &after, q.done);
}

/* Random 4 KiB reads from nthreads submitting threads at once, each with its own
 * context, depth and buffers (a copy of *b: its fd may be another disk's): the sum
 * of their rates (each runs TIME_CAP_NS). On several CPUs they submit at once. */
struct qd_thread {
	struct bench	b;		/* a copy: its own context, timeouts and error counts */
	struct qd_job	job;
	struct qd_run	run;
	long long	disk_bytes, ops_milli;
	int		slot_base;
	pthread_t	tid;
};

static void *qd_thread_main(void *arg)
{
	struct qd_thread *t = arg;

	t->ops_milli = qd_run_in(&t->run, &t->b, &t->job, t->disk_bytes, t->slot_base);
	return 0;
}

/* Thread i reads fds[i] at the given depth; depth * nthreads <= MAX_DEPTH. */
static long long qd_threads(struct bench *b, long long disk_bytes, int nthreads, int depth,
			    const int *fds)
{
	static struct qd_thread th[4];
	long long sum = 0;
	int started = 0, failed = 0;

	for (int i = 0; i < nthreads; i++) {
		struct qd_thread *t = &th[i];

		*t = (struct qd_thread){ .b = *b, .disk_bytes = disk_bytes, .slot_base = i * depth };
		t->job = (struct qd_job){ "qd_threads", depth, BLOCK, 0, b->lim->qd32 / nthreads, 0, 0 };
		t->b.fd = fds[i];
		t->b.io_errors = t->b.verify_errors = 0;
		t->b.ctx = 0;		/* io_setup wants it zero */
		if (b_setup(CTX_EVENTS, &t->b.ctx) < 0 ||
		    pthread_create(&t->tid, 0, qd_thread_main, t)) {
			io_error(b, "qd thread start", -1);
			break;
		}
		started++;
	}
	for (int i = 0; i < started; i++) {
		pthread_join(th[i].tid, 0);
		b_destroy(th[i].b.ctx);
		b->io_errors += th[i].b.io_errors;
		b->verify_errors += th[i].b.verify_errors;
		failed |= th[i].ops_milli == 0;
		sum += th[i].ops_milli;
	}
	return started == nthreads && !failed ? sum : 0;	/* one failed: no result */
}

/* QD32 split over 2 and 4 threads on the one disk; with --second, QD32 on each of
 * the two disks at once (IDE: the two channels in use together). */
static void run_qd32_threads(struct bench *b, long long disk_bytes)
{
	const int same[4] = { b->fd, b->fd, b->fd, b->fd }, two[2] = { b->fd, b->fd2 };

	result_milli(b, "qd32_t2_iops", qd_threads(b, disk_bytes, 2, QD32_DEPTH / 2, same));
	result_milli(b, "qd32_t4_iops", qd_threads(b, disk_bytes, 4, QD32_DEPTH / 4, same));
	if (b->fd2 >= 0)
		result_milli(b, "qd32_two_disks_iops", qd_threads(b, disk_bytes, 2, QD32_DEPTH, two));
}

static void run_seq(struct bench *b, long long disk_bytes)
{
	const struct qd_job job = { "seq64k_qd8_MBps", SEQ_DEPTH, SEQ_SIZE, 1, b->lim->seq, 0, 0 };
	long long ops_milli = qd_run(b, &job, disk_bytes);

	result_milli(b, job.metric, ops_milli * SEQ_SIZE / 1000000);	/* MB = 10^6 bytes */
}

/* IOPS of random 4 KiB reads at depths 1, 2, 4, ..., MAX_DEPTH (the QD32 loop at each
 * depth, SWEEP_CAP_NS each): "qd_sweep_D_iops". */
static void run_qd_sweep(struct bench *b, long long disk_bytes)
{
	char metric[32];

	for (int depth = 1; depth <= MAX_DEPTH; depth *= 2) {
		const struct qd_job job = { metric, depth, BLOCK, 0, b->lim->sweep, SWEEP_CAP_NS, 0 };

		snprintf(metric, sizeof(metric), "qd_sweep_%d_iops", depth);
		result_milli(b, metric, qd_run(b, &job, disk_bytes));
	}
}

/* ---------------- per-call costs ---------------- */

typedef int (*op_fn)(struct bench *b);

/* Mean cost of fn in ns, in thousandths: batches of 64 calls, up to limit or 2 s. */
static long long cost_ns_milli(struct bench *b, op_fn fn, long limit)
{
	long long t0 = now_ns(), t1 = t0;
	long n = 0;

	b_timeout_arm(&b->wait, WAIT_NS);
	while (n < limit && t1 - t0 < TIME_CAP_NS) {
		for (int i = 0; i < 64 && n < limit; i++, n++)
			if (fn(b) < 0)
				return 0;
		t1 = now_ns();
	}
	return n ? (t1 - t0) * 1000 / n : 0;
}

static int op_getpid(struct bench *b)
{
	(void)b;
	return getpid() > 0 ? 0 : -1;
}

static int op_submit_ebadf(struct bench *b)
{
	struct iocb cb, *cbp = &cb;
	long r;

	io_prep_pread(&cb, -1, bufs[0], BLOCK, 0);
	r = b_submit(b->ctx, 1, &cbp);
	if (r == -KERR_EBADF)
		return 0;
	io_error(b, "io_submit(fd -1)", r);
	return -1;
}

static int op_getevents_idle(struct bench *b)
{
	struct io_event ev;
	long r = b_getevents(b->ctx, 1, &ev, &b->expired);

	if (r == 0)
		return 0;
	io_error(b, "io_getevents(idle)", r);
	return -1;
}

static int op_setup_destroy(struct bench *b)
{
	aio_context_t ctx = 0;
	long r = b_setup(CTX_EVENTS, &ctx);

	if (r == 0)
		r = b_destroy(ctx);
	if (r == 0)
		return 0;
	io_error(b, "io_setup/io_destroy", r);
	return -1;
}

static void run_costs(struct bench *b)
{
	const struct limits *l = b->lim;

	result_milli(b, "submit_ebadf_ns", cost_ns_milli(b, op_submit_ebadf, l->micro));
	result_milli(b, "getevents_idle_ns", cost_ns_milli(b, op_getevents_idle, l->micro));
	result_milli(b, "setup_destroy_us", cost_ns_milli(b, op_setup_destroy, l->setup) / 1000);
	result_milli(b, "null_syscall_ns", cost_ns_milli(b, op_getpid, l->null_calls));
}

/* ---------------- threads, futexes, signals (issue 15) ---------------- */

#define NR_FUTEX	240
#define FUTEX_WAIT_PRIVATE	128
#define FUTEX_WAKE_PRIVATE	129

static long b_futex(volatile int *w, int op, int val)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r)
			 : "a"(NR_FUTEX), "b"(w), "c"(op), "d"(val), "S"(0), "D"(0) : "memory");
	return r;
}

static void *thread_nothing(void *arg)
{
	return arg;
}

static int op_thread_create_join(struct bench *b)
{
	pthread_t t;
	void *r = 0;

	if (pthread_create(&t, 0, thread_nothing, b) || pthread_join(t, &r) || r != b) {
		io_error(b, "pthread_create/join", -1);
		return -1;
	}
	return 0;
}

static pthread_mutex_t bench_mutex = PTHREAD_MUTEX_INITIALIZER;

static int op_mutex(struct bench *b)
{
	(void)b;
	pthread_mutex_lock(&bench_mutex);
	pthread_mutex_unlock(&bench_mutex);
	return 0;
}

/* Two threads hand a token back and forth through one futex word each: one
 * hand-off is a wake of a sleeping waiter until that waiter runs. */
static volatile int ping, pong, handoff_stop;

static void *handoff_peer(void *arg)
{
	(void)arg;
	for (;;) {
		while (!ping)
			b_futex(&ping, FUTEX_WAIT_PRIVATE, 0);
		ping = 0;
		if (handoff_stop)
			return 0;
		pong = 1;
		b_futex(&pong, FUTEX_WAKE_PRIVATE, 1);
	}
}

static int op_handoff(struct bench *b)
{
	(void)b;
	ping = 1;
	b_futex(&ping, FUTEX_WAKE_PRIVATE, 1);
	while (!pong)
		b_futex(&pong, FUTEX_WAIT_PRIVATE, 0);
	pong = 0;
	return 0;
}

static long long handoff_cost(struct bench *b, long n)
{
	pthread_t t;
	long long milli;

	ping = pong = handoff_stop = 0;
	if (pthread_create(&t, 0, handoff_peer, 0)) {
		io_error(b, "pthread_create", -1);
		return 0;
	}
	milli = cost_ns_milli(b, op_handoff, n) / 2;	/* two hand-offs per round */
	handoff_stop = 1;
	ping = 1;
	b_futex(&ping, FUTEX_WAKE_PRIVATE, 1);
	pthread_join(t, 0);
	return milli;
}

static volatile unsigned long signals_seen;

static void on_bench_signal(int sig)
{
	(void)sig;
	signals_seen++;
}

/* raise: the signal to this thread, its handler, the return through the frame. */
static int op_signal(struct bench *b)
{
	unsigned long before = signals_seen;

	if (raise(SIGUSR1) || signals_seen != before + 1) {
		io_error(b, "raise(SIGUSR1)", -1);
		return -1;
	}
	return 0;
}

static void run_threads(struct bench *b)
{
	const struct limits *l = b->lim;
	struct sigaction sa = { .sa_handler = on_bench_signal };

	result_milli(b, "thread_create_join_us",
		     cost_ns_milli(b, op_thread_create_join, l->setup) / 1000);
	result_milli(b, "mutex_uncontended_ns", cost_ns_milli(b, op_mutex, l->null_calls));
	result_milli(b, "futex_wake_to_run_us", handoff_cost(b, l->setup * 5) / 1000);
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, 0) == 0)
		result_milli(b, "signal_round_trip_us", cost_ns_milli(b, op_signal, l->setup * 5) / 1000);
	else
		result_milli(b, "signal_round_trip_us", 0);
}

/* ---------------- aiokern only: NOOP and the mapped ring ---------------- */

#ifndef TARGET_LINUX
static int op_noop_submit_reap(struct bench *b)
{
	struct iocb cb, *cbp = &cb;
	struct io_event ev;
	long r;

	io_prep_noop(&cb, b->fd);
	r = b_submit(b->ctx, 1, &cbp);
	if (r == 1)
		r = b_getevents(b->ctx, 1, &ev, &b->wait);
	if (r == 1 && (long)ev.res == 0)
		return 0;
	io_error(b, "noop submit+reap", r == 1 ? (long)ev.res : r);
	return -1;
}

/* Queue RING_BATCH NOOP completions in the ring (untimed); -1 on an error. */
static int ring_fill(struct bench *b, io_context_t ctx)
{
	static struct iocb cbs[RING_BATCH];
	struct iocb *list[64];

	for (int i = 0; i < RING_BATCH; i += 64) {
		for (int j = 0; j < 64; j++) {
			io_prep_noop(&cbs[i + j], b->fd);
			list[j] = &cbs[i + j];
		}
		if (submit_all(b, (aio_context_t)ctx, list, 64) < 0)
			return -1;
	}
	return 0;
}

/* Time RING_BATCH single-event reaps from the ring; the ns they took, or -1. */
static long long ring_drain(struct bench *b, io_context_t ctx)
{
	struct io_event ev;
	long long t0 = now_ns();

	for (int i = 0; i < RING_BATCH; i++) {
		int r = io_getevents_ring_only(ctx, 1, &ev);

		if (r != 1) {
			io_error(b, "io_getevents_ring_only", r);
			return -1;
		}
	}
	return now_ns() - t0;
}

/* ns per event reaped from the mapped ring through libaio, in thousandths. */
static long long ring_reap_cost(struct bench *b)
{
	io_context_t ctx = 0;
	long long spent = 0, t;
	long n = 0, limit = b->lim->micro;
	int r = io_setup(2 * RING_BATCH, &ctx);

	if (r < 0) {
		io_error(b, "libaio io_setup", r);
		return 0;
	}
	while (n < limit && spent < TIME_CAP_NS) {
		if (ring_fill(b, ctx) < 0 || (t = ring_drain(b, ctx)) < 0)
			break;
		spent += t;
		n += RING_BATCH;
	}
	io_destroy(ctx);
	return n ? spent * 1000 / n : 0;
}

static void run_aiokern_only(struct bench *b)
{
	const struct qd_job noop32 = { "noop_qd32_ops_per_s", QD32_DEPTH, 0, 0, b->lim->qd32, 0, 0 };

	result_milli(b, "noop_submit_reap_ns", cost_ns_milli(b, op_noop_submit_reap, b->lim->micro));
	result_milli(b, noop32.metric, qd_run(b, &noop32, 0));
	result_milli(b, "ring_reap_ns", ring_reap_cost(b));
}
#else
static void run_aiokern_only(struct bench *b)
{
	(void)b;	/* Linux has no IOCB_CMD_NOOP and no library ring path here */
}
#endif

/* ---------------- main ---------------- */

/* The disk's size in bytes: lseek to the end, else fstat; 0 when unknown. */
static long long disk_size(int fd)
{
	struct stat st;
	off_t end = lseek(fd, 0, SEEK_END);

	if (end > 0)
		return end;
	if (fstat(fd, &st) == 0 && st.st_size > 0)
		return st.st_size;
	return 0;
}

/* ---------------- file AIO on ext2 (--ext2) ---------------- */

#define NR_UMOUNT2	52
#define KERR_ENODEV	19
#define EXT2_MNT	"/mnt/bench"
#define COLD_STRIDE	1000003		/* a prime: block i * it mod the file's visits each once */

/* Open path for the file metrics: b->fd and b->nblocks (its 4 KiB blocks); -1 on an error. */
static int file_open(struct bench *b, const char *name, int flags)
{
	char path[64];
	long long size;

	snprintf(path, sizeof(path), EXT2_MNT "/%s", name);
	b->fd = open(path, flags, 0644);
	if (b->fd < 0) {
		io_error(b, path, -1);
		return -1;
	}
	size = disk_size(b->fd);
	b->nblocks = (long)(size / BLOCK);
	lseek(b->fd, 0, SEEK_SET);
	return 0;
}

static void file_close(struct bench *b)
{
	close(b->fd);
	b->fd = -1;
}

/* A share in percent with three decimals (0 is a valid result here). */
static void result_pct(const struct bench *b, const char *metric, long part, long whole)
{
	long long milli = whole ? (long long)part * 100000 / whole : 0;

	outf("RESULT %s %s%s %lld.%03lld\n", b->label, b->prefix, metric, milli / 1000,
	     milli % 1000);
}

/* aiokern's file-AIO counters after a phase, as a comment line (none on Linux):
 * the lines of /proc/aiok/ext2 from "aio_queued" on. */
static void note_counters(const struct bench *b, const char *phase)
{
	static char text[1024];
	int fd = open("/proc/aiok/ext2", O_RDONLY);
	long n = fd < 0 ? 0 : read(fd, text, sizeof(text) - 1);
	char *from;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	text[n] = '\0';
	if (!(from = strstr(text, "aio_queued")))
		return;
	for (char *p = from; (p = strchr(p, '\n')); )
		*p = ' ';
	outf("# bench: %s: after %s: %.200s\n", b->label, phase, from);
}

/* One target of the paired QD1 loop: the raw device or the file. */
struct qd1_side {
	const char	*prefix;
	int		fd, no_verify;
	long		nblocks;
	uint64_t	rng;
	long long	*lat;
};

/* One QD1 read on side s (b's descriptor and size switched to it); its ns or -1. */
static long long qd1_side_op(struct bench *b, struct qd1_side *s)
{
	b->fd = s->fd;
	b->nblocks = s->nblocks;
	b->no_verify = s->no_verify;
	return qd1_op(b, &s->rng);
}

/* The side's results from its n latencies (IOPS: from their sum). */
static void qd1_side_report(struct bench *b, struct qd1_side *s, long n)
{
	long long sum = 0;

	for (long i = 0; i < n; i++)
		sum += s->lat[i];
	qsort(s->lat, n, sizeof(*s->lat), cmp_ll);
	b->prefix = s->prefix;
	result_milli(b, "qd1_iops", sum ? n * SEC_NS * 1000 / sum : 0);
	result_milli(b, "qd1_lat_p50_us", percentile(s->lat, n, 50));
	result_milli(b, "qd1_lat_p99_us", percentile(s->lat, n, 99));
}

/* QD1 reads of the raw device and of the file, one of each in turn, so that
 * both see the same host (whose load drifts within seconds): "raw_qd1_*"
 * (lengths checked) and "direct_qd1_*". b's descriptor is the file's. */
static void run_qd1_pair(struct bench *b, int raw_fd, long raw_blocks)
{
	struct qd1_side side[2] = {
		{ "raw_", raw_fd, 1, raw_blocks, RNG_SEED, NULL },
		{ "direct_", b->fd, b->no_verify, b->nblocks, RNG_SEED, NULL } };
	struct qd1_side file = side[1];
	long limit = b->lim->qd1, n = 0;
	long long t0;

	side[0].lat = malloc(limit * sizeof(long long));
	side[1].lat = malloc(limit * sizeof(long long));
	b_timeout_arm(&b->wait, WAIT_NS);
	for (long i = 0; side[0].lat && side[1].lat && i < b->lim->warmup; i++)
		if (qd1_side_op(b, &side[0]) < 0 || qd1_side_op(b, &side[1]) < 0)
			break;
	t0 = now_ns();
	while (side[0].lat && side[1].lat && n < limit && now_ns() - t0 < 2 * TIME_CAP_NS) {
		if ((side[0].lat[n] = qd1_side_op(b, &side[0])) < 0 ||
		    (side[1].lat[n] = qd1_side_op(b, &side[1])) < 0)
			break;
		n++;
	}
	for (int k = 0; k < 2 && n > 0; k++)
		qd1_side_report(b, &side[k], n);
	free(side[0].lat);
	free(side[1].lat);
	b->fd = file.fd;
	b->nblocks = file.nblocks;
	b->no_verify = file.no_verify;
}

/* O_DIRECT random 4 KiB reads of "rand" at QD1 (paired with the raw device's,
 * every read checked outside the timed part) and at QD32 (right after the raw
 * device's QD32, the next host seconds; both check the lengths only, so that
 * the loops do the same work in user space). */
static void run_file_direct(struct bench *b, int raw_fd, long raw_blocks)
{
	int no_verify = b->no_verify, fd;
	long nblocks;

	if (file_open(b, "rand", O_RDONLY | O_DIRECT) < 0)
		return;
	run_qd1_pair(b, raw_fd, raw_blocks);
	fd = b->fd;
	nblocks = b->nblocks;
	b->prefix = "raw_";
	b->no_verify = 1;
	b->fd = raw_fd;
	b->nblocks = raw_blocks;
	run_qd32(b, (long long)raw_blocks * BLOCK);
	b->prefix = "direct_";
	b->fd = fd;			/* lengths only, as the raw loop: the same user work */
	b->nblocks = nblocks;
	run_qd32(b, (long long)nblocks * BLOCK);
	b->no_verify = no_verify;
	file_close(b);
	note_counters(b, "direct");
}

/* Reap exactly n events into ev, waiting; -1 on an error. */
static int reap_n(struct bench *b, struct io_event *ev, long n)
{
	for (long got = 0, r; got < n; got += r) {
		r = b_getevents(b->ctx, n - got, ev + got, &b->wait);
		if (r <= 0) {
			io_error(b, "io_getevents", r);
			return -1;
		}
	}
	return 0;
}

/* One batch of QD32_DEPTH random 4 KiB reads: submitted in one call, then the
 * events already there (a poll), then the rest; the number the poll found, or -1. */
static long warm_batch(struct bench *b, uint64_t *rng, long seq)
{
	static struct iocb cbs[QD32_DEPTH];
	struct iocb *list[QD32_DEPTH];
	struct io_event ev[QD32_DEPTH];
	long inside;

	for (int i = 0; i < QD32_DEPTH; i++) {
		io_prep_pread(&cbs[i], b->fd, bufs[i], BLOCK, random_block_offset(b, rng));
		list[i] = &cbs[i];
	}
	if (submit_all(b, b->ctx, list, QD32_DEPTH) < 0)
		return -1;
	inside = b_getevents(b->ctx, QD32_DEPTH, ev, &b->expired);
	if (inside < 0 || reap_n(b, ev + inside, QD32_DEPTH - inside) < 0) {
		io_error(b, "io_getevents(poll)", inside);
		return -1;
	}
	for (int i = 0; i < QD32_DEPTH; i++) {
		const struct iocb *cb = ev[i].obj;
		check_read(b, &ev[i], cb->u.c.buf, BLOCK, cb->u.c.offset,
			   b->verify_all || (seq + i) % VERIFY_SAMPLE == 0);
	}
	return inside;
}

#define WARM_WINDOW	1024		/* reads per window of warm_qd32_peak_iops */

/* Buffered random 4 KiB reads of "warm" (read whole first, so cached): IOPS in
 * batches of 32, and the share of reads complete when io_submit returned.
 * warm_qd32_peak_iops: the fastest window of WARM_WINDOW reads, which a busy
 * host's descheduling of QEMU (tens of ms at a time) spares more often than
 * the whole run: what the kernel costs when it gets the CPU. */
static void run_file_warm(struct bench *b)
{
	uint64_t rng = RNG_SEED;
	long ops = 0, inside = 0, r;
	long long t0, tw, best = 0;

	b->prefix = "warm_";
	if (file_open(b, "warm", O_RDONLY) < 0)
		return;
	while (read(b->fd, seq_bufs[0], SEQ_SIZE) > 0)
		;
	b_timeout_arm(&b->wait, WAIT_NS);
	t0 = tw = now_ns();
	while (ops < b->lim->qd32 && now_ns() - t0 < TIME_CAP_NS) {
		if ((r = warm_batch(b, &rng, ops)) < 0)
			break;
		inside += r;
		ops += QD32_DEPTH;
		if (ops % WARM_WINDOW == 0) {
			long long t = now_ns();
			if (!best || t - tw < best)
				best = t - tw;
			tw = t;
		}
	}
	if (ops) {
		result_milli(b, "qd32_iops", ops * SEC_NS * 1000 / (now_ns() - t0));
		result_pct(b, "inside_submit_pct", inside, ops);
	}
	if (best)
		result_milli(b, "qd32_peak_iops", WARM_WINDOW * SEC_NS * 1000 / best);
	file_close(b);
	note_counters(b, "warm");
}

/* The cold loop's next read: block i of a walk that meets each block once. */
static void cold_prep(struct bench *b, struct iocb *cb, int slot, long i)
{
	long long blk = (long long)i * COLD_STRIDE % b->nblocks;

	io_prep_pread(cb, b->fd, bufs[slot], BLOCK, blk * BLOCK);
	cb->data = (void *)(uintptr_t)slot;
}

/* Reap, check, refill and submit until limit reads are done; the reads done. */
static long cold_loop(struct bench *b, struct iocb *cbs, long limit, long long *cost, long *nc)
{
	struct iocb *list[QD32_DEPTH];
	struct io_event ev[QD32_DEPTH];
	long issued = 0, done = 0, n = 0;

	for (; issued < QD32_DEPTH && issued < limit; issued++) {
		cold_prep(b, &cbs[issued], (int)issued, issued);
		list[n++] = &cbs[issued];
	}
	if (submit_timed(b, b->ctx, list, n, cost, nc) < 0)
		return done;
	while (done < issued) {
		long got = b_getevents(b->ctx, QD32_DEPTH, ev, &b->wait);

		if (got <= 0) {
			io_error(b, "io_getevents", got);
			break;
		}
		n = 0;
		for (long i = 0; i < got; i++, done++) {
			struct iocb *cb = ev[i].obj;
			int slot = (int)(uintptr_t)cb->data;
			check_read(b, &ev[i], cb->u.c.buf, BLOCK, cb->u.c.offset,
				   b->verify_all || done % VERIFY_SAMPLE == 0);
			if (issued < limit) {
				cold_prep(b, &cbs[slot], slot, issued++);
				list[n++] = &cbs[slot];
			}
		}
		if (n && submit_timed(b, b->ctx, list, n, cost, nc) < 0)
			break;
	}
	return done;
}

/* Buffered random 4 KiB reads of "rand" at QD32, each block read once (nothing
 * cached): IOPS and io_submit's time per call (median, p99, max). */
static void run_file_cold(struct bench *b)
{
	static struct iocb cbs[QD32_DEPTH];
	long limit, done, nc = 0;
	long long *cost, t0, elapsed;

	b->prefix = "cold_";
	if (file_open(b, "rand", O_RDONLY) < 0)
		return;
	limit = b->lim->cold < b->nblocks ? b->lim->cold : b->nblocks;
	cost = malloc((limit + 1) * sizeof(*cost));
	if (!cost) {
		io_error(b, "malloc", 0);
		file_close(b);
		return;
	}
	b_timeout_arm(&b->wait, WAIT_NS);
	t0 = now_ns();
	done = cold_loop(b, cbs, limit, cost, &nc);
	elapsed = now_ns() - t0;
	if (done == limit && nc > 0) {
		qsort(cost, nc, sizeof(*cost), cmp_ll);
		result_milli(b, "qd32_iops", done * SEC_NS * 1000 / elapsed);
		result_milli(b, "submit_p50_us", percentile(cost, nc, 50));
		result_milli(b, "submit_p99_us", percentile(cost, nc, 99));
		result_milli(b, "submit_max_us", cost[nc - 1]);
		outf("# bench: %s: cold %ld reads in %ld io_submit calls\n", b->label, done, nc);
	}
	free(cost);
	file_close(b);
	note_counters(b, "cold");
}

/* A new file "seq" written with O_DIRECT 64 KiB AIO at QD8 (file_seq_mib MiB of
 * the pattern: every write allocates), written again in place (overwrites of
 * allocated blocks), then read back with O_DIRECT and buffered, every read
 * checked. */
static void run_file_seq(struct bench *b)
{
	long long bytes = (long long)b->lim->file_seq_mib << 20;
	const struct qd_job wr = { "write_MBps", SEQ_DEPTH, SEQ_SIZE, 1, bytes / SEQ_SIZE,
				   600 * SEC_NS, 1 };
	const struct qd_job rewr = { "rewrite_MBps", SEQ_DEPTH, SEQ_SIZE, 1, bytes / SEQ_SIZE,
				     600 * SEC_NS, 1 };
	const struct qd_job rd = { "read_MBps", SEQ_DEPTH, SEQ_SIZE, 1, bytes / SEQ_SIZE,
				   600 * SEC_NS, 0 };
	const struct qd_job bufrd = { "bufread_MBps", SEQ_DEPTH, SEQ_SIZE, 1, bytes / SEQ_SIZE,
				      600 * SEC_NS, 0 };

	b->prefix = "seq_";
	if (file_open(b, "seq", O_RDWR | O_CREAT | O_TRUNC | O_DIRECT) < 0)
		return;
	result_milli(b, wr.metric, qd_run(b, &wr, bytes) * SEQ_SIZE / 1000000);
	file_close(b);
	note_counters(b, "seq_write");
	if (file_open(b, "seq", O_RDWR | O_DIRECT) < 0)
		return;
	result_milli(b, rewr.metric, qd_run(b, &rewr, bytes) * SEQ_SIZE / 1000000);
	file_close(b);
	note_counters(b, "seq_rewrite");
	if (file_open(b, "seq", O_RDONLY | O_DIRECT) < 0)
		return;
	result_milli(b, rd.metric, qd_run(b, &rd, bytes) * SEQ_SIZE / 1000000);
	file_close(b);
	note_counters(b, "seq_read");
	if (file_open(b, "seq", O_RDONLY) < 0)
		return;
	result_milli(b, bufrd.metric, qd_run(b, &bufrd, bytes) * SEQ_SIZE / 1000000);
	file_close(b);
	note_counters(b, "seq_bufread");
	unlink(EXT2_MNT "/seq");
}

static int made_mnt;			/* bench made /mnt (and removes it) */

/* Mount dev on EXT2_MNT (made as needed): 0 or -errno. */
static long ext2_mount(const char *dev)
{
	long r;

	made_mnt = mkdir("/mnt", 0755) == 0;
	mkdir(EXT2_MNT, 0755);
	r = lx_syscall(NR_MOUNT, (long)dev, (long)EXT2_MNT, (long)"ext2", 0, 0);
	if (r == -KERR_ENODEV)	/* a Linux whose ext4 driver does not register "ext2" */
		r = lx_syscall(NR_MOUNT, (long)dev, (long)EXT2_MNT, (long)"ext4", 0, 0);
	return r;
}

/* --ext2: file AIO on the mounted image, and the raw device (lengths
 * checked only: the image holds a file system, not the pattern) for the
 * O_DIRECT rows, its descriptor open throughout. */
static void run_ext2(struct bench *b)
{
	int raw_fd = b->fd;
	long raw_blocks = b->nblocks, r;

	if ((r = ext2_mount(b->dev)) < 0) {
		io_error(b, "mount", r);
		rmdir(EXT2_MNT);
		return;
	}
	if (!b->warm_only)
		run_file_direct(b, raw_fd, raw_blocks);
	close(raw_fd);
	run_file_warm(b);
	if (!b->warm_only) {
		run_file_cold(b);
		run_file_seq(b);
	}
	b->prefix = NULL;
	if ((r = lx_syscall(NR_UMOUNT2, (long)EXT2_MNT, 0, 0, 0, 0)) < 0)
		io_error(b, "umount", r);
	rmdir(EXT2_MNT);			/* leave the root as it was (init's leak check) */
	if (made_mnt)
		rmdir("/mnt");
}

static int bench_open(struct bench *b)
{
	long long size;

	b->fd = open(b->dev, O_RDONLY | O_DIRECT);
	if (b->fd < 0) {
		outf("# bench: cannot open %s\n", b->dev);
		return -1;
	}
	b->fd2 = b->dev2 ? open(b->dev2, O_RDONLY | O_DIRECT) : -1;
	if (b->dev2 && (b->fd2 < 0 || disk_size(b->fd2) < disk_size(b->fd))) {
		outf("# bench: cannot open %s, or it is smaller than %s\n", b->dev2, b->dev);
		return -1;
	}
	size = disk_size(b->fd);
	b->nblocks = (long)(size / BLOCK);
	if (b->nblocks < SEQ_SIZE / BLOCK) {
		outf("# bench: %s: size %lld is too small\n", b->dev, size);
		return -1;
	}
	outf("# bench: %s %s on %s%s%s, %lld MiB, %s run, %s\n", TARGET_NAME, b->label, b->dev,
	    b->dev2 ? " and " : "", b->dev2 ? b->dev2 : "", size >> 20, b->lim == &quick_limits ? "quick" : "full",
	    b->no_verify ? "lengths checked, no data (--no-verify)" :
	    b->verify_all ? "every word checked" : "sector identity checked, every word of 1 in 64");
	return 0;
}

/* [--quick] [--verify-all] [--no-verify] [--second=DEV2] [--ext2] [--warm-only] DEVICE
 * LABEL, flags
 * anywhere; -1 on anything else. */
static int parse_args(struct bench *b, int argc, char **argv)
{
	const char *pos[2];
	int npos = 0;

	b->lim = &full_limits;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			b->lim = &quick_limits, b->verify_all = 1;
		else if (!strcmp(argv[i], "--verify-all"))
			b->verify_all = 1;
		else if (!strcmp(argv[i], "--no-verify"))
			b->no_verify = 1;
		else if (!strcmp(argv[i], "--ext2"))
			b->ext2 = 1;
		else if (!strcmp(argv[i], "--qd32-only"))
			b->qd32_only = 1;
		else if (!strcmp(argv[i], "--warm-only"))
			b->ext2 = b->warm_only = 1;
		else if (!strncmp(argv[i], "--second=", 9) && argv[i][9])
			b->dev2 = argv[i] + 9;
		else if (npos < 2)
			pos[npos++] = argv[i];
		else
			return -1;
	}
	if (npos != 2)
		return -1;
	b->dev = pos[0];
	b->label = pos[1];
	return 0;
}

static void run_all(struct bench *b)
{
	long long disk_bytes = (long long)b->nblocks * BLOCK;

	if (b->ext2) {
		run_ext2(b);
		return;
	}
	if (b->qd32_only) {
		run_qd32(b, disk_bytes);
		return;
	}
	run_qd1(b);
	run_qd32(b, disk_bytes);
	run_qd32_threads(b, disk_bytes);
	run_seq(b, disk_bytes);
	run_qd_sweep(b, disk_bytes);
	run_costs(b);
	run_threads(b);
	run_aiokern_only(b);
}

int main(int argc, char **argv)
{
	static struct bench b;
	long r;

	if (parse_args(&b, argc, argv) < 0) {
		outf("usage: bench [--quick] [--verify-all] [--no-verify] [--second=DEVICE2] [--ext2] "
		     "[--warm-only] [--qd32-only] DEVICE LABEL\n");
		return 2;
	}
	pattern_init();
	if (bench_open(&b) < 0)
		return 1;
	r = b_setup(CTX_EVENTS, &b.ctx);
	if (r < 0) {
		outf("# bench: %s: io_setup returned %ld\n", b.label, r);
		return 1;
	}
	run_all(&b);
	b_destroy(b.ctx);
	close(b.fd);
	if (b.fd2 >= 0)
		close(b.fd2);
	result_count(&b, "io_errors", b.io_errors);
	result_count(&b, "verify_errors", b.verify_errors);
	return b.io_errors || b.verify_errors ? 1 : 0;
}
