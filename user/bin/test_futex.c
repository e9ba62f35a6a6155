/* test_futex.c: the "futex" suite: FUTEX_WAIT/WAKE with values, timeouts and signals, private and shared keys across fork, REQUEUE and CMP_REQUEUE, the bitset forms, bad addresses. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lx_syscall.h"
#include "utest.h"

/* Raw calls with Linux i386's numbers and -errno values (uapi/errno.h), so
 * the suite means the same on aiokern and under qemu-i386 on Linux. */
#define NR_FUTEX		240
#define NR_WAIT4		114
#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_REQUEUE		3
#define FUTEX_CMP_REQUEUE	4
#define FUTEX_WAIT_BITSET	9
#define FUTEX_WAKE_BITSET	10
#define FUTEX_PRIVATE		128
#define K_EAGAIN		11
#define K_EINTR			4
#define K_EFAULT		14
#define K_EINVAL		22
#define K_ENOSYS		38
#define K_ETIMEDOUT		110

struct kts {
	long sec, nsec;
};

static long futex6(volatile int *w, int op, int val, const void *ts_or_n, volatile int *w2, int val3)
{
	long r;

	/* the sixth argument goes in ebp, which the compiler may use: save it */
	__asm__ volatile("push %%ebp\n\t"
			 "mov %7, %%ebp\n\t"
			 "int $0x80\n\t"
			 "pop %%ebp"
			 : "=a"(r)
			 : "a"(NR_FUTEX), "b"(w), "c"(op), "d"(val), "S"(ts_or_n), "D"(w2), "m"(val3)
			 : "memory");
	return r;
}

static long fwait(volatile int *w, int val, const struct kts *ts, int priv)
{
	return futex6(w, FUTEX_WAIT | priv, val, ts, 0, 0);
}

static long fwake(volatile int *w, int n, int priv)
{
	return futex6(w, FUTEX_WAKE | priv, n, 0, 0, 0);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, 0);
}

static volatile int arrived;

/* A waiter is about to wait: settle() waits for the ones it expects. */
static void arrive(void)
{
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
}

/* Wait until every waiter started has arrived, then a while for the last of
 * them to be asleep in the kernel (user space cannot see that itself). */
static void settle_n(int n)
{
	for (int i = 0; i < 2000 && __atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < n; i++)
		sleep_ms(1);
	sleep_ms(40);
}

static void settle(void)
{
	sleep_ms(40);
}

static int value_differs_and_timeout(void)
{
	static volatile int w = 1;
	struct kts ts = { 0, 50 * 1000000L };
	long long t0;

	CHECK_EQ(fwait(&w, 2, 0, FUTEX_PRIVATE), -K_EAGAIN);
	CHECK_EQ(fwait(&w, 2, 0, 0), -K_EAGAIN);
	t0 = utest_now_ns();
	CHECK_EQ(fwait(&w, 1, &ts, FUTEX_PRIVATE), -K_ETIMEDOUT);
	CHECK(utest_now_ns() - t0 >= 45 * 1000000LL);
	ts.nsec = 1000000000L;
	CHECK_EQ(fwait(&w, 1, &ts, 0), -K_EINVAL);
	CHECK_EQ(fwake(&w, 5, FUTEX_PRIVATE), 0);		/* nobody waits */
	return 0;
}

static volatile int word;
static volatile long results[8];

static void *waiter(void *arg)
{
	long i = (long)arg;

	arrive();
	results[i] = fwait(&word, 0, 0, FUTEX_PRIVATE);
	return 0;
}

/* n waiters, WAKE for k of them wakes exactly k (each returns 0). */
static int wake_counts(void)
{
	pthread_t t[4];

	word = 0;
	arrived = 0;
	for (long i = 0; i < 4; i++) {
		results[i] = 99;
		CHECK_EQ(pthread_create(&t[i], 0, waiter, (void *)i), 0);
	}
	settle_n(4);
	CHECK_EQ(fwake(&word, 3, FUTEX_PRIVATE), 3);
	settle();
	CHECK_EQ(fwake(&word, 3, FUTEX_PRIVATE), 1);
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], 0);
		CHECK_EQ(results[i], 0);
	}
	return 0;
}

static void *waiter_shared(void *arg)
{
	long i = (long)arg;

	arrive();
	results[i] = fwait(&word, 0, 0, 0);
	return 0;
}

/* REQUEUE moves waiters to another word; CMP_REQUEUE checks the value first. */
static int requeue_and_cmp_requeue(void)
{
	static volatile int other;
	pthread_t t[3];

	word = 0;
	arrived = 0;
	for (long i = 0; i < 3; i++)
		CHECK_EQ(pthread_create(&t[i], 0, waiter_shared, (void *)i), 0);
	settle_n(3);
	CHECK_EQ(futex6(&word, FUTEX_CMP_REQUEUE, 1, (void *)2, &other, 5), -K_EAGAIN);
	CHECK_EQ(futex6(&word, FUTEX_CMP_REQUEUE, 1, (void *)1, &other, 0), 2);	/* 1 woken, 1 moved */
	settle();
	CHECK_EQ(fwake(&word, 10, 0), 1);			/* the third, still here */
	CHECK_EQ(fwake(&other, 10, 0), 1);			/* the moved one */
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(results[i], 0);
	return 0;
}

static void *waiter_bitset(void *arg __attribute__((unused)))
{
	results[0] = futex6(&word, FUTEX_WAIT_BITSET | FUTEX_PRIVATE, 0, 0, 0, 0x1);
	return 0;
}

/* WAKE_BITSET wakes only waiters whose mask meets its own. */
static int bitsets(void)
{
	pthread_t t;

	word = 0;
	CHECK_EQ(pthread_create(&t, 0, waiter_bitset, 0), 0);
	settle();
	CHECK_EQ(futex6(&word, FUTEX_WAKE_BITSET | FUTEX_PRIVATE, 5, 0, 0, 0x2), 0);
	CHECK_EQ(futex6(&word, FUTEX_WAKE_BITSET | FUTEX_PRIVATE, 5, 0, 0, 0x3), 1);
	pthread_join(t, 0);
	CHECK_EQ(results[0], 0);
	CHECK_EQ(futex6(&word, FUTEX_WAIT_BITSET, 0, 0, 0, 0), -K_EINVAL);	/* empty mask */
	return 0;
}

/* A MAP_SHARED word is one futex for two processes (shared ops); a private
 * wake from the other process is another futex and wakes nobody. */
static int shared_across_fork(void)
{
	volatile int *w = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;
	int st = -1;

	CHECK(w != MAP_FAILED);
	*w = 0;
	w[1] = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		w[1] = 1;
		_exit(fwait(w, 0, 0, 0) == 0 ? 0 : 1);
	}
	while (!w[1])
		sleep_ms(5);
	settle();
	CHECK_EQ(fwake(w, 1, FUTEX_PRIVATE), 0);
	CHECK_EQ(fwake(w, 1, 0), 1);
	CHECK_EQ(lx_syscall(NR_WAIT4, pid, (long)&st, 0, 0, 0), pid);
	CHECK_EQ(st, 0);
	return 0;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void *waiter_intr(void *arg __attribute__((unused)))
{
	results[0] = fwait(&word, 0, 0, FUTEX_PRIVATE);
	return 0;
}

/* A signal with a handler (no SA_RESTART) ends a wait with -EINTR. */
static int signal_interrupts_wait(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	pthread_t t;

	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(SIGUSR1, &sa, 0), 0);
	word = 0;
	results[0] = 99;
	CHECK_EQ(pthread_create(&t, 0, waiter_intr, 0), 0);
	settle();
	CHECK_EQ(pthread_kill(t, SIGUSR1), 0);
	pthread_join(t, 0);
	CHECK_EQ(results[0], -K_EINTR);
	return 0;
}

/* Words at no mapping or in the kernel: -EFAULT; misaligned: -EINVAL;
 * unknown operation: -ENOSYS. Never a kernel fault. */
static int bad_addresses(void)
{
	CHECK_EQ(fwait((int *)0x20, 0, 0, FUTEX_PRIVATE), -K_EFAULT);
	CHECK_EQ(fwait((int *)0xC0001000, 0, 0, FUTEX_PRIVATE), -K_EFAULT);
	CHECK_EQ(fwait((int *)0xFFFFFFFC, 0, 0, 0), -K_EFAULT);
	CHECK_EQ(fwake((int *)0x20, 1, 0), -K_EFAULT);		/* shared: needs the mapping */
	CHECK_EQ(fwake((int *)0xC0001000, 1, FUTEX_PRIVATE), -K_EFAULT);
	CHECK_EQ(fwait((int *)((char *)&word + 1), 0, 0, 0), -K_EINVAL);
	CHECK_EQ(futex6(&word, 77, 0, 0, 0, 0), -K_ENOSYS);
	CHECK_EQ(futex6(&word, FUTEX_CMP_REQUEUE, 1, (void *)1, (int *)0x20, 0), -K_EFAULT);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(value_differs_and_timeout),
	UTEST(wake_counts),
	UTEST(requeue_and_cmp_requeue),
	UTEST(bitsets),
	UTEST(shared_across_fork),
	UTEST(signal_interrupts_wait),
	UTEST(bad_addresses),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "futex", cases, sizeof(cases) / sizeof(cases[0]));
}
