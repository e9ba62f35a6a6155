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

struct affinity_op {
	u32 mask;			/* set: the new mask; get: the task's */
	bool set;
};

/* task_call callback (tasklist_lock held: t cannot be reaped meanwhile, on
 * any CPU); t is never current here (no schedule() under the lock). */
static int affinity_apply(struct task *t, void *arg)
{
	struct affinity_op *op = arg;

	if (!t->mm || t->state == TASK_ZOMBIE)
		return -ESRCH;
	if (op->set)
		return sched_set_affinity(t, op->mask);
	op->mask = READ_ONCE(t->cpus_allowed);
	return 0;
}

/* Apply op to the live task pid names (0: the caller); -ESRCH if none. */
static int affinity_do(int pid, struct affinity_op *op)
{
	if (pid < 0)
		return -ESRCH;
	if (!pid || pid == current->pid) {
		if (!op->set) {
			op->mask = READ_ONCE(current->cpus_allowed);
			return 0;
		}
		return sched_set_affinity(current, op->mask);
	}
	return task_call(pid, affinity_apply, op);
}

long sys_sched_setaffinity(int pid, unsigned len, const unsigned long *umask)
{
	unsigned char mask[AFFINITY_COPY] = { 0 };
	struct affinity_op op = { 0, true };

	if (copy_from_user(mask, umask, len < AFFINITY_COPY ? len : AFFINITY_COPY))
		return -EFAULT;
	if (!len) {			/* -ESRCH first, as before */
		struct affinity_op probe = { 0, false };
		int err = affinity_do(pid, &probe);

		return err ? err : -EINVAL;
	}
	op.mask = mask[0] | mask[1] << 8 | mask[2] << 16 | (u32)mask[3] << 24;
	return affinity_do(pid, &op);
}

/* Returns the bytes of mask written: the kernel's mask size. */
long sys_sched_getaffinity(int pid, unsigned len, unsigned long *umask)
{
	struct affinity_op op = { 0, false };
	unsigned long mask;
	int err;

	if (len < AFFINITY_BYTES || (len & (sizeof(long) - 1)))
		return -EINVAL;
	err = affinity_do(pid, &op);
	if (err)
		return err;
	mask = op.mask & sched_cpu_mask;
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
