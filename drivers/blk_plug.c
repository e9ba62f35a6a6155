/* blk_plug.c: batch device notifications: requests queued during one io_submit
 * are started with one kick per device when the batch ends. */
#include "blk_file.h"
#include "blkdev.h"
#include "panic.h"
#include "sched.h"

/* The plug lives in the task; a value out of range means someone wrote over
 * the task structure: stop with the evidence rather than kick a wild pointer. */
static void blk_plug_check(const struct blk_plug *plug)
{
	const u32 *w = (const u32 *)plug;

	if (likely(plug->depth >= 0 && plug->nr >= 0 && plug->nr <= BLK_PLUG_DEVS))
		return;
	panic("blk_plug of pid %d (%s) at %p corrupted: %08x %08x %08x %08x %08x %08x",
	      current->pid, current->name, plug, w[0], w[1], w[2], w[3], w[4], w[5]);
}

void aio_plug_begin(void)
{
	blk_plug_check(&current->blk_plug);
	current->blk_plug.depth++;
}

void blk_plug_flush(void)
{
	struct blk_plug *plug = &current->blk_plug;

	for (int i = 0; i < plug->nr; i++)
		blkdev_kick(plug->devs[i]);
	plug->nr = 0;
}

void aio_plug_end(void)
{
	struct blk_plug *plug = &current->blk_plug;

	blk_plug_check(plug);
	if (--plug->depth == 0)
		blk_plug_flush();
}

/* Is dev a registered block device? (a handful: the registry is short) */
static bool blk_plug_dev_ok(const struct blkdev *dev)
{
	const struct blkdev *d;

	for (int i = 0; (d = blkdev_get(i)); i++)
		if (d == dev)
			return true;
	return false;
}

void blk_plug_add(struct blkdev *dev)
{
	struct blk_plug *plug = &current->blk_plug;

	if (unlikely(!blk_plug_dev_ok(dev)))
		panic("blk_plug_add: %p is not a block device (a request used after it ended?)", dev);
	if (!plug->depth) {
		blkdev_kick(dev);
		return;
	}
	for (int i = 0; i < plug->nr; i++)
		if (plug->devs[i] == dev)
			return;
	if (plug->nr == BLK_PLUG_DEVS)
		blk_plug_flush();
	plug->devs[plug->nr++] = dev;
}
