/* locks_test.c: the "locks" suite: spinlock bookkeeping and irq-state
 * handling, atomic_t operations, what counts as atomic context. (Recursive
 * acquire panics: see spinlock.h. Mutexes: the "mutex" suite.) */
#include "atomic.h"
#include "clock.h"
#include "ktest.h"
#include "sched.h"
#include "spinlock.h"
#include "timer.h"
#include "x86.h"

static DEFINE_SPINLOCK(lock_a);

static void irqsave_restores_interrupt_state(struct ktest *t)
{
	u32 flags, outer;

	EXPECT_TRUE(t, read_eflags() & EFLAGS_IF);
	spin_lock_irqsave(&lock_a, flags);
	EXPECT_FALSE(t, read_eflags() & EFLAGS_IF);
	EXPECT_EQ(t, spinlocks_held, 1);
	assert_spin_locked(&lock_a);		/* held: no panic */
	spin_unlock_irqrestore(&lock_a, flags);
	EXPECT_TRUE(t, read_eflags() & EFLAGS_IF);
	outer = local_irq_save();		/* nested: the inner restore keeps them off */
	spin_lock_irqsave(&lock_a, flags);
	spin_unlock_irqrestore(&lock_a, flags);
	EXPECT_FALSE(t, read_eflags() & EFLAGS_IF);
	local_irq_restore(outer);
	EXPECT_EQ(t, spinlocks_held, 0);
	EXPECT_FALSE(t, spin_is_locked(&lock_a));
}

static void atomic_operations(struct ktest *t)
{
	atomic_t a = ATOMIC_INIT(0);

	atomic_inc(&a);
	atomic_add(&a, 5);
	EXPECT_EQ(t, atomic_read(&a), 6);
	EXPECT_EQ(t, atomic_add_return(&a, -2), 4);
	EXPECT_FALSE(t, atomic_sub_and_test(&a, 3));
	EXPECT_TRUE(t, atomic_dec_and_test(&a));
	EXPECT_FALSE(t, atomic_inc_not_zero(&a));	/* a dead reference stays dead */
	EXPECT_EQ(t, atomic_read(&a), 0);
	atomic_set(&a, -1);
	EXPECT_TRUE(t, atomic_inc_and_test(&a));
	atomic_set(&a, 1);
	EXPECT_TRUE(t, atomic_inc_not_zero(&a));
	EXPECT_EQ(t, atomic_cmpxchg(&a, 2, 7), 2);
	EXPECT_EQ(t, atomic_cmpxchg(&a, 2, 9), 7);	/* no match: unchanged */
	EXPECT_EQ(t, atomic_xchg(&a, 3), 7);
	EXPECT_EQ(t, atomic_read(&a), 3);
}

static void preempt_count_nests(struct ktest *t)
{
	preempt_disable();
	preempt_disable();
	EXPECT_EQ(t, preempt_count, 2);
	preempt_enable();
	preempt_enable();
	EXPECT_EQ(t, preempt_count, 0);
}

static volatile int timer_saw_atomic = -1;

static void note_atomic_context(unsigned long data)
{
	timer_saw_atomic = in_atomic_context();
}

/* What the mutex and uaccess checks call atomic: each cause alone. */
static void atomic_context_has_four_causes(struct ktest *t)
{
	struct timer_list tm;
	u32 flags;

	EXPECT_FALSE(t, in_atomic_context());
	spin_lock(&lock_a);
	EXPECT_TRUE(t, in_atomic_context());
	spin_unlock(&lock_a);
	preempt_disable();
	EXPECT_TRUE(t, in_atomic_context());
	preempt_enable();
	flags = local_irq_save();
	EXPECT_TRUE(t, in_atomic_context());
	local_irq_restore(flags);
	EXPECT_FALSE(t, in_atomic_context());
	setup_timer(&tm, note_atomic_context, 0);	/* an interrupt's context */
	tm.expires = jiffies + 1;
	add_timer(&tm);
	msleep(20);
	EXPECT_EQ(t, timer_saw_atomic, 1);
}

static const struct ktest_case locks_cases[] = {
	KTEST_CASE(irqsave_restores_interrupt_state),
	KTEST_CASE(atomic_operations),
	KTEST_CASE(preempt_count_nests),
	KTEST_CASE(atomic_context_has_four_causes),
};
KTEST_SUITE(locks_suite, "locks", locks_cases);
