/* posix_aio.c: POSIX <aio.h> on libaio: one process-wide io context, completions matched to aiocbs by iocb.data. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include "aio.h"
#include "libaio.h"
#include "glue.h"

/*
 * Every submitted aiocb sits on the in-flight list until its completion is
 * reaped (from the ring, usually without a system call) or io_cancel returns its
 * event.  The process has one thread, so the list needs no lock.
 */
enum { PA_IDLE, PA_INFLIGHT, PA_DONE };

#define PA_NR_EVENTS	256	/* ring size asked of io_setup */
#define PA_BATCH	32	/* events reaped per io_getevents call */

_Static_assert(sizeof(((struct aiocb *)0)->__iocb) == sizeof(struct iocb), "aiocb iocb space");

static io_context_t pa_ctx;
static struct aiocb *pa_inflight;
static unsigned pa_generation;		/* glue_fork_generation when pa_ctx was made */

static struct iocb *pa_iocb(const struct aiocb *cb)
{
	return (struct iocb *)cb->__iocb;
}

/* In a child of fork: the parent's context and requests are not ours; drop them. */
static void pa_forget_if_forked(void)
{
	struct aiocb *cb, *next;

	if (pa_generation == glue_fork_generation)
		return;
	for (cb = pa_inflight; cb; cb = next) {
		next = cb->__next;
		cb->__next = cb->__prev = NULL;
		cb->__state = PA_IDLE;		/* reusable; its aio_error stays EINPROGRESS */
	}
	pa_inflight = NULL;
	pa_ctx = 0;
	pa_generation = glue_fork_generation;
}

static int pa_context(void)
{
	int r = 0;

	pa_forget_if_forked();
	if (!pa_ctx)
		r = io_setup(PA_NR_EVENTS, &pa_ctx);
	return r;
}

static void pa_list_add(struct aiocb *cb)
{
	cb->__prev = NULL;
	cb->__next = pa_inflight;
	if (pa_inflight)
		pa_inflight->__prev = cb;
	pa_inflight = cb;
}

static void pa_list_del(struct aiocb *cb)
{
	if (cb->__prev)
		cb->__prev->__next = cb->__next;
	else
		pa_inflight = cb->__next;
	if (cb->__next)
		cb->__next->__prev = cb->__prev;
	cb->__next = cb->__prev = NULL;
}

/* Record a result (bytes or -errno) and take cb off the in-flight list. */
static void pa_finish(struct aiocb *cb, long res)
{
	pa_list_del(cb);
	cb->__error = res < 0 ? (int)-res : 0;
	cb->__return = res < 0 ? -1 : res;
	cb->__state = PA_DONE;
}

static void pa_complete(const struct io_event *ev)
{
	struct aiocb *cb = ev->data;

	/* only an event for a request of ours that is still in flight */
	if (cb && cb->__state == PA_INFLIGHT && ev->obj == pa_iocb(cb))
		pa_finish(cb, (long)ev->res);
}

/* Reap completions: wait for min_nr at most *timeout (NULL: no limit); count or -errno. */
static int pa_reap(long min_nr, struct timespec *timeout)
{
	struct io_event events[PA_BATCH];
	int n, total = 0;

	do {
		n = io_getevents(pa_ctx, min_nr, PA_BATCH, events, timeout);
		for (int i = 0; i < n; i++)
			pa_complete(&events[i]);
		total += n > 0 ? n : 0;
		min_nr = 0;
	} while (n == PA_BATCH);
	return n < 0 && !total ? n : total;
}

static void pa_poll(void)
{
	pa_forget_if_forked();
	if (pa_ctx && pa_inflight)
		pa_reap(0, NULL);
}

static int pa_fail(int err)
{
	errno = err;
	return -1;
}

/* Only SIGEV_NONE (or an all-zero sigevent) is supported. */
static int pa_check_sigevent(const struct sigevent *sig)
{
	return !sig || sig->sigev_notify == SIGEV_NONE || sig->sigev_notify == 0;
}

/* Fill cb's iocb for opcode; -1 for an opcode we do not know. */
static int pa_prep(struct aiocb *cb, int opcode)
{
	struct iocb *io = pa_iocb(cb);

	switch (opcode) {
	case IO_CMD_PREAD:
		io_prep_pread(io, cb->aio_fildes, (void *)cb->aio_buf, cb->aio_nbytes, cb->aio_offset);
		break;
	case IO_CMD_PWRITE:
		io_prep_pwrite(io, cb->aio_fildes, (void *)cb->aio_buf, cb->aio_nbytes, cb->aio_offset);
		break;
	case IO_CMD_FSYNC:
		io_prep_fsync(io, cb->aio_fildes);
		break;
	case IO_CMD_FDSYNC:
		io_prep_fdsync(io, cb->aio_fildes);
		break;
	default:
		return -1;
	}
	io->aio_reqprio = (short)cb->aio_reqprio;
	io->data = cb;
	return 0;
}

/* Check and prepare cb for opcode and put it in flight (not yet submitted); 0 or errno. */
static int pa_arm(struct aiocb *cb, int opcode)
{
	int r;

	pa_forget_if_forked();		/* before the in-flight check: the parent's cb is reusable */
	if (!cb || !pa_check_sigevent(&cb->aio_sigevent) || cb->__state == PA_INFLIGHT ||
	    cb->aio_offset < 0 || pa_prep(cb, opcode) < 0)
		return EINVAL;
	r = pa_context();
	if (r < 0)
		return -r;
	cb->__error = EINPROGRESS;
	cb->__return = 0;
	cb->__state = PA_INFLIGHT;
	pa_list_add(cb);
	return 0;
}

static int pa_submit_one(struct aiocb *cb, int opcode)
{
	struct iocb *io;
	int r = pa_arm(cb, opcode);

	if (r)
		return pa_fail(r);
	io = pa_iocb(cb);
	r = io_submit(pa_ctx, 1, &io);
	if (r == 1)
		return 0;
	pa_list_del(cb);
	cb->__state = PA_IDLE;
	return pa_fail(r < 0 ? -r : EAGAIN);
}

int aio_read(struct aiocb *cb)
{
	return pa_submit_one(cb, IO_CMD_PREAD);
}

int aio_write(struct aiocb *cb)
{
	return pa_submit_one(cb, IO_CMD_PWRITE);
}

int aio_fsync(int op, struct aiocb *cb)
{
	if (op == O_SYNC)
		return pa_submit_one(cb, IO_CMD_FSYNC);
	if (op == O_DSYNC)
		return pa_submit_one(cb, IO_CMD_FDSYNC);
	return pa_fail(EINVAL);
}

int aio_error(const struct aiocb *cb)
{
	if (cb->__state == PA_INFLIGHT)
		pa_poll();
	return cb->__state == PA_INFLIGHT ? EINPROGRESS : cb->__error;
}

ssize_t aio_return(struct aiocb *cb)
{
	if (cb->__state == PA_INFLIGHT)
		pa_poll();
	if (cb->__state != PA_DONE)
		return pa_fail(EINVAL);	/* still in progress, or already returned */
	cb->__state = PA_IDLE;
	if (cb->__return < 0)
		errno = cb->__error;
	return cb->__return;
}

/* 1 if some listed request has completed or none is in flight, else 0. */
static int pa_any_done(const struct aiocb *const list[], int n)
{
	int inflight = 0;

	for (int i = 0; i < n; i++) {
		if (!list[i])
			continue;
		if (list[i]->__state != PA_INFLIGHT)
			return 1;
		inflight = 1;
	}
	return !inflight;
}

/* now(MONOTONIC) + t, and the time left until such a deadline (0 if past). */
static struct timespec pa_ts_add(struct timespec a, const struct timespec *b)
{
	a.tv_sec += b->tv_sec;
	a.tv_nsec += b->tv_nsec;
	if (a.tv_nsec >= 1000000000L) {
		a.tv_sec++;
		a.tv_nsec -= 1000000000L;
	}
	return a;
}

static struct timespec pa_left(const struct timespec *deadline)
{
	struct timespec now, left = { 0, 0 };

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > deadline->tv_sec ||
	    (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec))
		return left;
	left.tv_sec = deadline->tv_sec - now.tv_sec;
	left.tv_nsec = deadline->tv_nsec - now.tv_nsec;
	if (left.tv_nsec < 0) {
		left.tv_sec--;
		left.tv_nsec += 1000000000L;
	}
	return left;
}

int aio_suspend(const struct aiocb *const list[], int n, const struct timespec *timeout)
{
	struct timespec deadline, left;
	int r;

	if (n < 0 || (timeout && (timeout->tv_nsec < 0 || timeout->tv_nsec >= 1000000000L)))
		return pa_fail(EINVAL);
	if (timeout) {
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline = pa_ts_add(deadline, timeout);
	}
	pa_poll();
	while (!pa_any_done(list, n)) {
		left = timeout ? pa_left(&deadline) : (struct timespec){ 0, 0 };
		if (timeout && !left.tv_sec && !left.tv_nsec)
			return pa_fail(EAGAIN);
		r = pa_reap(1, timeout ? &left : NULL);
		if (r < 0)
			return pa_fail(-r);
	}
	return 0;
}

/* Cancel one request: AIO_CANCELED, AIO_NOTCANCELED or AIO_ALLDONE. */
static int pa_cancel_one(struct aiocb *cb)
{
	struct io_event ev;

	if (cb->__state != PA_INFLIGHT)
		return AIO_ALLDONE;
	if (io_cancel(pa_ctx, pa_iocb(cb), &ev) != 0)
		return AIO_NOTCANCELED;
	pa_finish(cb, -ECANCELED);	/* its one completion is ev, not a ring event */
	return AIO_CANCELED;
}

int aio_cancel(int fd, struct aiocb *cb)
{
	struct aiocb *it, *next;
	int r, canceled = 0, notcanceled = 0;

	if (cb && cb->aio_fildes != fd)
		return pa_fail(EINVAL);
	pa_poll();
	if (cb)
		return pa_cancel_one(cb);
	for (it = pa_inflight; it; it = next) {
		next = it->__next;
		if (it->aio_fildes != fd)
			continue;
		r = pa_cancel_one(it);
		canceled |= r == AIO_CANCELED;
		notcanceled |= r == AIO_NOTCANCELED;
	}
	return notcanceled ? AIO_NOTCANCELED : canceled ? AIO_CANCELED : AIO_ALLDONE;
}

static int pa_lio_opcode(int lio)
{
	return lio == LIO_READ ? IO_CMD_PREAD : lio == LIO_WRITE ? IO_CMD_PWRITE : -1;
}

/* Arm the listed requests into ios[]; ones that cannot be armed fail at once. */
static int pa_lio_arm(struct aiocb *const list[], int n, struct iocb **ios,
		      struct aiocb **cbs, int *failed)
{
	int count = 0, r;

	for (int i = 0; i < n; i++) {
		struct aiocb *cb = list[i];

		if (!cb || cb->aio_lio_opcode == LIO_NOP)
			continue;
		r = pa_arm(cb, pa_lio_opcode(cb->aio_lio_opcode));
		if (r) {
			*failed = 1;
			if (cb->__state != PA_INFLIGHT) {
				cb->__error = r;
				cb->__return = -1;
				cb->__state = PA_DONE;
			}
			continue;
		}
		cbs[count] = cb;
		ios[count++] = pa_iocb(cb);
	}
	return count;
}

/* Submit ios[0..count) in batches; a request the kernel refuses completes with that error. */
static void pa_lio_submit(struct iocb **ios, struct aiocb **cbs, int count, int *failed)
{
	int done = 0, r;

	while (done < count) {
		r = io_submit(pa_ctx, count - done, ios + done);
		if (r > 0) {
			done += r;
			continue;
		}
		pa_finish(cbs[done], r < 0 ? r : -EAGAIN);
		*failed = 1;
		done++;
	}
}

int lio_listio(int mode, struct aiocb *const list[], int n, struct sigevent *sig)
{
	struct iocb *ios[n > 0 ? n : 1];
	struct aiocb *cbs[n > 0 ? n : 1];
	int count, failed = 0;

	if ((mode != LIO_WAIT && mode != LIO_NOWAIT) || n < 0 || !pa_check_sigevent(sig))
		return pa_fail(EINVAL);
	if (pa_context() < 0)
		return pa_fail(EAGAIN);
	count = pa_lio_arm(list, n, ios, cbs, &failed);
	pa_lio_submit(ios, cbs, count, &failed);
	if (mode == LIO_WAIT) {
		for (int i = 0; i < count; i++)
			while (cbs[i]->__state == PA_INFLIGHT)
				if (pa_reap(1, NULL) < 0)
					return pa_fail(EINTR);
		for (int i = 0; i < count; i++)
			failed |= cbs[i]->__error != 0;
	}
	return failed ? pa_fail(EIO) : 0;
}
