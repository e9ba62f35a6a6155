/* blkdev.c: the block-device core: registry, request validation and counters,
 * completion, the synchronous wait, and the DMA memory pool. Names no driver. */
#include "blkdev.h"
#include "clock.h"
#include "errno.h"
#include "irq.h"
#include "panic.h"
#include "printk.h"
#include "spinlock.h"
#include "string.h"
#include "x86.h"

#define BLK_DMA_POOL_SIZE	(768u << 10)	/* rings and PRD tables of every probed device */
#define BLK_SYNC_SLOTS		4	/* blkdev_rw_sync requests that may be outstanding */
#define BLK_DEFAULT_ALIGN	4	/* segment bus addresses: dword aligned (IDE PRD rule) */

static struct blkdev *blkdev_list;
u32 blkdev_sync_timeout_ms = 5000;

/* ---- TSC deadlines ---- */

/* A deadline `ms` from now on the TSC, at the rate time_init measured (the
 * drivers start after it; before it, 4 GHz is assumed and waits run long). */
u64 blk_deadline(u32 ms)
{
	u64 per_ms = tsc_khz ? tsc_khz : 4000000;

	return rdtsc() + (u64)ms * per_ms;
}

bool blk_expired(u64 deadline)
{
	return (s64)(rdtsc() - deadline) >= 0;
}

/* ---- DMA pool ---- */

static u8 blk_dma_pool[BLK_DMA_POOL_SIZE] __aligned(4096);
static u32 blk_dma_used;

void *blk_dma_alloc(u32 size, u32 align, u32 *phys)
{
	u32 start = ALIGN_UP(blk_dma_used, MAX(align, 4u));
	void *v;

	if (start + size > BLK_DMA_POOL_SIZE || start + size < start)
		return NULL;
	blk_dma_used = start + size;
	v = blk_dma_pool + start;
	memset(v, 0, size);
	*phys = blk_virt_to_phys(v);
	return v;
}

void blk_dma_free(void *virt, u32 size)
{
	if ((u8 *)virt + size == blk_dma_pool + blk_dma_used)
		blk_dma_used = (u8 *)virt - blk_dma_pool;
}

/* ---- registry ---- */

struct blkdev *blkdev_find(const char *name)
{
	for (struct blkdev *d = blkdev_list; d; d = d->next)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

struct blkdev *blkdev_get(int index)
{
	struct blkdev *d = blkdev_list;

	for (; d && index > 0; index--)
		d = d->next;
	return index < 0 ? NULL : d;
}

int blkdev_register(struct blkdev *dev)
{
	struct blkdev **pp = &blkdev_list;

	if (!dev->name[0] || !dev->ops || !dev->ops->submit || !dev->ops->kick ||
	    !dev->ops->cancel || !dev->max_sectors || !dev->max_segs)
		return -EINVAL;
	if (blkdev_find(dev->name))
		return -EEXIST;
	while (*pp)
		pp = &(*pp)->next;
	dev->next = NULL;
	*pp = dev;
	printk("blk %s: %llu sectors (%llu MiB), %s%s%s\n", dev->name, dev->nr_sectors,
	       dev->nr_sectors >> 11, dev->flags & BLKDEV_F_DMA ? "DMA" : "PIO",
	       dev->flags & BLKDEV_F_LBA48 ? ", LBA48" : "",
	       dev->flags & BLKDEV_F_FLUSH ? ", write cache" : "");
	return 0;
}

/* ---- requests ---- */

static int blk_check_segs(const struct blkdev *dev, const struct blk_request *r)
{
	u64 total = 0;

	if (!r->nr_seg || r->nr_seg > dev->max_segs || !r->seg)
		return -EINVAL;
	for (u32 i = 0; i < r->nr_seg; i++) {
		const struct blk_seg *s = &r->seg[i];
		if (!s->len || s->len % BLK_SECTOR_SIZE || s->phys % BLK_DEFAULT_ALIGN)
			return -EINVAL;
		total += s->len;
	}
	return total == (u64)r->nr_sectors * BLK_SECTOR_SIZE ? 0 : -EINVAL;
}

static int blk_check(const struct blkdev *dev, const struct blk_request *r)
{
	if (!r->done)
		return -EINVAL;
	if (r->state != BLK_REQ_NEW && r->state != BLK_REQ_DONE)
		return -EBUSY;			/* still owned by a driver */
	if (r->op == BLK_FLUSH)
		return r->nr_sectors || r->nr_seg ? -EINVAL : 0;
	if (r->op != BLK_READ && r->op != BLK_WRITE)
		return -EINVAL;
	if (!r->nr_sectors || r->nr_sectors > dev->max_sectors)
		return -EINVAL;
	if (r->sector >= dev->nr_sectors || r->nr_sectors > dev->nr_sectors - r->sector)
		return -EINVAL;
	return blk_check_segs(dev, r);
}

int blkdev_submit(struct blkdev *dev, struct blk_request *req)
{
	int err = blk_check(dev, req);

	if (err)
		return err;
	req->dev = dev;
	req->result = 0;
	req->next = NULL;
	req->state = BLK_REQ_QUEUED;
	atomic_inc(&dev->submitted);
	atomic_inc(&dev->in_flight);
	err = dev->ops->submit(dev, req);
	if (err) {
		req->state = BLK_REQ_NEW;
		atomic_dec(&dev->in_flight);
		atomic_dec(&dev->submitted);
	}
	return err;
}

void blkdev_kick(struct blkdev *dev)
{
	dev->ops->kick(dev);
}

int blkdev_cancel(struct blkdev *dev, struct blk_request *req)
{
	if (READ_ONCE(req->state) != BLK_REQ_QUEUED || req->dev != dev)
		return -EAGAIN;
	return dev->ops->cancel(dev, req);
}

void blkdev_complete(struct blk_request *req, int result)
{
	struct blkdev *dev = req->dev;

	if (read_eflags() & EFLAGS_IF)
		panic("blkdev_complete: %s: called with interrupts enabled", dev->name);
	if (req->state == BLK_REQ_DONE || req->state == BLK_REQ_NEW)
		panic("blkdev_complete: %s: request %p completed twice", dev->name, req);
	if (result == -ECANCELED) {
		atomic_inc(&dev->cancelled);
	} else {
		atomic_inc(&dev->completed);
		if (result < 0)
			atomic_inc(&dev->errors);
	}
	atomic_dec(&dev->in_flight);
	req->result = result;
	req->state = BLK_REQ_DONE;
	req->done(req, result);
}

/* ---- synchronous I/O ---- */

struct blk_sync {
	struct blk_request req;
	struct blk_seg seg;
	volatile bool finished;
	bool busy;		/* slot in use: until done() when abandoned */
	bool abandoned;		/* the waiter timed out and left */
};

static struct blk_sync blk_sync_slots[BLK_SYNC_SLOTS];

static void blk_sync_done(struct blk_request *r, int result)
{
	struct blk_sync *s = r->private;

	s->finished = true;
	if (s->abandoned)
		s->busy = false;
}

/* The one place a block caller waits: until *flag or the deadline, interrupts
 * on. hlt only once the timer tick is seen running (until the timer layer
 * lands a hung device would otherwise never wake us); else spin with pause.
 * A later layer replaces this with a wait queue. 0 or -ETIMEDOUT. */
static int blk_wait(volatile bool *flag, u32 timeout_ms)
{
	u64 deadline = blk_deadline(timeout_ms);
	u32 ticks = irq_count[0];
	int ret = 0;

	for (;;) {
		cli();
		if (*flag)
			break;
		if (blk_expired(deadline)) {
			ret = -ETIMEDOUT;
			break;
		}
		if (irq_count[0] != ticks)
			asm volatile("sti; hlt" ::: "memory");	/* no lost wake-up: sti shadow */
		else {
			sti();
			cpu_relax();
		}
	}
	sti();				/* waiting needs interrupts: they stay on */
	return ret;
}

static struct blk_sync *blk_sync_get(void)
{
	u32 flags = local_irq_save();
	struct blk_sync *found = NULL;

	for (int i = 0; i < BLK_SYNC_SLOTS && !found; i++)
		if (!blk_sync_slots[i].busy)
			found = &blk_sync_slots[i];
	if (found) {
		memset(found, 0, sizeof(*found));
		found->busy = true;
	}
	local_irq_restore(flags);
	return found;
}

/* Timed out: cancel if still queued, else leave the slot to done(). */
static int blk_sync_abandon(struct blk_sync *s)
{
	u32 flags = local_irq_save();
	int ret = -ETIMEDOUT;

	if (s->finished)
		ret = s->req.result;
	else if (blkdev_cancel(s->req.dev, &s->req) < 0)
		s->abandoned = true;
	if (!s->abandoned)
		s->busy = false;
	local_irq_restore(flags);
	return ret == -ECANCELED ? -ETIMEDOUT : ret;
}

int blkdev_rw_sync(struct blkdev *dev, enum blk_op op, u64 sector, u32 buf_phys,
		   u32 nr_sectors)
{
	struct blk_sync *s;
	int err;

	if (in_interrupt() || spinlocks_held)
		panic("blkdev_rw_sync: %s: would wait in atomic context", dev->name);
	s = blk_sync_get();
	if (!s)
		return -EBUSY;
	s->req.op = op;
	s->req.done = blk_sync_done;
	s->req.private = s;
	if (op != BLK_FLUSH) {
		s->seg.phys = buf_phys;
		s->seg.len = nr_sectors * BLK_SECTOR_SIZE;
		s->req.sector = sector;
		s->req.nr_sectors = nr_sectors;
		s->req.seg = &s->seg;
		s->req.nr_seg = 1;
	}
	err = blkdev_submit(dev, &s->req);
	if (err) {
		s->busy = false;
		return err;
	}
	blkdev_kick(dev);
	if (blk_wait(&s->finished, blkdev_sync_timeout_ms))
		return blk_sync_abandon(s);
	err = s->req.result;
	s->busy = false;
	return err;
}
