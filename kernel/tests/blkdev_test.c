/* blkdev_test.c: the "blkdev" suite: the block core against a fake in-memory
 * device: registry, validation, counters, cancel states, DMA memory, the
 * queue helpers; then /dev/nul0 on that device through the AIO and
 * synchronous system calls, with a device that finishes every request inside
 * its submit op (the fastest possible), in a temporary address space. Needs
 * no hardware. */
#include "../../aio/aio_internal.h"
#include "blk_file.h"
#include "blktest.h"
#include "errno.h"
#include "fs.h"
#include "mm.h"
#include "sched.h"
#include "slab.h"
#include "spinlock.h"
#include "string.h"
#include "syscall_table.h"
#include "uapi/time.h"
#include "uaccess.h"
#include "vm.h"

/* HOLD: queued requests stay queued; START: a kick puts them on the "device"
 * (fake_finish ends them); COMPLETE: a kick ends them; INLINE: submit ends
 * each one before it returns. */
enum fake_mode { FAKE_HOLD, FAKE_START, FAKE_COMPLETE, FAKE_INLINE };

static enum fake_mode fake_mode;
static struct blk_queue fake_queued, fake_active;
static int fake_kicks;

static int fake_submit(struct blkdev *dev, struct blk_request *r)
{
	u32 flags = local_irq_save();

	if (fake_mode == FAKE_INLINE) {
		r->state = BLK_REQ_ACTIVE;
		blkdev_complete(r, r->nr_sectors * BLK_SECTOR_SIZE);
	} else {
		blk_queue_push(&fake_queued, r);
	}
	local_irq_restore(flags);
	return 0;
}

/* Finish every started request with result (bytes when result is 0). */
static void fake_finish(int result)
{
	u32 flags = local_irq_save();
	struct blk_request *r;

	while ((r = blk_queue_pop(&fake_active)))
		blkdev_complete(r, result ? result : (int)r->nr_sectors * BLK_SECTOR_SIZE);
	local_irq_restore(flags);
}

static void fake_kick(struct blkdev *dev)
{
	u32 flags = local_irq_save();
	struct blk_request *r;

	fake_kicks++;
	while ((fake_mode == FAKE_START || fake_mode == FAKE_COMPLETE) &&
	       (r = blk_queue_pop(&fake_queued))) {
		r->state = BLK_REQ_ACTIVE;
		blk_queue_push(&fake_active, r);
	}
	local_irq_restore(flags);
	if (fake_mode == FAKE_COMPLETE)
		fake_finish(0);
}

static struct blk_request *fake_cancel(struct blkdev *dev, blk_match_fn *match, void *arg)
{
	u32 flags = local_irq_save();
	struct blk_request *r = blk_queue_remove_match(&fake_queued, match, arg);

	local_irq_restore(flags);
	return r;
}

static const struct blk_ops fake_ops = { fake_submit, fake_kick, fake_cancel };
static struct blkdev fake = {
	.name = "nul0", .nr_sectors = 2048, .max_sectors = 64, .max_segs = 4,
	.flags = BLKDEV_F_FLUSH, .ops = &fake_ops,
};

/* The file cases' user memory (in a temporary address space). */
#define U_BASE		0x40000000u
#define U_CTX		U_BASE			/* aio_context_t */
#define U_WHEN		(U_BASE + 0x10)		/* struct kernel_timespec: the epoch (poll) */
#define U_RESULT	(U_BASE + 0x20)		/* io_cancel's struct io_event */
#define U_PTRS		(U_BASE + 0x100)	/* struct iocb *[FILE_REQS] */
#define U_IOCBS		(U_BASE + 0x400)	/* struct iocb[FILE_REQS] */
#define U_EVENTS	(U_BASE + 0x1000)	/* struct io_event[FILE_REQS] */
#define U_DATA		(U_BASE + 0x2000)	/* FILE_REQS buffers, FILE_SPAN apart */
#define FILE_REQS	8
#define FILE_SPAN	(20 * PAGE_SIZE)
#define FILE_POS(i)	((u32)(i) << 17)	/* request i's device offset: 128 KiB apart */

/* Buffer offset in its span and length: one to five driver requests each
 * (the fake device takes 4 pages per request). */
static const struct { u32 off, len; } file_io[FILE_REQS] = {
	{ 0, 512 }, { 512, 4096 }, { 0, 16384 }, { 512, 16384 },
	{ 0, 65536 }, { 3584, 65536 }, { 0, 73728 }, { 1024, 76800 },
};

static struct mm *test_mm, *saved_mm;
static struct files_struct *saved_files;
static int fake_fd = -1;
static u32 base_ios, base_kiocbs;

/* A temporary address space and descriptor table with /dev/nul0 open as
 * fake_fd. The mm and files are the suite's: restored by the exit. */
static int blkdev_files_init(void)
{
	struct inode *inode;
	struct file *f;

	test_mm = mm_create();
	if (!test_mm || vm_map(test_mm, U_BASE, U_DATA - U_BASE + FILE_REQS * FILE_SPAN,
			       VM_READ | VM_WRITE))
		return -ENOMEM;
	saved_mm = current->mm;
	current->mm = test_mm;
	mm_activate(test_mm);
	saved_files = current->files;
	current->files = files_alloc();
	if (!current->files || blk_file_create(&fake))
		return -ENOMEM;
	inode = namei("/dev/nul0");
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	f = vfs_open_inode(inode, FMODE_READ | FMODE_WRITE, O_RDWR);
	iput(inode);
	if (IS_ERR(f))
		return PTR_ERR(f);
	fake_fd = fd_install(current->files, f);
	base_ios = atomic_read(&blk_io_live);
	base_kiocbs = aio_nr_kiocbs_read();
	return fake_fd < 0 ? fake_fd : 0;
}

static int blkdev_suite_init(void)
{
	int err = blktest_setup();

	return err ? err : blkdev_files_init();
}

static void blkdev_suite_exit(void)
{
	if (current->files)
		files_put(current->files);
	current->files = saved_files;
	if (test_mm) {
		exit_aio(test_mm);	/* what a process's exit does: any context left */
		current->mm = saved_mm;
		mm_activate(saved_mm);
		mm_put(test_mm);
	}
	vfs_unlink("/dev/nul0");
}

static void registry(struct ktest *t)
{
	static struct blkdev incomplete = { .name = "bad0" };
	int n = 0;

	EXPECT_EQ(t, blkdev_register(&fake), 0);
	EXPECT_EQ(t, blkdev_register(&fake), -EEXIST);
	EXPECT_EQ(t, blkdev_register(&incomplete), -EINVAL);
	EXPECT_TRUE(t, blkdev_find("nul0") == &fake);
	EXPECT_NULL(t, blkdev_find("nul"));
	EXPECT_NULL(t, blkdev_find("bad0"));
	while (blkdev_nth(n))
		n++;
	EXPECT_TRUE(t, blkdev_nth(n - 1) == &fake);	/* registration order */
	EXPECT_NULL(t, blkdev_nth(-1));
}

static void validation(struct ktest *t)
{
	blktest_invalid(t, &fake);
	EXPECT_NULL(t, fake_queued.head);
}

static void counters_follow_requests(struct ktest *t)
{
	int base = blktest_completions;

	fake_mode = FAKE_START;
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(t, blkdev_submit(&fake, blktest_prep(i, BLK_READ, i, 1, blktest_b_phys)), 0);
	EXPECT_EQ(t, atomic_read(&fake.in_flight), 3);
	EXPECT_EQ(t, blktest_reqs[2].req.state, BLK_REQ_QUEUED);
	blkdev_kick(&fake);
	EXPECT_EQ(t, blktest_reqs[2].req.state, BLK_REQ_ACTIVE);
	fake_finish(-EIO);
	EXPECT_EQ(t, blktest_completions, base + 3);
	EXPECT_EQ(t, blktest_reqs[1].result, -EIO);
	EXPECT_EQ(t, blktest_reqs[1].req.state, BLK_REQ_DONE);
	EXPECT_EQ(t, atomic_read(&fake.errors), 3);
	EXPECT_EQ(t, atomic_read(&fake.completed), 3);
	blktest_expect_balanced(t, &fake);
}

static void cancel_by_state(struct ktest *t)
{
	struct blk_request *a = blktest_prep(0, BLK_WRITE, 10, 1, blktest_a_phys);
	struct blk_request *b = blktest_prep(1, BLK_WRITE, 11, 1, blktest_a_phys);

	fake_mode = FAKE_START;
	ASSERT_EQ(t, blkdev_submit(&fake, a), 0);
	blkdev_kick(&fake);
	fake_mode = FAKE_HOLD;
	ASSERT_EQ(t, blkdev_submit(&fake, b), 0);
	blkdev_kick(&fake);
	EXPECT_TRUE(t, blktest_cancel_req(&fake, b));		/* queued: withdrawn */
	EXPECT_EQ(t, b->state, BLK_REQ_NEW);
	EXPECT_NULL(t, fake_queued.head);
	EXPECT_FALSE(t, blktest_cancel_req(&fake, b));		/* already withdrawn */
	EXPECT_FALSE(t, blktest_cancel_req(&fake, a));		/* on the device */
	EXPECT_EQ(t, blktest_reqs[1].calls, 0);			/* never done() */
	fake_finish(0);
	EXPECT_EQ(t, blktest_reqs[0].result, 512);
	EXPECT_FALSE(t, blktest_cancel_req(&fake, a));
	EXPECT_EQ(t, blktest_reqs[0].calls, 1);
	EXPECT_EQ(t, atomic_read(&fake.cancelled), 1);
	blktest_expect_balanced(t, &fake);
}

static void resubmit_after_done(struct ktest *t)
{
	struct blk_request *r = blktest_prep(0, BLK_READ, 5, 2, blktest_b_phys);

	fake_mode = FAKE_COMPLETE;
	ASSERT_EQ(t, blkdev_submit(&fake, r), 0);
	EXPECT_EQ(t, blkdev_submit(&fake, r), -EBUSY);	/* still owned by the driver */
	blkdev_kick(&fake);
	EXPECT_EQ(t, blkdev_submit(&fake, r), 0);		/* done: may be reused */
	blkdev_kick(&fake);
	EXPECT_EQ(t, blktest_reqs[0].calls, 2);
	blktest_expect_balanced(t, &fake);
}

static void sync_io(struct ktest *t)
{
	fake_mode = FAKE_COMPLETE;
	EXPECT_EQ(t, blktest_rw(&fake, BLK_READ, 0, blktest_b_phys, 64), 64 * 512);
	EXPECT_EQ(t, blktest_rw(&fake, BLK_FLUSH, 0, 0, 0), 0);
	EXPECT_EQ(t, blktest_rw(&fake, BLK_READ, 2047, blktest_b_phys, 2), -EINVAL);
	blktest_expect_balanced(t, &fake);
}

/* Rings and tables: zeroed whole pages of the DMA zone, aligned to their
 * rounded-up size, given back to the page allocator. */
static void dma_memory(struct ktest *t)
{
	u32 free = nr_free_pages_zone(ZONE_DMA), p1, p2;
	u8 *v1 = blk_dma_alloc(3 * PAGE_SIZE, &p1), *v2;

	ASSERT_NOT_NULL(t, v1);
	EXPECT_EQ(t, p1 & (4 * PAGE_SIZE - 1), 0);
	EXPECT_TRUE(t, __va(p1) == v1);
	EXPECT_LE(t, p1 + 3 * PAGE_SIZE, DMA_LIMIT_PFN << PAGE_SHIFT);
	EXPECT_EQ(t, v1[0] | v1[3 * PAGE_SIZE - 1], 0);
	EXPECT_EQ(t, nr_free_pages_zone(ZONE_DMA), free - 4);
	memset(v1, 0xAB, 3 * PAGE_SIZE);
	blk_dma_free(v1, 3 * PAGE_SIZE);
	v2 = blk_dma_alloc(100, &p2);
	ASSERT_NOT_NULL(t, v2);
	EXPECT_EQ(t, v2[0] | v2[PAGE_SIZE - 1], 0);		/* zeroed again */
	blk_dma_free(v2, 100);
	EXPECT_EQ(t, nr_free_pages_zone(ZONE_DMA), free);
}

static void queue_helpers(struct ktest *t)
{
	struct blk_queue q = { NULL, NULL };
	struct blk_request r[3];

	for (int i = 0; i < 3; i++)
		blk_queue_push(&q, &r[i]);
	EXPECT_TRUE(t, blk_queue_remove_match(&q, blktest_is, &r[2]) == &r[2]);
	EXPECT_TRUE(t, q.tail == &r[1]);
	EXPECT_NULL(t, blk_queue_remove_match(&q, blktest_is, &r[2]));
	blk_queue_push(&q, &r[2]);
	EXPECT_TRUE(t, blk_queue_pop(&q) == &r[0]);
	EXPECT_TRUE(t, blk_queue_remove_match(&q, blktest_is, &r[1]) == &r[1]);
	EXPECT_TRUE(t, blk_queue_pop(&q) == &r[2]);
	EXPECT_NULL(t, blk_queue_pop(&q));
	EXPECT_NULL(t, q.tail);
}

/* ---- /dev/nul0 through the system calls ---- */

static u32 file_buf(int i)
{
	return U_DATA + i * FILE_SPAN + file_io[i].off;
}

static u32 file_parts(int i)		/* driver requests for file_io[i] */
{
	u32 pages = DIV_ROUND_UP(file_io[i].off % PAGE_SIZE + file_io[i].len, PAGE_SIZE);

	return DIV_ROUND_UP(pages, 4);
}

/* io_setup(nr): the context id, 0 on failure. */
static aio_context_t file_ctx(struct ktest *t, unsigned nr)
{
	aio_context_t id = 0;

	if (!EXPECT_EQ(t, put_user(id, (aio_context_t *)U_CTX), 0) ||
	    !EXPECT_EQ(t, sys_io_setup(nr, (aio_context_t *)U_CTX), 0) ||
	    !EXPECT_EQ(t, get_user(id, (aio_context_t *)U_CTX), 0))
		return 0;
	return id;
}

/* Write iocb number slot (file_io[i], opcode op, aio_data i) and its pointer. */
static int file_iocb(int slot, int i, u16 op)
{
	struct iocb cb = { .aio_data = i, .aio_lio_opcode = op, .aio_fildes = fake_fd };
	struct iocb *ucb = (struct iocb *)U_IOCBS + slot;

	if (op == IOCB_CMD_PREAD || op == IOCB_CMD_PWRITE) {
		cb.aio_buf = file_buf(i);
		cb.aio_nbytes = file_io[i].len;
		cb.aio_offset = FILE_POS(i);
	}
	if (copy_to_user(ucb, &cb, sizeof(cb)) || put_user(ucb, (struct iocb **)U_PTRS + slot))
		return -EFAULT;
	return 0;
}

/* Poll the ring: up to n events into ev[], the count (or -errno). */
static long file_events(aio_context_t id, struct io_event *ev, long n)
{
	struct kernel_timespec epoch = { 0, 0 };
	long got;

	if (copy_to_user((void *)U_WHEN, &epoch, sizeof(epoch)))
		return -EFAULT;
	got = sys_io_getevents_abs(id, n, (struct io_event *)U_EVENTS,
				   (struct kernel_timespec *)U_WHEN);
	if (got > 0 && copy_from_user(ev, (void *)U_EVENTS, got * sizeof(*ev)))
		return -EFAULT;
	return got;
}

/* Nothing of the file cases left: block I/Os, requests, device counters. */
static void file_expect_clean(struct ktest *t)
{
	EXPECT_EQ(t, atomic_read(&blk_io_live), base_ios);
	EXPECT_EQ(t, aio_nr_kiocbs_read(), base_kiocbs);
	blktest_expect_balanced(t, &fake);
}

/* One io_submit of FILE_REQS writes and reads of one to five driver requests
 * each, on a device that ends every driver request inside its submit op: each
 * iocb ends exactly once with its full length, and the last part's end cannot
 * free the request under the submitter (a freed block I/O is poisoned). */
static void fast_device_aio_multi_part(struct ktest *t)
{
	struct io_event ev[FILE_REQS];
	int submitted = atomic_read(&fake.submitted), seen[FILE_REQS] = { 0 };
	u32 parts = 0;
	aio_context_t id;

	fake_mode = FAKE_INLINE;
	ASSERT_TRUE(t, (id = file_ctx(t, FILE_REQS)) != 0);
	for (int i = 0; i < FILE_REQS; i++) {
		ASSERT_EQ(t, file_iocb(i, i, i & 1 ? IOCB_CMD_PREAD : IOCB_CMD_PWRITE), 0);
		parts += file_parts(i);
	}
	EXPECT_EQ(t, sys_io_submit(id, FILE_REQS, (struct iocb **)U_PTRS), FILE_REQS);
	EXPECT_EQ(t, atomic_read(&blk_io_live), base_ios);	/* all ended inside */
	EXPECT_EQ(t, file_events(id, ev, FILE_REQS), FILE_REQS);
	for (int i = 0; i < FILE_REQS; i++) {
		u32 k = ev[i].data;
		ASSERT_TRUE(t, k < FILE_REQS);
		seen[k]++;
		EXPECT_EQ(t, ev[i].res, file_io[k].len);
		EXPECT_EQ(t, ev[i].obj, (u32)((struct iocb *)U_IOCBS + k));
	}
	for (int i = 0; i < FILE_REQS; i++)
		EXPECT_EQ(t, seen[i], 1);
	EXPECT_EQ(t, file_events(id, ev, FILE_REQS), 0);	/* nothing twice */
	EXPECT_EQ(t, atomic_read(&fake.submitted) - submitted, parts);
	EXPECT_EQ(t, sys_io_destroy(id), 0);
	file_expect_clean(t);
}

/* The same requests through pwrite64 / pread64 and fsync: synchronous kiocbs
 * on the same methods, each ended before the method returned. */
static void fast_device_sync_multi_part(struct ktest *t)
{
	int submitted = atomic_read(&fake.submitted);
	u32 parts = 0;

	fake_mode = FAKE_INLINE;
	for (int i = 0; i < FILE_REQS; i++) {
		EXPECT_EQ(t, sys_pwrite64(fake_fd, (void *)file_buf(i), file_io[i].len,
					  FILE_POS(i), 0), file_io[i].len);
		EXPECT_EQ(t, sys_pread64(fake_fd, (void *)file_buf(i), file_io[i].len,
					 FILE_POS(i), 0), file_io[i].len);
		parts += 2 * file_parts(i);
	}
	EXPECT_EQ(t, sys_fsync(fake_fd), 0);			/* one flush request */
	EXPECT_EQ(t, atomic_read(&fake.submitted) - submitted, parts + 1);
	EXPECT_EQ(t, sys_pread64(fake_fd, (void *)U_DATA, 100, 0, 0), -EINVAL);
	EXPECT_EQ(t, sys_pread64(fake_fd, (void *)U_DATA, 1024, 2047 * 512, 0), -EINVAL);
	file_expect_clean(t);
}

/* io_cancel withdraws a one-part request still queued: its event comes
 * through io_cancel only, -ECANCELED, and the driver never ends it. Split
 * requests and requests on the device are not cancelled; they end as usual. */
static void file_cancel_withdraws_queued(struct ktest *t)
{
	struct iocb **ptrs = (struct iocb **)U_PTRS;
	struct io_event ev[FILE_REQS], res;
	int cancelled = atomic_read(&fake.cancelled);
	aio_context_t id;

	fake_mode = FAKE_HOLD;
	ASSERT_TRUE(t, (id = file_ctx(t, 4)) != 0);
	ASSERT_EQ(t, file_iocb(0, 0, IOCB_CMD_PREAD), 0);	/* one part */
	ASSERT_EQ(t, file_iocb(1, 1, IOCB_CMD_PREAD), 0);	/* one part */
	ASSERT_EQ(t, file_iocb(2, 4, IOCB_CMD_PREAD), 0);	/* four parts */
	EXPECT_EQ(t, sys_io_submit(id, 3, ptrs), 3);
	EXPECT_EQ(t, sys_io_cancel(id, (struct iocb *)U_IOCBS + 1, (struct io_event *)U_RESULT), 0);
	ASSERT_EQ(t, copy_from_user(&res, (void *)U_RESULT, sizeof(res)), 0);
	EXPECT_EQ(t, res.data, 1);
	EXPECT_EQ(t, res.res, -ECANCELED);
	EXPECT_EQ(t, atomic_read(&fake.cancelled), cancelled + 1);
	EXPECT_EQ(t, sys_io_cancel(id, (struct iocb *)U_IOCBS + 1, (struct io_event *)U_RESULT), -EAGAIN);
	EXPECT_EQ(t, sys_io_cancel(id, (struct iocb *)U_IOCBS + 2, (struct io_event *)U_RESULT), -EAGAIN);
	fake_mode = FAKE_START;
	blkdev_kick(&fake);				/* 0 and 4 go on the device */
	EXPECT_EQ(t, sys_io_cancel(id, (struct iocb *)U_IOCBS, (struct io_event *)U_RESULT), -EAGAIN);
	EXPECT_EQ(t, atomic_read(&blk_io_live), base_ios + 2);
	fake_finish(0);
	EXPECT_EQ(t, file_events(id, ev, FILE_REQS), 2);
	EXPECT_EQ(t, ev[0].data + ev[1].data, 0 + 4);	/* never 1 */
	EXPECT_EQ(t, ev[0].res + ev[1].res, file_io[0].len + file_io[4].len);
	EXPECT_EQ(t, sys_io_destroy(id), 0);
	file_expect_clean(t);
}

/* io_destroy withdraws what is queued and waits for nothing more. */
static void file_destroy_withdraws_queued(struct ktest *t)
{
	int cancelled = atomic_read(&fake.cancelled);
	aio_context_t id;

	fake_mode = FAKE_HOLD;
	ASSERT_TRUE(t, (id = file_ctx(t, 4)) != 0);
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(t, file_iocb(i, i, IOCB_CMD_PWRITE), 0);
	EXPECT_EQ(t, sys_io_submit(id, 2, (struct iocb **)U_PTRS), 2);
	EXPECT_EQ(t, atomic_read(&blk_io_live), base_ios + 2);
	EXPECT_EQ(t, sys_io_destroy(id), 0);
	EXPECT_EQ(t, atomic_read(&fake.cancelled), cancelled + 2);
	EXPECT_NULL(t, fake_queued.head);
	file_expect_clean(t);
}

/* The cache named name, or NULL. */
static struct kmem_cache *cache_named(const char *name)
{
	struct kmem_cache *c;

	list_for_each_entry(c, &kmem_caches, list)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* Each struct blk_io comes from the "blk_io" cache: while its requests wait
 * in the driver the cache counts it (and so do aiok_stat's slab objects, which
 * init's leak check compares), and it is given back when its event is in. */
static void blk_io_counted_in_its_cache(struct ktest *t)
{
	struct kmem_cache *c = cache_named("blk_io");
	struct io_event ev[FILE_REQS];
	u32 in_use, objs;
	aio_context_t id;

	ASSERT_NOT_NULL(t, c);
	in_use = c->objs_in_use;
	fake_mode = FAKE_HOLD;
	ASSERT_TRUE(t, (id = file_ctx(t, 4)) != 0);
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(t, file_iocb(i, i, IOCB_CMD_PREAD), 0);
	objs = slab_objects_in_use();		/* the context's own objects made */
	EXPECT_EQ(t, sys_io_submit(id, 3, (struct iocb **)U_PTRS), 3);
	EXPECT_EQ(t, c->objs_in_use, in_use + 3);
	EXPECT_EQ(t, atomic_read(&blk_io_live), base_ios + 3);
	EXPECT_GE(t, slab_objects_in_use(), objs + 3 + 3);	/* and 3 kiocbs */
	fake_mode = FAKE_START;
	blkdev_kick(&fake);
	fake_finish(0);
	EXPECT_EQ(t, c->objs_in_use, in_use);
	EXPECT_EQ(t, file_events(id, ev, FILE_REQS), 3);
	EXPECT_EQ(t, sys_io_destroy(id), 0);
	file_expect_clean(t);
}

static const struct ktest_case blkdev_cases[] = {
	KTEST_CASE(registry),
	KTEST_CASE(validation),
	KTEST_CASE(counters_follow_requests),
	KTEST_CASE(cancel_by_state),
	KTEST_CASE(resubmit_after_done),
	KTEST_CASE(sync_io),
	KTEST_CASE(dma_memory),
	KTEST_CASE(queue_helpers),
	KTEST_CASE(fast_device_aio_multi_part),
	KTEST_CASE(fast_device_sync_multi_part),
	KTEST_CASE(file_cancel_withdraws_queued),
	KTEST_CASE(file_destroy_withdraws_queued),
	KTEST_CASE(blk_io_counted_in_its_cache),
};
KTEST_SUITE(blkdev_suite, "blkdev", blkdev_cases, .init = blkdev_suite_init,
	    .exit = blkdev_suite_exit);
