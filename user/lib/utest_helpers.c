/* utest_helpers.c: what the user suites share: the clock and deadlines, child status, /proc numbers, leak counters. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "aiokern.h"
#include "utest.h"

long long utest_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

struct timespec utest_deadline(clockid_t clock, int ms)
{
	struct timespec ts;
	long long ns;

	clock_gettime(clock, &ts);
	ns = ts.tv_nsec + (ms % 1000) * 1000000LL;
	ts.tv_sec += ms / 1000 + (ns < 0 ? -1 : ns >= 1000000000LL);
	ts.tv_nsec = (long)(ns < 0 ? ns + 1000000000LL : ns % 1000000000LL);
	return ts;
}

int utest_child_ok(pid_t pid)
{
	int st;

	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

long utest_read_long(const char *path)
{
	char buf[32] = { 0 };
	int fd = open(path, O_RDONLY);
	long n = -1;

	if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0)
		n = strtol(buf, NULL, 10);
	if (fd >= 0)
		close(fd);
	return n;
}

long utest_read_field(const char *path, const char *key, int nth)
{
	static char buf[8192];
	int fd = open(path, O_RDONLY), n;
	char *p, *end;
	long v = -1;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	p = strstr(buf, key);
	if (!p)
		return -1;
	p += strlen(key);
	for (int i = 0; i <= nth; i++, p = end) {
		v = strtol(p, &end, 10);
		if (end == p)
			return -1;
	}
	return v;
}

int utest_write_long(const char *path, long v)
{
	char buf[32];
	int fd = open(path, O_WRONLY), n = snprintf(buf, sizeof(buf), "%ld\n", v), r;

	if (fd < 0)
		return -1;
	r = write(fd, buf, n) == n ? 0 : -1;
	close(fd);
	return r;
}

/* The counters are back at *b; memory too when memory is set. CHECK style. */
static int same_counters(const struct aiok_stat *b, int memory)
{
	struct aiok_stat now;

	CHECK_EQ(memory ? aiok_snapshot(&now) : aiok_stat(&now), 0);
	CHECK_EQ(now.aio_nr, b->aio_nr);
	CHECK_EQ(now.aio_reqs, b->aio_reqs);
	CHECK_EQ(now.open_files, b->open_files);
	CHECK_EQ(now.blk_ios, b->blk_ios);
	if (!memory)
		return 0;
	CHECK_EQ(now.slab_objects, b->slab_objects);
	/* Nothing lost. More free than before is a page of an earlier test freed
	 * after *b settled (another CPU, its vCPU held off by the host): said,
	 * not failed. */
	if (now.free_pages > b->free_pages)
		utest_log("free_pages %u, %u before: freed late, not by this test",
			  now.free_pages, b->free_pages);
	else
		CHECK_EQ(now.free_pages, b->free_pages);
	CHECK_EQ(now.nr_mms, b->nr_mms);
	CHECK_EQ(now.ramfs_pages, b->ramfs_pages);
	return 0;
}

int utest_same_io_counters(const struct aiok_stat *before)
{
	return same_counters(before, 0);
}

int utest_same_counters(const struct aiok_stat *before)
{
	return same_counters(before, 1);
}

void utest_spin_random(unsigned max)
{
	static unsigned seed = 2463534242u;

	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	for (volatile unsigned i = seed % (max + 1); i; i--)
		;
}
