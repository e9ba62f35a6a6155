/* stress_aio.c: the "aio_stress" suite: a randomized run (fixed seed) of NOOPs,
 * pipe reads and writes, ramfs I/O, cancels, deadlines and destroys, checking
 * that every accepted iocb ends exactly once (event, cancel, or its context's
 * destruction). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "aio_raw.h"
#include "utest.h"

#define SLOTS		256		/* iocbs that may be in flight */
#define PIPES		4
#define OPS		100000

enum slot_state { FREE, INFLIGHT };

struct slot {
	struct iocb cb;
	int state;
	int ctx_gen;			/* generation of the context it was submitted to */
	char buf[64];
};

static struct slot slots[SLOTS];
static uint32_t seed = 20021107;
static aio_context_t ctx;
static int ctx_gen, pipes[PIPES][2], file_fd, null_fd;
static long accepted, ended_event, ended_cancel, ended_destroy, dup_or_stray;

static uint32_t rnd(void)
{
	seed = seed * 1664525u + 1013904223u;
	return seed >> 8;
}

static void new_context(void)
{
	ctx = 0;
	raw_io_setup(SLOTS, &ctx);
	ctx_gen++;
}

static void end_slot(struct slot *s)
{
	s->state = FREE;
}

static void reap(long n, struct io_event *ev)
{
	for (long i = 0; i < n; i++) {
		struct slot *s = (struct slot *)(uintptr_t)ev[i].obj;
		if (s < slots || s >= slots + SLOTS || s->state != INFLIGHT ||
		    ev[i].data != (uint64_t)(uintptr_t)s) {
			dup_or_stray++;
			continue;
		}
		ended_event++;
		end_slot(s);
	}
}

static long op_reap(int wait_ns)
{
	struct io_event ev[64];
	struct kernel_timespec when = { 0, 0 };	/* 0: a poll */
	long n;

	if (wait_ns)
		when = raw_deadline_in(wait_ns);
	n = raw_io_getevents_abs(ctx, 64, ev, &when);
	if (n > 0)
		reap(n, ev);
	return n;
}

static void op_submit(struct slot *s)
{
	struct iocb *list[1] = { &s->cb };
	uint32_t kind = rnd() % 4;
	int fd = kind == 0 ? null_fd : kind == 1 ? file_fd : pipes[rnd() % PIPES][0];

	memset(&s->cb, 0, sizeof(s->cb));
	s->cb.aio_fildes = fd;
	s->cb.aio_lio_opcode = kind == 0 ? IOCB_CMD_NOOP : IOCB_CMD_PREAD;
	if (kind == 1 && rnd() % 2)
		s->cb.aio_lio_opcode = IOCB_CMD_PWRITE;
	s->cb.aio_buf = (uintptr_t)s->buf;
	s->cb.aio_nbytes = 1 + rnd() % sizeof(s->buf);
	s->cb.aio_offset = rnd() % 8192;
	s->cb.aio_data = (uintptr_t)s;
	s->state = INFLIGHT;		/* before: completion may be immediate */
	s->ctx_gen = ctx_gen;
	if (raw_io_submit(ctx, 1, list) == 1) {
		accepted++;
	} else {
		s->state = FREE;	/* ring full: fine, not accepted */
	}
}

static void op_cancel(struct slot *s)
{
	struct io_event res;

	if (raw_io_cancel(ctx, &s->cb, &res) == 0) {
		if (s->state != INFLIGHT || res.obj != (uintptr_t)s)
			dup_or_stray++;
		ended_cancel++;
		end_slot(s);
	}
}

static void op_destroy(void)
{
	raw_io_destroy(ctx);
	for (int i = 0; i < SLOTS; i++)
		if (slots[i].state == INFLIGHT && slots[i].ctx_gen == ctx_gen) {
			ended_destroy++;
			end_slot(&slots[i]);
		}
	new_context();
}

static void op_feed_pipe(void)
{
	char data[32];

	memset(data, 'p', sizeof(data));
	write(pipes[rnd() % PIPES][1], data, 1 + rnd() % sizeof(data));
}

static int run(void)
{
	for (int p = 0; p < PIPES; p++)
		CHECK_EQ(pipe(pipes[p]), 0);
	file_fd = open("/tmp/stress.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);
	null_fd = open("/dev/null", O_RDWR);
	CHECK(file_fd >= 0 && null_fd >= 0);
	new_context();
	for (int op = 0; op < OPS; op++) {
		uint32_t r = rnd() % 100;
		struct slot *s = &slots[rnd() % SLOTS];
		if (r < 45)
			s->state == FREE ? op_submit(s) : op_cancel(s);
		else if (r < 60)
			op_cancel(s);
		else if (r < 75)
			op_feed_pipe();
		else if (r < 98)
			op_reap(r < 77 ? 100000 : 0);
		else if (r < 99)
			op_destroy();
		else
			op_reap(0);
	}
	for (int i = 0; i < SLOTS; i++)		/* drain: cancel what waits on pipes */
		if (slots[i].state == INFLIGHT)
			op_cancel(&slots[i]);
	while (op_reap(0) > 0)
		;
	for (int i = 0; i < SLOTS; i++)
		CHECK_EQ(slots[i].state, FREE);
	utest_log("%d ops: %ld accepted = %ld events + %ld cancelled + %ld destroyed",
		  OPS, accepted, ended_event, ended_cancel, ended_destroy);
	CHECK_EQ(dup_or_stray, 0);
	CHECK_EQ(accepted, ended_event + ended_cancel + ended_destroy);
	CHECK(accepted > 10000);
	CHECK(ended_cancel > 100 && ended_destroy > 0);
	CHECK_EQ(raw_io_destroy(ctx), 0);
	unlink("/tmp/stress.dat");
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(run),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "aio_stress", cases, 1);
}
