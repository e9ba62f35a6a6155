/* spinlock.h: named spinlocks: ticket locks (first come, first served across
 * CPUs) with debug checks.
 *
 * The _irq / _irqsave forms also disable interrupts on the local CPU; a lock
 * taken from interrupt context must always be taken with one of them
 * elsewhere. Checks, always on: taking a lock this CPU already holds panics
 * ("recursive acquire": it would spin forever), unlock by a CPU that does not
 * hold the lock panics, assert_spin_locked() panics unless this CPU holds it.
 * A lock held by another CPU is waited for, in ticket order on bare metal.
 * Under a hypervisor (CPUID's hypervisor bit; boot word spinlock=ticket or
 * spinlock=tas to choose) a waiter takes the lock when it finds it free
 * instead: with ticket order, a waiter whose virtual CPU the host has
 * descheduled holds up every CPU queued behind it (lock-waiter preemption;
 * Linux falls back to test-and-set in a guest without paravirt locks for the
 * same reason). Both ways use the one ticket word, so spin_is_locked and
 * unlock do not change. With the boot word "lockdep", the lock-order checker
 * (lockdep.h) follows every lock.
 * Every lock, its order and its contexts: docs/locking.md.
 */
#ifndef SPINLOCK_H
#define SPINLOCK_H

#include "irq.h"
#include "lockdep.h"
#include "smp.h"
#include "types.h"
#include "x86.h"

#define SPIN_NO_OWNER	0xFFFFFFFFu	/* owner_cpu of a free lock */

typedef struct spinlock {
	union {
		volatile u32 tickets;	/* both halves, for the fetch-and-add */
		struct {
			volatile u16 serving;	/* the ticket that holds the lock */
			volatile u16 next;	/* the next ticket handed out */
		};
	};
	const char *name;
	u32 owner_pc;		/* where it was taken, for the debug report */
	volatile u32 owner_cpu;	/* the holder's smp_processor_id(), SPIN_NO_OWNER */
	u16 dep_class;		/* lockdep.h: its class, 0 until first taken */
} spinlock_t;

#define SPINLOCK_INIT(n)	{ { 0 }, n, 0, SPIN_NO_OWNER, 0 }
#define DEFINE_SPINLOCK(x)	spinlock_t x = SPINLOCK_INIT(#x)

static inline void spin_lock_init(spinlock_t *l, const char *name)
{
	l->tickets = 0;
	l->name = name;
	l->owner_pc = 0;
	l->owner_cpu = SPIN_NO_OWNER;
	l->dep_class = 0;
}

void spin_lock_fail(spinlock_t *l, const char *why) __attribute__((noreturn));
/* 1: ticket order (the default, and on bare metal); 0: take when free (a
 * guest). Set by spin_mode_init before the other CPUs start. */
extern u8 spin_fifo;
void spin_mode_init(void);

/* Take l when it is free (serving == next), by moving next on only then. */
static inline void spin_take_when_free(spinlock_t *l)
{
	for (;;) {
		u32 t = __atomic_load_n(&l->tickets, __ATOMIC_RELAXED);

		if ((u16)t == (u16)(t >> 16) &&
		    __atomic_compare_exchange_n(&l->tickets, &t, t + (1u << 16), false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
		cpu_relax();
	}
}
/* Number of spinlocks the running CPU holds right now (sleeping with one held
 * is a bug): a field of its struct cpu (this_cpu(): sgdt, smp.h). */
#define spinlocks_held	(this_cpu()->spinlocks_held)
/* preempt_count: the running task's preempt_disable() depth (thread_info.h) */

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
 * find the lock held by a task that may be switched away. Only the holder
 * writes owner_cpu, so finding one's own number there means one holds it.
 * spin_lock_nested: the same, annotated for the lock-order checker with a
 * subclass (1..7) when a lock of the class with a lower subclass is held (a
 * parent's lock, then its child's: lockdep.h); spin_lock is subclass 0. */
static inline __attribute__((always_inline)) void spin_lock_nested(spinlock_t *l, u8 subclass)
{
	u32 me = smp_processor_id();
	u16 ticket;

	spinlocks_held++;
	__asm__ volatile("" ::: "memory");
	if (unlikely(l->owner_cpu == me))
		spin_lock_fail(l, "recursive acquire (this CPU holds it: it would spin forever)");
	if (unlikely(lockdep_on) && subclass)	/* before waiting: told, not hung on */
		lockdep_acquire_nested(l, &l->dep_class, l->name, LOCKDEP_SPIN, LOCKDEP_THIS_PC,
				       subclass);
	else if (unlikely(lockdep_on))
		lockdep_acquire(l, &l->dep_class, l->name, LOCKDEP_SPIN, LOCKDEP_THIS_PC, false);
	if (likely(spin_fifo)) {
		ticket = __atomic_fetch_add(&l->tickets, 1u << 16, __ATOMIC_ACQUIRE) >> 16;
		while (__atomic_load_n(&l->serving, __ATOMIC_ACQUIRE) != ticket)
			cpu_relax();
	} else {
		spin_take_when_free(l);
	}
	l->owner_cpu = me;
	l->owner_pc = (u32)__builtin_return_address(0);
}

static inline __attribute__((always_inline)) void spin_lock(spinlock_t *l)
{
	spin_lock_nested(l, 0);
}

static inline void spin_unlock(spinlock_t *l)
{
	if (unlikely(l->owner_cpu != smp_processor_id()))
		spin_lock_fail(l, l->serving == l->next ? "unlock of a lock not held"
				  : "unlock of a lock another CPU holds");
	if (unlikely(lockdep_on))
		lockdep_release(l, LOCKDEP_SPIN);
	l->owner_pc = 0;
	l->owner_cpu = SPIN_NO_OWNER;
	__atomic_store_n(&l->serving, (u16)(l->serving + 1), __ATOMIC_RELEASE);
	__asm__ volatile("" ::: "memory");
	spinlocks_held--;
}

/* Held by any CPU. */
static inline bool spin_is_locked(const spinlock_t *l)
{
	u32 t = __atomic_load_n(&l->tickets, __ATOMIC_RELAXED);

	return (u16)t != (u16)(t >> 16);
}

#define assert_spin_locked(l) \
	do { if (unlikely((l)->owner_cpu != smp_processor_id())) \
		spin_lock_fail(l, "assert_spin_locked: not held"); } while (0)

static inline void spin_lock_irq(spinlock_t *l) { cli(); spin_lock(l); }
static inline void spin_unlock_irq(spinlock_t *l) { spin_unlock(l); sti(); }

static inline u32 local_irq_save(void) { u32 f = read_eflags(); cli(); return f; }
static inline void local_irq_restore(u32 f) { if (f & EFLAGS_IF) sti(); }

#define spin_lock_irqsave(l, flags) \
	do { (flags) = local_irq_save(); spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) \
	do { spin_unlock(l); local_irq_restore(flags); } while (0)

#endif
