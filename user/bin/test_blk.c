/* test_blk.c: block AIO from user space on /dev/vda or /dev/hda: suites blk_virtio, blk_ide, blk_aio_pattern, blk_aio_fault. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "aio_raw.h"
#include <sys/uio.h>
#include "uapi/uio.h"
#define UAPI_STRUCTS_ONLY
#include "uapi/stat.h"
#undef UAPI_STRUCTS_ONLY
#include <aiokern.h>
#include <sys/mman.h>
#include "user/syscalls.h"	/* raw pread64/pwrite64: 64-bit offsets, -errno */
#include "utest.h"

/*
 * usage: test_blk MODE [CASE]   (from init: run=test_blk:MODE)
 *   virtio   suite blk_virtio on /dev/vda (a 64 MiB disk); /dev/vdb answers slowly (cancel)
 *   ide      suite blk_ide on /dev/hda (a 64 MiB disk), and /dev/hdb (130 GiB, sparse)
 *   pattern  suite blk_aio_pattern: writes the pattern of tools/blk_aio_check.py on vda and hda
 *   fault    suite blk_aio_fault: vda and hda behind QEMU's blkdebug (tools/blkdebug.conf)
 * The disk areas below keep the cases of one suite apart (byte offsets).
 */
#define SECTOR		512
#define KIB		1024
#define MIB		(1024 * 1024)
#define DISK_SIZE	(64LL * MIB)	/* the blk_virtio / blk_ide disks (make test-disks) */
#define MAX_BATCH	256
#define WAIT_NS		10000000000LL	/* a request taking longer counts as hung */
#define BAD_RES		(-999999LL)	/* aio_rw: the request never completed */
#define DATA_TAG	0xB10C000000000000ULL

#define AREA_RANDOM	(0LL)		/* 16 MiB */
#define AREA_QD		(16LL * MIB)	/* 1 MiB */
#define AREA_MIXED	(17LL * MIB)	/* 512 KiB */
#define AREA_SIZES	(18LL * MIB)	/* 5 MiB */
#define AREA_HIGHMEM	(23LL * MIB)	/* 1 MiB */
#define AREA_CANCEL	(24LL * MIB)	/* 8 MiB */
#define AREA_EXIT	(32LL * MIB)	/* 4 MiB */
#define AREA_PLAIN	(36LL * MIB)	/* 1 MiB */
#define AREA_SYNC	(37LL * MIB)	/* 1 MiB */
#define AREA_FORK	(38LL * MIB)	/* 4 MiB */
#define AREA_UNMAP	(42LL * MIB)	/* 8 MiB */
#define AREA_VEC	(50LL * MIB)	/* 2 MiB */

#define BAD_SECTOR	1000		/* keep in step with tools/blkdebug.conf */

static const char *dev_path = "/dev/vda";
static const char *slow_path = "/dev/vda";	/* a disk that answers slowly */

/* ---- the pattern: blktest_word() of kernel/tests/blktest.h ---- */

static unsigned pword(unsigned long long s, unsigned w, unsigned seed)
{
	return (unsigned)s * 0x9E3779B1u ^ w * 0x01000193u ^ (unsigned)(s >> 32) ^ seed;
}

/* Fill len bytes destined for disk byte offset off (both multiples of 512). */
static void pfill(void *buf, long long off, size_t len, unsigned seed)
{
	unsigned *p = buf;

	for (size_t i = 0; i < len / 4; i++)
		p[i] = pword(off / SECTOR + i / 128, i % 128, seed);
}

/* Index of the first wrong word, or -1 when buf holds the pattern. */
static long pcheck(const void *buf, long long off, size_t len, unsigned seed)
{
	const unsigned *p = buf;

	for (size_t i = 0; i < len / 4; i++)
		if (p[i] != pword(off / SECTOR + i / 128, i % 128, seed))
			return (long)i;
	return -1;
}

static unsigned rng_state;

static unsigned rnd(void)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return rng_state >> 8;
}

/* ---- helpers ---- */

/* Page-aligned anonymous memory: user pages are GFP_HIGHUSER, from HighMem first. */
static char *bigbuf(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int open_dev(void)
{
	return open(dev_path, O_RDWR);
}

static aio_context_t new_ctx(unsigned nr)
{
	aio_context_t ctx = 0;

	return raw_io_setup(nr, &ctx) ? 0 : ctx;
}

/* Each request's aio_data is DATA_TAG and its tag. */
static void prep(struct iocb *cb, int op, int fd, void *buf, size_t n, long long off, int tag)
{
	raw_prep(cb, op, fd, buf, n, off, DATA_TAG | (unsigned)tag);
}

/* io_submit of cb[0..n) in one call: the count accepted, or -errno. */
static long submit_all(aio_context_t ctx, struct iocb *cb, int n)
{
	struct iocb *list[MAX_BATCH];

	for (int i = 0; i < n; i++)
		list[i] = &cb[i];
	return raw_io_submit(ctx, n, list);
}

/* Collect n events (none may take longer than WAIT_NS). Each must name one of
 * cb[0..n) by obj and data, and each iocb may end only once; res[i] gets its
 * result. 0, or 1 after reporting the failure. */
static int reap(aio_context_t ctx, struct iocb *cb, int n, long long *res)
{
	struct kernel_timespec deadline = raw_deadline_in(WAIT_NS);
	struct io_event ev[MAX_BATCH];
	char seen[MAX_BATCH] = { 0 };

	for (int got = 0, k; got < n; got += k) {
		k = raw_io_getevents_abs(ctx, n - got, ev, &deadline);
		CHECK(k > 0);				/* 0: the deadline passed, a hang */
		for (int j = 0; j < k; j++) {
			long idx = (long)((struct iocb *)(unsigned long)ev[j].obj - cb);
			CHECK(idx >= 0 && idx < n);
			CHECK(ev[j].data == cb[idx].aio_data);
			CHECK_EQ(seen[idx]++, 0);	/* exactly once */
			res[idx] = ev[j].res;
		}
	}
	return 0;
}

/* Submit all of cb[0..n) at once and wait for every result. */
static int run_batch(aio_context_t ctx, struct iocb *cb, int n, long long *res)
{
	CHECK_EQ(submit_all(ctx, cb, n), n);
	return reap(ctx, cb, n, res);
}

/* Every request of the batch moved all its bytes. */
static int all_full(const struct iocb *cb, int n, const long long *res)
{
	for (int i = 0; i < n; i++)
		CHECK_EQ(res[i], (long long)cb[i].aio_nbytes);
	return 0;
}

/* One request, waited for: its result, the submit error, or BAD_RES. */
static long long aio_rw(aio_context_t ctx, int op, int fd, void *buf, size_t n, long long off)
{
	struct iocb cb;
	long long res = BAD_RES;
	long r;

	prep(&cb, op, fd, buf, n, off, 0);
	r = submit_all(ctx, &cb, 1);
	if (r != 1)
		return r < 0 ? r : BAD_RES;
	return reap(ctx, &cb, 1, &res) ? BAD_RES : res;
}

/* No event may show up within ms milliseconds. */
static int ring_stays_empty(aio_context_t ctx, int ms)
{
	struct kernel_timespec when = raw_deadline_in(ms * 1000000LL);
	struct io_event ev;

	CHECK_EQ(raw_io_getevents_abs(ctx, 1, &ev, &when), 0);
	return 0;
}

/* Write len bytes of pattern at off through AIO and read them back verified. */
static int write_read_verify(aio_context_t ctx, int fd, char *w, char *r, size_t len,
			     long long off, unsigned seed)
{
	pfill(w, off, len, seed);
	memset(r, 0, len);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PWRITE, fd, w, len, off), (long long)len);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, r, len, off), (long long)len);
	CHECK_EQ(pcheck(r, off, len, seed), -1);
	return 0;
}

/* ---- suite blk_virtio / blk_ide ---- */

static int fstat_reports_device_size(void)
{
	struct stat st;
	int fd = open_dev();

	CHECK(fd >= 0);
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK(S_ISBLK(st.st_mode));
	CHECK_EQ(st.st_size, DISK_SIZE);
	CHECK_EQ(lseek(fd, 0, SEEK_END), DISK_SIZE);
	close(fd);
	return 0;
}

enum { RND_NR = 48, RND_CHUNK = 64 * SECTOR, RND_CHUNKS = 16 * MIB / RND_CHUNK };

/* RND_NR distinct chunks of the area, a random length and place inside each. */
static void random_layout(long long *off, size_t *len)
{
	static char used[RND_CHUNKS];

	rng_state = 0xB10C5EED;
	for (int i = 0; i < RND_NR; i++) {
		unsigned c, sectors = 1 + rnd() % 64;
		do
			c = rnd() % RND_CHUNKS;
		while (used[c]);
		used[c] = 1;
		len[i] = sectors * SECTOR;
		off[i] = AREA_RANDOM + (long long)c * RND_CHUNK + (rnd() % (65 - sectors)) * SECTOR;
	}
}

static int random_offsets_verified(void)
{
	static struct iocb cb[RND_NR];
	static long long off[RND_NR], res[RND_NR];
	static size_t len[RND_NR];
	char *w = bigbuf(RND_NR * RND_CHUNK), *r = bigbuf(RND_NR * RND_CHUNK);
	aio_context_t ctx = new_ctx(MAX_BATCH);
	int fd = open_dev();

	CHECK(w && r && ctx && fd >= 0);
	random_layout(off, len);
	for (int i = 0; i < RND_NR; i++) {
		pfill(w + i * RND_CHUNK, off[i], len[i], 0x52414E44);
		prep(&cb[i], IOCB_CMD_PWRITE, fd, w + i * RND_CHUNK, len[i], off[i], i);
	}
	for (int b = 0; b < RND_NR; b += 16)	/* writes in batches of 16 */
		CHECK(!run_batch(ctx, cb + b, 16, res + b) && !all_full(cb + b, 16, res + b));
	for (int i = 0; i < RND_NR; i++)	/* reads all at once, in reverse */
		prep(&cb[i], IOCB_CMD_PREAD, fd, r + i * RND_CHUNK, len[RND_NR - 1 - i],
		     off[RND_NR - 1 - i], i);
	CHECK(!run_batch(ctx, cb, RND_NR, res) && !all_full(cb, RND_NR, res));
	for (int i = 0; i < RND_NR; i++)
		CHECK_EQ(pcheck(r + i * RND_CHUNK, off[RND_NR - 1 - i], len[RND_NR - 1 - i],
				0x52414E44), -1);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

enum { QD_OPS = 256, QD_LEN = 4096 };

/* QD_OPS requests of QD_LEN at distinct places, depth at a time; IOPS, or -1. */
static long qd_pass(aio_context_t ctx, int fd, int op, char *buf, int depth)
{
	static struct iocb cb[MAX_BATCH];
	static long long res[MAX_BATCH];
	long long t0 = utest_now_ns(), dt;

	for (int base = 0; base < QD_OPS; base += depth) {
		for (int j = 0; j < depth; j++)
			prep(&cb[j], op, fd, buf + (base + j) * QD_LEN, QD_LEN,
			     AREA_QD + (long long)(base + j) * QD_LEN, j);
		if (run_batch(ctx, cb, depth, res) || all_full(cb, depth, res))
			return -1;
	}
	dt = utest_now_ns() - t0;
	return (long)(QD_OPS * 1000000000LL / (dt ? dt : 1));
}

static int queue_depths(void)
{
	static const int depths[] = { 1, 4, 16, 32, 64 };
	char *w = bigbuf(QD_OPS * QD_LEN), *r = bigbuf(QD_OPS * QD_LEN);
	aio_context_t ctx = new_ctx(MAX_BATCH);
	int fd = open_dev();

	CHECK(w && r && ctx && fd >= 0);
	for (unsigned i = 0; i < sizeof(depths) / sizeof(depths[0]); i++) {
		int d = depths[i];
		long wr, rd;
		pfill(w, AREA_QD, QD_OPS * QD_LEN, 0x51440000 + d);
		memset(r, 0, QD_OPS * QD_LEN);
		wr = qd_pass(ctx, fd, IOCB_CMD_PWRITE, w, d);
		rd = qd_pass(ctx, fd, IOCB_CMD_PREAD, r, d);
		CHECK(wr > 0 && rd > 0);
		CHECK_EQ(pcheck(r, AREA_QD, QD_OPS * QD_LEN, 0x51440000 + d), -1);
		utest_log("QD%d: %d x 4 KiB writes %ld IOPS, reads %ld IOPS", d, QD_OPS, wr, rd);
	}
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

enum { MIX_NR = 32, MIX_LEN = 8 * KIB };

/* Even slots are read (written before with seed A), odd ones written (seed B),
 * all in one batch. */
static int mixed_reads_and_writes(void)
{
	static struct iocb cb[MIX_NR];
	static long long res[MIX_NR];
	char *w = bigbuf(MIX_NR * MIX_LEN), *r = bigbuf(MIX_NR * MIX_LEN);
	aio_context_t ctx = new_ctx(MAX_BATCH);
	int fd = open_dev();

	CHECK(w && r && ctx && fd >= 0);
	pfill(w, AREA_MIXED, MIX_NR * MIX_LEN, 0xAAAA0001);
	CHECK_EQ(pwrite(fd, w, MIX_NR * MIX_LEN, AREA_MIXED), MIX_NR * MIX_LEN);
	pfill(w, AREA_MIXED, MIX_NR * MIX_LEN, 0xBBBB0002);
	memset(r, 0, MIX_NR * MIX_LEN);
	for (int i = 0; i < MIX_NR; i++)
		prep(&cb[i], i % 2 ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD, fd,
		     (i % 2 ? w : r) + i * MIX_LEN, MIX_LEN, AREA_MIXED + i * MIX_LEN, i);
	CHECK(!run_batch(ctx, cb, MIX_NR, res) && !all_full(cb, MIX_NR, res));
	for (int i = 0; i < MIX_NR; i += 2)
		CHECK_EQ(pcheck(r + i * MIX_LEN, AREA_MIXED + i * MIX_LEN, MIX_LEN, 0xAAAA0001), -1);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, r, MIX_NR * MIX_LEN, AREA_MIXED), MIX_NR * MIX_LEN);
	for (int i = 1; i < MIX_NR; i += 2)
		CHECK_EQ(pcheck(r + i * MIX_LEN, AREA_MIXED + i * MIX_LEN, MIX_LEN, 0xBBBB0002), -1);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* 512 B .. 1 MiB (+512), some buffers 512 bytes into a page; the large ones are
 * split into several driver requests by the glue. */
static int sizes_512_to_1m(void)
{
	static const struct { size_t len, buf_ofs; } sz[] = {
		{ 512, 0 }, { 1024, 512 }, { 4096, 0 }, { 4096, 3584 }, { 8192, 512 },
		{ 65536, 0 }, { 131072, 1024 }, { 262144, 0 }, { 524288, 512 },
		{ MIB, 0 }, { MIB, 512 }, { MIB + 512, 3584 },
	};
	char *w = bigbuf(MIB + 8192), *r = bigbuf(MIB + 8192);
	aio_context_t ctx = new_ctx(4);
	long long off = AREA_SIZES + SECTOR;	/* not 4 KiB aligned on the disk */
	int fd = open_dev();

	CHECK(w && r && ctx && fd >= 0);
	for (unsigned i = 0; i < sizeof(sz) / sizeof(sz[0]); i++) {
		CHECK(!write_read_verify(ctx, fd, w + sz[i].buf_ofs, r + sz[i].buf_ofs, sz[i].len,
					 off, 0x53495A00 + i));
		off += sz[i].len;
	}
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* User pages are GFP_HIGHUSER: touching 1 MiB of fresh anonymous memory takes
 * HighMem pages (the entry boots with lowmem=128M of 256M); the devices DMA
 * to and from them (physical addresses above 128 MiB). */
static int highmem_buffers(void)
{
	struct aiok_stat s0, s1;
	aio_context_t ctx = new_ctx(4);
	int fd = open_dev();
	char *w, *r;

	CHECK(ctx && fd >= 0);
	CHECK_EQ(aiok_stat(&s0), 0);
	CHECK(s0.free_highmem > 1024);
	w = bigbuf(MIB);
	r = bigbuf(MIB);
	CHECK(w && r);
	memset(w, 1, MIB);
	memset(r, 2, MIB);
	CHECK_EQ(aiok_stat(&s1), 0);
	utest_log("free_highmem %u -> %u pages after touching 2 MiB", s0.free_highmem,
		  s1.free_highmem);
	/* Other CPUs may free a page or two meanwhile (a previous test's task
	 * released late): most of the 512 pages, and hardly any lowmem. */
	CHECK((long)s0.free_highmem - (long)s1.free_highmem >= 2 * MIB / 4096 - 32);
	CHECK((long)(s0.free_pages - s0.free_highmem) - (long)(s1.free_pages - s1.free_highmem) < 32);
	CHECK(!write_read_verify(ctx, fd, w, r, MIB, AREA_HIGHMEM, 0x48494748));
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* Buffer, offset or length not a multiple of 512: -EINVAL at submit, nothing
 * queued, no event; plain pread/pwrite say EINVAL too. */
static int misaligned_is_einval(void)
{
	static const struct { int buf_ofs; long long off; size_t len; } bad[] = {
		{ 1, 0, 512 }, { 4, 0, 512 }, { 256, 0, 4096 }, { 0, 1, 512 }, { 0, 256, 512 },
		{ 0, 4096 + 100, 4096 }, { 0, 0, 1 }, { 0, 0, 100 }, { 0, 0, 513 }, { 0, 0, 4000 },
	};
	struct aiok_stat st;
	aio_context_t ctx = new_ctx(4);
	char *buf = bigbuf(3 * 4096);
	int fd = open_dev();
	struct iocb cb;

	CHECK(ctx && buf && fd >= 0);
	CHECK_EQ(aiok_stat(&st), 0);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		for (int op = IOCB_CMD_PREAD; op <= IOCB_CMD_PWRITE; op++) {
			prep(&cb, op, fd, buf + bad[i].buf_ofs, bad[i].len, AREA_PLAIN + bad[i].off, i);
			CHECK_EQ(submit_all(ctx, &cb, 1), -EINVAL);
		}
	CHECK(!ring_stays_empty(ctx, 20) && !utest_same_io_counters(&st));
	CHECK_ERR(pread(fd, buf + 1, 512, AREA_PLAIN), EINVAL);
	CHECK_ERR(pwrite(fd, buf, 100, AREA_PLAIN), EINVAL);
	CHECK_ERR(pread(fd, buf, 512, AREA_PLAIN + 100), EINVAL);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, buf + 512, 1024, AREA_PLAIN + 512), 1024);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, buf, 0, AREA_PLAIN), 0);	/* 0 is aligned */
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* The last sector before the largest offset: its end passes 2^63 - 1. */
#define TOP_SECTOR	0x7ffffffffffffe00LL

/* The last sector works; one past the end, or straddling it, is -EINVAL. */
static int end_of_device(void)
{
	aio_context_t ctx = new_ctx(4);
	char *w = bigbuf(8192), *r = bigbuf(8192);
	int fd = open_dev();
	long long end = lseek(fd, 0, SEEK_END);

	CHECK(ctx && w && r && fd >= 0 && end == DISK_SIZE);
	CHECK(!write_read_verify(ctx, fd, w, r, SECTOR, end - SECTOR, 0x454E4401));
	CHECK(!write_read_verify(ctx, fd, w, r, 4096, end - 4096, 0x454E4402));
	for (int op = IOCB_CMD_PREAD; op <= IOCB_CMD_PWRITE; op++) {
		CHECK_EQ(aio_rw(ctx, op, fd, r, SECTOR, end), -EINVAL);
		CHECK_EQ(aio_rw(ctx, op, fd, r, 2 * SECTOR, end - SECTOR), -EINVAL);
		CHECK_EQ(aio_rw(ctx, op, fd, r, 8192, end - 4096), -EINVAL);
		CHECK_EQ(aio_rw(ctx, op, fd, r, SECTOR, 1LL << 40), -EINVAL);
		CHECK_EQ(aio_rw(ctx, op, fd, r, SECTOR, TOP_SECTOR), -EINVAL);
		CHECK_EQ(aio_rw(ctx, op, fd, r, SECTOR, -SECTOR), -EINVAL);
	}
	CHECK_EQ(pread(fd, r, SECTOR, end - SECTOR), SECTOR);
	CHECK_ERR(pread(fd, r, 2 * SECTOR, end - SECTOR), EINVAL);
	CHECK_ERR(pwrite(fd, w, SECTOR, end), EINVAL);
	/* issue 14 finding 1: an end past 2^63 - 1 is -EINVAL on every file */
	CHECK_EQ(__sys_pread64(fd, r, SECTOR, (unsigned)TOP_SECTOR, TOP_SECTOR >> 32), -EINVAL);
	CHECK_EQ(__sys_pwrite64(fd, w, SECTOR, (unsigned)TOP_SECTOR, TOP_SECTOR >> 32), -EINVAL);
	/* fallocate: an end past 2^63 - 1 is -EFBIG before a block device's
	 * -EOPNOTSUPP (its check was a signed overflow the compiler dropped) */
	CHECK_EQ(__sys_fallocate(fd, 0, (unsigned)TOP_SECTOR, TOP_SECTOR >> 32, 1024, 0), -EFBIG);
	CHECK_EQ(__sys_fallocate(fd, 0, 0, 0, SECTOR, 0), -EOPNOTSUPP);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* FSYNC and FDSYNC through AIO complete with res 0 (alone and behind writes);
 * plain fsync and fdatasync return 0. */
static int fsync_and_fdatasync(void)
{
	struct iocb cb[4];
	long long res[4];
	aio_context_t ctx = new_ctx(8);
	char *w = bigbuf(128 * KIB);
	int fd = open_dev();

	CHECK(ctx && w && fd >= 0);
	pfill(w, AREA_SYNC, 128 * KIB, 0x53594E43);
	prep(&cb[0], IOCB_CMD_PWRITE, fd, w, 64 * KIB, AREA_SYNC, 0);
	prep(&cb[1], IOCB_CMD_PWRITE, fd, w + 64 * KIB, 64 * KIB, AREA_SYNC + 64 * KIB, 1);
	prep(&cb[2], IOCB_CMD_FSYNC, fd, NULL, 0, 0, 2);
	prep(&cb[3], IOCB_CMD_FDSYNC, fd, NULL, 0, 0, 3);
	CHECK(!run_batch(ctx, cb, 4, res));
	CHECK(res[0] == 64 * KIB && res[1] == 64 * KIB && res[2] == 0 && res[3] == 0);
	CHECK(!run_batch(ctx, cb + 2, 2, res + 2));
	CHECK(res[2] == 0 && res[3] == 0);
	CHECK_EQ(fsync(fd), 0);
	CHECK_EQ(fdatasync(fd), 0);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

enum { CAN_NR = 256, CAN_LEN = 32 * KIB };	/* fits one driver request on both */
enum { EXIT_NR = 64, EXIT_LEN = 64 * KIB };

/* Cancel everything, last first; 0 means withdrawn: result -ECANCELED. */
static int cancel_all(aio_context_t ctx, struct iocb *cb, char *cancelled, int *nr)
{
	struct io_event ev;

	*nr = 0;
	for (int i = CAN_NR - 1; i >= 0; i--) {
		long r = raw_io_cancel(ctx, &cb[i], &ev);
		if (r == -EAGAIN)
			continue;		/* on the device already, or done */
		CHECK_EQ(r, 0);
		CHECK_EQ(ev.obj, (unsigned long)&cb[i]);
		CHECK(ev.data == cb[i].aio_data);
		CHECK_EQ(ev.res, -K_ECANCELED);
		CHECK_EQ(raw_io_cancel(ctx, &cb[i], &ev), -EAGAIN);	/* only once */
		cancelled[i] = 1;
		++*nr;
	}
	return 0;
}

/* The requests not cancelled complete normally through the ring; the
 * cancelled ones never appear there. */
static int reap_uncancelled(aio_context_t ctx, struct iocb *cb, const char *cancelled, int nr)
{
	struct kernel_timespec deadline = raw_deadline_in(WAIT_NS);
	struct io_event ev[CAN_NR];
	char seen[CAN_NR] = { 0 };

	for (int got = 0, k; got < CAN_NR - nr; got += k) {
		k = raw_io_getevents_abs(ctx, CAN_NR, ev, &deadline);
		CHECK(k > 0);
		for (int j = 0; j < k; j++) {
			long i = (long)((struct iocb *)(unsigned long)ev[j].obj - cb);
			CHECK(i >= 0 && i < CAN_NR && !cancelled[i]);
			CHECK_EQ(seen[i]++, 0);
			CHECK_EQ(ev[j].res, CAN_LEN);
		}
	}
	return ring_stays_empty(ctx, 20);
}

/* CAN_NR reads and writes in one batch, then io_cancel on each: every iocb
 * ends exactly once, by io_cancel or through the ring; *nr get cancelled. */
static int cancel_round(const char *path, char *buf, int *nr)
{
	static struct iocb cb[CAN_NR];
	char cancelled[CAN_NR] = { 0 };
	struct aiok_stat st;
	aio_context_t ctx;
	int fd;

	CHECK_EQ(aiok_stat(&st), 0);
	ctx = new_ctx(CAN_NR);
	fd = open(path, O_RDWR);
	CHECK(ctx && fd >= 0);
	for (int i = 0; i < CAN_NR; i++)
		prep(&cb[i], i % 2 ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD, fd, buf + i * CAN_LEN,
		     CAN_LEN, AREA_CANCEL + (long long)i * CAN_LEN, i);
	CHECK_EQ(submit_all(ctx, cb, CAN_NR), CAN_NR);
	CHECK(!cancel_all(ctx, cb, cancelled, nr));
	CHECK(!reap_uncancelled(ctx, cb, cancelled, *nr));
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return utest_same_io_counters(&st);
}

/* On a disk that answers slowly (virtio: the null-co vdb with 2 ms latency;
 * IDE: one command at a time) requests wait in the driver's queue, and
 * io_cancel must withdraw some of them. */
static int cancel_queued_requests(void)
{
	char *buf = bigbuf(CAN_NR * CAN_LEN);
	int nr;

	CHECK(buf);
	CHECK(!cancel_round(slow_path, buf, &nr));
	utest_log("%s: %d of %d cancelled while queued", slow_path, nr, CAN_NR);
	CHECK(nr > 0);
	return 0;
}

/* On the fast disk the interrupt handler may empty the queue before user
 * space runs again: cancels race completions, and the counts must still hold. */
static int cancel_racing_completions(void)
{
	char *buf = bigbuf(CAN_NR * CAN_LEN);
	int nr[3];

	CHECK(buf);
	for (int i = 0; i < 3; i++)
		CHECK(!cancel_round(dev_path, buf, &nr[i]));
	utest_log("%s: %d, %d, %d of %d cancelled", dev_path, nr[0], nr[1], nr[2], CAN_NR);
	return 0;
}

/* A request larger than one driver request is split, and cannot be cancelled:
 * io_cancel says -EAGAIN and it completes in full. */
static int split_request_not_cancellable(void)
{
	static struct iocb cb[2];
	long long res[2];
	struct io_event ev;
	aio_context_t ctx = new_ctx(4);
	char *buf = bigbuf(2 * MIB);
	int fd = open_dev();

	CHECK(ctx && buf && fd >= 0);
	prep(&cb[0], IOCB_CMD_PREAD, fd, buf, MIB, AREA_CANCEL, 0);
	prep(&cb[1], IOCB_CMD_PREAD, fd, buf + MIB, MIB, AREA_CANCEL + MIB, 1);
	CHECK_EQ(submit_all(ctx, cb, 2), 2);
	CHECK_EQ(raw_io_cancel(ctx, &cb[1], &ev), -EAGAIN);
	CHECK(!reap(ctx, cb, 2, res) && !all_full(cb, 2, res));
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* The child: 64 requests in flight, then _exit at once. */
static void submit_and_exit(void)
{
	static struct iocb cb[EXIT_NR];
	aio_context_t ctx = new_ctx(EXIT_NR);
	char *buf = bigbuf(EXIT_NR * EXIT_LEN);
	int fd = open_dev();

	if (!ctx || !buf || fd < 0)
		_exit(2);
	for (int i = 0; i < EXIT_NR; i++)
		prep(&cb[i], i % 2 ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD, fd, buf + i * EXIT_LEN,
		     EXIT_LEN, AREA_EXIT + (long long)i * EXIT_LEN, i);
	_exit(submit_all(ctx, cb, EXIT_NR) == EXIT_NR ? 0 : 3);
}

static int exit_with_io_in_flight(void)
{
	struct aiok_stat before;
	int status;
	pid_t pid;

	CHECK_EQ(aiok_snapshot(&before), 0);
	pid = fork();
	if (pid == 0)
		submit_and_exit();
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	CHECK(!utest_same_counters(&before));
	return 0;
}

/* io_destroy with 64 requests in flight returns once they are all gone. */
static int destroy_with_io_in_flight(void)
{
	static struct iocb cb[EXIT_NR];
	struct aiok_stat st;
	char *buf = bigbuf(EXIT_NR * EXIT_LEN);
	int fd = open_dev();
	aio_context_t ctx;

	CHECK(buf && fd >= 0);
	CHECK_EQ(aiok_stat(&st), 0);
	ctx = new_ctx(EXIT_NR);
	CHECK(ctx);
	for (int i = 0; i < EXIT_NR; i++)
		prep(&cb[i], IOCB_CMD_PREAD, fd, buf + i * EXIT_LEN, EXIT_LEN,
		     AREA_EXIT + (long long)i * EXIT_LEN, i);
	CHECK_EQ(submit_all(ctx, cb, EXIT_NR), EXIT_NR);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	CHECK(!utest_same_io_counters(&st));
	close(fd);
	return 0;
}

/* A child gets 256 requests queued on the slow disk and is killed while it
 * sleeps: exit cancels the queued ones, waits for the rest, and nothing leaks. */
static void submit_and_sleep(int ready)
{
	static struct iocb cb[CAN_NR];
	aio_context_t ctx = new_ctx(CAN_NR);
	char *buf = bigbuf(CAN_NR * CAN_LEN);
	int fd = open(slow_path, O_RDWR);

	if (!ctx || !buf || fd < 0)
		_exit(2);
	for (int i = 0; i < CAN_NR; i++)
		prep(&cb[i], IOCB_CMD_PREAD, fd, buf + i * CAN_LEN, CAN_LEN,
		     AREA_CANCEL + (long long)i * CAN_LEN, i);
	if (submit_all(ctx, cb, CAN_NR) != CAN_NR)
		_exit(3);
	write(ready, "r", 1);
	for (;;)
		sleep(1);
}

static int kill_with_io_queued(void)
{
	struct aiok_stat before;
	int status, ready[2];
	pid_t pid;
	char c;

	CHECK_EQ(pipe(ready), 0);
	CHECK_EQ(aiok_snapshot(&before), 0);
	pid = fork();
	if (pid == 0)
		submit_and_sleep(ready[1]);
	CHECK_EQ(read(ready[0], &c, 1), 1);
	CHECK_EQ(kill(pid, SIGKILL), 0);
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK(!utest_same_counters(&before));
	return 0;
}

enum { FORK_NR = 64, FORK_LEN = 64 * KIB };

/* fork while reads are in flight: the data lands in the parent's buffer and
 * the child's writes to its copy never reach it. */
static int fork_with_reads_in_flight(void)
{
	static struct iocb cb[FORK_NR];
	static long long res[FORK_NR];
	char *w = bigbuf(FORK_NR * FORK_LEN), *r = bigbuf(FORK_NR * FORK_LEN);
	aio_context_t ctx = new_ctx(FORK_NR);
	int fd = open_dev();
	long bad;
	pid_t pid;

	CHECK(w && r && ctx && fd >= 0);
	pfill(w, AREA_FORK, FORK_NR * FORK_LEN, 0xF02C);
	CHECK_EQ(pwrite(fd, w, FORK_NR * FORK_LEN, AREA_FORK), FORK_NR * FORK_LEN);
	memset(r, 0x5A, FORK_NR * FORK_LEN);
	for (int i = 0; i < FORK_NR; i++)
		prep(&cb[i], IOCB_CMD_PREAD, fd, r + i * FORK_LEN, FORK_LEN,
		     AREA_FORK + (long long)i * FORK_LEN, i);
	CHECK_EQ(submit_all(ctx, cb, FORK_NR), FORK_NR);
	pid = fork();
	if (pid == 0) {
		memset(r, 0xC3, FORK_NR * FORK_LEN);
		_exit(0);
	}
	CHECK(pid > 0);
	CHECK(!reap(ctx, cb, FORK_NR, res) && !all_full(cb, FORK_NR, res));
	CHECK(utest_child_ok(pid));		/* the child wrote its copy and exited 0 */
	bad = pcheck(r, AREA_FORK, FORK_NR * FORK_LEN, 0xF02C);
	if (bad >= 0)
		utest_log("word %ld of the parent's buffer holds %08x", bad, ((unsigned *)r)[bad]);
	CHECK_EQ(bad, -1);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

enum { UNMAP_NR = 64, UNMAP_LEN = 64 * KIB };

/* The child writes from a buffer and reads into another, unmapping both
 * while the requests are in flight: the pinned pages carry the I/O. */
static int unmap_and_reap(int fd, aio_context_t ctx)
{
	static struct iocb cb[2 * UNMAP_NR];
	static long long res[2 * UNMAP_NR];
	size_t len = UNMAP_NR * UNMAP_LEN;
	char *w = bigbuf(len), *r = bigbuf(len);

	CHECK(w && r);
	pfill(w, AREA_UNMAP, len, 0x0417A9);
	for (int i = 0; i < UNMAP_NR; i++) {
		long long off = AREA_UNMAP + (long long)i * UNMAP_LEN;
		prep(&cb[i], IOCB_CMD_PWRITE, fd, w + i * UNMAP_LEN, UNMAP_LEN, off, i);
		prep(&cb[UNMAP_NR + i], IOCB_CMD_PREAD, fd, r + i * UNMAP_LEN, UNMAP_LEN,
		     off + len, UNMAP_NR + i);
	}
	CHECK_EQ(submit_all(ctx, cb, 2 * UNMAP_NR), 2 * UNMAP_NR);
	CHECK_EQ(munmap(w, len), 0);
	CHECK_EQ(munmap(r, len), 0);
	CHECK(!reap(ctx, cb, 2 * UNMAP_NR, res) && !all_full(cb, 2 * UNMAP_NR, res));
	r = bigbuf(len);
	CHECK(r);
	CHECK_EQ(pread(fd, r, len, AREA_UNMAP), (long)len);
	CHECK_EQ(pcheck(r, AREA_UNMAP, len, 0x0417A9), -1);
	return 0;
}

static int munmap_with_io_in_flight(void)
{
	struct aiok_stat before;
	int status;
	pid_t pid;

	CHECK_EQ(aiok_snapshot(&before), 0);
	pid = fork();
	if (pid == 0) {
		aio_context_t ctx = new_ctx(2 * UNMAP_NR);
		int fd = open_dev();
		_exit(ctx && fd >= 0 && !unmap_and_reap(fd, ctx) ? 0 : 1);
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(!utest_same_counters(&before));
	return 0;
}

/* Buffers the process may not write (for a read), or not map at all: -EFAULT
 * at submit, nothing left behind; writing from a read-only buffer is fine. */
static int bad_buffers_efault(void)
{
	char *ro = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *holed = bigbuf(3 * 4096);
	aio_context_t ctx = new_ctx(4);
	int fd = open_dev();
	struct aiok_stat st;

	CHECK(ro != MAP_FAILED && holed && ctx && fd >= 0);
	CHECK_EQ(munmap(holed + 4096, 4096), 0);
	CHECK_EQ(aiok_stat(&st), 0);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, ro, 4096, AREA_PLAIN), -EFAULT);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, holed, 3 * 4096, AREA_PLAIN), -EFAULT);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PWRITE, fd, holed, 3 * 4096, AREA_PLAIN), -EFAULT);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, (void *)0xC0000000, 4096, AREA_PLAIN), -EFAULT);
	CHECK_ERR(pread(fd, ro, 4096, AREA_PLAIN), EFAULT);
	CHECK(!ring_stays_empty(ctx, 10) && !utest_same_io_counters(&st));
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PWRITE, fd, ro, 4096, AREA_PLAIN), 4096);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* A buffer the process may not read (PROT_NONE) is not written to the disk,
 * by pwrite or by AIO, whole or in part: -EFAULT, at submit or in the event,
 * and nothing is left behind; neither does a read land in PROT_NONE memory
 * (issue 14, finding 4: the device read such pages through its DMA). */
static int prot_none_buffers_efault(void)
{
	char *none = mmap(NULL, 8192, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *half = bigbuf(8192);
	aio_context_t ctx = new_ctx(4);
	int fd = open_dev();
	struct aiok_stat st;
	long long r;

	CHECK(none != MAP_FAILED && half && ctx && fd >= 0);
	CHECK_EQ(munmap(half + 4096, 4096), 0);
	CHECK(mmap(half + 4096, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
	      half + 4096);
	CHECK_EQ(aiok_stat(&st), 0);
	CHECK_ERR(pwrite(fd, none, SECTOR, AREA_PLAIN), EFAULT);
	CHECK_ERR(pwrite(fd, half, 8192, AREA_PLAIN), EFAULT);
	CHECK_ERR(pread(fd, none, SECTOR, AREA_PLAIN), EFAULT);
	r = aio_rw(ctx, IOCB_CMD_PWRITE, fd, none, 4096, AREA_PLAIN);
	CHECK_EQ(r, -EFAULT);
	r = aio_rw(ctx, IOCB_CMD_PWRITE, fd, half, 8192, AREA_PLAIN);
	CHECK_EQ(r, -EFAULT);
	r = aio_rw(ctx, IOCB_CMD_PREAD, fd, none, 4096, AREA_PLAIN);
	CHECK_EQ(r, -EFAULT);
	CHECK(!ring_stays_empty(ctx, 10) && !utest_same_io_counters(&st));
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PWRITE, fd, half, 4096, AREA_PLAIN), 4096);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* A batch stops at the first bad iocb: the ones before it are queued (and
 * started: the batch's notification is not lost) and complete. */
static int partial_batch(void)
{
	struct iocb cb[3];
	long long res[3];
	aio_context_t ctx = new_ctx(4);
	char *buf = bigbuf(3 * 4096);
	int fd = open_dev();

	CHECK(ctx && buf && fd >= 0);
	prep(&cb[0], IOCB_CMD_PREAD, fd, buf, 4096, AREA_PLAIN, 0);
	prep(&cb[1], IOCB_CMD_PREAD, fd, buf + 4096, 4000, AREA_PLAIN, 1);
	prep(&cb[2], IOCB_CMD_PREAD, fd, buf + 8192, 4096, AREA_PLAIN, 2);
	CHECK_EQ(submit_all(ctx, cb, 3), 1);
	CHECK(!reap(ctx, cb, 1, res));
	CHECK_EQ(res[0], 4096);
	CHECK(!ring_stays_empty(ctx, 10));
	CHECK_EQ(submit_all(ctx, cb + 1, 2), -EINVAL);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* read/write/pread/pwrite on the device see what AIO wrote, and the reverse. */
static int plain_io_agrees_with_aio(void)
{
	enum { LEN = 16 * KIB };
	aio_context_t ctx = new_ctx(4);
	char *w = bigbuf(LEN), *r = bigbuf(LEN);
	long long a = AREA_PLAIN + 64 * KIB, b = a + LEN, c = b + LEN;
	int fd = open_dev();

	CHECK(ctx && w && r && fd >= 0);
	pfill(w, a, LEN, 0x504C4101);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PWRITE, fd, w, LEN, a), LEN);
	CHECK_EQ(pread(fd, r, LEN, a), LEN);
	CHECK_EQ(pcheck(r, a, LEN, 0x504C4101), -1);
	pfill(w, b, LEN, 0x504C4102);
	CHECK_EQ(pwrite(fd, w, LEN, b), LEN);
	memset(r, 0, LEN);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, r, LEN, b), LEN);
	CHECK_EQ(pcheck(r, b, LEN, 0x504C4102), -1);
	pfill(w, c, LEN, 0x504C4103);
	CHECK_EQ(lseek(fd, c, SEEK_SET), c);
	CHECK_EQ(write(fd, w, LEN), LEN);
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), c + LEN);
	CHECK_EQ(lseek(fd, c, SEEK_SET), c);
	memset(r, 0, LEN);
	CHECK_EQ(read(fd, r, LEN), LEN);
	CHECK_EQ(pcheck(r, c, LEN, 0x504C4103), -1);
	memset(r, 0, LEN);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, r, LEN, c), LEN);
	CHECK_EQ(pcheck(r, c, LEN, 0x504C4103), -1);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* IDE's hdb is 130 GiB (sparse): 64-bit offsets travel from the iocb to an
 * LBA48 command, including requests that straddle the LBA28 limit (2^28
 * sectors). newlib's off_t is 32 bits, so the size comes from the raw fstat64. */
static int lba48_offsets(void)
{
	static const long long at[] = {
		(1LL << 28) * SECTOR - 4 * SECTOR, (1LL << 28) * SECTOR - 512 * KIB, 129LL << 30,
	};
	struct kernel_stat64 k;
	struct kernel_stat old;
	aio_context_t ctx = new_ctx(4);
	char *w = bigbuf(MIB), *r = bigbuf(MIB);
	int fd = open("/dev/hdb", O_RDWR);

	CHECK(ctx && w && r && fd >= 0);
	CHECK_EQ(raw_syscall4(197, fd, (long)&k, 0, 0), 0);	/* fstat64 */
	CHECK_EQ(raw_syscall4(108, fd, (long)&old, 0, 0), -75);	/* fstat: EOVERFLOW */
	CHECK(S_ISBLK(k.st_mode));
	CHECK_EQ(k.st_size, 130LL << 30);
	CHECK(!write_read_verify(ctx, fd, w, r, 8 * SECTOR, at[0], 0x4C424101));
	CHECK(!write_read_verify(ctx, fd, w, r, MIB, at[1], 0x4C424102));
	CHECK(!write_read_verify(ctx, fd, w, r, 64 * KIB, at[2], 0x4C424103));
	CHECK(!write_read_verify(ctx, fd, w, r, SECTOR, k.st_size - SECTOR, 0x4C424104));
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, r, 2 * SECTOR, k.st_size - SECTOR), -EINVAL);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}


/* /proc/aiok/blk: driver requests sent and user pages moved in place. */
static int blk_counters(unsigned long *requests, unsigned long *pages)
{
	char buf[128] = { 0 };
	int fd = open("/proc/aiok/blk", O_RDONLY);
	int n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	return n > 0 && sscanf(buf, "requests %lu pages_pinned %lu", requests, pages) == 2 ? 0 : -1;
}

/* One vectored request, waited for: its result, the submit error, or BAD_RES. */
static long long aio_vec(aio_context_t ctx, int op, int fd, struct iovec *iov, int nr, long long off,
			 unsigned rw_flags)
{
	struct iocb cb;
	long long res = BAD_RES;
	long r;

	prep(&cb, op, fd, iov, nr, off, 0);
	cb.aio_rw_flags = rw_flags;
	r = submit_all(ctx, &cb, 1);
	if (r != 1)
		return r < 0 ? r : BAD_RES;
	return reap(ctx, &cb, 1, &res) ? BAD_RES : res;
}

/* PWRITEV/PREADV: the segments go to consecutive sectors as one device
 * request (one contiguous run), straight from the user's pages (each one
 * pinned, none copied), and read back into a different segmentation. */
static int vectored_zero_copy(void)
{
	aio_context_t ctx = new_ctx(4);
	char *w = bigbuf(64 * KIB), *r = bigbuf(64 * KIB), *flat = bigbuf(16 * KIB);
	struct iovec wv[3] = { { w, 4 * KIB }, { w + 8 * KIB, 8 * KIB }, { w + 20 * KIB, 4 * KIB } };
	struct iovec rv[2] = { { r + SECTOR, SECTOR }, { r + 8 * KIB + SECTOR, 15 * KIB + SECTOR } };
	unsigned long req0, pages0, req1, pages1;
	int fd = open_dev();

	CHECK(ctx && w && r && flat && fd >= 0);
	pfill(w, AREA_VEC, 4 * KIB, 0x56454331);
	pfill(w + 8 * KIB, AREA_VEC + 4 * KIB, 8 * KIB, 0x56454331);
	pfill(w + 20 * KIB, AREA_VEC + 12 * KIB, 4 * KIB, 0x56454331);
	CHECK_EQ(blk_counters(&req0, &pages0), 0);
	CHECK_EQ(aio_vec(ctx, IOCB_CMD_PWRITEV, fd, wv, 3, AREA_VEC, 0), 16 * KIB);
	CHECK_EQ(blk_counters(&req1, &pages1), 0);
	CHECK_EQ(req1 - req0, 1);			/* one request for the run */
	CHECK_EQ(pages1 - pages0, 4);			/* the 4 user pages, in place */
	CHECK_EQ(pread(fd, flat, 16 * KIB, AREA_VEC), 16 * KIB);
	CHECK_EQ(pcheck(flat, AREA_VEC, 16 * KIB, 0x56454331), -1);
	CHECK_EQ(aio_vec(ctx, IOCB_CMD_PREADV, fd, rv, 2, AREA_VEC, 0), 16 * KIB);
	CHECK_EQ(pcheck(r + SECTOR, AREA_VEC, SECTOR, 0x56454331), -1);
	CHECK_EQ(pcheck(r + 8 * KIB + SECTOR, AREA_VEC + SECTOR, 15 * KIB + SECTOR, 0x56454331), -1);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* Many segments share requests up to the driver's limits (far fewer requests
 * than segments); misaligned segments are -EINVAL; RWF_DSYNC writes (a flush
 * before the event) and RWF_NOWAIT ones complete as usual. */
static int vectored_many_and_flags(void)
{
	enum { NSEG = 40 };
	aio_context_t ctx = new_ctx(4);
	char *w = bigbuf(2 * NSEG * 4 * KIB), *flat = bigbuf(NSEG * 4 * KIB);
	struct iovec v[NSEG];
	unsigned long req0, pages0, req1, pages1;
	int fd = open_dev();

	CHECK(ctx && w && flat && fd >= 0);
	for (int i = 0; i < NSEG; i++) {
		v[i] = (struct iovec){ w + 2 * i * 4 * KIB, 4 * KIB };
		pfill(v[i].iov_base, AREA_VEC + MIB + i * 4 * KIB, 4 * KIB, 0x56454332);
	}
	CHECK_EQ(blk_counters(&req0, &pages0), 0);
	CHECK_EQ(aio_vec(ctx, IOCB_CMD_PWRITEV, fd, v, NSEG, AREA_VEC + MIB, RWF_DSYNC),
		 NSEG * 4 * KIB);
	CHECK_EQ(blk_counters(&req1, &pages1), 0);
	CHECK(req1 - req0 >= 1 && req1 - req0 <= NSEG / 4);
	CHECK_EQ(pages1 - pages0, NSEG);
	CHECK_EQ(pread(fd, flat, NSEG * 4 * KIB, AREA_VEC + MIB), NSEG * 4 * KIB);
	CHECK_EQ(pcheck(flat, AREA_VEC + MIB, NSEG * 4 * KIB, 0x56454332), -1);
	CHECK_EQ(aio_vec(ctx, IOCB_CMD_PREADV, fd, v, NSEG, AREA_VEC + MIB, RWF_NOWAIT | RWF_HIPRI),
		 NSEG * 4 * KIB);
	v[1].iov_base = w + 100;			/* a segment off a sector boundary */
	CHECK_EQ(aio_vec(ctx, IOCB_CMD_PREADV, fd, v, 2, AREA_VEC, 0), -EINVAL);
	v[1] = (struct iovec){ w + 4 * KIB, 100 };	/* a length that is no sector count */
	CHECK_EQ(aio_vec(ctx, IOCB_CMD_PREADV, fd, v, 2, AREA_VEC, 0), -EINVAL);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

#define BLK_CASES \
	UTEST(fstat_reports_device_size), \
	UTEST(random_offsets_verified), \
	UTEST(queue_depths), \
	UTEST(mixed_reads_and_writes), \
	UTEST(sizes_512_to_1m), \
	UTEST(highmem_buffers), \
	UTEST(misaligned_is_einval), \
	UTEST(end_of_device), \
	UTEST(fsync_and_fdatasync), \
	UTEST(cancel_queued_requests), \
	UTEST(cancel_racing_completions), \
	UTEST(split_request_not_cancellable), \
	UTEST(exit_with_io_in_flight), \
	UTEST(destroy_with_io_in_flight), \
	UTEST(kill_with_io_queued), \
	UTEST(fork_with_reads_in_flight), \
	UTEST(munmap_with_io_in_flight), \
	UTEST(bad_buffers_efault), \
	UTEST(prot_none_buffers_efault), \
	UTEST(partial_batch), \
	UTEST(plain_io_agrees_with_aio), \
	UTEST(vectored_zero_copy), \
	UTEST(vectored_many_and_flags),

static const struct utest_case blk_cases[] = {
	BLK_CASES
};

/* IDE adds the 130 GiB hdb: LBA48 offsets from user space. */
static const struct utest_case ide_cases[] = {
	BLK_CASES
	UTEST(lba48_offsets),
};

/* ---- suite blk_aio_pattern (tools/blk_aio_check.py verifies the images) ---- */

/* Keep in step with tools/blk_aio_check.py: (sector, count, buffer offset). */
static const struct { long long sector; unsigned count, buf_ofs; } pattern_regions[] = {
	{ 0, 1, 0 }, { 1, 7, 512 }, { 8, 2048, 0 }, { 4096, 256, 1024 }, { 20000, 2049, 3584 },
};
#define PATTERN_SCATTER		64	/* one sector at PATTERN_SCATTER_AT + 3 * i */
#define PATTERN_SCATTER_AT	10000
#define PATTERN_TAIL		8	/* the last sectors of the disk */

/* Batch 1: the regions and the tail; batch 2: the scattered sectors. */
static int pattern_batches(aio_context_t ctx, int fd, char *buf, long long end, unsigned seed)
{
	static struct iocb cb[MAX_BATCH];
	static long long res[MAX_BATCH];
	int n = sizeof(pattern_regions) / sizeof(pattern_regions[0]);

	for (int i = 0; i <= n; i++) {
		long long off = i < n ? pattern_regions[i].sector * SECTOR : end - PATTERN_TAIL * SECTOR;
		size_t len = (i < n ? pattern_regions[i].count : PATTERN_TAIL) * SECTOR;
		char *p = buf + i * (2 * MIB) + (i < n ? pattern_regions[i].buf_ofs : 0);
		pfill(p, off, len, seed);
		prep(&cb[i], IOCB_CMD_PWRITE, fd, p, len, off, i);
	}
	CHECK(!run_batch(ctx, cb, n + 1, res) && !all_full(cb, n + 1, res));
	for (int i = 0; i < PATTERN_SCATTER; i++) {
		long long off = (PATTERN_SCATTER_AT + 3LL * i) * SECTOR;
		pfill(buf + i * 4096, off, SECTOR, seed);
		prep(&cb[i], IOCB_CMD_PWRITE, fd, buf + i * 4096, SECTOR, off, i);
	}
	CHECK(!run_batch(ctx, cb, PATTERN_SCATTER, res) && !all_full(cb, PATTERN_SCATTER, res));
	return 0;
}

/* Read every region back through AIO and check it here too. */
static int pattern_readback(aio_context_t ctx, int fd, char *buf, long long end, unsigned seed)
{
	int n = sizeof(pattern_regions) / sizeof(pattern_regions[0]);

	for (int i = 0; i <= n; i++) {
		long long off = i < n ? pattern_regions[i].sector * SECTOR : end - PATTERN_TAIL * SECTOR;
		size_t len = (i < n ? pattern_regions[i].count : PATTERN_TAIL) * SECTOR;
		memset(buf, 0, len);
		CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, buf, len, off), (long long)len);
		CHECK_EQ(pcheck(buf, off, len, seed), -1);
	}
	for (int i = 0; i < PATTERN_SCATTER; i++) {
		long long off = (PATTERN_SCATTER_AT + 3LL * i) * SECTOR;
		CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, buf, SECTOR, off), SECTOR);
		CHECK_EQ(pcheck(buf, off, SECTOR, seed), -1);
	}
	return 0;
}

static int write_pattern(unsigned seed)
{
	int n = sizeof(pattern_regions) / sizeof(pattern_regions[0]);
	char *buf = bigbuf((n + 1) * 2 * MIB);
	aio_context_t ctx = new_ctx(MAX_BATCH);
	int fd = open_dev();
	long long end = lseek(fd, 0, SEEK_END);

	CHECK(buf && ctx && fd >= 0 && end >= 16LL * MIB);
	CHECK(!pattern_batches(ctx, fd, buf, end, seed));
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_FSYNC, fd, NULL, 0, 0), 0);
	CHECK(!pattern_readback(ctx, fd, buf, end, seed));
	CHECK_EQ(fsync(fd), 0);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* Seeds: keep in step with the blk_aio_host_check entry of tools/testplan. */
static int write_pattern_vda(void)
{
	dev_path = "/dev/vda";
	return write_pattern(0x56444102);
}

static int write_pattern_hda(void)
{
	dev_path = "/dev/hda";
	return write_pattern(0x48444102);
}

static const struct utest_case pattern_cases[] = {
	UTEST(write_pattern_vda),
	UTEST(write_pattern_hda),
};

/* ---- suite blk_aio_fault: blkdebug fails every read touching BAD_SECTOR ---- */

/* Reads covering the bad sector complete with -EIO; their neighbours do not. */
static int read_bad_sector(aio_context_t ctx, int fd, char *buf)
{
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, buf, SECTOR, BAD_SECTOR * SECTOR), -EIO);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, buf, 20 * SECTOR, (BAD_SECTOR - 10) * SECTOR),
		 -EIO);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, buf, 8 * SECTOR, (BAD_SECTOR + 1) * SECTOR),
		 8 * SECTOR);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, buf, 64 * SECTOR, 0), 64 * SECTOR);
	return 0;
}

/* 16 one-sector reads around the bad sector in one batch (every other sector,
 * so QEMU cannot merge them): only the one of the bad sector fails. */
static int batch_one_fails(aio_context_t ctx, int fd, char *buf)
{
	struct iocb cb[16];
	long long res[16];

	for (int i = 0; i < 16; i++)
		prep(&cb[i], IOCB_CMD_PREAD, fd, buf + i * 4096, SECTOR,
		     (BAD_SECTOR - 16 + 2LL * i) * SECTOR, i);
	CHECK(!run_batch(ctx, cb, 16, res));
	for (int i = 0; i < 16; i++)
		CHECK_EQ(res[i], i == 8 ? -EIO : SECTOR);
	return 0;
}

/* A 1 MiB read is split into several driver requests; one failing part fails
 * the whole request, once. */
static int split_read_fails(aio_context_t ctx, int fd, char *buf)
{
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, buf, MIB, (BAD_SECTOR - 600) * SECTOR), -EIO);
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PREAD, fd, buf, MIB, 4 * MIB), MIB);
	return 0;
}

/* Writes are not affected; plain pread sees EIO; the disk still works after. */
static int writes_and_plain_io(aio_context_t ctx, int fd, char *buf)
{
	CHECK_EQ(aio_rw(ctx, IOCB_CMD_PWRITE, fd, buf, SECTOR, BAD_SECTOR * SECTOR), SECTOR);
	CHECK_ERR(pread(fd, buf, SECTOR, BAD_SECTOR * SECTOR), EIO);
	CHECK_EQ(pread(fd, buf, 4096, 3000 * SECTOR), 4096);
	return write_read_verify(ctx, fd, buf, buf + MIB, 64 * KIB, 6 * MIB, 0xFA017);
}

/* Run one fault check on dev with fresh resources; the counters must balance. */
static int fault_case(const char *dev, int (*fn)(aio_context_t, int, char *))
{
	struct aiok_stat st;
	aio_context_t ctx;
	char *buf = bigbuf(2 * MIB);
	int fd;

	dev_path = dev;
	CHECK_EQ(aiok_stat(&st), 0);
	ctx = new_ctx(32);
	fd = open_dev();
	CHECK(buf && ctx && fd >= 0);
	CHECK(!fn(ctx, fd, buf));
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return utest_same_io_counters(&st);
}

#define FAULT_CASE(fn, dev) \
	static int fn##_##dev(void) { return fault_case("/dev/" #dev, fn); }
FAULT_CASE(read_bad_sector, vda)
FAULT_CASE(batch_one_fails, vda)
FAULT_CASE(split_read_fails, vda)
FAULT_CASE(writes_and_plain_io, vda)
FAULT_CASE(read_bad_sector, hda)
FAULT_CASE(batch_one_fails, hda)
FAULT_CASE(split_read_fails, hda)
FAULT_CASE(writes_and_plain_io, hda)

static const struct utest_case fault_cases[] = {
	UTEST(read_bad_sector_vda),
	UTEST(batch_one_fails_vda),
	UTEST(split_read_fails_vda),
	UTEST(writes_and_plain_io_vda),
	UTEST(read_bad_sector_hda),
	UTEST(batch_one_fails_hda),
	UTEST(split_read_fails_hda),
	UTEST(writes_and_plain_io_hda),
};

/* ---- modes ---- */

#define NCASES(t)	((int)(sizeof(t) / sizeof((t)[0])))

static const struct mode {
	const char *name, *suite, *dev, *slow;
	const struct utest_case *cases;
	int n;
} modes[] = {
	{ "virtio", "blk_virtio", "/dev/vda", "/dev/vdb", blk_cases, NCASES(blk_cases) },
	{ "ide", "blk_ide", "/dev/hda", "/dev/hda", ide_cases, NCASES(ide_cases) },
	{ "pattern", "blk_aio_pattern", NULL, NULL, pattern_cases, NCASES(pattern_cases) },
	{ "fault", "blk_aio_fault", NULL, NULL, fault_cases, NCASES(fault_cases) },
};

int main(int argc, char **argv)
{
	char *args[] = { argv[0], argc > 2 ? argv[2] : NULL, NULL };

	for (int i = 0; argc > 1 && i < NCASES(modes); i++) {
		if (strcmp(argv[1], modes[i].name))
			continue;
		if (modes[i].dev) {
			dev_path = modes[i].dev;
			slow_path = modes[i].slow;
		}
		return utest_main(argc > 2 ? 2 : 1, args, modes[i].suite, modes[i].cases,
				  modes[i].n);
	}
	printf("usage: test_blk virtio|ide|pattern|fault [CASE]\n");
	return 2;
}
