/* test_file_aio.c: suite file_aio: buffered AIO on an ext2 file (kernel/fs/ext2/aio.c).
 *
 *   test_file_aio DEV [CASE]   mount DEV (an image test_ext2 has run on) at /mnt/f;
 *                              a read the page cache holds completes inside io_submit
 *                              (its event is in the mapped ring when the call returns),
 *                              a miss completes later from the worker; every opcode;
 *                              cancel of queued requests; io_destroy with requests in
 *                              flight; umount frees every cached page (of this file
 *                              system: the only one mounted with file pages cached);
 *                              O_DIRECT AIO (sent from io_submit when the map is
 *                              cached; overwrites too, appends by the worker; a
 *                              request over several block runs as one device
 *                              request per run; a truncate waits for direct I/O
 *                              in flight);
 *                              read-ahead behind sequential reads
 *                              (/proc/aiok/ext2's counters); misses sent to the device
 *                              from io_submit (one device read for two readers of a
 *                              page, cancel of one in flight, cancel of ones whose
 *                              fills are still queued, a hit on another file
 *                              meanwhile). Leaves /direct.bin too. Leaves /aio.bin
 *                              and /aiov.bin for tools/ext2_image.py check.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include "aio_raw.h"
#include <aiokern.h>
#include "lx_syscall.h"
#include "ext2_pattern.h"
#include "ext2_stat.h"
#include "utest.h"

#define MNT		"/mnt/f"
#define NCASES(a)	((int)(sizeof(a) / sizeof((a)[0])))
#define NR_MOUNT	21
#define NR_UMOUNT2	52
#define K_EAGAIN	11
#define K_EINVAL	22
#define FILE_KB		256		/* /mnt/f/aio.bin */
#define NREQ		16
#define WAIT_NS		10000000000LL

static const char *dev_path;
static unsigned char big[FILE_KB * 1024], got[FILE_KB * 1024];

static long do_mount(void)
{
	return lx_syscall(NR_MOUNT, (long)dev_path, (long)MNT, (long)"ext2", 0, 0);
}

static long do_umount(void)
{
	return lx_syscall(NR_UMOUNT2, (long)MNT, 0, 0, 0, 0);
}

static long ext2_pages(void)
{
	struct aiok_stat st;

	return aiok_stat(&st) ? -1 : (long)st.ext2_pages;
}

/* Events in the mapped ring now (the kernel's tail against our head). */
static unsigned ring_ready(aio_context_t ctx)
{
	volatile struct aio_ring *r = (struct aio_ring *)ctx;

	return (r->tail + r->nr - r->head) % r->nr;
}

/* Wait for n events into ev: the count. */
static long wait_events(aio_context_t ctx, long n, struct io_event *ev)
{
	struct kernel_timespec when = raw_deadline_in(WAIT_NS);
	long got_n = 0, r;

	while (got_n < n) {
		r = raw_io_getevents_abs(ctx, n - got_n, ev + got_n, &when);
		if (r <= 0)
			break;
		got_n += r;
	}
	return got_n;
}

/* One request submitted and waited for: its event's res (or a big negative). */
static long long one(aio_context_t ctx, struct iocb *cb)
{
	struct iocb *list[1] = { cb };
	struct io_event ev;

	if (raw_io_submit(ctx, 1, list) != 1 || wait_events(ctx, 1, &ev) != 1)
		return -999999;
	return ev.res;
}

/* Unmount and mount again: the page cache starts cold. */
static int remount(void)
{
	CHECK_EQ(do_umount(), 0);
	CHECK_EQ(do_mount(), 0);
	return 0;
}

static int setup(void)
{
	int fd;

	CHECK(mkdir("/mnt", 0755) == 0 || errno == EEXIST);
	CHECK(mkdir(MNT, 0755) == 0 || errno == EEXIST);
	CHECK_EQ(do_mount(), 0);
	fd = open(MNT "/aio.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	fill(big, 5, 0, sizeof(big));
	CHECK_EQ(write(fd, big, sizeof(big)), sizeof(big));
	CHECK_EQ(fsync(fd), 0);
	close(fd);
	return remount();
}

/* A read of pages not cached completes after io_submit returned (the worker
 * reads the disk); the same read again is a hit, complete inside io_submit. */
static int miss_then_hit(void)
{
	aio_context_t ctx = 0;
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev;
	long long t0, t_hit;
	int fd = open(MNT "/aio.bin", O_RDONLY);

	CHECK(fd >= 0);
	CHECK_EQ(raw_io_setup(8, &ctx), 0);
	raw_prep(&cb, IOCB_CMD_PREAD, fd, got, 65536, 65536, 1);
	memset(got, 0, 65536);
	CHECK_EQ(raw_io_submit(ctx, 1, list), 1);
	CHECK_EQ(ring_ready(ctx), 0);		/* a miss: not done yet */
	CHECK_EQ(wait_events(ctx, 1, &ev), 1);
	CHECK_EQ(ev.res, 65536);
	CHECK(same(got, 5, 65536, 65536));
	memset(got, 0, 65536);
	t0 = utest_now_ns();
	CHECK_EQ(raw_io_submit(ctx, 1, list), 1);
	t_hit = utest_now_ns() - t0;
	CHECK_EQ(ring_ready(ctx), 1);		/* a hit: the event is there already */
	CHECK_EQ(wait_events(ctx, 1, &ev), 1);
	CHECK_EQ(ev.res, 65536);
	CHECK(same(got, 5, 65536, 65536));
	utest_log("64 KiB hit: io_submit %lld us, event in the ring on return", t_hit / 1000);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* PWRITE, PWRITEV, PREADV, FSYNC, FDSYNC, an RWF_DSYNC write and RWF_APPEND
 * writes, each checked. */
static int every_opcode(void)
{
	aio_context_t ctx = 0;
	struct iocb cb, *list[1] = { &cb };
	static unsigned char v1[3000], v2[5192], r1[3000], r2[5192];
	struct iovec wv[2] = { { v1, sizeof(v1) }, { v2, sizeof(v2) } };
	struct iovec rv[2] = { { r1, sizeof(r1) }, { r2, sizeof(r2) } };
	int fd = open(MNT "/aio.bin", O_RDWR), fv = open(MNT "/aiov.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);

	CHECK(fd >= 0 && fv >= 0);
	CHECK_EQ(raw_io_setup(8, &ctx), 0);
	fill(got, 6, 4000, 10000);		/* bytes 4000..14000 of aio.bin: seed 6 */
	raw_prep(&cb, IOCB_CMD_PWRITE, fd, got, 10000, 4000, 2);
	CHECK_EQ(one(ctx, &cb), 10000);
	fill(v1, 8, 0, sizeof(v1));
	fill(v2, 8, sizeof(v1), sizeof(v2));
	raw_prep(&cb, IOCB_CMD_PWRITEV, fv, wv, 2, 0, 3);
	CHECK_EQ(one(ctx, &cb), sizeof(v1) + sizeof(v2));
	raw_prep(&cb, IOCB_CMD_FSYNC, fv, NULL, 0, 0, 4);
	CHECK_EQ(one(ctx, &cb), 0);
	raw_prep(&cb, IOCB_CMD_PREADV, fv, rv, 2, 0, 5);
	CHECK_EQ(one(ctx, &cb), sizeof(r1) + sizeof(r2));
	CHECK(same(r1, 8, 0, sizeof(r1)) && same(r2, 8, sizeof(r1), sizeof(r2)));
	fill(got, 7, 200000, 8192);		/* RWF_DSYNC: on the disk before its event */
	raw_prep(&cb, IOCB_CMD_PWRITE, fd, got, 8192, 200000, 6);
	cb.aio_rw_flags = RWF_DSYNC;
	CHECK_EQ(one(ctx, &cb), 8192);
	raw_prep(&cb, IOCB_CMD_FDSYNC, fd, NULL, 0, 0, 7);
	CHECK_EQ(one(ctx, &cb), 0);
	memset(got, 0, sizeof(got));
	raw_prep(&cb, IOCB_CMD_PREAD, fd, got, sizeof(got) + 100, 0, 8);	/* to the end */
	CHECK_EQ(one(ctx, &cb), sizeof(got));
	CHECK(same(got, 5, 0, 4000) && same(got + 4000, 6, 4000, 10000));
	CHECK(same(got + 14000, 5, 14000, 200000 - 14000) && same(got + 200000, 7, 200000, 8192));
	CHECK(same(got + 208192, 5, 208192, sizeof(got) - 208192));
	raw_prep(&cb, IOCB_CMD_PREAD, fd, got, 100, sizeof(got), 9);	/* at the end: 0 */
	CHECK_EQ(one(ctx, &cb), 0);
	{					/* RWF_APPEND, two in one io_submit */
		struct iocb ap[2], *apl[2] = { &ap[0], &ap[1] };
		struct io_event aev[2];
		struct stat st;
		int fa = open(MNT "/append.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
		CHECK(fa >= 0);
		fill(v1, 14, 0, 1000);
		raw_prep(&ap[0], IOCB_CMD_PWRITE, fa, v1, 600, 0, 11);
		raw_prep(&ap[1], IOCB_CMD_PWRITE, fa, v1 + 600, 400, 0, 12);
		ap[0].aio_rw_flags = ap[1].aio_rw_flags = RWF_APPEND;
		CHECK_EQ(raw_io_submit(ctx, 2, apl), 2);
		CHECK_EQ(wait_events(ctx, 2, aev), 2);
		CHECK(aev[0].res == 600 || aev[0].res == 400);
		CHECK_EQ(fstat(fa, &st), 0);
		CHECK_EQ(st.st_size, 1000);
		CHECK_EQ(pread(fa, r1, 1000, 0), 1000);
		CHECK(same(r1, 14, 0, 1000));
		close(fa);
		CHECK_EQ(unlink(MNT "/append.bin"), 0);
	}
	raw_prep(&cb, IOCB_CMD_PREAD, fd, got, 100, -1, 10);
	CHECK_EQ(raw_io_submit(ctx, 1, list), -K_EINVAL);	/* a negative offset */
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	close(fv);
	return 0;
}

/* NREQ reads of cold pages: the worker takes one at a time, so the last is
 * still queued: io_cancel withdraws it (-ECANCELED, no ring event); the
 * rest complete with the right bytes. */
static int cancel_queued(void)
{
	aio_context_t ctx = 0;
	static struct iocb cbs[NREQ];
	struct iocb *list[NREQ];
	struct io_event ev[NREQ], res;
	int fd;

	CHECK_EQ(remount(), 0);
	fd = open(MNT "/aio.bin", O_RDONLY);
	CHECK(fd >= 0);
	CHECK_EQ(raw_io_setup(NREQ, &ctx), 0);
	for (int i = 0; i < NREQ; i++) {
		raw_prep(&cbs[i], IOCB_CMD_PREAD, fd, got + i * 16384, 16384, 16384 + i * 4096, i);
		list[i] = &cbs[i];
	}
	CHECK_EQ(raw_io_submit(ctx, NREQ, list), NREQ);
	CHECK_EQ(raw_io_cancel(ctx, &cbs[NREQ - 1], &res), 0);
	CHECK_EQ(res.res, -K_ECANCELED);
	CHECK_EQ(res.data, NREQ - 1);
	CHECK_EQ(wait_events(ctx, NREQ - 1, ev), NREQ - 1);
	for (int i = 0; i < NREQ - 1; i++) {
		unsigned k = ev[i].data;
		CHECK(k < NREQ - 1);
		CHECK_EQ(ev[i].res, 16384);
		CHECK(same(got + k * 16384, 5, 16384 + k * 4096, 16384));
	}
	CHECK_EQ(ring_ready(ctx), 0);		/* nothing for the cancelled one */
	CHECK_EQ(raw_io_cancel(ctx, &cbs[0], &res), -K_EAGAIN);	/* done: too late */
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* RWF_NOWAIT on a miss: the event says -EAGAIN, nothing is queued. */
static int nowait_miss(void)
{
	aio_context_t ctx = 0;
	struct iocb cb;
	long long r;
	int fd;

	CHECK_EQ(remount(), 0);
	fd = open(MNT "/aio.bin", O_RDONLY);
	CHECK(fd >= 0);
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	raw_prep(&cb, IOCB_CMD_PREAD, fd, got, 4096, 0, 1);
	cb.aio_rw_flags = RWF_NOWAIT;
	CHECK_EQ(one(ctx, &cb), -K_EAGAIN);
	cb.aio_rw_flags = 0;
	CHECK_EQ(one(ctx, &cb), 4096);		/* now cached */
	cb.aio_rw_flags = RWF_NOWAIT;
	/* a hit; -EAGAIN only while the flusher holds the file system's lock */
	for (int tries = 0; (r = one(ctx, &cb)) == -K_EAGAIN && tries < 5; tries++)
		usleep(2000);
	CHECK_EQ(r, 4096);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	return 0;
}

/* O_DIRECT: zero-copy between the user's pages and the disk, split at the
 * file's block runs (a 64 KiB read crosses the indirect block), coherent
 * with the page cache (a dirty cached page is written back first; a direct
 * write drops the cached pages it covers), extending the file, stopping at
 * its end; unaligned requests are -EINVAL at io_submit. */
static int direct_io(void)
{
	static unsigned char dbuf[131072] __attribute__((aligned(4096)));
	aio_context_t ctx = 0;
	struct iocb cb, *list[1] = { &cb };
	struct iovec rv[2] = { { dbuf, 4096 }, { dbuf + 4096, 8192 } };
	struct io_event ev;
	long long t0, t_sub, t_all;
	struct stat st;
	int fb = open(MNT "/direct.bin", O_RDWR | O_CREAT | O_TRUNC, 0644), fd;

	CHECK(fb >= 0);
	fill(big, 10, 0, sizeof(big));
	CHECK_EQ(write(fb, big, sizeof(big)), sizeof(big));
	CHECK_EQ(fsync(fb), 0);
	fd = open(MNT "/direct.bin", O_RDWR | O_DIRECT);
	CHECK(fd >= 0);
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	fill(got, 11, 8192, 4096);
	CHECK_EQ(pwrite(fb, got, 4096, 8192), 4096);	/* dirty in the page cache */
	raw_prep(&cb, IOCB_CMD_PREAD, fd, dbuf, 65536, 0, 1);
	t0 = utest_now_ns();
	CHECK_EQ(raw_io_submit(ctx, 1, list), 1);
	t_sub = utest_now_ns() - t0;
	CHECK_EQ(wait_events(ctx, 1, &ev), 1);
	t_all = utest_now_ns() - t0;
	CHECK_EQ(ev.res, 65536);
	utest_log("64 KiB O_DIRECT read: io_submit %lld us, event after %lld us",
		  t_sub / 1000, t_all / 1000);
	CHECK(same(dbuf, 10, 0, 8192) && same(dbuf + 8192, 11, 8192, 4096));
	CHECK(same(dbuf + 12288, 10, 12288, 65536 - 12288));
	fill(dbuf, 12, 65536, 65536);
	raw_prep(&cb, IOCB_CMD_PWRITE, fd, dbuf, 65536, 65536, 2);
	CHECK_EQ(one(ctx, &cb), 65536);
	CHECK_EQ(pread(fb, got, 65536, 65536), 65536);	/* the cache sees it */
	CHECK(same(got, 12, 65536, 65536));
	memset(dbuf, 0, 12288);
	raw_prep(&cb, IOCB_CMD_PREADV, fd, rv, 2, 65536, 3);
	CHECK_EQ(one(ctx, &cb), 12288);
	CHECK(same(dbuf, 12, 65536, 12288));
	fill(dbuf, 13, 262144, 4096);			/* extends the file */
	raw_prep(&cb, IOCB_CMD_PWRITE, fd, dbuf, 4096, 262144, 4);
	CHECK_EQ(one(ctx, &cb), 4096);
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, 266240);
	memset(dbuf, 0, 8192);
	raw_prep(&cb, IOCB_CMD_PREAD, fd, dbuf, 8192, 262144, 5);	/* to the end */
	CHECK_EQ(one(ctx, &cb), 4096);
	CHECK(same(dbuf, 13, 262144, 4096));
	raw_prep(&cb, IOCB_CMD_PREAD, fd, dbuf, 4096, 100, 6);
	CHECK_EQ(raw_io_submit(ctx, 1, list), -K_EINVAL);	/* unaligned offset */
	raw_prep(&cb, IOCB_CMD_PREAD, fd, dbuf + 8, 4096, 0, 7);
	CHECK_EQ(raw_io_submit(ctx, 1, list), -K_EINVAL);	/* unaligned buffer */
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	close(fb);
	return 0;
}

/* Write n bytes of pattern seed as file name (buffered, fsynced, closed: an
 * inode's last close frees its pages, so the file starts cold). */
static int put_pattern(const char *name, unsigned seed, unsigned n)
{
	int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);

	CHECK(fd >= 0);
	fill(big, seed, 0, n);
	CHECK_EQ(write(fd, big, n), n);
	CHECK_EQ(fsync(fd), 0);
	CHECK_EQ(close(fd), 0);
	return 0;
}

/* O_DIRECT reads whose block map is cached go to the device from io_submit
 * itself (dio_direct counts them; the worker's aio_queued does not move), and
 * read the right bytes; one whose indirect block is not cached (a fresh
 * mount) goes to the worker, which reads the map and sends it without waiting
 * (dio_async); over a dirty cached page a direct read goes to the worker,
 * which writes the page back first, and sees its bytes. */
static int direct_in_submit(void)
{
	static unsigned char dbuf[8 * 4096] __attribute__((aligned(4096)));
	static struct iocb cbs[8];
	struct iocb *list[8];
	struct io_event ev[8];
	aio_context_t ctx = 0;
	long q0, d0, a0, sent;
	int fd, fb;

	CHECK_EQ(put_pattern(MNT "/dfast.bin", 21, 2 * sizeof(dbuf)), 0);
	CHECK_EQ(remount(), 0);			/* the indirect block leaves the cache */
	fd = open(MNT "/dfast.bin", O_RDONLY | O_DIRECT);
	CHECK(fd >= 0);
	CHECK_EQ(raw_io_setup(8, &ctx), 0);
	q0 = ext2_stat("aio_queued");
	a0 = ext2_stat("dio_async");
	raw_prep(&cbs[0], IOCB_CMD_PREAD, fd, dbuf, 4096, 61440, 0);	/* file block 15+ */
	CHECK_EQ(one(ctx, &cbs[0]), 4096);	/* the map is cached now */
	CHECK(same(dbuf, 21, 61440, 4096));
	CHECK_EQ(ext2_stat("aio_queued") - q0, 1);
	CHECK_EQ(ext2_stat("dio_async") - a0, 1);
	/* a plain read waits for the file system's lock: the worker, which may
	 * still hold it after its request's interrupt woke us, has let go */
	CHECK_EQ(pread(fd, got, 512, 0), 512);
	q0 = ext2_stat("aio_queued");
	d0 = ext2_stat("dio_direct");
	CHECK(q0 >= 0 && d0 >= 0);
	for (int i = 0; i < 8; i++) {
		raw_prep(&cbs[i], IOCB_CMD_PREAD, fd, dbuf + i * 4096, 4096, i * 4096, i);
		list[i] = &cbs[i];
	}
	memset(dbuf, 0, sizeof(dbuf));
	CHECK_EQ(raw_io_submit(ctx, 8, list), 8);
	CHECK_EQ(wait_events(ctx, 8, ev), 8);
	for (int i = 0; i < 8; i++)
		CHECK_EQ(ev[i].res, 4096);
	CHECK(same(dbuf, 21, 0, sizeof(dbuf)));
	sent = ext2_stat("dio_direct") - d0;
	utest_log("8 O_DIRECT reads: %ld sent from io_submit, %ld to the worker", sent,
		  ext2_stat("aio_queued") - q0);
	CHECK(sent >= 6);			/* (a flush holding the lock sends one on) */
	CHECK_EQ(sent + ext2_stat("aio_queued") - q0, 8);
	fb = open(MNT "/dfast.bin", O_RDWR);
	CHECK(fb >= 0);
	fill(got, 22, 8192, 4096);
	CHECK_EQ(pwrite(fb, got, 4096, 8192), 4096);	/* dirty in the page cache */
	q0 = ext2_stat("aio_queued");
	raw_prep(&cbs[0], IOCB_CMD_PREAD, fd, dbuf, 4096, 8192, 9);
	CHECK_EQ(one(ctx, &cbs[0]), 4096);
	CHECK(same(dbuf, 22, 8192, 4096));
	CHECK_EQ(ext2_stat("aio_queued") - q0, 1);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fb);
	close(fd);
	CHECK_EQ(unlink(MNT "/dfast.bin"), 0);
	return 0;
}

/* O_DIRECT overwrites of an allocated file whose map is cached go to the
 * device from io_submit (dio_direct_writes counts them; aio_queued does not
 * move) after the clean cached pages over them are dropped: a buffered read
 * afterwards sees the direct bytes. An append goes to the worker, which
 * grows the file after its data is written; so does a write on an O_APPEND
 * descriptor (at the end, whatever its offset: never over block 0). After a
 * remount an overwrite whose indirect block is not cached goes to the
 * worker, which reads the map and sends it without waiting (dio_async). */
static int direct_write_in_submit(void)
{
	static unsigned char dbuf[8 * 4096] __attribute__((aligned(4096)));
	static struct iocb cbs[8];
	struct iocb *list[8];
	struct io_event ev[8];
	aio_context_t ctx = 0;
	long q0, w0, sent;
	struct stat st;
	int fd, fb;

	CHECK_EQ(put_pattern(MNT "/dw.bin", 31, 65536), 0);
	fd = open(MNT "/dw.bin", O_RDWR | O_DIRECT);
	fb = open(MNT "/dw.bin", O_RDONLY);
	CHECK(fd >= 0 && fb >= 0);
	CHECK_EQ(pread(fb, got, 65536, 0), 65536);	/* clean pages cached, map too */
	CHECK(same(got, 31, 0, 65536));
	CHECK_EQ(raw_io_setup(8, &ctx), 0);
	q0 = ext2_stat("aio_queued");
	w0 = ext2_stat("dio_direct_writes");
	CHECK(q0 >= 0 && w0 >= 0);
	for (int i = 0; i < 8; i++) {
		fill(dbuf + i * 4096, 32, i * 8192, 4096);
		raw_prep(&cbs[i], IOCB_CMD_PWRITE, fd, dbuf + i * 4096, 4096, i * 8192, i);
		list[i] = &cbs[i];
	}
	CHECK_EQ(raw_io_submit(ctx, 8, list), 8);
	CHECK_EQ(wait_events(ctx, 8, ev), 8);
	for (int i = 0; i < 8; i++)
		CHECK_EQ(ev[i].res, 4096);
	sent = ext2_stat("dio_direct_writes") - w0;
	utest_log("8 O_DIRECT overwrites: %ld sent from io_submit, %ld to the worker", sent,
		  ext2_stat("aio_queued") - q0);
	CHECK(sent >= 6);			/* (a flush holding the lock sends one on) */
	CHECK_EQ(sent + ext2_stat("aio_queued") - q0, 8);
	CHECK_EQ(pread(fb, got, 65536, 0), 65536);	/* the stale pages were dropped */
	for (int i = 0; i < 8; i++)
		CHECK(same(got + i * 8192, 32, i * 8192, 4096) &&
		      same(got + i * 8192 + 4096, 31, i * 8192 + 4096, 4096));
	q0 = ext2_stat("aio_queued");
	w0 = ext2_stat("dio_direct_writes");
	fill(dbuf, 33, 65536, 8192);		/* an append: the worker allocates */
	raw_prep(&cbs[0], IOCB_CMD_PWRITE, fd, dbuf, 8192, 65536, 9);
	CHECK_EQ(one(ctx, &cbs[0]), 8192);
	CHECK_EQ(ext2_stat("aio_queued") - q0, 1);
	CHECK_EQ(ext2_stat("dio_direct_writes") - w0, 0);
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, 65536 + 8192);
	CHECK_EQ(pread(fb, got, 8192, 65536), 8192);
	CHECK(same(got, 33, 65536, 8192));
	close(fd);
	fd = open(MNT "/dw.bin", O_RDWR | O_DIRECT | O_APPEND);	/* offset 0: the end */
	CHECK(fd >= 0);
	fill(dbuf, 34, 73728, 4096);
	raw_prep(&cbs[0], IOCB_CMD_PWRITE, fd, dbuf, 4096, 0, 10);
	CHECK_EQ(one(ctx, &cbs[0]), 4096);
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, 73728 + 4096);
	CHECK_EQ(pread(fb, got, 4096, 0), 4096);
	CHECK(same(got, 32, 0, 4096));			/* not overwritten */
	CHECK_EQ(pread(fb, got, 4096, 73728), 4096);
	CHECK(same(got, 34, 73728, 4096));
	close(fb);
	close(fd);
	CHECK_EQ(remount(), 0);			/* the indirect block leaves the cache */
	fd = open(MNT "/dw.bin", O_RDWR | O_DIRECT);
	CHECK(fd >= 0);
	q0 = ext2_stat("aio_queued");
	w0 = ext2_stat("dio_async");
	fill(dbuf, 35, 61440, 4096);		/* file block 15+: the worker reads the map */
	raw_prep(&cbs[0], IOCB_CMD_PWRITE, fd, dbuf, 4096, 61440, 11);
	CHECK_EQ(one(ctx, &cbs[0]), 4096);
	CHECK_EQ(ext2_stat("aio_queued") - q0, 1);
	CHECK_EQ(ext2_stat("dio_async") - w0, 1);	/* then sends it without waiting */
	CHECK_EQ(pread(fd, got, 4096, 61440), 4096);	/* (buffered on this descriptor) */
	CHECK(same(got, 35, 61440, 4096));
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	CHECK_EQ(unlink(MNT "/dw.bin"), 0);
	return 0;
}

/* The block runs an inode's O_DIRECT lookups cached are forgotten when its
 * blocks are freed: a file read directly (its run cached), truncated to 0,
 * its blocks taken by another file, then written again, reads its new bytes
 * directly, never the other file's through a stale run. */
static int direct_run_after_truncate(void)
{
	static unsigned char dbuf[16384] __attribute__((aligned(4096)));
	aio_context_t ctx = 0;
	struct iocb cb;
	int fd, fb;

	CHECK_EQ(put_pattern(MNT "/runa.bin", 41, 65536), 0);
	fd = open(MNT "/runa.bin", O_RDWR | O_DIRECT);
	fb = open(MNT "/runa.bin", O_RDWR);
	CHECK(fd >= 0 && fb >= 0);
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	raw_prep(&cb, IOCB_CMD_PREAD, fd, dbuf, sizeof(dbuf), 0, 1);
	CHECK_EQ(one(ctx, &cb), (long long)sizeof(dbuf));	/* its first run cached */
	CHECK(same(dbuf, 41, 0, sizeof(dbuf)));
	CHECK_EQ(ftruncate(fb, 0), 0);				/* the blocks freed */
	CHECK_EQ(put_pattern(MNT "/runb.bin", 42, 65536), 0);	/* and taken */
	fill(got, 43, 0, 65536);
	CHECK_EQ(pwrite(fb, got, 65536, 0), 65536);		/* new blocks */
	CHECK_EQ(fsync(fb), 0);
	memset(dbuf, 0, sizeof(dbuf));
	raw_prep(&cb, IOCB_CMD_PREAD, fd, dbuf, sizeof(dbuf), 0, 2);
	CHECK_EQ(one(ctx, &cb), (long long)sizeof(dbuf));
	CHECK(same(dbuf, 43, 0, sizeof(dbuf)));
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	close(fb);
	CHECK_EQ(unlink(MNT "/runa.bin"), 0);
	CHECK_EQ(unlink(MNT "/runb.bin"), 0);
	return 0;
}

#define RUNS_LEN	131072		/* file blocks 0-31 at least: past block 12 */

/* Submit cb until io_submit sends it itself in several runs (dio_multi moves;
 * the periodic flusher holding the file system's lock sends a try to the
 * worker now and then): its event's res, or a big negative. */
static long long one_multi(aio_context_t ctx, struct iocb *cb, long *tries)
{
	long m0 = ext2_stat("dio_multi"), q0 = ext2_stat("aio_queued");
	long long res = -999999;

	for (*tries = 1; *tries <= 5; (*tries)++) {
		res = one(ctx, cb);
		if (ext2_stat("dio_multi") != m0 && ext2_stat("aio_queued") == q0)
			return res;
		m0 = ext2_stat("dio_multi");
		q0 = ext2_stat("aio_queued");
	}
	return -999998;				/* never sent from io_submit */
}

/* O_DIRECT reads and overwrites whose range covers several block runs (the
 * direct blocks, then past the indirect block that lies between block 11
 * and block 12 on the disk), their map cached, go to the device from
 * io_submit, one request per run (dio_multi; the worker's aio_queued does
 * not move), and complete once with every byte; vectored too, its segments
 * cut at the runs' edge. */
static int direct_runs_in_submit(void)
{
	static unsigned char dbuf[RUNS_LEN] __attribute__((aligned(4096)));
	struct iovec rv[3] = { { dbuf, 12288 }, { dbuf + 12288, 36864 },
			       { dbuf + 49152, RUNS_LEN - 49152 } };
	aio_context_t ctx = 0;
	long w0, tries;
	struct iocb cb;
	int fd, fb;

	CHECK_EQ(put_pattern(MNT "/runs.bin", 51, 2 * RUNS_LEN), 0);
	fd = open(MNT "/runs.bin", O_RDWR | O_DIRECT);
	fb = open(MNT "/runs.bin", O_RDONLY);
	CHECK(fd >= 0 && fb >= 0);
	CHECK_EQ(pread(fb, got, 4096, RUNS_LEN), 4096);	/* the indirect block cached */
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	raw_prep(&cb, IOCB_CMD_PREAD, fd, dbuf, RUNS_LEN, 0, 1);
	CHECK_EQ(one_multi(ctx, &cb, &tries), RUNS_LEN);
	CHECK(same(dbuf, 51, 0, RUNS_LEN));
	utest_log("a %d KiB O_DIRECT read over two runs: sent from io_submit (try %ld)",
		  RUNS_LEN / 1024, tries);
	memset(dbuf, 0, RUNS_LEN);
	raw_prep(&cb, IOCB_CMD_PREADV, fd, rv, 3, 4096, 2);
	CHECK_EQ(one_multi(ctx, &cb, &tries), RUNS_LEN);
	CHECK(same(dbuf, 51, 4096, RUNS_LEN));
	w0 = ext2_stat("dio_direct_writes");
	fill(dbuf, 52, 0, RUNS_LEN);
	raw_prep(&cb, IOCB_CMD_PWRITE, fd, dbuf, RUNS_LEN, 0, 3);
	CHECK_EQ(one_multi(ctx, &cb, &tries), RUNS_LEN);
	CHECK(ext2_stat("dio_direct_writes") > w0);
	CHECK_EQ(pread(fb, got, RUNS_LEN, 0), RUNS_LEN);	/* the cache dropped */
	CHECK(same(got, 52, 0, RUNS_LEN));
	CHECK_EQ(pread(fb, got, 4096, RUNS_LEN), 4096);	/* past it: untouched */
	CHECK(same(got, 51, RUNS_LEN, 4096));
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	close(fb);
	CHECK_EQ(unlink(MNT "/runs.bin"), 0);
	return 0;
}

#define TR_REQ		32
#define TR_LEN		16384
#define TR_OFF		65536			/* past the direct blocks */
#define TR_SIZE		(TR_OFF + TR_REQ * TR_LEN)

/* A file of n bytes of pattern seed, written 256 KiB at a time (fsynced; cold after close). */
static int put_big(const char *name, unsigned seed, unsigned n)
{
	int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);

	CHECK(fd >= 0);
	for (unsigned off = 0; off < n; off += sizeof(big)) {
		unsigned len = n - off < sizeof(big) ? n - off : sizeof(big);
		fill(big, seed, off, len);
		CHECK_EQ(write(fd, big, len), len);
	}
	CHECK_EQ(fsync(fd), 0);
	CHECK_EQ(close(fd), 0);
	return 0;
}

/* The events of the truncate test: res as asked; a read that ended before
 * the truncate returned (before) holds the old file's bytes. Up to late of
 * them may be requests the worker ran after the truncate (any res >= 0:
 * a worker may finish them before the ring is looked at). */
static int tr_check(const struct io_event *ev, long n, const unsigned char *dbuf, int before,
		    long late)
{
	for (long i = 0; i < n; i++) {
		int k = (int)ev[i].data;
		int whole = ev[i].res == TR_LEN;
		CHECK(whole || (ev[i].res >= 0 && (!before || late-- > 0)));
		if (before && whole && !(k & 1))
			CHECK(same(dbuf + k * TR_LEN, 41, TR_OFF + k * TR_LEN, TR_LEN));
	}
	return 0;
}

/* A truncate while 32 O_DIRECT requests (16 reads, 16 overwrites) are in
 * flight on the file waits for them: when ftruncate returns, every request
 * sent from io_submit has its event in the ring (without the wait most are
 * still on the device); the few a broken run sent to the worker run after
 * it. At once a new file takes the freed blocks: it reads back as written
 * (no overwrite landed in it) and the reads that ended first saw the old
 * file's bytes (none of the new file's). e2fsck -fn checks the image later. */
static int truncate_waits_direct(void)
{
	static unsigned char dbuf[TR_REQ * TR_LEN] __attribute__((aligned(4096)));
	static struct iocb cbs[TR_REQ];
	struct iocb *list[TR_REQ];
	struct io_event ev[TR_REQ];
	aio_context_t ctx = 0;
	long d0, sent, ready;
	int fd;

	CHECK_EQ(put_big(MNT "/tr.bin", 41, TR_SIZE), 0);
	fd = open(MNT "/tr.bin", O_RDWR | O_DIRECT);
	CHECK(fd >= 0);
	CHECK_EQ(pread(fd, got, 512, TR_SIZE - 512), 512);	/* the map is cached */
	CHECK_EQ(raw_io_setup(TR_REQ, &ctx), 0);
	for (int i = 0; i < TR_REQ; i++) {
		unsigned char *b = dbuf + i * TR_LEN;
		int wr = i & 1;
		if (wr)
			fill(b, 43, TR_OFF + i * TR_LEN, TR_LEN);
		else
			memset(b, 0, TR_LEN);
		raw_prep(&cbs[i], wr ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD, fd, b, TR_LEN,
			 TR_OFF + i * TR_LEN, i);
		list[i] = &cbs[i];
	}
	d0 = ext2_stat("dio_direct") + ext2_stat("dio_direct_writes");
	CHECK_EQ(raw_io_submit(ctx, TR_REQ, list), TR_REQ);
	sent = ext2_stat("dio_direct") + ext2_stat("dio_direct_writes") - d0;
	CHECK_EQ(ftruncate(fd, 0), 0);
	ready = ring_ready(ctx);
	CHECK_EQ(put_big(MNT "/tr2.bin", 42, TR_SIZE), 0);	/* takes the freed blocks */
	utest_log("ftruncate returned with %ld of the %ld direct requests sent from io_submit "
		  "ended (%ld to the worker)", ready, sent, TR_REQ - sent);
	CHECK(sent >= TR_REQ / 2);
	CHECK(ready >= sent);
	CHECK_EQ(wait_events(ctx, ready, ev), ready);
	CHECK_EQ(tr_check(ev, ready, dbuf, 1, TR_REQ - sent), 0);
	CHECK_EQ(wait_events(ctx, TR_REQ - ready, ev), TR_REQ - ready);
	CHECK_EQ(tr_check(ev, TR_REQ - ready, dbuf, 0, 0), 0);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	CHECK_EQ(remount(), 0);				/* read the new file from the disk */
	fd = open(MNT "/tr2.bin", O_RDONLY);
	CHECK(fd >= 0);
	for (unsigned off = 0; off < TR_SIZE; off += 65536) {
		CHECK_EQ(pread(fd, big, 65536, off), 65536);
		CHECK(same(big, 42, off, 65536));
	}
	close(fd);
	CHECK_EQ(unlink(MNT "/tr.bin"), 0);
	CHECK_EQ(unlink(MNT "/tr2.bin"), 0);
	return 0;
}

/* Sequential 16 KiB buffered reads of a cold file, one at a time: the
 * worker reads a growing window ahead (ra_pages moves), so most reads after
 * the first misses find their pages cached and complete inside io_submit;
 * every byte is right. */
static int readahead_sequential(void)
{
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev;
	aio_context_t ctx = 0;
	long ra0 = ext2_stat("ra_pages");
	int fd, inside = 0;

	CHECK(ra0 >= 0);
	CHECK_EQ(put_pattern(MNT "/seq.bin", 23, FILE_KB * 1024), 0);
	fd = open(MNT "/seq.bin", O_RDONLY);
	CHECK(fd >= 0);
	CHECK_EQ(raw_io_setup(4, &ctx), 0);
	memset(got, 0, sizeof(got));
	for (unsigned off = 0; off < FILE_KB * 1024; off += 16384) {
		raw_prep(&cb, IOCB_CMD_PREAD, fd, got + off, 16384, off, off);
		CHECK_EQ(raw_io_submit(ctx, 1, list), 1);
		inside += ring_ready(ctx) == 1;
		CHECK_EQ(wait_events(ctx, 1, &ev), 1);
		CHECK_EQ(ev.res, 16384);
	}
	CHECK(same(got, 23, 0, FILE_KB * 1024));
	utest_log("%d of %d sequential reads complete inside io_submit, %ld pages read ahead",
		  inside, FILE_KB / 16, ext2_stat("ra_pages") - ra0);
	CHECK(inside >= FILE_KB / 16 / 2);	/* none without read-ahead */
	CHECK(ext2_stat("ra_pages") - ra0 >= FILE_KB / 4 / 2);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	CHECK_EQ(unlink(MNT "/seq.bin"), 0);
	return 0;
}

/* ---- misses sent to the device from io_submit (kernel/fs/ext2/aread.c) ---- */

static unsigned char abuf[512 * 1024];


/* Read all of name (n bytes) with O_DIRECT: its block map (indirect blocks)
 * is cached afterwards, none of its pages are. */
static int warm_map(aio_context_t ctx, const char *name, unsigned n)
{
	static unsigned char dbuf[65536] __attribute__((aligned(4096)));
	struct iocb cb;
	int fd = open(name, O_RDONLY | O_DIRECT);

	CHECK(fd >= 0);
	for (unsigned off = 0; off < n; off += sizeof(dbuf)) {
		raw_prep(&cb, IOCB_CMD_PREAD, fd, dbuf, sizeof(dbuf), off, 0);
		CHECK_EQ(one(ctx, &cb), n - off < sizeof(dbuf) ? n - off : sizeof(dbuf));
	}
	close(fd);
	return 0;
}

/* A cold file with its map cached, mounted afresh: ctx set up, fd open. */
static int cold_file(const char *name, unsigned seed, unsigned n, aio_context_t *ctx, int *fd)
{
	CHECK_EQ(put_big(name, seed, n), 0);
	CHECK_EQ(remount(), 0);
	CHECK_EQ(raw_io_setup(8, ctx), 0);
	CHECK_EQ(warm_map(*ctx, name, n), 0);
	*fd = open(name, O_RDONLY);
	CHECK(*fd >= 0);
	return 0;
}

/* A buffered read that misses, its map cached, is sent to the device from
 * io_submit and completes from the reads' completions: aread_sent moves, the
 * worker's aio_queued does not; every byte is right. */
static int miss_from_device(void)
{
	aio_context_t ctx = 0;
	struct iocb cb;
	long q0, s0, f0;
	int fd;

	CHECK_EQ(cold_file(MNT "/amiss.bin", 31, 256 * 1024, &ctx, &fd), 0);
	q0 = ext2_stat("aio_queued");
	s0 = ext2_stat("aread_sent");
	f0 = ext2_stat("fill_pages");
	CHECK(q0 >= 0 && s0 >= 0 && f0 >= 0);
	memset(got, 0, 65536);
	raw_prep(&cb, IOCB_CMD_PREAD, fd, got, 65536, 65536, 1);
	CHECK_EQ(one(ctx, &cb), 65536);
	CHECK(same(got, 31, 65536, 65536));
	utest_log("64 KiB miss: %ld sent from io_submit, %ld to the worker, %ld pages filled",
		  ext2_stat("aread_sent") - s0, ext2_stat("aio_queued") - q0,
		  ext2_stat("fill_pages") - f0);
	CHECK_EQ(ext2_stat("aread_sent") - s0, 1);
	CHECK_EQ(ext2_stat("aio_queued") - q0, 0);
	CHECK(ext2_stat("fill_pages") - f0 >= 16);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	CHECK_EQ(unlink(MNT "/amiss.bin"), 0);
	return 0;
}

/* Two readers (two open files) of the same missing page in one io_submit,
 * for each page of a cold file in a random order: each page is read from
 * the device once (fill_pages), the second reader joins the first's fill
 * (fill_joined) or hits; both get the right bytes. */
static int one_fill_two_readers(void)
{
	static unsigned char b1[4096], b2[4096];
	struct iocb cbs[2], *list[2] = { &cbs[0], &cbs[1] };
	struct io_event ev[2];
	aio_context_t ctx = 0;
	long f0, j0;
	int fd, f2;

	CHECK_EQ(cold_file(MNT "/ajoin.bin", 32, 64 * 1024, &ctx, &fd), 0);
	f2 = open(MNT "/ajoin.bin", O_RDONLY);
	CHECK(f2 >= 0);
	f0 = ext2_stat("fill_pages");
	j0 = ext2_stat("fill_joined");
	CHECK(f0 >= 0 && j0 >= 0);
	for (unsigned k = 0; k < 16; k++) {
		unsigned off = (k * 7 % 16) * 4096;	/* no read-ahead: not sequential */
		raw_prep(&cbs[0], IOCB_CMD_PREAD, fd, b1, 4096, off, 1);
		raw_prep(&cbs[1], IOCB_CMD_PREAD, f2, b2, 4096, off, 2);
		CHECK_EQ(raw_io_submit(ctx, 2, list), 2);
		CHECK_EQ(wait_events(ctx, 2, ev), 2);
		CHECK(ev[0].res == 4096 && ev[1].res == 4096);
		CHECK(same(b1, 32, off, 4096) && same(b2, 32, off, 4096));
	}
	utest_log("16 pages, 2 readers each: %ld device reads, %ld readers joined a fill",
		  ext2_stat("fill_pages") - f0, ext2_stat("fill_joined") - j0);
	CHECK_EQ(ext2_stat("fill_pages") - f0, 16);
	CHECK(ext2_stat("fill_joined") - j0 >= 1);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	close(f2);
	CHECK_EQ(unlink(MNT "/ajoin.bin"), 0);
	return 0;
}

/* io_cancel of a read whose fill is in flight: -EAGAIN (a device read is not
 * withdrawn), and the request completes with every byte. */
static int cancel_during_fill(void)
{
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev, res;
	aio_context_t ctx = 0;
	long s0 = ext2_stat("aread_sent");
	int fd;

	CHECK_EQ(cold_file(MNT "/acancel.bin", 33, 256 * 1024, &ctx, &fd), 0);
	memset(got, 0, sizeof(got));
	raw_prep(&cb, IOCB_CMD_PREAD, fd, got, sizeof(got), 0, 7);
	CHECK_EQ(raw_io_submit(ctx, 1, list), 1);
	CHECK_EQ(raw_io_cancel(ctx, &cb, &res), -K_EAGAIN);
	CHECK_EQ(wait_events(ctx, 1, &ev), 1);
	CHECK_EQ(ev.data, 7);
	CHECK_EQ(ev.res, sizeof(got));
	CHECK(same(got, 33, 0, sizeof(got)));
	CHECK_EQ(ring_ready(ctx), 0);
	CHECK_EQ(ext2_stat("aread_sent") - s0, 1);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	CHECK_EQ(unlink(MNT "/acancel.bin"), 0);
	return 0;
}

#define QF_BIG		48		/* O_DIRECT reads of 256 KiB queued ahead (12 MiB; with
				 * 16, a loaded host's first round often lost the race) */
#define QF_LEN		262144		/* R2's page and R3's follow */

/* One round of cancel_queued_fill: QF_BIG O_DIRECT reads of 256 KiB (more
 * than a virtqueue or an IDE channel takes at once), then in the same
 * io_submit a buffered 4 KiB miss alone on its page (R2) and two on one page
 * (R3, R4 joins its fill), their fills queued behind; one of R2 (which 0) or
 * R3 (which 1) cancelled at once (one cancel a round: between two, a loaded
 * host let the device reach the second fill). Returns the cancel's result,
 * its event in *r and the fills withdrawn meanwhile in *withdrawn; -1000 when
 * a check failed. */
static long qf_round(aio_context_t ctx, unsigned char *dbuf, unsigned char (*b)[4096],
		     int which, struct io_event *r, long *withdrawn)
{
	struct iocb cbs[QF_BIG + 3], *list[QF_BIG + 3];
	struct io_event ev[QF_BIG + 3];
	long want, s0, w0, j0, c;
	int fd, fdd;

	if (remount() || warm_map(ctx, MNT "/aqfill.bin", QF_LEN + 8192))
		return -1000;
	fd = open(MNT "/aqfill.bin", O_RDONLY);
	fdd = open(MNT "/aqfill.bin", O_RDONLY | O_DIRECT);
	if (fd < 0 || fdd < 0)
		return -1000;
	for (int i = 0; i < QF_BIG; i++)
		raw_prep(&cbs[i], IOCB_CMD_PREAD, fdd, dbuf, QF_LEN, 0, i);
	raw_prep(&cbs[QF_BIG], IOCB_CMD_PREAD, fd, b[0], 4096, QF_LEN, 100);
	raw_prep(&cbs[QF_BIG + 1], IOCB_CMD_PREAD, fd, b[1], 4096, QF_LEN + 4096, 101);
	raw_prep(&cbs[QF_BIG + 2], IOCB_CMD_PREAD, fd, b[2], 4096, QF_LEN + 4096, 102);
	for (int i = 0; i < QF_BIG + 3; i++)
		list[i] = &cbs[i];
	memset(b, 0, 3 * 4096);
	s0 = ext2_stat("aread_sent");
	w0 = ext2_stat("fill_withdrawn");
	j0 = ext2_stat("fill_joined");
	if (raw_io_submit(ctx, QF_BIG + 3, list) != QF_BIG + 3)
		return -1000;
	c = raw_io_cancel(ctx, &cbs[QF_BIG + which], r);
	if (c != 0 && c != -K_EAGAIN)
		return -1000;
	want = QF_BIG + 3 - (c == 0);
	if (wait_events(ctx, want, ev) != want || ring_ready(ctx) != 0)
		return -1000;
	for (int i = 0; i < want; i++)
		if ((c == 0 && ev[i].data == (unsigned)(100 + which)) ||
		    ev[i].res != (ev[i].data < QF_BIG ? QF_LEN : 4096))
			return -1000;
	if (!same(dbuf, 34, 0, QF_LEN) || !same(b[2], 34, QF_LEN + 4096, 4096))
		return -1000;			/* R4 has its bytes, the cancel or not */
	if (!(c == 0 && which == 0) && !same(b[0], 34, QF_LEN, 4096))
		return -1000;			/* R2 completed: its bytes */
	if (!(c == 0 && which == 1) && !same(b[1], 34, QF_LEN + 4096, 4096))
		return -1000;
	if (ext2_stat("aread_sent") - s0 != 3 || ext2_stat("fill_joined") - j0 < 1)
		return -1000;
	*withdrawn = ext2_stat("fill_withdrawn") - w0;
	close(fd);
	close(fdd);
	return c;
}

/* io_cancel of buffered misses sent from io_submit whose page fills are still
 * in the driver's queue: the fill R2 alone waits for is withdrawn
 * (fill_withdrawn), the one R4 shares with R3 stays and R4 gets its bytes;
 * each cancel returns 0 with the event -ECANCELED (none in the ring), the
 * others complete with their bytes; the withdrawn page is not left busy: read
 * again, it holds its bytes. A round where the device took the fill first
 * (-EAGAIN, the event in the ring with its bytes) is tried again, a few times. */
static int cancel_queued_fill(void)
{
	static unsigned char b[3][4096], dbuf[QF_LEN] __attribute__((aligned(4096)));
	aio_context_t ctx = 0;
	struct io_event r[2];
	long c[2] = { 1, 1 }, w[2] = { -1, -1 };
	struct iocb cb;
	int fd;

	CHECK_EQ(put_big(MNT "/aqfill.bin", 34, QF_LEN + 8192), 0);
	CHECK_EQ(raw_io_setup(QF_BIG + 8, &ctx), 0);
	for (int which = 1; which >= 0; which--) {	/* the lone one last: its page is read again below */
		for (int round = 1; round <= 8 && c[which]; round++) {
			c[which] = qf_round(ctx, dbuf, b, which, &r[which], &w[which]);
			CHECK(c[which] != -1000);
			utest_log("%s fill's read, round %d: io_cancel %ld, fills withdrawn %ld",
				  which ? "the shared" : "the lone", round, c[which], w[which]);
		}
	}
	CHECK(c[0] == 0 && c[1] == 0);
	CHECK(r[0].data == 100 && r[0].res == -125 && r[1].data == 101 && r[1].res == -125);
	CHECK_EQ(w[0], 1);				/* R2's */
	CHECK_EQ(w[1], 0);				/* R3's fill stayed for R4 */
	fd = open(MNT "/aqfill.bin", O_RDONLY);
	CHECK(fd >= 0);
	raw_prep(&cb, IOCB_CMD_PREAD, fd, b[0], 4096, QF_LEN, 1);
	CHECK_EQ(one(ctx, &cb), 4096);			/* filled again */
	CHECK(same(b[0], 34, QF_LEN, 4096));
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	CHECK_EQ(unlink(MNT "/aqfill.bin"), 0);
	return 0;
}

/* A hit on one file while another file's 512 KiB miss is being read: the hit
 * completes inside io_submit (no lock of the file system is held across the
 * other's device reads), in every round. */
static int hit_during_slow_fill(void)
{
	struct iocb ca, cb, *la[1] = { &ca }, *lb[1] = { &cb };
	static unsigned char hb[4096];
	struct io_event ev[2];
	aio_context_t ctx = 0;
	int fd, fh, pending = 0;

	CHECK_EQ(put_big(MNT "/ahit.bin", 35, 16384), 0);
	CHECK_EQ(cold_file(MNT "/aslow.bin", 34, 2048 * 1024, &ctx, &fd), 0);
	fh = open(MNT "/ahit.bin", O_RDONLY);
	CHECK(fh >= 0);
	CHECK_EQ(pread(fh, hb, 4096, 0), 4096);		/* cached */
	for (unsigned r = 0; r < 4; r++) {
		long n, a_done = 0, b_done = 0;
		raw_prep(&ca, IOCB_CMD_PREAD, fd, abuf, sizeof(abuf), r * sizeof(abuf), 1);
		raw_prep(&cb, IOCB_CMD_PREAD, fh, hb, 4096, 0, 2);
		CHECK_EQ(raw_io_submit(ctx, 1, la), 1);
		if (r)
			usleep(r * 300);		/* 0-900 us into the other's reads */
		CHECK_EQ(raw_io_submit(ctx, 1, lb), 1);
		n = raw_getevents_now(ctx, 2, ev);
		for (long i = 0; i < n; i++) {
			a_done += ev[i].data == 1;
			b_done += ev[i].data == 2;
		}
		CHECK_EQ(b_done, 1);			/* inside io_submit */
		pending += !a_done;
		if (!a_done)
			CHECK_EQ(wait_events(ctx, 1, ev), 1);
		CHECK(same(abuf, 34, r * sizeof(abuf), sizeof(abuf)) && same(hb, 35, 0, 4096));
	}
	utest_log("4 rounds: the hit inside io_submit in each, the 512 KiB miss still in flight in %d",
		  pending);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	close(fh);
	CHECK_EQ(unlink(MNT "/aslow.bin"), 0);
	CHECK_EQ(unlink(MNT "/ahit.bin"), 0);
	return 0;
}

#define TRY_ROUNDS	12		/* the writer's 256 KiB write + fsync rounds */
#define TRY_SUBMITS	3000		/* at most, while it runs */

/* The writer of try_counts: rounds of a 256 KiB write and fsync of another
 * file (sb->lock held across its device writes); exits 0. */
static void try_writer(void)
{
	int fd = open(MNT "/atry.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);

	for (int r = 0; fd >= 0 && r < TRY_ROUNDS; r++)
		if (pwrite(fd, big, sizeof(big), 0) != (ssize_t)sizeof(big) || fsync(fd))
			_exit(1);
	_exit(fd >= 0 ? 0 : 1);
}

/* Two files at once: warm 4 KiB reads of one file while another process
 * writes and fsyncs another. Each read's try counts once in /proc/aiok/ext2
 * (try_locked, try_busy); one whose event is not in the ring on return found
 * a lock taken (a try that got it completes a hit inside io_submit). The
 * other file's fsync must not hold the reads up: fewer than a quarter of
 * its rounds may delay one (with one lock per file system, every fsync
 * did: 12 of 12). Logs the share that went to the worker and the slowest completion. */
static int try_counts(void)
{
	static unsigned char tb[4096];
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev;
	aio_context_t ctx = 0;
	long l0 = ext2_stat("try_locked"), b0 = ext2_stat("try_busy"), subs = 0, late = 0;
	long long worst = 0, t0, dt;
	int fd = open(MNT "/aio.bin", O_RDONLY), st;
	pid_t pid;

	CHECK(fd >= 0 && l0 >= 0 && b0 >= 0);
	CHECK_EQ(pread(fd, got, sizeof(got), 0), sizeof(got));		/* warm */
	CHECK_EQ(raw_io_setup(8, &ctx), 0);
	pid = fork();
	CHECK(pid >= 0);
	if (!pid)
		try_writer();
	while (subs < TRY_SUBMITS && waitpid(pid, &st, WNOHANG) == 0) {
		raw_prep(&cb, IOCB_CMD_PREAD, fd, tb, 4096, (subs % 64) * 4096, 1);
		t0 = utest_now_ns();
		CHECK_EQ(raw_io_submit(ctx, 1, list), 1);
		late += ring_ready(ctx) == 0;
		CHECK_EQ(wait_events(ctx, 1, &ev), 1);
		dt = utest_now_ns() - t0;
		worst = dt > worst ? dt : worst;
		CHECK_EQ(ev.res, 4096);
		CHECK(!memcmp(tb, got + (subs % 64) * 4096, 4096));	/* as read warm */
		subs++;
	}
	if (subs == TRY_SUBMITS)
		CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	long locked = ext2_stat("try_locked") - l0, busy = ext2_stat("try_busy") - b0;
	CHECK_EQ(locked + busy, subs);
	CHECK(late <= busy);
	CHECK(late * 4 < TRY_ROUNDS);	/* not one per fsync of the other file */
	utest_log("%ld warm reads beside a writer's fsyncs: %ld got the lock, %ld to the worker "
		  "(%ld done after io_submit), slowest %lld us", subs, locked, busy, late,
		  worst / 1000);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	CHECK_EQ(unlink(MNT "/atry.bin"), 0);
	return 0;
}

/* A file whose inode number has the parity other hasn't (so its requests
 * go to another worker queue: the queues are ino % workers, an even count),
 * 4 KiB written and fsynced: its fd, or -1. */
static int other_parity_file(ino_t other, char *name, size_t size)
{
	static unsigned char four[4096];
	struct stat st;
	int fd = -1;

	for (int i = 0; i < 8 && fd < 0; i++) {
		snprintf(name, size, MNT "/apar%d.bin", i);
		fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0 && (fstat(fd, &st) || (st.st_ino & 1) == (other & 1))) {
			close(fd);
			fd = -1;
		}
	}
	for (int i = 0; i < 8; i++) {		/* the ones of the wrong parity */
		char other_name[64];
		snprintf(other_name, sizeof(other_name), MNT "/apar%d.bin", i);
		if (strcmp(other_name, name))
			unlink(other_name);
	}
	if (fd >= 0 && (pwrite(fd, four, sizeof(four), 0) != (ssize_t)sizeof(four) || fsync(fd))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* The AIO workers run different files' requests at once: an FSYNC of a file
 * with 1 MiB dirty, then an FDSYNC of a clean file on another worker queue,
 * submitted together: the second completes first (with one worker it
 * waited for the first's whole write-back). */
static int fsync_other_file_first(void)
{
	struct iocb ca, cb, *list[2] = { &ca, &cb };
	struct io_event ev[2];
	aio_context_t ctx = 0;
	char bname[64];
	struct stat st;
	int fa = open(MNT "/abig.bin", O_RDWR | O_CREAT | O_TRUNC, 0644), fb;

	CHECK(fa >= 0 && fstat(fa, &st) == 0);
	fb = other_parity_file(st.st_ino, bname, sizeof(bname));
	CHECK(fb >= 0);
	for (unsigned off = 0; off < 1024 * 1024; off += sizeof(big))
		CHECK_EQ(pwrite(fa, big, sizeof(big), off), sizeof(big));	/* dirty */
	CHECK_EQ(raw_io_setup(8, &ctx), 0);
	raw_prep(&ca, IOCB_CMD_FSYNC, fa, NULL, 0, 0, 1);
	raw_prep(&cb, IOCB_CMD_FDSYNC, fb, NULL, 0, 0, 2);
	CHECK_EQ(raw_io_submit(ctx, 2, list), 2);
	CHECK_EQ(wait_events(ctx, 2, ev), 2);
	CHECK_EQ(ev[0].res, 0);
	CHECK_EQ(ev[1].res, 0);
	utest_log("events in the order %llu, %llu (2: the clean file's FDSYNC)",
		  (unsigned long long)ev[0].data, (unsigned long long)ev[1].data);
	CHECK_EQ(ev[0].data, 2);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fa);
	close(fb);
	CHECK_EQ(unlink(MNT "/abig.bin"), 0);
	CHECK_EQ(unlink(bname), 0);
	return 0;
}

/* A file whose last page is partly inside it (10000 bytes): a read of that
 * page is sent from io_submit too (the blocks inside the file read, the
 * rest of the page zeroed at completion): a short count, the right bytes,
 * and zeros past the end through a mapping of the cached page. */
static int last_page_from_device(void)
{
	struct iocb cb;
	aio_context_t ctx = 0;
	long s0 = ext2_stat("aread_sent");
	unsigned char *m;
	int fd;

	CHECK_EQ(cold_file(MNT "/atail.bin", 36, 10000, &ctx, &fd), 0);
	memset(got, 0xee, 8192);
	raw_prep(&cb, IOCB_CMD_PREAD, fd, got, 8192, 4096, 1);
	CHECK_EQ(one(ctx, &cb), 10000 - 4096);
	CHECK(same(got, 36, 4096, 10000 - 4096));
	CHECK_EQ(ext2_stat("aread_sent") - s0, 1);
	m = mmap(NULL, 12288, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(m != MAP_FAILED);
	for (unsigned i = 10000; i < 12288; i++)
		CHECK_EQ(m[i], 0);
	CHECK(same(m + 8192, 36, 8192, 10000 - 8192));
	CHECK_EQ(munmap(m, 12288), 0);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	CHECK_EQ(unlink(MNT "/atail.bin"), 0);
	return 0;
}

/* One io_submit: a buffered miss of a page (its fill started, the device
 * kicked only at the end of the call), then a pipe read into a private
 * mapping of that same page: the copy faults, and the fault waits for the
 * fill, which must have been kicked first (it would wait forever). */
static int fault_on_own_fill(void)
{
	static unsigned char b1[4096];
	struct iocb cbs[2], *list[2] = { &cbs[0], &cbs[1] };
	struct io_event ev[2];
	aio_context_t ctx = 0;
	unsigned char *m;
	int fd, p[2];

	CHECK_EQ(cold_file(MNT "/afault.bin", 37, 65536, &ctx, &fd), 0);
	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(write(p[1], "xyz", 3), 3);
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 8192);
	CHECK(m != MAP_FAILED);
	raw_prep(&cbs[0], IOCB_CMD_PREAD, fd, b1, 4096, 8192, 1);
	raw_prep(&cbs[1], IOCB_CMD_PREAD, p[0], m + 100, 3, 0, 2);
	CHECK_EQ(raw_io_submit(ctx, 2, list), 2);
	CHECK_EQ(wait_events(ctx, 2, ev), 2);
	CHECK(ev[0].res == (ev[0].data == 1 ? 4096 : 3) && ev[1].res == (ev[1].data == 1 ? 4096 : 3));
	CHECK(same(b1, 37, 8192, 4096) && same(m, 37, 8192, 100));
	CHECK(!memcmp(m + 100, "xyz", 3) && same(m + 103, 37, 8192 + 103, 4096 - 103));
	CHECK_EQ(munmap(m, 4096), 0);
	close(p[0]);
	close(p[1]);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	CHECK_EQ(unlink(MNT "/afault.bin"), 0);
	return 0;
}

/* io_destroy (and exit) with requests queued and running: every one ends,
 * nothing leaks, the file system unmounts. */
static int destroy_in_flight(void)
{
	aio_context_t ctx = 0;
	static struct iocb cbs[NREQ];
	struct iocb *list[NREQ];
	struct aiok_stat before, after;
	int fd;

	CHECK_EQ(remount(), 0);
	CHECK_EQ(aiok_stat(&before), 0);
	fd = open(MNT "/aio.bin", O_RDWR);
	CHECK(fd >= 0);
	CHECK_EQ(raw_io_setup(NREQ, &ctx), 0);
	for (int i = 0; i < NREQ; i++) {
		int op = i % 4 == 3 ? IOCB_CMD_FSYNC : IOCB_CMD_PREAD;
		raw_prep(&cbs[i], op, fd, got + i * 8192, 8192, i * 8192, i);
		list[i] = &cbs[i];
	}
	CHECK_EQ(raw_io_submit(ctx, NREQ, list), NREQ);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	close(fd);
	CHECK_EQ(aiok_stat(&after), 0);
	CHECK_EQ(after.aio_reqs, before.aio_reqs);
	CHECK_EQ(after.open_files, before.open_files);
	CHECK_EQ(remount(), 0);			/* not busy: nothing holds the file */
	return 0;
}

/* The file is as every case left it; its pages stay cached while it is open
 * (an inode's last close writes them back and frees them); umount frees
 * every cached page. */
static int umount_frees_pages(void)
{
	long before = ext2_pages(), open_pages;
	int fd = open(MNT "/aio.bin", O_RDONLY);

	CHECK(fd >= 0);
	CHECK_EQ(read(fd, got, sizeof(got)), sizeof(got));
	open_pages = ext2_pages();
	close(fd);
	CHECK(same(got + 4000, 6, 4000, 10000) && same(got + 200000, 7, 200000, 8192));
	CHECK(open_pages >= before + FILE_KB / 4);
	CHECK_EQ(do_umount(), 0);
	CHECK_EQ(ext2_pages(), 0);
	CHECK_EQ(rmdir(MNT), 0);
	CHECK(rmdir("/mnt") == 0 || errno == ENOTEMPTY);	/* a boot mount may be there */
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(setup),
	UTEST(miss_then_hit),
	UTEST(every_opcode),
	UTEST(cancel_queued),
	UTEST(nowait_miss),
	UTEST(direct_io),
	UTEST(direct_in_submit),
	UTEST(direct_write_in_submit),
	UTEST(direct_run_after_truncate),
	UTEST(direct_runs_in_submit),
	UTEST(truncate_waits_direct),
	UTEST(readahead_sequential),
	UTEST(miss_from_device),
	UTEST(one_fill_two_readers),
	UTEST(cancel_during_fill),
	UTEST(cancel_queued_fill),
	UTEST(hit_during_slow_fill),
	UTEST(try_counts),
	UTEST(fsync_other_file_first),
	UTEST(last_page_from_device),
	UTEST(fault_on_own_fill),
	UTEST(destroy_in_flight),
	UTEST(umount_frees_pages),
};

int main(int argc, char **argv)
{
	char *args[] = { argv[0], NULL, NULL };

	if (argc < 2 || argv[1][0] != '/') {
		printf("usage: test_file_aio DEV [CASE]\n");
		return 2;
	}
	dev_path = argv[1];
	args[1] = argc > 2 ? argv[2] : NULL;
	return utest_main(argc > 2 ? 2 : 1, args, "file_aio", cases, NCASES(cases));
}
