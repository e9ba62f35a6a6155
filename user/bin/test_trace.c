/* test_trace.c: the "trace" suite: /proc/trace switches the kernel's trace points at run
 * time (categories in, state and counts out) and refuses bad input; boot it with
 * trace_buf= so that the buffer exists before init's leak baseline. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "aio_raw.h"
#include "utest.h"

#define PROC_TRACE	"/proc/trace"

/* The text of /proc/trace into buf: its length, or -1. */
static int trace_read(char *buf, int size)
{
	int fd = open(PROC_TRACE, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* Write s to /proc/trace: write's result (errno set on -1). */
static long trace_write(const char *s)
{
	int fd = open(PROC_TRACE, O_WRONLY);
	long n;

	if (fd < 0)
		return -2;
	n = write(fd, s, strlen(s));
	close(fd);
	return n;
}

/* Records CPU 0 has buffered so far, or -1. */
static long trace_written(void)
{
	char buf[256], *p;

	if (trace_read(buf, sizeof(buf)) <= 0 || !(p = strstr(buf, "cpu0: written ")))
		return -1;
	return strtol(p + strlen("cpu0: written "), NULL, 10);
}

/* io_setup, n NOOPs in one io_submit, their n events by io_getevents, io_destroy. */
static int noop_round(int n)
{
	aio_context_t ctx = 0;
	struct iocb cbs[8], *list[8];
	struct io_event ev[8];

	if (n > 8 || raw_io_setup(8, &ctx))
		return -1;
	memset(cbs, 0, sizeof(cbs));
	for (int i = 0; i < n; i++) {
		cbs[i].aio_lio_opcode = IOCB_CMD_NOOP;
		cbs[i].aio_data = i;
		list[i] = &cbs[i];
	}
	if (raw_io_submit(ctx, n, list) != n || raw_io_getevents_abs(ctx, n, ev, NULL) != n)
		return -1;
	return raw_io_destroy(ctx);
}

static int off_at_boot(void)
{
	char buf[256];

	CHECK(trace_read(buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "categories: off\n"));
	CHECK(strstr(buf, "buffer: "));
	return 0;
}

static int bad_input_refused(void)
{
	char buf[256];

	CHECK_ERR(trace_write("aio,bogus"), EINVAL);
	CHECK_ERR(trace_write("\n"), EINVAL);
	CHECK_ERR(trace_write("aio,blk,irq,sched,syscall,aio,blk,irq,sched,syscall,aio,blk,irq,sched"), EINVAL);
	CHECK(trace_read(buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "categories: off\n"));	/* nothing switched on */
	return 0;
}

/* On: a round of 4 NOOPs leaves at least accept, complete, post and reap for
 * each; off again: the same round leaves nothing. */
static int switch_on_and_off(void)
{
	char buf[256];
	long before, after;

	CHECK_EQ(trace_write("aio,sched\n"), 10);
	CHECK(trace_read(buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "categories: aio sched\n"));
	before = trace_written();
	CHECK(before >= 0);
	CHECK_EQ(noop_round(4), 0);
	after = trace_written();
	utest_log("aio on: %ld records for a round of 4 NOOPs", after - before);
	CHECK(trace_read(buf, sizeof(buf)) > 0);
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		utest_log("/proc/trace: %s", line);
	CHECK(after - before >= 16);
	CHECK_EQ(trace_write("off"), 3);
	before = trace_written();
	CHECK_EQ(noop_round(4), 0);
	CHECK_EQ(trace_written(), before);
	CHECK(trace_read(buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "categories: off\n"));
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(off_at_boot),
	UTEST(bad_input_refused),
	UTEST(switch_on_and_off),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "trace", cases, sizeof(cases) / sizeof(cases[0]));
}
