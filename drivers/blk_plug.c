/* blk_plug.c: batch device notifications: requests queued during one io_submit
 * are started with one kick per device when the batch ends. */
#include "blk_file.h"
#include "blkdev.h"
#include "sched.h"

void aio_plug_begin(void)
{
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

	if (--plug->depth == 0)
		blk_plug_flush();
}

void blk_plug_add(struct blkdev *dev)
{
	struct blk_plug *plug = &current->blk_plug;

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
