/* spinlock.c: the spinlock debug report. */
#include "panic.h"
#include "spinlock.h"

int spinlocks_held;

void spin_lock_fail(spinlock_t *l, const char *why)
{
	panic("spinlock %s: %s (taken at %08x)", l->name ? l->name : "?", why, l->owner_pc);
}
