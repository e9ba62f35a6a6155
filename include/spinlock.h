/* spinlock.h: named spinlocks, real test-and-set locks with debug checks.
 *
 * On this uniprocessor kernel a lock also disables interrupts when taken with
 * the _irq / _irqsave forms; a lock taken from interrupt context must always be
 * taken with one of them elsewhere. Checks: a recursive acquire panics, unlock
 * of a lock not held panics, assert_spin_locked() panics when not held.
 * Every lock, its order and its contexts: docs/locking.md.
 */
#ifndef SPINLOCK_H
#define SPINLOCK_H

#include "irq.h"
#include "types.h"
#include "x86.h"

typedef struct spinlock {
	volatile u32 locked;
	const char *name;
	u32 owner_pc;		/* where it was taken, for the debug report */
} spinlock_t;

#define SPINLOCK_INIT(n)	{ 0, n, 0 }
#define DEFINE_SPINLOCK(x)	spinlock_t x = SPINLOCK_INIT(#x)

static inline void spin_lock_init(spinlock_t *l, const char *name)
{
	l->locked = 0;
	l->name = name;
	l->owner_pc = 0;
}

void spin_lock_fail(spinlock_t *l, const char *why) __attribute__((noreturn));
/* Number of spinlocks held right now (sleeping with one held is a bug). */
extern int spinlocks_held;
extern int preempt_count;	/* sched.c (sched.h): preempt_disable() depth */

/* Non-zero where the caller must not sleep (nor fault on user memory): in an
 * interrupt, with a spinlock held, with preemption or interrupts off. One
 * word and no branch, for checks that fold it into another test. */
static inline u32 atomic_context_bits(void)
{
	return (u32)(spinlocks_held | preempt_count | irq_nesting) | (~read_eflags() & EFLAGS_IF);
}
static inline bool in_atomic_context(void)
{
	return atomic_context_bits() != 0;
}
/* A broken sleeping-context rule (a mutex misused, a user copy with a spinlock
 * held): count it in *count and, for the first few of each counter, print
 * "BUG: <msg>" with the caller, the context and a backtrace. Any context.
 * The run goes on; the counters are what the test suites check. */
void lock_bug_report(u32 *count, u32 caller, const char *fmt, ...) __printf(3, 4);

/* spinlocks_held counts up before the lock is taken and down after it is
 * released: a preemption (an interrupt's exit looks at the count) can never
 * find the lock held by a task that may be switched away. */
static inline void spin_lock(spinlock_t *l)
{
	spinlocks_held++;
	__asm__ volatile("" ::: "memory");
	if (unlikely(l->locked))
		spin_lock_fail(l, "recursive acquire (uniprocessor: it would spin forever)");
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
	l->owner_pc = (u32)__builtin_return_address(0);
}

static inline void spin_unlock(spinlock_t *l)
{
	if (unlikely(!l->locked))
		spin_lock_fail(l, "unlock of a lock not held");
	l->owner_pc = 0;
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	__asm__ volatile("" ::: "memory");
	spinlocks_held--;
}

static inline bool spin_is_locked(const spinlock_t *l) { return l->locked; }

#define assert_spin_locked(l) \
	do { if (unlikely(!(l)->locked)) spin_lock_fail(l, "assert_spin_locked: not held"); } while (0)

static inline void spin_lock_irq(spinlock_t *l) { cli(); spin_lock(l); }
static inline void spin_unlock_irq(spinlock_t *l) { spin_unlock(l); sti(); }

static inline u32 local_irq_save(void) { u32 f = read_eflags(); cli(); return f; }
static inline void local_irq_restore(u32 f) { if (f & EFLAGS_IF) sti(); }

#define spin_lock_irqsave(l, flags) \
	do { (flags) = local_irq_save(); spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) \
	do { spin_unlock(l); local_irq_restore(flags); } while (0)

#endif
