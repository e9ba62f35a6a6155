/* gen.c: the fuzzer's arguments: interesting values of each kind; the table of exclusions of known defects (empty now). */
#include <stdint.h>
#include <string.h>
#include "uapi/aio_abi.h"
#include "uapi/fcntl.h"
#include "uapi/ioctl.h"
#include "uapi/mman.h"
#include "uapi/poll.h"
#include "uapi/signal.h"
#include "uapi/stat.h"
#include "uapi/time.h"
#include "uapi/uio.h"
#include "uapi/wait.h"
#include "user/syscalls.h"
#include "child.h"

#define MIB		(1024u * 1024)
#define SECTOR		512u
#define N(a)		(sizeof(a) / sizeof((a)[0]))
#define PICK(c, a)	((a)[fz_below(&(c)->rng, N(a))])

/* None at present (fuzz.h). A new one is { "F<n>_<what>", "what the fuzzer
 * does not do, and what happens without it" }, on by default, with a step in
 * fz_call (child.c) that steers the arguments while fuzz_excl_on[] says so. */
const struct fuzz_exclusion fuzz_exclusions[EX_COUNT] = {};
bool fuzz_excl_on[EX_COUNT] = {};

/* ---- pointers ---- */

/* Addresses that are not ours to use: NULL, low, kernel, the entry page, the top. */
static const uint32_t odd_ptrs[] = {
	0, 1, 0xFFF, 0x1000, 0xFFFC, 0x10000, 0x08048000, 0x20000000, 0x60000000,
	0xBFFFEFFC, 0xBFFFF000, 0xBFFFFFFC, 0xBFFFFFFF, 0xC0000000, 0xC0010000, 0xC0100000,
	0xD0000000, 0xFFFFE000, 0xFFFFF000, 0xFFFFFFFC, 0xFFFFFFFF,
};
/* Where one kind of memory meets another: a buffer just before crosses over. */
static const uint32_t seams[] = { FZ_RO, FZ_NONE, FZ_RW2, FZ_HOLE, FZ_IOBUF + FZ_IOBUF_LEN };
static const uint32_t seam_backs[] = { 1, 2, 4, 8, 16, 100, 511, 512, 4095 };

/* The page we share with the watchdog is never handed to the kernel: a
 * read into it would garble the run's counts and records. */
static uint32_t not_shared(const struct fz_child *c, uint32_t p)
{
	uint32_t sh = (uint32_t)c->shared;

	return c->shared && p - sh < sizeof(*c->shared) ? FZ_DATA : p;
}

uint32_t fz_ptr(struct fz_child *c)
{
	uint32_t r = fz_below(&c->rng, 20);

	if (r < 6)			/* an I/O buffer, often sector-aligned */
		return FZ_IOBUF + (fz_pct(&c->rng, 60) ? fz_below(&c->rng, FZ_IOBUF_LEN / SECTOR) * SECTOR
						       : fz_below(&c->rng, FZ_IOBUF_LEN));
	if (r < 9)
		return FZ_DATA + fz_below(&c->rng, FZ_RW_END - FZ_DATA);
	if (r < 11)
		return PICK(c, odd_ptrs);
	if (r < 12)
		return FZ_RO + fz_below(&c->rng, 4096);
	if (r < 13)
		return FZ_NONE + fz_below(&c->rng, 4096);
	if (r < 15)
		return PICK(c, seams) - PICK(c, seam_backs);
	if (r < 16)
		return FZ_HOLE + fz_below(&c->rng, 1u << 20);
	if (r < 17 && c->nctx)		/* a ring: the kernel writes into it */
		return c->ctx[fz_below(&c->rng, c->nctx)] + fz_below(&c->rng, 8192);
	if (r < 18)
		return FZ_STRUCTS + fz_below(&c->rng, 4096);
	return not_shared(c, (uint32_t)fz_next(&c->rng));
}

/* ---- sizes, offsets, numbers ---- */

static const uint32_t odd_lens[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 32, 100, 511, 512, 513, 1023, 4095, 4096, 4097, 8192,
	16384, 16385, 65535, 65536, 65537, 1u << 20, (1u << 20) + 1, 0x3FFFFFFF, 0x40000000,
	0x7FFFFFFF, 0x80000000, 0xFFFFFE00, 0xFFFFFFFF,
};

uint32_t fz_len(struct fz_child *c)
{
	switch (fz_below(&c->rng, 10)) {
	case 0: case 1: case 2:
		return fz_below(&c->rng, 65);
	case 3: case 4:
		return SECTOR * (1 + fz_below(&c->rng, 128));
	case 5:
		return 4096 * (1 + fz_below(&c->rng, 64));
	case 6: case 7:
		return PICK(c, odd_lens);
	case 8:
		return fz_below(&c->rng, 65536);
	}
	return (uint32_t)fz_next(&c->rng);
}

/* A count of things (events, iocbs): mostly small. */
static uint32_t fz_count(struct fz_child *c)
{
	static const uint32_t odd[] = { 0, 1, 2, 63, 64, 65, 128, 1024, 65536, 0x3FFFFFFF,
					0x40000000, 0x7FFFFFFF, 0xFFFFFFFF };

	return fz_pct(&c->rng, 80) ? 1 + fz_below(&c->rng, 16) : PICK(c, odd);
}

static const int64_t odd_offsets[] = {
	16 * MIB - SECTOR, 16 * MIB, 16 * MIB + SECTOR, 64 * MIB - SECTOR, 64 * MIB,
	64 * MIB + SECTOR, 1LL << 31, 1LL << 32, (1LL << 32) - SECTOR, 1LL << 40,
	(1LL << 41) * 65, 1LL << 62, INT64_MAX, INT64_MAX - 511, INT64_MAX & ~511LL,
	INT64_MAX - 255, -1, -(int64_t)SECTOR, INT64_MIN,
};

int64_t fz_offset(struct fz_child *c)
{
	switch (fz_below(&c->rng, 10)) {
	case 0: case 1: case 2:
		return (int64_t)SECTOR * fz_below(&c->rng, 16 * MIB / SECTOR);
	case 3:
		return fz_below(&c->rng, MIB);
	case 4:
		return 0;
	case 5: case 6:
		return PICK(c, odd_offsets);
	case 7:
		return -(int64_t)fz_below(&c->rng, 1u << 31);
	case 8:
		return (int64_t)SECTOR * fz_below(&c->rng, 1u << 22);
	}
	return (int64_t)fz_next(&c->rng);
}

static uint32_t fz_int(struct fz_child *c)
{
	static const uint32_t odd[] = { 0, 1, 2, 3, 0x7F, 0x80, 0xFF, 0x100, 0x7FFFFFFF,
					0x80000000, 0xFFFFFFFF, 0xFFFFFFFE };

	if (fz_pct(&c->rng, 50))
		return PICK(c, odd);
	return fz_pct(&c->rng, 50) ? fz_below(&c->rng, 64) : (uint32_t)fz_next(&c->rng);
}

/* ---- descriptors, paths, argv ---- */

int fz_fd(struct fz_child *c)
{
	static const int odd[] = { -1, -2, 0, 1, 2, 255, 256, 1024, 65536, 0x7FFFFFFF, INT32_MIN };
	uint32_t r = fz_below(&c->rng, 20);

	if (r < 15 && c->nfd)
		return c->fd[fz_below(&c->rng, c->nfd)];
	if (r < 17)
		return c->last_fd;
	if (r < 19)
		return fz_below(&c->rng, 40);
	return PICK(c, odd);
}

/* The path pool, one string each 64 bytes of FZ_STRINGS; %c is the slot's letter. */
static const char *const pool[] = {
	"/tmp/fz%ca", "/tmp/fz%cb", "/tmp/fz%cc", "/tmp/fz%cd", "/tmp/fz%cd/x", "/tmp/fz%ca/x",
	"/dev/null", "/dev/zero", "/dev/vda", "/dev/hda", "/dev/vdb",
	"/", "/dev", "/bin", "", "/nonexistent/x",
	"/bin/helper", "/bin/hello", "/bin/fuzz", "helper", "/bin/helper/",
	"helper", "exit", "3", "segv", "spin", "fuzz", "exec", "%c", "0", "%w",
	"PATH=/bin", "A=1",
};
enum {
	P_OWN = 0, P_OWN_N = 6,			/* this slot's names (fuzz_slot_path) */
	P_DEV = 6, P_DEV_N = 5,
	P_DIRS = 11, P_DIRS_N = 5,		/* names that must refuse a change */
	P_PROGS = 16, P_PROGS_N = 3,		/* programs we may exec; then 2 that fail */
	A_HELPER = 21, A_EXIT, A_3, A_SEGV, A_SPIN, A_FUZZ, A_EXEC, A_SLOT, A_SEED, A_WPID,
	P_ENV = 31, P_ENV_N = 2,
};
#define POOL_AT(i)	(FZ_STRINGS + 64 * (i))
#define LONG_NAME	(FZ_STRINGS + 0x1000)	/* 3 KiB of 'a': past PATH_MAX */

/* Decimal digits of v at d; returns the end. */
static char *put_dec(char *d, uint32_t v)
{
	char tmp[12];
	int n = 0;

	do
		tmp[n++] = '0' + v % 10;
	while (v /= 10);
	while (n)
		*d++ = tmp[--n];
	return d;
}

/* Pool string i with %c = the slot's letter, %w = the watchdog's pid. */
static void put_pool(unsigned slot, int wpid, unsigned i, char *dst)
{
	const char *s = pool[i];
	char *d = dst;

	for (; *s; s++) {
		if (s[0] == '%' && s[1] == 'c')
			*d++ = 'A' + slot;
		else if (s[0] == '%' && s[1] == 'w')
			d = put_dec(d, wpid);
		else
			*d++ = *s;
		s += s[0] == '%';
	}
	*d = '\0';
}

/* The names a slot's children can leave: /tmp/fz<slot><a-d> and an "x" in
 * each (renames go to the top names only, so nothing lies deeper). */
bool fuzz_slot_path(unsigned slot, unsigned i, char *buf, unsigned size)
{
	static const char top[] = "/tmp/fz";
	char *d = buf;

	if (i >= 8 || size < sizeof(top) + 4)
		return false;
	memcpy(d, top, sizeof(top) - 1);
	d += sizeof(top) - 1;
	*d++ = 'A' + slot;
	*d++ = 'a' + i % 4;
	if (i < 4) {				/* children first */
		*d++ = '/';
		*d++ = 'x';
	}
	*d = '\0';
	return true;
}

void fz_gen_init(struct fz_child *c)
{
	for (unsigned i = 0; i < N(pool); i++)
		put_pool(c->slotno, c->watchdog_pid, i, (char *)POOL_AT(i));
	memset((char *)LONG_NAME, 'a', 3072);
	((char *)LONG_NAME)[3072] = '\0';
	memcpy((char *)(FZ_HOLE - 8), "/tmp/fz_", 8);	/* no NUL before the hole */
}

/* A path that is no path: NULL, kernel, PROT_NONE, unterminated, too long. */
static uint32_t bad_path(struct fz_child *c)
{
	static const uint32_t bad[] = { 0, 0xC0010000, FZ_NONE, FZ_HOLE - 8, LONG_NAME, FZ_RO,
					FZ_HOLE, 0xFFFFFFFF };

	return PICK(c, bad);
}

/* unlink/rmdir/mkdir: only our own names, and names that must refuse. */
static uint32_t path_to_change(struct fz_child *c)
{
	if (fz_pct(&c->rng, 70))
		return POOL_AT(P_OWN + fz_below(&c->rng, P_OWN_N));
	if (fz_pct(&c->rng, 50))
		return POOL_AT(P_DIRS + fz_below(&c->rng, P_DIRS_N));
	return bad_path(c);
}

/* open: our names and the devices (never /bin's programs, /proc, the console). */
static uint32_t path_to_open(struct fz_child *c)
{
	if (fz_pct(&c->rng, 45))
		return POOL_AT(P_OWN + fz_below(&c->rng, P_OWN_N));
	if (fz_pct(&c->rng, 60))
		return POOL_AT(P_DEV + fz_below(&c->rng, P_DEV_N));
	if (fz_pct(&c->rng, 50))
		return POOL_AT(P_DIRS + fz_below(&c->rng, P_DIRS_N));
	return bad_path(c);
}

/* execve: /bin/helper, /bin/hello, /bin/fuzz (the "exec" form), and failures.
 * Never init (it powers off) nor the test programs. */
static uint32_t path_to_exec(struct fz_child *c)
{
	if (fz_pct(&c->rng, 60))
		return POOL_AT(P_PROGS + fz_below(&c->rng, P_PROGS_N));
	if (fz_pct(&c->rng, 50))
		return POOL_AT(P_OWN + fz_below(&c->rng, P_OWN_N + P_DEV_N));
	return fz_pct(&c->rng, 50) ? POOL_AT(P_PROGS + P_PROGS_N + fz_below(&c->rng, 2)) : bad_path(c);
}

/* The argv lists we exec with: helper exit 3 | segv | spin, fuzz exec SEED SLOT. */
static const unsigned char good_argv[][6] = {
	{ A_HELPER, A_EXIT, A_3 }, { A_HELPER, A_EXIT, A_3 }, { A_HELPER, A_SEGV },
	{ A_FUZZ, A_EXEC, A_SEED, A_SLOT, A_WPID }, { A_FUZZ, A_EXEC, A_SEED, A_SLOT, A_WPID },
	{ A_FUZZ, A_EXEC, A_SEED, A_SLOT, A_WPID }, { A_HELPER, A_SPIN },	/* spins: rarer */
};

/* A seed for an exec'd fuzz, in hex, into the pool's A_SEED string. */
static void put_seed(struct fz_child *c)
{
	char *d = (char *)POOL_AT(A_SEED);
	uint64_t v = fz_next(&c->rng);

	for (int i = 15; i >= 0; i--, v >>= 4)
		d[i] = "0123456789abcdef"[v & 15];
	d[16] = '\0';
}

/* An argv (or envp) array in FZ_ARGVS: good, empty, bad pointers, unterminated. */
static uint32_t fz_argv(struct fz_child *c, bool env)
{
	uint32_t *v = (uint32_t *)(FZ_ARGVS + (env ? 0x800 : 0));
	unsigned n = 0, r = fz_below(&c->rng, 10);

	if (r == 0)
		return fz_pct(&c->rng, 50) ? 0 : bad_path(c);
	if (env) {
		v[n++] = POOL_AT(P_ENV + fz_below(&c->rng, P_ENV_N));
	} else if (r < 6) {
		const unsigned char *g = good_argv[fz_below(&c->rng, N(good_argv))];
		for (; g[n]; n++)
			v[n] = POOL_AT(g[n]);
		put_seed(c);
	}
	if (r == 6)
		v[n++] = fz_ptr(c);		/* a bad element */
	if (r == 7)				/* more than exec takes */
		for (; n < 500; n++)
			v[n] = LONG_NAME;
	if (r == 8)				/* no NULL: runs on into what follows */
		for (; n < 511; n++)
			v[n] = POOL_AT(A_EXIT);
	v[n] = 0;
	return (uint32_t)v;
}

/* ---- flags ---- */

static uint32_t open_flags(struct fz_child *c)
{
	static const uint32_t bits[] = { O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_DSYNC, O_NONBLOCK,
					 O_DIRECT, O_DIRECTORY, O_CLOEXEC };
	uint32_t f = fz_below(&c->rng, 4);	/* O_RDONLY, O_WRONLY, O_RDWR, 3 */

	for (unsigned i = 0; i < N(bits); i++)
		if (fz_pct(&c->rng, 15))
			f |= bits[i];
	return fz_pct(&c->rng, 5) ? (uint32_t)fz_next(&c->rng) : f;
}

static uint32_t mmap_flags(struct fz_child *c)
{
	static const uint32_t odd[] = { 0, MAP_SHARED | MAP_PRIVATE, MAP_PRIVATE, MAP_FIXED,
					0xFFFFFFFF, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED };
	uint32_t f = (fz_pct(&c->rng, 70) ? MAP_PRIVATE : MAP_SHARED) | MAP_ANONYMOUS;

	if (fz_pct(&c->rng, 25))
		f |= MAP_FIXED;
	return fz_pct(&c->rng, 10) ? PICK(c, odd) : f;
}

static uint32_t fz_flags(struct fz_child *c, unsigned nr)
{
	if (nr == __NR_open)
		return open_flags(c);
	if (nr == __NR_mmap2)
		return mmap_flags(c);
	if (nr == __NR_waitpid || nr == __NR_wait4)	/* mostly WNOHANG: few long waits */
		return fz_pct(&c->rng, 97) ? WNOHANG : fz_pct(&c->rng, 50) ? 0 : fz_int(c);
	return fz_int(c);
}

/* ---- processes, signals, time ---- */

static uint32_t fz_pid(struct fz_child *c)
{
	uint32_t r = fz_below(&c->rng, 20);

	if (r < 6 && c->nkid)
		return c->kid[fz_below(&c->rng, c->nkid)];
	if (r < 8)
		return -1;
	if (r < 9)
		return 1;			/* init: must shrug it off */
	if (r < 10)
		return c->self_pid;
	if (r < 12)
		return c->self_pid + 1 + fz_below(&c->rng, 8);	/* siblings, their forks */
	if (r < 14)
		return fz_below(&c->rng, 4);	/* 0, init, the boot task, a kernel thread */
	return fz_int(c);
}

static uint32_t fz_sig(struct fz_child *c)
{
	static const uint32_t sigs[] = { 0, SIGKILL, SIGTERM, SIGINT, SIGSEGV, SIGCHLD, SIGURG,
					 SIGWINCH, SIGPIPE, SIGUSR1, 31, 32, 33, 64, 0xFFFFFFFF };

	return PICK(c, sigs);
}

/* A timespec in FZ_STRUCTS: mostly short waits, some invalid. */
static uint32_t fz_timespec(struct fz_child *c, bool absolute)
{
	struct kernel_timespec *ts = (void *)(FZ_STRUCTS + 8 * fz_below(&c->rng, 4));
	uint32_t r = fz_below(&c->rng, 20);

	if (r == 0 && fz_pct(&c->rng, 20))	/* junk or no limit: may wait for long */
		return absolute && fz_pct(&c->rng, 30) ? 0 : fz_ptr(c);	/* NULL: no limit */
	ts->tv_sec = 0;				/* a wait of a tick or two, or none */
	ts->tv_nsec = fz_pct(&c->rng, 15) ? fz_below(&c->rng, 8000000) : 0;
	if (absolute && r < 12) {		/* an instant from now */
		struct kernel_timespec now;
		uint32_t a[6] = { CLOCK_REALTIME, (uint32_t)&now };
		if (fz_syscall(__NR_clock_gettime, a, FZ_INT80) == 0) {
			ts->tv_sec = now.tv_sec + (now.tv_nsec + ts->tv_nsec) / 1000000000;
			ts->tv_nsec = (now.tv_nsec + ts->tv_nsec) % 1000000000;
		}
	} else if (r < 15) {
		static const long odd_ns[] = { -1, 1000000000, 999999999, 0x7FFFFFFF, INT32_MIN };
		ts->tv_nsec = PICK(c, odd_ns);
	} else if (r < 17) {
		ts->tv_sec = fz_pct(&c->rng, 50) ? -1 : INT32_MIN;
	} else if (r == 17 && fz_pct(&c->rng, 10)) {
		ts->tv_sec = fz_pct(&c->rng, 20) ? 0x7FFFFFFF : 1;	/* long: we are killed */
	}
	return (uint32_t)ts;
}

/* ---- memory and AIO ---- */

static uint32_t fz_addr(struct fz_child *c, unsigned nr)
{
	static const uint32_t odd[] = { 0, 0x1000, 0xF000, 0x10000, 0x08048000, 0x20000000,
					0x60000000, 0x6FFFF000, 0xBF000000, 0xBFFFF000,
					0xC0000000, 0xFFFFF000 };
	uint32_t r = fz_below(&c->rng, 10);

	if (nr == __NR_brk && r < 6)
		return c->brk0 + (fz_pct(&c->rng, 50) ? -fz_below(&c->rng, MIB) : fz_below(&c->rng, 8 * MIB));
	if (r < 3)
		return FZ_MMAP_BASE + 4096 * fz_below(&c->rng, 4096);
	if (r < 5)
		return FZ_IOBUF + 4096 * fz_below(&c->rng, 80);
	if (r < 7)
		return PICK(c, odd);
	if (r < 8)
		return FZ_RING_LO + 4096 * fz_below(&c->rng, 64);
	return fz_pct(&c->rng, 50) ? (uint32_t)fz_next(&c->rng) : FZ_HOLE + 4096 * fz_below(&c->rng, 16);
}

static uint32_t fz_ctx(struct fz_child *c)
{
	static const uint32_t odd[] = { 0, 1, FZ_RING_LO, FZ_RING_LO + 0x1000, FZ_SCRATCH,
					0xC0000000, 0xFFFFFFFF };

	if (fz_pct(&c->rng, 80) && c->nctx)
		return c->ctx[fz_below(&c->rng, c->nctx)];
	return fz_pct(&c->rng, 70) ? PICK(c, odd) : (uint32_t)fz_next(&c->rng);
}

/* Where io_setup writes the id: a zeroed word, mostly. */
static uint32_t fz_ctxp(struct fz_child *c)
{
	uint32_t *id = (uint32_t *)(FZ_STRUCTS + 0x100);

	*id = fz_pct(&c->rng, 90) ? 0 : (uint32_t)fz_next(&c->rng);
	return fz_pct(&c->rng, 85) ? (uint32_t)id : fz_ptr(c);
}

static uint16_t fz_opcode(struct fz_child *c)
{
	static const uint16_t ops[] = { IOCB_CMD_PREAD, IOCB_CMD_PREAD, IOCB_CMD_PREAD,
					IOCB_CMD_PWRITE, IOCB_CMD_PWRITE, IOCB_CMD_PWRITE,
					IOCB_CMD_FSYNC, IOCB_CMD_FDSYNC, IOCB_CMD_NOOP, 4,
					IOCB_CMD_POLL, IOCB_CMD_PREADV, IOCB_CMD_PWRITEV, 0xFFFF };

	return PICK(c, ops);
}

static uint32_t fz_iovec(struct fz_child *c);

/* Mostly well-formed fields for the opcodes that want their own: a vector
 * of up to 8 segments, poll events (no length, no offset). */
static void fz_fill_iocb_op(struct fz_child *c, struct iocb *cb)
{
	uint16_t op = cb->aio_lio_opcode;

	if ((op == IOCB_CMD_PREADV || op == IOCB_CMD_PWRITEV) && fz_pct(&c->rng, 80)) {
		cb->aio_buf = fz_iovec(c);
		cb->aio_nbytes = fz_below(&c->rng, 9);
	} else if (op == IOCB_CMD_POLL && fz_pct(&c->rng, 70)) {
		cb->aio_buf = fz_below(&c->rng, 0x400);
		cb->aio_nbytes = 0;
		cb->aio_offset = 0;
	}
}

void fz_fill_iocb(struct fz_child *c, struct iocb *cb)
{
	memset(cb, 0, sizeof(*cb));
	cb->aio_data = fz_next(&c->rng);
	cb->aio_lio_opcode = fz_opcode(c);
	cb->aio_reqprio = fz_pct(&c->rng, 95) ? 0 : (int16_t)fz_next(&c->rng);
	cb->aio_fildes = fz_fd(c);
	cb->aio_buf = fz_pct(&c->rng, 97) ? fz_ptr(c) : not_shared(c, (uint32_t)fz_next(&c->rng));
	cb->aio_nbytes = fz_pct(&c->rng, 97) ? fz_len(c) : fz_next(&c->rng);
	cb->aio_offset = fz_offset(c);
	fz_fill_iocb_op(c, cb);
	if (fz_pct(&c->rng, 3))
		cb->aio_rw_flags = (uint32_t)fz_next(&c->rng);
	if (fz_pct(&c->rng, 3))
		cb->aio_reserved2 = fz_next(&c->rng);
	if (fz_pct(&c->rng, 5)) {		/* an eventfd to signal, or junk flags */
		cb->aio_flags = fz_pct(&c->rng, 80) ? IOCB_FLAG_RESFD : (uint32_t)fz_next(&c->rng);
		cb->aio_resfd = fz_fd(c);
	}
}

/* An array of n iocb pointers in FZ_IOCBPP (n capped by the room): fresh
 * iocbs mostly, sometimes NULL, a bad pointer, or the same iocb twice. */
static uint32_t fz_iocbpp(struct fz_child *c, uint32_t n)
{
	uint32_t *pp = (uint32_t *)FZ_IOCBPP;
	struct iocb *cbs = (struct iocb *)FZ_IOCBS;

	if (fz_pct(&c->rng, 5))
		return fz_ptr(c);
	n = n > FZ_IOCBPP_MAX ? FZ_IOCBPP_MAX : n;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = fz_below(&c->rng, 100);
		struct iocb *cb = &cbs[i % FZ_IOCBS_MAX];
		if (i < FZ_IOCBS_MAX)
			fz_fill_iocb(c, cb);
		pp[i] = r < 94 ? (uint32_t)cb : r < 96 ? 0 : r < 98 ? fz_ptr(c) : (uint32_t)&cbs[0];
	}
	c->last_iocb = (uint32_t)cbs;
	return (uint32_t)pp;
}

/* io_cancel's iocb: one we submitted (maybe still in flight), or not. */
static uint32_t fz_iocb(struct fz_child *c)
{
	if (fz_pct(&c->rng, 75) && c->last_iocb)
		return c->last_iocb + sizeof(struct iocb) * fz_below(&c->rng, 16);
	return fz_ptr(c);
}

/* Where events go: our buffer, mostly; a ring, read-only or no memory too. */
static uint32_t fz_events(struct fz_child *c)
{
	return fz_pct(&c->rng, 70) ? FZ_STRUCTS + 0x200 + 32 * fz_below(&c->rng, 8) : fz_ptr(c);
}

/* ---- vectors, poll sets, commands ---- */

/* Up to 8 iovecs in FZ_STRUCTS + 0x400, each a buffer of fz_ptr and fz_len. */
static uint32_t fz_iovec(struct fz_child *c)
{
	struct iovec *v = (struct iovec *)(FZ_STRUCTS + 0x400);

	if (fz_pct(&c->rng, 5))
		return fz_ptr(c);
	for (int i = 0; i < 8; i++) {
		v[i].iov_base = (void *)fz_ptr(c);
		v[i].iov_len = fz_pct(&c->rng, 80) ? fz_below(&c->rng, 8192) : fz_len(c);
	}
	return (uint32_t)v;
}

/* Up to 8 pollfds on our descriptors (FZ_STRUCTS + 0x600). */
static uint32_t fz_pollfd(struct fz_child *c)
{
	struct pollfd *p = (struct pollfd *)(FZ_STRUCTS + 0x600);

	if (fz_pct(&c->rng, 5))
		return fz_ptr(c);
	for (int i = 0; i < 8; i++) {
		p[i].fd = fz_fd(c);
		p[i].events = (int16_t)(fz_pct(&c->rng, 90) ? fz_below(&c->rng, 0x400) : fz_next(&c->rng));
		p[i].revents = 0;
	}
	return (uint32_t)p;
}

/* select's time limit: none mostly (a NULL waits for good). */
static uint32_t fz_timeval(struct fz_child *c)
{
	struct kernel_timeval *tv = (void *)(FZ_STRUCTS + 0x40);

	if (fz_pct(&c->rng, 3))
		return fz_pct(&c->rng, 30) ? 0 : fz_ptr(c);
	tv->tv_sec = fz_pct(&c->rng, 5) ? -1 : 0;
	tv->tv_usec = fz_pct(&c->rng, 85) ? 0 : fz_pct(&c->rng, 50) ? 1000000 : fz_below(&c->rng, 8000);
	return (uint32_t)tv;
}

/* poll's limit in ms: 0 mostly; -1 (for good) rarely. */
static uint32_t fz_timeout(struct fz_child *c)
{
	static const uint32_t odd[] = { 1, 4, 10, 0xFFFFFFFF, 0x80000000 };

	return fz_pct(&c->rng, 90) ? 0 : PICK(c, odd);
}

static uint32_t fz_ioctl(struct fz_child *c)
{
	static const uint32_t cmds[] = { BLKGETSIZE, BLKSSZGET, BLKBSZGET, BLKGETSIZE64,
					 BLKPBSZGET, TCGETS, TCSETS, TCSETSW, TCSETSF, FIONREAD,
					 FIONBIO, FIONCLEX, FIOCLEX, 0, 0xFFFFFFFF };

	return fz_pct(&c->rng, 90) ? PICK(c, cmds) : fz_int(c);
}

static uint32_t fz_fcntl(struct fz_child *c)
{
	static const uint32_t cmds[] = { F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL,
					 F_DUPFD_CLOEXEC, 5, 6, 7, 0xFFFFFFFF };

	return fz_pct(&c->rng, 90) ? PICK(c, cmds) : fz_int(c);
}

/* ---- one argument ---- */

static uint32_t fz_path(struct fz_child *c, unsigned nr)
{
	switch (nr) {
	case __NR_unlink: case __NR_rmdir: case __NR_mkdir: case __NR_mkdirat:
	case __NR_unlinkat: case __NR_rename: case __NR_renameat: case __NR_renameat2:
		return path_to_change(c);
	case __NR_execve:
		return path_to_exec(c);
	}
	return path_to_open(c);
}

static uint32_t fz_arg_len(struct fz_child *c, unsigned nr)
{
	if (nr == __NR_io_submit || nr == __NR_io_getevents_abs)
		return fz_count(c);
	if (nr == __NR_io_setup)
		return fz_pct(&c->rng, 70) ? 1 + fz_below(&c->rng, 128) : fz_len(c);
	return fz_len(c);
}

uint32_t fz_arg(struct fz_child *c, unsigned nr, int kind, const uint32_t *a, int i)
{
	int64_t off;

	switch (kind) {
	case FA_LEN:	return fz_arg_len(c, nr);
	case FA_FD:	return fz_fd(c);
	case FA_PATH:	return fz_path(c, nr);
	case FA_ARGV:	return fz_argv(c, i == 2);		/* execve(path, argv, envp) */
	case FA_FLAGS:	return fz_flags(c, nr);
	case FA_MODE:	return fz_pct(&c->rng, 80) ? 0644 : fz_int(c);
	case FA_PID:	return fz_pid(c);
	case FA_SIG:	return fz_sig(c);
	case FA_PROT:	return fz_pct(&c->rng, 90) ? fz_below(&c->rng, 8) : fz_int(c);
	case FA_WHENCE:	return fz_pct(&c->rng, 85) ? fz_below(&c->rng, 3) : fz_int(c);
	case FA_CLOCK:	return fz_pct(&c->rng, 85) ? fz_below(&c->rng, 2) : fz_int(c);
	case FA_POS_LO:
		off = fz_offset(c);
		c->pos_hi = (uint32_t)((uint64_t)off >> 32);
		return (uint32_t)off;
	case FA_POS_HI:	return fz_pct(&c->rng, 95) ? c->pos_hi : (uint32_t)fz_next(&c->rng);
	case FA_OFF:	return fz_pct(&c->rng, 50) ? fz_below(&c->rng, 1u << 20) : fz_int(c);
	case FA_ADDR:	return fz_addr(c, nr);
	case FA_CTX:	return fz_ctx(c);
	case FA_CTXP:	return fz_ctxp(c);
	case FA_IOCB:	return fz_iocb(c);
	case FA_IOCBPP:	return fz_iocbpp(c, i ? a[i - 1] : 1);	/* io_submit(ctx, nr, iocbpp) */
	case FA_EVENTS:	return fz_events(c);
	case FA_TIMESPEC: return fz_timespec(c, false);
	case FA_DEADLINE: return fz_timespec(c, true);
	case FA_BUF: case FA_PTR: return fz_ptr(c);
	case FA_IOVEC:	return fz_iovec(c);
	case FA_POLLFD:	return fz_pollfd(c);
	case FA_TIMEVAL: return fz_timeval(c);
	case FA_TIMEOUT: return fz_timeout(c);
	case FA_COUNT:	return fz_count(c);
	case FA_IOCTL:	return fz_ioctl(c);
	case FA_FCNTL:	return fz_fcntl(c);
	case FA_ARG:	return fz_pct(&c->rng, 50) ? fz_ptr(c) : fz_int(c);
	}
	return fz_int(c);
}

/* ---- containment: the fuzzer's own safety, not the kernel's defects ---- */

/* Memory we never unmap under ourselves: text, data and heap, the stack, the
 * scratch pages (the I/O buffers may go: that is an episode). */
static bool hits_ours(const struct fz_child *c, uint32_t addr, uint32_t len)
{
	uint64_t end = (uint64_t)addr + len, sh = (uint32_t)c->shared;

	if (c->shared && addr < sh + sizeof(*c->shared) && end > sh)
		return true;			/* the page the watchdog reads */
	return (addr < c->brk0 + 8 * MIB && end > 0x08048000) ||
	       (addr < 0xC0000000u && end > 0xBF7FF000u) || (addr < FZ_HOLE && end > FZ_SCRATCH);
}

/* A name the kernel may create or remove: our own, or one it must refuse
 * whatever the calls before did: below 64 KiB and the kernel's are never
 * mapped, our PROT_NONE page stays (fz_contain), the long name is too long.
 * (The hole after FZ_RW2 may have been mapped by an mmap2 since.) A rename
 * would move "/dev" or "/bin" away, so renames get our own names only. */
static bool path_allowed(uint32_t p, bool renames)
{
	for (unsigned i = 0; i < P_DIRS + P_DIRS_N; i++)
		if (p == POOL_AT(i) && (i < P_DEV || (i >= P_DIRS && !renames)))
			return true;
	return p < 0x10000 || p >= 0xC0000000u || (p >= FZ_NONE && p < FZ_RW2) || p == LONG_NAME;
}

/* The arguments (a bit each) of call nr that name something it may create,
 * remove, rename or truncate. */
static unsigned changing_paths(unsigned nr, const uint32_t a[6])
{
	switch (nr) {
	case __NR_mkdir: case __NR_unlink: case __NR_rmdir:
		return 1 << 0;
	case __NR_open:
		return a[1] & (O_CREAT | O_TRUNC) ? 1 << 0 : 0;
	case __NR_openat:
		return a[2] & (O_CREAT | O_TRUNC) ? 1 << 1 : 0;
	case __NR_mkdirat: case __NR_unlinkat:
		return 1 << 1;
	case __NR_rename:
		return 1 << 0 | 1 << 1;
	case __NR_renameat: case __NR_renameat2:
		return 1 << 1 | 1 << 3;
	}
	return 0;
}

/* A range over our own memory moves to 0x60000000 (where nothing of ours
 * lives) and shrinks under 16 MiB. mremap, mprotect and madvise count too: a
 * string page moved onto the PROT_NONE page (or made readable there) would
 * turn a name path_allowed trusts into one the sweep does not know. */
static void move_off_ours(uint32_t *addr, uint32_t *len)
{
	*addr = 0x60000000u | (*addr & 0x00FFF000u);
	*len &= 0x00FFFFFFu;
}

/* /bin/hello creates argv[2] in the working directory and removes it: a
 * sweep's SIGKILL in between leaves a name (a random seed, say) that
 * remove_files cannot know. It gets at most two arguments from us. */
static void hello_argv_short(uint32_t *argv)
{
	if (argv[0] && argv[1])
		argv[2] = 0;
}

/* A signal's target that is the watchdog or a pump becomes the child itself. */
static void spare_ours(struct fz_child *c, uint32_t *pid)
{
	if ((int)*pid == c->watchdog_pid || (int)*pid == c->pump[0] || (int)*pid == c->pump[1])
		*pid = c->self_pid;
}

unsigned fz_contain(struct fz_child *c, unsigned nr, uint32_t a[6])
{
	bool renames = nr == __NR_rename || nr == __NR_renameat || nr == __NR_renameat2;
	unsigned paths = changing_paths(nr, a);

	if ((nr == __NR_fork || nr == __NR_vfork || nr == __NR_clone) && c->depth >= FZ_DEPTH_MAX)
		return __NR_getpid;		/* no deeper forks */
	if ((nr == __NR_exit || nr == __NR_exit_group) && (a[0] & 0xFF) - 120 < 5)
		a[0] = 0;			/* 120-124 say "could not set up" */
	if (nr == __NR_kill || nr == __NR_tkill || nr == __NR_tgkill || nr == __NR_rt_sigqueueinfo)
		spare_ours(c, &a[0]);		/* a pid, a tid or a tgid */
	if (nr == __NR_kill && (int)a[0] <= 0)
		a[0] = c->self_pid;		/* a group (0, -pgid) or all (-1): the watchdog too */
	if (nr == __NR_tgkill)
		spare_ours(c, &a[1]);
	if ((nr == __NR_munmap || nr == __NR_mprotect || nr == __NR_madvise ||
	     nr == __NR_mremap || (nr == __NR_mmap2 && (a[3] & MAP_FIXED))) &&
	    hits_ours(c, a[0], a[1]))
		move_off_ours(&a[0], &a[1]);
	if (nr == __NR_mremap && (a[3] & MREMAP_FIXED) && hits_ours(c, a[4], a[2]))
		move_off_ours(&a[4], &a[2]);
	if (nr == __NR_execve && a[0] == POOL_AT(P_PROGS + 1) && a[1] == FZ_ARGVS)
		hello_argv_short((uint32_t *)FZ_ARGVS);
	for (int i = 0; i < 6; i++) {
		a[i] = not_shared(c, a[i]);
		if ((paths >> i & 1) && !path_allowed(a[i], renames))
			a[i] = POOL_AT(P_OWN + a[i] % P_OWN_N);
	}
	if (renames) {			/* to a top name: no deeper than d/x, a/x */
		int to = nr == __NR_rename ? 1 : 3;
		if (a[to] == POOL_AT(P_OWN + 4) || a[to] == POOL_AT(P_OWN + 5))
			a[to] = POOL_AT(P_OWN + (a[to] & 3));
	}
	return nr;
}
