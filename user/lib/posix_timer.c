/* posix_timer.c: POSIX timers for newlib programs (librt, as glibc's): timer_create, timer_settime, timer_gettime, timer_getoverrun, timer_delete; SIGEV_THREAD through a helper thread, as glibc does it. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "glue.h"
#include "signal_glue.h"
#include "uapi/signal.h"

/*
 * SIGEV_NONE, SIGEV_SIGNAL and SIGEV_THREAD_ID map onto the kernel's timers
 * (timer_t is the kernel's id; the signal number is translated). SIGEV_THREAD
 * is glibc's design: the kernel timer sends TIMER_KSIG, a real-time signal no
 * newlib program can name, to one helper thread (SIGEV_THREAD_ID), which
 * waits for it with every signal blocked and starts a detached thread per
 * expiry that calls the function with sigev_value (under the caller's
 * sigev_notify_attributes). A table slot per such timer holds the function;
 * the signal's si_timerid picks it, so a late signal of a deleted timer
 * finds no slot (ids are not reused soon). A forked child has no timers and
 * no helper: the table is emptied when glue_fork_generation moved.
 */

#define TIMER_KSIG		34	/* the kernel's SIGRTMIN + 2: glibc keeps 32, 33 */
#define THREAD_TIMERS_MAX	64
#define KTIMER_ABSTIME		1		/* the kernel's value; newlib's is 4 */

struct thread_timer {
	int		used;
	int		kid;			/* the kernel's timer id */
	void		(*fn)(union sigval);
	union sigval	value;
	pthread_attr_t	attr;
};

static struct thread_timer tt_table[THREAD_TIMERS_MAX];
static pthread_mutex_t tt_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int tt_helper_tid;	/* 0: no helper yet (in this process) */
static unsigned tt_generation;

/* ---------------------------------------------------------------- conversions */

static int its_to_kernel(const struct itimerspec *v, struct kernel_itimerspec *k)
{
	return glue_ts_to_kernel(&v->it_value, &k->it_value) < 0 ||
	       glue_ts_to_kernel(&v->it_interval, &k->it_interval) < 0 ? -1 : 0;
}

static void its_from_kernel(const struct kernel_itimerspec *k, struct itimerspec *v)
{
	glue_ts_from_kernel(&k->it_value, &v->it_value);
	glue_ts_from_kernel(&k->it_interval, &v->it_interval);
}

/* SIGEV_NONE, _SIGNAL, _THREAD_ID -> the kernel's; -1 for anything else. */
static int sigevent_to_kernel(const struct sigevent *ev, struct kernel_sigevent *k)
{
	memset(k, 0, sizeof(*k));
	k->sigev_value.sival_ptr = ev->sigev_value.sival_ptr;
	switch (ev->sigev_notify) {
	case SIGEV_NONE:
		k->sigev_notify = KSIGEV_NONE;
		return 0;
	case SIGEV_THREAD_ID:
		k->sigev_notify = KSIGEV_THREAD_ID;
		k->un.tid = ev->sigev_notify_thread_id;
		break;
	case SIGEV_SIGNAL:
		k->sigev_notify = KSIGEV_SIGNAL;
		break;
	default:
		return -1;
	}
	k->sigev_signo = __sig_to_kernel(ev->sigev_signo);
	return k->sigev_signo ? 0 : -1;
}

/* ---------------------------------------------------------------- SIGEV_THREAD */

struct tt_call {
	void		(*fn)(union sigval);
	union sigval	value;
};

static void *tt_run(void *arg)
{
	struct tt_call c = *(struct tt_call *)arg;

	free(arg);
	c.fn(c.value);
	return 0;
}

/* One expiry of kernel timer kid: its function on a new detached thread. */
static void tt_dispatch(int kid)
{
	struct tt_call *c = malloc(sizeof(*c));
	pthread_attr_t attr;
	pthread_t th;
	int found = 0;

	if (!c)
		return;
	pthread_mutex_lock(&tt_lock);
	for (int i = 0; i < THREAD_TIMERS_MAX && !found; i++)
		if (tt_table[i].used && tt_table[i].kid == kid) {
			*c = (struct tt_call){ tt_table[i].fn, tt_table[i].value };
			attr = tt_table[i].attr;
			found = 1;
		}
	pthread_mutex_unlock(&tt_lock);
	if (!found || pthread_create(&th, &attr, tt_run, c) != 0)
		free(c);
}

/* The helper: every signal blocked (inherited), waits for TIMER_KSIG only. */
static void *tt_helper(void *arg)
{
	struct kernel_sigset set = { { 0, 0 } };
	struct kernel_siginfo info;

	(void)arg;
	set.sig[(TIMER_KSIG - 1) / 32] = 1ul << ((TIMER_KSIG - 1) % 32);
	__atomic_store_n(&tt_helper_tid, (int)__sys_gettid(), __ATOMIC_RELEASE);
	for (;;)
		if (__sys_rt_sigtimedwait(&set, &info, 0, KSIGSET_SIZE) == TIMER_KSIG &&
		    info.si_code == SI_TIMER)
			tt_dispatch(info.f.timer.tid);
	return 0;
}

/* The helper's tid, started on first use (tt_lock held); 0 if it cannot start. */
static int tt_helper_start(void)
{
	struct kernel_sigset old;
	pthread_attr_t attr;
	pthread_t th;
	int err;

	if (tt_generation != glue_fork_generation) {	/* a forked child: none */
		memset(tt_table, 0, sizeof(tt_table));
		tt_helper_tid = 0;
		tt_generation = glue_fork_generation;
	}
	if (tt_helper_tid)
		return tt_helper_tid;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	__signals_block_all(&old);		/* the helper starts with all blocked */
	err = pthread_create(&th, &attr, tt_helper, 0);
	__signals_restore(&old);
	if (err)
		return 0;
	while (!__atomic_load_n(&tt_helper_tid, __ATOMIC_ACQUIRE))
		sched_yield();
	return tt_helper_tid;
}

/* A free slot filled from ev (tt_lock held), or -1. */
static int tt_slot(const struct sigevent *ev)
{
	for (int i = 0; i < THREAD_TIMERS_MAX; i++)
		if (!tt_table[i].used) {
			struct thread_timer *t = &tt_table[i];
			if (ev->sigev_notify_attributes)
				t->attr = *ev->sigev_notify_attributes;
			else
				pthread_attr_init(&t->attr);
			pthread_attr_setdetachstate(&t->attr, PTHREAD_CREATE_DETACHED);
			t->fn = ev->sigev_notify_function;
			t->value = ev->sigev_value;
			t->used = 1;
			t->kid = -1;
			return i;
		}
	return -1;
}

static int thread_timer_create(int kclock, const struct sigevent *ev, timer_t *id)
{
	struct kernel_sigevent k;
	int kid, slot = -1, err = EAGAIN;
	long r = 0;

	if (!ev->sigev_notify_function)
		return EINVAL;
	memset(&k, 0, sizeof(k));
	k.sigev_notify = KSIGEV_THREAD_ID;
	k.sigev_signo = TIMER_KSIG;
	pthread_mutex_lock(&tt_lock);
	k.un.tid = tt_helper_start();
	if (k.un.tid)
		slot = tt_slot(ev);
	if (slot >= 0) {
		r = __sys_timer_create(kclock, &k, &kid);
		if (GLUE_IS_ERR(r))
			tt_table[slot].used = 0;
		else
			tt_table[slot].kid = kid;
		err = GLUE_IS_ERR(r) ? abi_errno_from_kernel((int)-r) : 0;
	}
	pthread_mutex_unlock(&tt_lock);
	if (!err)
		*id = (timer_t)kid;
	return err;
}

/* ---------------------------------------------------------------- the calls */

int timer_create(clockid_t clock, struct sigevent *restrict ev, timer_t *restrict id)
{
	int kclock = abi_clock_to_kernel(clock), kid, err;
	struct kernel_sigevent k;
	long r;

	if (kclock < 0 || (ev && ev->sigev_notify != SIGEV_THREAD && sigevent_to_kernel(ev, &k) < 0)) {
		errno = EINVAL;
		return -1;
	}
	if (ev && ev->sigev_notify == SIGEV_THREAD) {
		err = thread_timer_create(kclock, ev, id);
		if (err)
			errno = err;
		return err ? -1 : 0;
	}
	r = __sys_timer_create(kclock, ev ? &k : 0, &kid);
	if (!GLUE_IS_ERR(r))
		*id = (timer_t)kid;
	return (int)glue_ret(r);
}

int timer_settime(timer_t id, int flags, const struct itimerspec *restrict value,
		  struct itimerspec *restrict old)
{
	struct kernel_itimerspec k, kold;
	long r;

	if (its_to_kernel(value, &k) < 0 || (flags & ~TIMER_ABSTIME)) {
		errno = EINVAL;
		return -1;
	}
	r = __sys_timer_settime((int)id, flags & TIMER_ABSTIME ? KTIMER_ABSTIME : 0, &k,
				old ? &kold : 0);
	if (!GLUE_IS_ERR(r) && old)
		its_from_kernel(&kold, old);
	return (int)glue_ret(r);
}

int timer_gettime(timer_t id, struct itimerspec *value)
{
	struct kernel_itimerspec k;
	long r = __sys_timer_gettime((int)id, &k);

	if (!GLUE_IS_ERR(r))
		its_from_kernel(&k, value);
	return (int)glue_ret(r);
}

int timer_getoverrun(timer_t id)
{
	return (int)glue_ret(__sys_timer_getoverrun((int)id));
}

int timer_delete(timer_t id)
{
	long r = __sys_timer_delete((int)id);

	if (!GLUE_IS_ERR(r)) {
		pthread_mutex_lock(&tt_lock);
		for (int i = 0; i < THREAD_TIMERS_MAX; i++)
			if (tt_table[i].used && tt_table[i].kid == (int)id)
				tt_table[i].used = 0;
		pthread_mutex_unlock(&tt_lock);
	}
	return (int)glue_ret(r);
}
