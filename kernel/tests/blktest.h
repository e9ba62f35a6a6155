/* blktest.h: shared helpers of the block test suites (patterns, buffers,
 * asynchronous requests, and the driver-independent cases they all run). */
#ifndef BLKTEST_H
#define BLKTEST_H

#include "blkdev.h"
#include "ktest.h"

#define BLKTEST_BUF_SIZE	(256u << 10)	/* each test buffer */
#define BLKTEST_MAX_REQS	160
#define BLKTEST_MAX_SEGS	8
#define BLKTEST_WAIT_MS		10000

struct blktest_req {
	struct blk_request req;
	struct blk_seg seg[BLKTEST_MAX_SEGS];
	int calls;		/* done() calls seen: must end at exactly 1 */
	int result;
	int order;		/* completion rank (1-based) */
};

extern u8 *blktest_a, *blktest_b;	/* two low-memory buffers, 64 KiB aligned */
extern u32 blktest_a_phys, blktest_b_phys;
extern struct blktest_req blktest_reqs[BLKTEST_MAX_REQS];
extern volatile int blktest_completions;

/* Allocate the buffers once; 0 or -ENOMEM. Suite init. */
int blktest_setup(void);
/* The pattern: 32-bit word w of sector s, for a seed (tools/blk_image.py
 * computes the same). */
static inline u32 blktest_word(u64 s, u32 w, u32 seed)
{
	return (u32)s * 0x9E3779B1u ^ w * 0x01000193u ^ (u32)(s >> 32) ^ seed;
}
void blktest_fill(void *buf, u64 sector, u32 nr, u32 seed);
/* Index of the first wrong word, or -1 when buf holds the pattern. */
long blktest_check(const void *buf, u64 sector, u32 nr, u32 seed);
u32 blktest_new_seed(void);

/* blkdev_cancel's match for the one request want. */
static inline bool blktest_is(struct blk_request *r, void *want)
{
	return r == want;
}
/* Withdraw req if still queued: true when blkdev_cancel gave it back. */
static inline bool blktest_cancel_req(struct blkdev *dev, struct blk_request *req)
{
	return blkdev_cancel(dev, blktest_is, req) == req;
}

/* Reset slot i and make it a one-segment request at phys. */
struct blk_request *blktest_prep(int i, enum blk_op op, u64 sector, u32 nr, u32 phys);
/* Wait (process context) until blktest_completions reaches target; false on timeout. */
bool blktest_wait(int target, u32 ms);
/* One request on the kernel buffer at phys (a flush: sector, phys, nr
 * ignored), waited for: bytes, -errno from validation or the device, or
 * -ETIMEDOUT when it sat in the driver's queue for BLKTEST_WAIT_MS (then
 * withdrawn); once on the device it is waited for to the end. */
int blktest_rw(struct blkdev *dev, enum blk_op op, u64 sector, u32 phys, u32 nr);
/* Every counter of dev balanced and nothing in flight. */
void blktest_expect_balanced(struct ktest *t, struct blkdev *dev);

/* Write the pattern at sector, read it back into the other buffer, compare;
 * false (the failure reported) when any step goes wrong. */
bool blktest_roundtrip(struct ktest *t, struct blkdev *dev, u64 sector, u32 nr);

/* Driver-independent cases. */
void blktest_rw_sizes(struct ktest *t, struct blkdev *dev);
void blktest_multi_segment(struct ktest *t, struct blkdev *dev);
/* n one-sector writes in one batch (one kick), then n reads, verified. */
void blktest_many(struct ktest *t, struct blkdev *dev, int n);
extern int blktest_many_active;		/* ACTIVE right after the write batch's kick */
extern void (*blktest_many_hook)(void);	/* called right after that kick, irqs off */
void blktest_invalid(struct ktest *t, struct blkdev *dev);
void blktest_cancel(struct ktest *t, struct blkdev *dev, int n);
void blktest_flush(struct ktest *t, struct blkdev *dev);

#endif
