/* stats.c: ext2's lock statistics, its AIO workers' busy time and where a
 * worker's request spends its time, shown in /proc/aiok/ext2_locks.
 *
 * The lock classes (lock_stat.h): every mount's sb->lock (ext2_sb), every
 * inode's ei->lock (ext2_inode), every mount's pc_lock (ext2_pc), the fill
 * lock (ext2_fill), every worker queue's lock (ext2_aioq). A worker's run
 * (one call of ext2_aio_work) counts its cycles and requests per worker. A
 * request a worker runs is stamped when queued, taken off its queue, when
 * its inode lock is held, when released, and after its completion (an
 * O_DIRECT one sent without waiting: after the send; the driver's
 * interrupt completes it later, not counted here): the
 * four spans are summed per kind of request (buffered read, buffered write,
 * fsync or fdatasync, O_DIRECT); and every fsync's parts (its pages,
 * its metadata, the wait for its direct writes, the FLUSH). Everything is added with atomic
 * operations, any context; reading costs nothing to the counters.
 */
#include "clock.h"
#include "printk.h"
#include "procfs.h"
#include "ext2.h"

struct lock_stat ext2_ls_sb = LOCK_STAT_INIT("ext2_sb");
struct lock_stat ext2_ls_inode = LOCK_STAT_INIT("ext2_inode");
struct lock_stat ext2_ls_pc = LOCK_STAT_INIT("ext2_pc");
struct lock_stat ext2_ls_fill = LOCK_STAT_INIT("ext2_fill");
struct lock_stat ext2_ls_aioq = LOCK_STAT_INIT("ext2_aioq");

static struct lock_stat *const ext2_ls_all[] = {
	&ext2_ls_sb, &ext2_ls_inode, &ext2_ls_pc, &ext2_ls_fill, &ext2_ls_aioq,
};

/* Per worker: its runs, requests, cycles inside runs, of them prefetching. */
static struct {
	u32 runs, reqs;
	u64 busy, prefetch;
} ext2_wk[EXT2_AIO_QUEUES];

/* Per kind of request: how many, and per span the total and largest. */
static struct {
	u32 n;
	u64 total[EXT2_SPANS], max[EXT2_SPANS];
} ext2_rq[EXT2_RQ_KINDS];

static const char *const ext2_rq_names[EXT2_RQ_KINDS] = {
	"read", "write", "fsync", "direct", "fsync_parts",
};

void ext2_stat_worker(u32 idx, u64 busy, u64 prefetch, u32 reqs)
{
	if (idx >= EXT2_AIO_QUEUES)
		return;
	__atomic_fetch_add(&ext2_wk[idx].runs, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ext2_wk[idx].reqs, reqs, __ATOMIC_RELAXED);
	lock_stat_add(&ext2_wk[idx].busy, busy);
	lock_stat_add(&ext2_wk[idx].prefetch, prefetch);
}

void ext2_stat_request(u32 kind, const u64 *stamp)
{
	if (kind >= EXT2_RQ_KINDS)
		return;
	__atomic_fetch_add(&ext2_rq[kind].n, 1, __ATOMIC_RELAXED);
	for (u32 i = 0; i < EXT2_SPANS; i++) {
		u64 d = stamp[i + 1] - stamp[i];

		lock_stat_add(&ext2_rq[kind].total[i], d);
		lock_stat_max(&ext2_rq[kind].max[i], d);
	}
}

/* The lock table: its length in buf. */
static int ext2_locks_show_locks(char *buf, size_t size)
{
	int len = lock_stat_header(buf, size);

	for (u32 i = 0; i < ARRAY_SIZE(ext2_ls_all) && (size_t)len < size; i++)
		len += lock_stat_show(ext2_ls_all[i], buf + len, size - len);
	return len;
}

static int ext2_locks_show_workers(char *buf, size_t size)
{
	int len = snprintf(buf, size, "worker runs reqs busy_us prefetch_us (uptime_us %llu)\n",
			   ktime_get_ns() / 1000);

	for (u32 i = 0; i < EXT2_AIO_QUEUES && (size_t)len < size; i++)
		if (ext2_wk[i].runs)
			len += snprintf(buf + len, size - len, "ext2aio%u %u %u %llu %llu\n", i,
					ext2_wk[i].runs, ext2_wk[i].reqs,
					lock_stat_us(lock_stat_read(&ext2_wk[i].busy)),
					lock_stat_us(lock_stat_read(&ext2_wk[i].prefetch)));
	return len;
}

static int ext2_locks_show_requests(char *buf, size_t size)
{
	int len = snprintf(buf, size, "request n queue_us qmax_us lock_us lmax_us run_us "
			   "rmax_us done_us dmax_us\n");

	for (u32 k = 0; k < EXT2_RQ_KINDS && (size_t)len < size; k++) {
		if (k == EXT2_RQ_FSYNC_PARTS)
			len += snprintf(buf + len, size - len, "fsync_parts n pages_us pmax_us "
					"meta_us mmax_us diowait_us wmax_us flush_us fmax_us\n");
		if ((size_t)len >= size)
			break;
		len += snprintf(buf + len, size - len, "%s %u", ext2_rq_names[k], ext2_rq[k].n);
		for (u32 i = 0; i < EXT2_SPANS && (size_t)len < size; i++)
			len += snprintf(buf + len, size - len, " %llu %llu",
					lock_stat_us(lock_stat_read(&ext2_rq[k].total[i])),
					lock_stat_us(lock_stat_read(&ext2_rq[k].max[i])));
		if ((size_t)len < size)
			len += snprintf(buf + len, size - len, "\n");
	}
	return len;
}

static int ext2_locks_show(char *buf, size_t size)
{
	int len = ext2_locks_show_locks(buf, size);

	if ((size_t)len < size)
		len += ext2_locks_show_workers(buf + len, size - len);
	if ((size_t)len < size)
		len += ext2_locks_show_requests(buf + len, size - len);
	return MIN(len, (int)size - 1);
}

void ext2_stats_init(void)
{
	proc_create("/proc/aiok/ext2_locks", ext2_locks_show);
}
