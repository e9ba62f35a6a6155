/* fuzz.h: the in-tree system-call fuzzer (user/bin/fuzz.c, user/fuzz/): what its parts share.
 *
 * The watchdog (user/bin/fuzz.c) keeps a few children at a time. Each child
 * (child.c) sets up the same resources every time (files of every type, pipes,
 * the disks, AIO contexts, a scratch area with pages of every protection),
 * then makes a stream of calls drawn from its own seed: numbers from the whole
 * table (tools/syscalls.list, through tools/fuzzgen.py) and outside it, with
 * arguments of the kinds gen.c makes (interesting values, bad pointers, huge
 * lengths), AIO batches, ring tampering, and fork/exit/kill/exec/close/munmap
 * with I/O in flight. The same SEED gives every child the same seed, so the
 * same call sequence. A child that dies is no failure; a process that SIGKILL
 * does not end within a second is, and so are a kernel panic or hang and a leak.
 */
#ifndef USER_FUZZ_H
#define USER_FUZZ_H

#include <stdbool.h>
#include <stdint.h>

/* Argument kinds: tools/fuzzgen.py gives each argument of the list one. */
enum fuzz_arg_kind {
	FA_INT = 1, FA_PTR, FA_BUF, FA_LEN, FA_FD, FA_PATH, FA_ARGV, FA_FLAGS, FA_MODE,
	FA_PID, FA_SIG, FA_PROT, FA_WHENCE, FA_CLOCK, FA_POS_LO, FA_POS_HI, FA_OFF,
	FA_ADDR, FA_CTX, FA_CTXP, FA_IOCB, FA_IOCBPP, FA_EVENTS, FA_TIMESPEC, FA_DEADLINE,
	FA_IOVEC, FA_POLLFD, FA_TIMEVAL, FA_TIMEOUT, FA_COUNT, FA_IOCTL, FA_FCNTL, FA_ARG,
};

struct fuzz_call_desc {
	unsigned nr;
	const char *name;
	unsigned char nargs;
	unsigned char kind[6];
};

/* The table (child.c includes the generated fuzz_calls.h). */
extern const struct fuzz_call_desc *const fuzz_table;
extern const int fuzz_table_len;
/* The name of call nr, or NULL outside the table. */
const char *fuzz_call_name(unsigned nr);

#define FUZZ_NR_SPAN	512		/* numbers fuzzed: 0..511 (the table ends at 501) */
#define FUZZ_SLOTS_MAX	8

/* Known kernel defects the fuzzer keeps away from, each named for the
 * finding it belongs to (e.g. "F3_pipe_aio_partial_write" for issue 14's
 * finding 3); an entry goes when its finding is fixed. None is left: issue
 * 14's F1, F3, F5 and F7 are fixed, and offsets at the top, partly done pipe
 * writes at teardown, unmapped rings and memory hogs are all fuzzed.
 * gen.c's fuzz_exclusions[] says what each one changes; noexcl= lifts one. */
enum fuzz_excl {
	EX_COUNT
};

struct fuzz_exclusion {
	const char *name;
	const char *what;
};
extern const struct fuzz_exclusion fuzz_exclusions[EX_COUNT];
extern bool fuzz_excl_on[EX_COUNT];

/* One child slot in the page the watchdog shares with every child. */
struct fuzz_slot {
	volatile int pid;		/* the child now in the slot */
	volatile uint32_t round;	/* how many children the slot had before it */
	volatile uint64_t seed;		/* its seed */
	volatile uint32_t calls;	/* calls made by it and its forks */
	volatile uint32_t nr;		/* the call in progress (its last) */
	volatile uint32_t args[6];
	volatile int pump[2];		/* its pipe pumps: spared by the sweep */
};

struct fuzz_shared {
	struct fuzz_slot slot[FUZZ_SLOTS_MAX];
	volatile uint32_t by_nr[FUZZ_NR_SPAN];	/* calls made per number */
	volatile uint64_t tsc_by_nr[FUZZ_NR_SPAN];	/* TSC cycles spent in them */
	uint32_t skip[FUZZ_NR_SPAN / 32];	/* numbers not to call (option skip=) */
};

static inline bool fuzz_skipped(const struct fuzz_shared *sh, unsigned nr)
{
	return sh && nr < FUZZ_NR_SPAN && (sh->skip[nr / 32] >> (nr % 32) & 1);
}

/* splitmix64: small, and every seed gives a good stream. */
struct fuzz_rng {
	uint64_t s;
};

static inline uint64_t fz_next(struct fuzz_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) (n > 0; the bias is of no matter here). */
static inline uint32_t fz_below(struct fuzz_rng *r, uint32_t n)
{
	return (uint32_t)(fz_next(r) >> 32) % n;
}

/* True with probability pct percent. */
static inline bool fz_pct(struct fuzz_rng *r, unsigned pct)
{
	return fz_below(r, 100) < pct;
}

/* The seed of round `round` of slot `slot` in the run of seed `seed`. */
static inline uint64_t fuzz_child_seed(uint64_t seed, unsigned slot, unsigned round)
{
	struct fuzz_rng r = { seed * 0x100000001B3ull ^ ((uint64_t)slot << 40) ^ round };

	return fz_next(&r);
}

/* What a child is told. */
struct fuzz_child_args {
	struct fuzz_shared *shared;
	unsigned slot;			/* its slot (names its files) */
	uint64_t seed;
	int watchdog_pid;		/* never a target of kill */
	long long deadline_ns;		/* CLOCK_MONOTONIC: end by then */
	unsigned max_calls;
};

/* Run a child: set up, make calls until the deadline, end its forks, _exit.
 * Never returns. */
void fuzz_child_run(const struct fuzz_child_args *a) __attribute__((noreturn));
/* The exec'd form (argv "fuzz exec SEED SLOT WATCHDOG"): a short stream on
 * the descriptors exec kept. Never returns. */
void fuzz_exec_child(uint64_t seed, unsigned slot, int watchdog_pid) __attribute__((noreturn));
/* Monotonic clock in ns (raw call: usable in any child). */
long long fuzz_now_ns(void);
/* The names a slot's children may create, for the watchdog's clean-up:
 * fills buf with name i of slot (i from 0); false past the last. */
bool fuzz_slot_path(unsigned slot, unsigned i, char *buf, unsigned size);

#endif
