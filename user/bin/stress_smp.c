/* stress_smp.c: the "aio_stress_smp" suite: 4 threads share one AIO context
 * and run 200,000 random operations between them: NOOPs, pipe reads and
 * writes, reads and writes on the virtio and the IDE disk, cancels, reaps
 * (each thread reaps whatever completed, its own requests or others'), and
 * io_destroy while requests are in flight (a new context replaces it).
 * Every request id is counted: each accepted one must end exactly once (its
 * event, a successful io_cancel, or its context's io_destroy), none that was
 * refused may end. Usage: stress_smp [ops] [seed]. With -smp 4 and threads on
 * every CPU, submits, reaps and interrupt completions race for real. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "aio_raw.h"
#include "utest.h"

#define THREADS		4
#define SLOTS		48		/* iocbs each thread may have in flight */
#define CTX_REQS	128		/* io_setup's nr_events: submits also meet -EAGAIN */
#define PIPES		4
#define DISK_SPAN	(4u << 20)	/* bytes of each disk used */
#define BUF_SIZE	4096

enum { FREE, INFLIGHT };

/* One generation of the shared context: replaced (not changed) by a destroy,
 * so that a thread reads its id and its generation in one load. */
struct gen {
	aio_context_t ctx;
	int gen;
	volatile int dying;		/* io_destroy is called on it */
};

struct slot {
	struct iocb cb;
	volatile int state;		/* FREE -> INFLIGHT by the owner only */
	uint32_t id;			/* request id of the current request */
	int gen;			/* generation it was submitted to */
	unsigned char buf[BUF_SIZE] __attribute__((aligned(512)));
};

struct worker {
	int index;
	uint32_t seed;
	volatile int seen_gen;		/* the generation of its current op; -1 when done */
	struct slot slots[SLOTS];
};

static struct worker workers[THREADS];
static struct gen *volatile cur;
static pthread_mutex_t destroy_lock = PTHREAD_MUTEX_INITIALIZER;
static int pipes[PIPES][2], null_fd, disk_fd[2];
static long ops_total = 200000;
static uint32_t seed_base = 20021107u;
static long ops_started;
static uint32_t next_id;		/* request ids: at most one per operation */
static unsigned char *accepted, *ends;	/* per request id */
static long n_refused, n_accepted, n_event, n_cancel, n_destroy, n_destroys, n_stray, n_eagain;

static uint32_t rnd(struct worker *w)
{
	w->seed = w->seed * 1664525u + 1013904223u;
	return w->seed >> 8;
}

static void count(long *c, long n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

/* Request id ends once more (by how: the counter); its slot is free again. */
static void end_req(struct slot *s, uint32_t id, long *how)
{
	if (__atomic_fetch_add(&ends[id], 1, __ATOMIC_RELAXED))
		count(&n_stray, 1);		/* a second end */
	count(how, 1);
	__atomic_store_n(&s->state, FREE, __ATOMIC_RELEASE);
}

static struct gen *gen_new(int gen)
{
	struct gen *g = calloc(1, sizeof(*g));

	if (g && raw_io_setup(CTX_REQS, &g->ctx) == 0) {
		g->gen = gen;
		return g;
	}
	free(g);
	return NULL;
}

/* An event: the slot it names (its obj) must hold the request it carries. */
static void reap_event(const struct io_event *ev)
{
	struct slot *s = (struct slot *)(uintptr_t)ev->obj;
	uint32_t id = (uint32_t)ev->data;

	for (int t = 0; t < THREADS; t++)
		if (s >= workers[t].slots && s < workers[t].slots + SLOTS) {
			if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != INFLIGHT || s->id != id)
				break;
			end_req(s, id, &n_event);
			return;
		}
	count(&n_stray, 1);
}

static long op_reap(struct gen *g, long wait_ns)
{
	struct io_event ev[32];
	struct kernel_timespec when = { 0, 0 };
	long n;

	if (wait_ns)
		when = raw_deadline_in(wait_ns);
	n = raw_io_getevents_abs(g->ctx, 32, ev, &when);
	for (long i = 0; i < n; i++)
		reap_event(&ev[i]);
	return n;
}

/* Fill s->cb for a random request: NOOP, pipe read or write, disk I/O.
 * Pipes 0 and 1 are read by AIO (fed by op_pipes), 2 and 3 written by AIO
 * (drained by op_pipes): neither kind waits for long. */
static void prep_random(struct worker *w, struct slot *s)
{
	uint32_t kind = rnd(w) % 7, sectors = 1 + rnd(w) % 8;
	long long off = (long long)(rnd(w) % (DISK_SPAN / 512 - 8)) * 512;
	int pipe_rd = pipes[rnd(w) % 2][0], pipe_wr = pipes[2 + rnd(w) % 2][1];

	if (kind < 2)
		raw_prep(&s->cb, IOCB_CMD_NOOP, null_fd, NULL, 0, 0, s->id);
	else if (kind < 4)
		raw_prep(&s->cb, kind == 2 ? IOCB_CMD_PREAD : IOCB_CMD_PWRITE,
			 kind == 2 ? pipe_rd : pipe_wr, s->buf, 1 + rnd(w) % 64, 0, s->id);
	else
		raw_prep(&s->cb, rnd(w) & 1 ? IOCB_CMD_PREAD : IOCB_CMD_PWRITE,
			 disk_fd[kind & 1], s->buf, sectors * 512, off, s->id);
}

static void op_submit(struct worker *w, struct gen *g, struct slot *s)
{
	struct iocb *list[1] = { &s->cb };
	long r;

	s->id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
	s->gen = g->gen;
	prep_random(w, s);
	__atomic_store_n(&s->state, INFLIGHT, __ATOMIC_RELEASE);	/* it may end at once */
	r = raw_io_submit(g->ctx, 1, list);
	if (r == 1) {
		accepted[s->id] = 1;
		count(&n_accepted, 1);
		return;
	}
	if (r == -EAGAIN)
		count(&n_eagain, 1);
	else if (r != -EINVAL || !__atomic_load_n(&g->dying, __ATOMIC_ACQUIRE))
		if (!__atomic_fetch_add(&n_refused, 1, __ATOMIC_RELAXED))	/* only a destroyed context may refuse */
			utest_log("io_submit refused %ld (op %d fd %d n %llu)", r,
				  s->cb.aio_lio_opcode, s->cb.aio_fildes,
				  (unsigned long long)s->cb.aio_nbytes);
	__atomic_store_n(&s->state, FREE, __ATOMIC_RELEASE);	/* refused: no end */
}

static void op_cancel(struct gen *g, struct slot *s)
{
	struct io_event res;

	if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != INFLIGHT || s->gen != g->gen)
		return;
	if (raw_io_cancel(g->ctx, &s->cb, &res) == 0) {
		if (res.obj != (uintptr_t)s || (uint32_t)res.data != s->id)
			count(&n_stray, 1);
		end_req(s, s->id, &n_cancel);
	}
}

/* Wait until no other thread still works on generation old. */
static void wait_quiet(int me, int old)
{
	for (int t = 0; t < THREADS; t++)
		while (t != me && __atomic_load_n(&workers[t].seen_gen, __ATOMIC_ACQUIRE) == old)
			sched_yield();
}

/* Every request still in flight on generation old ended with its context. */
static void end_generation(int old)
{
	for (int t = 0; t < THREADS; t++)
		for (int i = 0; i < SLOTS; i++) {
			struct slot *s = &workers[t].slots[i];
			if (s->state == INFLIGHT && s->gen == old)
				end_req(s, s->id, &n_destroy);
		}
}

/* io_destroy with requests in flight (others may be in calls on it), then
 * a new context for everybody. */
static void op_destroy(struct worker *w, struct gen *g)
{
	struct gen *next;

	if (pthread_mutex_trylock(&destroy_lock))
		return;
	if (cur == g && (next = gen_new(g->gen + 1))) {
		__atomic_store_n(&g->dying, 1, __ATOMIC_RELEASE);
		raw_io_destroy(g->ctx);
		__atomic_store_n(&cur, next, __ATOMIC_RELEASE);
		w->seen_gen = next->gen;
		wait_quiet(w->index, g->gen);
		end_generation(g->gen);
		count(&n_destroys, 1);
		free(g);
	}
	pthread_mutex_unlock(&destroy_lock);
}

/* Feed a pipe the AIO reads wait on, drain one the AIO writes fill (both
 * never block: full or empty is fine). */
static void op_pipes(struct worker *w)
{
	char data[64];
	long r;

	memset(data, 'p', sizeof(data));
	if (rnd(w) & 1)
		r = write(pipes[rnd(w) % 2][1], data, 1 + rnd(w) % sizeof(data));
	else
		r = read(pipes[2 + rnd(w) % 2][0], data, sizeof(data));
	if (r < 0 && errno != EAGAIN)
		count(&n_stray, 1);
}

static void one_op(struct worker *w, struct gen *g)
{
	uint32_t r = rnd(w) % 1000;
	struct slot *s = &w->slots[rnd(w) % SLOTS];

	if (r < 420)
		s->state == FREE ? op_submit(w, g, s) : op_reap(g, 0);
	else if (r < 520)
		op_cancel(g, s);
	else if (r < 640)
		op_pipes(w);
	else if (r < 998)
		op_reap(g, r < 660 ? 1000000 : 0);
	else
		op_destroy(w, g);
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	struct gen *g;

	for (;;) {
		g = __atomic_load_n(&cur, __ATOMIC_ACQUIRE);
		__atomic_store_n(&w->seen_gen, g->gen, __ATOMIC_RELEASE);
		if (__atomic_load_n(&g->dying, __ATOMIC_ACQUIRE)) {
			sched_yield();		/* io_destroy waits for the disks: let it end */
			continue;
		}
		if (__atomic_fetch_add(&ops_started, 1, __ATOMIC_RELAXED) >= ops_total)
			break;
		one_op(w, g);
	}
	__atomic_store_n(&w->seen_gen, -1, __ATOMIC_RELEASE);
	return NULL;
}

static int open_all(void)
{
	for (int p = 0; p < PIPES; p++) {
		CHECK_EQ(pipe(pipes[p]), 0);
		CHECK_EQ(fcntl(pipes[p][p < 2], F_SETFL, O_NONBLOCK), 0);	/* op_pipes' end */
	}
	null_fd = open("/dev/null", O_RDWR);
	disk_fd[0] = open("/dev/vda", O_RDWR);
	disk_fd[1] = open("/dev/hda", O_RDWR);
	CHECK(null_fd >= 0 && disk_fd[0] >= 0 && disk_fd[1] >= 0);
	accepted = calloc(ops_total, 1);
	ends = calloc(ops_total, 1);
	CHECK(accepted && ends && (cur = gen_new(0)));
	return 0;
}

/* After the threads: cancel what waits on pipes, reap the rest, destroy. */
static void drain(void)
{
	struct gen *g = cur;

	for (int t = 0; t < THREADS; t++)
		for (int i = 0; i < SLOTS; i++)
			op_cancel(g, &workers[t].slots[i]);
	while (op_reap(g, 20000000) > 0)
		;
	raw_io_destroy(g->ctx);
	end_generation(g->gen);
	free(g);
}

static int ids_end_exactly_once(void)
{
	long bad_accepted = 0, bad_refused = 0;

	for (long id = 0; id < ops_total; id++) {
		if (accepted[id] && ends[id] != 1)
			bad_accepted++;
		if (!accepted[id] && ends[id])
			bad_refused++;
	}
	utest_log("%ld ops (seed %u): %ld accepted = %ld events + %ld cancelled + %ld destroyed (%ld "
		  "io_destroy), %ld -EAGAIN, %ld refused", ops_total, seed_base, n_accepted, n_event, n_cancel, n_destroy,
		  n_destroys, n_eagain, n_refused);
	CHECK_EQ(bad_accepted, 0);
	CHECK_EQ(bad_refused, 0);
	CHECK_EQ(n_stray, 0);
	CHECK_EQ(n_refused, 0);
	CHECK_EQ(n_accepted, n_event + n_cancel + n_destroy);
	CHECK(n_cancel > 0 && n_destroys > 0 && n_destroy > 0);
	return 0;
}

static int four_threads_share_one_context(void)
{
	pthread_t th[THREADS];

	if (open_all())
		return -1;
	for (int t = 0; t < THREADS; t++) {
		workers[t].index = t;
		workers[t].seed = seed_base + 7919u * t;
		CHECK_EQ(pthread_create(&th[t], NULL, worker_run, &workers[t]), 0);
	}
	for (int t = 0; t < THREADS; t++)
		CHECK_EQ(pthread_join(th[t], NULL), 0);
	drain();
	if (ids_end_exactly_once())
		return -1;
	for (int p = 0; p < PIPES; p++) {
		close(pipes[p][0]);
		close(pipes[p][1]);
	}
	close(null_fd);
	close(disk_fd[0]);
	close(disk_fd[1]);
	free(accepted);
	free(ends);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(four_threads_share_one_context),
};

int main(int argc, char **argv)
{
	if (argc > 1 && atol(argv[1]) > 0)
		ops_total = atol(argv[1]);
	if (argc > 2)
		seed_base = (uint32_t)atol(argv[2]);
	return utest_main(1, argv, "aio_stress_smp", cases, 1);
}
