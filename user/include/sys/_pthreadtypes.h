/* sys/_pthreadtypes.h: the pthread types of user/lib/pthread (replaces newlib's, which <sys/types.h> includes). */
#ifndef _SYS__PTHREADTYPES_H_
#define _SYS__PTHREADTYPES_H_

/*
 * user/include comes before newlib's headers on the include path, so this file
 * stands in for newlib's own (whose types are single words meant for RTEMS).
 * newlib's libc.a uses none of these types, so their layout is ours to choose.
 * The fields are the library's (user/lib/pthread): programs only use the
 * initializers and the functions of <pthread.h>.
 */
#include <sys/sched.h>

typedef struct __pthread *pthread_t;

/* <pthread.h> values */
#define PTHREAD_CREATE_JOINABLE		0
#define PTHREAD_CREATE_DETACHED		1
#define PTHREAD_SCOPE_SYSTEM		0
#define PTHREAD_SCOPE_PROCESS		1
#define PTHREAD_INHERIT_SCHED		0
#define PTHREAD_EXPLICIT_SCHED		1
#define PTHREAD_PROCESS_PRIVATE		0
#define PTHREAD_PROCESS_SHARED		1
#define PTHREAD_MUTEX_NORMAL		0
#define PTHREAD_MUTEX_RECURSIVE		1
#define PTHREAD_MUTEX_ERRORCHECK	2
#define PTHREAD_MUTEX_DEFAULT		PTHREAD_MUTEX_NORMAL

typedef struct {
	int	__detachstate;
	int	__scope;
	int	__inheritsched;
	int	__schedpolicy;
	struct sched_param __schedparam;
	void	*__stackaddr;		/* lowest address of a stack the program gives, or 0 */
	unsigned __stacksize;
	unsigned __guardsize;
} pthread_attr_t;

typedef struct {
	volatile int	__lock;		/* 0 free, 1 locked, 2 locked and maybe waited for */
	int		__kind;		/* PTHREAD_MUTEX_* | __PTHREAD_SHARED */
	volatile int	__owner;	/* tid of the holder (recursive, error-checking), or 0 */
	unsigned	__count;	/* recursion depth */
} pthread_mutex_t;

typedef struct {
	int	__kind;
} pthread_mutexattr_t;

typedef struct {
	volatile int	__lock;		/* guards the counts below */
	volatile int	__seq;		/* the futex word waiters sleep on: moves at each signal */
	unsigned	__waiters;	/* threads in a wait */
	unsigned	__releases;	/* signals not yet taken by a waiter */
	unsigned	__gen;		/* moves at each signal: a waiter may take a release only if
					 * it changed since the waiter arrived */
	int		__flags;	/* __PTHREAD_MONOTONIC | __PTHREAD_SHARED */
} pthread_cond_t;

typedef struct {
	int	__flags;
} pthread_condattr_t;

typedef unsigned pthread_key_t;

typedef struct {
	volatile int	__state;	/* 0 not run, 1 running, 2 done */
} pthread_once_t;

typedef struct {
	volatile int	__lock;
	volatile int	__seq;		/* moves when the last thread arrives */
	unsigned	__count;
	unsigned	__arrived;
	int		__flags;
} pthread_barrier_t;

typedef struct {
	int	__flags;
} pthread_barrierattr_t;

typedef volatile int pthread_spinlock_t;

typedef struct {
	volatile int	__lock;
	volatile int	__rseq;		/* readers sleep on it */
	volatile int	__wseq;		/* writers sleep on it */
	unsigned	__readers;	/* read locks held */
	int		__writer;	/* tid of the write holder, or 0 */
	unsigned	__rwait;	/* readers waiting */
	unsigned	__wwait;	/* writers waiting */
	int		__flags;
} pthread_rwlock_t;

typedef struct {
	int	__flags;
} pthread_rwlockattr_t;

/* __flags and __kind bits */
#define __PTHREAD_SHARED	0x100	/* PTHREAD_PROCESS_SHARED: futexes not private */
#define __PTHREAD_MONOTONIC	0x200	/* condition variable timed on CLOCK_MONOTONIC */

#endif
