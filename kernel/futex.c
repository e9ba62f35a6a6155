/* futex.c: futex (240): WAIT, WAKE, REQUEUE, CMP_REQUEUE, WAIT_BITSET, WAKE_BITSET on a hash of wait lists.
 *
 * A waiter is keyed by (mm, address) for private futexes and for words in
 * private memory, and by (physical page, offset) for a word in a MAP_SHARED
 * region, which another address space may map too. Each bucket has a spinlock
 * (process context only) guarding its list and every queued waiter's key,
 * bucket and woken flag; a waker unqueues the waiter and sets woken before it
 * wakes the task, so a wake-up is never lost between the waiter's look at
 * the word and its sleep. Requeue moves waiters between buckets, so a waiter
 * leaving on its own finds its bucket again under the lock (futex_unqueue).
 * Lock order: two buckets by address (requeue); a bucket, then a run-queue lock.
 */
#include "errno.h"
#include "clock.h"
#include "futex.h"
#include "mm.h"
#include "sched.h"
#include "signal.h"
#include "spinlock.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/futex.h"
#include "uapi/time.h"
#include "vm.h"

#define FUTEX_HASH_BITS	6
#define FUTEX_HASH_SIZE	(1 << FUTEX_HASH_BITS)

struct futex_key {
	u32 object;			/* the mm, or the struct page of a shared word */
	u32 offset;			/* the user address, or the offset in the page */
};

struct futex_bucket {
	spinlock_t lock;
	struct list_head waiters;
};

struct futex_q {
	struct list_head list;		/* in bucket->waiters */
	struct futex_key key;
	struct futex_bucket *bucket;
	u32 bitset;
	struct task *task;
	bool woken;
};

static struct futex_bucket futex_hash[FUTEX_HASH_SIZE];
int futex_waiters;			/* queued now (leak check): atomic, bucket locks differ */

void futex_init(void)
{
	for (int i = 0; i < FUTEX_HASH_SIZE; i++) {
		spin_lock_init(&futex_hash[i].lock, "futex_bucket");
		INIT_LIST_HEAD(&futex_hash[i].waiters);
	}
}

static struct futex_bucket *hash_bucket(const struct futex_key *k)
{
	u32 h = (k->object >> 4) * 0x9E3779B1u ^ (k->offset * 0x85EBCA6Bu);

	return &futex_hash[h >> (32 - FUTEX_HASH_BITS)];
}

static bool key_eq(const struct futex_key *a, const struct futex_key *b)
{
	return a->object == b->object && a->offset == b->offset;
}

/* The key of the word at uaddr: -EINVAL if unaligned, -EFAULT outside user
 * space or (shared) outside every mapping. */
static int futex_key(u32 uaddr, bool shared, struct futex_key *k)
{
	struct mm *mm = current->mm;
	struct vm_area *v;
	struct page *page;
	bool shared_map;

	if (uaddr & 3)
		return -EINVAL;
	if (!access_ok(uaddr, 4) || !mm)
		return -EFAULT;
	k->object = (u32)mm;
	k->offset = uaddr;
	if (!shared)
		return 0;
	spin_lock(&mm->lock);
	v = vm_find(mm, uaddr);
	shared_map = v && (v->flags & VM_SHARED);
	spin_unlock(&mm->lock);
	if (!v)
		return -EFAULT;
	if (!shared_map)
		return 0;			/* private memory: (mm, address), as Linux */
	page = get_user_page(mm, uaddr, false);
	if (!page)
		return -EFAULT;
	k->object = (u32)page;
	k->offset = uaddr & (PAGE_SIZE - 1);
	put_page(page);
	return 0;
}

static void futex_queue(struct futex_q *q)
{
	struct futex_bucket *b = hash_bucket(&q->key);
	u32 flags;

	spin_lock_irqsave(&b->lock, flags);
	q->bucket = b;
	q->woken = false;
	list_add_tail(&q->list, &b->waiters);
	__atomic_fetch_add(&futex_waiters, 1, __ATOMIC_RELAXED);
	spin_unlock_irqrestore(&b->lock, flags);
}

/* Off the queue if still on it (a requeue may have moved it). Returns woken. */
static bool futex_unqueue(struct futex_q *q)
{
	struct futex_bucket *b;
	u32 flags;
	bool woken;

	for (;;) {
		b = READ_ONCE(q->bucket);
		spin_lock_irqsave(&b->lock, flags);
		if (b == q->bucket)
			break;
		spin_unlock_irqrestore(&b->lock, flags);
	}
	woken = q->woken;
	if (!woken) {
		list_del_init(&q->list);
		__atomic_fetch_sub(&futex_waiters, 1, __ATOMIC_RELAXED);
	}
	spin_unlock_irqrestore(&b->lock, flags);
	return woken;
}

/* Bucket lock held: take q off and wake its task. */
static void futex_wake_one(struct futex_q *q)
{
	list_del_init(&q->list);
	__atomic_fetch_sub(&futex_waiters, 1, __ATOMIC_RELAXED);
	q->woken = true;
	wake_up_process(q->task);
}

/* Sleep until woken, a signal, or the CLOCK_MONOTONIC deadline (0: none).
 * The deadline is checked against the clock, not only the tick count: ticks
 * that arrive in a burst after a stall must not end the wait early. */
static int futex_sleep(struct futex_q *q, u64 deadline)
{
	u64 now;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (READ_ONCE(q->woken) || signal_pending(current))
			break;
		if (!deadline) {
			schedule();
			continue;
		}
		now = ktime_get_ns();
		if (now >= deadline) {
			__set_current_state(TASK_RUNNING);
			return -ETIMEDOUT;
		}
		schedule_timeout(MAX(1ul, nsecs_to_jiffies(deadline - now)));
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static long futex_wait(u32 uaddr, bool shared, int val, u64 deadline, u32 bitset)
{
	struct futex_q q = { .bitset = bitset, .task = current };
	int cur, err = futex_key(uaddr, shared, &q.key);

	if (err)
		return err;
	if (!bitset)
		return -EINVAL;
	futex_queue(&q);
	if (get_user(cur, (int *)uaddr)) {
		futex_unqueue(&q);
		return -EFAULT;
	}
	if (cur != val)
		return futex_unqueue(&q) ? 0 : -EAGAIN;
	current->wait_channel = (void *)futex_wait;
	err = futex_sleep(&q, deadline);
	current->wait_channel = NULL;
	if (futex_unqueue(&q))
		return 0;
	if (err)
		return err;			/* -ETIMEDOUT */
	if (!signal_pending(current))
		return 0;			/* spurious: the caller looks again */
	return deadline ? -EINTR : -ERESTARTSYS;	/* as Linux: a timed wait is not restarted */
}

static long futex_wake_key(const struct futex_key *k, int nr, u32 bitset)
{
	struct futex_bucket *b = hash_bucket(k);
	struct futex_q *q, *n;
	int woken = 0;
	u32 flags;

	if (!bitset)
		return -EINVAL;
	spin_lock_irqsave(&b->lock, flags);
	list_for_each_entry_safe(q, n, &b->waiters, list) {
		if (woken >= nr)
			break;
		if (key_eq(&q->key, k) && (q->bitset & bitset)) {
			futex_wake_one(q);
			woken++;
		}
	}
	spin_unlock_irqrestore(&b->lock, flags);
	return woken;
}

int futex_wake(u32 uaddr, int nr, bool shared, u32 bitset)
{
	struct futex_key k;
	int err = futex_key(uaddr, shared, &k);

	return err ? err : futex_wake_key(&k, nr, bitset);
}

static void lock_two(struct futex_bucket *a, struct futex_bucket *b, u32 *flags)
{
	*flags = local_irq_save();
	if (a == b) {
		spin_lock(&a->lock);
		return;
	}
	spin_lock(a < b ? &a->lock : &b->lock);
	spin_lock(a < b ? &b->lock : &a->lock);
}

static void unlock_two(struct futex_bucket *a, struct futex_bucket *b, u32 flags)
{
	if (a != b)
		spin_unlock(&b->lock);
	spin_unlock(&a->lock);
	local_irq_restore(flags);
}

/* Wake nr_wake waiters of uaddr, move up to nr_requeue others to uaddr2. With
 * cmp, only while *uaddr == cmpval (read just before: -EAGAIN otherwise). */
static long futex_requeue(u32 uaddr, u32 uaddr2, bool shared, int nr_wake, int nr_requeue,
			  bool cmp, int cmpval)
{
	struct futex_key k1, k2;
	struct futex_bucket *b1, *b2;
	struct futex_q *q, *n;
	int err, cur, done = 0, moved = 0;
	u32 flags;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	if ((err = futex_key(uaddr, shared, &k1)) || (err = futex_key(uaddr2, shared, &k2)))
		return err;
	if (cmp) {
		if (get_user(cur, (int *)uaddr))
			return -EFAULT;
		if (cur != cmpval)
			return -EAGAIN;
	}
	b1 = hash_bucket(&k1);
	b2 = hash_bucket(&k2);
	lock_two(b1, b2, &flags);
	list_for_each_entry_safe(q, n, &b1->waiters, list) {
		if (!key_eq(&q->key, &k1))
			continue;
		if (done < nr_wake) {
			futex_wake_one(q);
			done++;
		} else if (moved < nr_requeue) {
			list_del(&q->list);
			q->key = k2;
			q->bucket = b2;
			list_add_tail(&q->list, &b2->waiters);
			moved++;
		} else {
			break;
		}
	}
	unlock_two(b1, b2, flags);
	return done + moved;
}

/* A relative timeout, or an absolute deadline on CLOCK_MONOTONIC (or
 * CLOCK_REALTIME), as a CLOCK_MONOTONIC deadline in ns: 0 for none, 1 for one
 * already past (a wait then returns -ETIMEDOUT at once). */
static long futex_deadline(const struct kernel_timespec *uts, bool absolute, bool realtime,
			   u64 *out)
{
	struct kernel_timespec ts;
	u64 ns, now = ktime_get_ns(), base;

	*out = 0;
	if (!uts)
		return 0;
	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000L)
		return -EINVAL;
	ns = timespec_to_ns(&ts);
	if (absolute) {
		base = realtime ? ktime_get_real_ns() : now;
		ns = ns > base ? ns - base : 0;
	}
	*out = ns ? now + ns : 1;
	return 0;
}

long sys_futex(int *uaddr, int op, int val, const struct kernel_timespec *utimeout,
	       int *uaddr2, int val3)
{
	bool shared = !(op & KFUTEX_PRIVATE), realtime = op & KFUTEX_CLOCK_REALTIME;
	int cmd = op & KFUTEX_CMD_MASK;
	u64 deadline;
	long err;

	switch (cmd) {
	case KFUTEX_WAIT:
	case KFUTEX_WAIT_BITSET:
		if (realtime && cmd == KFUTEX_WAIT)
			return -ENOSYS;		/* as Linux: only with WAIT_BITSET */
		err = futex_deadline(utimeout, cmd == KFUTEX_WAIT_BITSET, realtime, &deadline);
		if (err)
			return err;
		return futex_wait((u32)uaddr, shared, val, deadline,
				  cmd == KFUTEX_WAIT ? KFUTEX_BITSET_ANY : (u32)val3);
	case KFUTEX_WAKE:
	case KFUTEX_WAKE_BITSET:
		if (val < 0)
			return -EINVAL;
		return futex_wake((u32)uaddr, val, shared,
				  cmd == KFUTEX_WAKE ? KFUTEX_BITSET_ANY : (u32)val3);
	case KFUTEX_REQUEUE:
	case KFUTEX_CMP_REQUEUE:
		return futex_requeue((u32)uaddr, (u32)uaddr2, shared, val, (int)(long)utimeout,
				     cmd == KFUTEX_CMP_REQUEUE, val3);
	default:
		return -ENOSYS;
	}
}
