/* semaphore.h: POSIX semaphores on a futex counter, unnamed and named (user/lib/pthread/sem.c, sem_named.c, -lpthread). */
#ifndef USER_SEMAPHORE_H
#define USER_SEMAPHORE_H

#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	volatile int	__value;	/* the count, >= 0 */
	volatile int	__waiters;	/* threads that may be asleep on __value */
	int		__shared;	/* pshared: not a private futex */
} sem_t;

#define SEM_VALUE_MAX	0x7fffffff
#define SEM_FAILED	((sem_t *)0)

int sem_init(sem_t *sem, int pshared, unsigned value);
int sem_destroy(sem_t *sem);
int sem_wait(sem_t *sem);
int sem_trywait(sem_t *sem);
int sem_timedwait(sem_t *sem, const struct timespec *abstime);
int sem_post(sem_t *sem);
int sem_getvalue(sem_t *sem, int *value);
/* Named: /dev/shm/sem.NAME (user/lib/pthread/sem_named.c); SEM_FAILED and errno on error. */
sem_t *sem_open(const char *name, int oflag, ...);
int sem_close(sem_t *sem);
int sem_unlink(const char *name);

#ifdef __cplusplus
}
#endif

#endif
