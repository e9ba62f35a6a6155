/* affinity.c: sched_setaffinity (241), sched_getaffinity (242) and getcpu (318). */
#include "atomic.h"
#include "errno.h"
#include "sched.h"
#include "smp.h"
#include "syscall_table.h"
#include "uaccess.h"

/*
 * The kernel's cpumask is one unsigned long (NR_CPUS <= 32). A mask is
 * kept to the CPUs that run tasks (Linux keeps the online part of it); one
 * with none of them is -EINVAL. The scheduler moves the task at once when it
 * runs or waits on a CPU the new mask leaves out (kernel/sched.c).
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
	struct task *t;
	u32 m;

	if (copy_from_user(mask, umask, len < AFFINITY_COPY ? len : AFFINITY_COPY))
		return -EFAULT;
	t = affinity_task(pid);
	if (!t)
		return -ESRCH;
	m = mask[0] | mask[1] << 8 | mask[2] << 16 | (u32)mask[3] << 24;
	return len ? sched_set_affinity(t, m) : -EINVAL;
}

/* Returns the bytes of mask written: the kernel's mask size. */
long sys_sched_getaffinity(int pid, unsigned len, unsigned long *umask)
{
	unsigned long mask;
	struct task *t;

	if (len < AFFINITY_BYTES || (len & (sizeof(long) - 1)))
		return -EINVAL;
	t = affinity_task(pid);
	if (!t)
		return -ESRCH;
	mask = READ_ONCE(t->cpus_allowed) & sched_cpu_mask;
	return copy_to_user(umask, &mask, AFFINITY_BYTES) ? -EFAULT : AFFINITY_BYTES;
}

long sys_getcpu(unsigned *ucpu, unsigned *unode, void *cache)
{
	unsigned cpu = smp_processor_id();	/* may be stale on return, as on Linux */

	(void)cache;			/* unused since Linux 2.6.24 */
	if ((ucpu && put_user(cpu, ucpu)) || (unode && put_user(0u, unode)))
		return -EFAULT;
	return 0;
}
