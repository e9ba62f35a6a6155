/* flush.c: ext2's periodic flusher and its counters. One kernel thread
 * ("ext2flush") wakes every ext2_flush_ms milliseconds (boot parameter,
 * default 5000; 0: no thread) and, for each writable mounted file system,
 * writes back the file pages dirty for at least that long, then every dirty
 * metadata block (while no file system is mounted writable it sleeps) (superblock and descriptors when changed): a crash loses at
 * most about two periods of writes that no fsync covered. No FLUSH: that is
 * fsync's promise. Write-back errors go where the other write-backs put
 * them (the inodes' and sb's wb_seq), for the next fsync to report.
 *
 * Locking: ext2_flush_lock (a mutex) guards the list of file systems and is
 * held across a pass; each inode lock, then sb->lock, is taken inside it. umount
 * takes a file system off the list (ext2_flusher_stop) with no sb->lock
 * held: after that the flusher never touches it. Process context.
 * /proc/aiok/ext2 shows the counters of the page cache, block cache and flusher,
 * and of file AIO (aio.c, dio.c, readahead.c).
 */
#include "clock.h"
#include "cmdline.h"
#include "errno.h"
#include "printk.h"
#include "procfs.h"
#include "sched.h"
#include "ext2.h"

#define EXT2_FLUSH_MS_DEFAULT	5000
#define EXT2_FLUSH_MS_MAX	3600000		/* an hour */

static DEFINE_MUTEX(ext2_flush_lock);
static LIST_HEAD(ext2_flush_list);	/* writable mounts (ext2_flush_lock) */
static u32 ext2_flush_ms;
static struct task *ext2_flush_task;
static atomic_t ext2_flush_passes = ATOMIC_INIT(0);	/* passes that wrote something */
static u32 ext2_flush_pass_nr;		/* each file system's pass (ext2_flush_lock) */
static atomic_t ext2_flush_pages = ATOMIC_INIT(0);	/* pages the flusher wrote */
static atomic_t ext2_flush_blocks = ATOMIC_INIT(0);	/* metadata blocks it wrote */

/* One file system's pass (ext2_flush_lock held): 1 when it wrote anything. */
static int ext2_flush_sb(struct ext2_sb *sb, unsigned long age)
{
	u32 pages = 0, blocks;

	blocks = atomic_read(&ext2_blocks_written);
	if (!++ext2_flush_pass_nr)
		ext2_flush_pass_nr = 1;		/* 0: an inode no pass has seen */
	ext2_pc_sync_older(sb, age, ext2_flush_pass_nr, &pages);	/* each inode's, if free */
	mutex_lock(&sb->lock);
	ext2_sync_meta(sb);		/* errors: wb_seq, for fsync */
	/* (exact while no other file system writes metadata meanwhile) */
	blocks = atomic_read(&ext2_blocks_written) - blocks;
	mutex_unlock(&sb->lock);
	atomic_add(&ext2_flush_pages, pages);
	atomic_add(&ext2_flush_blocks, blocks);
	return pages || blocks;
}

static void ext2_flush_pass(void)
{
	unsigned long age = msecs_to_jiffies(ext2_flush_ms);
	struct ext2_sb *sb;
	int wrote = 0;

	mutex_lock(&ext2_flush_lock);
	list_for_each_entry(sb, &ext2_flush_list, flush_link)
		wrote |= ext2_flush_sb(sb, age);
	mutex_unlock(&ext2_flush_lock);
	if (wrote)
		atomic_inc(&ext2_flush_passes);
}

static int ext2_flush_thread(void *arg)
{
	long period = msecs_to_jiffies(ext2_flush_ms);

	(void)arg;
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			return 0;
		}
		/* no writable mount: sleep until one comes (ext2_flusher_start) */
		schedule_timeout(list_empty(&ext2_flush_list) ? MAX_SCHEDULE_TIMEOUT :
				 period ? period : 1);
		if (!kthread_should_stop())
			ext2_flush_pass();
	}
}

void ext2_flusher_start(struct ext2_sb *sb)
{
	if (sb->rdonly || !ext2_flush_task)
		return;
	mutex_lock(&ext2_flush_lock);
	list_add_tail(&sb->flush_link, &ext2_flush_list);
	mutex_unlock(&ext2_flush_lock);
	wake_up_process(ext2_flush_task);	/* it may sleep with nothing to do */
}

void ext2_flusher_stop(struct ext2_sb *sb)
{
	mutex_lock(&ext2_flush_lock);
	if (!list_empty(&sb->flush_link))
		list_del_init(&sb->flush_link);
	mutex_unlock(&ext2_flush_lock);
}

static int ext2_proc_show(char *buf, size_t size)
{
	return snprintf(buf, size,
			"cached_pages %u\ndirty_pages %u\ncached_blocks %u\npages_written %u\n"
			"blocks_written %u\nwb_errors %u\nflush_ms %u\nflush_passes %u\n"
			"flush_pages %u\nflush_blocks %u\n"
			"aio_queued %u\ndio_direct %u\ndio_async %u\nfill_pages %u\nra_pages %u\n"
			"aread_sent %u\nfill_joined %u\ndio_direct_writes %u\ndio_multi %u\nfill_withdrawn %u\n"
			"try_locked %u\ntry_busy %u\nfree_pending %u\nfree_waits %u\ndev_waits %u\n",
			atomic_read(&ext2_cached_pages), atomic_read(&ext2_dirty_pages),
			atomic_read(&ext2_cached_blocks), atomic_read(&ext2_pages_written),
			atomic_read(&ext2_blocks_written), atomic_read(&ext2_wb_errors),
			ext2_flush_ms, atomic_read(&ext2_flush_passes),
			atomic_read(&ext2_flush_pages), atomic_read(&ext2_flush_blocks),
			atomic_read(&ext2_aio_queued), atomic_read(&ext2_dio_direct),
			atomic_read(&ext2_dio_async), atomic_read(&ext2_fill_pages),
			atomic_read(&ext2_ra_pages), atomic_read(&ext2_aread_sent),
			atomic_read(&ext2_fill_joined), atomic_read(&ext2_dio_direct_writes),
			atomic_read(&ext2_dio_multi), atomic_read(&ext2_fill_withdrawn),
			atomic_read(&ext2_try_locked), atomic_read(&ext2_try_busy),
			atomic_read(&ext2_free_pending), atomic_read(&ext2_free_waits),
			atomic_read(&ext2_dev_waits));
}

void ext2_flush_init(void)
{
	unsigned long long ms;
	struct task *t;

	proc_create("/proc/aiok/ext2", ext2_proc_show);
	ms = cmdline_get_num(&boot_cmdline, "ext2_flush_ms", EXT2_FLUSH_MS_DEFAULT);
	if (ms > EXT2_FLUSH_MS_MAX) {
		printk(KERN_WARNING "ext2: ext2_flush_ms=%llu is more than %u: using %u\n", ms,
		       EXT2_FLUSH_MS_MAX, EXT2_FLUSH_MS_MAX);
		ms = EXT2_FLUSH_MS_MAX;
	}
	ext2_flush_ms = ms;
	if (!ext2_flush_ms)
		return;
	t = kthread_run(ext2_flush_thread, NULL, "ext2flush");
	if (IS_ERR(t))
		printk("ext2: no flusher thread: dirty data waits for fsync, sync or umount\n");
	else
		ext2_flush_task = t;
}
