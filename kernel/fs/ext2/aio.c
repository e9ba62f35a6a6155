/* aio.c: AIO on ext2 regular files, buffered through the page cache:
 * IOCB_CMD_PREAD/PWRITE/PREADV/PWRITEV/FSYNC/FDSYNC.
 *
 * What is asynchronous when: io_submit first tries a read or a write inside
 * the call with the file's inode lock taken only if free (mutex_trylock) and
 * ei->nowait set (sb->lock, for the block map, only if free too), so
 * nothing waits on the disk: a read whose pages and block map are
 * cached, or a write whose map and bitmaps are cached, completes there (its
 * event is in the ring when io_submit returns). A read that misses pages
 * whose map is cached starts their device reads there and completes from
 * their interrupts (aread.c). Anything else that would wait (a
 * page or indirect block to read, a dirty page to write back for room,
 * the inode's lock or sb->lock held by someone else), every fsync,
 * fdatasync and RWF_DSYNC / O_DSYNC write, and every append (O_APPEND,
 * RWF_APPEND), is queued to an "ext2aioN" worker thread with the user's pages
 * pinned. There is one worker per CPU (at least 2, at most EXT2_AIO_QUEUES),
 * and each mount has a queue per worker: inode ino's requests go to queue
 * ino % workers, so requests on different files run at once, and one
 * file's run one at a time in the order they were queued (an fsync after
 * every earlier request of its file that went to a worker; it also waits
 * for the file's O_DIRECT writes in flight before its FLUSH, file.c). A
 * worker first reads the pages that the next EXT2_AIO_BATCH buffered reads
 * of its queue miss, all at once, with a read-ahead window behind
 * sequential reads (readahead.c; each inode's under its lock, waited for
 * without it), then runs each request with the synchronous path under the
 * inode's lock and copies through the pinned pages (it has no user address
 * space), then completes it.
 * A request still in the queue can be cancelled (io_cancel, io_destroy,
 * exit); one a worker has taken runs to its end (-EAGAIN to the cancel).
 * On an O_DIRECT file io_submit sends a read straight to the device when its
 * block map is cached and it lies on one run of blocks (dio.c: completed by
 * the driver's interrupt); any other direct read or write goes to the
 * worker, which moves it zero-copy (dio.c). RWF_NOWAIT: -EAGAIN unless sent.
 *
 * Locking: each queue's spinlock (ext2_aio_queue.lock, process context,
 * irqsave) guards its list, each request's queued flag and the kiocb's
 * private pointer to it; a worker takes the request's inode lock with no
 * spinlock held, and drops it before aio_complete (the completion may drop
 * the last file reference: ext2_put takes the inode's lock). A retried
 * write is idempotent: the try in io_submit may have copied part of it
 * before -EAGAIN; the worker writes all of it again.
 */
#include "aio.h"
#include "errno.h"
#include "fs.h"
#include "pin.h"
#include "printk.h"
#include "resource.h"
#include "sched.h"
#include "slab.h"
#include "smp.h"
#include "string.h"
#include "workqueue.h"
#include "ext2.h"

#define EXT2_AIO_ROOM	16		/* page pointers kept inside a request */
#define EXT2_AIO_BATCH	32		/* queued requests whose pages one fill reads */

enum ext2_aio_op { EXT2_AIO_READ, EXT2_AIO_WRITE, EXT2_AIO_FSYNC, EXT2_AIO_FDSYNC };

/* A request for a worker (an ext2_aio_queue of its file system). */
struct ext2_aio {
	struct list_head link;		/* its queue's list while queued (its lock) */
	bool queued;			/* the queue's lock */
	enum ext2_aio_op op;
	bool direct;			/* O_DIRECT read or write: dio.c */
	struct kiocb *iocb;
	loff_t pos;
	size_t n;
	struct pinned_vec buf;		/* the user's segments (read, write) */
	u64 stamp[EXT2_SPANS + 1];	/* TSC: queued, taken, locked, unlocked, done
					 * (stats.c) */
	struct page *room[EXT2_AIO_ROOM];
};

static struct workqueue_struct *ext2_aio_wq[EXT2_AIO_QUEUES];	/* a thread each */
static u32 ext2_aio_nr;			/* workers (and queues per mount) in use, >= 1 */
atomic_t ext2_aio_queued = ATOMIC_INIT(0);	/* requests given to the worker, since boot */
atomic_t ext2_try_locked = ATOMIC_INIT(0);	/* io_submit's tries: inode lock free (ext2.h) */
atomic_t ext2_try_busy = ATOMIC_INIT(0);	/* ... taken: to the worker */

static void ext2_aio_free(struct ext2_aio *ea)
{
	if (ea->op == EXT2_AIO_READ || ea->op == EXT2_AIO_WRITE)
		unpin_user_vec(&ea->buf);
	kfree(ea);
}

/* The queue of inode's requests: one inode's always go to the same one. */
static struct ext2_aio_queue *ext2_aio_q(struct inode *inode)
{
	return &EXT2_SB(inode)->aioq[inode->ino % ext2_aio_nr];
}

/* The oldest queued request, taken off the queue (no cancel reaches it now). */
static struct ext2_aio *ext2_aio_next(struct ext2_aio_queue *q)
{
	struct ext2_aio *ea = NULL;
	u32 flags;

	lock_stat_spin_lock_irqsave(&q->lock, &ext2_ls_aioq, flags);
	if (!list_empty(&q->list)) {
		ea = list_first_entry(&q->list, struct ext2_aio, link);
		list_del(&ea->link);
		ea->queued = false;
		kiocb_set_private(ea->iocb, NULL);
	}
	lock_stat_spin_unlock_irqrestore(&q->lock, &ext2_ls_aioq, flags);
	if (ea)
		ea->stamp[1] = rdtsc();
	return ea;
}

/* Run ea with the synchronous path (the worker: may wait on the disk); a
 * direct read or overwrite that can go whole is sent and not waited for
 * (-EIOCBQUEUED). */
static long ext2_aio_run(struct ext2_aio *ea)
{
	struct inode *inode = kiocb_file(ea->iocb)->f_inode;
	struct ext2_xfer x = { NULL, 0, &ea->buf };
	long ret;
	int err;

	ext2_ilock(inode);
	ea->stamp[2] = rdtsc();
	if (ea->op == EXT2_AIO_FSYNC || ea->op == EXT2_AIO_FDSYNC) {
		ret = ext2_fsync_locked(kiocb_file(ea->iocb), ea->op == EXT2_AIO_FDSYNC);
	} else if (ea->op == EXT2_AIO_READ) {
		ret = ea->direct ?
			ext2_dio_worker_send(inode, ea->iocb, &ea->buf, ea->n, ea->pos, false) :
			ext2_file_rw(inode, &x, ea->n, ea->pos, false);
	} else {
		if (kiocb_is_append(ea->iocb))
			ea->pos = inode->size;
		if (ea->direct && (ea->pos & 511))
			ret = -EINVAL;		/* appending at an unaligned end */
		else
			ret = ea->direct ?
				ext2_dio_worker_send(inode, ea->iocb, &ea->buf, ea->n, ea->pos,
						     true) :
				ext2_file_rw(inode, &x, ea->n, ea->pos, true);
		if (ret > 0 && kiocb_dsync(ea->iocb) &&
		    (err = ext2_fsync_locked(kiocb_file(ea->iocb), 1)))
			ret = err;		/* data, metadata and FLUSH before the event */
	}
	ext2_iunlock(inode);
	ea->stamp[3] = rdtsc();
	return ret;
}

/* ea's kind for the request statistics (stats.c). */
static u32 ext2_aio_kind(const struct ext2_aio *ea)
{
	if (ea->direct)
		return 3;
	return ea->op == EXT2_AIO_READ ? 0 : ea->op == EXT2_AIO_WRITE ? 1 : 2;
}

static bool ext2_aio_buffered_read(const struct ext2_aio *ea)
{
	return ea->op == EXT2_AIO_READ && !ea->direct;
}

/* A queued buffered read as the worker's fill sees it (its file held). */
struct ext2_aio_peek {
	struct file *file;
	loff_t pos;
	size_t n;
};

/* The buffered reads among the first EXT2_AIO_BATCH queued requests, each
 * with a reference to its file (they stay queued: a cancel still withdraws
 * them); *seen: the requests looked at. */
static u32 ext2_aio_peek(struct ext2_aio_queue *q, struct ext2_aio_peek *p, u32 *seen)
{
	struct ext2_aio *ea;
	u32 n = 0, flags;

	*seen = 0;
	lock_stat_spin_lock_irqsave(&q->lock, &ext2_ls_aioq, flags);
	list_for_each_entry(ea, &q->list, link) {
		if (*seen == EXT2_AIO_BATCH)
			break;
		(*seen)++;
		if (ext2_aio_buffered_read(ea))
			p[n++] = (struct ext2_aio_peek){ get_file(kiocb_file(ea->iocb)), ea->pos,
							  ea->n };
	}
	lock_stat_spin_unlock_irqrestore(&q->lock, &ext2_ls_aioq, flags);
	return n;
}

/* Read the pages that the next queued buffered reads miss (and their
 * read-ahead) all at once, so that running them one by one finds them
 * cached (readahead.c). The number of queued requests this looked at. */
static u32 ext2_aio_prefetch(struct ext2_aio_queue *q)
{
	struct ext2_aio_peek p[EXT2_AIO_BATCH];
	struct ext2_fill *f;
	u32 seen, n = ext2_aio_peek(q, p, &seen);

	if (n && (f = ext2_fill_begin(q->sb))) {
		for (u32 i = 0; i < n; i++) {
			ext2_ilock(p[i].file->f_inode);
			ext2_fill_read(f, p[i].file->f_inode, p[i].pos, p[i].n);
			ext2_iunlock(p[i].file->f_inode);
		}
		ext2_fill_end(f);		/* the wait: io_submit's tries go on meanwhile */
	}
	for (u32 i = 0; i < n; i++)
		fput(p[i].file);		/* no ext2 lock held: may be the last */
	return seen;
}

/* A worker: every request of one queue of a file system, oldest first;
 * before each group of up to EXT2_AIO_BATCH, their buffered reads' pages
 * are read together. */
static void ext2_aio_work(struct work_struct *w)
{
	struct ext2_aio_queue *q = container_of(w, struct ext2_aio_queue, work);
	struct ext2_aio *ea;
	struct kiocb *iocb;
	struct file *file;
	u64 stamp[EXT2_SPANS + 1], start = rdtsc(), pf = 0, t;
	u32 covered = 0, kind, reqs = 0;
	long res;

	for (;;) {
		if (!covered) {
			t = rdtsc();
			covered = ext2_aio_prefetch(q);
			pf += rdtsc() - t;
		}
		if (!(ea = ext2_aio_next(q)))
			break;
		if (covered)
			covered--;
		iocb = ea->iocb;
		/* Our own reference: a request the run sends may complete
		 * inside it (the device faster than the send's last put) while
		 * the file's lock is held; its last fput must not come there. */
		file = get_file(kiocb_file(iocb));
		res = ext2_aio_run(ea);
		memcpy(stamp, ea->stamp, sizeof(stamp));
		kind = ext2_aio_kind(ea);
		ext2_aio_free(ea);
		if (res != -EIOCBQUEUED)	/* else the driver's interrupt completes it */
			aio_complete(iocb, res, 0);
		fput(file);			/* no ext2 lock held: may be the last */
		stamp[4] = rdtsc();
		ext2_stat_request(kind, stamp);
		reqs++;
	}
	ext2_stat_worker(q->idx, rdtsc() - start, pf, reqs);
}

/* io_cancel / io_destroy: withdraw the request if the worker has not taken it. */
static int ext2_aio_cancel(struct kiocb *iocb)
{
	struct ext2_aio_queue *q = ext2_aio_q(kiocb_file(iocb)->f_inode);
	struct ext2_aio *ea;
	u32 flags;

	lock_stat_spin_lock_irqsave(&q->lock, &ext2_ls_aioq, flags);
	ea = kiocb_private(iocb);
	if (ea && ea->queued) {
		list_del(&ea->link);
		ea->queued = false;
		kiocb_set_private(iocb, NULL);
	} else {
		ea = NULL;
	}
	lock_stat_spin_unlock_irqrestore(&q->lock, &ext2_ls_aioq, flags);
	if (!ea)
		return -EAGAIN;
	ext2_aio_free(ea);
	return 0;
}

/* Give iocb to the worker (the segments pinned first): -EIOCBQUEUED, or
 * -ENOMEM / -EFAULT with nothing queued. */
static ssize_t ext2_aio_queue(struct kiocb *iocb, enum ext2_aio_op op, const struct iovec *iov,
			      u32 nr, size_t n, loff_t pos)
{
	struct ext2_aio_queue *q = ext2_aio_q(kiocb_file(iocb)->f_inode);
	struct ext2_aio *ea = ext2_aio_wq[0] ? kmalloc(sizeof(*ea), GFP_KERNEL) : NULL;
	bool fsync = op == EXT2_AIO_FSYNC || op == EXT2_AIO_FDSYNC;
	u32 flags;
	int err;

	if (!ea)
		return -ENOMEM;
	memset(ea, 0, offsetof(struct ext2_aio, room));
	ea->op = op;
	ea->direct = fsync ? false : (kiocb_file(iocb)->f_flags & O_DIRECT);
	ea->iocb = iocb;
	ea->pos = pos;
	ea->n = n;
	err = fsync ? 0 :
		pin_user_iov(current->mm, iov, nr, op == EXT2_AIO_READ, &ea->buf, ea->room,
			     EXT2_AIO_ROOM);
	if (err) {
		kfree(ea);
		return err;
	}
	kiocb_set_private(iocb, ea);
	kiocb_set_cancel_fn(iocb, ext2_aio_cancel);
	ea->stamp[0] = rdtsc();
	lock_stat_spin_lock_irqsave(&q->lock, &ext2_ls_aioq, flags);
	list_add_tail(&ea->link, &q->list);
	ea->queued = true;
	lock_stat_spin_unlock_irqrestore(&q->lock, &ext2_ls_aioq, flags);
	atomic_inc(&ext2_aio_queued);
	queue_work(ext2_aio_wq[q->idx], &q->work);
	return -EIOCBQUEUED;
}

/* The try inside io_submit: bytes, -errno, or -EAGAIN when it would wait. */
static ssize_t ext2_aio_try(struct kiocb *iocb, const struct iovec *iov, u32 nr, size_t n,
			    loff_t pos, bool write)
{
	struct inode *inode = kiocb_file(iocb)->f_inode;
	struct ext2_xfer x = { iov, nr, NULL };
	ssize_t ret;

	/* an append retried by the worker would go to the end the try moved */
	if (write && (kiocb_dsync(iocb) || kiocb_is_append(iocb)))
		return -EAGAIN;
	if (!ext2_itry_lock(inode))
		return -EAGAIN;
	ret = ext2_file_rw(inode, &x, n, pos, write);
	if (ret == -EAGAIN && !write && !kiocb_nowait(iocb))
		ret = ext2_aread_start(iocb, iov, nr, n, pos);	/* a miss: to the device */
	ext2_itry_unlock(inode);
	return ret;
}

static ssize_t ext2_aio_rw(struct kiocb *iocb, const struct iovec *iov, u32 nr, loff_t pos,
			   bool write)
{
	struct ext2_sb *sb = EXT2_SB(kiocb_file(iocb)->f_inode);
	size_t n = iov_total(iov, nr);
	ssize_t ret;

	if (pos < 0)
		return -EINVAL;
	if (write && sb->rdonly)
		return -EROFS;
	if (write && !kiocb_is_append(iocb) && (ret = rlimit_fsize_check(pos, &n)))
		return ret;
	if (!n)
		return 0;
	if (kiocb_file(iocb)->f_flags & O_DIRECT) {
		if (!ext2_dio_aligned(iov, nr, pos))
			return -EINVAL;
		ret = ext2_dio_try(iocb, iov, nr, n, pos, write);
		if (ret != -EAGAIN || kiocb_nowait(iocb))
			return ret;		/* sent to the device; or RWF_NOWAIT's -EAGAIN */
		return ext2_aio_queue(iocb, write ? EXT2_AIO_WRITE : EXT2_AIO_READ, iov, nr, n, pos);
	}
	ret = ext2_aio_try(iocb, iov, nr, n, pos, write);
	if (ret != -EAGAIN || kiocb_nowait(iocb))
		return ret;			/* RWF_NOWAIT: -EAGAIN is its result */
	return ext2_aio_queue(iocb, write ? EXT2_AIO_WRITE : EXT2_AIO_READ, iov, nr, n, pos);
}

ssize_t ext2_aio_read(struct kiocb *iocb, char *ubuf, size_t n, loff_t pos)
{
	struct iovec one = { ubuf, n };

	return ext2_aio_rw(iocb, &one, 1, pos, false);
}

ssize_t ext2_aio_write(struct kiocb *iocb, const char *ubuf, size_t n, loff_t pos)
{
	struct iovec one = { (void *)ubuf, n };

	return ext2_aio_rw(iocb, &one, 1, pos, true);
}

ssize_t ext2_aio_readv(struct kiocb *iocb, const struct iovec *iov, u32 nr, loff_t pos)
{
	return ext2_aio_rw(iocb, iov, nr, pos, false);
}

ssize_t ext2_aio_writev(struct kiocb *iocb, const struct iovec *iov, u32 nr, loff_t pos)
{
	return ext2_aio_rw(iocb, iov, nr, pos, true);
}

/* fsync and fdatasync of the file (ext2_fsync_locked), in the worker. */
int ext2_aio_fsync(struct kiocb *iocb, int datasync)
{
	if (EXT2_SB(kiocb_file(iocb)->f_inode)->rdonly)
		return 0;
	return ext2_aio_queue(iocb, datasync ? EXT2_AIO_FDSYNC : EXT2_AIO_FSYNC, NULL, 0, 0, 0);
}

/* Boot: one worker thread per CPU, at least 2, at most EXT2_AIO_QUEUES
 * (fewer without memory; none: file AIO is -ENOMEM). */
void ext2_init(void)
{
	static const char *const names[EXT2_AIO_QUEUES] = {
		"ext2aio0", "ext2aio1", "ext2aio2", "ext2aio3",
		"ext2aio4", "ext2aio5", "ext2aio6", "ext2aio7",
	};
	u32 want = MIN(MAX(nr_cpus_online, 2u), (u32)EXT2_AIO_QUEUES);

	while (ext2_aio_nr < want &&
	       (ext2_aio_wq[ext2_aio_nr] = create_workqueue(names[ext2_aio_nr])))
		ext2_aio_nr++;
	if (!ext2_aio_nr) {
		printk("ext2: no AIO worker: file AIO is -ENOMEM\n");
		ext2_aio_nr = 1;		/* ext2_aio_q's modulus; nothing is queued */
	}
	ext2_flush_init();
	ext2_stats_init();
}

int ext2_aio_init(struct ext2_sb *sb)
{
	for (u32 i = 0; i < EXT2_AIO_QUEUES; i++) {
		struct ext2_aio_queue *q = &sb->aioq[i];
		spin_lock_init(&q->lock, "ext2_aio");
		INIT_LIST_HEAD(&q->list);
		INIT_WORK(&q->work, ext2_aio_work);
		q->sb = sb;
		q->idx = i;
	}
	return 0;
}

void ext2_aio_exit(struct ext2_sb *sb)
{
	for (u32 i = 0; ext2_aio_wq[0] && i < ext2_aio_nr; i++)
		cancel_work_sync(&sb->aioq[i].work);	/* nothing queued: a run may be ending */
}
