/* lock_stat.c: the counting and printing of lock statistics (lock_stat.h). */
#include "clock.h"
#include "lock_stat.h"
#include "printk.h"

/* Compare-and-exchange of a 64-bit word (cmpxchg8b: i686 has no other
 * 64-bit atomic and the compiler calls a library for one): what was there. */
static u64 lock_stat_cmpxchg(u64 *p, u64 old, u64 new)
{
	asm volatile("lock cmpxchg8b %1"
		     : "+A"(old), "+m"(*p)
		     : "b"((u32)new), "c"((u32)(new >> 32))
		     : "memory", "cc");
	return old;
}

u64 lock_stat_read(const u64 *v)
{
	return lock_stat_cmpxchg((u64 *)v, 0, 0);	/* writes 0 over 0 only */
}

/* *max = v when larger; lock-free, any context. */
void lock_stat_max(u64 *max, u64 v)
{
	u64 old = lock_stat_read(max), seen;	/* two loads could tear */

	while (v > old && (seen = lock_stat_cmpxchg(max, old, v)) != old)
		old = seen;
}

/* *v += d; lock-free, any context. */
void lock_stat_add(u64 *v, u64 d)
{
	u64 old = *v, seen;

	while ((seen = lock_stat_cmpxchg(v, old, old + d)) != old)
		old = seen;
}

void lock_stat_acquired(struct lock_stat *s, bool contended, u64 wait)
{
	__atomic_fetch_add(&s->acquired, 1, __ATOMIC_RELAXED);
	if (!contended)
		return;
	__atomic_fetch_add(&s->contended, 1, __ATOMIC_RELAXED);
	lock_stat_add(&s->wait_cycles, wait);
	lock_stat_max(&s->wait_max, wait);
}

void lock_stat_released(struct lock_stat *s, u64 held)
{
	lock_stat_add(&s->hold_cycles, held);
	lock_stat_max(&s->hold_max, held);
}

u64 lock_stat_us(u64 cycles)
{
	return tsc_khz ? cycles * 1000 / tsc_khz : 0;
}

int lock_stat_header(char *buf, size_t size)
{
	return snprintf(buf, size, "%-14s %8s %8s %8s %10s %8s %10s %8s %8s %8s %10s %8s\n",
			"class", "acq", "contend", "tryfail", "wait_us", "wmax_us", "hold_us",
			"hmax_us", "sleeps", "handoff", "hoff_us", "homax_us");
}

int lock_stat_show(const struct lock_stat *s, char *buf, size_t size)
{
	return snprintf(buf, size,
			"%-14s %8u %8u %8u %10llu %8llu %10llu %8llu %8u %8u %10llu %8llu\n",
			s->name, s->acquired, s->contended, s->try_failed,
			lock_stat_us(lock_stat_read(&s->wait_cycles)),
			lock_stat_us(lock_stat_read(&s->wait_max)),
			lock_stat_us(lock_stat_read(&s->hold_cycles)),
			lock_stat_us(lock_stat_read(&s->hold_max)), s->sleeps, s->handoffs,
			lock_stat_us(lock_stat_read(&s->handoff_cycles)),
			lock_stat_us(lock_stat_read(&s->handoff_max)));
}
