/* posix_aio.c: POSIX <aio.h> on libaio: one process-wide io context, completions matched to aiocbs by iocb.data; SIGEV_SIGNAL and SIGEV_THREAD through a notifier thread. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "aio.h"
#include "libaio.h"
#include "glue.h"
#include "pthread/tcb.h"
#include "signal_glue.h"

/*
 * Every submitted aiocb sits on the in-flight list until its completion is
 * reaped (from the ring, usually without a system call) or io_cancel returns its
 * event.  pa_lock (a futex lock word) guards the list and every aiocb's state
 * against other threads.  Until a request asks for a notification, the thread
 * that waits (aio_suspend, aio_error, ...) reaps; from the first SIGEV_SIGNAL
 * or SIGEV_THREAD request on, a notifier thread reaps every completion, sends
 * the signals and starts the notification threads, and the waiters sleep on
 * pa_done_gen, which it bumps (and wakes) at each batch.  In a signal handler
 * aio_error and aio_return never wait for the lock: a poll that finds it
 * taken is skipped (the state is read as it stands).
 */
enum { PA_IDLE, PA_INFLIGHT, PA_DONE };

#define PA_NR_EVENTS	256	/* ring size asked of io_setup */
#define PA_BATCH	32	/* events reaped per io_getevents call */

_Static_assert(sizeof(((struct aiocb *)0)->__iocb) == sizeof(struct iocb), "aiocb iocb space");

static io_context_t pa_ctx;
static struct aiocb *pa_inflight;
static unsigned pa_generation;		/* glue_fork_generation when pa_ctx was made */
static volatile int pa_lock;		/* the list and the states (tcb.h lock word) */
static volatile int pa_done_gen;	/* completions so far (futex for waiters) */
static volatile int pa_notifier;	/* a notifier thread reaps */

/* A lio_listio(LIO_NOWAIT) sigevent: sent when the last listed request is done. */
struct pa_lio {
	int		left;
	struct sigevent	ev;
};

/* Notifications found under the lock, sent after it is dropped. */
struct pa_notes {
	int		n;
	struct sigevent	ev[PA_BATCH + 1];
};

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
	pa_lock = 0;			/* the child has one thread: no notifier, no holder */
	pa_notifier = 0;
	pa_generation = glue_fork_generation;
}

static void pa_list_lock(void)
{
	__lock_word(&pa_lock, 0);
}

static void pa_list_unlock(void)
{
	__unlock_word(&pa_lock, 0);
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

static int pa_wants_note(const struct sigevent *ev)
{
	return ev->sigev_notify == SIGEV_SIGNAL || ev->sigev_notify == SIGEV_THREAD;
}

/* Record a result (bytes or -errno) and take cb off the in-flight list (lock
 * held); its notification, and its list's when it was the last, go to notes. */
static void pa_finish(struct aiocb *cb, long res, struct pa_notes *notes)
{
	struct pa_lio *lio = cb->__lio;

	pa_list_del(cb);
	cb->__lio = NULL;
	cb->__error = res < 0 ? (int)-res : 0;
	cb->__return = res < 0 ? -1 : res;
	__atomic_store_n(&cb->__state, PA_DONE, __ATOMIC_RELEASE);
	if (notes && pa_wants_note(&cb->aio_sigevent))
		notes->ev[notes->n++] = cb->aio_sigevent;
	if (lio && --lio->left == 0) {
		if (notes && notes->n <= PA_BATCH)
			notes->ev[notes->n++] = lio->ev;
		free(lio);
	}
}

static void pa_complete(const struct io_event *ev, struct pa_notes *notes)
{
	struct aiocb *cb = ev->data;

	/* only an event for a request of ours that is still in flight */
	if (cb && cb->__state == PA_INFLIGHT && ev->obj == pa_iocb(cb))
		pa_finish(cb, (long)ev->res, notes);
}

/* SIGEV_THREAD: the function runs as a new (detached) thread's start. */
struct pa_thread_note {
	void		(*fn)(union sigval);
	union sigval	value;
};

static void *pa_note_thread(void *arg)
{
	struct pa_thread_note n = *(struct pa_thread_note *)arg;

	free(arg);
	n.fn(n.value);
	return 0;
}

/* Send one notification: a queued signal with si_code SI_ASYNCIO and the
 * sigevent's value, or a thread running its function. */
static void pa_notify(const struct sigevent *ev)
{
	if (ev->sigev_notify == SIGEV_SIGNAL) {
		siginfo_t si;
		int ksig = __sig_to_kernel(ev->sigev_signo);

		memset(&si, 0, sizeof(si));
		si.si_signo = ksig;
		si.si_code = SI_ASYNCIO;
		si.si_pid = __sys_getpid();
		si.si_value = ev->sigev_value;
		if (ksig)
			__sys_rt_sigqueueinfo(__sys_getpid(), ksig, &si);
	} else if (ev->sigev_notify == SIGEV_THREAD && ev->sigev_notify_function) {
		struct pa_thread_note *n = malloc(sizeof(*n));
		pthread_t t;

		if (!n)
			return;
		n->fn = ev->sigev_notify_function;
		n->value = ev->sigev_value;
		if (pthread_create(&t, ev->sigev_notify_attributes, pa_note_thread, n) == 0)
			pthread_detach(t);
		else
			free(n);
	}
}

/* Handle reaped events: results under the lock, then wake the waiters and
 * send the notifications. */
static void pa_deliver(const struct io_event *events, int n)
{
	struct pa_notes notes;

	notes.n = 0;
	pa_list_lock();
	for (int i = 0; i < n; i++)
		pa_complete(&events[i], &notes);
	pa_list_unlock();
	if (n > 0) {
		__atomic_add_fetch(&pa_done_gen, 1, __ATOMIC_RELEASE);
		__futex_wake(&pa_done_gen, 0x7fffffff, 0);
	}
	for (int i = 0; i < notes.n; i++)
		pa_notify(&notes.ev[i]);
}

/*
 * How long a waiter without the notifier sleeps in io_getevents at a time:
 * at most PA_SLICE_NS, less when *left (NULL: no limit) is shorter; the
 * slice is written to *slice. A waiter re-checks its requests after each: a
 * request it waits for may end without a kernel event (refused at
 * submission: pa_refused) or its event may be reaped by another waiting
 * thread, whose futex wake-up cannot reach a sleeper in the kernel.
 */
#define PA_SLICE_NS	20000000L
static struct timespec *pa_slice(const struct timespec *left, struct timespec *slice)
{
	struct timespec s = { 0, PA_SLICE_NS };

	if (left && !left->tv_sec && left->tv_nsec < PA_SLICE_NS)
		s = *left;
	*slice = s;
	return slice;
}

/* Reap completions: wait for min_nr at most *timeout (NULL: no limit); count
 * or -errno.  A cancellation point in its wait, before it took anything. */
static int pa_reap(long min_nr, struct timespec *timeout)
{
	struct io_event events[PA_BATCH];
	int n, total = 0;

	do {
		n = (total ? __io_getevents_nocancel : __io_getevents_cp)(pa_ctx, min_nr, PA_BATCH,
									   events, timeout);
		pa_deliver(events, n > 0 ? n : 0);
		total += n > 0 ? n : 0;
		min_nr = 0;
	} while (n == PA_BATCH);
	return n < 0 && !total ? n : total;
}

/* The notifier: reaps every completion as it comes, with every signal
 * blocked (signals are for the program's threads). Ends with the context. */
static void *pa_notifier_main(void *arg)
{
	struct io_event events[PA_BATCH];
	io_context_t ctx = pa_ctx;
	sigset_t all;
	int n;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, 0);
	for (;;) {
		n = __io_getevents_nocancel(ctx, 1, PA_BATCH, events, NULL);
		if (n == -EINVAL)
			return 0;
		pa_deliver(events, n > 0 ? n : 0);
	}
}

/* Start the notifier once (lock held): 0 or an errno. */
static int pa_start_notifier(void)
{
	pthread_attr_t a;
	pthread_t t;
	int r;

	if (pa_notifier)
		return 0;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	r = pthread_create(&t, &a, pa_notifier_main, 0);
	pthread_attr_destroy(&a);
	if (r)
		return EAGAIN;
	pa_notifier = 1;
	return 0;
}

/* Reap what is there, unless the notifier does or (a signal handler
 * interrupted a holder) the lock is taken: then the state is as it stands. */
static void pa_poll(void)
{
	struct io_event events[PA_BATCH];
	struct pa_notes notes;
	int n;

	pa_forget_if_forked();
	if (!pa_ctx || !pa_inflight || pa_notifier || !__trylock_word(&pa_lock))
		return;
	notes.n = 0;
	do {
		n = __io_getevents_nocancel(pa_ctx, 0, PA_BATCH, events, NULL);
		for (int i = 0; i < n; i++)
			pa_complete(&events[i], &notes);
	} while (n == PA_BATCH);
	pa_list_unlock();
	for (int i = 0; i < notes.n; i++)
		pa_notify(&notes.ev[i]);
}

/* Sleep until the next completion batch after gen, or the monotonic
 * deadline (NULL: none): 0, or an errno (EAGAIN at the deadline, EINTR).
 * A cancellation point (it takes nothing). */
static int pa_wait_gen(int gen, const struct timespec *deadline)
{
	struct timespec far;
	int r;

	if (!deadline) {		/* a timed wait: a signal ends it (no restart) */
		clock_gettime(CLOCK_MONOTONIC, &far);
		far.tv_sec += 3600;
		deadline = &far;
	}
	r = __futex_wait_cp(&pa_done_gen, gen, CLOCK_MONOTONIC, deadline, 0);
	if (r == -ETIMEDOUT)
		return deadline == &far ? 0 : EAGAIN;
	return r == -EINTR ? EINTR : 0;
}

static int pa_fail(int err)
{
	errno = err;
	return -1;
}

/* SIGEV_NONE (or an all-zero sigevent), SIGEV_SIGNAL with a signal the
 * kernel knows, SIGEV_THREAD with a function. */
static int pa_check_sigevent(const struct sigevent *sig)
{
	if (!sig || sig->sigev_notify == SIGEV_NONE || sig->sigev_notify == 0)
		return 1;
	if (sig->sigev_notify == SIGEV_SIGNAL)
		return __sig_to_kernel(sig->sigev_signo) != 0;
	return sig->sigev_notify == SIGEV_THREAD && sig->sigev_notify_function;
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
	io->aio_reqprio = (short)cb->aio_reqprio;	/* 0..AIO_PRIO_DELTA_MAX: no effect */
	io->data = cb;
	return 0;
}

/* Check and prepare cb for opcode and put it in flight (not yet submitted); 0 or
 * errno: EINVAL for a bad sigevent, a request still in flight, a negative
 * offset, an aio_reqprio outside 0..AIO_PRIO_DELTA_MAX (glibc's check; the
 * priority is accepted and has no effect), an unknown opcode. */
static int pa_arm(struct aiocb *cb, int opcode)
{
	int r;

	pa_forget_if_forked();		/* before the in-flight check: the parent's cb is reusable */
	if (!cb || !pa_check_sigevent(&cb->aio_sigevent) || cb->__state == PA_INFLIGHT ||
	    cb->aio_offset < 0 || cb->aio_reqprio < 0 || cb->aio_reqprio > AIO_PRIO_DELTA_MAX ||
	    pa_prep(cb, opcode) < 0)
		return EINVAL;
	r = pa_context();
	if (r < 0)
		return -r;
	pa_list_lock();
	r = pa_wants_note(&cb->aio_sigevent) ? pa_start_notifier() : 0;
	if (!r) {
		cb->__error = EINPROGRESS;
		cb->__return = 0;
		cb->__lio = NULL;
		cb->__cancel_seen = 0;
		cb->__state = PA_INFLIGHT;
		pa_list_add(cb);
	}
	pa_list_unlock();
	return r;
}

/* Take back an armed request that was never submitted (lock not held). */
static void pa_disarm(struct aiocb *cb)
{
	pa_list_lock();
	pa_list_del(cb);
	cb->__state = PA_IDLE;
	pa_list_unlock();
}

/* End a request the kernel refused at submission with its error (-errno), as
 * glibc's requests end whose error its worker thread meets: aio_error reports
 * it, the waiters wake and the notification is sent. */
static void pa_refused(struct aiocb *cb, long err)
{
	struct pa_notes notes;

	notes.n = 0;
	pa_list_lock();
	pa_finish(cb, err, &notes);
	pa_list_unlock();
	__atomic_add_fetch(&pa_done_gen, 1, __ATOMIC_RELEASE);
	__futex_wake(&pa_done_gen, 0x7fffffff, 0);
	for (int i = 0; i < notes.n; i++)
		pa_notify(&notes.ev[i]);
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
	if (r == 0 || r == -EAGAIN) {	/* no room: the call fails, as glibc's */
		pa_disarm(cb);
		return pa_fail(EAGAIN);
	}
	pa_refused(cb, r);	/* EBADF, EINVAL, ...: the request's own error */
	return 0;
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

static int pa_state(const struct aiocb *cb)
{
	return __atomic_load_n(&cb->__state, __ATOMIC_ACQUIRE);
}

int aio_error(const struct aiocb *cb)
{
	if (pa_state(cb) == PA_INFLIGHT)
		pa_poll();
	return pa_state(cb) == PA_INFLIGHT ? EINPROGRESS : cb->__error;
}

ssize_t aio_return(struct aiocb *cb)
{
	if (pa_state(cb) == PA_INFLIGHT)
		pa_poll();
	if (pa_state(cb) != PA_DONE)
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
		if (pa_state(list[i]) != PA_INFLIGHT)
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
	__pthread_testcancel_glue();	/* a cancellation point even when it need not wait */
	pa_poll();
	for (;;) {
		int gen = __atomic_load_n(&pa_done_gen, __ATOMIC_ACQUIRE);

		if (pa_any_done(list, n))
			return 0;
		left = timeout ? pa_left(&deadline) : (struct timespec){ 0, 0 };
		if (timeout && !left.tv_sec && !left.tv_nsec)
			return pa_fail(EAGAIN);
		if (pa_notifier) {		/* it reaps: wait for its next batch */
			r = pa_wait_gen(gen, timeout ? &deadline : NULL);
			if (r)
				return pa_fail(r);
			continue;
		}
		r = pa_reap(1, pa_slice(timeout ? &left : NULL, &left));
		if (r < 0)
			return pa_fail(-r);
	}
}

/* Cancel one request: AIO_CANCELED, AIO_NOTCANCELED or AIO_ALLDONE. */
static int pa_cancel_one(struct aiocb *cb)
{
	struct io_event ev;

	struct pa_notes notes;

	if (pa_state(cb) != PA_INFLIGHT)
		return AIO_ALLDONE;
	if (io_cancel(pa_ctx, pa_iocb(cb), &ev) != 0)
		return AIO_NOTCANCELED;
	notes.n = 0;
	pa_list_lock();			/* its one completion is ev, not a ring event */
	pa_finish(cb, -ECANCELED, &notes);
	pa_list_unlock();
	for (int i = 0; i < notes.n; i++)
		pa_notify(&notes.ev[i]);
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
	for (;;) {			/* one at a time: the list changes under us */
		pa_list_lock();
		for (it = pa_inflight; it && (it->aio_fildes != fd || it->__cancel_seen); it = next)
			next = it->__next;
		if (it)
			it->__cancel_seen = 1;
		pa_list_unlock();
		if (!it)
			break;
		r = pa_cancel_one(it);
		canceled |= r == AIO_CANCELED;
		notcanceled |= r == AIO_NOTCANCELED;
	}
	pa_list_lock();
	for (it = pa_inflight; it; it = it->__next)
		it->__cancel_seen = 0;
	pa_list_unlock();
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
			if (pa_state(cb) != PA_INFLIGHT) {
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
		pa_refused(cbs[done], r < 0 ? r : -EAGAIN);
		*failed = 1;
		done++;
	}
}

/* LIO_NOWAIT with a sigevent: one notification when every listed request is
 * done. The counter starts one high, so that none completing meanwhile can
 * send it before all are counted; the last drop here or in pa_finish sends it. */
static int pa_lio_notify_arm(struct aiocb **cbs, int count, const struct sigevent *sig)
{
	struct pa_lio *lio = malloc(sizeof(*lio));
	struct pa_notes notes;
	int r;

	if (!lio)
		return EAGAIN;
	lio->ev = *sig;
	lio->left = 1;
	notes.n = 0;
	pa_list_lock();
	r = pa_start_notifier();
	for (int i = 0; !r && i < count; i++)
		if (cbs[i]->__state == PA_INFLIGHT) {
			cbs[i]->__lio = lio;
			lio->left++;
		}
	if (r || --lio->left == 0) {
		if (!r)
			notes.ev[notes.n++] = lio->ev;
		free(lio);
	}
	pa_list_unlock();
	for (int i = 0; i < notes.n; i++)
		pa_notify(&notes.ev[i]);
	return r;
}

/* Wait until every listed request is done (LIO_WAIT): 0 or an errno. */
static int pa_lio_wait(struct aiocb **cbs, int count)
{
	for (int i = 0; i < count; i++)
		for (;;) {
			int gen = __atomic_load_n(&pa_done_gen, __ATOMIC_ACQUIRE), r;
			struct timespec slice;

			if (pa_state(cbs[i]) != PA_INFLIGHT)
				break;
			r = pa_notifier ? pa_wait_gen(gen, NULL) :
			    pa_reap(1, pa_slice(NULL, &slice)) < 0 ? EINTR : 0;
			if (r)
				return r;
		}
	return 0;
}

int lio_listio(int mode, struct aiocb *const list[], int n, struct sigevent *sig)
{
	struct iocb *ios[n > 0 ? n : 1];
	struct aiocb *cbs[n > 0 ? n : 1];
	int count, failed = 0, r;

	if ((mode != LIO_WAIT && mode != LIO_NOWAIT) || n < 0 || !pa_check_sigevent(sig))
		return pa_fail(EINVAL);
	if (pa_context() < 0)
		return pa_fail(EAGAIN);
	count = pa_lio_arm(list, n, ios, cbs, &failed);
	if (mode == LIO_NOWAIT && sig && pa_wants_note(sig)) {
		pa_list_lock();		/* the notifier first: a list of NOWAIT requests */
		r = pa_start_notifier();
		pa_list_unlock();
		if (r) {
			for (int i = 0; i < count; i++)
				pa_disarm(cbs[i]);
			return pa_fail(r);
		}
	}
	pa_lio_submit(ios, cbs, count, &failed);
	if (mode == LIO_NOWAIT && sig && pa_wants_note(sig) && (r = pa_lio_notify_arm(cbs, count, sig)))
		return pa_fail(r);
	if (mode == LIO_WAIT) {
		r = pa_lio_wait(cbs, count);
		if (r)
			return pa_fail(r);
		for (int i = 0; i < count; i++)
			failed |= cbs[i]->__error != 0;
	}
	return failed ? pa_fail(EIO) : 0;
}
