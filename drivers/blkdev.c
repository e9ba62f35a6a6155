/* blkdev.c: the block-device core: registry, request validation and counters,
 * completion and cancel, the io_submit plug, and DMA memory. Names no driver. */
#include "blkdev.h"
#include "errno.h"
#include "irq.h"
#include "mm.h"
#include "panic.h"
#include "printk.h"
#include "sched.h"
#include "string.h"
#include "x86.h"

#define BLK_DEFAULT_ALIGN	4	/* segment bus addresses: dword aligned (IDE PRD rule) */

static struct blkdev *blkdev_list;

/* ---- DMA memory ---- */

static unsigned blk_dma_order(u32 size)
{
	unsigned order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

void *blk_dma_alloc(u32 size, u32 *phys)
{
	void *v = (void *)__get_free_pages(GFP_DMA | __GFP_WAIT | __GFP_ZERO, blk_dma_order(size));

	if (v)
		*phys = __pa(v);
	return v;
}

void blk_dma_free(void *virt, u32 size)
{
	free_pages((unsigned long)virt, blk_dma_order(size));
}

/* ---- registry ---- */

struct blkdev *blkdev_find(const char *name)
{
	for (struct blkdev *d = blkdev_list; d; d = d->next)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

struct blkdev *blkdev_nth(int index)
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
	trace_blk(TR_BLK_QUEUE, req->trace_ctx, req->trace_key,
		  req->nr_sectors * BLK_SECTOR_SIZE, 0, dev->name);
	err = dev->ops->submit(dev, req);
	if (err) {
		trace_blk(TR_BLK_DONE, req->trace_ctx, req->trace_key, 0, err, dev->name);
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

struct blk_request *blkdev_cancel(struct blkdev *dev, blk_match_fn *match, void *arg)
{
	struct blk_request *req = dev->ops->cancel(dev, match, arg);

	if (!req)
		return NULL;
	req->state = BLK_REQ_NEW;
	atomic_inc(&req->dev->cancelled);
	atomic_dec(&req->dev->in_flight);
	return req;
}

void blkdev_complete(struct blk_request *req, int result)
{
	struct blkdev *dev = req->dev;

	if (read_eflags() & EFLAGS_IF)
		panic("blkdev_complete: %s: called with interrupts enabled", dev->name);
	if (req->state != BLK_REQ_QUEUED && req->state != BLK_REQ_ACTIVE)
		panic("blkdev_complete: %s: request %p completed twice or never submitted",
		      dev->name, req);
	atomic_inc(&dev->completed);
	if (result < 0)
		atomic_inc(&dev->errors);
	atomic_dec(&dev->in_flight);
	req->result = result;
	req->state = BLK_REQ_DONE;
	trace_blk(TR_BLK_DONE, req->trace_ctx, req->trace_key, req->nr_sectors * BLK_SECTOR_SIZE,
		  result, dev->name);
	req->done(req, result);
}

/* ---- the io_submit plug ---- */

void blk_start_plug(struct blk_plug *plug)
{
	plug->nr = 0;
	if (!current->plug)
		current->plug = plug;
}

static void blk_plug_flush(struct blk_plug *plug)
{
	for (int i = 0; i < plug->nr; i++)
		blkdev_kick(plug->devs[i]);
	plug->nr = 0;
}

void blk_flush_plug(void)
{
	if (current->plug)
		blk_plug_flush(current->plug);
}

void blk_finish_plug(struct blk_plug *plug)
{
	if (current->plug != plug)
		return;
	blk_plug_flush(plug);
	current->plug = NULL;
}

void blk_plug_add(struct blkdev *dev)
{
	struct blk_plug *plug = current->plug;

	if (!plug) {
		blkdev_kick(dev);
		return;
	}
	for (int i = 0; i < plug->nr; i++)
		if (plug->devs[i] == dev)
			return;
	if (plug->nr == BLK_PLUG_DEVS)
		blk_plug_flush(plug);
	plug->devs[plug->nr++] = dev;
}
