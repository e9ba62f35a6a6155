/* lockdep_test.c: the "lockdep" suite: the lock-order checker reports a
 * deliberate AB/BA (spinlocks, mutexes, a three-lock cycle, a mutex first
 * taken by trylock) and irq-unsafe uses, once each, the first time they are
 * seen and before any lock is waited for; consistent orders are never reported.
 * Same-class nesting: address order or rising spin_lock_nested subclasses
 * accepted, anything else reported once per class. Needs the boot word
 * "lockdep" (the kernel entry of make test has it); without it every case
 * fails. Each case puts lockdep_bugs back after the reports it provoked. */
#include "clock.h"
#include "irq.h"
#include "ktest.h"
#include "lockdep.h"
#include "mutex.h"
#include "printk.h"
#include "sched.h"
#include "softirq.h"
#include "spinlock.h"
#include "timer.h"
#include "x86.h"

static DEFINE_SPINLOCK(ld_test_a);
static DEFINE_SPINLOCK(ld_test_b);
static DEFINE_SPINLOCK(ld_test_x);
static DEFINE_SPINLOCK(ld_test_y);
static DEFINE_SPINLOCK(ld_test_z);
static DEFINE_SPINLOCK(ld_test_hardirq);
static DEFINE_SPINLOCK(ld_test_softirq);
static DEFINE_SPINLOCK(ld_test_irqsafe);
static DEFINE_MUTEX(ld_test_m1);
static DEFINE_MUTEX(ld_test_m2);
static DEFINE_MUTEX(ld_test_p);
static DEFINE_MUTEX(ld_test_q);
static DEFINE_MUTEX(ld_test_t1);
static DEFINE_MUTEX(ld_test_t2);

static int lockdep_suite_init(void)
{
	if (lockdep_on)
		return 0;
	printk("    # lockdep: the checker is off (boot with \"lockdep\")\n");
	return -1;
}

static void take_two(spinlock_t *first, spinlock_t *second)
{
	spin_lock(first);
	spin_lock(second);
	spin_unlock(second);
	spin_unlock(first);
}

static void ab_ba_reported_once(struct ktest *t)
{
	u32 before = lockdep_bugs, edges = lockdep_nr_edges();

	take_two(&ld_test_a, &ld_test_b);
	EXPECT_EQ(t, lockdep_bugs, before);
	EXPECT_EQ(t, lockdep_nr_edges(), edges + 1);	/* a -> b, recorded once */
	take_two(&ld_test_a, &ld_test_b);
	EXPECT_EQ(t, lockdep_nr_edges(), edges + 1);
	take_two(&ld_test_b, &ld_test_a);		/* the inversion: told now */
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	take_two(&ld_test_b, &ld_test_a);		/* the first time only */
	take_two(&ld_test_a, &ld_test_b);
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	EXPECT_EQ(t, spinlocks_held, 0);
	lockdep_bugs = before;
}

static void mutex_ab_ba_reported(struct ktest *t)
{
	u32 before = lockdep_bugs;

	mutex_lock(&ld_test_m1);
	mutex_lock(&ld_test_m2);
	mutex_unlock(&ld_test_m2);
	mutex_unlock(&ld_test_m1);
	EXPECT_EQ(t, lockdep_bugs, before);
	mutex_lock(&ld_test_m2);
	mutex_lock(&ld_test_m1);
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	mutex_unlock(&ld_test_m1);
	mutex_unlock(&ld_test_m2);
	EXPECT_EQ(t, current->lockdep.depth, 0);
	lockdep_bugs = before;
}

/* x -> y and y -> z make z -> x an inversion, though x and z were never
 * taken together before. */
static void three_lock_cycle_reported(struct ktest *t)
{
	u32 before = lockdep_bugs;

	take_two(&ld_test_x, &ld_test_y);
	take_two(&ld_test_y, &ld_test_z);
	EXPECT_EQ(t, lockdep_bugs, before);
	take_two(&ld_test_z, &ld_test_x);
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	lockdep_bugs = before;
}

/* A lock taken in a hard interrupt handler (pretended: interrupts off,
 * irq_nesting raised, as the highmem suite does), then with interrupts on. */
static void hardirq_lock_with_irqs_on_reported(struct ktest *t)
{
	u32 before = lockdep_bugs, flags;

	flags = local_irq_save();
	irq_nesting++;
	spin_lock(&ld_test_hardirq);
	spin_unlock(&ld_test_hardirq);
	irq_nesting--;
	local_irq_restore(flags);
	spin_lock_irqsave(&ld_test_hardirq, flags);	/* the right way: nothing */
	spin_unlock_irqrestore(&ld_test_hardirq, flags);
	EXPECT_EQ(t, lockdep_bugs, before);
	ASSERT_TRUE(t, read_eflags() & EFLAGS_IF);
	spin_lock(&ld_test_hardirq);			/* interrupts on: told */
	spin_unlock(&ld_test_hardirq);
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	spin_lock(&ld_test_hardirq);
	spin_unlock(&ld_test_hardirq);
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	lockdep_bugs = before;
}

/* A mutex first ever taken by trylock is followed from then on: what is
 * taken under it is ordered after it. */
static void trylock_first_is_followed(struct ktest *t)
{
	u32 before = lockdep_bugs;

	ASSERT_TRUE(t, mutex_trylock(&ld_test_t1));
	EXPECT_EQ(t, current->lockdep.depth, 1);
	mutex_lock(&ld_test_t2);
	mutex_unlock(&ld_test_t2);
	mutex_unlock(&ld_test_t1);
	mutex_lock(&ld_test_t2);
	mutex_lock(&ld_test_t1);
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	mutex_unlock(&ld_test_t1);
	mutex_unlock(&ld_test_t2);
	lockdep_bugs = before;
}

static volatile int timer_in_softirq = -1;

static void take_in_timer(unsigned long data)
{
	timer_in_softirq = in_softirq();
	spin_lock((spinlock_t *)data);
	spin_unlock((spinlock_t *)data);
}

/* A lock a real timer (a softirq) takes, then taken in process context with
 * interrupts on: the timer could come while it is held. */
static void softirq_lock_with_irqs_on_reported(struct ktest *t)
{
	struct timer_list tm;
	u32 before = lockdep_bugs, flags;

	setup_timer(&tm, take_in_timer, (unsigned long)&ld_test_softirq);
	tm.expires = jiffies + 1;
	add_timer(&tm);
	msleep(20);
	EXPECT_EQ(t, timer_in_softirq, 1);
	EXPECT_EQ(t, lockdep_bugs, before);
	spin_lock_irqsave(&ld_test_softirq, flags);
	spin_unlock_irqrestore(&ld_test_softirq, flags);
	EXPECT_EQ(t, lockdep_bugs, before);
	spin_lock(&ld_test_softirq);
	spin_unlock(&ld_test_softirq);
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	lockdep_bugs = before;
}

/* irq-safe use everywhere, one order everywhere: no report. */
static void consistent_use_not_reported(struct ktest *t)
{
	u32 before = lockdep_bugs, flags;

	for (int i = 0; i < 3; i++) {
		flags = local_irq_save();
		irq_nesting++;
		spin_lock(&ld_test_irqsafe);
		spin_unlock(&ld_test_irqsafe);
		irq_nesting--;
		local_irq_restore(flags);
		spin_lock_irqsave(&ld_test_irqsafe, flags);
		spin_lock(&ld_test_a);
		spin_unlock(&ld_test_a);
		spin_unlock_irqrestore(&ld_test_irqsafe, flags);
		mutex_lock(&ld_test_m1);
		spin_lock_irqsave(&ld_test_irqsafe, flags);
		spin_unlock_irqrestore(&ld_test_irqsafe, flags);
		mutex_unlock(&ld_test_m1);
	}
	EXPECT_EQ(t, lockdep_bugs, before);
	EXPECT_GE(t, lockdep_nr_classes(), 12);
}

static volatile u32 bugs_seen_by_holder;

/* Holds q for 50 ms while the case's task waits for it, then notes how many
 * reports there were by then. */
static int q_holder(void *arg)
{
	mutex_lock(&ld_test_q);
	*(volatile int *)arg = 1;
	msleep(50);
	bugs_seen_by_holder = lockdep_bugs;
	mutex_unlock(&ld_test_q);
	return 0;
}

/* q -> p recorded; then, holding p, the case's task asks for q while another
 * task holds it: the report comes before it sleeps (the holder sees it while
 * the case's task still waits), and nothing deadlocks. */
static void reported_before_waiting(struct ktest *t)
{
	u32 before = lockdep_bugs;
	volatile int held = 0;
	struct task *th;

	mutex_lock(&ld_test_q);
	mutex_lock(&ld_test_p);
	mutex_unlock(&ld_test_p);
	mutex_unlock(&ld_test_q);
	th = kthread_run(q_holder, (void *)&held, "lockdep_q");
	ASSERT_FALSE(t, IS_ERR(th));
	while (!held)
		msleep(1);
	mutex_lock(&ld_test_p);
	mutex_lock(&ld_test_q);				/* waits about 50 ms */
	EXPECT_EQ(t, bugs_seen_by_holder, before + 1);
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	mutex_unlock(&ld_test_q);
	mutex_unlock(&ld_test_p);
	EXPECT_EQ(t, kthread_stop(th), 0);
	lockdep_bugs = before;
}

/* Three locks of one class (name), at rising addresses. */
static void same_class_init(spinlock_t *l, const char *name)
{
	for (int i = 0; i < 3; i++)
		spin_lock_init(&l[i], name);
}

/* Take outer, then inner with subclass sub (0: plain spin_lock); release. */
static void nest_two(spinlock_t *outer, spinlock_t *inner, u8 sub)
{
	spin_lock(outer);
	spin_lock_nested(inner, sub);
	spin_unlock(inner);
	spin_unlock(outer);
}

/* Two locks of one class, unannotated, the lower address first: legal
 * (address order), never reported, however often; no edge either. */
static void same_class_address_order_accepted(struct ktest *t)
{
	static spinlock_t l[3];
	u32 before = lockdep_bugs, edges;

	same_class_init(l, "ld_test_addr");
	nest_two(&l[0], &l[1], 0);
	edges = lockdep_nr_edges();
	nest_two(&l[1], &l[2], 0);
	nest_two(&l[0], &l[2], 0);
	EXPECT_EQ(t, lockdep_bugs, before);
	EXPECT_EQ(t, lockdep_nr_edges(), edges);
	EXPECT_EQ(t, spinlocks_held, 0);
}

/* The higher address first, unannotated: reported at once (before any
 * second CPU takes them the other way), and once per class only. */
static void same_class_out_of_order_reported_once(struct ktest *t)
{
	static spinlock_t l[3];
	u32 before = lockdep_bugs;

	same_class_init(l, "ld_test_rev");
	nest_two(&l[0], &l[1], 0);
	EXPECT_EQ(t, lockdep_bugs, before);
	nest_two(&l[2], &l[1], 0);
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	nest_two(&l[1], &l[0], 0);			/* the class was told */
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	EXPECT_EQ(t, spinlocks_held, 0);
	lockdep_bugs = before;
}

/* A parent's lock, then its child's with spin_lock_nested: legal whatever
 * the addresses, and a grandchild's with a higher subclass still. */
static void nested_subclass_accepted(struct ktest *t)
{
	static spinlock_t l[3];
	u32 before = lockdep_bugs;

	same_class_init(l, "ld_test_tree");
	spin_lock(&l[2]);
	spin_lock_nested(&l[1], 1);
	spin_lock_nested(&l[0], 2);
	spin_unlock(&l[0]);
	spin_unlock(&l[1]);
	spin_unlock(&l[2]);
	nest_two(&l[0], &l[1], 1);
	EXPECT_EQ(t, lockdep_bugs, before);
	EXPECT_EQ(t, spinlocks_held, 0);
}

/* An annotation that does not rise (subclass 1 while holding subclass 1, or
 * a plain lock while holding an annotated one) is reported, even in address
 * order: annotated locks are ordered by subclass alone. */
static void nested_subclass_not_higher_reported(struct ktest *t)
{
	static spinlock_t l[3], m[2];
	u32 before = lockdep_bugs;

	same_class_init(l, "ld_test_sub");
	spin_lock_nested(&l[0], 1);
	spin_lock_nested(&l[1], 1);
	EXPECT_EQ(t, lockdep_bugs, before + 1);
	spin_unlock(&l[1]);
	spin_unlock(&l[0]);
	spin_lock_init(&m[0], "ld_test_sub2");
	spin_lock_init(&m[1], "ld_test_sub2");
	spin_lock_nested(&m[0], 1);
	spin_lock(&m[1]);
	EXPECT_EQ(t, lockdep_bugs, before + 2);
	spin_unlock(&m[1]);
	spin_unlock(&m[0]);
	EXPECT_EQ(t, spinlocks_held, 0);
	lockdep_bugs = before;
}

static const struct ktest_case lockdep_cases[] = {
	KTEST_CASE(ab_ba_reported_once),
	KTEST_CASE(mutex_ab_ba_reported),
	KTEST_CASE(three_lock_cycle_reported),
	KTEST_CASE(trylock_first_is_followed),
	KTEST_CASE(hardirq_lock_with_irqs_on_reported),
	KTEST_CASE(softirq_lock_with_irqs_on_reported),
	KTEST_CASE(consistent_use_not_reported),
	KTEST_CASE(reported_before_waiting),
	KTEST_CASE(same_class_address_order_accepted),
	KTEST_CASE(same_class_out_of_order_reported_once),
	KTEST_CASE(nested_subclass_accepted),
	KTEST_CASE(nested_subclass_not_higher_reported),
};
KTEST_SUITE(lockdep_suite, "lockdep", lockdep_cases, .init = lockdep_suite_init);
