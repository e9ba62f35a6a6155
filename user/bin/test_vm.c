/* test_vm.c: the "vm" suite: brk and mmap growth, munmap, copy-on-write, protections. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <aiokern.h>
#include <sys/mman.h>
#include "aio_raw.h"
#include "utest.h"

#define MB	(1024 * 1024)

/* Run fn in a child; return its wait status. */
static int in_child(void (*fn)(void *), void *arg)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return st;
}

static void touch_write(void *p)
{
	*(volatile int *)p = 1;
}

static void touch_read(void *p)
{
	(void)*(volatile int *)p;
}

static int brk_grows_and_shrinks(void)
{
	char *start = sbrk(0), *p;

	CHECK(start != (char *)-1);
	p = sbrk(4 * MB);
	CHECK(p == start);
	memset(p, 0x5a, 4 * MB);
	CHECK(p[4 * MB - 1] == 0x5a && p[0] == 0x5a);
	CHECK(sbrk(-4 * MB) == p + 4 * MB);
	CHECK(sbrk(0) == start);
	CHECK(WIFSIGNALED(in_child(touch_read, p + 3 * MB)));	/* gone again */
	return 0;
}

static int mmap_anonymous(void)
{
	char *p = mmap(NULL, 8 * MB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED);
	CHECK(((uintptr_t)p & 4095) == 0);
	CHECK(p[12345] == 0);			/* demand-zero */
	for (int i = 0; i < 8 * MB; i += 4096)
		p[i] = (char)i;
	for (int i = 0; i < 8 * MB; i += 4096)
		CHECK(p[i] == (char)i);
	CHECK_EQ(munmap(p, 8 * MB), 0);
	CHECK(WIFSIGNALED(in_child(touch_read, p)));
	return 0;
}

static int munmap_hole(void)
{
	char *p = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int st;

	CHECK(p != MAP_FAILED);
	p[0] = 1;
	p[2 * 4096] = 3;
	CHECK_EQ(munmap(p + 4096, 4096), 0);
	st = in_child(touch_read, p + 4096);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	CHECK(p[0] == 1 && p[2 * 4096] == 3);
	CHECK_ERR(munmap(p + 1, 4096), EINVAL);
	return 0;
}

static int cow_isolation(void)
{
	static int shared_value = 1;
	char *heap = malloc(100000);
	int fds[2], st;
	pid_t pid;

	CHECK(heap && pipe(fds) == 0);
	memset(heap, 'p', 100000);
	pid = fork();
	if (pid == 0) {
		int ok = shared_value == 1 && heap[99999] == 'p';
		shared_value = 2;
		memset(heap, 'c', 100000);
		_exit(ok && shared_value == 2 && heap[0] == 'c' ? 0 : 1);
	}
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ(shared_value, 1);
	CHECK(heap[0] == 'p' && heap[99999] == 'p');
	shared_value = 3;			/* the parent can still write its copy */
	CHECK_EQ(shared_value, 3);
	free(heap);
	return 0;
}

static int mmap_shared_after_fork(void)
{
	volatile int *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int st;
	pid_t pid;

	CHECK(p != MAP_FAILED);
	*p = 5;
	pid = fork();
	if (pid == 0) {
		*p = 6;
		_exit(0);
	}
	waitpid(pid, &st, 0);
	CHECK_EQ(*p, 6);
	return 0;
}

static int readonly_write_kills_writer(void)
{
	char *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int st;

	CHECK(p != MAP_FAILED);
	CHECK(p[0] == 0);
	st = in_child(touch_write, p);
	CHECK(WIFSIGNALED(st));
	CHECK_EQ(WTERMSIG(st), SIGSEGV);
	CHECK(p[0] == 0);
	return 0;
}

static int null_and_kernel_pointers_kill(void)
{
	int st = in_child(touch_read, NULL);

	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	st = in_child(touch_read, (void *)0xC0010000);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	st = in_child(touch_write, (void *)0xC0100000);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	return 0;
}

static int bad_pointers_efault(void)
{
	char buf[8];

	CHECK_ERR(write(1, (void *)0xC0010000, 8), EFAULT);
	CHECK_ERR(write(1, NULL, 8), EFAULT);
	CHECK_ERR(read(0, (void *)0xBFFFFFFC, 8), EFAULT);	/* crosses into the kernel */
	CHECK_ERR(pipe((int *)0xC0010000), EFAULT);
	CHECK_EQ(write(1, buf, 0), 0);
	return 0;
}

/* One AIO request on a fresh context: io_submit's error, or the event's res. */
static long long aio_one(int op, int fd, void *buf, unsigned n)
{
	struct kernel_timespec when = raw_deadline_in(2000000000LL);
	aio_context_t ctx = 0;
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev;
	long long res;
	long r;

	if (raw_io_setup(4, &ctx))
		return -9999;
	raw_prep(&cb, op, fd, buf, n, 0, 0);
	r = raw_io_submit(ctx, 1, list);
	res = r < 0 ? r : raw_io_getevents_abs(ctx, 1, &ev, &when) == 1 ? ev.res : -9998;
	raw_io_destroy(ctx);
	return res;
}

/* PROT_NONE memory may not be touched: not by the process (SIGSEGV), and
 * not by the kernel on its behalf either: read, write, a pipe, a file and
 * AIO answer -EFAULT (issue 14, finding 4: a child could read it, and
 * write(/dev/null) from it returned the count). */
static int prot_none_is_not_accessible(void)
{
	char *p = mmap(NULL, 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int null = open("/dev/null", O_RDWR), zero = open("/dev/zero", O_RDONLY), fds[2];
	int file = open("/tmp/vm_prot_none", O_CREAT | O_RDWR | O_TRUNC, 0600), st;

	CHECK(p != MAP_FAILED && null >= 0 && zero >= 0 && file >= 0 && pipe(fds) == 0);
	unlink("/tmp/vm_prot_none");
	st = in_child(touch_read, p);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	st = in_child(touch_write, p + 4096);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	CHECK_ERR(write(null, p, 16), EFAULT);
	CHECK_ERR(write(fds[1], p, 16), EFAULT);
	CHECK_ERR(write(file, p + 4000, 200), EFAULT);
	CHECK_ERR(read(zero, p, 16), EFAULT);
	CHECK_ERR(read(null, p, 16), EFAULT);
	CHECK_EQ(aio_one(IOCB_CMD_PWRITE, null, p, 16), -EFAULT);
	CHECK_EQ(aio_one(IOCB_CMD_PREAD, zero, p, 16), -EFAULT);
	CHECK_EQ(aio_one(IOCB_CMD_PWRITE, file, p, 16), -EFAULT);
	CHECK_EQ(write(fds[1], "x", 1), 1);
	CHECK_ERR(read(fds[0], p, 1), EFAULT);
	CHECK_EQ(munmap(p, 2 * 4096), 0);
	close(null), close(zero), close(file), close(fds[0]), close(fds[1]);
	return 0;
}

/* The kernel writes no more into a PROT_READ buffer than the process may:
 * read, a pipe and AIO answer -EFAULT, present page or not. */
static int readonly_refuses_kernel_writes(void)
{
	char *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int zero = open("/dev/zero", O_RDONLY), fds[2];

	CHECK(p != MAP_FAILED && zero >= 0 && pipe(fds) == 0);
	CHECK_ERR(read(zero, p, 16), EFAULT);		/* not yet present */
	CHECK(p[0] == 0);				/* now present, read-only */
	CHECK_ERR(read(zero, p, 16), EFAULT);
	CHECK_EQ(aio_one(IOCB_CMD_PREAD, zero, p, 16), -EFAULT);
	CHECK_EQ(write(fds[1], "x", 1), 1);
	CHECK_ERR(read(fds[0], p, 1), EFAULT);
	CHECK_EQ(write(1, p, 0), 0);
	CHECK(p[0] == 0);
	close(zero), close(fds[0]), close(fds[1]);
	return 0;
}

/* Nothing can be mapped below 64 KiB (Linux's default mmap_min_addr), so a
 * kernel NULL dereference can never read user data: MAP_FIXED there is
 * -EPERM, a hint there is moved up (issue 14, finding 8: page 0 mapped). */
static int low_addresses_refused(void)
{
	const int rw = PROT_READ | PROT_WRITE, anon = MAP_PRIVATE | MAP_ANONYMOUS;
	char *p;
	int st;

	errno = 0;
	CHECK(mmap(NULL, 4096, rw, anon | MAP_FIXED, -1, 0) == MAP_FAILED && errno == EPERM);
	errno = 0;
	CHECK(mmap((void *)0x1000, 4096, rw, anon | MAP_FIXED, -1, 0) == MAP_FAILED &&
	      errno == EPERM);
	errno = 0;
	CHECK(mmap((void *)0xF000, 8192, rw, anon | MAP_FIXED, -1, 0) == MAP_FAILED &&
	      errno == EPERM);				/* starts below the limit */
	p = mmap((void *)0x1000, 4096, rw, anon, -1, 0);
	CHECK(p != MAP_FAILED && (uintptr_t)p >= 0x10000);
	CHECK_EQ(munmap(p, 4096), 0);
	p = mmap((void *)0x10000, 4096, rw, anon | MAP_FIXED, -1, 0);
	CHECK(p == (char *)0x10000);
	p[0] = 1;
	CHECK_EQ(munmap(p, 4096), 0);
	st = in_child(touch_read, NULL);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	return 0;
}

static int stack_grows(void)
{
	volatile char big[512 * 1024];

	big[0] = 1;
	big[sizeof(big) - 1] = 2;
	CHECK(big[0] + big[sizeof(big) - 1] == 3);
	return 0;
}

/* The innocent of memory_hog_dies_alone: fault fresh pages in (mmap, write
 * every page, check, munmap) until the parent writes to stop, for 60 s at
 * most. Exits 0, or 2 when a mapping is refused or reads back wrong (a
 * fault it cannot survive kills it). */
static void innocent_faults(int stop)
{
	long long end = utest_now_ns() + 60000000000LL;
	unsigned rounds = 0;
	char c;

	while (read(stop, &c, 1) < 0 && utest_now_ns() < end) {
		volatile char *p = mmap(NULL, 64 * 4096, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(2);
		for (int i = 0; i < 64; i++)
			p[i * 4096] = (char)(i + rounds);
		for (int i = 0; i < 64; i++)
			if (p[i * 4096] != (char)(i + rounds))
				_exit(2);
		munmap((void *)p, 64 * 4096);
		rounds++;
	}
	_exit(rounds ? 0 : 3);
}

struct hog_part {
	char *p;
	size_t len;
	int zero;
};

static void *hog_part_fill(void *arg)
{
	struct hog_part *h = arg;

	read(h->zero, h->p, h->len);
	return NULL;
}

/* The hog: map more than all free memory and fill it by reading /dev/zero
 * into it, by `threads` threads at once (a part each), then hold it for 2 s. */
static void hog_fills_memory(size_t size, int threads)
{
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct hog_part part[4];
	pthread_t t[4];
	int z = open("/dev/zero", O_RDONLY);

	if (p == MAP_FAILED || z < 0 || threads < 1 || threads > 4)
		_exit(2);
	for (int i = 0; i < threads; i++) {
		part[i] = (struct hog_part){ p + size / threads * i, size / threads, z };
		if (i && pthread_create(&t[i], NULL, hog_part_fill, &part[i]))
			_exit(2);
	}
	hog_part_fill(&part[0]);
	sleep(2);
	_exit(0);
}

/* A hog's life, from its fork to its death: filling memory takes 1-5 s
 * here (up to 66 s at -smp 4 on a host at load 36); a hog whose threads sat
 * in their faults, each waiting for the victim, its own group, to exit, took
 * 77 s and 39 kills: the kill count (/proc/vmstat oom_kill: exactly one) is
 * what tells that apart, the time only bounds a hang. */
#define HOG_DEATH_NS	180000000000LL

/* The OOM killer's kills so far (/proc/vmstat's oom_kill line), or -1. */
static long oom_kills(void)
{
	return utest_read_field("/proc/vmstat", "oom_kill ", 0);
}

/* A hog of `threads` threads against an innocent process that keeps
 * faulting pages in: the OOM killer must end the hog (all its threads) and
 * nothing else, at once; what the hog held comes back. */
static int hog_against_innocent(int threads)
{
	struct aiok_stat st, before;
	int stop[2], hs, is, leaked;
	long kills0 = oom_kills(), kills;
	long long t0, dt;
	pid_t hog, inn;
	size_t size;

	CHECK_EQ(aiok_snapshot(&before), 0);
	CHECK_EQ(aiok_stat(&st), 0);
	size = (size_t)st.free_pages * 4096 + 64 * MB;		/* more than there is */
	CHECK_EQ(pipe(stop), 0);
	CHECK_EQ(fcntl(stop[0], F_SETFL, O_NONBLOCK), 0);
	inn = fork();
	if (inn == 0)
		innocent_faults(stop[0]);
	t0 = utest_now_ns();
	hog = fork();
	if (hog == 0)
		hog_fills_memory(size, threads);
	CHECK_EQ(waitpid(hog, &hs, 0), hog);
	dt = utest_now_ns() - t0;
	CHECK_EQ(write(stop[1], "s", 1), 1);
	CHECK_EQ(waitpid(inn, &is, 0), inn);
	close(stop[0]);
	close(stop[1]);
	leaked = utest_same_counters(&before);	/* before printing: stdio allocates */
	kills = oom_kills() - kills0;
	utest_log("hog (%u MiB mapped, %d thread%s): %s %d after %lld ms; innocent: %s %d",
		  (unsigned)(size / MB), threads, threads > 1 ? "s" : "",
		  WIFSIGNALED(hs) ? "signal" : "exit", WIFSIGNALED(hs) ? WTERMSIG(hs) : WEXITSTATUS(hs),
		  dt / 1000000, WIFSIGNALED(is) ? "signal" : "exit",
		  WIFSIGNALED(is) ? WTERMSIG(is) : WEXITSTATUS(is));
	utest_log("OOM kills: %ld", kills);
	CHECK(kills0 >= 0);
	CHECK_EQ(kills, 1);			/* the hog, once: no innocent, no repeat */
	CHECK(WIFEXITED(is) && WEXITSTATUS(is) == 0);
	CHECK(WIFSIGNALED(hs) && WTERMSIG(hs) == SIGKILL);
	CHECK(dt < HOG_DEATH_NS);
	CHECK(!leaked);
	return 0;
}

/* Issue 14 finding 7: a process that takes all free memory must not get an
 * innocent one killed (its next page fault found no page: SIGSEGV). The OOM
 * killer ends the process with the most memory, the hog, by SIGKILL; the
 * innocent, faulting pages in all the while, lives on. */
static int memory_hog_dies_alone(void)
{
	return hog_against_innocent(1);
}

/* The same with a hog of three threads, all faulting: the kill ends them
 * all at once (a thread group), each thread's fault stops at the group's
 * fatal signal. Failed before the fix (the OOM killer looked for a SIGKILL
 * bit in sigpending, which threads made a flag): the hog's threads kept
 * waiting in their faults, the group was killed again and again, 77 s. */
static int threaded_memory_hog_dies_alone(void)
{
	return hog_against_innocent(3);
}

static const struct utest_case cases[] = {
	UTEST(brk_grows_and_shrinks),
	UTEST(mmap_anonymous),
	UTEST(munmap_hole),
	UTEST(cow_isolation),
	UTEST(mmap_shared_after_fork),
	UTEST(readonly_write_kills_writer),
	UTEST(null_and_kernel_pointers_kill),
	UTEST(bad_pointers_efault),
	UTEST(stack_grows),
	UTEST(prot_none_is_not_accessible),
	UTEST(readonly_refuses_kernel_writes),
	UTEST(low_addresses_refused),
	UTEST(memory_hog_dies_alone),
	UTEST(threaded_memory_hog_dies_alone),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "vm", cases, sizeof(cases) / sizeof(cases[0]));
}
