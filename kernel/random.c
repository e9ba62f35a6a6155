/* random.c: getrandom (355): bytes from a TSC-seeded xorshift generator; not for cryptography. */
#include "errno.h"
#include "sched.h"
#include "signal.h"
#include "syscall_table.h"
#include "types.h"
#include "uaccess.h"
#include "uapi/random.h"
#include "x86.h"

/*
 * There is no entropy pool: each call stirs the time stamp counter into a
 * xorshift64* state. Good enough for seeds and hash salts, never for keys
 * (documented in README). The call never blocks, so GRND_NONBLOCK and
 * GRND_RANDOM change nothing; their combinations are checked as Linux does.
 */
#define RANDOM_CHUNK	256
#define RANDOM_MAX	(32u << 20)	/* Linux: 32 MiB at most per call */

static u64 random_state = 0x9E3779B97F4A7C15ull;

static u64 random_next(void)
{
	u64 x = random_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	random_state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static void random_fill(u8 *buf, u32 n)
{
	random_state ^= rdtsc();
	for (u32 i = 0; i < n; i += 8) {
		u64 v = random_next();

		for (u32 j = 0; j < 8 && i + j < n; j++)
			buf[i + j] = (u8)(v >> (8 * j));
	}
}

/* The bytes written; a fault or a signal after some bytes ends it early. */
long sys_getrandom(void *ubuf, unsigned count, unsigned flags)
{
	u8 chunk[RANDOM_CHUNK];
	u32 done = 0;

	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if ((flags & GRND_RANDOM) && (flags & GRND_INSECURE))
		return -EINVAL;
	if (count > RANDOM_MAX)
		count = RANDOM_MAX;
	while (done < count) {
		u32 n = count - done < RANDOM_CHUNK ? count - done : RANDOM_CHUNK;

		if (done && signal_pending(current))
			break;
		random_fill(chunk, n);
		if (copy_to_user((u8 *)ubuf + done, chunk, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return done;
}
