/* libaio_disk.c: a disk exerciser written as libaio programs are (io_queue_init, io_set_callback, io_queue_run, io_fsync, O_DIRECT, vectored I/O with io_set_eventfd and an io_prep_poll on the eventfd); prints a KTAP suite. */
#define _GNU_SOURCE		/* O_DIRECT */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libaio.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/uio.h>

/*
 * usage: libaio_disk [-d depth] [-b bytes] [-n blocks] [-o offset] DEVICE
 *
 * Writes n blocks of a pattern at offset with up to depth requests in flight,
 * each completion handled by the callback io_set_callback attached (run by
 * io_queue_run, or by hand after io_getevents); flushes with io_fsync; reads
 * everything back and checks it in the read callbacks. Then writes and reads
 * blocks again as 4-segment vectors (io_prep_pwritev/preadv) whose
 * completions signal an eventfd (io_set_eventfd), waited for with poll(2)
 * and, through the AIO context itself, with an io_prep_poll request.  Nothing in here is
 * aiokern's own: the same source builds against Linux's libaio.
 */
static struct {
	int depth, block, blocks;
	long long offset;
	const char *dev;
} opt = { 16, 16384, 64, 1 << 20, NULL };

#define VEC_SEGS	4		/* segments per vectored block */
#define VEC_MAX		32		/* vectored blocks at once */

static int fd, failures, case_no, inflight, done_ok, done_bad, polled_mask;
static io_context_t ctx;
static struct iocb *cbs;
static char *bufs;
static unsigned seed;

static void report(const char *name, int ok, const char *why)
{
	if (!ok) {
		printf("    # %s: %s\n", name, why);
		failures++;
	}
	printf("    %s %d %s\n", ok ? "ok" : "not ok", ++case_no, name);
	fflush(stdout);
}

static unsigned word_at(long long off)
{
	return (unsigned)(off / 4) * 2654435761u ^ seed;
}

static void fill(char *buf, long long off, int n)
{
	for (int i = 0; i < n; i += 4)
		*(unsigned *)(buf + i) = word_at(off + i);
}

static int matches(const char *buf, long long off, int n)
{
	for (int i = 0; i < n; i += 4)
		if (*(const unsigned *)(buf + i) != word_at(off + i))
			return 0;
	return 1;
}

/* Callbacks: each checks its own request's result. */
static void wrote(io_context_t c, struct iocb *iocb, long res, long res2)
{
	(void)c;
	inflight--;
	if (res == (long)iocb->u.c.nbytes && res2 == 0)
		done_ok++;
	else
		done_bad++;
}

static void read_back(io_context_t c, struct iocb *iocb, long res, long res2)
{
	(void)c;
	inflight--;
	if (res == (long)iocb->u.c.nbytes && res2 == 0 &&
	    matches(iocb->u.c.buf, iocb->u.c.offset, res))
		done_ok++;
	else
		done_bad++;
}

static void synced(io_context_t c, struct iocb *iocb, long res, long res2)
{
	(void)c;
	(void)iocb;
	(void)res2;
	inflight--;
	if (res == 0)
		done_ok++;
	else
		done_bad++;
}

/* Vectored requests move a whole block (nbytes holds the segment count);
 * their segments lie back to back in the block's buffer. */
static void wrote_vec(io_context_t c, struct iocb *iocb, long res, long res2)
{
	(void)c;
	(void)iocb;
	inflight--;
	if (res == opt.block && res2 == 0)
		done_ok++;
	else
		done_bad++;
}

static void read_vec(io_context_t c, struct iocb *iocb, long res, long res2)
{
	const struct iovec *v = iocb->u.v.vec;

	(void)c;
	inflight--;
	if (res == opt.block && res2 == 0 && matches(v[0].iov_base, iocb->u.v.offset, res))
		done_ok++;
	else
		done_bad++;
}

static void polled(io_context_t c, struct iocb *iocb, long res, long res2)
{
	(void)c;
	(void)iocb;
	(void)res2;
	inflight--;
	polled_mask = (int)res;
}

/* Wait for at least one completion and run its callback by hand (as programs
 * do when io_queue_run alone would spin); -errno on failure. */
static int wait_and_dispatch(void)
{
	struct io_event ev[8];
	int n = io_getevents(ctx, 1, 8, ev, NULL);

	for (int i = 0; i < n; i++)
		((io_callback_t)ev[i].data)(ctx, ev[i].obj, (long)ev[i].res, (long)ev[i].res2);
	return n < 0 ? n : 0;
}

/* Submit every block as op, depth at a time; the last ones are reaped by
 * io_queue_run. 0, or the first error of io_submit / io_getevents. */
static int run_blocks(int write)
{
	int next = 0, r;

	done_ok = done_bad = 0;
	while (next < opt.blocks) {
		while (inflight < opt.depth && next < opt.blocks) {
			struct iocb *cb = &cbs[next], *list[1] = { cb };
			char *buf = bufs + (size_t)next * opt.block;
			long long off = opt.offset + (long long)next * opt.block;

			if (write) {
				fill(buf, off, opt.block);
				io_prep_pwrite(cb, fd, buf, opt.block, off);
			} else {
				memset(buf, 0, opt.block);
				io_prep_pread(cb, fd, buf, opt.block, off);
			}
			io_set_callback(cb, write ? wrote : read_back);
			if ((r = io_submit(ctx, 1, list)) != 1)
				return r < 0 ? r : -EAGAIN;
			inflight++;
			next++;
		}
		if (next < opt.blocks && (r = wait_and_dispatch()) < 0)
			return r;
	}
	while (inflight > 0) {		/* the rest: io_queue_run, napping between */
		if ((r = io_queue_run(ctx)) < 0)
			return r;
		if (inflight > 0)
			usleep(200);
	}
	return 0;
}

/* One batch of vectored blocks, each signalling efd, behind an io_prep_poll
 * of efd: wait with poll(2) until efd has counted every completion, then run
 * the callbacks. The number of blocks, or -errno. */
static int run_vectored(int write, int efd)
{
	static struct iovec v[VEC_MAX][VEC_SEGS];
	struct iocb pcb, *list[VEC_MAX + 1] = { &pcb };
	int n = opt.depth - 1 < VEC_MAX ? opt.depth - 1 : VEC_MAX, seg = opt.block / VEC_SEGS, r;
	uint64_t counted = 0, add;

	n = n < opt.blocks ? n : opt.blocks;
	done_ok = done_bad = 0;
	polled_mask = 0;
	io_prep_poll(&pcb, efd, POLLIN);
	io_set_callback(&pcb, polled);
	for (int i = 0; i < n; i++) {
		char *buf = bufs + (size_t)i * opt.block;
		long long off = opt.offset + (long long)i * opt.block;
		for (int k = 0; k < VEC_SEGS; k++)
			v[i][k] = (struct iovec){ buf + k * seg, (size_t)seg };
		if (write) {
			fill(buf, off, opt.block);
			io_prep_pwritev(&cbs[i], fd, v[i], VEC_SEGS, off);
		} else {
			memset(buf, 0, opt.block);
			io_prep_preadv(&cbs[i], fd, v[i], VEC_SEGS, off);
		}
		io_set_callback(&cbs[i], write ? wrote_vec : read_vec);
		io_set_eventfd(&cbs[i], efd);
		list[i + 1] = &cbs[i];
	}
	if ((r = io_submit(ctx, n + 1, list)) != n + 1)
		return r < 0 ? r : -EAGAIN;
	inflight += n + 1;
	while (counted < (uint64_t)n) {
		struct pollfd p = { efd, POLLIN, 0 };
		if (poll(&p, 1, 5000) != 1)
			return -ETIMEDOUT;
		if (eventfd_read(efd, &add) == 0)
			counted += add;
	}
	while (inflight > 0)
		if ((r = wait_and_dispatch()) < 0)
			return r;
	return n;
}

static void case_vectored(int efd)
{
	char why[128];
	int w = run_vectored(1, efd), wok = done_ok, wpoll = polled_mask;
	int r = run_vectored(0, efd);

	snprintf(why, sizeof(why), "write %d (%d good, poll %#x), read %d (%d good, %d bad, poll %#x)",
		 w, wok, wpoll, r, done_ok, done_bad, polled_mask);
	report("vectored_eventfd_poll", w > 0 && wok == w && (wpoll & POLLIN) && r == w &&
	       done_ok == r && done_bad == 0 && (polled_mask & POLLIN), why);
}

static void case_open_and_size(void)
{
	unsigned long long bytes = 0;
	int sector = 0;
	struct stat st;
	char why[160];

	fd = open(opt.dev, O_RDWR | O_DIRECT);
	if (fd < 0)
		err(1, "%s", opt.dev);
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0 || ioctl(fd, BLKSSZGET, &sector) < 0 ||
	    fstat(fd, &st) < 0)
		err(1, "%s: size", opt.dev);
	snprintf(why, sizeof(why), "%llu bytes, %d-byte sectors, st_mode %o", bytes, sector,
		 (unsigned)st.st_mode);
	printf("    # %s: %s\n", opt.dev, why);
	report("open_and_size", S_ISBLK(st.st_mode) && sector == 512 &&
	       bytes >= (unsigned long long)opt.offset + (unsigned long long)opt.blocks * opt.block,
	       why);
}

static void case_queue_init(void)
{
	memset(&ctx, 0, sizeof(ctx));
	report("io_queue_init", io_queue_init(opt.depth, &ctx) == 0, "io_queue_init failed");
}

static void case_blocks(const char *name, int write)
{
	char why[96];
	int r = run_blocks(write);

	snprintf(why, sizeof(why), "%d good, %d bad callbacks, error %d", done_ok, done_bad, r);
	report(name, r == 0 && done_ok == opt.blocks && done_bad == 0, why);
}

static void case_fsync(void)
{
	struct iocb cb;
	int r;

	done_ok = done_bad = 0;
	r = io_fsync(ctx, &cb, synced, fd);
	if (r == 1)
		inflight++;
	while (r == 1 && inflight > 0)
		r = wait_and_dispatch() < 0 ? -1 : 1;
	report("io_fsync_callback", r == 1 && done_ok == 1, "io_fsync did not complete with 0");
}

/* O_DIRECT on a block device: a buffer off the sector size is refused. */
static void case_misaligned(void)
{
	struct iocb cb, *list[1] = { &cb };
	int r;

	io_prep_pread(&cb, fd, bufs + 1, opt.block, opt.offset);
	r = io_submit(ctx, 1, list);
	report("misaligned_is_einval", r == -EINVAL, "io_submit accepted a misaligned buffer");
}

static void case_poll_and_release(void)
{
	struct pollfd p = { fd, POLLIN | POLLOUT, 0 };
	struct io_event ev;

	report("poll_ready", poll(&p, 1, 0) == 1 && p.revents == (POLLIN | POLLOUT),
	       "a block device polls readable and writable");
	report("io_queue_release", io_queue_release(ctx) == 0 &&
	       io_getevents(ctx, 0, 1, &ev, NULL) == -EINVAL, "release failed");
}

static void usage(const char *prog)
{
	errx(2, "usage: %s [-d depth] [-b bytes] [-n blocks] [-o offset] DEVICE", prog);
}

static void parse(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "depth", required_argument, NULL, 'd' },
		{ "block", required_argument, NULL, 'b' },
		{ "blocks", required_argument, NULL, 'n' },
		{ "offset", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "d:b:n:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': opt.depth = atoi(optarg); break;
		case 'b': opt.block = atoi(optarg); break;
		case 'n': opt.blocks = atoi(optarg); break;
		case 'o': opt.offset = atoll(optarg); break;
		default: usage(argv[0]);
		}
	}
	if (optind != argc - 1 || opt.depth < 1 || opt.block < 512 || opt.block % 512 ||
	    opt.blocks < 1)
		usage(argv[0]);
	opt.dev = argv[optind];
}

int main(int argc, char **argv)
{
	const char *idx = getenv("UTEST_INDEX");
	int efd;

	parse(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	cbs = calloc(opt.blocks, sizeof(*cbs));
	if (!cbs || posix_memalign((void **)&bufs, 4096, (size_t)opt.blocks * opt.block))
		errx(1, "out of memory");
	seed = (unsigned)getpid() * 0x9e3779b9u;
	printf("    KTAP version 1\n    # Subtest: libaio_disk\n    1..10\n");
	case_open_and_size();
	case_queue_init();
	case_blocks("write_with_callbacks", 1);
	case_fsync();
	case_blocks("read_back_in_callbacks", 0);
	case_misaligned();
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (efd < 0 || opt.block % (VEC_SEGS * 512) || opt.depth < 2)
		errx(1, "eventfd, or a block or depth too small for 4 segments");
	case_vectored(efd);
	close(efd);
	case_poll_and_release();
	report("no_requests_left", inflight == 0, "requests still in flight");
	printf("# libaio_disk: %s, %d x %d bytes at %lld, depth %d: %s\n", opt.dev, opt.blocks,
	       opt.block, opt.offset, opt.depth, failures ? "FAILED" : "passed");
	printf("%s %s libaio_disk\n", failures ? "not ok" : "ok", idx ? idx : "1");
	close(fd);
	return failures != 0;
}
