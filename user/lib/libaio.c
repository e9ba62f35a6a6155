/* libaio.c: libaio-compatible calls on aiokern's AIO system calls, reaping completions from the mapped ring. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include "libaio.h"
#include "glue.h"
#include "pthread/tcb.h"
#include "signal_glue.h"
#include "uapi/aio_ring.h"	/* after libaio.h: its struct io_event */

/*
 * Ring protocol (the ring is the context id's address; include/uapi/aio_abi.h):
 * the kernel stores an event at tail, then advances tail (store ordered after the
 * event).  We read tail with acquire ordering, copy events from head up to tail,
 * then publish the new head with a release store, so the kernel never sees the
 * slots free before we are done reading them.  Only one consumer runs at a time:
 * a process has one thread, and the kernel consumes only inside io_getevents_abs.
 * The header is user-writable, so each field is checked before use; on any doubt
 * we leave the ring alone and ask the kernel.
 */

/* The kernel's layouts, under our names: checked against the uapi numbers. */
_Static_assert(sizeof(struct iocb) == 64, "struct iocb must be 64 bytes");
_Static_assert(sizeof(struct io_event) == 32, "struct io_event must be 32 bytes");
_Static_assert(offsetof(struct iocb, aio_lio_opcode) == 16, "iocb layout");
_Static_assert(offsetof(struct iocb, aio_fildes) == 20, "iocb layout");
_Static_assert(offsetof(struct iocb, u.c.buf) == 24, "iocb layout");
_Static_assert(offsetof(struct iocb, u.c.nbytes) == 32, "iocb layout");
_Static_assert(offsetof(struct iocb, u.c.offset) == 40, "iocb layout");
_Static_assert(offsetof(struct io_event, res) == 16, "io_event layout");

/* io_pgetevents_abs' { mask, size } (include/uapi/aio_abi.h, whose iocb
 * clashes with libaio's names). */
struct aio_sigset {
	uint32_t	sigmask;
	uint32_t	sigsetsize;
};

#define KNOWN_SLOTS		1024		/* open-addressed table of our contexts */
#define KNOWN_MASK		(KNOWN_SLOTS - 1)
#define KNOWN_MAX		(KNOWN_SLOTS * 3 / 4)	/* beyond: those reap by system call */

struct libaio_stats libaio_stats;

/*
 * The contexts io_setup made in this process, with their ring size as seen before
 * the process could scribble on it.  Only these rings are read: any other id (a
 * destroyed context, one made by a raw system call) goes to the kernel, which
 * answers -EINVAL where a read of the address would fault.
 */
static struct {
	unsigned long	ctx;		/* 0: empty slot */
	unsigned	nr;
} known[KNOWN_SLOTS];
static unsigned known_count, known_generation;

/* A child of fork has none of its parent's contexts: forget them all. */
static void known_forget_if_forked(void)
{
	if (known_generation == glue_fork_generation)
		return;
	memset(known, 0, sizeof(known));
	known_count = 0;
	known_generation = glue_fork_generation;
}

static unsigned known_home(unsigned long ctx)
{
	return (ctx >> 12) & KNOWN_MASK;	/* ids are page addresses */
}

/* The slot holding ctx, or -1. */
static int known_slot(unsigned long ctx)
{
	known_forget_if_forked();
	for (unsigned i = known_home(ctx), n = 0; known[i].ctx && n < KNOWN_SLOTS;
	     i = (i + 1) & KNOWN_MASK, n++)
		if (known[i].ctx == ctx)
			return (int)i;
	return -1;
}

static void known_add(unsigned long ctx, unsigned nr)
{
	unsigned i = known_home(ctx);

	known_forget_if_forked();
	if (known_count >= KNOWN_MAX)
		return;
	while (known[i].ctx)
		i = (i + 1) & KNOWN_MASK;
	known[i].ctx = ctx;
	known[i].nr = nr;
	known_count++;
}

/* Remove ctx, closing the gap so that every lookup still ends at an empty slot. */
static void known_del(unsigned long ctx)
{
	int hole = known_slot(ctx);

	if (hole < 0)
		return;
	for (unsigned j = (hole + 1) & KNOWN_MASK; known[j].ctx; j = (j + 1) & KNOWN_MASK) {
		unsigned home = known_home(known[j].ctx);

		if (((j - home) & KNOWN_MASK) >= ((j - hole) & KNOWN_MASK)) {
			known[hole] = known[j];		/* hole lies on j's probe path */
			hole = (int)j;
		}
	}
	known[hole].ctx = 0;
	known_count--;
}

/* The ring at ctx if it is one of ours and its header is sound (its size in *nrp). */
static struct aio_ring *ring_get(io_context_t ctx, unsigned *nrp)
{
	struct aio_ring *ring = (struct aio_ring *)ctx;
	int slot = known_slot((unsigned long)ctx);
	unsigned nr;

	if (slot < 0)
		return NULL;
	nr = __atomic_load_n(&ring->nr, __ATOMIC_RELAXED);	/* read once, then trusted */
	if (ring->magic != AIO_RING_MAGIC || ring->incompat_features != 0 ||
	    ring->header_length != sizeof(struct aio_ring) || nr != known[slot].nr) {
		libaio_stats.ring_rejected++;
		return NULL;
	}
	*nrp = nr;
	return ring;
}

/* The ring of a context io_setup just made: its size, or 0 if it looks wrong. */
static unsigned ring_fresh_nr(aio_context_t id)
{
	struct aio_ring *ring = (struct aio_ring *)id;

	if ((id & 4095) || ring->magic != AIO_RING_MAGIC || ring->nr < 2 || ring->nr > (1u << 24))
		return 0;
	return ring->nr;
}

/* kernel numbering -> newlib numbering in a result that is -errno. */
static void event_fix_res(struct io_event *ev)
{
	long res = (long)ev->res;

	if (GLUE_IS_ERR(res))
		ev->res = (unsigned long)-abi_errno_from_kernel((int)-res);
}

/* Copy up to nr events from the ring; -1 if the ring cannot be trusted.
 * Barriers (docs/locking.md, "The completion ring"): the tail is read with
 * acquire before the events (the kernel writes an event, then stores the tail
 * with release); the head moves by compare-and-swap with release after the
 * events are copied, so that of several readers (threads, or the kernel's
 * io_getevents, which moves the head the same way) exactly one takes each
 * event, and the kernel reuses a slot only after its reader is done with it.
 * A reader that loses the race drops its copies and tries again. */
static long ring_reap(io_context_t ctx, struct io_event *events, long nr)
{
	unsigned head, next, tail, n;
	struct aio_ring *ring = ring_get(ctx, &n);
	long got;

	if (!ring)
		return -1;
	do {
		head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
		tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
		if (head >= n || tail >= n) {
			libaio_stats.ring_rejected++;
			return -1;
		}
		for (got = 0, next = head; got < nr && next != tail; got++) {
			events[got] = ring->io_events[next];
			next = next + 1 == n ? 0 : next + 1;
		}
		if (!got)
			return 0;
	} while (!__atomic_compare_exchange_n(&ring->head, &head, next, 0,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	for (long i = 0; i < got; i++)
		event_fix_res(&events[i]);
	__atomic_fetch_add(&libaio_stats.ring_reaped, got, __ATOMIC_RELAXED);
	return got;
}

int io_getevents_ring_only(io_context_t ctx, long nr, struct io_event *events)
{
	long got;

	if (nr < 0)
		return -EINVAL;
	got = ring_reap(ctx, events, nr);
	return got < 0 ? -EINVAL : (int)got;
}

/*
 * The caller's ctxp goes to the kernel as it is, so the kernel's checks apply
 * to it (*ctxp not 0: -EINVAL; unreadable: -EFAULT; unwritable: -EFAULT with
 * the new context destroyed again).  maxevents <= 0 becomes a size the kernel
 * refuses with -EINVAL.
 */
int io_setup(int maxevents, io_context_t *ctxp)
{
	unsigned long id, nr;
	long r = __sys_io_setup((unsigned)maxevents, (aio_context_t *)ctxp);

	if (GLUE_IS_ERR(r))
		return (int)glue_neg_errno(r);
	id = (unsigned long)*ctxp;		/* the kernel just wrote it */
	nr = ring_fresh_nr(id);
	if (nr)
		known_add(id, nr);
	return 0;
}

int io_destroy(io_context_t ctx)
{
	known_del((unsigned long)ctx);		/* gone, or never ours (-EINVAL) */
	return (int)glue_neg_errno(__sys_io_destroy((aio_context_t)ctx));
}

/* As libaio's: the context word is cleared first (a program may pass one
 * never set), and maxevents <= 0 is -EINVAL without a system call. */
int io_queue_init(int maxevents, io_context_t *ctxp)
{
	if (maxevents <= 0)
		return -EINVAL;
	*ctxp = 0;
	return io_setup(maxevents, ctxp);
}

int io_queue_release(io_context_t ctx)
{
	return io_destroy(ctx);
}

int io_submit(io_context_t ctx, long nr, struct iocb *ios[])
{
	if (nr < 0)
		return -EINVAL;
	return (int)glue_neg_errno(__sys_io_submit((aio_context_t)ctx, nr, ios));
}

int io_cancel(io_context_t ctx, struct iocb *iocb, struct io_event *evt)
{
	long r = __sys_io_cancel((aio_context_t)ctx, iocb, evt);

	if (!GLUE_IS_ERR(r) && evt)
		event_fix_res(evt);
	return (int)glue_neg_errno(r);
}

/* now + rel as an absolute CLOCK_REALTIME deadline for io_getevents_abs. */
static int deadline_from(const struct timespec *rel, struct kernel_timespec *abs)
{
	struct timespec now;
	long long sec;
	long nsec;

	if (rel->tv_sec < 0 || rel->tv_nsec < 0 || rel->tv_nsec >= 1000000000L)
		return -EINVAL;
	if (clock_gettime(CLOCK_REALTIME, &now) < 0)
		return -errno;
	sec = now.tv_sec + rel->tv_sec;
	nsec = now.tv_nsec + rel->tv_nsec;
	if (nsec >= 1000000000L) {
		sec++;
		nsec -= 1000000000L;
	}
	abs->tv_sec = sec > 0x7fffffffLL ? 0x7fffffff : (long)sec;
	abs->tv_nsec = nsec;
	return 0;
}

/* io_(p)getevents_abs as a cancellation point (tcb.h); raw result.  Weak,
 * so that the host-side tests' mock kernel stands in for it as it does for
 * the __sys_ stubs (user/test/lib/mock_aio.c). */
__attribute__((weak)) long __libaio_getevents_cp(aio_context_t ctx, long nr,
						 struct io_event *events,
						 const struct kernel_timespec *when,
						 const struct aio_sigset *sig)
{
	return sig ? __SYSCALL_CP(__NR_io_pgetevents_abs, ctx, nr, events, when, sig)
		   : __SYSCALL_CP(__NR_io_getevents_abs, ctx, nr, events, when);
}

/* One io_getevents_abs call (io_pgetevents_abs with a signal mask); the
 * count, 0 at the deadline, or -errno (newlib's).  cp: as a cancellation
 * point (the caller holds no event yet: a cancel never drops one). */
static long getevents_syscall(io_context_t ctx, long nr, struct io_event *events,
			      const struct kernel_timespec *when, const struct aio_sigset *sig,
			      int cp)
{
	long r;

	if (cp)
		r = __libaio_getevents_cp((aio_context_t)ctx, nr, events, when, sig);
	else
		r = sig ? __sys_io_pgetevents_abs((aio_context_t)ctx, nr, events, when, sig)
			: __sys_io_getevents_abs((aio_context_t)ctx, nr, events, when);

	libaio_stats.syscalls++;
	if (GLUE_IS_ERR(r))
		return glue_neg_errno(r);
	for (long i = 0; i < r; i++)
		event_fix_res(&events[i]);
	libaio_stats.syscall_events += r;
	return r;
}

/* Could events[0..nr) be user memory? (NULL page and kernel space cannot.) */
static int events_plausible(const struct io_event *events, long nr)
{
	uintptr_t start = (uintptr_t)events, len = (uintptr_t)nr * sizeof(*events);

	return start >= 4096 && (unsigned long)nr < 0x4000000 && start + len > start &&
	       start + len <= 0xc0000000u;
}

/*
 * Wait for at least min_nr and at most nr events, no longer than *timeout (NULL:
 * no limit; zero: do not wait), under the signal mask sig if not NULL.  Events
 * already in the ring cost no system call.  cp: a cancellation point, which
 * acts only while the call holds no event (at its start, and in a wait that
 * has taken none): once it holds some they are returned, whatever comes.
 */
static int getevents_common(io_context_t ctx, long min_nr, long nr, struct io_event *events,
			    struct timespec *timeout, const struct aio_sigset *sig, int cp)
{
	struct timespec zero = { 0, 0 };
	struct kernel_timespec when;
	long got, r;
	int ring_ok;

	if (min_nr < 0 || nr < 0 || min_nr > nr)
		return -EINVAL;
	if (min_nr == 0)
		timeout = &zero;	/* nothing to wait for: take what is there */
	if (timeout && (r = deadline_from(timeout, &when)) < 0)
		return (int)r;
	if (nr == 0)	/* nothing to take: only the kernel can say the context is live */
		return (int)getevents_syscall(ctx, 0, events, NULL, sig, cp);
	if (cp)
		__pthread_testcancel_glue();
	/* the kernel answers -EFAULT for a buffer we would crash on */
	got = events_plausible(events, nr) ? ring_reap(ctx, events, nr) : -1;
	ring_ok = got >= 0;
	got = ring_ok ? got : 0;
	if (ring_ok && (got >= min_nr || got == nr || timeout == &zero ||
			(timeout && !timeout->tv_sec && !timeout->tv_nsec)))
		return (int)got;
	while (got < nr) {
		r = getevents_syscall(ctx, nr - got, events + got, timeout ? &when : NULL, sig,
				      cp && !got);
		if (r == -ETIMEDOUT || r == 0)
			break;
		if (r < 0)
			return got ? (int)got : (int)r;
		got += r;
		if (got >= min_nr)
			break;
		r = ring_reap(ctx, events + got, nr - got);	/* what came in meanwhile */
		got += r > 0 ? r : 0;
		if (got >= min_nr)
			break;
	}
	return (int)got;
}

/* A cancellation point (pthread(3)): a thread cancelled before it took an
 * event ends; events taken are returned, and the cancel waits for the next point. */
int io_getevents(io_context_t ctx, long min_nr, long nr, struct io_event *events,
		 struct timespec *timeout)
{
	return getevents_common(ctx, min_nr, nr, events, timeout, NULL, 1);
}

int __io_getevents_nocancel(io_context_t ctx, long min_nr, long nr, struct io_event *events,
			    struct timespec *timeout)
{
	return getevents_common(ctx, min_nr, nr, events, timeout, NULL, 0);
}

int __io_getevents_cp(io_context_t ctx, long min_nr, long nr, struct io_event *events,
		      struct timespec *timeout)
{
	return getevents_common(ctx, min_nr, nr, events, timeout, NULL, 1);
}

/* As io_getevents, with sigmask (newlib's numbering, translated) blocking
 * signals only while the kernel waits (io_pgetevents_abs, 503). */
int io_pgetevents(io_context_t ctx, long min_nr, long nr, struct io_event *events,
		  struct timespec *timeout, sigset_t *sigmask)
{
	struct kernel_sigset k;
	struct aio_sigset sig;

	if (!sigmask)
		return io_getevents(ctx, min_nr, nr, events, timeout);
	__sigset_to_kernel(sigmask, &k);
	sig.sigmask = (uint32_t)(uintptr_t)&k;
	sig.sigsetsize = sizeof(k);
	return getevents_common(ctx, min_nr, nr, events, timeout, &sig, 1);
}

/* As libaio's: no event is taken, so this only checks the context. */
int io_queue_wait(io_context_t ctx, struct timespec *timeout)
{
	return io_getevents(ctx, 0, 0, NULL, timeout);
}

/* Run the callbacks (set with io_set_callback) of every completed request; 0 or -errno. */
int io_queue_run(io_context_t ctx)
{
	struct timespec zero = { 0, 0 };
	struct io_event events[16];
	int n;

	while ((n = io_getevents(ctx, 0, 16, events, &zero)) > 0) {
		for (int i = 0; i < n; i++) {
			io_callback_t cb = (io_callback_t)events[i].data;

			if (cb)
				cb(ctx, events[i].obj, (long)events[i].res, (long)events[i].res2);
		}
	}
	return n < 0 ? n : 0;
}
