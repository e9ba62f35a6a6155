/* lockdep.h: the lock-order checker: lock classes, the order in which they
 * were ever taken, and a report the first time an order is inverted.
 *
 * A class is a lock's kind (spinlock or mutex) and its name (the static
 * name, or the text of its init expression: every ctx->ctx_lock is one
 * class). The checker records the edge "B taken while A held" the first time
 * it happens and reports, once, "BUG: lock order inversion" when a lock is
 * taken while holding one that, by the edges seen so far, is taken after it
 * (A -> ... -> B recorded, now B held while A is taken), before the lock is
 * waited for: the report comes the first time the order is seen, whether or
 * not two CPUs would ever meet there. It also reports irq inversions: a lock
 * taken in a hard interrupt handler and elsewhere with interrupts on, or in a
 * softirq and in process context with interrupts on. Each report counts in
 * lockdep_bugs, which the test runs require to stay 0.
 *
 * Off unless the kernel was booted with "lockdep" (both kernels have it):
 * then the lock and unlock paths pay one load and one predictable branch.
 * Held locks: spinlocks on a stack per CPU (a spinlock is released on the CPU
 * that took it), tagged with the interrupt level they were taken at, so that
 * an interrupt's locks are never ordered after those of the code it
 * interrupted; mutexes on a stack per task (a holder may sleep).
 *
 * Two locks of one class held at once (a lock of the class taken while
 * another of it is held, at the same interrupt level): legal when the inner
 * one is annotated with a higher subclass than the outer (spin_lock_nested:
 * a parent's lock, then its child's), or, with neither annotated, when the
 * inner one is at the higher address (the rule that orders two instances
 * with no parent between them). Anything else is reported, once per class
 * ("BUG: same-class lock nesting"): two nested without a rule, or against
 * it, can take each other's order on another CPU.
 */
#ifndef LOCKDEP_H
#define LOCKDEP_H

#include "types.h"

#define LOCKDEP_SPIN	0	/* class kinds */
#define LOCKDEP_MUTEX	1
#define LOCKDEP_TASK_DEPTH 8	/* mutexes one task may hold at once */
#define LOCKDEP_MAX_SUBCLASS 7	/* spin_lock_nested's subclass: 0..7 */

struct lockdep_held {
	const void *lock;	/* the instance */
	u16 cls;		/* its class */
	u8 level;		/* irq_nesting when taken (spinlocks) */
	u8 subclass;		/* 0, or spin_lock_nested's annotation */
	u32 pc;			/* where it was taken */
};

/* In struct task: the mutexes it holds, in order. */
struct lockdep_task {
	u32 depth;
	struct lockdep_held held[LOCKDEP_TASK_DEPTH];
};

/* The address of the code where it is written (an inlined lock's own site). */
#define LOCKDEP_THIS_PC	({ __label__ __here; __here: (u32)&&__here; })

extern u8 lockdep_on;		/* set once at boot ("lockdep"), read by every lock */
extern u32 lockdep_bugs;	/* reports so far (tests reset it after provoking one) */

/* Read the "lockdep" boot word; after the command line is parsed. */
void lockdep_init(void);
/* A lock is about to be taken (cls: its cached class, 0 until known; name:
 * its name): check the order and the irq state against every lock held, then
 * count it as held. try: a trylock that succeeded (it never waits, so it
 * adds no order). Any context. */
void lockdep_acquire(const void *lock, u16 *cls, const char *name, int kind, u32 pc, bool try);
/* The same for a lock taken with a nesting annotation (subclass 1..7: it may
 * be taken while locks of its class with a lower subclass are held). */
void lockdep_acquire_nested(const void *lock, u16 *cls, const char *name, int kind, u32 pc,
			    u8 subclass);
/* The order check alone (a mutex, before it may sleep). */
void lockdep_check(const void *lock, u16 *cls, const char *name, int kind, u32 pc);
/* lock is released (or was not taken after all): no longer held. */
void lockdep_release(const void *lock, int kind);
/* How many distinct classes and edges the checker knows (tests, /proc). */
u32 lockdep_nr_classes(void);
u32 lockdep_nr_edges(void);

#endif
