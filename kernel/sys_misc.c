/* sys_misc.c: small system calls: time, sleeping, yielding, resource counters, poweroff. */
#include "aio.h"
#include "blk_file.h"
#include "clock.h"
#include "errno.h"
#include "fs.h"
#include "mm.h"
#include "power.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "slab.h"
#include "syscall_table.h"
#include "test_hooks.h"
#include "uaccess.h"
#include "uapi/aiok.h"
#include "vm.h"

long sys_clock_gettime(int clock, struct kernel_timespec *utp)
{
	struct kernel_timespec ts;

	if (clock == CLOCK_REALTIME)
		ktime_get_real_ts(&ts);
	else if (clock == CLOCK_MONOTONIC)
		ktime_get_ts(&ts);
	else
		return -EINVAL;
	return copy_to_user(utp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

long sys_gettimeofday(struct kernel_timeval *utv, void *tz)
{
	struct kernel_timespec ts;
	struct kernel_timeval tv;

	if (!utv)
		return 0;
	ktime_get_real_ts(&ts);
	tv.tv_sec = ts.tv_sec;
	tv.tv_usec = ts.tv_nsec / 1000;
	return copy_to_user(utv, &tv, sizeof(tv)) ? -EFAULT : 0;
}

long sys_nanosleep(const struct kernel_timespec *ureq, struct kernel_timespec *urem)
{
	struct kernel_timespec req, rem;
	u64 end, now;

	if (copy_from_user(&req, ureq, sizeof(req)))
		return -EFAULT;
	if (req.tv_sec < 0 || req.tv_nsec < 0 || req.tv_nsec >= 1000000000L)
		return -EINVAL;
	end = ktime_get_ns() + timespec_to_ns(&req);
	while ((now = ktime_get_ns()) < end) {
		schedule_timeout_interruptible(MAX(1ul, nsecs_to_jiffies(end - now)));
		if (signal_pending(current)) {
			now = ktime_get_ns();
			ns_to_timespec(end > now ? end - now : 0, &rem);
			if (urem && copy_to_user(urem, &rem, sizeof(rem)))
				return -EFAULT;
			return -EINTR;
		}
	}
	return 0;
}

long sys_sched_yield(void)
{
	yield();
	return 0;
}

/* Read the resource counters; changes nothing (aiok_shrink settles the slabs). */
long sys_aiok_stat(struct aiok_stat *ust)
{
	struct aiok_stat st = {
		.size = sizeof(st),
		.free_pages = nr_free_pages(),
		.free_highmem = nr_free_pages_zone(ZONE_HIGHMEM),
		.slab_objects = slab_objects_in_use(),
		.aio_nr = atomic_read(&aio_nr),
		.aio_reqs = atomic_read(&aio_nr_kiocbs),
		.nr_tasks = nr_tasks,
		.open_files = atomic_read(&nr_files),
		.nr_mms = atomic_read(&nr_mms),
		.blk_ios = atomic_read(&blk_io_live),
		.ramfs_pages = atomic_read(&ramfs_pages),
	};

	return copy_to_user(ust, &st, sizeof(st)) ? -EFAULT : 0;
}

/* Give the slab caches' empty slabs, kept for reuse, back to the page allocator,
 * so that free_pages compares across a leak check. Any process; 0. */
long sys_aiok_shrink(void)
{
	slab_shrink_all();
	return 0;
}

/* End the run: init only (the machine is its to stop); others get -EPERM. */
long sys_poweroff(int status)
{
	if (!proc_is_init(current))
		return -EPERM;
	printk(KERN_NOTICE "poweroff: status %d from pid %d (%s)\n", status, current->pid,
	       current->name);
	machine_exit(status || ktest_boot_failures() ? EXIT_FAIL : EXIT_PASS);
}
