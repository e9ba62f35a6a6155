/* test_epoll.c: the "epoll" suite: epoll(7), timerfd_create(2) and
 * signalfd(2) as their man pages describe them, through <sys/epoll.h>,
 * <sys/timerfd.h> and <sys/signalfd.h>; and an event loop that drives libaio
 * (IOCB_FLAG_RESFD to an eventfd) with a timerfd and a pipe in one epoll. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include "utest.h"

#define DATA64		0x8123456789abcdefull	/* all 64 bits of data must come back */

static long long ms_since(long long t0)
{
	return (utest_now_ns() - t0) / 1000000;
}

static int ep_add(int ep, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

static int ep_mod(int ep, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };

	return epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
}

/* One wait of timeout ms for a single event: its count, the event in *ev. */
static int ep_one(int ep, struct epoll_event *ev, int timeout)
{
	memset(ev, 0, sizeof(*ev));
	return epoll_wait(ep, ev, 1, timeout);
}

/* A child that sleeps ms, writes one byte to fd and exits. */
static pid_t write_later(int fd, int ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		usleep(ms * 1000);
		_exit(write(fd, "x", 1) == 1 ? 0 : 1);
	}
	return pid;
}

/* --- epoll --- */

static int struct_layout(void)
{
	struct epoll_event ev[2];

	CHECK_EQ(sizeof(struct epoll_event), 12);	/* i386: packed */
	CHECK_EQ((char *)&ev[1] - (char *)&ev[0], 12);
	CHECK_EQ(__builtin_offsetof(struct epoll_event, data), 4);
	return 0;
}

static int create_and_flags(void)
{
	int ep = epoll_create(1), ep1 = epoll_create1(EPOLL_CLOEXEC), ep0 = epoll_create1(0);
	char c;

	CHECK(ep >= 0 && ep1 >= 0 && ep0 >= 0);
	CHECK_EQ(fcntl(ep, F_GETFD), 0);
	CHECK_EQ(fcntl(ep0, F_GETFD), 0);
	CHECK_EQ(fcntl(ep1, F_GETFD), FD_CLOEXEC);
	CHECK_ERR(epoll_create(0), EINVAL);
	CHECK_ERR(epoll_create(-1), EINVAL);
	CHECK_ERR(epoll_create1(1), EINVAL);
	CHECK_ERR(epoll_create1(O_NONBLOCK), EINVAL);
	CHECK_ERR(read(ep, &c, 1), EINVAL);	/* an epoll fd is no data file */
	CHECK_EQ(close(ep), 0);
	CHECK_EQ(close(ep1), 0);
	CHECK_EQ(close(ep0), 0);
	return 0;
}

static int ctl_errors(void)
{
	int ep = epoll_create1(0), p[2], file;
	struct epoll_event ev = { .events = EPOLLIN };

	CHECK_EQ(pipe(p), 0);
	file = open("/tmp/epoll_reg", O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(file >= 0);
	CHECK_ERR(epoll_ctl(-1, EPOLL_CTL_ADD, p[0], &ev), EBADF);
	CHECK_ERR(epoll_ctl(ep, EPOLL_CTL_ADD, 63, &ev), EBADF);
	CHECK_ERR(epoll_ctl(p[1], EPOLL_CTL_ADD, p[0], &ev), EINVAL);	/* not an epoll */
	CHECK_ERR(epoll_ctl(ep, EPOLL_CTL_ADD, ep, &ev), EINVAL);	/* itself */
	CHECK_ERR(epoll_ctl(ep, EPOLL_CTL_ADD, file, &ev), EPERM);	/* a regular file */
	CHECK_ERR(epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev), ENOENT);
	CHECK_ERR(epoll_ctl(ep, EPOLL_CTL_DEL, p[0], &ev), ENOENT);
	CHECK_ERR(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], NULL), EFAULT);
	CHECK_ERR(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], (void *)0xC0010000), EFAULT);
	CHECK_ERR(epoll_ctl(ep, 99, p[0], &ev), EINVAL);
	CHECK_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev), 0);
	CHECK_ERR(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev), EEXIST);
	ev.events = EPOLLIN | EPOLLEXCLUSIVE;
	CHECK_ERR(epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev), EINVAL);
	CHECK_EQ(epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL), 0);	/* DEL ignores event */
	CHECK_ERR(epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL), ENOENT);
	CHECK_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev), 0);	/* EPOLLEXCLUSIVE: ADD only */
	close(file);
	unlink("/tmp/epoll_reg");
	return 0;
}

static int wait_errors(void)
{
	int ep = epoll_create1(0), p[2];
	struct epoll_event ev[2];

	CHECK_EQ(pipe(p), 0);
	CHECK_ERR(epoll_wait(ep, ev, 0, 0), EINVAL);
	CHECK_ERR(epoll_wait(ep, ev, -1, 0), EINVAL);
	CHECK_ERR(epoll_wait(ep, (void *)0xC0010000, 1, 0), EFAULT);
	CHECK_ERR(epoll_wait(p[0], ev, 2, 0), EINVAL);
	CHECK_ERR(epoll_wait(-1, ev, 2, 0), EBADF);
	CHECK_ERR(epoll_wait(63, ev, 2, 0), EBADF);
	CHECK_EQ(epoll_wait(ep, ev, 2, 0), 0);
	return 0;
}

/* Level-triggered: reported on every wait while the condition holds. */
static int level_triggered(void)
{
	int ep = epoll_create1(0), p[2];
	struct epoll_event ev;
	char buf[8];

	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(ep_add(ep, p[0], EPOLLIN, DATA64), 0);
	CHECK_EQ(ep_add(ep, p[1], EPOLLOUT, 7), 0);
	CHECK_EQ(ep_one(ep, &ev, 0), 1);		/* the write end: room */
	CHECK_EQ(ev.events, EPOLLOUT);
	CHECK_EQ(ev.data.u64, 7);
	CHECK_EQ(epoll_ctl(ep, EPOLL_CTL_DEL, p[1], NULL), 0);
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	CHECK_EQ(write(p[1], "ab", 2), 2);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(ep_one(ep, &ev, 0), 1);
		CHECK_EQ(ev.events, EPOLLIN);
		CHECK(ev.data.u64 == DATA64);
	}
	CHECK_EQ(read(p[0], buf, 1), 1);
	CHECK_EQ(ep_one(ep, &ev, 0), 1);		/* one byte left */
	CHECK_EQ(read(p[0], buf, 1), 1);
	CHECK_EQ(ep_one(ep, &ev, 0), 0);		/* drained */
	return 0;
}

/* EPOLLET: one report per change, even with data left. */
static int edge_triggered(void)
{
	int ep = epoll_create1(0), p[2];
	struct epoll_event ev;

	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(ep_add(ep, p[0], EPOLLIN | EPOLLET, 1), 0);
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	CHECK_EQ(write(p[1], "a", 1), 1);
	CHECK_EQ(ep_one(ep, &ev, 0), 1);
	CHECK_EQ(ev.events, EPOLLIN);
	CHECK_EQ(ep_one(ep, &ev, 0), 0);		/* unread, but no new edge */
	CHECK_EQ(write(p[1], "b", 1), 1);
	CHECK_EQ(ep_one(ep, &ev, 100), 1);		/* a new write: a new edge */
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	return 0;
}

/* EPOLLONESHOT: one report, then nothing until EPOLL_CTL_MOD arms it again. */
static int oneshot(void)
{
	int ep = epoll_create1(0), p[2];
	struct epoll_event ev;

	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(ep_add(ep, p[0], EPOLLIN | EPOLLONESHOT, 5), 0);
	CHECK_EQ(write(p[1], "a", 1), 1);
	CHECK_EQ(ep_one(ep, &ev, 0), 1);
	CHECK_EQ(ev.data.u64, 5);
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	CHECK_EQ(write(p[1], "b", 1), 1);
	CHECK_EQ(ep_one(ep, &ev, 20), 0);		/* disabled */
	CHECK_ERR(ep_add(ep, p[0], EPOLLIN, 5), EEXIST);	/* still registered */
	CHECK_EQ(ep_mod(ep, p[0], EPOLLIN | EPOLLONESHOT, 6), 0);
	CHECK_EQ(ep_one(ep, &ev, 0), 1);
	CHECK_EQ(ev.data.u64, 6);
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	return 0;
}

/* EPOLLHUP and EPOLLERR come whether asked or not; EPOLLRDHUP is accepted
 * (pipes report a closed writer as EPOLLHUP, as on Linux). */
static int hup_err_always(void)
{
	int ep = epoll_create1(0), a[2], b[2];
	struct epoll_event ev;

	CHECK_EQ(pipe(a), 0);
	CHECK_EQ(pipe(b), 0);
	CHECK_EQ(ep_add(ep, a[0], EPOLLIN | EPOLLRDHUP, 1), 0);
	CHECK_EQ(ep_add(ep, b[1], 0, 2), 0);		/* nothing asked */
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	CHECK_EQ(close(a[1]), 0);
	CHECK_EQ(ep_one(ep, &ev, 100), 1);
	CHECK_EQ(ev.events, EPOLLHUP);
	CHECK_EQ(ev.data.u64, 1);
	CHECK_EQ(epoll_ctl(ep, EPOLL_CTL_DEL, a[0], NULL), 0);
	CHECK_EQ(close(b[0]), 0);
	CHECK_EQ(ep_one(ep, &ev, 100), 1);
	CHECK_EQ(ev.events, EPOLLERR);
	CHECK_EQ(ev.data.u64, 2);
	return 0;
}

/* timeout 0 looks once, a positive one waits that long, -1 until an event. */
static int timeouts(void)
{
	int ep = epoll_create1(0), p[2], st;
	struct epoll_event ev;
	long long t0;
	pid_t pid;

	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(ep_add(ep, p[0], EPOLLIN, 3), 0);
	t0 = utest_now_ns();
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	CHECK(ms_since(t0) < 500);			/* no wait (a loaded host may delay it) */
	t0 = utest_now_ns();
	CHECK_EQ(ep_one(ep, &ev, 60), 0);
	CHECK(ms_since(t0) >= 59);
	pid = write_later(p[1], 50);
	t0 = utest_now_ns();
	CHECK_EQ(ep_one(ep, &ev, -1), 1);
	CHECK(ms_since(t0) >= 40);
	CHECK_EQ(ev.data.u64, 3);
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	return 0;
}

static volatile int usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

/* A signal ends the wait with EINTR, even under SA_RESTART. */
static int interrupted(void)
{
	int ep = epoll_create1(0), p[2], st;
	struct epoll_event ev;
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	pid_t parent = getpid(), pid;

	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(ep_add(ep, p[0], EPOLLIN, 3), 0);
	CHECK_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
	pid = fork();
	if (pid == 0) {
		usleep(50000);
		_exit(kill(parent, SIGUSR1) ? 1 : 0);
	}
	CHECK_ERR(ep_one(ep, &ev, 5000), EINTR);
	CHECK_EQ(usr1_seen, 1);
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	return 0;
}

/* epoll_pwait's mask holds for the wait only: a signal it blocks stays
 * pending, one it lets through ends the wait (EINTR), and the thread's own
 * mask is back afterwards. */
static int pwait_sigmask(void)
{
	int ep = epoll_create1(0), p[2], st;
	struct epoll_event ev;
	sigset_t block, during, now;
	pid_t pid;

	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(ep_add(ep, p[0], EPOLLIN, 3), 0);
	signal(SIGUSR1, on_usr1);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	CHECK_EQ(sigprocmask(SIG_BLOCK, &block, NULL), 0);
	kill(getpid(), SIGUSR1);			/* pending, blocked */
	sigfillset(&during);
	CHECK_EQ(epoll_pwait(ep, &ev, 1, 30, &during), 0);	/* blocked for the wait too */
	CHECK_EQ(usr1_seen, 0);
	sigemptyset(&during);
	CHECK_ERR(epoll_pwait(ep, &ev, 1, 5000, &during), EINTR);	/* let through */
	CHECK_EQ(usr1_seen, 1);
	CHECK_EQ(sigprocmask(SIG_BLOCK, NULL, &now), 0);
	CHECK(sigismember(&now, SIGUSR1));		/* the old mask is back */
	pid = write_later(p[1], 20);
	CHECK_EQ(epoll_pwait(ep, &ev, 1, 5000, &during), 1);	/* an event, no signal */
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	return 0;
}

/* An entry belongs to the open file description: a dup keeps it alive after
 * the registered fd is closed; the last close removes it. */
static int entry_follows_open_file(void)
{
	int ep = epoll_create1(0), p[2], d;
	struct epoll_event ev;

	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(ep_add(ep, p[0], EPOLLIN, 11), 0);
	d = dup(p[0]);
	CHECK(d >= 0);
	CHECK_EQ(close(p[0]), 0);
	CHECK_EQ(write(p[1], "a", 1), 1);
	CHECK_EQ(ep_one(ep, &ev, 0), 1);		/* still there, under the old fd */
	CHECK_EQ(ev.data.u64, 11);
	CHECK_ERR(epoll_ctl(ep, EPOLL_CTL_DEL, d, NULL), ENOENT);	/* not d's */
	CHECK_EQ(close(d), 0);				/* the last reference */
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	CHECK_EQ(ep_add(ep, p[1], EPOLLOUT, 12), 0);	/* always ready */
	CHECK_EQ(ep_one(ep, &ev, 0), 1);
	CHECK_EQ(close(p[1]), 0);
	CHECK_EQ(ep_one(ep, &ev, 0), 0);		/* gone with its file */
	return 0;
}

/* maxevents smaller than what is ready: the rest come on the next call. */
static int maxevents_rotates(void)
{
	int ep = epoll_create1(0), p[3][2];
	struct epoll_event ev[3];
	unsigned seen = 0;

	for (int i = 0; i < 3; i++) {
		CHECK_EQ(pipe(p[i]), 0);
		CHECK_EQ(write(p[i][1], "a", 1), 1);
		CHECK_EQ(ep_add(ep, p[i][0], EPOLLIN, 1u << i), 0);
	}
	CHECK_EQ(epoll_wait(ep, ev, 2, 0), 2);
	seen |= ev[0].data.u32 | ev[1].data.u32;
	CHECK_EQ(epoll_wait(ep, ev, 2, 0), 2);
	seen |= ev[0].data.u32 | ev[1].data.u32;
	CHECK_EQ(seen, 7);
	CHECK_EQ(epoll_wait(ep, ev, 3, 0), 3);
	return 0;
}

/* The epoll fd polls: poll(), select() and another epoll see it readable
 * while it has a ready entry, and a wait in the outer one is woken. */
static int nested_and_pollable(void)
{
	int in = epoll_create1(0), out = epoll_create1(0), p[2], st;
	struct epoll_event ev;
	struct pollfd pfd = { .fd = in, .events = POLLIN };
	fd_set rd;
	struct timeval tv = { 0, 0 };
	char c;
	pid_t pid;

	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(ep_add(in, p[0], EPOLLIN, 1), 0);
	CHECK_EQ(ep_add(out, in, EPOLLIN, 2), 0);
	CHECK_EQ(poll(&pfd, 1, 0), 0);
	CHECK_EQ(ep_one(out, &ev, 0), 0);
	pid = write_later(p[1], 50);
	CHECK_EQ(ep_one(out, &ev, 5000), 1);		/* woken through the inner one */
	CHECK_EQ(ev.events, EPOLLIN);
	CHECK_EQ(ev.data.u64, 2);
	CHECK_EQ(poll(&pfd, 1, 0), 1);
	CHECK_EQ(pfd.revents, POLLIN);
	FD_ZERO(&rd);
	FD_SET(in, &rd);
	CHECK_EQ(select(in + 1, &rd, NULL, NULL, &tv), 1);
	CHECK_EQ(ep_one(in, &ev, 0), 1);
	CHECK_EQ(ev.data.u64, 1);
	CHECK_EQ(read(p[0], &c, 1), 1);
	CHECK_EQ(ep_one(out, &ev, 0), 0);		/* nothing inside is ready now */
	CHECK_EQ(poll(&pfd, 1, 0), 0);
	pid_t pid2 = write_later(p[1], 30);
	CHECK_EQ(poll(&pfd, 1, 5000), 1);		/* poll() sleeping on it is woken */
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK_EQ(waitpid(pid2, &st, 0), pid2);
	return 0;
}

/* ELOOP for a cycle of instances or a chain deeper than 5; closing an inner
 * instance takes it out of the outer one. */
static int loops_and_depth(void)
{
	int e[7];
	struct epoll_event ev;

	for (int i = 0; i < 7; i++)
		CHECK((e[i] = epoll_create1(0)) >= 0);
	CHECK_EQ(ep_add(e[0], e[1], EPOLLIN, 0), 0);
	CHECK_ERR(ep_add(e[1], e[0], EPOLLIN, 0), ELOOP);	/* a cycle of two */
	CHECK_EQ(ep_add(e[1], e[2], EPOLLIN, 0), 0);
	CHECK_ERR(ep_add(e[2], e[0], EPOLLIN, 0), ELOOP);	/* of three */
	CHECK_EQ(ep_add(e[2], e[3], EPOLLIN, 0), 0);
	CHECK_EQ(ep_add(e[3], e[4], EPOLLIN, 0), 0);		/* 5 instances deep */
	CHECK_ERR(ep_add(e[4], e[5], EPOLLIN, 0), ELOOP);	/* 6: too deep */
	CHECK_ERR(ep_add(e[5], e[0], EPOLLIN, 0), ELOOP);	/* above the top */
	CHECK_EQ(ep_add(e[5], e[6], EPOLLIN, 0), 0);		/* a separate pair */
	CHECK_EQ(epoll_ctl(e[3], EPOLL_CTL_DEL, e[4], NULL), 0);
	CHECK_EQ(ep_add(e[4], e[5], EPOLLIN, 0), 0);		/* e4 alone: fits */
	CHECK_EQ(close(e[1]), 0);				/* out of e0 */
	CHECK_EQ(ep_one(e[0], &ev, 0), 0);
	CHECK_ERR(epoll_ctl(e[0], EPOLL_CTL_DEL, e[1], NULL), EBADF);
	return 0;
}

struct bumper {
	int efd, n;
};

static void *bump(void *arg)
{
	struct bumper *b = arg;

	for (int i = 0; i < b->n; i++) {
		eventfd_write(b->efd, 1);
		if (i % 16 == 0)
			usleep(200);
	}
	return NULL;
}

/* Four threads (on other CPUs at -smp 4) signal four eventfds; one
 * edge-triggered loop collects every count, and nothing is lost. */
static int eventfd_threads(void)
{
	enum { T = 4, N = 400 };
	int ep = epoll_create1(0);
	struct bumper b[T];
	pthread_t t[T];
	struct epoll_event ev[T];
	uint64_t total = 0, v;

	for (int i = 0; i < T; i++) {
		b[i] = (struct bumper){ eventfd(0, EFD_NONBLOCK), N };
		CHECK(b[i].efd >= 0);
		CHECK_EQ(ep_add(ep, b[i].efd, EPOLLIN | EPOLLET, i), 0);
	}
	for (int i = 0; i < T; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, bump, &b[i]), 0);
	while (total < T * N) {
		int n = epoll_wait(ep, ev, T, 5000);

		CHECK(n > 0);
		for (int i = 0; i < n; i++)
			while (eventfd_read(b[ev[i].data.u32].efd, &v) == 0)
				total += v;
	}
	for (int i = 0; i < T; i++)
		CHECK_EQ(pthread_join(t[i], NULL), 0);
	CHECK_EQ(total, T * N);
	CHECK_EQ(epoll_wait(ep, ev, T, 0), 0);
	return 0;
}

/* --- timerfd --- */

static struct itimerspec its_ms(long value_ms, long interval_ms)
{
	struct itimerspec its = {
		.it_interval = { interval_ms / 1000, (interval_ms % 1000) * 1000000L },
		.it_value = { value_ms / 1000, (value_ms % 1000) * 1000000L },
	};
	return its;
}

static long long ts_ms(const struct timespec *ts)
{
	return (long long)ts->tv_sec * 1000 + ts->tv_nsec / 1000000;
}

static int timerfd_create_errors(void)
{
	int t = timerfd_create(CLOCK_MONOTONIC, 0), tc = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC);
	int tn = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK), p[2];
	struct itimerspec its = its_ms(0, 0);
	uint64_t v;

	CHECK(t >= 0 && tc >= 0 && tn >= 0);
	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(fcntl(t, F_GETFD), 0);
	CHECK_EQ(fcntl(tc, F_GETFD), FD_CLOEXEC);
	CHECK_ERR(timerfd_create(CLOCK_MONOTONIC, 0x40), EINVAL);
	CHECK_ERR(timerfd_create(CLOCK_PROCESS_CPUTIME_ID, 0), EINVAL);
	CHECK_ERR(read(tn, &v, sizeof(v)), EAGAIN);	/* disarmed, nothing expired */
	CHECK_ERR(read(t, &v, 7), EINVAL);		/* before any wait */
	CHECK_ERR(timerfd_settime(t, 0x10, &its, NULL), EINVAL);
	its.it_value.tv_nsec = 1000000000;
	CHECK_ERR(timerfd_settime(t, 0, &its, NULL), EINVAL);
	its = its_ms(10, 0);
	its.it_interval.tv_nsec = -1;
	CHECK_ERR(timerfd_settime(t, 0, &its, NULL), EINVAL);
	its = its_ms(10, 0);
	CHECK_ERR(timerfd_settime(p[0], 0, &its, NULL), EINVAL);	/* not a timerfd */
	CHECK_ERR(timerfd_settime(63, 0, &its, NULL), EBADF);
	CHECK_ERR(timerfd_gettime(p[0], &its), EINVAL);
	return 0;
}

/* A relative one-shot timer: read waits for it and says 1; gettime counts
 * down, then reads 0 (disarmed). */
static int timerfd_oneshot(void)
{
	int t = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec its = its_ms(150, 0), cur;
	long long t0 = utest_now_ns();
	uint64_t v = 0;

	CHECK(t >= 0);
	CHECK_EQ(timerfd_settime(t, 0, &its, NULL), 0);
	CHECK_EQ(timerfd_gettime(t, &cur), 0);
	CHECK(ts_ms(&cur.it_value) <= 150);		/* counting down (0 only once it fired) */
	CHECK(cur.it_value.tv_sec || cur.it_value.tv_nsec || ms_since(t0) >= 149);
	CHECK_EQ(ts_ms(&cur.it_interval), 0);
	CHECK_EQ(read(t, &v, sizeof(v)), 8);
	CHECK(ms_since(t0) >= 149);
	CHECK_EQ(v, 1);
	CHECK_EQ(timerfd_gettime(t, &cur), 0);
	CHECK(cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec == 0);
	return 0;
}

/* A periodic timer counts every expiry between reads. */
static int timerfd_periodic(void)
{
	int t = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	struct itimerspec its = its_ms(20, 20), cur;
	long long t0 = utest_now_ns(), lo, hi;
	uint64_t v = 0;

	CHECK(t >= 0);
	CHECK_EQ(timerfd_settime(t, 0, &its, NULL), 0);
	usleep(130000);
	CHECK_EQ(timerfd_gettime(t, &cur), 0);
	CHECK_EQ(ts_ms(&cur.it_interval), 20);
	CHECK(ts_ms(&cur.it_value) <= 20);
	lo = ms_since(t0) / 20 - 2;		/* a late tick may leave the last one or two */
	CHECK_EQ(read(t, &v, sizeof(v)), 8);
	hi = ms_since(t0) / 20;			/* every 20 ms from the start, no more */
	if (v < 5 || (long long)v < lo || (long long)v > hi)
		utest_log("%llu expiries, expected %lld..%lld", (unsigned long long)v, lo, hi);
	CHECK(v >= 5 && (long long)v >= lo && (long long)v <= hi);
	its = its_ms(0, 0);
	CHECK_EQ(timerfd_settime(t, 0, &its, NULL), 0);	/* disarmed: none left */
	CHECK_ERR(read(t, &v, sizeof(v)), EAGAIN);
	return 0;
}

/* TFD_TIMER_ABSTIME on both clocks; a time already past expires at once;
 * settime returns the old setting and a zero it_value disarms. */
static int timerfd_abstime_and_old(void)
{
	int tr = timerfd_create(CLOCK_REALTIME, 0), tm = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	struct itimerspec its = its_ms(0, 0), old;
	struct timespec now;
	long long t0 = utest_now_ns();
	uint64_t v = 0;

	CHECK(tr >= 0 && tm >= 0);
	CHECK_EQ(clock_gettime(CLOCK_REALTIME, &now), 0);
	its.it_value = now;
	its.it_value.tv_nsec += 50000000;
	if (its.it_value.tv_nsec >= 1000000000) {
		its.it_value.tv_sec++;
		its.it_value.tv_nsec -= 1000000000;
	}
	CHECK_EQ(timerfd_settime(tr, TFD_TIMER_ABSTIME, &its, NULL), 0);
	CHECK_EQ(read(tr, &v, sizeof(v)), 8);
	CHECK_EQ(v, 1);
	CHECK(ms_since(t0) >= 45);
	its = its_ms(0, 0);
	its.it_value.tv_nsec = 1;			/* 1 ns after boot: long past */
	CHECK_EQ(timerfd_settime(tm, TFD_TIMER_ABSTIME, &its, NULL), 0);
	CHECK_EQ(read(tm, &v, sizeof(v)), 8);		/* at once */
	CHECK_EQ(v, 1);
	its = its_ms(5000, 100);
	CHECK_EQ(timerfd_settime(tm, 0, &its, NULL), 0);
	its = its_ms(0, 0);				/* disarm */
	CHECK_EQ(timerfd_settime(tm, 0, &its, &old), 0);
	CHECK(ts_ms(&old.it_value) > 4000 && ts_ms(&old.it_value) <= 5000);
	CHECK_EQ(ts_ms(&old.it_interval), 100);
	CHECK_ERR(read(tm, &v, sizeof(v)), EAGAIN);
	return 0;
}

/* A timerfd in epoll (woken from the timer softirq, on any CPU). */
static int timerfd_in_epoll(void)
{
	int ep = epoll_create1(0), t = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	struct itimerspec its = its_ms(30, 0);
	struct epoll_event ev;
	long long t0 = utest_now_ns();
	uint64_t v;

	CHECK(ep >= 0 && t >= 0);
	CHECK_EQ(ep_add(ep, t, EPOLLIN, 9), 0);
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	CHECK_EQ(timerfd_settime(t, 0, &its, NULL), 0);
	CHECK_EQ(ep_one(ep, &ev, 5000), 1);
	CHECK(ms_since(t0) >= 29);
	CHECK_EQ(ev.events, EPOLLIN);
	CHECK_EQ(ev.data.u64, 9);
	CHECK_EQ(read(t, &v, sizeof(v)), 8);
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	return 0;
}

/* --- signalfd --- */

static int block_signals(int a, int b)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, a);
	if (b)
		sigaddset(&s, b);
	return sigprocmask(SIG_BLOCK, &s, NULL);
}

static int signalfd_of(int fd, int sig, int flags)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, sig);
	return signalfd(fd, &s, flags);
}

/* A blocked signal of the mask is read as a record (this library's signal
 * numbers); one outside it stays pending; a second call changes the mask. */
static int signalfd_read_and_update(void)
{
	struct signalfd_siginfo si[2];
	sigset_t pend;
	int s;

	CHECK_EQ(sizeof(struct signalfd_siginfo), 128);
	CHECK_EQ(block_signals(SIGUSR1, SIGUSR2), 0);
	s = signalfd_of(-1, SIGUSR1, SFD_NONBLOCK);
	CHECK(s >= 0);
	CHECK_ERR(read(s, si, sizeof(si)), EAGAIN);
	CHECK_EQ(kill(getpid(), SIGUSR1), 0);
	CHECK_EQ(kill(getpid(), SIGUSR2), 0);
	CHECK_EQ(read(s, si, sizeof(si)), 128);		/* only SIGUSR1 is in the mask */
	CHECK_EQ(si[0].ssi_signo, SIGUSR1);
	CHECK_EQ(si[0].ssi_code, SI_USER);
	CHECK_EQ(si[0].ssi_pid, getpid());
	CHECK_ERR(read(s, si, sizeof(si)), EAGAIN);
	CHECK_EQ(sigpending(&pend), 0);
	CHECK(!sigismember(&pend, SIGUSR1) && sigismember(&pend, SIGUSR2));
	CHECK_EQ(signalfd_of(s, SIGUSR2, 0), s);	/* the same fd, a new mask */
	CHECK_EQ(read(s, si, sizeof(si)), 128);
	CHECK_EQ(si[0].ssi_signo, SIGUSR2);
	CHECK_EQ(sigpending(&pend), 0);
	CHECK(!sigismember(&pend, SIGUSR2));
	return 0;
}

static int signalfd_errors(void)
{
	int s = signalfd_of(-1, SIGUSR1, SFD_CLOEXEC), p[2];
	struct signalfd_siginfo si;
	sigset_t m;

	CHECK(s >= 0);
	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(fcntl(s, F_GETFD), FD_CLOEXEC);
	CHECK_ERR(read(s, &si, 127), EINVAL);
	CHECK_ERR(signalfd_of(-1, SIGUSR1, 0x10), EINVAL);
	CHECK_ERR(signalfd_of(p[0], SIGUSR1, 0), EINVAL);	/* not a signalfd */
	CHECK_ERR(signalfd_of(63, SIGUSR1, 0), EBADF);
	sigemptyset(&m);
	CHECK_ERR(signalfd(-1, NULL, 0), EFAULT);
	CHECK(signalfd(-1, &m, 0) >= 0);			/* an empty mask is fine */
	return 0;
}

/* Several records in one read; SIGCHLD carries the child's pid and status. */
static int signalfd_sigchld_and_many(void)
{
	struct signalfd_siginfo si[4];
	sigset_t m;
	pid_t pid;
	int s, st;

	sigemptyset(&m);
	sigaddset(&m, SIGCHLD);
	sigaddset(&m, SIGUSR1);
	sigaddset(&m, SIGUSR2);
	CHECK_EQ(sigprocmask(SIG_BLOCK, &m, NULL), 0);
	s = signalfd(-1, &m, 0);
	CHECK(s >= 0);
	pid = fork();
	if (pid == 0)
		_exit(7);
	CHECK_EQ(read(s, si, sizeof(si)), 128);		/* waits for the child's exit */
	CHECK_EQ(si[0].ssi_signo, SIGCHLD);
	CHECK_EQ(si[0].ssi_code, CLD_EXITED);
	CHECK_EQ(si[0].ssi_pid, pid);
	CHECK_EQ(si[0].ssi_status, 7);
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK_EQ(kill(getpid(), SIGUSR1), 0);
	CHECK_EQ(kill(getpid(), SIGUSR2), 0);
	CHECK_EQ(read(s, si, sizeof(si)), 256);
	CHECK(si[0].ssi_signo != si[1].ssi_signo);
	CHECK(si[0].ssi_signo == SIGUSR1 || si[0].ssi_signo == SIGUSR2);
	CHECK(si[1].ssi_signo == SIGUSR1 || si[1].ssi_signo == SIGUSR2);
	return 0;
}

/* A signalfd polls: poll() and epoll see it readable while a signal of its
 * mask is pending, and a wait is woken when one is sent. */
static int signalfd_in_epoll(void)
{
	int ep = epoll_create1(0), s, st;
	struct signalfd_siginfo si;
	struct epoll_event ev;
	struct pollfd pfd;
	pid_t parent = getpid(), pid;

	CHECK_EQ(block_signals(SIGUSR1, 0), 0);
	s = signalfd_of(-1, SIGUSR1, 0);
	CHECK(s >= 0);
	pfd = (struct pollfd){ .fd = s, .events = POLLIN };
	CHECK_EQ(poll(&pfd, 1, 0), 0);
	CHECK_EQ(ep_add(ep, s, EPOLLIN, 77), 0);
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	pid = fork();
	if (pid == 0) {
		usleep(50000);
		_exit(kill(parent, SIGUSR1) ? 1 : 0);
	}
	CHECK_EQ(ep_one(ep, &ev, 5000), 1);
	CHECK_EQ(ev.data.u64, 77);
	CHECK_EQ(poll(&pfd, 1, 0), 1);
	CHECK_EQ(read(s, &si, sizeof(si)), 128);
	CHECK_EQ(si.ssi_signo, SIGUSR1);
	CHECK_EQ(si.ssi_pid, pid);
	CHECK_EQ(ep_one(ep, &ev, 0), 0);
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	return 0;
}

/* The event loop libaio programs write: one epoll over an eventfd that AIO
 * completions signal (IOCB_FLAG_RESFD), a periodic timerfd and a pipe. The
 * reads are of a pipe that each timer expiry feeds two bytes, so the loop
 * turns timer events into AIO completions until all are in. */
static int aio_event_loop(void)
{
	enum { N = 8 };
	io_context_t ctx = 0;
	int ep = epoll_create1(EPOLL_CLOEXEC), efd = eventfd(0, EFD_NONBLOCK), p[2], q[2];
	int t = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC), st;
	struct itimerspec its = its_ms(10, 10);
	struct iocb cb[N], *cbs[N];
	struct io_event evs[N];
	struct epoll_event ev[4];
	char buf[N][4], sum = 0;
	int done = 0, fed = 0, pipe_seen = 0;
	uint64_t v, ticks = 0;
	pid_t pid;

	CHECK(ep >= 0 && efd >= 0 && t >= 0);
	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(pipe(q), 0);
	CHECK_EQ(io_setup(N, &ctx), 0);
	CHECK_EQ(ep_add(ep, efd, EPOLLIN, 100), 0);
	CHECK_EQ(ep_add(ep, q[0], EPOLLIN, 200), 0);
	CHECK_EQ(ep_add(ep, t, EPOLLIN, 300), 0);
	for (int i = 0; i < N; i++) {		/* reads of a pipe: done as data comes */
		io_prep_pread(&cb[i], p[0], buf[i], 1, 0);
		io_set_eventfd(&cb[i], efd);
		cbs[i] = &cb[i];
	}
	CHECK_EQ(io_submit(ctx, N, cbs), N);
	CHECK_EQ(epoll_wait(ep, ev, 4, 0), 0);
	CHECK_EQ(timerfd_settime(t, 0, &its, NULL), 0);
	pid = write_later(q[1], 30);
	while (done < N || !pipe_seen) {
		int n = epoll_wait(ep, ev, 4, 5000);

		CHECK(n > 0);
		for (int i = 0; i < n; i++) {
			if (ev[i].data.u64 == 300) {		/* the timer: feed the pipe */
				int k;
				CHECK_EQ(read(t, &v, sizeof(v)), 8);
				ticks += v;
				k = (int)(2 * v < (uint64_t)(N - fed) ? 2 * v : (uint64_t)(N - fed));
				CHECK_EQ(write(p[1], "\1\1\1\1\1\1\1\1", k), k);
				fed += k;
				its = its_ms(0, 0);
				if (fed == N)
					CHECK_EQ(timerfd_settime(t, 0, &its, NULL), 0);
			} else if (ev[i].data.u64 == 200) {	/* the pipe */
				char c;
				CHECK_EQ(read(q[0], &c, 1), 1);
				pipe_seen++;
			} else {				/* AIO completions */
				CHECK_EQ(ev[i].data.u64, 100);
				CHECK_EQ(eventfd_read(efd, &v), 0);
				CHECK_EQ(io_getevents(ctx, v, v, evs, NULL), (long)v);
				for (uint64_t k = 0; k < v; k++) {
					CHECK_EQ(evs[k].res, 1);
					sum += *(char *)((struct iocb *)evs[k].obj)->u.c.buf;
				}
				done += v;
			}
		}
	}
	CHECK_EQ(done, N);
	CHECK_EQ(sum, N);
	CHECK_EQ(fed, N);
	CHECK(ticks >= N / 2);
	CHECK_EQ(pipe_seen, 1);
	CHECK_EQ(epoll_wait(ep, ev, 4, 20), 0);		/* the timer is disarmed */
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK_EQ(io_destroy(ctx), 0);
	return 0;
}

/* Pin the calling thread to cpu when there is more than one CPU. */
static int pin_to(int cpu)
{
	cpu_set_t one;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return 0;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one);
}

struct disk_submitter {
	io_context_t ctx;
	int fd, efd;
	char *buf;
	struct iocb cb[32];
};

static void *submit_disk_reads(void *arg)
{
	struct disk_submitter *d = arg;

	if (pin_to(1))
		return (void *)1;
	for (int i = 0; i < 32; i++) {
		struct iocb *cbp = &d->cb[i];

		io_prep_pread(cbp, d->fd, d->buf + i * 4096, 4096, (long long)i * 4096);
		io_set_eventfd(cbp, d->efd);
		if (io_submit(d->ctx, 1, &cbp) != 1)
			return (void *)1;
		usleep(500);
	}
	return NULL;
}

/* Completions from a disk's interrupt handler (the entry's /dev/vda, QEMU's
 * null-co with 1 ms latency) of reads a thread submits on CPU 1 wake an
 * epoll wait on CPU 0 through the eventfd (-smp 1: one CPU does all). */
static int aio_disk_interrupt(void)
{
	static struct disk_submitter d;
	int ep = epoll_create1(0), done = 0;
	struct epoll_event ev;
	struct io_event evs[32];
	pthread_t t;
	void *ret;
	uint64_t v;

	d.fd = open("/dev/vda", O_RDONLY);
	CHECK(d.fd >= 0);			/* the entry gives the disk */
	d.efd = eventfd(0, EFD_NONBLOCK);
	CHECK(ep >= 0 && d.efd >= 0);
	CHECK_EQ(posix_memalign((void **)&d.buf, 4096, 32 * 4096), 0);
	CHECK_EQ(io_setup(32, &d.ctx), 0);
	CHECK_EQ(ep_add(ep, d.efd, EPOLLIN | EPOLLET, 1), 0);
	CHECK_EQ(pin_to(0), 0);
	CHECK_EQ(pthread_create(&t, NULL, submit_disk_reads, &d), 0);
	while (done < 32) {
		CHECK_EQ(ep_one(ep, &ev, 5000), 1);
		while (eventfd_read(d.efd, &v) == 0) {
			CHECK_EQ(io_getevents(d.ctx, v, v, evs, NULL), (long)v);
			for (uint64_t k = 0; k < v; k++)
				CHECK_EQ(evs[k].res, 4096);
			done += v;
		}
	}
	CHECK_EQ(pthread_join(t, &ret), 0);
	CHECK(ret == NULL);
	CHECK_EQ(done, 32);
	CHECK_EQ(io_destroy(d.ctx), 0);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(struct_layout),
	UTEST(create_and_flags),
	UTEST(ctl_errors),
	UTEST(wait_errors),
	UTEST(level_triggered),
	UTEST(edge_triggered),
	UTEST(oneshot),
	UTEST(hup_err_always),
	UTEST(timeouts),
	UTEST(interrupted),
	UTEST(pwait_sigmask),
	UTEST(entry_follows_open_file),
	UTEST(maxevents_rotates),
	UTEST(nested_and_pollable),
	UTEST(loops_and_depth),
	UTEST(eventfd_threads),
	UTEST(timerfd_create_errors),
	UTEST(timerfd_oneshot),
	UTEST(timerfd_periodic),
	UTEST(timerfd_abstime_and_old),
	UTEST(timerfd_in_epoll),
	UTEST(signalfd_read_and_update),
	UTEST(signalfd_errors),
	UTEST(signalfd_sigchld_and_many),
	UTEST(signalfd_in_epoll),
	UTEST(aio_event_loop),
	UTEST(aio_disk_interrupt),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "epoll", cases, sizeof(cases) / sizeof(cases[0]));
}
