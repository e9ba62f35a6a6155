/* lock.c: newlib's retargetable locks (malloc, stdio, atexit, env, tz, ...) on futex lock words; flockfile and friends. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/lock.h>
#include "tcb.h"

/*
 * newlib (configured with --enable-newlib-retargetable-locking) calls these
 * around malloc, every FILE, atexit, the environment and the time zone.  This
 * object must define all of them and all the static locks, or libc.a's dummy
 * lock.o would be linked as well (crt0.S names one symbol to pull this file in
 * first).  A recursive lock's owner is the holder's control block, which a
 * forked child keeps: the thread that forked still owns what it held.
 */
struct __lock {
	volatile int	word;		/* __lock_word */
	struct __pthread *owner;	/* recursive locks: the holder */
	unsigned	depth;
};

struct __lock __lock___sinit_recursive_mutex;
struct __lock __lock___sfp_recursive_mutex;
struct __lock __lock___atexit_recursive_mutex;
struct __lock __lock___at_quick_exit_mutex;
struct __lock __lock___malloc_recursive_mutex;
struct __lock __lock___env_recursive_mutex;
struct __lock __lock___tz_mutex;
struct __lock __lock___dd_hash_mutex;
struct __lock __lock___arc4random_mutex;

/* Shared by every lock that could not be allocated: coarser, still correct. */
static struct __lock lock_spare;

/* Locks made at run time (one per FILE): from malloc, whose own lock is static. */
void __retarget_lock_init(_LOCK_T *lock)
{
	struct __lock *l = calloc(1, sizeof(*l));

	*lock = l ? l : &lock_spare;
}

void __retarget_lock_init_recursive(_LOCK_T *lock)
{
	__retarget_lock_init(lock);
}

void __retarget_lock_close(_LOCK_T lock)
{
	if (lock != &lock_spare)
		free(lock);
}

void __retarget_lock_close_recursive(_LOCK_T lock)
{
	__retarget_lock_close(lock);
}

void __retarget_lock_acquire(_LOCK_T lock)
{
	__lock_word(&lock->word, 0);
}

/* The try forms answer as pthread_mutex_trylock does: 0 when taken (ftrylockfile). */
int __retarget_lock_try_acquire(_LOCK_T lock)
{
	return __trylock_word(&lock->word) ? 0 : EBUSY;
}

void __retarget_lock_release(_LOCK_T lock)
{
	__unlock_word(&lock->word, 0);
}

void __retarget_lock_acquire_recursive(_LOCK_T lock)
{
	struct __pthread *self = __pthread_self_tcb();

	if (lock->owner != self) {	/* only we could have stored self there */
		__lock_word(&lock->word, 0);
		lock->owner = self;
	}
	lock->depth++;
}

int __retarget_lock_try_acquire_recursive(_LOCK_T lock)
{
	struct __pthread *self = __pthread_self_tcb();

	if (lock->owner != self) {
		if (!__trylock_word(&lock->word))
			return EBUSY;
		lock->owner = self;
	}
	lock->depth++;
	return 0;
}

void __retarget_lock_release_recursive(_LOCK_T lock)
{
	if (--lock->depth)
		return;
	lock->owner = 0;
	__unlock_word(&lock->word, 0);
}

/*
 * POSIX's stdio locks, which newlib leaves to the system: a FILE's own
 * recursive lock (what every stdio call takes).  stdin/stdout/stderr get
 * theirs when stdio starts (__sinit); string streams (sprintf's) have none.
 */
void __sinit(struct _reent *r);

static int file_has_lock(FILE *fp)
{
	if (!_REENT->__sdidinit)
		__sinit(_REENT);
	return !(fp->_flags & __SSTR);
}

void flockfile(FILE *fp)
{
	if (file_has_lock(fp))
		__retarget_lock_acquire_recursive(fp->_lock);
}

int ftrylockfile(FILE *fp)
{
	return file_has_lock(fp) ? __retarget_lock_try_acquire_recursive(fp->_lock) : 0;
}

void funlockfile(FILE *fp)
{
	if (file_has_lock(fp))
		__retarget_lock_release_recursive(fp->_lock);
}
