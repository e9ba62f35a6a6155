/* syscalls.c: the AIO system calls: the seed's five, 244-248 (io_setup,
 * io_destroy, io_getevents_abs, io_submit, io_cancel), and 503
 * io_pgetevents_abs (the same wait under a signal mask). Errors follow the seed where it says,
 * Linux where it is silent (docs/aio-errors.md has the table). */
#include "aio_internal.h"
#include "blkdev.h"
#include "clock.h"
#include "errno.h"
#include "signal.h"
#include "syscall_table.h"
#include "fs.h"
#include "sched.h"
#include "timer.h"
#include "uaccess.h"
#include "eventfd.h"
#include "poll.h"
#include "slab.h"
#include "trace.h"
#include "uapi/uio.h"

/* An absurd size: a ring of more than 256 MiB (Linux's bound); -EINVAL. Sizes
 * below it that exceed aio-max-nr are -EAGAIN, those memory cannot hold -ENOMEM. */
#define AIO_MAX_REQS	(0x10000000u / sizeof(struct io_event) - 2)
/* Results travel in the event's 32-bit long res: a transfer must fit it. */
#define IOCB_MAX_NBYTES		INT_MAX
/* nr * sizeof(pointer) must not wrap the 32-bit size access_ok checks. */
#define SUBMIT_MAX_NR		(U32_MAX / sizeof(struct iocb *))
/* nr * sizeof(event) stays a positive long: more is clamped (nobody has that room). */
#define GETEVENTS_MAX_NR	(LONG_MAX / sizeof(struct io_event))

/*
 * Errors leave nothing behind: a ctxp that cannot be read fails before anything
 * is made; one that cannot be written gets the new context killed again (its
 * ring unmapped, its aio-nr share returned) before -EFAULT.
 */
long sys_io_setup(unsigned nr_reqs, aio_context_t *ctxp)
{
	struct kioctx *ctx;
	aio_context_t id;

	if (get_user(id, ctxp))
		return -EFAULT;
	if (id || !nr_reqs || nr_reqs > AIO_MAX_REQS)
		return -EINVAL;
	if (nr_reqs > aio_max_nr)
		return -EAGAIN;
	ctx = ioctx_alloc(nr_reqs);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (put_user((aio_context_t)ctx->ring.user_base, ctxp)) {
		get_ioctx(ctx);
		ioctx_kill(ctx);
		put_ioctx(ctx);
		return -EFAULT;
	}
	return 0;
}

long sys_io_destroy(aio_context_t id)
{
	struct kioctx *ctx = ioctx_lookup(id);

	if (!ctx)
		return -EINVAL;
	ioctx_kill(ctx);
	put_ioctx(ctx);
	return 0;
}

/* RWF_* bits an AIO read or write takes; any other is -EOPNOTSUPP (Linux). */
#define IOCB_RW_FLAGS	(RWF_HIPRI | RWF_DSYNC | RWF_SYNC | RWF_NOWAIT | RWF_APPEND)
#define IOCB_FLAGS	(IOCB_FLAG_RESFD | IOCB_FLAG_IOPRIO)
#define IOV_INLINE	8		/* iovec entries kept on the stack */

static bool iocb_is_rw(u16 op)
{
	return op == IOCB_CMD_PREAD || op == IOCB_CMD_PWRITE ||
	       op == IOCB_CMD_PREADV || op == IOCB_CMD_PWRITEV;
}

static bool iocb_is_write(u16 op)
{
	return op == IOCB_CMD_PWRITE || op == IOCB_CMD_PWRITEV;
}

static bool iocb_is_vec(u16 op)
{
	return op == IOCB_CMD_PREADV || op == IOCB_CMD_PWRITEV;
}

/* A vectored request on a file: its vectored method, or one segment through
 * the plain one (none: an empty transfer). */
static long iocb_rw_vec(struct kiocb *req, const struct iovec *iov, u32 nr, loff_t pos,
			bool write)
{
	const struct file_operations *op = req->ki_filp->f_op;

	if (write && op && op->aio_writev)
		return op->aio_writev(req, iov, nr, pos);
	if (!write && op && op->aio_readv)
		return op->aio_readv(req, iov, nr, pos);
	if (nr > 1)
		return -EINVAL;
	if (!nr)
		return op && (write ? !!op->aio_write : !!op->aio_read) ? 0 : -EINVAL;
	if (write)
		return op && op->aio_write ? op->aio_write(req, iov->iov_base, iov->iov_len, pos) : -EINVAL;
	return op && op->aio_read ? op->aio_read(req, iov->iov_base, iov->iov_len, pos) : -EINVAL;
}

/* The file operation an iocb asks for; -EBADF / -EINVAL when not allowed.
 * iov: the checked segments of a vectored request. */
static long iocb_dispatch(struct kiocb *req, const struct iocb *cb, const struct iovec *iov)
{
	const struct file_operations *op = req->ki_filp->f_op;
	char *buf = (char *)(u32)cb->aio_buf;

	switch (cb->aio_lio_opcode) {
	case IOCB_CMD_PREAD:
		return op && op->aio_read ? op->aio_read(req, buf, cb->aio_nbytes, cb->aio_offset) : -EINVAL;
	case IOCB_CMD_PWRITE:
		return op && op->aio_write ? op->aio_write(req, buf, cb->aio_nbytes, cb->aio_offset) : -EINVAL;
	case IOCB_CMD_PREADV:
	case IOCB_CMD_PWRITEV:
		return iocb_rw_vec(req, iov, cb->aio_nbytes, cb->aio_offset,
				   cb->aio_lio_opcode == IOCB_CMD_PWRITEV);
	case IOCB_CMD_FSYNC:
	case IOCB_CMD_FDSYNC:
		return op && op->aio_fsync ?
			op->aio_fsync(req, cb->aio_lio_opcode == IOCB_CMD_FDSYNC) : -EINVAL;
	case IOCB_CMD_POLL:
		return aio_poll_start(req, (u16)cb->aio_buf);
	case IOCB_CMD_NOOP:
		return 0;
	}
	return -EINVAL;
}

/* Field checks that need no file: reserved fields, flags, sizes, opcode. */
static long iocb_check(const struct iocb *cb)
{
	u16 op = cb->aio_lio_opcode;

	if (cb->aio_reserved2 || (cb->aio_flags & ~IOCB_FLAGS))
		return -EINVAL;
	if (cb->aio_buf != (u32)cb->aio_buf || cb->aio_nbytes > IOCB_MAX_NBYTES)
		return -EINVAL;
	if (op > IOCB_CMD_PWRITEV || op == 4)
		return -EINVAL;
	if (op == IOCB_CMD_POLL && ((u16)cb->aio_buf != cb->aio_buf ||
				    cb->aio_nbytes || cb->aio_offset))
		return -EINVAL;
	if (!iocb_is_rw(op))
		return cb->aio_rw_flags ? -EINVAL : 0;
	if (cb->aio_offset < 0 || (iocb_is_vec(op) && cb->aio_nbytes > UIO_MAXIOV))
		return -EINVAL;
	/* the offset rule of every read and write (a vector's: iocb_get_iovec) */
	if (!iocb_is_vec(op) && rw_verify_area(cb->aio_offset, cb->aio_nbytes))
		return -EINVAL;
	return cb->aio_rw_flags & ~IOCB_RW_FLAGS ? -EOPNOTSUPP : 0;
}

/* Copy and check a vectored request's segments into iov (nr entries): each
 * readable as an array (-EFAULT), the total a valid result (-EINVAL), each
 * buffer a user range the mappings let the operation use (-EFAULT), and the
 * offset with the total (the offset rule of every read and write, -EINVAL). */
static long iocb_get_iovec(const struct iocb *cb, struct iovec *iov)
{
	u32 nr = cb->aio_nbytes;
	size_t total = 0;

	if (copy_from_user(iov, (const void *)(u32)cb->aio_buf, nr * sizeof(*iov)))
		return -EFAULT;
	for (u32 i = 0; i < nr; i++) {
		if (iov[i].iov_len > IOCB_MAX_NBYTES - total)
			return -EINVAL;
		total += iov[i].iov_len;
	}
	for (u32 i = 0; i < nr; i++)
		if (!access_ok_prot(iov[i].iov_base, iov[i].iov_len,
				    cb->aio_lio_opcode == IOCB_CMD_PREADV))
			return -EFAULT;
	return rw_verify_area(cb->aio_offset, total);
}

/* Checks on the file: open mode and the buffer. */
static long iocb_check_file(const struct iocb *cb, struct file *f)
{
	u16 op = cb->aio_lio_opcode;

	if (iocb_is_rw(op) && !iocb_is_write(op) && !(f->f_mode & FMODE_READ))
		return -EBADF;
	if (iocb_is_write(op) && !(f->f_mode & FMODE_WRITE))
		return -EBADF;
	if ((op == IOCB_CMD_PREAD || op == IOCB_CMD_PWRITE) &&
	    !access_ok_prot((void *)(u32)cb->aio_buf, cb->aio_nbytes, op == IOCB_CMD_PREAD))
		return -EFAULT;
	return 0;
}

/* Resolve the iocb's descriptors: its file, and the eventfd of
 * IOCB_FLAG_RESFD (-EBADF, -EINVAL when it is no eventfd). */
static long iocb_get_files(const struct iocb *cb, struct file **f, struct file **efd)
{
	long ret;

	*efd = NULL;
	*f = fget((int)cb->aio_fildes);
	if (!*f)
		return -EBADF;
	if ((ret = iocb_check_file(cb, *f)))
		goto out_put;
	if (cb->aio_flags & IOCB_FLAG_RESFD) {
		*efd = eventfd_fget((int)cb->aio_resfd);
		if (IS_ERR(*efd)) {
			ret = PTR_ERR(*efd);
			*efd = NULL;
			goto out_put;
		}
	}
	return 0;
out_put:
	fput(*f);
	return ret;
}

/* Start one request whose iocb passed the checks. The vectored segments are
 * read here and live on this stack (or in a buffer freed here) only while the
 * file's method runs. */
static long iocb_start(struct kiocb *req, struct iocb *ucb, const struct iocb *cb)
{
	struct iovec iov_inline[IOV_INLINE], *iov = iov_inline;
	long ret = 0;

	if (iocb_is_vec(cb->aio_lio_opcode) && cb->aio_nbytes > IOV_INLINE &&
	    !(iov = kmalloc(cb->aio_nbytes * sizeof(*iov), GFP_KERNEL)))
		ret = -ENOMEM;
	if (!ret && iocb_is_vec(cb->aio_lio_opcode))
		ret = iocb_get_iovec(cb, iov);
	if (!ret)
		ret = put_user(req->ki_key, &ucb->aio_key) ? -EFAULT : iocb_dispatch(req, cb, iov);
	if (iov != iov_inline)
		kfree(iov);
	return ret;
}

static long io_submit_one(struct kioctx *ctx, struct iocb *ucb, const struct iocb *cb,
			  struct aio_batch *batch)
{
	struct file *f, *efd;
	struct kiocb *req;
	long ret = iocb_check(cb);

	if (ret || (ret = iocb_get_files(cb, &f, &efd)))
		return ret;
	req = aio_get_req(ctx);
	if (!req && batch->nr) {
		/* the batch's requests are done: their credits and slots first */
		aio_batch_flush(batch);
		req = aio_get_req(ctx);
	}
	if (!req) {
		fput(f);
		if (efd)
			fput(efd);
		return -EAGAIN;
	}
	req->ki_filp = f;			/* the request owns the references now */
	req->ki_eventfd = efd;
	req->ki_user_obj = (u32)ucb;
	req->ki_user_data = cb->aio_data;
	req->ki_opcode = cb->aio_lio_opcode;
	req->ki_rw_flags = cb->aio_rw_flags;
	trace_aio(TR_AIO_ACCEPT, ctx->trace_id, req->ki_key, cb->aio_nbytes, 0,
		  cb->aio_lio_opcode);
	ret = iocb_start(req, ucb, cb);
	/* RWF_NOWAIT: "it would block" is the request's result, not io_submit's */
	if (ret == -EAGAIN && (cb->aio_rw_flags & RWF_NOWAIT)) {
		ret = aio_submit_end_error(req, ret);
	} else {
		if (ret < 0 && ret != -EIOCBQUEUED)
			trace_aio(TR_AIO_REFUSE, ctx->trace_id, req->ki_key, 0, ret, 0);
		/* our reference kept req alive until here */
		aio_submit_end_batch(batch, req, ret);
	}
	return ret == -EIOCBQUEUED || ret >= 0 ? 0 : ret;
}

long sys_io_submit(aio_context_t id, long nr, struct iocb **iocbpp)
{
	struct aio_batch batch;
	struct blk_plug plug;
	struct kioctx *ctx;
	long i, ret = 0;

	if (nr < 0)
		return -EINVAL;
	ctx = ioctx_lookup(id);
	if (!ctx)
		return -EINVAL;
	trace_aio(TR_AIO_SUBMIT, ctx->trace_id, 0, nr, 0, id);
	if ((unsigned long)nr > SUBMIT_MAX_NR || !access_ok(iocbpp, nr * sizeof(*iocbpp))) {
		put_ioctx(ctx);
		return -EFAULT;
	}
	batch.ctx = ctx;
	batch.nr = 0;
	blk_start_plug(&plug);
	for (i = 0; i < nr; i++) {
		struct iocb *ucb, cb;
		if (get_user(ucb, iocbpp + i) || copy_from_user(&cb, ucb, sizeof(cb))) {
			ret = -EFAULT;
			break;
		}
		if ((ret = io_submit_one(ctx, ucb, &cb, &batch)))
			break;
	}
	aio_batch_flush(&batch);	/* the events of those done inside the call */
	blk_finish_plug(&plug);		/* one device notification for the batch */
	put_ioctx(ctx);
	return i ? i : ret;
}

long sys_io_cancel(aio_context_t id, struct iocb *ucb, struct io_event *uresult)
{
	struct io_event ev;
	struct kioctx *ctx;
	struct kiocb *req;
	u32 key;
	long ret;

	if (get_user(key, &ucb->aio_key))
		return -EFAULT;
	ctx = ioctx_lookup(id);
	if (!ctx)
		return -EINVAL;
	/* Fault the result in first: a cancelled event must not be lost. */
	if (clear_user(uresult, sizeof(*uresult))) {
		put_ioctx(ctx);
		return -EFAULT;
	}
	req = aio_lookup_req(ctx, (u32)ucb, key);
	ret = req ? aio_cancel_req(req, &ev) : -EAGAIN;
	if (req)
		aio_put_req(req);
	if (!ret && copy_to_user(uresult, &ev, sizeof(ev)))
		ret = -EFAULT;
	put_ioctx(ctx);
	return ret;
}

/* Absolute CLOCK_REALTIME deadline in ns; U64_MAX for none. */
static long read_deadline(const struct kernel_timespec *uwhen, u64 *deadline)
{
	struct kernel_timespec ts;

	*deadline = ~0ull;
	if (!uwhen)
		return 0;
	if (get_user(ts.tv_sec, &uwhen->tv_sec) || get_user(ts.tv_nsec, &uwhen->tv_nsec))
		return -EFAULT;
	if (ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000L)
		return -EINVAL;
	*deadline = ts.tv_sec < 0 ? 0 : (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
	return 0;
}

/* Sleep (exclusive) until an event, the deadline, a signal (-EINTR, never a
 * restart) or the context's end by another thread (io_destroy: -EINVAL).
 * Each completion wakes one waiter; one that leaves events behind in the
 * ring passes the wake-up on, so no event waits while a waiter sleeps. */
static long wait_events(struct kioctx *ctx, long nr, struct io_event *uev, u64 deadline)
{
	DECLARE_WAITQUEUE(wait, current);
	long got = 0;

	add_wait_queue_exclusive(&ctx->wait, &wait);
	for (;;) {
		u64 now;
		set_current_state(TASK_INTERRUPTIBLE);
		if (READ_ONCE(ctx->dead)) {
			got = -EINVAL;
			break;
		}
		if (aio_ring_maybe_ready(ctx)) {
			/* The read may sleep (ring_lock, kmap, a fault): not in a sleep state. */
			__set_current_state(TASK_RUNNING);
			if ((got = aio_ring_read(ctx, uev, nr)))
				break;
			continue;
		}
		now = ktime_get_real_ns();
		if (now >= deadline)
			break;
		if (signal_pending(current)) {
			got = -EINTR;
			break;
		}
		if (deadline == ~0ull)
			schedule();
		else
			schedule_timeout(MAX(1L, (long)(ktime_real_to_jiffies(deadline) - jiffies)));
	}
	set_current_state(TASK_RUNNING);
	remove_wait_queue(&ctx->wait, &wait);
	if (got > 0 && aio_ring_maybe_ready(ctx))
		wake_up(&ctx->wait);		/* more than we took: the next waiter */
	return got;
}

static long do_io_getevents(aio_context_t id, long nr, struct io_event *uevents,
			    const struct kernel_timespec *uwhen)
{
	struct kioctx *ctx = ioctx_lookup(id);
	u64 deadline;
	long ret;

	if (!ctx)
		return -EINVAL;
	ret = nr < 0 ? -EINVAL : read_deadline(uwhen, &deadline);
	if (!ret && (unsigned long)nr > GETEVENTS_MAX_NR)
		nr = GETEVENTS_MAX_NR;
	if (!ret && nr && !access_ok(uevents, nr * sizeof(*uevents)))
		ret = -EFAULT;
	if (!ret && nr) {
		ret = aio_ring_read(ctx, uevents, nr);
		/* a past deadline: done (0, the epoch, needs no clock: a poll) */
		if (!ret && deadline && ktime_get_real_ns() < deadline)
			ret = wait_events(ctx, nr, uevents, deadline);
	}
	put_ioctx(ctx);
	return ret;
}

long sys_io_getevents_abs(aio_context_t id, long nr, struct io_event *uevents,
			  const struct kernel_timespec *uwhen)
{
	return do_io_getevents(id, nr, uevents, uwhen);
}

/* Read io_pgetevents' { mask, size } argument: *has_mask false for none. */
static long read_aio_sigset(const struct aio_sigset *usig, u64 *mask, bool *has_mask)
{
	struct aio_sigset ss;

	*has_mask = false;
	if (!usig)
		return 0;
	if (copy_from_user(&ss, usig, sizeof(ss)))
		return -EFAULT;
	if (!ss.sigmask)
		return 0;
	if (ss.sigsetsize != sizeof(*mask))
		return -EINVAL;
	if (copy_from_user(mask, (const void *)(u32)ss.sigmask, sizeof(*mask)))
		return -EFAULT;
	*has_mask = true;
	return 0;
}

long sys_io_pgetevents_abs(aio_context_t id, long nr, struct io_event *uevents,
			   const struct kernel_timespec *uwhen, const struct aio_sigset *usig)
{
	bool has_mask;
	u64 mask;
	long ret = read_aio_sigset(usig, &mask, &has_mask);

	if (ret)
		return ret;
	if (has_mask)			/* the wait's mask (kernel/signal_calls.c) */
		signal_set_temp_mask(mask);
	ret = do_io_getevents(id, nr, uevents, uwhen);
	if (has_mask)
		signal_restore_temp_mask(ret == -EINTR);
	return ret;
}
