/* affinity.c: sched_setaffinity (241), sched_getaffinity (242) and getcpu (318) on a kernel with one CPU. */
#include "errno.h"
#include "sched.h"
#include "syscall_table.h"
#include "uaccess.h"

/*
 * One CPU today: every task's mask is {0}. A mask of several CPUs is
 * accepted as long as it holds CPU 0 (Linux keeps the online part of it);
 * one without CPU 0 is -EINVAL. The SMP work widens AFFINITY_BYTES.
 */
#define AFFINITY_BYTES	4		/* the kernel's cpumask: one unsigned long */
#define AFFINITY_COPY	128		/* the most of a caller's mask we read */

/* The live task pid names (0: the caller), or NULL (-ESRCH). */
static struct task *affinity_task(int pid)
{
	struct task *t = pid ? task_find(pid) : current;

	if (pid < 0 || !t || !t->mm || t->state == TASK_ZOMBIE)
		return NULL;
	return t;
}

long sys_sched_setaffinity(int pid, unsigned len, const unsigned long *umask)
{
	unsigned char mask[AFFINITY_COPY] = { 0 };

	if (copy_from_user(mask, umask, len < AFFINITY_COPY ? len : AFFINITY_COPY))
		return -EFAULT;
	if (!affinity_task(pid))
		return -ESRCH;
	return len && (mask[0] & 1) ? 0 : -EINVAL;
}

/* Returns the bytes of mask written: the kernel's mask size. */
long sys_sched_getaffinity(int pid, unsigned len, unsigned long *umask)
{
	unsigned long mask = 1;

	if (len < AFFINITY_BYTES || (len & (sizeof(long) - 1)))
		return -EINVAL;
	if (!affinity_task(pid))
		return -ESRCH;
	return copy_to_user(umask, &mask, AFFINITY_BYTES) ? -EFAULT : AFFINITY_BYTES;
}

long sys_getcpu(unsigned *ucpu, unsigned *unode, void *cache)
{
	(void)cache;			/* unused since Linux 2.6.24 */
	if ((ucpu && put_user(0u, ucpu)) || (unode && put_user(0u, unode)))
		return -EFAULT;
	return 0;
}
