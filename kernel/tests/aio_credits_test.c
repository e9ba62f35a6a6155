/* aio_credits_test.c: the "aio_credits" suite: the per-CPU request credits
 * (aio/credits.c) give exactly max_reqs requests, wherever the credits are
 * cached, and all come back. Runs in the kernel entry (one CPU) and in the
 * smp entry, where every CPU takes credits at once from its IPI handler. */
#include "../../aio/aio_internal.h"
#include "ktest.h"
#include "slab.h"
#include "smp.h"
#include "string.h"

#define MAX_REQS	64

/* A context with only what the credits use. */
static struct kioctx *credits_ctx(u32 max_reqs)
{
	struct kioctx *ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return NULL;
	memset(ctx, 0, sizeof(*ctx));
	ctx->max_reqs = max_reqs;
	if (aio_credits_init(ctx)) {
		kfree(ctx);
		return NULL;
	}
	return ctx;
}

static void credits_ctx_free(struct kioctx *ctx)
{
	aio_credits_free(ctx);		/* panics unless all are back */
	kfree(ctx);
}

static u32 take_all(struct kioctx *ctx)
{
	u32 n = 0;

	while (aio_credit_get(ctx))
		n++;
	return n;
}

/* Exactly max_reqs, then none; one back gives one more. */
static void limit_is_exact(struct kioctx *ctx, struct ktest *t)
{
	EXPECT_EQ(t, take_all(ctx), MAX_REQS);
	EXPECT_FALSE(t, aio_credit_get(ctx));
	aio_credit_put(ctx);
	EXPECT_TRUE(t, aio_credit_get(ctx));
	EXPECT_FALSE(t, aio_credit_get(ctx));
	for (u32 i = 0; i < MAX_REQS; i++)
		aio_credit_put(ctx);
	EXPECT_EQ(t, aio_credits_total(ctx), MAX_REQS);
}

static void one_cpu_gets_exactly_max_reqs(struct ktest *t)
{
	struct kioctx *ctx = credits_ctx(MAX_REQS);

	ASSERT_NOT_NULL(t, ctx);
	limit_is_exact(ctx, t);
	limit_is_exact(ctx, t);			/* again, with credits cached now */
	credits_ctx_free(ctx);
}

/* Credits cached by other CPUs (put there as if they had submitted and
 * completed) are reclaimed before the answer is "full". */
static void credits_cached_elsewhere_are_reclaimed(struct ktest *t)
{
	struct kioctx *ctx = credits_ctx(MAX_REQS);

	ASSERT_NOT_NULL(t, ctx);
	ctx->reqs_available -= 20;
	ctx->cpu[(smp_processor_id() + 1) % NR_CPUS].reqs_available = 13;
	ctx->cpu[(smp_processor_id() + 5) % NR_CPUS].reqs_available = 7;
	EXPECT_EQ(t, aio_credits_total(ctx), MAX_REQS);
	limit_is_exact(ctx, t);
	credits_ctx_free(ctx);
}

/* A CPU's cache stays below about two batches: the rest goes to the pool. */
static void puts_return_batches_to_the_pool(struct ktest *t)
{
	struct kioctx *ctx = credits_ctx(MAX_REQS);
	u32 me = smp_processor_id();

	ASSERT_NOT_NULL(t, ctx);
	EXPECT_EQ(t, take_all(ctx), MAX_REQS);
	for (u32 i = 0; i < MAX_REQS; i++)
		aio_credit_put(ctx);
	EXPECT_LE(t, ctx->cpu[me].reqs_available, 2 * ctx->req_batch);
	EXPECT_EQ(t, aio_credits_total(ctx), MAX_REQS);
	credits_ctx_free(ctx);
}

static struct kioctx *race_ctx;
static u32 race_taken[NR_CPUS];

static void race_take(void *arg)
{
	race_taken[smp_processor_id()] = take_all(race_ctx);
}

static void race_put(void *arg)
{
	for (u32 i = 0; i < race_taken[smp_processor_id()]; i++)
		aio_credit_put(race_ctx);
}

/* Every online CPU at once (the others in their IPI handler): together
 * they get exactly max_reqs, then give them all back. */
static void all_cpus_together_get_exactly_max_reqs(struct ktest *t)
{
	u32 sum;

	ASSERT_NOT_NULL(t, race_ctx = credits_ctx(MAX_REQS));
	for (int round = 0; round < 20; round++) {
		memset(race_taken, 0, sizeof(race_taken));
		on_each_cpu(race_take, NULL);
		sum = 0;
		for (u32 i = 0; i < NR_CPUS; i++)
			sum += race_taken[i];
		EXPECT_EQ(t, sum, MAX_REQS);
		on_each_cpu(race_put, NULL);
		EXPECT_EQ(t, aio_credits_total(race_ctx), MAX_REQS);
	}
	ktest_log("%u CPUs online", nr_cpus_online);
	credits_ctx_free(race_ctx);
}

static const struct ktest_case aio_credits_cases[] = {
	KTEST_CASE(one_cpu_gets_exactly_max_reqs),
	KTEST_CASE(credits_cached_elsewhere_are_reclaimed),
	KTEST_CASE(puts_return_batches_to_the_pool),
	KTEST_CASE(all_cpus_together_get_exactly_max_reqs),
};
KTEST_SUITE(aio_credits_suite, "aio_credits", aio_credits_cases);
