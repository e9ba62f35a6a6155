/* lock_stat.h: contention statistics of chosen locks (Linux's lock_stat, in small).
 *
 * A lock_stat is one class of locks (every ext2 inode's lock shares one):
 * acquisitions, contended acquisitions (the lock was taken when asked for),
 * the time waited (TSC cycles, total and largest), the time held (total and
 * largest); for mutexes also the sleeps of their waiters, the hand-offs
 * (an unlock that gave the mutex to a sleeping waiter and woke it) and the
 * hand-off latency (that wake-up until the waiter ran), and failed trylocks.
 * A mutex counts when its stat pointer is set (mutex_set_stat); a spinlock
 * through lock_stat_spin_lock / _unlock. Every field is updated with atomic
 * operations (several locks of one class may be held at once on several
 * CPUs), so a reader sees each field whole but not all fields of one
 * instant. Cost per acquisition: two TSC reads and a few atomic adds; none
 * for locks without a stat. Any context (the adds never sleep).
 */
#ifndef LOCK_STAT_H
#define LOCK_STAT_H

#include "acpi.h"
#include "spinlock.h"
#include "types.h"
#include "x86.h"

struct lock_stat {
	const char *name;
	u32 acquired;			/* every acquisition, trylocks that got it too */
	u32 contended;			/* of those, found taken (waited) */
	u32 try_failed;			/* trylocks that found it taken */
	u32 sleeps;			/* mutex: a waiter's schedule() calls */
	u32 handoffs;			/* mutex: unlocks that woke the next owner */
	u64 wait_cycles, wait_max;	/* contended acquisitions: ask -> hold */
	u64 hold_cycles, hold_max;	/* acquisition -> release */
	u64 handoff_cycles, handoff_max;	/* mutex: hand-off wake-up -> the owner runs */
	u64 held_at[NR_CPUS];		/* spinlock: when this CPU took it (it cannot
					 * move while holding one) */
};

#define LOCK_STAT_INIT(n)	{ .name = (n) }

/* Counting, called by the lock code (the caller holds the lock in the
 * first two, has just released it in the third): */
void lock_stat_acquired(struct lock_stat *s, bool contended, u64 wait);
void lock_stat_released(struct lock_stat *s, u64 held);
void lock_stat_max(u64 *max, u64 v);
void lock_stat_add(u64 *v, u64 d);
/* A 64-bit field read whole. */
u64 lock_stat_read(const u64 *v);
/* One line per stat, Linux /proc/lock_stat's columns in microseconds:
 * "name acq contended try_failed wait_total_us wait_max_us hold_total_us
 * hold_max_us sleeps handoffs handoff_total_us handoff_max_us". Bytes
 * written (cut at size - 1, NUL-terminated). */
int lock_stat_show(const struct lock_stat *s, char *buf, size_t size);
/* The header line of that. */
int lock_stat_header(char *buf, size_t size);
/* Cycles to microseconds (tsc_khz; 0 before it is measured). */
u64 lock_stat_us(u64 cycles);

/* A spinlock with statistics: "contended" when it was seen taken just
 * before the wait (an estimate: there is no trylock), the hold stamped per
 * CPU. The lock's own rules (spinlock.h) are unchanged. */
static inline __attribute__((always_inline)) void lock_stat_spin_lock(spinlock_t *l,
								       struct lock_stat *s)
{
	bool busy = spin_is_locked(l);
	u64 t0 = busy ? rdtsc() : 0, now;

	spin_lock(l);
	now = rdtsc();
	s->held_at[smp_processor_id()] = now;
	lock_stat_acquired(s, busy, busy ? now - t0 : 0);
}

static inline __attribute__((always_inline)) void lock_stat_spin_unlock(spinlock_t *l,
									 struct lock_stat *s)
{
	u64 held = rdtsc() - s->held_at[smp_processor_id()];

	spin_unlock(l);
	lock_stat_released(s, held);
}

#define lock_stat_spin_lock_irqsave(l, s, flags) \
	do { (flags) = local_irq_save(); lock_stat_spin_lock(l, s); } while (0)
#define lock_stat_spin_unlock_irqrestore(l, s, flags) \
	do { lock_stat_spin_unlock(l, s); local_irq_restore(flags); } while (0)

#endif
