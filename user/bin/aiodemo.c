/* aiodemo.c: the demo: batched writes, FDSYNC, verified reads, ring reaping, a deadline, a cancel and teardown per disk; then AIO on a file of an ext2 disk when there is one. */
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "libaio.h"
#define UAPI_STRUCTS_ONLY
#include "uapi/time.h"
#undef UAPI_STRUCTS_ONLY
#include "user/syscalls.h"	/* raw stubs: the kernel's own answers, -errno in its numbering */

/*
 * One line per step, with the figures seen, then a KTAP case for it (suite
 * "aiodemo", nested in init's document), then one verdict line.  libaio is
 * used where a program would use it; the raw stubs where the point is what the
 * kernel itself answers (io_getevents_abs's absolute deadline, io_cancel).
 */

/* The kernel's errno numbers (include/uapi/errno.h); newlib's ECANCELED differs. */
#define K_EAGAIN	11
#define K_EINVAL	22
#define K_ECANCELED	125

#define KIB		1024
#define NR_EVENTS	64		/* io_setup size: room for every batch below */
#define BATCH		32		/* pattern writes, then reads, per io_submit */
#define CHUNK		(16 * KIB)	/* bytes per write/read request */
#define DATA_OFF	(1024 * KIB)	/* where the pattern goes on each disk */
#define CANCEL_MAX	48		/* requests in the cancel step */
#define CANCEL_BIG	(256 * KIB)	/* the largest single-part request */
#define CANCEL_ROUNDS	12		/* tries, in case the device outruns io_cancel */
#define WAIT_MS		3000		/* bound on every wait for the device */
#define DEADLINE_US	20000		/* the deadline that must expire */
#define MAX_REAPS	64		/* reaps whose sizes we remember */
#define POLL_NAP_US	500		/* between empty polls of the ring */

struct disk {
	const char	*name;		/* vda, hda */
	const char	*path;
	int		ncancel;	/* requests in the cancel step */
	size_t		cancel_len;	/* bytes each: one driver request */
	size_t		cancel_gap;	/* bytes skipped between them (none merge) */
	const char	*why;		/* why the last of them is still queued */
	int		fd;
	io_context_t	ctx;
	long long	size;
	unsigned	seed;
};

static struct disk disks[] = {
	{ .name = "vda", .path = "/dev/vda", .ncancel = CANCEL_MAX, .cancel_len = CANCEL_BIG,
	  .why = "66 descriptors each: the 256-entry virtqueue takes 3, 45 wait in the driver" },
	{ .name = "hda", .path = "/dev/hda", .ncancel = 24, .cancel_len = 128 * KIB,
	  .cancel_gap = 128 * KIB,
	  .why = "the channel runs one command at a time; 128 KiB apart, none merge: 1 on the device, 23 queued" },
};
#define NR_DISKS	((int)(sizeof(disks) / sizeof(disks[0])))

static unsigned char wbuf[BATCH * CHUNK] __attribute__((aligned(4096)));
static unsigned char rbuf[BATCH * CHUNK] __attribute__((aligned(4096)));
static unsigned char cbuf[CANCEL_MAX * CANCEL_BIG] __attribute__((aligned(4096)));
#define MAX_REQS	(BATCH > CANCEL_MAX ? BATCH : CANCEL_MAX)
static struct iocb cbs[MAX_REQS];
static struct iocb *cbp[MAX_REQS];
static struct io_event evs[MAX_REQS];

static int case_no, cases_failed, total_reqs;
static long long total_bytes;
static char failed_names[256];

static long long now_us(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One KTAP case for the step just narrated. */
static int report(const struct disk *d, const char *step, int ok)
{
	printf("    %s %d %s_%s\n", ok ? "ok" : "not ok", ++case_no, d->name, step);
	if (!ok) {
		cases_failed++;
		snprintf(failed_names + strlen(failed_names),
			 sizeof(failed_names) - strlen(failed_names), "%s%s %s",
			 cases_failed > 1 ? ", " : "", d->name, step);
	}
	fflush(stdout);
	return ok ? 0 : -1;
}

/* The word the pattern puts at byte offset pos of a disk. */
static uint32_t pattern_word(unsigned seed, long long pos)
{
	return seed ^ (uint32_t)(pos / 4) * 2654435761u;
}

static void pattern_fill(unsigned char *buf, size_t len, long long pos, unsigned seed)
{
	uint32_t *w = (uint32_t *)buf;

	for (size_t i = 0; i < len / 4; i++)
		w[i] = pattern_word(seed, pos + 4 * (long long)i);
}

/* Sectors of buf (read from disk offset pos) that differ from the pattern. */
static int pattern_bad_sectors(const unsigned char *buf, size_t len, long long pos, unsigned seed)
{
	const uint32_t *w = (const uint32_t *)buf;
	int bad = 0;

	for (size_t s = 0; s < len / 512; s++) {
		for (size_t i = s * 128; i < (s + 1) * 128; i++) {
			if (w[i] != pattern_word(seed, pos + 4 * (long long)i)) {
				bad++;
				break;
			}
		}
	}
	return bad;
}

/* Prepare n requests of len bytes from buf at disk offset pos, each with its index as data. */
static void prep_batch(struct disk *d, int op, unsigned char *buf, int n, size_t len,
		       long long pos)
{
	for (int i = 0; i < n; i++) {
		io_prep_rw(&cbs[i], d->fd, op, buf + i * len, len, pos + (long long)i * len);
		cbs[i].data = (void *)(intptr_t)i;
		cbp[i] = &cbs[i];
	}
}

/* Events must name distinct iocbs of the batch and carry res; the number that do not. */
static int check_events(const struct io_event *ev, int got, int n, long res)
{
	unsigned char seen[MAX_REQS] = { 0 };
	int bad = 0;

	for (int i = 0; i < got; i++) {
		int k = (int)(intptr_t)ev[i].data;

		if (k < 0 || k >= n || ev[i].obj != &cbs[k] || seen[k] || (long)ev[i].res != res) {
			bad++;
			continue;
		}
		seen[k] = 1;
	}
	return bad;
}

/* Wait (a system call) for want events, WAIT_MS at most; the number taken. */
static int wait_events(io_context_t ctx, int want, int max, struct io_event *ev)
{
	struct timespec ts = { WAIT_MS / 1000, (WAIT_MS % 1000) * 1000000L };
	int got = 0, r;

	while (got < want) {
		r = io_getevents(ctx, want - got, max - got, ev + got, &ts);
		if (r <= 0)
			break;
		got += r;
	}
	return got;
}

static int step_setup(struct disk *d)
{
	unsigned slots;
	int r;

	if (d->fd < 0) {
		printf("aiodemo: %s setup   : cannot open %s\n", d->name, d->path);
		return report(d, "setup", 0);
	}
	d->size = lseek(d->fd, 0, SEEK_END);
	r = io_queue_init(NR_EVENTS, &d->ctx);
	slots = r == 0 ? ((const unsigned *)d->ctx)[1] : 0;	/* the ring header's nr */
	printf("aiodemo: %s setup   : %s, %lld MiB; io_setup(%d) = %d: a ring of %u events "
	       "mapped at %p\n", d->name, d->path, d->size >> 20, NR_EVENTS, r, slots,
	       (void *)d->ctx);
	return report(d, "setup", r == 0 && d->size >= DATA_OFF + (long long)sizeof(wbuf) &&
		      d->size >= (long long)d->ncancel * (long long)(d->cancel_len + d->cancel_gap) &&
		      d->ncancel <= CANCEL_MAX && d->ncancel * d->cancel_len <= sizeof(cbuf));
}

/*
 * Take n events from the mapped ring alone (io_getevents_ring_only: no system
 * call); when it is empty, "do other work" for a moment (a short nanosleep,
 * which also lets an emulated device run instead of a spinning CPU).  The size
 * of each reap goes to sizes[], the number of empty polls to *empty.
 */
static int ring_poll(io_context_t ctx, int n, int *sizes, int *nreaps, long *empty)
{
	const struct timespec nap = { 0, POLL_NAP_US * 1000L };
	long long end = now_us(CLOCK_MONOTONIC) + WAIT_MS * 1000LL;
	int got = 0, r;

	*nreaps = 0;
	*empty = 0;
	while (got < n) {
		r = io_getevents_ring_only(ctx, n - got, evs + got);
		if (r < 0)
			return got;
		if (r > 0 && *nreaps < MAX_REAPS)
			sizes[(*nreaps)++] = r;
		got += r;
		if (r > 0)
			continue;
		if (now_us(CLOCK_MONOTONIC) > end)
			break;
		++*empty;
		nanosleep(&nap, NULL);
	}
	return got;
}

static void format_reaps(char *out, size_t size, const int *sizes, int n)
{
	size_t len = 0;

	out[0] = 0;
	for (int i = 0; i < n && len + 16 < size; i++) {
		if (i == 12) {
			snprintf(out + len, size - len, "+...");
			return;
		}
		len += snprintf(out + len, size - len, "%s%d", i ? "+" : "", sizes[i]);
	}
}

static int step_write(struct disk *d)
{
	long long t0, t1;
	int r;

	pattern_fill(wbuf, sizeof(wbuf), DATA_OFF, d->seed);
	prep_batch(d, IO_CMD_PWRITE, wbuf, BATCH, CHUNK, DATA_OFF);
	t0 = now_us(CLOCK_MONOTONIC);
	r = io_submit(d->ctx, BATCH, cbp);
	t1 = now_us(CLOCK_MONOTONIC);
	printf("aiodemo: %s write   : one io_submit of %d x %d KiB pattern writes (%d KiB at "
	       "%d KiB, seed %08x): %d accepted in %lld us\n", d->name, BATCH, CHUNK / KIB,
	       BATCH * CHUNK / KIB, DATA_OFF / KIB, d->seed, r, t1 - t0);
	total_reqs += r > 0 ? r : 0;
	return report(d, "write", r == BATCH);
}

/* Reap the write batch from the mapped ring only: libaio's syscall counter must not move. */
static int step_ring(struct disk *d)
{
	struct libaio_stats before = libaio_stats;
	int sizes[MAX_REAPS], nreaps, got, bad;
	long long t0 = now_us(CLOCK_MONOTONIC), t1;
	char list[96];
	long empty;

	got = ring_poll(d->ctx, BATCH, sizes, &nreaps, &empty);
	t1 = now_us(CLOCK_MONOTONIC);
	bad = check_events(evs, got, BATCH, CHUNK);
	format_reaps(list, sizeof(list), sizes, nreaps);
	printf("aiodemo: %s ring    : %d/%d write events (%d bad) reaped from the mapped ring in "
	       "%lld us: %d reap%s of %s events, %ld empty poll%s (a %d us nap after each); "
	       "libaio_stats.syscalls %lu -> %lu, ring_reaped %lu -> %lu\n", d->name, got, BATCH, bad,
	       t1 - t0, nreaps, nreaps == 1 ? "" : "s", list, empty, empty == 1 ? "" : "s",
	       POLL_NAP_US, before.syscalls, libaio_stats.syscalls, before.ring_reaped,
	       libaio_stats.ring_reaped);
	if (got < BATCH)			/* drain, so later steps start clean */
		got += wait_events(d->ctx, BATCH - got, BATCH - got, evs + got);
	total_bytes += (long long)(BATCH - bad) * CHUNK;
	return report(d, "ring", got == BATCH && !bad && libaio_stats.syscalls == before.syscalls);
}

static int step_fdsync(struct disk *d)
{
	long long t0, t1;
	int r, got;

	io_prep_fdsync(&cbs[0], d->fd);
	cbs[0].data = 0;
	cbp[0] = &cbs[0];
	t0 = now_us(CLOCK_MONOTONIC);
	r = io_submit(d->ctx, 1, cbp);
	got = r == 1 ? wait_events(d->ctx, 1, 1, evs) : 0;
	t1 = now_us(CLOCK_MONOTONIC);
	printf("aiodemo: %s fdsync  : IO_CMD_FDSYNC (a flush of the device's write cache) submitted "
	       "(%d): %d event, res %ld, in %lld us\n", d->name, r, got,
	       got ? (long)evs[0].res : 0L, t1 - t0);
	total_reqs += r > 0 ? r : 0;
	return report(d, "fdsync", r == 1 && got == 1 && !check_events(evs, 1, 1, 0));
}

static int step_read(struct disk *d)
{
	struct libaio_stats before = libaio_stats;
	long long t0, t1;
	int r, got, bad, sectors;

	memset(rbuf, 0xEE, sizeof(rbuf));
	prep_batch(d, IO_CMD_PREAD, rbuf, BATCH, CHUNK, DATA_OFF);
	t0 = now_us(CLOCK_MONOTONIC);
	r = io_submit(d->ctx, BATCH, cbp);
	got = r == BATCH ? wait_events(d->ctx, BATCH, BATCH, evs) : 0;
	t1 = now_us(CLOCK_MONOTONIC);
	bad = check_events(evs, got, BATCH, CHUNK);
	sectors = pattern_bad_sectors(rbuf, sizeof(rbuf), DATA_OFF, d->seed);
	printf("aiodemo: %s read    : one io_submit of %d x %d KiB reads (%d): %d events in %lld us "
	       "(io_getevents: %lu from the ring, %lu from %lu system calls); %d/%d sectors "
	       "match the pattern\n", d->name, BATCH, CHUNK / KIB, r, got, t1 - t0,
	       libaio_stats.ring_reaped - before.ring_reaped,
	       libaio_stats.syscall_events - before.syscall_events,
	       libaio_stats.syscalls - before.syscalls,
	       (int)(sizeof(rbuf) / 512) - sectors, (int)(sizeof(rbuf) / 512));
	total_reqs += r > 0 ? r : 0;
	total_bytes += (long long)(got - bad) * CHUNK;
	return report(d, "read", r == BATCH && got == BATCH && !bad && !sectors);
}

/* io_getevents_abs with nothing pending and an absolute deadline 20 ms ahead. */
static int step_deadline(struct disk *d)
{
	long long start = now_us(CLOCK_REALTIME), end, want = start + DEADLINE_US;
	struct kernel_timespec when = { (long)(want / 1000000), (long)(want % 1000000) * 1000 };
	long r;

	r = __sys_io_getevents_abs((aio_context_t)d->ctx, 1, evs, &when);
	end = now_us(CLOCK_REALTIME);
	printf("aiodemo: %s deadline: nothing pending, io_getevents_abs(deadline CLOCK_REALTIME "
	       "%ld.%06ld = now + %d us) = %ld after %lld us (%lld us past the deadline)\n",
	       d->name, when.tv_sec, when.tv_nsec / 1000, DEADLINE_US, r, end - start, end - want);
	return report(d, "deadline", r == 0 && end >= want && end - want < 500000);
}

/* The cancelled request's event: in io_cancel's result, with -ECANCELED (kernel numbering). */
static int cancel_result_ok(const struct io_event *res, int last)
{
	return res->obj == &cbs[last] && (int)(intptr_t)res->data == last &&
	       (long)res->res == -K_ECANCELED;
}

struct cancel_round {
	long	c_last, c_first;	/* io_cancel of the last and of the first request */
	long	res_last;		/* res in io_cancel's result for the last */
	int	got, bad, later;	/* ring events, wrong ones, and any after those */
	int	dup;			/* ring events for a request io_cancel took */
};

/* Ring events (of got) that belong to request k. */
static int events_for(const struct io_event *ev, int got, int k)
{
	int n = 0;

	for (int i = 0; i < got; i++)
		n += ev[i].obj == &cbs[k];
	return n;
}

/*
 * Submit n reads, cancel the last (still queued behind the others) and the
 * first (on the device), then collect the rest.  1: the queued cancel worked
 * and every request completed exactly once; 0: the device finished them all
 * before io_cancel ran (-EAGAIN, all n events in the ring); -1: anything else.
 */
static int cancel_round(struct disk *d, int n, struct cancel_round *c)
{
	struct io_event res_last, res_first;
	int last = n - 1;

	prep_batch(d, IO_CMD_PREAD, cbuf, n, d->cancel_len, 0);
	for (int i = 0; i < n; i++)	/* apart: the IDE driver would merge neighbours */
		cbs[i].u.c.offset = (long long)i * (long long)(d->cancel_len + d->cancel_gap);
	if (io_submit(d->ctx, n, cbp) != n)
		return -1;
	c->c_last = __sys_io_cancel((aio_context_t)d->ctx, (struct iocb *)&cbs[last], &res_last);
	c->c_first = __sys_io_cancel((aio_context_t)d->ctx, (struct iocb *)&cbs[0], &res_first);
	c->res_last = c->c_last ? 0 : (long)res_last.res;
	c->got = wait_events(d->ctx, c->c_last ? n : n - 1, n, evs);
	c->bad = check_events(evs, c->got, n, (long)d->cancel_len);
	c->later = io_getevents_ring_only(d->ctx, 1, evs + c->got);
	c->dup = c->c_last ? 0 : events_for(evs, c->got + (c->later > 0), last);
	total_reqs += n;
	total_bytes += (long long)(c->got - c->bad - c->dup) * (long long)d->cancel_len;
	if (c->c_first != -K_EAGAIN || c->bad || c->later || c->dup)
		return -1;
	if (c->c_last == 0)
		return cancel_result_ok(&res_last, last) && c->got == n - 1 ? 1 : -1;
	return c->c_last == -K_EAGAIN && c->got == n ? 0 : -1;
}

/* Cancel a queued request; if the device outran us, say so and try again. */
static int step_cancel(struct disk *d)
{
	struct cancel_round c = { 0 };
	int n = d->ncancel, r = 0, round = 0;
	char lost[96] = "";

	while (round < CANCEL_ROUNDS && (r = cancel_round(d, n, &c)) == 0) {
		round++;
		snprintf(lost, sizeof(lost), " [%d earlier round%s: the device finished all %d before "
			 "io_cancel ran: -EAGAIN, event via the ring]", round, round > 1 ? "s" : "", n);
	}
	printf("aiodemo: %s cancel  : one io_submit of %d x %d KiB reads (%s); io_cancel(last) = %ld, "
	       "result.res %ld (ECANCELED); io_cancel(first, on the device) = %ld (EAGAIN); ring: "
	       "%d events (%d bad), %d for the cancelled one, %d after%s\n", d->name, n,
	       (int)(d->cancel_len / KIB), d->why, c.c_last, c.res_last, c.c_first, c.got, c.bad,
	       c.dup, c.later, lost);
	return report(d, "cancel", r == 1);
}

/* Tear down; the context is gone afterwards (the kernel says -EINVAL to a submit on it). */
static int step_destroy(struct disk *d)
{
	aio_context_t id = (aio_context_t)d->ctx;
	long long t0 = now_us(CLOCK_MONOTONIC), t1;
	int r = io_destroy(d->ctx);
	long after;

	t1 = now_us(CLOCK_MONOTONIC);
	io_prep_noop(&cbs[0], d->fd);
	cbp[0] = &cbs[0];
	after = __sys_io_submit(id, 1, (struct iocb **)cbp);
	d->ctx = NULL;
	printf("aiodemo: %s destroy : io_destroy = %d in %lld us; io_submit on it afterwards = %ld "
	       "(EINVAL)\n", d->name, r, t1 - t0, after);
	return report(d, "destroy", r == 0 && after == -K_EINVAL);
}

/* ---- the file step: AIO on a file of an ext2 disk (/dev/vdb, when present) ---- */

#define FILE_DEV	"/dev/vdb"
#define FILE_DIR	"/mnt/demo"
#define FILE_PATH	FILE_DIR "/aiodemo.bin"
#define FILE_REQS	16		/* requests per batch: 16 x 16 KiB */

static struct disk file_disk = { .name = "vdb", .path = FILE_DEV, .fd = -1 };

/* One batch of FILE_REQS requests of CHUNK bytes on fd from file offset 0:
 * how many were in the ring when io_submit returned (completed inside it),
 * and whether all came back with res CHUNK. */
static int file_batch(io_context_t ctx, int fd, int op, unsigned char *buf, int *inside,
		      long long *us)
{
	long long t0 = now_us(CLOCK_MONOTONIC);
	int r, got;

	file_disk.fd = fd;
	prep_batch(&file_disk, op, buf, FILE_REQS, CHUNK, 0);
	r = io_submit(ctx, FILE_REQS, cbp);
	*inside = r == FILE_REQS ? io_getevents_ring_only(ctx, FILE_REQS, evs) : 0;
	if (*inside < 0)
		*inside = 0;
	got = *inside + (r == FILE_REQS ? wait_events(ctx, FILE_REQS - *inside,
						      FILE_REQS - *inside, evs + *inside) : 0);
	*us = now_us(CLOCK_MONOTONIC) - t0;
	total_reqs += r > 0 ? r : 0;
	if (r != FILE_REQS || got != FILE_REQS || check_events(evs, got, FILE_REQS, CHUNK))
		return 0;
	total_bytes += (long long)FILE_REQS * CHUNK;
	return 1;
}

/* IO_CMD_FDSYNC on fd: its data and metadata on the device. */
static int file_fdsync(io_context_t ctx, int fd, long long *us)
{
	long long t0 = now_us(CLOCK_MONOTONIC);
	int r;

	io_prep_fdsync(&cbs[0], fd);
	cbs[0].data = 0;
	cbp[0] = &cbs[0];
	r = io_submit(ctx, 1, cbp);
	r = r == 1 && wait_events(ctx, 1, 1, evs) == 1 && !check_events(evs, 1, 1, 0);
	*us = now_us(CLOCK_MONOTONIC) - t0;
	total_reqs++;
	return r;
}

/* Buffered writes to a new file (its blocks allocated), the same writes
 * again over them, FDSYNC, a buffered read from the page cache, an O_DIRECT
 * read from the device, on one file; one KTAP case. */
static int file_steps(io_context_t ctx, unsigned seed)
{
	size_t len = FILE_REQS * CHUNK;
	int fd = open(FILE_PATH, O_RDWR | O_CREAT | O_TRUNC, 0644), dfd, in_a = 0, in_w = 0;
	int in_r = 0, in_d = 0, ok, bad_r, bad_d;
	long long us_a = 0, us_w = 0, us_s = 0, us_r = 0, us_d = 0;

	pattern_fill(wbuf, len, 0, seed ^ 1);
	ok = fd >= 0 && file_batch(ctx, fd, IO_CMD_PWRITE, wbuf, &in_a, &us_a);
	printf("aiodemo: vdb write   : buffered, one io_submit of %d x %d KiB writes to a new file "
	       "%s: %d of %d done inside io_submit, the rest by the ext2aio worker (new blocks: "
	       "bitmaps to read first), all in %lld us\n", FILE_REQS, CHUNK / KIB, FILE_PATH, in_a,
	       FILE_REQS, us_a);
	pattern_fill(wbuf, len, 0, seed);
	ok = ok && file_batch(ctx, fd, IO_CMD_PWRITE, wbuf, &in_w, &us_w);
	printf("aiodemo: vdb rewrite : the same %d writes again (blocks mapped, pages cached): "
	       "%d of %d done inside io_submit (copied into the page cache there) in %lld us\n",
	       FILE_REQS, in_w, FILE_REQS, us_w);
	ok = ok && file_fdsync(ctx, fd, &us_s);
	printf("aiodemo: vdb fdsync  : IO_CMD_FDSYNC, by the worker: dirty pages and metadata "
	       "written back, then a device cache flush: res 0 in %lld us\n", us_s);
	memset(rbuf, 0xEE, len);
	ok = ok && file_batch(ctx, fd, IO_CMD_PREAD, rbuf, &in_r, &us_r);
	bad_r = pattern_bad_sectors(rbuf, len, 0, seed);
	printf("aiodemo: vdb read    : buffered, %d x %d KiB reads: %d of %d done inside io_submit "
	       "(page-cache hits) in %lld us; %d bad sectors\n", FILE_REQS, CHUNK / KIB, in_r,
	       FILE_REQS, us_r, bad_r);
	dfd = open(FILE_PATH, O_RDONLY | O_DIRECT);
	memset(rbuf, 0xEE, len);
	ok = ok && dfd >= 0 && file_batch(ctx, dfd, IO_CMD_PREAD, rbuf, &in_d, &us_d);
	bad_d = pattern_bad_sectors(rbuf, len, 0, seed);
	printf("aiodemo: vdb direct  : O_DIRECT, %d x %d KiB reads: %d inside io_submit; the worker "
	       "moved them zero-copy from the device into our pages in %lld us; %d bad sectors\n",
	       FILE_REQS, CHUNK / KIB, in_d, us_d, bad_d);
	close(dfd);
	close(fd);
	return ok && !bad_r && !bad_d;
}

/* The file step when /dev/vdb holds ext2: mount it, file_steps, umount. */
static void demo_file(void)
{
	unsigned seed = (unsigned)now_us(CLOCK_REALTIME) * 2654435761u ^ 0x66000000u;
	io_context_t ctx = NULL;
	long m;
	int ok;

	mkdir("/mnt", 0755);
	mkdir(FILE_DIR, 0755);
	m = __sys_mount(FILE_DEV, FILE_DIR, "ext2", 0, NULL);
	printf("aiodemo: vdb mount   : mount(%s, %s, \"ext2\") = %ld\n", FILE_DEV, FILE_DIR, m);
	ok = m == 0 && io_queue_init(NR_EVENTS, &ctx) == 0 && file_steps(ctx, seed);
	if (ctx)
		io_destroy(ctx);
	if (m == 0) {
		unlink(FILE_PATH);
		ok &= __sys_umount2(FILE_DIR, 0) == 0;
	}
	rmdir(FILE_DIR);
	rmdir("/mnt");				/* when we made it */
	report(&file_disk, "file", ok);
}

/* Is there an ext2 disk for the file step (the demo's third disk)? */
static int file_disk_present(void)
{
	int fd = open(FILE_DEV, O_RDONLY);
	unsigned char *sb = rbuf;		/* aligned, as the block device wants */
	int ext2 = fd >= 0 && pread(fd, sb, 1024, 1024) == 1024 &&
		   sb[56] == 0x53 && sb[57] == 0xef;	/* s_magic 0xef53 */

	if (fd >= 0)
		close(fd);
	if (!ext2)
		printf("aiodemo: vdb absent  : no ext2 disk at %s, file step skipped\n", FILE_DEV);
	return ext2;
}

typedef int (*step_fn)(struct disk *);
static const struct {
	const char	*name;
	step_fn		run;
} steps[] = {
	{ "setup", step_setup }, { "write", step_write }, { "ring", step_ring },
	{ "fdsync", step_fdsync }, { "read", step_read }, { "deadline", step_deadline },
	{ "cancel", step_cancel }, { "destroy", step_destroy },
};
#define NR_STEPS	((int)(sizeof(steps) / sizeof(steps[0])))

/* Every step on one disk; after a failed setup the rest are reported failed. */
static void demo_disk(struct disk *d)
{
	int i = 0;

	d->seed = (unsigned)now_us(CLOCK_REALTIME) * 2654435761u ^ (unsigned)d->name[0] << 24;
	if (steps[i++].run(d) < 0) {
		for (; i < NR_STEPS; i++)
			report(d, steps[i].name, 0);
	} else {
		for (; i < NR_STEPS; i++)
			steps[i].run(d);
	}
	if (d->ctx)
		io_destroy(d->ctx);
	if (d->fd >= 0)
		close(d->fd);
}

/* Open the disks; the number to demonstrate on (vda always: its absence is a failure). */
static int open_disks(void)
{
	int n = 0;

	for (int i = 0; i < NR_DISKS; i++) {
		disks[i].fd = open(disks[i].path, O_RDWR);
		if (disks[i].fd >= 0 || i == 0)
			n++;
		else
			printf("aiodemo: %s absent  : no %s, skipped\n", disks[i].name, disks[i].path);
	}
	return n;
}

static void verdict(int ndisks, long long t0)
{
	if (cases_failed)
		printf("aiodemo: FAIL (%d of %d steps failed: %s)\n", cases_failed, case_no,
		       failed_names);
	else
		printf("aiodemo: PASS (%d disk%s, %d steps, %d requests, %lld.%lld MiB moved, "
		       "%lld ms)\n", ndisks, ndisks == 1 ? "" : "s", case_no, total_reqs,
		       total_bytes >> 20, (total_bytes & 0xfffff) * 10 >> 20,
		       (now_us(CLOCK_MONOTONIC) - t0) / 1000);
}

int main(void)
{
	const char *idx = getenv("UTEST_INDEX");
	long long t0 = now_us(CLOCK_MONOTONIC);
	int n, file;

	setvbuf(stdout, NULL, _IOLBF, 0);
	n = open_disks();
	file = file_disk_present();
	printf("    KTAP version 1\n    # Subtest: aiodemo\n    1..%d\n", n * NR_STEPS + file);
	for (int i = 0; i < NR_DISKS; i++)
		if (disks[i].fd >= 0 || i == 0)
			demo_disk(&disks[i]);
	if (file)
		demo_file();
	verdict(n, t0);
	printf("%s %s aiodemo\n", cases_failed ? "not ok" : "ok", idx ? idx : "1");
	return cases_failed ? 1 : 0;
}
