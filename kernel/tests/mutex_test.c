/* mutex_test.c: the "mutex" suite: exclusion under contention between kernel
 * threads, first-come-first-served hand-off, trylock, interruptible locking,
 * and each debug check provoked on purpose (counted, then the count put back). */
#include "clock.h"
#include "errno.h"
#include "ktest.h"
#include "mutex.h"
#include "printk.h"
#include "sched.h"
#include "spinlock.h"
#include "string.h"
#include "timer.h"
#include "x86.h"

#define CONTEND_THREADS	4
#define CONTEND_ROUNDS	200
#define ORDER_THREADS	4

static DEFINE_MUTEX(test_mutex);
static DEFINE_SPINLOCK(test_spin);

/* Does the end of the kernel log mention what? (the last report and its
 * backtrace) */
static bool log_tail_has(const char *what)
{
	static char tail[1024];

	log_tail(tail, sizeof(tail));
	return strstr(tail, what) != NULL;
}

/* Wait (sleeping) until th sleeps on m. */
static void wait_until_blocked_on(struct task *th, struct mutex *m)
{
	while (READ_ONCE(th->state) == TASK_RUNNING || READ_ONCE(th->wait_channel) != m)
		msleep(1);
}

static void lock_unlock_and_trylock(struct ktest *t)
{
	struct mutex m;
	int held = current->mutexes_held;

	mutex_init(&m);
	EXPECT_FALSE(t, mutex_is_locked(&m));
	mutex_lock(&m);
	EXPECT_TRUE(t, mutex_is_locked(&m));
	EXPECT_TRUE(t, mutex_owner(&m) == current);
	EXPECT_EQ(t, current->mutexes_held, held + 1);
	EXPECT_EQ(t, mutex_trylock(&m), 0);	/* held, even by us: no */
	mutex_unlock(&m);
	EXPECT_FALSE(t, mutex_is_locked(&m));
	EXPECT_EQ(t, current->mutexes_held, held);
	EXPECT_EQ(t, mutex_trylock(&m), 1);
	EXPECT_TRUE(t, mutex_owner(&m) == current);
	mutex_assert_held(&m);			/* held: no report */
	mutex_unlock(&m);
	EXPECT_EQ(t, mutex_lock_interruptible(&test_mutex), 0);
	mutex_unlock(&test_mutex);
	EXPECT_EQ(t, current->mutexes_held, held);
}

/* Contention: every thread updates a shared total in steps that sleep. */
static volatile int inside, overlaps, found_locked;
static int total;

static int contend_worker(void *arg)
{
	int seen;

	for (int i = 0; i < CONTEND_ROUNDS; i++) {
		if (mutex_is_locked(&test_mutex))
			found_locked++;
		mutex_lock(&test_mutex);
		if (inside++)
			overlaps++;
		seen = total;
		if (i % 32 == 0)
			msleep(1);		/* sleep holding it: others queue up */
		else
			yield();
		total = seen + 1;
		inside--;
		mutex_unlock(&test_mutex);
	}
	return 0;
}

static void contention_keeps_exclusion(struct ktest *t)
{
	struct task *th[CONTEND_THREADS];

	inside = overlaps = found_locked = total = 0;
	for (int i = 0; i < CONTEND_THREADS; i++)
		th[i] = kthread_run(contend_worker, NULL, "mutex_contend");
	for (int i = 0; i < CONTEND_THREADS; i++)
		EXPECT_EQ(t, kthread_stop(th[i]), 0);
	EXPECT_EQ(t, overlaps, 0);
	EXPECT_EQ(t, total, CONTEND_THREADS * CONTEND_ROUNDS);
	EXPECT_GE(t, found_locked, CONTEND_ROUNDS);	/* it really was contended */
	EXPECT_FALSE(t, mutex_is_locked(&test_mutex));
	EXPECT_FALSE(t, waitqueue_active(&test_mutex.wait));
}

/* Hand-off order: waiters get the mutex in the order they asked for it. */
static int order[ORDER_THREADS], order_len;

static int ordered_locker(void *arg)
{
	mutex_lock(&test_mutex);
	order[order_len++] = (int)arg;
	mutex_unlock(&test_mutex);
	return 0;
}

static void waiters_get_it_in_arrival_order(struct ktest *t)
{
	struct task *th[ORDER_THREADS];

	order_len = 0;
	mutex_lock(&test_mutex);
	for (int i = 0; i < ORDER_THREADS; i++) {
		th[i] = kthread_run(ordered_locker, (void *)i, "mutex_order");
		wait_until_blocked_on(th[i], &test_mutex);
	}
	/* Handed over at unlock: the first waiter owns it before it even ran,
	 * so nobody (not even the unlocker) can overtake it. (No preemption
	 * meanwhile, so that it has not run yet.) */
	preempt_disable();
	mutex_unlock(&test_mutex);
	EXPECT_TRUE(t, mutex_owner(&test_mutex) == th[0]);
	EXPECT_EQ(t, mutex_trylock(&test_mutex), 0);
	preempt_enable();
	for (int i = 0; i < ORDER_THREADS; i++)
		EXPECT_EQ(t, kthread_stop(th[i]), 0);
	EXPECT_EQ(t, order_len, ORDER_THREADS);
	for (int i = 0; i < ORDER_THREADS; i++)
		EXPECT_EQ(t, order[i], i);
	EXPECT_FALSE(t, mutex_is_locked(&test_mutex));
}

static int interruptible_locker(void *arg)
{
	int err = mutex_lock_interruptible(&test_mutex);

	if (!err)
		mutex_unlock(&test_mutex);
	return err;
}

static int plain_locker(void *arg)
{
	mutex_lock(&test_mutex);
	mutex_unlock(&test_mutex);
	return 7;
}

static void interruptible_lock_returns_eintr(struct ktest *t)
{
	struct task *intr, *plain, *last;

	mutex_lock(&test_mutex);
	intr = kthread_run(interruptible_locker, NULL, "mutex_intr");
	wait_until_blocked_on(intr, &test_mutex);
	EXPECT_EQ(t, test_mutex.owner, (unsigned long)current | MUTEX_FLAG_WAITERS);
	intr->sigpending = 1;
	signal_wake_up(intr, false);
	EXPECT_EQ(t, kthread_stop(intr), -EINTR);	/* the only waiter left */
	EXPECT_EQ(t, test_mutex.owner, (unsigned long)current);	/* no waiter flag */
	plain = kthread_run(plain_locker, NULL, "mutex_plain");
	wait_until_blocked_on(plain, &test_mutex);
	intr = kthread_run(interruptible_locker, NULL, "mutex_intr");
	wait_until_blocked_on(intr, &test_mutex);
	last = kthread_run(interruptible_locker, NULL, "mutex_last");
	wait_until_blocked_on(last, &test_mutex);
	intr->sigpending = plain->sigpending = 1;	/* a signal for both */
	signal_wake_up(intr, false);
	signal_wake_up(plain, false);			/* asleep uninterruptibly: no effect */
	EXPECT_EQ(t, kthread_stop(intr), -EINTR);	/* gave up, from the middle */
	msleep(2);
	EXPECT_EQ(t, plain->state, TASK_UNINTERRUPTIBLE);
	EXPECT_TRUE(t, mutex_owner(&test_mutex) == current);
	mutex_unlock(&test_mutex);
	EXPECT_EQ(t, kthread_stop(plain), 7);
	EXPECT_EQ(t, kthread_stop(last), 0);	/* still queued after the one that left */
	current->sigpending = 1;		/* a free mutex is taken anyway */
	EXPECT_EQ(t, mutex_lock_interruptible(&test_mutex), 0);
	mutex_unlock(&test_mutex);
	current->sigpending = 0;
	EXPECT_FALSE(t, waitqueue_active(&test_mutex.wait));
	EXPECT_FALSE(t, mutex_is_locked(&test_mutex));
}

/* --- debug checks: each provoked once, counted, and the count put back --- */

static volatile int trylock_in_timer = -1;

static void trylock_from_timer(unsigned long data)
{
	trylock_in_timer = mutex_trylock(&test_mutex);
}

static void lock_in_atomic_context_is_reported(struct ktest *t)
{
	u32 before = mutex_bugs, flags;
	struct timer_list tm;

	ktest_log("'BUG: mutex ...' reports follow, on purpose");
	spin_lock(&test_spin);
	mutex_lock(&test_mutex);		/* free: taken without sleeping */
	spin_unlock(&test_spin);
	EXPECT_EQ(t, mutex_bugs, before + 1);
	EXPECT_TRUE(t, log_tail_has("atomic context"));
	mutex_unlock(&test_mutex);
	flags = local_irq_save();
	EXPECT_EQ(t, mutex_trylock(&test_mutex), 1);	/* trylock never sleeps: fine */
	mutex_unlock(&test_mutex);
	mutex_lock(&test_mutex);		/* interrupts off */
	local_irq_restore(flags);
	mutex_unlock(&test_mutex);
	EXPECT_EQ(t, mutex_bugs, before + 2);
	setup_timer(&tm, trylock_from_timer, 0);
	tm.expires = jiffies + 1;
	add_timer(&tm);
	msleep(20);
	EXPECT_EQ(t, trylock_in_timer, 0);	/* refused in an interrupt */
	EXPECT_EQ(t, mutex_bugs, before + 3);
	EXPECT_FALSE(t, mutex_is_locked(&test_mutex));
	mutex_bugs = before;
}

static void recursive_lock_is_reported(struct ktest *t)
{
	u32 before = mutex_bugs;
	int held = current->mutexes_held;

	mutex_lock(&test_mutex);
	mutex_lock(&test_mutex);		/* returns: it would sleep forever */
	EXPECT_EQ(t, mutex_bugs, before + 1);
	EXPECT_TRUE(t, log_tail_has("recursive lock"));
	EXPECT_EQ(t, mutex_lock_interruptible(&test_mutex), -EDEADLK);
	EXPECT_EQ(t, mutex_bugs, before + 2);
	EXPECT_EQ(t, current->mutexes_held, held + 1);	/* taken once */
	mutex_unlock(&test_mutex);
	EXPECT_FALSE(t, mutex_is_locked(&test_mutex));
	mutex_unlock(&test_mutex);		/* the caller's second unlock */
	EXPECT_EQ(t, mutex_bugs, before + 3);
	EXPECT_TRUE(t, log_tail_has("not held"));
	EXPECT_EQ(t, current->mutexes_held, held);
	mutex_bugs = before;
}

static volatile int holder_go;

static int holding_thread(void *arg)
{
	mutex_lock(&test_mutex);
	while (!holder_go)
		msleep(1);
	mutex_unlock(&test_mutex);
	return current->mutexes_held;
}

static void unlock_by_non_owner_is_reported(struct ktest *t)
{
	u32 before = mutex_bugs;
	struct task *th;

	holder_go = 0;
	th = kthread_run(holding_thread, NULL, "mutex_holder");
	while (!mutex_is_locked(&test_mutex))
		msleep(1);
	mutex_unlock(&test_mutex);		/* not ours */
	EXPECT_EQ(t, mutex_bugs, before + 1);
	EXPECT_TRUE(t, log_tail_has("does not hold it"));
	EXPECT_TRUE(t, mutex_owner(&test_mutex) == th);	/* left alone */
	mutex_assert_held(&test_mutex);		/* held, but not by us */
	EXPECT_EQ(t, mutex_bugs, before + 2);
	holder_go = 1;
	EXPECT_EQ(t, kthread_stop(th), 0);	/* it held none at the end */
	EXPECT_FALSE(t, mutex_is_locked(&test_mutex));
	mutex_bugs = before;
}

static void held_at_user_return_is_reported(struct ktest *t)
{
	u32 before = mutex_bugs;

	mutex_check_user_return();		/* nothing held: quiet */
	EXPECT_EQ(t, mutex_bugs, before);
	mutex_lock(&test_mutex);
	mutex_check_user_return();		/* what each system call's return runs */
	EXPECT_EQ(t, mutex_bugs, before + 1);
	EXPECT_TRUE(t, log_tail_has("return to user space with 1 mutex"));
	mutex_unlock(&test_mutex);
	mutex_check_user_return();
	EXPECT_EQ(t, mutex_bugs, before + 1);
	mutex_bugs = before;
}

static const struct ktest_case mutex_cases[] = {
	KTEST_CASE(lock_unlock_and_trylock),
	KTEST_CASE(contention_keeps_exclusion),
	KTEST_CASE(waiters_get_it_in_arrival_order),
	KTEST_CASE(interruptible_lock_returns_eintr),
	KTEST_CASE(lock_in_atomic_context_is_reported),
	KTEST_CASE(recursive_lock_is_reported),
	KTEST_CASE(unlock_by_non_owner_is_reported),
	KTEST_CASE(held_at_user_return_is_reported),
};
KTEST_SUITE(mutex_suite, "mutex", mutex_cases);
