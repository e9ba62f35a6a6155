/* test_ext2_smp.c: suite ext2_smp: ext2 operations on several files at once (issue 18's locks).
 *
 *   test_ext2_smp DEV [CASE]   on a fresh ext2 image: mount it at /mnt/s; two
 *                              processes each on its own file doing buffered
 *                              AIO reads and writes, O_DIRECT AIO reads and an
 *                              FDSYNC, round after round (every byte checked
 *                              against the process's own model of its file;
 *                              the ops per second and io_submit's try counters
 *                              logged, and the lock statistics); an fsync of
 *                              16 dirty pages waiting for the device a few
 *                              times, not per page; four processes creating, renaming over,
 *                              unlinking and making directories in one shared
 *                              directory (each name's content checked); umount
 *                              (the host then runs e2fsck -fn on the image).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "aio_raw.h"
#include <aiokern.h>
#include "lx_syscall.h"
#include "ext2_stat.h"
#include "utest.h"

#define MNT		"/mnt/s"
#define NCASES(a)	((int)(sizeof(a) / sizeof((a)[0])))
#define NR_MOUNT	21
#define NR_UMOUNT2	52
#define WAIT_NS		20000000000LL
#define TP_FILE		(1024 * 1024)	/* each process's file */
#define TP_BLK		4096
#define TP_QD		8		/* requests per batch */
#define TP_ROUNDS	40		/* batches of each kind per process */
#define ST_PROCS	4		/* the name storm's processes */
#define ST_ITERS	150
#define ST_NAMES	8		/* r<proc>_<0..7> each process renames over */

static const char *dev_path;

/* One row of /proc/aiok/ext2_locks (kernel/fs/ext2/stats.c): a lock class's
 * acq contended tryfail wait_us wmax_us hold_us hmax_us sleeps handoffs
 * hoff_us homax_us. */
#define LS_COLS		11
#define LS_CLASSES	5
struct ls_row {
	char name[16];
	unsigned long long v[LS_COLS];
};

/* The lock classes' rows into rows (LS_CLASSES): how many were read. */
static int ls_read(struct ls_row *rows)
{
	static char text[4096];
	int fd = open("/proc/aiok/ext2_locks", O_RDONLY), n = 0;
	ssize_t len = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);

	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return 0;
	text[len] = '\0';
	for (char *p = text; p && *p && n < LS_CLASSES; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		struct ls_row *r = &rows[n];
		if (strncmp(p, "ext2_", 5) ||
		    sscanf(p, "%15s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", r->name,
			   &r->v[0], &r->v[1], &r->v[2], &r->v[3], &r->v[4], &r->v[5], &r->v[6],
			   &r->v[7], &r->v[8], &r->v[9], &r->v[10]) != 1 + LS_COLS)
			continue;
		n++;
	}
	return n;
}

/* Log what each class did between a and b (the maxima since boot); 0 when
 * the counts agree with each other (a contended acquisition is one, a
 * hand-off follows a contended one), else the failing class + 1. */
static int ls_log(const struct ls_row *a, const struct ls_row *b, int n)
{
	for (int i = 0; i < n; i++) {
		unsigned long long d[LS_COLS];
		for (int c = 0; c < LS_COLS; c++)
			d[c] = b[i].v[c] - a[i].v[c];
		utest_log("lock %-10s acq %llu contended %llu (%llu%%) tryfail %llu wait %llu us "
			  "(max %llu) hold %llu us (max %llu) sleeps %llu handoffs %llu "
			  "handoff latency %llu us (max %llu)", b[i].name, d[0], d[1],
			  d[0] ? d[1] * 100 / d[0] : 0, d[2], d[3], b[i].v[4], d[5], b[i].v[6], d[7],
			  d[8], d[9], b[i].v[10]);
		if (d[1] > d[0] || d[8] > d[1] || b[i].v[0] < a[i].v[0])
			return i + 1;
	}
	return 0;
}

/* Log the worker and request lines of /proc/aiok/ext2_locks as they are. */
static void ls_log_rest(void)
{
	static char text[4096];
	int fd = open("/proc/aiok/ext2_locks", O_RDONLY);
	ssize_t len = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);

	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return;
	text[len] = '\0';
	for (char *p = text, *e; p && *p; p = e ? e + 1 : NULL) {
		e = strchr(p, '\n');
		if (e)
			*e = '\0';
		if (strncmp(p, "ext2_", 5) && strncmp(p, "class", 5))
			utest_log("%s", p);
	}
}

/* Byte off of process p's file after write generation gen (0: as created). */
static unsigned char tp_byte(int p, unsigned gen, unsigned off)
{
	return (unsigned char)(off * 7 + p * 31 + gen * 13 + (off >> 12));
}

static int mount_case(void)
{
	CHECK(mkdir("/mnt", 0755) == 0 || errno == EEXIST);
	CHECK(mkdir(MNT, 0755) == 0 || errno == EEXIST);
	CHECK_EQ(lx_syscall(NR_MOUNT, (long)dev_path, (long)MNT, (long)"ext2", 0, 0), 0);
	return 0;
}

/* Wait for n events into ev (a deadline): the count. */
static long tp_wait(aio_context_t ctx, long n, struct io_event *ev)
{
	struct kernel_timespec when = raw_deadline_in(WAIT_NS);
	long got = 0, r;

	while (got < n && (r = raw_io_getevents_abs(ctx, n - got, ev + got, &when)) > 0)
		got += r;
	return got;
}

/* One batch of TP_QD requests of op at pseudo-random blocks (seed *rnd) on
 * fd, buffers from buf: 0 when every event came back whole. */
static int tp_batch(aio_context_t ctx, int fd, int op, unsigned char *buf, unsigned *rnd,
		    unsigned *offs)
{
	struct iocb cbs[TP_QD], *list[TP_QD];
	struct io_event ev[TP_QD];

	for (int i = 0; i < TP_QD; i++) {
		*rnd = *rnd * 1103515245u + 12345u;
		offs[i] = ((*rnd >> 8) % (TP_FILE / TP_BLK)) * TP_BLK;
		raw_prep(&cbs[i], op, fd, buf + i * TP_BLK, TP_BLK, offs[i], i);
		list[i] = &cbs[i];
	}
	if (raw_io_submit(ctx, TP_QD, list) != TP_QD || tp_wait(ctx, TP_QD, ev) != TP_QD)
		return -1;
	for (int i = 0; i < TP_QD; i++)
		if (ev[i].res != TP_BLK)
			return -1;
	return 0;
}

/* Do the blocks read into buf at offs hold what model says? */
static int tp_same(const unsigned char *model, const unsigned char *buf, const unsigned *offs)
{
	for (int i = 0; i < TP_QD; i++)
		if (memcmp(buf + i * TP_BLK, model + offs[i], TP_BLK))
			return -1;
	return 0;
}

/* One process's rounds on file fb (buffered) / fdd (O_DIRECT): buffered
 * reads, buffered writes (their distinct offsets into the model), direct
 * reads (after an FDSYNC: the disk holds the writes), each checked. 0 or
 * the failing step. */
static int tp_work(int p, int fb, int fdd, unsigned char *model, unsigned char *buf)
{
	unsigned rnd = 17 + p, offs[TP_QD];
	aio_context_t ctx = 0;
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev;

	if (raw_io_setup(2 * TP_QD, &ctx))
		return 1;
	for (unsigned r = 1; r <= TP_ROUNDS; r++) {
		if (tp_batch(ctx, fb, IOCB_CMD_PREAD, buf, &rnd, offs) || tp_same(model, buf, offs))
			return 2;
		rnd = rnd * 1103515245u + 12345u;
		unsigned at = ((rnd >> 8) % (TP_FILE / TP_BLK / TP_QD)) * TP_QD * TP_BLK;
		for (unsigned o = 0; o < TP_QD * TP_BLK; o++)
			model[at + o] = buf[o] = tp_byte(p, r, at + o);
		struct iocb w, *wl[1] = { &w };
		raw_prep(&w, IOCB_CMD_PWRITE, fb, buf, TP_QD * TP_BLK, at, 99);
		if (raw_io_submit(ctx, 1, wl) != 1 || tp_wait(ctx, 1, &ev) != 1 ||
		    ev.res != TP_QD * TP_BLK)
			return 3;
		raw_prep(&cb, IOCB_CMD_FDSYNC, fb, NULL, 0, 0, 98);
		if (raw_io_submit(ctx, 1, list) != 1 || tp_wait(ctx, 1, &ev) != 1 || ev.res)
			return 4;
		if (tp_batch(ctx, fdd, IOCB_CMD_PREAD, buf, &rnd, offs) || tp_same(model, buf, offs))
			return 5;
	}
	raw_io_destroy(ctx);
	return 0;
}

/* Process p: its file made, then its rounds; exits 0 or the failing step. */
static void tp_child(int p)
{
	static unsigned char model[TP_FILE], buf[TP_QD * TP_BLK] __attribute__((aligned(4096)));
	char name[32];
	int fb, fdd;

	snprintf(name, sizeof(name), MNT "/tp%d.bin", p);
	for (unsigned o = 0; o < TP_FILE; o++)
		model[o] = tp_byte(p, 0, o);
	fb = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fb < 0 || write(fb, model, TP_FILE) != TP_FILE || fsync(fb))
		_exit(10);
	fdd = open(name, O_RDONLY | O_DIRECT);
	if (fdd < 0)
		_exit(11);
	_exit(tp_work(p, fb, fdd, model, buf));
}

/* Two processes on two files at once: every byte right; the figures logged. */
static int two_procs(void)
{
	long l0 = ext2_stat("try_locked"), b0 = ext2_stat("try_busy");
	struct ls_row ls0[LS_CLASSES], ls1[LS_CLASSES];
	int nls = ls_read(ls0);
	long long t0 = utest_now_ns(), dt;
	pid_t pid[2];
	int st;

	CHECK(l0 >= 0 && b0 >= 0);
	CHECK_EQ(nls, LS_CLASSES);
	for (int p = 0; p < 2; p++) {
		pid[p] = fork();
		CHECK(pid[p] >= 0);
		if (!pid[p])
			tp_child(p);
	}
	for (int p = 0; p < 2; p++) {
		CHECK_EQ(waitpid(pid[p], &st, 0), pid[p]);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			utest_log("process %d: step %d failed", p, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	dt = utest_now_ns() - t0;
	long locked = ext2_stat("try_locked") - l0, busy = ext2_stat("try_busy") - b0;
	/* each round: QD8 reads, a 32 KiB write, an FDSYNC, QD8 direct reads */
	long ops = 2L * TP_ROUNDS * (2 * TP_QD + 2);
	utest_log("2 processes x %d rounds (QD%d buffered reads, a 32 KiB write, FDSYNC, QD%d "
		  "O_DIRECT reads): %ld requests in %lld ms, %lld per s; io_submit's tries: %ld got "
		  "the file's lock, %ld found it taken (%ld%%)", TP_ROUNDS, TP_QD, TP_QD, ops,
		  dt / 1000000, ops * 1000000000LL / (dt ? dt : 1), locked, busy,
		  locked + busy ? busy * 100 / (locked + busy) : 0);
	CHECK(locked + busy > 0);
	CHECK_EQ(ls_read(ls1), LS_CLASSES);
	CHECK_EQ(ls_log(ls0, ls1, LS_CLASSES), 0);
	/* every try that got the file's lock took its inode lock once */
	CHECK(ls1[1].v[0] - ls0[1].v[0] >= (unsigned long long)locked);
	ls_log_rest();
	return 0;
}

/* fsync of a file with FB_PAGES dirty pages waits for the device a few
 * times (the batch of their writes, the inode's block), not once per page:
 * dev_waits in /proc/aiok/ext2; every page written (pages_written), and
 * the bytes on the disk (read back with O_DIRECT). */
#define FB_PAGES	16
static int fsync_batch(void)
{
	static unsigned char data[FB_PAGES * TP_BLK], back[FB_PAGES * TP_BLK]
		__attribute__((aligned(4096)));
	int fd = open(MNT "/fb.bin", O_RDWR | O_CREAT | O_TRUNC, 0644), fdd;
	long w0, p0, waits, pages;

	CHECK(fd >= 0);
	for (unsigned o = 0; o < sizeof(data); o++)
		data[o] = tp_byte(5, 1, o);
	CHECK_EQ(write(fd, data, sizeof(data)), (ssize_t)sizeof(data));
	CHECK_EQ(fsync(fd), 0);			/* its blocks allocated, all clean */
	for (unsigned o = 0; o < sizeof(data); o++)
		data[o] = tp_byte(5, 2, o);
	CHECK_EQ(pwrite(fd, data, sizeof(data), 0), (ssize_t)sizeof(data));
	w0 = ext2_stat("dev_waits");
	p0 = ext2_stat("pages_written");
	CHECK(w0 >= 0 && p0 >= 0);
	CHECK_EQ(fsync(fd), 0);
	waits = ext2_stat("dev_waits") - w0;
	pages = ext2_stat("pages_written") - p0;
	utest_log("fsync of %d dirty pages: %ld pages written, %ld device waits", FB_PAGES, pages,
		  waits);
	CHECK(pages >= FB_PAGES);
	CHECK(waits >= 1 && waits <= 8);	/* one per page: >= 16 (a flusher pass
						 * may add a metadata block or two) */
	fdd = open(MNT "/fb.bin", O_RDONLY | O_DIRECT);
	CHECK(fdd >= 0);
	CHECK_EQ(pread(fdd, back, sizeof(back), 0), (ssize_t)sizeof(back));
	CHECK(!memcmp(back, data, sizeof(data)));
	CHECK_EQ(close(fdd), 0);
	CHECK_EQ(close(fd), 0);
	CHECK_EQ(unlink(MNT "/fb.bin"), 0);
	return 0;
}

/* The name storm's process p: create, rename over, unlink, mkdir, rmdir in
 * the shared directory; each file holds "p k" of the iteration that wrote
 * it. Exits 0 or the failing iteration + 1. */
static void st_child(int p)
{
	char a[48], b[48], d[48], text[32];

	for (int k = 0; k < ST_ITERS; k++) {
		snprintf(a, sizeof(a), MNT "/storm/c%d_%d", p, k % 4);
		snprintf(b, sizeof(b), MNT "/storm/r%d_%d", p, k % ST_NAMES);
		int len = snprintf(text, sizeof(text), "%d %d", p, k);
		int fd = open(a, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, text, len) != len || close(fd) || rename(a, b))
			_exit(k + 1);
		if (k % 3 == 2) {
			snprintf(b, sizeof(b), MNT "/storm/r%d_%d", p, (k + 5) % ST_NAMES);
			if (unlink(b) && errno != ENOENT)
				_exit(k + 1);
		}
		snprintf(d, sizeof(d), MNT "/storm/d%d_%d", p, k / 10);
		if (k % 10 == 0 && mkdir(d, 0755))
			_exit(k + 1);
		if (k % 10 == 5 && !(k / 10 % 2) && rmdir(d))
			_exit(k + 1);		/* the odd tens' stay */
	}
	_exit(0);
}

/* Does name hold "p k" of process p (any k)? */
static int st_content_ok(const char *name, int p)
{
	char text[32] = "";
	int fd = open(name, O_RDONLY), q, k;
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);

	if (fd >= 0)
		close(fd);
	return n > 0 && sscanf(text, "%d %d", &q, &k) == 2 && q == p && k >= 0 && k < ST_ITERS;
}

/* Four processes renaming, unlinking, creating in one directory at once:
 * every process ends; every name left holds its own process's text; the
 * directories each made and removed are gone, the others there. */
static int name_storm(void)
{
	pid_t pid[ST_PROCS];
	char name[48];
	struct stat st;
	int status, left = 0;

	CHECK(mkdir(MNT "/storm", 0755) == 0);
	for (int p = 0; p < ST_PROCS; p++) {
		pid[p] = fork();
		CHECK(pid[p] >= 0);
		if (!pid[p])
			st_child(p);
	}
	for (int p = 0; p < ST_PROCS; p++) {
		CHECK_EQ(waitpid(pid[p], &status, 0), pid[p]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	for (int p = 0; p < ST_PROCS; p++) {
		for (int j = 0; j < ST_NAMES; j++) {
			snprintf(name, sizeof(name), MNT "/storm/r%d_%d", p, j);
			if (stat(name, &st))
				continue;
			CHECK(st_content_ok(name, p));
			left++;
		}
		snprintf(name, sizeof(name), MNT "/storm/d%d_13", p);	/* made, kept */
		CHECK(stat(name, &st) == 0 && S_ISDIR(st.st_mode));
		snprintf(name, sizeof(name), MNT "/storm/d%d_14", p);	/* made, removed */
		CHECK(stat(name, &st) != 0 && errno == ENOENT);
	}
	utest_log("%d processes x %d create+rename rounds in one directory: %d names left",
		  ST_PROCS, ST_ITERS, left);
	CHECK(left > 0);
	return 0;
}

/* Unmount; the mount point goes too (ramfs inodes: the leak check counts them). */
static int umount_case(void)
{
	CHECK_EQ(lx_syscall(NR_UMOUNT2, (long)MNT, 0, 0, 0, 0), 0);
	CHECK_EQ(rmdir(MNT), 0);
	CHECK(rmdir("/mnt") == 0 || errno == ENOTEMPTY);	/* a boot mount may be there */
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(mount_case),
	UTEST(two_procs),
	UTEST(fsync_batch),
	UTEST(name_storm),
	UTEST(umount_case),
};

int main(int argc, char **argv)
{
	char *args[] = { argv[0], NULL, NULL };

	if (argc < 2 || argv[1][0] != '/') {
		printf("usage: test_ext2_smp DEV [CASE]\n");
		return 2;
	}
	dev_path = argv[1];
	args[1] = argc > 2 ? argv[2] : NULL;
	return utest_main(argc > 2 ? 2 : 1, args, "ext2_smp", cases, NCASES(cases));
}
