/* atomic.h: atomic_t and the lock-prefixed operations on it. */
#ifndef ATOMIC_H
#define ATOMIC_H

#include "types.h"

typedef struct {
	volatile int counter;
} atomic_t;

#define ATOMIC_INIT(v)	{ (v) }

static inline int atomic_read(const atomic_t *a) { return a->counter; }
static inline void atomic_set(atomic_t *a, int v) { a->counter = v; }

static inline void atomic_add(atomic_t *a, int v)
{
	asm volatile("lock addl %1, %0" : "+m"(a->counter) : "ir"(v) : "memory");
}

static inline void atomic_sub(atomic_t *a, int v)
{
	asm volatile("lock subl %1, %0" : "+m"(a->counter) : "ir"(v) : "memory");
}

static inline void atomic_inc(atomic_t *a) { atomic_add(a, 1); }
static inline void atomic_dec(atomic_t *a) { atomic_sub(a, 1); }

/* Add v and return the new value. */
static inline int atomic_add_return(atomic_t *a, int v)
{
	int old = v;

	asm volatile("lock xaddl %0, %1" : "+r"(old), "+m"(a->counter) :: "memory");
	return old + v;
}

static inline int atomic_inc_return(atomic_t *a) { return atomic_add_return(a, 1); }
static inline int atomic_dec_return(atomic_t *a) { return atomic_add_return(a, -1); }
/* True when the decrement reached zero. */
static inline bool atomic_dec_and_test(atomic_t *a) { return atomic_dec_return(a) == 0; }

/* If the value is old, store new; return the value found. */
static inline int atomic_cmpxchg(atomic_t *a, int old, int new)
{
	asm volatile("lock cmpxchgl %2, %1" : "+a"(old), "+m"(a->counter) : "r"(new) : "memory");
	return old;
}

/* True when adding / subtracting made it zero; inc_and_test likewise. */
static inline bool atomic_sub_and_test(atomic_t *a, int v) { return atomic_add_return(a, -v) == 0; }
static inline bool atomic_inc_and_test(atomic_t *a) { return atomic_inc_return(a) == 0; }

/* Add v unless the value is u; returns true if it added. For references that
 * must not come back from zero (atomic_inc_not_zero). */
static inline bool atomic_add_unless(atomic_t *a, int v, int u)
{
	int c = atomic_read(a), old;

	while (c != u) {
		old = atomic_cmpxchg(a, c, c + v);
		if (old == c)
			return true;
		c = old;
	}
	return false;
}
#define atomic_inc_not_zero(a)	atomic_add_unless((a), 1, 0)

static inline int atomic_xchg(atomic_t *a, int v)
{
	asm volatile("xchgl %0, %1" : "+r"(v), "+m"(a->counter) :: "memory");
	return v;
}

/* Full barrier; smp_rmb/smp_wmb are compiler barriers on x86 (TSO). */
#define smp_mb()	asm volatile("lock addl $0, (%%esp)" ::: "memory")
#define smp_rmb()	asm volatile("" ::: "memory")
#define smp_wmb()	asm volatile("" ::: "memory")
#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))

#endif
