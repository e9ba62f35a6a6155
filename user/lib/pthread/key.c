/* key.c: thread-specific data: PTHREAD_KEYS_MAX keys, each value tagged with its key's sequence number, destructors at thread exit. */
#include "impl.h"

/*
 * A key's seq is odd while it exists and moves at every create and delete; a
 * thread's value counts only if it was set under the key's current seq, so a
 * deleted and re-created key reads NULL in every thread without visiting them.
 */
static struct {
	volatile int	seq;
	void		(*destructor)(void *);
} keys[PTHREAD_KEYS_MAX];

int pthread_key_create(pthread_key_t *key, void (*destructor)(void *))
{
	for (unsigned k = 0; k < PTHREAD_KEYS_MAX; k++) {
		int seq = keys[k].seq;

		if ((seq & 1) || !__cas(&keys[k].seq, seq, seq + 1))
			continue;
		keys[k].destructor = destructor;
		*key = k;
		return 0;
	}
	return EAGAIN;
}

int pthread_key_delete(pthread_key_t key)
{
	int seq;

	if (key >= PTHREAD_KEYS_MAX)
		return EINVAL;
	seq = keys[key].seq;
	if (!(seq & 1) || !__cas(&keys[key].seq, seq, seq + 1))
		return EINVAL;
	return 0;		/* destructors are not run (POSIX) */
}

void *pthread_getspecific(pthread_key_t key)
{
	struct __pthread *t = __pthread_self_tcb();

	if (key >= PTHREAD_KEYS_MAX || t->key_seq[key] != (unsigned)keys[key].seq)
		return 0;
	return t->key_value[key];
}

int pthread_setspecific(pthread_key_t key, const void *value)
{
	struct __pthread *t = __pthread_self_tcb();
	int seq;

	if (key >= PTHREAD_KEYS_MAX || !((seq = keys[key].seq) & 1))
		return EINVAL;
	t->key_value[key] = (void *)value;
	t->key_seq[key] = (unsigned)seq;
	return 0;
}

/* Up to PTHREAD_DESTRUCTOR_ITERATIONS rounds, while destructors set values again. */
void __pthread_key_run_destructors(struct __pthread *t)
{
	for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
		int ran = 0;

		for (unsigned k = 0; k < PTHREAD_KEYS_MAX; k++) {
			void (*d)(void *) = keys[k].destructor;
			void *v = t->key_seq[k] == (unsigned)keys[k].seq ? t->key_value[k] : 0;

			if (!v || !d)
				continue;
			t->key_value[k] = 0;
			d(v);
			ran = 1;
		}
		if (!ran)
			return;
	}
}
