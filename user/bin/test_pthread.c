/* test_pthread.c: the "pthread" suite: threads, per-thread errno and newlib data, every lock type under contention, condition clocks, keys, cancellation, attributes. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "utest.h"

/*
 * Each case runs in a child of its own (utest), and arms alarm() first: a
 * hang ends in SIGALRM and a failed case instead of a stuck run.
 */
#define WATCHDOG()	alarm(60)
#define NTHREADS	8

static long long ms_since(long long t0)
{
	return (utest_now_ns() - t0) / 1000000;
}


static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, 0);
}

/* Start n threads of fn, thread i with arg args[i] (or i); 0 when all started. */
static int start_all(pthread_t *t, int n, void *(*fn)(void *), void **args)
{
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], 0, fn, args ? args[i] : (void *)(long)i))
			return -1;
	return 0;
}

static int join_all(pthread_t *t, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++)
		bad |= pthread_join(t[i], 0) != 0;
	return bad;
}

static void *triple_plus_one(void *arg)
{
	return (void *)((long)arg * 3 + 1);
}

static int create_join(void)
{
	pthread_t t[NTHREADS];
	void *r;

	WATCHDOG();
	CHECK_EQ(start_all(t, NTHREADS, triple_plus_one, 0), 0);
	for (int i = 0; i < NTHREADS; i++) {
		CHECK(!pthread_equal(t[i], pthread_self()));
		CHECK_EQ(pthread_join(t[i], &r), 0);
		CHECK_EQ((long)r, i * 3 + 1);
	}
	return 0;
}

static void *self_of(void *arg)
{
	*(pthread_t *)arg = pthread_self();
	return (void *)pthread_gettid_np(pthread_self());
}

static int self_equal_tid(void)
{
	pthread_t t, seen;
	void *tid;

	WATCHDOG();
	CHECK(pthread_equal(pthread_self(), pthread_self()));
	CHECK_EQ(pthread_gettid_np(pthread_self()), getpid());	/* thread 0's tid is the pid */
	CHECK_EQ(pthread_create(&t, 0, self_of, &seen), 0);
	CHECK_EQ(pthread_join(t, &tid), 0);
	CHECK(pthread_equal(t, seen));
	CHECK((long)tid > 0 && (long)tid != getpid());
	return 0;
}

static void *block_on_sem(void *arg)
{
	sem_wait(arg);
	return 0;
}

static int join_detach_errors(void)
{
	pthread_t t;
	sem_t s;

	WATCHDOG();
	CHECK_EQ(pthread_join(pthread_self(), 0), EDEADLK);
	sem_init(&s, 0, 0);
	CHECK_EQ(pthread_create(&t, 0, block_on_sem, &s), 0);
	CHECK_EQ(pthread_detach(t), 0);
	CHECK_EQ(pthread_detach(t), EINVAL);
	CHECK_EQ(pthread_join(t, 0), EINVAL);
	sem_post(&s);
	return 0;
}

static volatile int finished;

static void *count_and_post(void *arg)
{
	__atomic_fetch_add(&finished, 1, __ATOMIC_SEQ_CST);
	sem_post(arg);
	return 0;
}

/* 1500 threads with 4 MiB stacks (6 GiB in all) come and go, joined and detached:
 * only works if every stack is given back. */
static int stacks_given_back(void)
{
	pthread_attr_t a;
	pthread_t t;
	sem_t s;

	WATCHDOG();
	sem_init(&s, 0, 0);
	pthread_attr_init(&a);
	CHECK_EQ(pthread_attr_setstacksize(&a, 4 << 20), 0);
	for (int i = 0; i < 1500; i++) {
		CHECK_EQ(pthread_create(&t, &a, count_and_post, &s), 0);
		CHECK_EQ(pthread_join(t, 0), 0);
	}
	sem_init(&s, 0, 0);
	CHECK_EQ(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED), 0);
	for (int i = 0; i < 1500; i++) {
		CHECK_EQ(pthread_create(&t, &a, count_and_post, &s), 0);
		sem_wait(&s);		/* at most a few detached threads are still leaving */
	}
	CHECK_EQ(finished, 3000);
	return 0;
}

/* pthread_detach on a thread that has already ended reaps it. */
static int detach_after_exit(void)
{
	pthread_t t;
	sem_t s;

	WATCHDOG();
	sem_init(&s, 0, 0);
	for (int i = 0; i < 200; i++) {
		CHECK_EQ(pthread_create(&t, 0, count_and_post, &s), 0);
		sem_wait(&s);
		if (i & 1)
			sleep_ms(1);	/* sometimes gone, sometimes still leaving */
		CHECK_EQ(pthread_detach(t), 0);
	}
	return 0;
}

static volatile int once_runs;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_barrier_t start_line;

static void once_init(void)
{
	sleep_ms(20);		/* the others arrive meanwhile and must wait */
	once_runs++;
}

static void *call_once(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start_line);
	pthread_once(&once, once_init);
	return (void *)(long)once_runs;		/* done before anyone returns */
}

static int once_runs_once(void)
{
	pthread_t t[NTHREADS];
	void *r;

	WATCHDOG();
	pthread_barrier_init(&start_line, 0, NTHREADS);
	CHECK_EQ(start_all(t, NTHREADS, call_once, 0), 0);
	for (int i = 0; i < NTHREADS; i++) {
		CHECK_EQ(pthread_join(t[i], &r), 0);
		CHECK_EQ((long)r, 1);
	}
	CHECK_EQ(once_runs, 1);
	return 0;
}

static pthread_key_t key;
static volatile int destructed, destructed_sum, resets;

static void key_destructor(void *v)
{
	__atomic_fetch_add(&destructed, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&destructed_sum, (int)(long)v, __ATOMIC_SEQ_CST);
	if ((long)v == 1000 && resets++ < 2)	/* set again: the destructor runs again */
		pthread_setspecific(key, v);
}

static void *use_key(void *arg)
{
	if (pthread_getspecific(key))
		return (void *)1;	/* a new thread starts with NULL */
	pthread_setspecific(key, arg);
	sched_yield();
	return (void *)(long)(pthread_getspecific(key) != arg);
}

static int keys_and_destructors(void)
{
	pthread_t t[4];
	void *args[4] = { (void *)1, (void *)2, (void *)3, (void *)1000 }, *r;

	WATCHDOG();
	CHECK_EQ(pthread_key_create(&key, key_destructor), 0);
	CHECK_EQ(pthread_setspecific(key, (void *)77), 0);
	CHECK_EQ(start_all(t, 4, use_key, args), 0);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(pthread_join(t[i], &r), 0);
		CHECK(r == 0);
	}
	CHECK_EQ(destructed, 6);	/* 4 threads, and 1000's twice more */
	CHECK_EQ(destructed_sum, 1 + 2 + 3 + 3000);
	CHECK(pthread_getspecific(key) == (void *)77);	/* ours untouched */
	CHECK_EQ(pthread_key_delete(key), 0);
	CHECK_EQ(pthread_key_delete(key), EINVAL);
	CHECK_EQ(pthread_setspecific(key, (void *)1), EINVAL);
	CHECK_EQ(pthread_key_create(&key, 0), 0);
	CHECK(pthread_getspecific(key) == 0);	/* a new key: the old value is gone */
	CHECK_EQ(pthread_setspecific(PTHREAD_KEYS_MAX, (void *)1), EINVAL);
	return 0;
}

static pthread_barrier_t errno_line;

/* errno, newlib's _REENT and strtok's state are the thread's own. */
static void *own_errno(void *arg)
{
	long which = (long)arg, bad = 0;
	char text[] = "a b c", other[] = "x y z", *tok;
	char c;

	if (which == 0)
		read(-1, &c, 1);			/* EBADF */
	else
		open("/nonexistent/none", 0);		/* ENOENT */
	tok = strtok(which == 0 ? text : other, " ");
	pthread_barrier_wait(&errno_line);	/* the other thread sets its errno now */
	pthread_barrier_wait(&errno_line);
	bad |= errno != (which == 0 ? EBADF : ENOENT);
	bad |= !tok || strcmp(strtok(0, " "), which == 0 ? "b" : "y") != 0;	/* its own strtok */
	return (void *)bad;
}

static int errno_per_thread(void)
{
	pthread_t t[2];
	void *r;

	WATCHDOG();
	pthread_barrier_init(&errno_line, 0, 2);
	errno = 0;
	CHECK_EQ(start_all(t, 2, own_errno, 0), 0);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(pthread_join(t[i], &r), 0);
		CHECK(r == 0);
	}
	CHECK_EQ(errno, 0);		/* thread 0's errno untouched */
	return 0;
}

enum { LINES = 300, LINE_LEN = 64 };
static FILE *shared_file, *main_stdout;

static int format_line(char *buf, long id, int no)
{
	return snprintf(buf, LINE_LEN, "thread %ld line %03d %.*s\n", id, no, 32,
			"................................");
}

/* malloc churn with pattern checks, and lines into one FILE from every thread. */
static void *malloc_and_print(void *arg)
{
	long id = (long)arg;
	unsigned seed = (unsigned)id * 2654435761u;
	unsigned char *p[32] = { 0 };
	size_t n[32];

	for (int i = 0; i < 4000; i++) {
		int k = (seed = seed * 1103515245 + 12345) >> 27;

		if (p[k]) {
			for (size_t j = 0; j < n[k]; j += 61)
				if (p[k][j] != (unsigned char)(id + j))
					return (void *)1;
			free(p[k]);
			p[k] = 0;
		} else {
			n[k] = 1 + (seed >> 8) % 3000;
			if (!(p[k] = malloc(n[k])))
				return (void *)1;
			for (size_t j = 0; j < n[k]; j += 61)
				p[k][j] = (unsigned char)(id + j);
		}
		if (i % (4000 / LINES) == 0 && i / (4000 / LINES) < LINES) {
			char line[LINE_LEN];

			format_line(line, id, i / (4000 / LINES));
			fputs(line, shared_file);
		}
	}
	for (int k = 0; k < 32; k++)
		free(p[k]);
	printf("    # pthread: thread %ld wrote %d lines\n", id, LINES);
	return (void *)(long)(stdout != main_stdout);	/* one stdout for all threads */
}

/* Every line is whole (stdio's lock) and each thread's lines are all there, in order. */
static int check_lines(const char *buf, int nthreads)
{
	int next[NTHREADS] = { 0 }, lines = 0;

	for (const char *l = buf; *l; lines++) {
		char want[LINE_LEN];
		long id;
		int n;

		if (sscanf(l, "thread %ld", &id) != 1 || id < 0 || id >= nthreads)
			return -1;
		n = format_line(want, id, next[id]++);
		if (strncmp(l, want, n))
			return -1;
		l += n;
	}
	return lines;
}

static int malloc_printf_8_threads(void)
{
	static char buf[NTHREADS * LINES * LINE_LEN + 1];
	pthread_t t[NTHREADS];
	void *r;

	WATCHDOG();
	main_stdout = stdout;
	shared_file = fmemopen(buf, sizeof(buf), "w");
	CHECK(shared_file != 0);
	CHECK_EQ(start_all(t, NTHREADS, malloc_and_print, 0), 0);
	for (int i = 0; i < NTHREADS; i++) {
		CHECK_EQ(pthread_join(t[i], &r), 0);
		CHECK(r == 0);
	}
	CHECK_EQ(fclose(shared_file), 0);
	CHECK_EQ(check_lines(buf, NTHREADS), NTHREADS * LINES);
	return 0;
}

enum { ROUNDS = 20000 };
static pthread_mutex_t counter_lock;
static volatile long counter;

static void *add_under_mutex(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		if (pthread_mutex_lock(&counter_lock))
			return (void *)1;
		long v = counter;	/* a torn increment shows without the lock */
		if (i % 64 == 0)
			sched_yield();
		counter = v + 1;
		pthread_mutex_unlock(&counter_lock);
	}
	return 0;
}

static int mutex_contention(void)
{
	static const int types[] = { PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_RECURSIVE,
				     PTHREAD_MUTEX_ERRORCHECK };
	pthread_mutexattr_t a;
	pthread_t t[NTHREADS];

	WATCHDOG();
	for (unsigned k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		pthread_mutexattr_init(&a);
		CHECK_EQ(pthread_mutexattr_settype(&a, types[k]), 0);
		CHECK_EQ(pthread_mutex_init(&counter_lock, &a), 0);
		counter = 0;
		CHECK_EQ(start_all(t, NTHREADS, add_under_mutex, 0), 0);
		CHECK_EQ(join_all(t, NTHREADS), 0);
		CHECK_EQ(counter, NTHREADS * ROUNDS);
		CHECK_EQ(pthread_mutex_destroy(&counter_lock), 0);
	}
	return 0;
}

static pthread_mutex_t held;

static void *try_held(void *arg)
{
	(void)arg;
	if (pthread_mutex_unlock(&held) != EPERM)
		return (void *)1;
	return (void *)(long)pthread_mutex_trylock(&held);
}

static int mutex_recursive(void)
{
	pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
	pthread_t t;
	void *r;

	WATCHDOG();
	held = m;
	for (int i = 0; i < 3; i++)
		CHECK_EQ(pthread_mutex_lock(&held), 0);
	CHECK_EQ(pthread_mutex_trylock(&held), 0);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(pthread_mutex_unlock(&held), 0);
		CHECK_EQ(pthread_create(&t, 0, try_held, 0), 0);
		CHECK_EQ(pthread_join(t, &r), 0);
		CHECK_EQ((long)r, EBUSY);		/* still held: depth 3 - i */
	}
	CHECK_EQ(pthread_mutex_unlock(&held), 0);
	CHECK_EQ(pthread_mutex_unlock(&held), EPERM);	/* not held any more */
	CHECK_EQ(pthread_create(&t, 0, try_held, 0), 0);
	CHECK_EQ(pthread_join(t, &r), 0);
	CHECK_EQ((long)r, 0);				/* free: the thread got it */
	return 0;
}

static int mutex_errorcheck(void)
{
	pthread_mutexattr_t a;
	pthread_t t;
	void *r;
	int type;

	WATCHDOG();
	pthread_mutexattr_init(&a);
	CHECK_EQ(pthread_mutexattr_settype(&a, 7), EINVAL);
	CHECK_EQ(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK), 0);
	CHECK_EQ(pthread_mutexattr_gettype(&a, &type), 0);
	CHECK_EQ(type, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&held, &a);
	CHECK_EQ(pthread_mutex_unlock(&held), EPERM);
	CHECK_EQ(pthread_mutex_lock(&held), 0);
	CHECK_EQ(pthread_mutex_lock(&held), EDEADLK);
	CHECK_EQ(pthread_mutex_trylock(&held), EBUSY);
	CHECK_EQ(pthread_mutex_destroy(&held), EBUSY);
	CHECK_EQ(pthread_create(&t, 0, try_held, 0), 0);	/* EPERM, then EBUSY */
	CHECK_EQ(pthread_join(t, &r), 0);
	CHECK_EQ((long)r, EBUSY);
	CHECK_EQ(pthread_mutex_unlock(&held), 0);
	CHECK_EQ(pthread_mutex_destroy(&held), 0);
	return 0;
}

static sem_t go, done;

/* Take held, tell the main thread, release it when told. */
static void *hold_until_told(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&held);
	sem_post(&done);
	sem_wait(&go);
	pthread_mutex_unlock(&held);
	return 0;
}

static int mutex_trylock_timedlock(void)
{
	struct timespec ts;
	long long t0;
	pthread_t t;

	WATCHDOG();
	pthread_mutex_init(&held, 0);
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	CHECK_EQ(pthread_create(&t, 0, hold_until_told, 0), 0);
	sem_wait(&done);
	CHECK_EQ(pthread_mutex_trylock(&held), EBUSY);
	t0 = utest_now_ns();
	ts = utest_deadline(CLOCK_REALTIME, 60);
	CHECK_EQ(pthread_mutex_timedlock(&held, &ts), ETIMEDOUT);
	CHECK(ms_since(t0) >= 55);
	ts.tv_nsec = 1000000000L;
	CHECK_EQ(pthread_mutex_timedlock(&held, &ts), EINVAL);
	sem_post(&go);
	ts = utest_deadline(CLOCK_REALTIME, 10000);
	t0 = utest_now_ns();
	CHECK_EQ(pthread_mutex_timedlock(&held, &ts), 0);
	CHECK(ms_since(t0) < 5000);
	CHECK_EQ(pthread_mutex_unlock(&held), 0);
	CHECK_EQ(pthread_join(t, 0), 0);
	return 0;
}

enum { QSIZE = 8, ITEMS = 20000 };
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER, not_full = PTHREAD_COND_INITIALIZER;
static int queue[QSIZE], qhead, qcount;

static void *produce(void *arg)
{
	for (int i = 0; i < ITEMS / 4; i++) {
		pthread_mutex_lock(&qlock);
		while (qcount == QSIZE)
			pthread_cond_wait(&not_full, &qlock);
		queue[(qhead + qcount++) % QSIZE] = (int)(long)arg * ITEMS + i;
		pthread_cond_signal(&not_empty);
		pthread_mutex_unlock(&qlock);
	}
	return 0;
}

static void *consume(void *arg)
{
	long long sum = 0;

	(void)arg;
	for (int i = 0; i < ITEMS / 4; i++) {
		pthread_mutex_lock(&qlock);
		while (qcount == 0)
			pthread_cond_wait(&not_empty, &qlock);
		sum += queue[qhead];
		qhead = (qhead + 1) % QSIZE;
		qcount--;
		if (i % 7 == 0)
			pthread_cond_broadcast(&not_full);
		else
			pthread_cond_signal(&not_full);
		pthread_mutex_unlock(&qlock);
	}
	return (void *)(long)(sum % 1000000007);
}

static int cond_producers_consumers(void)
{
	pthread_t p[4], c[4];
	long long want = 0, got = 0;
	void *r;

	WATCHDOG();
	for (int id = 0; id < 4; id++)
		for (int i = 0; i < ITEMS / 4; i++)
			want += id * ITEMS + i;
	CHECK_EQ(start_all(p, 4, produce, 0), 0);
	CHECK_EQ(start_all(c, 4, consume, 0), 0);
	CHECK_EQ(join_all(p, 4), 0);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(pthread_join(c[i], &r), 0);
		got += (long)r;
	}
	CHECK_EQ(got % 1000000007, want % 1000000007);
	CHECK_EQ(qcount, 0);
	return 0;
}

static int woken;

static void *wait_for_wake(void *arg)
{
	pthread_cond_t *c = arg;

	pthread_mutex_lock(&qlock);
	qcount++;
	pthread_cond_wait(c, &qlock);
	woken++;
	pthread_mutex_unlock(&qlock);
	return 0;
}

static int woken_now(void)
{
	int n;

	pthread_mutex_lock(&qlock);
	n = woken;
	pthread_mutex_unlock(&qlock);
	return n;
}

/* signal wakes exactly one waiter, broadcast all of those left. */
static int cond_signal_one_broadcast_all(void)
{
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	pthread_t t[NTHREADS];

	WATCHDOG();
	qcount = 0;
	for (int i = 0; i < NTHREADS; i++)
		CHECK_EQ(pthread_create(&t[i], 0, wait_for_wake, &c), 0);
	while (__atomic_load_n(&qcount, __ATOMIC_SEQ_CST) < NTHREADS)
		sleep_ms(1);
	pthread_mutex_lock(&qlock);	/* all are inside the wait once we hold it */
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&qlock);
	while (woken_now() < 1)
		sleep_ms(1);
	sleep_ms(50);			/* time for a second one to wake, wrongly */
	CHECK_EQ(woken_now(), 1);
	CHECK_EQ(pthread_cond_destroy(&c), EBUSY);
	pthread_mutex_lock(&qlock);
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&qlock);
	CHECK_EQ(join_all(t, NTHREADS), 0);
	CHECK_EQ(woken, NTHREADS);
	CHECK_EQ(pthread_cond_destroy(&c), 0);
	return 0;
}

/* One timed wait on cond with a deadline 60 ms ahead on clock: ETIMEDOUT, not early. */
static int timed_out_on(pthread_cond_t *c, clockid_t clock)
{
	struct timespec ts = utest_deadline(clock, 60);
	long long t0 = utest_now_ns(), ms;
	int r;

	pthread_mutex_lock(&qlock);
	r = pthread_cond_timedwait(c, &qlock, &ts);
	pthread_mutex_unlock(&qlock);
	ms = ms_since(t0);
	if (r != ETIMEDOUT || ms < 55 || ms > 5000) {
		utest_log("clock %d: %d after %lld ms", (int)clock, r, ms);
		return 1;
	}
	return 0;
}

static void *signal_soon(void *arg)
{
	sleep_ms(30);
	pthread_mutex_lock(&qlock);
	woken = 1;
	pthread_cond_signal(arg);
	pthread_mutex_unlock(&qlock);
	return 0;
}

/*
 * Deadlines on CLOCK_REALTIME (the default) and on CLOCK_MONOTONIC
 * (pthread_condattr_setclock).  Read on the wrong clock, the monotonic
 * deadline lies decades in the past (no wait at all) and the realtime one
 * decades ahead (the watchdog fires).
 */
static int cond_timedwait_clocks(void)
{
	pthread_cond_t rt = PTHREAD_COND_INITIALIZER, mono;
	pthread_condattr_t a;
	clockid_t clock;
	struct timespec ts;
	pthread_t t;

	WATCHDOG();
	pthread_condattr_init(&a);
	CHECK_EQ(pthread_condattr_getclock(&a, &clock), 0);
	CHECK_EQ(clock, CLOCK_REALTIME);
	CHECK_EQ(pthread_condattr_setclock(&a, 12345), EINVAL);
	CHECK_EQ(pthread_condattr_setclock(&a, CLOCK_MONOTONIC), 0);
	CHECK_EQ(pthread_condattr_getclock(&a, &clock), 0);
	CHECK_EQ(clock, CLOCK_MONOTONIC);
	CHECK_EQ(pthread_cond_init(&mono, &a), 0);
	CHECK_EQ(timed_out_on(&rt, CLOCK_REALTIME), 0);
	CHECK_EQ(timed_out_on(&mono, CLOCK_MONOTONIC), 0);
	/* woken before the deadline: 0 */
	woken = 0;
	CHECK_EQ(pthread_create(&t, 0, signal_soon, &mono), 0);
	ts = utest_deadline(CLOCK_MONOTONIC, 10000);
	pthread_mutex_lock(&qlock);
	while (!woken)
		CHECK_EQ(pthread_cond_timedwait(&mono, &qlock, &ts), 0);
	pthread_mutex_unlock(&qlock);
	CHECK_EQ(pthread_join(t, 0), 0);
	ts.tv_nsec = -1;
	pthread_mutex_lock(&qlock);
	CHECK_EQ(pthread_cond_timedwait(&rt, &qlock, &ts), EINVAL);
	pthread_mutex_unlock(&qlock);
	return 0;
}

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static volatile long pair_a, pair_b;
static pthread_barrier_t readers_in;

/* Readers hold the lock together: all four meet at a barrier inside it. */
static void *read_together(void *arg)
{
	long bad;

	(void)arg;
	if (pthread_rwlock_rdlock(&rw))
		return (void *)1;
	pthread_barrier_wait(&readers_in);
	bad = pthread_rwlock_trywrlock(&rw) != EBUSY;
	pthread_barrier_wait(&readers_in);
	pthread_rwlock_unlock(&rw);
	return (void *)bad;
}

static void *read_write_mix(void *arg)
{
	long writer = (long)arg & 1, bad = 0;

	for (int i = 0; i < 3000; i++) {
		if (writer) {
			pthread_rwlock_wrlock(&rw);
			pair_a++;
			if (i % 32 == 0)
				sched_yield();
			pair_b++;
		} else {
			pthread_rwlock_rdlock(&rw);
			pthread_rwlock_rdlock(&rw);	/* read locks nest */
			bad |= pair_a != pair_b;
			pthread_rwlock_unlock(&rw);
		}
		pthread_rwlock_unlock(&rw);
	}
	return (void *)bad;
}

static int rwlock_readers_writers(void)
{
	pthread_t t[NTHREADS];
	void *r;

	WATCHDOG();
	pthread_barrier_init(&readers_in, 0, 4);
	CHECK_EQ(start_all(t, 4, read_together, 0), 0);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(pthread_join(t[i], &r), 0);
		CHECK(r == 0);
	}
	CHECK_EQ(start_all(t, NTHREADS, read_write_mix, 0), 0);
	for (int i = 0; i < NTHREADS; i++) {
		CHECK_EQ(pthread_join(t[i], &r), 0);
		CHECK(r == 0);
	}
	CHECK_EQ(pair_a, 4 * 3000);
	CHECK_EQ(pair_b, pair_a);
	CHECK_EQ(pthread_rwlock_unlock(&rw), EPERM);
	CHECK_EQ(pthread_rwlock_wrlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_wrlock(&rw), EDEADLK);
	CHECK_EQ(pthread_rwlock_rdlock(&rw), EDEADLK);
	CHECK_EQ(pthread_rwlock_destroy(&rw), EBUSY);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	return 0;
}

static void *write_hold(void *arg)
{
	(void)arg;
	pthread_rwlock_wrlock(&rw);
	sem_post(&done);
	sem_wait(&go);
	pthread_rwlock_unlock(&rw);
	return 0;
}

static int rwlock_try_and_timed(void)
{
	struct timespec ts;
	long long t0;
	pthread_t t;

	WATCHDOG();
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	CHECK_EQ(pthread_create(&t, 0, write_hold, 0), 0);
	sem_wait(&done);
	CHECK_EQ(pthread_rwlock_tryrdlock(&rw), EBUSY);
	CHECK_EQ(pthread_rwlock_trywrlock(&rw), EBUSY);
	t0 = utest_now_ns();
	ts = utest_deadline(CLOCK_REALTIME, 50);
	CHECK_EQ(pthread_rwlock_timedrdlock(&rw, &ts), ETIMEDOUT);
	ts = utest_deadline(CLOCK_REALTIME, 50);
	CHECK_EQ(pthread_rwlock_timedwrlock(&rw, &ts), ETIMEDOUT);
	CHECK(ms_since(t0) >= 95);
	sem_post(&go);
	ts = utest_deadline(CLOCK_REALTIME, 10000);
	CHECK_EQ(pthread_rwlock_timedwrlock(&rw, &ts), 0);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_tryrdlock(&rw), 0);
	CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
	CHECK_EQ(pthread_join(t, 0), 0);
	CHECK_EQ(pthread_rwlock_destroy(&rw), 0);
	return 0;
}

enum { BROUNDS = 300 };
static pthread_barrier_t bar;
static volatile int arrived[BROUNDS], serials[BROUNDS];

static void *barrier_rounds(void *arg)
{
	long bad = 0;

	(void)arg;
	for (int r = 0; r < BROUNDS; r++) {
		__atomic_fetch_add(&arrived[r], 1, __ATOMIC_SEQ_CST);
		if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_fetch_add(&serials[r], 1, __ATOMIC_SEQ_CST);
		bad |= arrived[r] != NTHREADS;	/* nobody passes before all arrived */
	}
	return (void *)bad;
}

static int barrier_rounds_8(void)
{
	pthread_t t[NTHREADS];
	void *r;

	WATCHDOG();
	CHECK_EQ(pthread_barrier_init(&bar, 0, 0), EINVAL);
	CHECK_EQ(pthread_barrier_init(&bar, 0, NTHREADS), 0);
	CHECK_EQ(start_all(t, NTHREADS, barrier_rounds, 0), 0);
	for (int i = 0; i < NTHREADS; i++) {
		CHECK_EQ(pthread_join(t[i], &r), 0);
		CHECK(r == 0);
	}
	for (int i = 0; i < BROUNDS; i++)
		CHECK_EQ(serials[i], 1);
	CHECK_EQ(pthread_barrier_destroy(&bar), 0);
	return 0;
}

static pthread_spinlock_t spin;

static void *add_under_spin(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		pthread_spin_lock(&spin);
		long v = counter;
		counter = v + 1;
		pthread_spin_unlock(&spin);
	}
	return 0;
}

static int spinlock_contention(void)
{
	pthread_t t[NTHREADS];

	WATCHDOG();
	CHECK_EQ(pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE), 0);
	counter = 0;
	CHECK_EQ(start_all(t, NTHREADS, add_under_spin, 0), 0);
	CHECK_EQ(join_all(t, NTHREADS), 0);
	CHECK_EQ(counter, NTHREADS * ROUNDS);
	CHECK_EQ(pthread_spin_lock(&spin), 0);
	CHECK_EQ(pthread_spin_trylock(&spin), EBUSY);
	CHECK_EQ(pthread_spin_unlock(&spin), 0);
	CHECK_EQ(pthread_spin_trylock(&spin), 0);
	CHECK_EQ(pthread_spin_unlock(&spin), 0);
	return 0;
}

static void *semaphore_consumer(void *arg)
{
	long got = 0;

	for (int i = 0; i < 2500; i++)
		if (sem_wait(arg) == 0)
			got++;
	return (void *)got;
}

static int semaphores(void)
{
	pthread_t t[4];
	struct timespec ts;
	sem_t s;
	void *r;
	int v;

	WATCHDOG();
	CHECK_EQ(sem_init(&s, 0, 2), 0);
	CHECK_EQ(sem_trywait(&s), 0);
	CHECK_EQ(sem_getvalue(&s, &v), 0);
	CHECK_EQ(v, 1);
	CHECK_EQ(sem_wait(&s), 0);
	CHECK_ERR(sem_trywait(&s), EAGAIN);
	ts = utest_deadline(CLOCK_REALTIME, 40);
	CHECK_ERR(sem_timedwait(&s, &ts), ETIMEDOUT);
	CHECK_EQ(start_all(t, 4, semaphore_consumer, (void *[]){ &s, &s, &s, &s }), 0);
	for (int i = 0; i < 10000; i++)
		CHECK_EQ(sem_post(&s), 0);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(pthread_join(t[i], &r), 0);
		CHECK_EQ((long)r, 2500);
	}
	CHECK_EQ(sem_getvalue(&s, &v), 0);
	CHECK_EQ(v, 0);
	return 0;
}

static void *where_am_i(void *arg)
{
	*(char **)arg = __builtin_frame_address(0);	/* on the thread's stack */
	return 0;
}

static int attributes_and_stack(void)
{
	static char own_stack[128 * 1024] __attribute__((aligned(16)));
	pthread_attr_t a, got;
	size_t size;
	void *addr;
	char *local;
	pthread_t t;
	int state;

	WATCHDOG();
	pthread_attr_init(&a);
	CHECK_EQ(pthread_attr_getdetachstate(&a, &state), 0);
	CHECK_EQ(state, PTHREAD_CREATE_JOINABLE);
	CHECK_EQ(pthread_attr_setdetachstate(&a, 5), EINVAL);
	CHECK_EQ(pthread_attr_setstacksize(&a, 100), EINVAL);
	CHECK_EQ(pthread_attr_setstacksize(&a, 96 * 1024), 0);
	CHECK_EQ(pthread_attr_getstacksize(&a, &size), 0);
	CHECK_EQ(size, 96 * 1024);
	CHECK_EQ(pthread_create(&t, &a, where_am_i, &local), 0);
	CHECK_EQ(pthread_getattr_np(t, &got), 0);
	CHECK_EQ(pthread_attr_getstack(&got, &addr, &size), 0);
	CHECK_EQ(pthread_join(t, 0), 0);
	CHECK(size >= 96 * 1024 && size < 128 * 1024);
	CHECK(local > (char *)addr && local < (char *)addr + size);
	CHECK_EQ(pthread_attr_setstack(&a, own_stack, sizeof(own_stack)), 0);
	CHECK_EQ(pthread_create(&t, &a, where_am_i, &local), 0);
	CHECK_EQ(pthread_join(t, 0), 0);
	CHECK(local > own_stack && local < own_stack + sizeof(own_stack));
	CHECK_EQ(pthread_attr_setscope(&a, PTHREAD_SCOPE_PROCESS), ENOTSUP);
	CHECK_EQ(pthread_attr_destroy(&a), 0);
	return 0;
}

static void *write_below_stack(void *arg)
{
	pthread_attr_t a;
	size_t size;
	char *low;

	(void)arg;
	pthread_getattr_np(pthread_self(), &a);
	pthread_attr_getstack(&a, (void **)&low, &size);
	low[-1] = 1;			/* the guard page */
	return 0;
}

/* One byte under a thread's stack is its guard page: SIGSEGV. */
static int guard_page(void)
{
	pthread_t t;
	pid_t pid;
	int st;

	WATCHDOG();
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		if (pthread_create(&t, 0, write_below_stack, 0) == 0)
			pthread_join(t, 0);
		_exit(0);
	}
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	return 0;
}

static volatile int cleanup_ran, cleanup_had_mutex;
static pthread_mutex_t cmutex;

static void cond_cleanup(void *arg)
{
	(void)arg;
	cleanup_had_mutex = pthread_mutex_unlock(&cmutex) == 0;	/* error-checking: ours? */
	cleanup_ran++;
}

static void *wait_forever(void *arg)
{
	pthread_mutex_lock(&cmutex);
	pthread_cleanup_push(cond_cleanup, 0);
	sem_post(&done);
	for (;;)
		pthread_cond_wait(arg, &cmutex);
	pthread_cleanup_pop(1);
	return 0;
}

static void *spin_testcancel(void *arg)
{
	(void)arg;
	sem_post(&done);
	for (;;)
		pthread_testcancel();
	return 0;
}

static void *block_in(void *arg)
{
	sem_post(&done);
	if (arg == (void *)1)
		pause();
	else if (arg == (void *)2)
		sem_wait(&go);
	else
		pthread_join((pthread_t)arg, 0);
	return 0;
}

static int cancelled(pthread_t t)
{
	void *r = 0;

	return pthread_cancel(t) == 0 && pthread_join(t, &r) == 0 && r == PTHREAD_CANCELED;
}

/* Deferred cancellation: in a condition wait (cleanup with the mutex held), at
 * testcancel, in pause, sem_wait and pthread_join. */
static int cancel_deferred(void)
{
	pthread_mutexattr_t a;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	pthread_t t, inner;

	WATCHDOG();
	sem_init(&done, 0, 0);
	sem_init(&go, 0, 0);
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&cmutex, &a);
	CHECK_EQ(pthread_create(&t, 0, wait_forever, &c), 0);
	sem_wait(&done);
	CHECK(cancelled(t));
	CHECK_EQ(cleanup_ran, 1);
	CHECK(cleanup_had_mutex);
	CHECK_EQ(pthread_mutex_trylock(&cmutex), 0);		/* and it was given back */
	CHECK_EQ(pthread_create(&t, 0, spin_testcancel, 0), 0);
	sem_wait(&done);
	CHECK(cancelled(t));
	for (long how = 1; how <= 2; how++) {
		CHECK_EQ(pthread_create(&t, 0, block_in, (void *)how), 0);
		sem_wait(&done);
		sleep_ms(20);		/* asleep in pause / sem_wait by now */
		CHECK(cancelled(t));
	}
	CHECK_EQ(pthread_create(&inner, 0, block_in, (void *)2), 0);
	sem_wait(&done);
	CHECK_EQ(pthread_create(&t, 0, block_in, inner), 0);
	sem_wait(&done);
	sleep_ms(20);
	CHECK(cancelled(t));
	CHECK(cancelled(inner));	/* a cancelled join left inner joinable */
	return 0;
}

static volatile int cancel_stage;

static void *disable_then_enable(void *arg)
{
	(void)arg;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, 0);
	sem_post(&done);
	sem_wait(&go);			/* cancelled meanwhile: nothing happens */
	cancel_stage = 1;
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, 0);
	cancel_stage = 2;		/* deferred: still running */
	pthread_testcancel();
	cancel_stage = 3;
	return 0;
}

static void *async_spin(void *arg)
{
	(void)arg;
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, 0);
	sem_post(&done);
	for (volatile unsigned i = 0;; i++)
		;
	return 0;
}

static int cancel_state_and_async(void)
{
	pthread_t t;
	int old;

	WATCHDOG();
	sem_init(&done, 0, 0);
	sem_init(&go, 0, 0);
	CHECK_EQ(pthread_setcancelstate(9, &old), EINVAL);
	CHECK_EQ(pthread_setcanceltype(9, &old), EINVAL);
	CHECK_EQ(pthread_create(&t, 0, disable_then_enable, 0), 0);
	sem_wait(&done);
	CHECK_EQ(pthread_cancel(t), 0);
	sem_post(&go);
	CHECK(cancelled(t));
	CHECK_EQ(cancel_stage, 2);
	CHECK_EQ(pthread_create(&t, 0, async_spin, 0), 0);
	sem_wait(&done);
	CHECK(cancelled(t));
	return 0;
}

/*
 * A cancel that arrives just as a blocking call completes must not take the
 * call's result with the thread: the bytes a read took are returned to the
 * program (counted) or still in the pipe, the child a waitpid reaped is
 * counted or still waitable.  Many rounds, the cancel sent a random few
 * spins after the event that ends the wait.  Before the stub (syscall_cp.S),
 * the handler ended a thread woken with its result in hand.
 */
#define RACE_ROUNDS	2000
#define RACE_BYTES	24

/* Cancel t and join it: 1 when it ended as cancelled. */
static int race_cancel_join(pthread_t t, unsigned spin)
{
	void *res = 0;

	utest_spin_random(spin);
	return pthread_cancel(t) == 0 && pthread_join(t, &res) == 0 && res == PTHREAD_CANCELED;
}

struct pipe_race {
	int fds[2];
	volatile int got;	/* bytes the reader's read() returned */
	int by_read;		/* rounds whose bytes read() returned */
};

static void *pipe_race_reader(void *arg)
{
	struct pipe_race *r = arg;
	char buf[RACE_BYTES];
	ssize_t n;

	sem_post(&done);
	for (;;)
		if ((n = read(r->fds[0], buf, sizeof(buf))) > 0)
			r->got += (int)n;
	return 0;
}

/* What is left in the pipe, taken out (nobody else reads it now). */
static int pipe_left(int fd)
{
	char buf[RACE_BYTES];
	int left = 0;
	ssize_t n;

	fcntl(fd, F_SETFL, O_NONBLOCK);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		left += (int)n;
	fcntl(fd, F_SETFL, 0);
	return left;
}

/* One round: RACE_BYTES written, then the cancel; the bytes nobody has
 * (neither the program nor the pipe), or -1 when the round went wrong. */
static int pipe_race_round(struct pipe_race *r)
{
	char buf[RACE_BYTES] = "twenty-four bytes, a lot";
	pthread_t t;

	r->got = 0;
	if (pthread_create(&t, 0, pipe_race_reader, r))
		return -1;
	sem_wait(&done);
	utest_spin_random(100);
	if (write(r->fds[1], buf, RACE_BYTES) != RACE_BYTES || !race_cancel_join(t, 300))
		return -1;
	r->by_read += r->got > 0;
	return RACE_BYTES - r->got - pipe_left(r->fds[0]);
}

#define QUEUED_EXITS	300	/* threads ending with a signal queued: more than the 256 slots */

/* Block SIGRTMIN + 3, say so, and end when told (its signal still queued). */
static void *exit_with_signal_queued(void *arg)
{
	sigset_t m;

	(void)arg;
	sigemptyset(&m);
	sigaddset(&m, SIGRTMIN + 3);
	pthread_sigmask(SIG_BLOCK, &m, 0);
	sem_post(&done);
	sem_wait(&go);
	return 0;
}

/* A thread that ends with real-time signals still queued to it gives their
 * queue slots back to the process: after 300 such threads (the process may
 * queue 256) pthread_kill and sigqueue still queue, and so pthread_cancel
 * still reaches a thread blocked in a system call. Before the fix every
 * real-time signal failed with EAGAIN from the 257th thread on. */
static int exited_threads_give_queue_slots_back(void)
{
	union sigval v = { .sival_int = 7 };
	struct timespec ts = { 1, 0 };
	siginfo_t si;
	sigset_t m;
	pthread_t t;

	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	for (int i = 0; i < QUEUED_EXITS; i++) {
		CHECK_EQ(pthread_create(&t, 0, exit_with_signal_queued, 0), 0);
		sem_wait(&done);
		CHECK_EQ(pthread_kill(t, SIGRTMIN + 3), 0);	/* queued: it blocks it */
		CHECK_EQ(pthread_kill(t, SIGRTMIN + 3), 0);
		sem_post(&go);
		CHECK_EQ(pthread_join(t, 0), 0);
	}
	sigemptyset(&m);
	sigaddset(&m, SIGRTMIN + 4);
	CHECK_EQ(pthread_sigmask(SIG_BLOCK, &m, 0), 0);
	for (int i = 0; i < 200; i++)
		CHECK_EQ(sigqueue(getpid(), SIGRTMIN + 4, v), 0);
	for (int i = 0; i < 200; i++)
		CHECK_EQ(sigtimedwait(&m, &si, &ts), SIGRTMIN + 4);
	CHECK_EQ(pthread_sigmask(SIG_UNBLOCK, &m, 0), 0);
	return 0;
}

static int cancel_keeps_read_bytes(void)
{
	struct pipe_race r = { .by_read = 0 };
	int lost = 0, n;

	alarm(200);
	sem_init(&done, 0, 0);
	CHECK_EQ(pipe(r.fds), 0);
	for (int i = 0; i < RACE_ROUNDS; i++) {
		CHECK((n = pipe_race_round(&r)) >= 0);
		lost += n;
	}
	utest_log("%d rounds of %d bytes: %d bytes lost; read() returned them in %d rounds, "
		  "the pipe kept them in the others", RACE_ROUNDS, RACE_BYTES, lost, r.by_read);
	CHECK_EQ(lost, 0);
	return 0;
}

struct wait_race {
	volatile pid_t child;
	volatile int reaped;	/* times the reaper's waitpid returned the child */
	int by_thread;		/* rounds the cancelled thread reaped the child */
};

static void *wait_race_reaper(void *arg)
{
	struct wait_race *r = arg;

	sem_post(&done);
	for (;;)
		if (waitpid(r->child, 0, 0) == r->child)
			r->reaped++;
	return 0;
}

/* One round: a child killed, then the cancel; 1 when nobody reaped the
 * child (lost), 0 when exactly one did, -1 when the round went wrong. */
static int wait_race_round(struct wait_race *r)
{
	pid_t still;
	pthread_t t;

	r->reaped = 0;
	r->child = fork();
	if (r->child < 0)
		return -1;
	if (r->child == 0)
		for (;;)
			pause();
	if (pthread_create(&t, 0, wait_race_reaper, r))
		return -1;
	sem_wait(&done);
	utest_spin_random(100);
	if (kill(r->child, SIGKILL) || !race_cancel_join(t, 300))
		return -1;
	still = waitpid(r->child, 0, 0);	/* the child is dead or dying: no wait */
	if (r->reaped + (still == r->child) > 1)
		return -1;
	r->by_thread += r->reaped;
	return r->reaped + (still == r->child) == 0;
}

static int cancel_keeps_reaped_child(void)
{
	struct wait_race r = { .by_thread = 0 };
	int lost = 0, n;

	alarm(200);
	sem_init(&done, 0, 0);
	for (int i = 0; i < RACE_ROUNDS / 2; i++) {
		CHECK((n = wait_race_round(&r)) >= 0);
		lost += n;
	}
	utest_log("%d rounds: %d children lost; the cancelled thread reaped %d, the main "
		  "thread the others", RACE_ROUNDS / 2, lost, r.by_thread);
	CHECK_EQ(lost, 0);
	return 0;
}

/*
 * Every cancellation point of pthread(3), one run each way: a cancel pending
 * when the call starts ends the thread there (the call not made: open
 * creates no file, close leaves the descriptor open, write puts nothing in
 * the pipe); a cancel sent while the thread blocks in it ends the thread too;
 * with cancellation disabled the call completes and the thread ends at the
 * pthread_testcancel after it.  Each way the cleanup handler ran and join
 * sees PTHREAD_CANCELED.
 */
#define CP_FILE		"cp_test.tmp"

struct cp_env {
	int fds[2];		/* a pipe, empty at the start */
	int fd;			/* for close */
	int file;		/* a regular file, for fsync */
	void *page;		/* an anonymous page, for msync */
	pthread_mutex_t m;
	pthread_cond_t c;
	sem_t s;
	sem_t helper_go;	/* ends the helper thread, which join waits for */
	pthread_t helper;
	int helper_joined;	/* by the thread under test */
	pthread_t self;		/* the thread under test */
	int finish;		/* the call must complete (cancellation disabled) */
};

enum { CP_PENDING, CP_BLOCKED, CP_DISABLED };

/* What a call that ran leaves behind: a cancel before it leaves none. */
enum { CP_FX_NONE, CP_FX_FILE, CP_FX_CLOSED, CP_FX_PIPE };

struct cp_call {
	const char *name;
	long (*call)(struct cp_env *e);		/* 0: completed as expected */
	int effect;				/* CP_FX_* */
	int blocks;				/* can wait until cancelled */
	void (*kick)(struct cp_env *e);		/* makes a disabled call complete */
};

static void *cp_helper(void *arg)
{
	sem_wait(&((struct cp_env *)arg)->helper_go);
	return 0;
}

static int cp_env_init(struct cp_env *e, int finish)
{
	memset(e, 0, sizeof(*e));
	e->finish = finish;
	unlink(CP_FILE);
	e->page = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pipe(e->fds) || (e->fd = open("/dev/null", O_RDONLY)) < 0 || e->page == MAP_FAILED ||
	    (e->file = open(CP_FILE ".sync", O_RDWR | O_CREAT, 0600)) < 0)
		return -1;
	pthread_mutex_init(&e->m, 0);
	pthread_cond_init(&e->c, 0);
	sem_init(&e->s, 0, 0);
	sem_init(&e->helper_go, 0, 0);
	return pthread_create(&e->helper, 0, cp_helper, e);
}

/* The call's effect is there exactly when it ran (ran), then everything goes. */
static int cp_env_fini(struct cp_env *e, int effect, int ran)
{
	int file_there = access(CP_FILE, F_OK) == 0, fd_open = fcntl(e->fd, F_GETFD) != -1;
	struct pollfd p = { e->fds[0], POLLIN, 0 };
	int in_pipe = poll(&p, 1, 0) == 1;

	sem_post(&e->helper_go);
	if (!e->helper_joined)
		pthread_join(e->helper, 0);
	unlink(CP_FILE);
	unlink(CP_FILE ".sync");
	close(e->file);
	if (fd_open)
		close(e->fd);
	close(e->fds[0]);
	close(e->fds[1]);
	munmap(e->page, 4096);
	if (effect == CP_FX_NONE)
		return 0;
	CHECK_EQ(file_there, effect == CP_FX_FILE && ran);
	CHECK_EQ(fd_open, !(effect == CP_FX_CLOSED && ran));
	CHECK_EQ(in_pipe, effect == CP_FX_PIPE && ran);
	return 0;
}

static long cp_open(struct cp_env *e)
{
	(void)e;
	return open(CP_FILE, O_WRONLY | O_CREAT, 0600) >= 0 ? 0 : -1;
}

static long cp_openat(struct cp_env *e)
{
	(void)e;
	return openat(AT_FDCWD, CP_FILE, O_WRONLY | O_CREAT, 0600) >= 0 ? 0 : -1;
}

static long cp_creat(struct cp_env *e)
{
	(void)e;
	return creat(CP_FILE, 0600) >= 0 ? 0 : -1;
}

static long cp_close(struct cp_env *e)
{
	return close(e->fd);
}

static long cp_fsync(struct cp_env *e)
{
	return fsync(e->file);
}

static long cp_fdatasync(struct cp_env *e)
{
	return fdatasync(e->file);
}

static long cp_msync(struct cp_env *e)
{
	return msync(e->page, 4096, MS_SYNC);
}

static long cp_write(struct cp_env *e)
{
	return write(e->fds[1], "w", 1) == 1 ? 0 : -1;
}

/* For the waits on the pipe: when the call must complete, a byte is there. */
static void cp_byte_if_finish(struct cp_env *e)
{
	if (e->finish && write(e->fds[1], "x", 1) != 1)
		abort();
}

static long cp_read(struct cp_env *e)
{
	char b;

	cp_byte_if_finish(e);
	return read(e->fds[0], &b, 1) == 1 ? 0 : -1;
}

static long cp_poll(struct cp_env *e)
{
	struct pollfd p = { e->fds[0], POLLIN, 0 };

	cp_byte_if_finish(e);
	return poll(&p, 1, -1) == 1 ? 0 : -1;
}

static long cp_ppoll(struct cp_env *e)
{
	struct pollfd p = { e->fds[0], POLLIN, 0 };

	cp_byte_if_finish(e);
	return ppoll(&p, 1, 0, 0) == 1 ? 0 : -1;
}

static long cp_select(struct cp_env *e)
{
	fd_set rd;

	cp_byte_if_finish(e);
	FD_ZERO(&rd);
	FD_SET(e->fds[0], &rd);
	return select(e->fds[0] + 1, &rd, 0, 0, 0) == 1 ? 0 : -1;
}

static long cp_pselect(struct cp_env *e)
{
	fd_set rd;

	cp_byte_if_finish(e);
	FD_ZERO(&rd);
	FD_SET(e->fds[0], &rd);
	return pselect(e->fds[0] + 1, &rd, 0, 0, 0, 0) == 1 ? 0 : -1;
}

static long cp_nanosleep(struct cp_env *e)
{
	struct timespec ts = { e->finish ? 0 : 100, 1000000 };

	return nanosleep(&ts, 0);
}

static long cp_clock_nanosleep(struct cp_env *e)
{
	struct timespec ts = { e->finish ? 0 : 100, 1000000 };

	return clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, 0);
}

static long cp_sleep(struct cp_env *e)
{
	return sleep(e->finish ? 0 : 100);
}

static long cp_usleep(struct cp_env *e)
{
	return usleep(e->finish ? 1000 : 999999);
}

/* pause and sigsuspend complete when a handled SIGUSR1 comes (the kick). */
static void cp_nothing(int sig)
{
	(void)sig;
}

static void cp_kick_signal(struct cp_env *e)
{
	pthread_kill(e->self, SIGUSR1);
}

static long cp_pause(struct cp_env *e)
{
	(void)e;
	return pause() == -1 && errno == EINTR ? 0 : -1;
}

static long cp_sigsuspend(struct cp_env *e)
{
	sigset_t none;

	(void)e;
	sigemptyset(&none);
	return sigsuspend(&none) == -1 && errno == EINTR ? 0 : -1;
}

/* The signal waits take SIGUSR2 (blocked in the thread): sent first when the
 * call must complete. */
static void cp_usr2(struct cp_env *e, sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGUSR2);
	if (e->finish)
		pthread_kill(pthread_self(), SIGUSR2);
}

static long cp_sigwait(struct cp_env *e)
{
	sigset_t set;
	int sig = 0;

	cp_usr2(e, &set);
	return sigwait(&set, &sig) == 0 && sig == SIGUSR2 ? 0 : -1;
}

static long cp_sigwaitinfo(struct cp_env *e)
{
	sigset_t set;

	cp_usr2(e, &set);
	return sigwaitinfo(&set, 0) == SIGUSR2 ? 0 : -1;
}

static long cp_sigtimedwait(struct cp_env *e)
{
	struct timespec ts = { 100, 0 };
	sigset_t set;

	cp_usr2(e, &set);
	return sigtimedwait(&set, 0, &ts) == SIGUSR2 ? 0 : -1;
}

static void cp_unlock(void *m)
{
	pthread_mutex_unlock(m);
}

static void cp_kick_cond(struct cp_env *e)
{
	pthread_mutex_lock(&e->m);
	pthread_cond_broadcast(&e->c);
	pthread_mutex_unlock(&e->m);
}

/* A cancelled waiter holds the mutex again: its cleanup handler unlocks it. */
static long cp_cond_wait(struct cp_env *e)
{
	long r;

	pthread_mutex_lock(&e->m);
	pthread_cleanup_push(cp_unlock, &e->m);
	r = pthread_cond_wait(&e->c, &e->m);
	pthread_cleanup_pop(1);
	return r;
}

static long cp_cond_timedwait(struct cp_env *e)
{
	struct timespec when = utest_deadline(CLOCK_REALTIME, e->finish ? -10 : 100000);
	long r;

	pthread_mutex_lock(&e->m);
	pthread_cleanup_push(cp_unlock, &e->m);
	r = pthread_cond_timedwait(&e->c, &e->m, &when);
	pthread_cleanup_pop(1);
	return r == (e->finish ? ETIMEDOUT : 0) ? 0 : -1;
}

static long cp_sem_wait(struct cp_env *e)
{
	if (e->finish)
		sem_post(&e->s);
	return sem_wait(&e->s);
}

static long cp_sem_timedwait(struct cp_env *e)
{
	struct timespec when = utest_deadline(CLOCK_REALTIME, 100000);

	if (e->finish)
		sem_post(&e->s);
	return sem_timedwait(&e->s, &when);
}

static void cp_kick_helper(struct cp_env *e)
{
	sem_post(&e->helper_go);
}

static long cp_join(struct cp_env *e)
{
	if (pthread_join(e->helper, 0))
		return -1;
	e->helper_joined = 1;
	return 0;
}

static long cp_testcancel(struct cp_env *e)
{
	(void)e;
	pthread_testcancel();
	return 0;
}

static const struct cp_call cp_calls[] = {
	{ "open", cp_open, CP_FX_FILE, 0, 0 },
	{ "openat", cp_openat, CP_FX_FILE, 0, 0 },
	{ "creat", cp_creat, CP_FX_FILE, 0, 0 },
	{ "close", cp_close, CP_FX_CLOSED, 0, 0 },
	{ "fsync", cp_fsync, CP_FX_NONE, 0, 0 },
	{ "fdatasync", cp_fdatasync, CP_FX_NONE, 0, 0 },
	{ "msync", cp_msync, CP_FX_NONE, 0, 0 },
	{ "write", cp_write, CP_FX_PIPE, 0, 0 },
	{ "read", cp_read, CP_FX_NONE, 1, 0 },
	{ "poll", cp_poll, CP_FX_NONE, 1, 0 },
	{ "ppoll", cp_ppoll, CP_FX_NONE, 1, 0 },
	{ "select", cp_select, CP_FX_NONE, 1, 0 },
	{ "pselect", cp_pselect, CP_FX_NONE, 1, 0 },
	{ "nanosleep", cp_nanosleep, CP_FX_NONE, 1, 0 },
	{ "clock_nanosleep", cp_clock_nanosleep, CP_FX_NONE, 1, 0 },
	{ "sleep", cp_sleep, CP_FX_NONE, 1, 0 },
	{ "usleep", cp_usleep, CP_FX_NONE, 1, 0 },
	{ "pause", cp_pause, CP_FX_NONE, 1, cp_kick_signal },
	{ "sigsuspend", cp_sigsuspend, CP_FX_NONE, 1, cp_kick_signal },
	{ "sigwait", cp_sigwait, CP_FX_NONE, 1, 0 },
	{ "sigwaitinfo", cp_sigwaitinfo, CP_FX_NONE, 1, 0 },
	{ "sigtimedwait", cp_sigtimedwait, CP_FX_NONE, 1, 0 },
	{ "pthread_cond_wait", cp_cond_wait, CP_FX_NONE, 1, cp_kick_cond },
	{ "pthread_cond_timedwait", cp_cond_timedwait, CP_FX_NONE, 1, 0 },
	{ "sem_wait", cp_sem_wait, CP_FX_NONE, 1, 0 },
	{ "sem_timedwait", cp_sem_timedwait, CP_FX_NONE, 1, 0 },
	{ "pthread_join", cp_join, CP_FX_NONE, 1, cp_kick_helper },
	{ "pthread_testcancel", cp_testcancel, CP_FX_NONE, 0, 0 },
};

struct cp_run {
	const struct cp_call *c;
	struct cp_env *e;
	int mode;
	volatile int go, returned, cleanup_ran;
	volatile long result;
};

static void cp_cleanup(void *arg)
{
	((struct cp_run *)arg)->cleanup_ran = 1;
}

static void *cp_thread(void *arg)
{
	struct cp_run *r = arg;
	sigset_t usr2;

	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &usr2, 0);
	pthread_cleanup_push(cp_cleanup, r);
	if (r->mode == CP_DISABLED)
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, 0);
	sem_post(&done);
	while (r->mode != CP_BLOCKED && !r->go)
		sched_yield();		/* until the cancel is pending */
	r->result = r->c->call(r->e);
	r->returned = 1;
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, 0);
	pthread_testcancel();
	pthread_cleanup_pop(0);
	return 0;
}

/* One run of call c: 0, or 1 after a failed check. */
static int cp_run_one(const struct cp_call *c, int mode)
{
	struct cp_env e;
	struct cp_run r = { c, &e, mode, 0, 0, 0, 0 };
	void *res = 0;
	pthread_t t;
	int joinable;

	CHECK_EQ(cp_env_init(&e, mode == CP_DISABLED), 0);
	CHECK_EQ(pthread_create(&t, 0, cp_thread, &r), 0);
	e.self = t;
	sem_wait(&done);
	if (mode == CP_BLOCKED)
		sleep_ms(20);		/* asleep in the call by now */
	CHECK_EQ(pthread_cancel(t), 0);
	r.go = 1;
	while (mode == CP_DISABLED && c->kick && !r.returned) {
		sleep_ms(5);
		c->kick(&e);
	}
	CHECK_EQ(pthread_join(t, &res), 0);
	/* a cancelled join left the helper joinable (cp_env_fini joins it) */
	joinable = e.helper_joined || pthread_kill(e.helper, 0) == 0;
	CHECK_EQ(cp_env_fini(&e, c->effect, mode == CP_DISABLED), 0);
	CHECK(res == PTHREAD_CANCELED);
	CHECK(r.cleanup_ran);
	CHECK_EQ(r.returned, mode == CP_DISABLED);
	if (mode == CP_DISABLED)
		CHECK_EQ(r.result, 0);
	CHECK(joinable);
	return 0;
}

/* Every cancellation point in one mode; the failed ones named. */
static int cp_all(int mode)
{
	struct sigaction sa;
	int bad = 0;

	alarm(120);
	sem_init(&done, 0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cp_nothing;
	sigaction(SIGUSR1, &sa, 0);
	for (unsigned i = 0; i < sizeof(cp_calls) / sizeof(cp_calls[0]); i++) {
		if (mode == CP_BLOCKED && !cp_calls[i].blocks)
			continue;
		if (cp_run_one(&cp_calls[i], mode)) {
			utest_log("%s: failed", cp_calls[i].name);
			bad++;
		}
	}
	CHECK_EQ(bad, 0);
	return 0;
}

/* A cancel pending as the call starts: the thread ends there, the call not made. */
static int cancel_points_pending(void)
{
	return cp_all(CP_PENDING);
}

/* A cancel while the thread blocks in the call. */
static int cancel_points_blocked(void)
{
	return cp_all(CP_BLOCKED);
}

/* Cancellation disabled: the call completes, the thread ends at the testcancel after. */
static int cancel_points_disabled(void)
{
	return cp_all(CP_DISABLED);
}

static volatile pthread_t handled_by;
static volatile int handled;

static void note_thread(int sig)
{
	(void)sig;
	handled_by = pthread_self();
	handled++;
}

static void *masked_then_unmasked(void *arg)
{
	sigset_t s, pend;
	long bad = 0;

	(void)arg;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, 0);
	sem_post(&done);
	sem_wait(&go);			/* main sent SIGUSR1 to us */
	sigpending(&pend);
	bad |= !sigismember(&pend, SIGUSR1) || handled;
	pthread_sigmask(SIG_UNBLOCK, &s, 0);	/* delivered here, now */
	bad |= handled != 1 || !pthread_equal(handled_by, pthread_self());
	return (void *)bad;
}

/* A thread-directed signal waits in that thread's mask and runs its handler there. */
static int sigmask_and_kill(void)
{
	sigset_t pend;
	pthread_t t;
	void *r;

	WATCHDOG();
	sem_init(&done, 0, 0);
	sem_init(&go, 0, 0);
	signal(SIGUSR1, note_thread);
	CHECK_EQ(pthread_create(&t, 0, masked_then_unmasked, 0), 0);
	sem_wait(&done);
	CHECK_EQ(pthread_kill(t, 0), 0);
	CHECK_EQ(pthread_kill(t, 12345), EINVAL);
	CHECK_EQ(pthread_kill(t, SIGUSR1), 0);
	sigpending(&pend);
	CHECK(!sigismember(&pend, SIGUSR1));	/* pending in the thread, not here */
	sem_post(&go);
	CHECK_EQ(pthread_join(t, &r), 0);
	CHECK(r == 0);
	CHECK_EQ(handled, 1);
	return 0;
}

static void *exit_process(void *arg)
{
	(void)arg;
	exit(7);
}

static int pipe_fd;

static void at_exit_mark(void)
{
	write(pipe_fd, "A", 1);
}

static void *late_writer(void *arg)
{
	(void)arg;
	sleep_ms(50);
	write(pipe_fd, "T", 1);
	return 0;
}

/* exit() from a thread ends the process; pthread_exit in main lets the others
 * finish, and the last one out runs the atexit handlers with status 0. */
static int exit_semantics(void)
{
	char buf[4] = { 0 };
	int fds[2], st;
	pthread_t t;
	pid_t pid;

	WATCHDOG();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pthread_create(&t, 0, exit_process, 0);
		pthread_join(t, 0);
		_exit(1);
	}
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 7);
	CHECK_EQ(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		pipe_fd = fds[1];
		atexit(at_exit_mark);
		pthread_create(&t, 0, late_writer, 0);
		pthread_exit(0);
	}
	close(fds[1]);
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ(read(fds[0], buf, 3), 2);
	CHECK(!strcmp(buf, "TA"));
	return 0;
}

struct shared_area {
	pthread_mutex_t	m;
	pthread_cond_t	c;
	long		count;
	int		checked, ready;
};

static void shared_add(struct shared_area *a, int n)
{
	for (int i = 0; i < n; i++) {
		pthread_mutex_lock(&a->m);
		long v = a->count;
		if (i % 64 == 0)
			sched_yield();
		a->count = v + 1;
		pthread_mutex_unlock(&a->m);
	}
}

/* Process-shared mutex and condition variable in a MAP_SHARED page, two
 * processes (recursive mutex: owners by tid, which differ across a fork). */
/* Named semaphores: O_CREAT | O_EXCL makes one with its value (EEXIST a second
 * time), opening it again gives the same address, a forked child's sem_post
 * wakes the parent's sem_wait (a shared futex), sem_close and sem_unlink end
 * it (ENOENT after); bad names and values EINVAL. */
static int named_semaphores(void)
{
	sem_t *s, *again;
	int v, st;
	pid_t pid;

	sem_unlink("/ut_named");			/* left by an earlier run: gone */
	s = sem_open("/ut_named", O_CREAT | O_EXCL, 0600, 2);
	CHECK(s != SEM_FAILED);
	CHECK(sem_open("/ut_named", O_CREAT | O_EXCL, 0600, 0) == SEM_FAILED && errno == EEXIST);
	again = sem_open("/ut_named", 0);
	CHECK(again == s);				/* one name, one address */
	CHECK(sem_open("/ut_named", O_CREAT, 0600, 9) == s);	/* exists: the value stays */
	CHECK_EQ(sem_getvalue(s, &v), 0);
	CHECK_EQ(v, 2);
	CHECK_EQ(sem_wait(s), 0);
	CHECK_EQ(sem_wait(s), 0);
	pid = fork();
	if (pid == 0) {
		sem_t *c = sem_open("/ut_named", 0);
		usleep(50000);
		_exit(c == SEM_FAILED || sem_post(c) || sem_close(c) ? 1 : 0);
	}
	CHECK_EQ(sem_wait(s), 0);			/* woken by the child's post */
	CHECK_EQ(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ(sem_close(s), 0);
	CHECK_EQ(sem_close(again), 0);
	CHECK_EQ(sem_close(s), 0);			/* the third open */
	CHECK_ERR(sem_close(s), EINVAL);		/* closed */
	CHECK_EQ(sem_unlink("/ut_named"), 0);
	CHECK(sem_open("/ut_named", 0) == SEM_FAILED && errno == ENOENT);
	CHECK_ERR(sem_unlink("/ut_named"), ENOENT);
	CHECK(sem_open("noslash", O_CREAT, 0600, 1) == SEM_FAILED && errno == EINVAL);
	CHECK(sem_open("/a/b", O_CREAT, 0600, 1) == SEM_FAILED && errno == EINVAL);
	CHECK(sem_open("/ut_big", O_CREAT, 0600, (unsigned)SEM_VALUE_MAX + 1) == SEM_FAILED &&
	      errno == EINVAL);
	return 0;
}

static int process_shared(void)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	struct shared_area *a;
	pid_t pid;
	int v;

	WATCHDOG();
	a = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(a != MAP_FAILED);
	pthread_mutexattr_init(&ma);
	CHECK_EQ(pthread_mutexattr_setpshared(&ma, 7), EINVAL);
	CHECK_EQ(pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED), 0);
	CHECK_EQ(pthread_mutexattr_getpshared(&ma, &v), 0);
	CHECK_EQ(v, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_condattr_init(&ca);
	CHECK_EQ(pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED), 0);
	pthread_mutex_init(&a->m, &ma);
	pthread_cond_init(&a->c, &ca);
	pthread_mutex_lock(&a->m);		/* held across the fork by the parent */
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		int r = pthread_mutex_trylock(&a->m);	/* another tid holds it: EBUSY */

		if (r == 0)
			pthread_mutex_unlock(&a->m);
		__atomic_store_n(&a->checked, 1, __ATOMIC_SEQ_CST);
		pthread_mutex_lock(&a->m);
		a->ready = 1;
		pthread_cond_signal(&a->c);
		pthread_mutex_unlock(&a->m);
		shared_add(a, 5000);
		_exit(r == EBUSY ? 0 : 1);
	}
	while (!__atomic_load_n(&a->checked, __ATOMIC_SEQ_CST))
		sched_yield();
	while (!a->ready)
		CHECK_EQ(pthread_cond_wait(&a->c, &a->m), 0);
	pthread_mutex_unlock(&a->m);
	shared_add(a, 5000);
	CHECK(utest_child_ok(pid));
	CHECK_EQ(a->count, 10000);
	munmap(a, 4096);
	return 0;
}

static void *yield_a_lot(void *arg)
{
	for (int i = 0; i < 1000; i++)
		if (sched_yield())
			return arg;
	return 0;
}

static int yield(void)
{
	pthread_t t[2];

	WATCHDOG();
	CHECK_EQ(start_all(t, 2, yield_a_lot, (void *[]){ (void *)1, (void *)1 }), 0);
	CHECK_EQ(join_all(t, 2), 0);
	return 0;
}

/* Two threads of one process wait for the same child: exactly one reaps it,
 * the other sees ECHILD (it must never get the pid too: a double reap frees
 * the child twice). Both sleep in waitpid before the child ends, so one
 * wake-up starts both of them. */
static void *reap_waiter(void *arg)
{
	int st;
	pid_t r = waitpid(-1, &st, 0);

	*(int *)arg = r > 0 ? r : -errno;
	return 0;
}

static int two_threads_reap_once(void)
{
	WATCHDOG();
	for (int i = 0; i < 300; i++) {
		int res[2] = { 0, 0 };
		pthread_t t;
		pid_t pid;

		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			sleep_ms(2);
			_exit(3);
		}
		CHECK(pid > 0);
		CHECK_EQ(pthread_create(&t, 0, reap_waiter, &res[0]), 0);
		reap_waiter(&res[1]);
		CHECK_EQ(pthread_join(t, 0), 0);
		if (!((res[0] == pid && res[1] == -ECHILD) || (res[1] == pid && res[0] == -ECHILD))) {
			utest_log("round %d: child %d, the threads' waitpid: %d and %d", i, pid,
				  res[0], res[1]);
			CHECK(0);
		}
	}
	return 0;
}

/* A thread execs while the process's POSIX timers fire every tick: exec
 * ends the other threads and the exec-ing one takes the old leader's place,
 * which is freed (kernel/clone.c take_leadership), while a timer callback on
 * another CPU may have read the leader to send it the signal (the plan entry
 * exec_timers_smp widens that window with timer_send_delay=). */
static const char *self_path;	/* argv[0]: the exec target (--exit0), here and on the host */

static void *exec_helper_exit(void *arg)
{
	char *argv[] = { (char *)self_path, "--exit0", NULL };

	(void)arg;
	sleep_ms(3);
	execve(argv[0], argv, 0);
	_exit(127);
}

static int exec_while_timers_fire(void)
{
	WATCHDOG();
	for (int i = 0; i < 30; i++) {
		pid_t pid;
		int st;

		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
			struct itimerspec its = { { 0, 1 }, { 0, 1 } };
			sigset_t set;
			pthread_t t;
			timer_t id;

			alarm(0);
			sigemptyset(&set);
			sigaddset(&set, SIGUSR1);
			pthread_sigmask(SIG_BLOCK, &set, 0);	/* queued: overruns counted */
			for (int k = 0; k < 2; k++)
				if (timer_create(CLOCK_MONOTONIC, &ev, &id) || timer_settime(id, 0, &its, 0))
					_exit(3);
			pthread_create(&t, 0, exec_helper_exit, 0);
			for (;;)
				;			/* the leader spins until exec ends it */
		}
		CHECK(pid > 0);
		CHECK_EQ(waitpid(pid, &st, 0), pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(create_join),
	UTEST(self_equal_tid),
	UTEST(join_detach_errors),
	UTEST(stacks_given_back),
	UTEST(detach_after_exit),
	UTEST(once_runs_once),
	UTEST(keys_and_destructors),
	UTEST(errno_per_thread),
	UTEST(malloc_printf_8_threads),
	UTEST(mutex_contention),
	UTEST(mutex_recursive),
	UTEST(mutex_errorcheck),
	UTEST(mutex_trylock_timedlock),
	UTEST(cond_producers_consumers),
	UTEST(cond_signal_one_broadcast_all),
	UTEST(cond_timedwait_clocks),
	UTEST(rwlock_readers_writers),
	UTEST(rwlock_try_and_timed),
	UTEST(barrier_rounds_8),
	UTEST(spinlock_contention),
	UTEST(semaphores),
	UTEST(attributes_and_stack),
	UTEST(guard_page),
	UTEST(cancel_deferred),
	UTEST(cancel_state_and_async),
	UTEST(exited_threads_give_queue_slots_back),
	UTEST(cancel_keeps_read_bytes),
	UTEST(cancel_keeps_reaped_child),
	UTEST(cancel_points_pending),
	UTEST(cancel_points_blocked),
	UTEST(cancel_points_disabled),
	UTEST(sigmask_and_kill),
	UTEST(exit_semantics),
	UTEST(process_shared),
	UTEST(named_semaphores),
	UTEST(yield),
	UTEST(two_threads_reap_once),
	UTEST(exec_while_timers_fire),
};

int main(int argc, char **argv)
{
	self_path = argv[0];
	if (argc > 1 && !strcmp(argv[1], "--exit0"))
		return 0;		/* exec_while_timers_fire's exec target */
	return utest_main(argc, argv, "pthread", cases, sizeof(cases) / sizeof(cases[0]));
}
