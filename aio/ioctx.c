/* ioctx.c: AIO contexts: creation with their ring, O(1) lookup by id, teardown. */
#include "aio_internal.h"
#include "errno.h"
#include "irq.h"
#include "panic.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "test_hooks.h"
#include "trace.h"
#include "vm.h"

atomic_t aio_nr = ATOMIC_INIT(0);
u32 aio_max_nr = AIO_MAX_NR_DEFAULT;
atomic_t aio_nr_contexts = ATOMIC_INIT(0);
static struct kmem_cache *kioctx_cache;

void aio_init(void)
{
	kioctx_cache = kmem_cache_create("kioctx", sizeof(struct kioctx), 0, NULL);
	BUG_ON(!kioctx_cache);
	kiocb_cache_init();
	aio_sysctl_init();
}

static u32 hash_id(u32 id)
{
	return (id >> PAGE_SHIFT) % AIO_HASH_SIZE;
}

static struct aio_mm *aio_mm_get(struct mm *mm)
{
	struct aio_mm *am = mm->aio;

	if (am)
		return am;
	am = kmalloc(sizeof(*am), GFP_KERNEL);
	if (!am)
		return NULL;
	memset(am, 0, sizeof(*am));
	spin_lock_init(&am->lock, "aio_mm");	/* process context only: no irqsave */
	INIT_LIST_HEAD(&am->contexts);
	/* Threads of mm may race here: the first table in wins. */
	if (__sync_val_compare_and_swap(&mm->aio, NULL, am) != NULL) {
		kfree(am);
		am = mm->aio;
	}
	return am;
}

void ioctx_free(struct kioctx *ctx)
{
	BUG_ON(in_interrupt() || ctx->reqs_active);
	aio_ring_free(ctx);
	kiocb_slots_free(ctx);
	atomic_sub(&aio_nr, ctx->max_reqs);
	atomic_dec(&aio_nr_contexts);
	kmem_cache_free(kioctx_cache, ctx);
}

void get_ioctx(struct kioctx *ctx)
{
	BUG_ON(atomic_read(&ctx->users) <= 0);
	atomic_inc(&ctx->users);
}

/* Once the count is dropped, ctx may be freed by ioctx_end on another CPU:
 * nothing here reads ctx after its decrement unless the drop was made under
 * ctx_lock, which ioctx_end takes once after its wait. A live context is
 * the common case: one read of dead and one atomic, no lock. A context that
 * turns dead between the two misses this wake-up; ioctx_end's wait polls. */
void put_ioctx(struct kioctx *ctx)
{
	u32 flags;
	bool last;

	if (likely(!READ_ONCE(ctx->dead))) {
		if (atomic_dec_and_test(&ctx->users))
			ioctx_free(ctx);	/* io_setup's own failure path */
		return;
	}
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	last = atomic_dec_and_test(&ctx->users);
	if (!last)
		wake_up_all(&ctx->wait);	/* another holder let go: ioctx_end waits */
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	if (last)
		ioctx_free(ctx);
}

static int reserve_aio_nr(u32 nr)
{
	if ((u32)atomic_add_return(&aio_nr, nr) > aio_max_nr) {
		atomic_sub(&aio_nr, nr);
		return -EAGAIN;
	}
	return 0;
}

static void ioctx_link(struct aio_mm *am, struct kioctx *ctx)
{
	u32 h = hash_id(ctx->ring.user_base);

	spin_lock(&am->lock);
	ctx->hash_next = am->hash[h];
	am->hash[h] = ctx;
	list_add_tail(&ctx->mm_list, &am->contexts);
	am->nr_contexts++;
	spin_unlock(&am->lock);
}

static atomic_t ioctx_serial = ATOMIC_INIT(0);	/* the last context's trace_id */

struct kioctx *ioctx_alloc(u32 nr_reqs)
{
	struct mm *mm = current->mm;
	struct aio_mm *am = mm ? aio_mm_get(mm) : NULL;
	struct kioctx *ctx;
	int err;

	if (!am)
		return ERR_PTR(mm ? -ENOMEM : -EINVAL);
	if ((err = reserve_aio_nr(nr_reqs)))
		return ERR_PTR(err);
	ctx = kmem_cache_alloc(kioctx_cache, GFP_KERNEL);
	if (!ctx) {
		atomic_sub(&aio_nr, nr_reqs);
		return ERR_PTR(-ENOMEM);
	}
	memset(ctx, 0, sizeof(*ctx));
	atomic_set(&ctx->users, 1);		/* the mm's table */
	ctx->mm = mm;
	ctx->max_reqs = nr_reqs;
	ctx->trace_id = atomic_inc_return(&ioctx_serial);
	spin_lock_init(&ctx->ctx_lock, "kioctx");
	mutex_init(&ctx->ring_lock);
	init_waitqueue_head(&ctx->wait);
	INIT_LIST_HEAD(&ctx->active_reqs);
	atomic_inc(&aio_nr_contexts);
	err = kiocb_slots_init(ctx);
	if (err)
		goto out_free;
	/* One step for the threads of mm: the ring's range is found, mapped and
	 * claimed (linked: ioctx_ring_busy sees it) before another io_setup or
	 * io_destroy runs, and before a munmap could free the range. */
	mutex_lock(&mm->map_mutex);
	err = aio_ring_setup(ctx);
	if (!err)
		ioctx_link(am, ctx);
	mutex_unlock(&mm->map_mutex);
	if (err)
		goto out_free;
	trace_aio(TR_AIO_SETUP, ctx->trace_id, 0, ctx->ring.user_base, 0, ctx->ring.nr);
	return ctx;
out_free:
	ioctx_free(ctx);
	return ERR_PTR(err);
}

struct kioctx *ioctx_lookup(u32 id)
{
	struct mm *mm = current->mm;
	struct aio_mm *am = mm ? mm->aio : NULL;
	struct kioctx *ctx;

	if (!am)
		return NULL;
	spin_lock(&am->lock);
	for (ctx = am->hash[hash_id(id)]; ctx; ctx = ctx->hash_next)
		if (ctx->ring.user_base == id && !ctx->dead) {
			get_ioctx(ctx);
			break;
		}
	spin_unlock(&am->lock);
	return ctx;
}

u32 ioctx_ring_busy(struct mm *mm, u32 start, u32 len)
{
	struct aio_mm *am = mm->aio;
	struct kioctx *ctx;
	u32 end = 0;

	if (!am)
		return 0;
	spin_lock(&am->lock);
	list_for_each_entry(ctx, &am->contexts, mm_list) {
		u32 base = ctx->ring.user_base, size = ctx->ring.nr_pages * PAGE_SIZE;
		if (base < start + len && start < base + size)
			end = MAX(end, base + size);
	}
	spin_unlock(&am->lock);
	return end;
}

int aio_ring_may_move(struct mm *mm, u32 old, u32 len, u32 to)
{
	struct aio_mm *am = mm->aio;
	struct kioctx *ctx;
	bool whole = false, clash = false;

	if (!am)
		return -EINVAL;			/* a ring region with no context: a leftover */
	spin_lock(&am->lock);
	list_for_each_entry(ctx, &am->contexts, mm_list) {
		u32 base = ctx->ring.user_base, size = ctx->ring.nr_pages * PAGE_SIZE;
		if (base == old)
			whole = size == len;
		else if (base < to + len && to < base + size)
			clash = true;
	}
	spin_unlock(&am->lock);
	return whole && !clash ? 0 : -EINVAL;
}

/* Take ctx out of its mm's table (once); false if someone else already did. */
static bool ioctx_unlink(struct kioctx *ctx)
{
	struct aio_mm *am = ctx->mm->aio;
	struct kioctx **pp;
	bool was_live;

	spin_lock(&am->lock);
	was_live = !ctx->dead;
	ctx->dead = true;
	if (was_live) {
		for (pp = &am->hash[hash_id(ctx->ring.user_base)]; *pp != ctx; pp = &(*pp)->hash_next)
			;
		*pp = ctx->hash_next;
		list_del(&ctx->mm_list);
		am->nr_contexts--;
	}
	spin_unlock(&am->lock);
	return was_live;
}

/* End a context the caller holds a reference to besides the table's: unlink it,
 * remove its ring from the address space when unmap is set, cancel what can be
 * cancelled, wait for the rest, drop the table's reference. Process context. */
static void ioctx_end(struct kioctx *ctx, bool unmap)
{
	struct mm *mm = ctx->mm;
	u32 flags;
	bool live;

	BUG_ON(unmap && mm != current->mm);	/* only the owner edits its mappings */
	if (unmap)				/* unlink and unmap in one step (ring.c) */
		mutex_lock(&mm->map_mutex);
	live = ioctx_unlink(ctx);
	if (live && unmap) {
		ktest_destroy_yield();		/* test kernel: a preemption here */
		aio_ring_unmap(ctx);
	}
	if (unmap)
		mutex_unlock(&mm->map_mutex);
	if (!live)
		return;
	trace_aio(TR_AIO_DESTROY, ctx->trace_id, 0, READ_ONCE(ctx->reqs_active), 0, 0);
	aio_ring_trace_head(ctx);		/* what user space reaped from the ring */
	/* dead is read by aio_get_req under ctx_lock: once this section is
	 * past, no submit adds a request that aio_cancel_all would miss. */
	spin_lock_irqsave(&ctx->ctx_lock, flags);
	ctx->dead = true;
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	wake_up_all(&ctx->wait);		/* other threads' waits end: -EINVAL */
	aio_cancel_all(ctx);
	while (!wait_event_timeout(ctx->wait, atomic_read(&ctx->users) == 2, 1))
		;				/* a put racing with dead may not wake us */
	spin_lock_irqsave(&ctx->ctx_lock, flags);	/* the last put's section is over */
	spin_unlock_irqrestore(&ctx->ctx_lock, flags);
	trace_aio(TR_AIO_DESTROY, ctx->trace_id, 0, 0, 0, 1);
	put_ioctx(ctx);				/* the table's reference */
}

void ioctx_kill(struct kioctx *ctx)
{
	ioctx_end(ctx, true);
}

/* The rings stay mapped: the address space is going away, and its teardown
 * drops the mappings with everything else (Linux's exit_aio says the same of
 * exit_mmap). Only a live process's io_destroy unmaps. */
void exit_aio(struct mm *mm)
{
	struct aio_mm *am = mm->aio;

	if (!am)
		return;
	while (!list_empty(&am->contexts)) {
		struct kioctx *ctx = list_first_entry(&am->contexts, struct kioctx, mm_list);
		get_ioctx(ctx);
		ioctx_end(ctx, false);
		put_ioctx(ctx);
	}
	mm->aio = NULL;
	kfree(am);
}

void aio_ring_moved(struct mm *mm, u32 old, u32 new)
{
	struct aio_mm *am = mm->aio;
	struct kioctx *ctx, **pp;

	if (!am)
		return;
	spin_lock(&am->lock);
	for (pp = &am->hash[hash_id(old)]; (ctx = *pp); pp = &ctx->hash_next)
		if (ctx->ring.user_base == old && !ctx->dead)
			break;
	if (ctx) {
		*pp = ctx->hash_next;
		ctx->ring.user_base = new;
		ctx->hash_next = am->hash[hash_id(new)];
		am->hash[hash_id(new)] = ctx;
	}
	spin_unlock(&am->lock);
}
