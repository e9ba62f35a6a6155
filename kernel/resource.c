/* resource.c: resource limits: getrlimit (76), setrlimit (75), ugetrlimit
 * (191), prlimit64 (340), and the checks the file and memory calls make
 * (RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_AS). The limits live in the
 * descriptor table (files->lock guards them). Also getppid (64). */
#include "errno.h"
#include "fs.h"
#include "proc.h"
#include "resource.h"
#include "sched.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/signal.h"
#include "vm.h"

void rlimit_init(struct kernel_rlimit64 *rlim)
{
	for (int r = 0; r < RLIM_NLIMITS; r++)
		rlim[r] = (struct kernel_rlimit64){ RLIM64_INFINITY, RLIM64_INFINITY };
	rlim[RLIMIT_NOFILE] = (struct kernel_rlimit64){ NR_OPEN, NR_OPEN };
	rlim[RLIMIT_STACK].rlim_cur = USER_STACK_MAX;
	rlim[RLIMIT_CORE].rlim_cur = 0;
}

/* t's limit of resource, read under its table's lock. */
static struct kernel_rlimit64 rlimit_get(struct task *t, int resource)
{
	struct files_struct *files = t->files;
	struct kernel_rlimit64 r = { RLIM64_INFINITY, RLIM64_INFINITY };

	if (!files)
		return r;
	spin_lock(&files->lock);
	r = files->rlim[resource];
	spin_unlock(&files->lock);
	return r;
}

u64 rlimit_cur(int resource)
{
	return rlimit_get(current, resource).rlim_cur;
}

int rlimit_fsize_check(loff_t pos, size_t *n)
{
	u64 limit = rlimit_cur(RLIMIT_FSIZE);

	if (limit == RLIM64_INFINITY || !*n)
		return 0;
	if ((u64)pos >= limit) {
		signal_send(current, SIGXFSZ);
		return -EFBIG;
	}
	if ((u64)pos + *n > limit)
		*n = limit - pos;
	return 0;
}

bool rlimit_as_ok(struct mm *mm, u32 add)
{
	u64 limit = rlimit_cur(RLIMIT_AS);

	return limit == RLIM64_INFINITY || (u64)vm_total(mm) + add <= limit;
}

/* task_call callback (tasklist_lock held: t cannot be reaped meanwhile). */
static int rlimit_task_alive(struct task *t, void *arg)
{
	(void)arg;
	return t->files && t->state != TASK_ZOMBIE ? 0 : -ESRCH;
}

/* The task a prlimit64 pid names (0: the caller); NULL if none. Another
 * task is only looked at under tasklist_lock (it may be reaped on another
 * CPU), and returned as a token: the caller refuses it, never uses it. */
static struct task *rlimit_task(int pid)
{
	if (!pid || pid == current->pid)
		return current;
	return task_call(pid, rlimit_task_alive, NULL) ? NULL : (struct task *)-1;
}

/* prlimit64 acts on the caller only: with no credentials to compare, one
 * process may not change (or read) another's limits (-EPERM), so init's
 * stay its own. */

/* Set t's limit: cur <= max (-EINVAL), RLIMIT_NOFILE at most NR_OPEN (-EPERM;
 * every process is root, so raising max is allowed). */
static long rlimit_set(struct task *t, int resource, struct kernel_rlimit64 r)
{
	if (r.rlim_cur > r.rlim_max)
		return -EINVAL;
	if (resource == RLIMIT_NOFILE && r.rlim_max > NR_OPEN)
		return -EPERM;
	spin_lock(&t->files->lock);
	t->files->rlim[resource] = r;
	spin_unlock(&t->files->lock);
	return 0;
}

/* A 64-bit limit as the unsigned long of the 32-bit calls. */
static unsigned long rlim_to_long(u64 v, unsigned long infinity)
{
	return v >= infinity ? infinity : (unsigned long)v;
}

static long get_rlimit_long(int resource, struct kernel_rlimit *urlim, unsigned long infinity)
{
	struct kernel_rlimit64 r;
	struct kernel_rlimit k;

	if (resource < 0 || resource >= RLIM_NLIMITS)
		return -EINVAL;
	r = rlimit_get(current, resource);
	k.rlim_cur = rlim_to_long(r.rlim_cur, infinity);
	k.rlim_max = rlim_to_long(r.rlim_max, infinity);
	return copy_to_user(urlim, &k, sizeof(k)) ? -EFAULT : 0;
}

long sys_ugetrlimit(int resource, struct kernel_rlimit *urlim)
{
	return get_rlimit_long(resource, urlim, RLIM_INFINITY);
}

long sys_getrlimit(int resource, struct kernel_rlimit *urlim)
{
	return get_rlimit_long(resource, urlim, RLIM_OLD_INFINITY);
}

long sys_setrlimit(int resource, const struct kernel_rlimit *urlim)
{
	struct kernel_rlimit k;
	struct kernel_rlimit64 r;

	if (resource < 0 || resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (copy_from_user(&k, urlim, sizeof(k)))
		return -EFAULT;
	r.rlim_cur = k.rlim_cur == RLIM_INFINITY ? RLIM64_INFINITY : k.rlim_cur;
	r.rlim_max = k.rlim_max == RLIM_INFINITY ? RLIM64_INFINITY : k.rlim_max;
	return rlimit_set(current, resource, r);
}

long sys_prlimit64(int pid, int resource, const struct kernel_rlimit64 *unew,
		   struct kernel_rlimit64 *uold)
{
	struct kernel_rlimit64 n, old;
	struct task *t;

	if (resource < 0 || resource >= RLIM_NLIMITS || pid < 0)
		return -EINVAL;
	if (unew && copy_from_user(&n, unew, sizeof(n)))
		return -EFAULT;
	t = rlimit_task(pid);
	if (!t)
		return -ESRCH;
	if (t != current)
		return -EPERM;
	old = rlimit_get(t, resource);
	if (unew) {
		long err = rlimit_set(t, resource, n);
		if (err)
			return err;
	}
	return uold && copy_to_user(uold, &old, sizeof(old)) ? -EFAULT : 0;
}
