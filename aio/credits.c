/* credits.c: per-CPU request credits: a context's limit of max_reqs requests
 * in flight (io_setup's nr_events), kept so that submitters and completions
 * on different CPUs do not bounce one counter's cache line (Linux's per-CPU
 * reqs_available batches), with the same -EAGAIN as one count would give.
 *
 * A context has max_reqs credits: in its pool (ctx->reqs_available), cached
 * by a CPU (ctx->cpu[n], each on its own cache line), or held by a request
 * from aio_get_req until its slot is released. A CPU takes a credit from its
 * own cache; when that is empty it takes a batch from the pool; when the pool
 * is empty too it moves every CPU's cache back to the pool and tries again,
 * so a submit fails only when every credit is held by a request. A credit
 * comes back to the releasing CPU's cache, and a cache over two batches gives
 * one back to the pool. Every operation is one atomic on one word; callers
 * run with interrupts off so that they stay on their CPU meanwhile (any CPU
 * may still touch another's cache: only by atomic exchange or add). */
#include "aio_internal.h"
#include "errno.h"
#include "panic.h"
#include "slab.h"
#include "smp.h"
#include "string.h"

int aio_credits_init(struct kioctx *ctx)
{
	u32 batch = ctx->max_reqs / (4 * (nr_cpus_online ? nr_cpus_online : 1));

	ctx->cpu = kmalloc(NR_CPUS * sizeof(*ctx->cpu), GFP_KERNEL);
	if (!ctx->cpu)
		return -ENOMEM;
	memset(ctx->cpu, 0, NR_CPUS * sizeof(*ctx->cpu));
	ctx->reqs_available = ctx->max_reqs;
	ctx->req_batch = batch ? batch : 1;
	return 0;
}

u32 aio_credits_total(struct kioctx *ctx)
{
	u32 total = __atomic_load_n(&ctx->reqs_available, __ATOMIC_RELAXED);

	for (u32 i = 0; i < NR_CPUS; i++)
		total += __atomic_load_n(&ctx->cpu[i].reqs_available, __ATOMIC_RELAXED);
	return total;
}

/* Every request gone (reqs_active 0): every credit must be back. */
void aio_credits_free(struct kioctx *ctx)
{
	if (!ctx->cpu)
		return;
	if (aio_credits_total(ctx) != ctx->max_reqs)
		panic("aio_credits_free: %u of %u request credits back", aio_credits_total(ctx),
		      ctx->max_reqs);
	kfree(ctx->cpu);
	ctx->cpu = NULL;
}

/* Take up to n from *avail (n or fewer, never below 0): how many. */
static s32 credits_take(s32 *avail, s32 n)
{
	s32 v = __atomic_load_n(avail, __ATOMIC_RELAXED);

	while (v > 0 && !__atomic_compare_exchange_n(avail, &v, v - MIN(v, n), false,
						     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		;
	return v > 0 ? MIN(v, n) : 0;
}

/* Every CPU's cache back to the pool; how many credits moved. */
static s32 credits_reclaim(struct kioctx *ctx)
{
	s32 moved = 0;

	for (u32 i = 0; i < NR_CPUS; i++)
		moved += __atomic_exchange_n(&ctx->cpu[i].reqs_available, 0, __ATOMIC_ACQ_REL);
	if (moved)
		__atomic_add_fetch(&ctx->reqs_available, moved, __ATOMIC_RELEASE);
	return moved;
}

/* This CPU's cache is empty: refill it from the pool (one credit for the
 * caller, the rest of a batch cached), reclaiming the other CPUs' caches
 * while the pool is empty. False when every credit is held by a request. */
static bool credits_refill(struct kioctx *ctx, s32 *avail)
{
	s32 got;

	do {
		got = credits_take(&ctx->reqs_available, ctx->req_batch);
		if (got) {
			if (got > 1)
				__atomic_add_fetch(avail, got - 1, __ATOMIC_RELEASE);
			return true;
		}
	} while (credits_reclaim(ctx));
	return false;
}

bool aio_credit_get(struct kioctx *ctx)
{
	u32 flags = local_irq_save();
	s32 *avail = &ctx->cpu[smp_processor_id()].reqs_available;
	bool ok = credits_take(avail, 1) || credits_refill(ctx, avail);

	local_irq_restore(flags);
	return ok;
}

void aio_credit_put(struct kioctx *ctx)
{
	u32 flags = local_irq_save();
	s32 *avail = &ctx->cpu[smp_processor_id()].reqs_available;
	s32 batch = ctx->req_batch, back;

	if (__atomic_add_fetch(avail, 1, __ATOMIC_RELEASE) > 2 * batch &&
	    (back = credits_take(avail, batch)))
		__atomic_add_fetch(&ctx->reqs_available, back, __ATOMIC_RELEASE);
	local_irq_restore(flags);
}
