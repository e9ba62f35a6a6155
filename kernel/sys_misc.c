/* sys_misc.c: small system calls: time and clocks, sleeping (nanosleep, clock_nanosleep), yielding, uname, sysinfo, user ids, resource counters, poweroff. */
#include "aio.h"
#include "blk_file.h"
#include "clock.h"
#include "errno.h"
#include "ext2_mount.h"
#include "futex.h"
#include "signal.h"
#include "fs.h"
#include "mm.h"
#include "lockdep.h"
#include "mutex.h"
#include "power.h"
#include "printk.h"
#include "proc.h"
#include "rusage.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "syscall_table.h"
#include "test_hooks.h"
#include "uaccess.h"
#include "workqueue.h"
#include "uapi/aiok.h"
#include "uapi/sysinfo.h"
#include "uapi/utsname.h"
#include "version.h"
#include "vm.h"

long sys_clock_gettime(int clock, struct kernel_timespec *utp)
{
	struct kernel_timespec ts;

	if (clock == CLOCK_REALTIME)
		ktime_get_real_ts(&ts);
	else if (clock == CLOCK_MONOTONIC)
		ktime_get_ts(&ts);
	else if (clock == CLOCK_PROCESS_CPUTIME_ID || clock == CLOCK_THREAD_CPUTIME_ID)
		ns_to_timespec(rusage_cpu_ns(clock == CLOCK_THREAD_CPUTIME_ID), &ts);
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

/* Seconds since the epoch, also stored at tloc unless it is NULL. */
long sys_time(long *tloc)
{
	struct kernel_timespec ts;

	ktime_get_real_ts(&ts);
	if (tloc && put_user(ts.tv_sec, tloc))
		return -EFAULT;
	return ts.tv_sec;
}

static long nanosleep_restart(struct restart_block *rb);

/* Sleep until end_ns (CLOCK_MONOTONIC); on a signal store the time left at
 * urem and ask for a restart with it (restart_syscall) when no handler runs. */
static long nanosleep_until(u64 end, struct kernel_timespec *urem)
{
	struct kernel_timespec rem;
	u64 now;

	while ((now = ktime_get_ns()) < end) {
		schedule_timeout_interruptible(MAX(1ul, nsecs_to_jiffies(end - now)));
		if (signal_pending(current)) {
			now = ktime_get_ns();
			ns_to_timespec(end > now ? end - now : 0, &rem);
			if (urem && copy_to_user(urem, &rem, sizeof(rem)))
				return -EFAULT;
			current->restart.fn = nanosleep_restart;
			current->restart.deadline_ns = end;
			current->restart.urem = (u32)urem;
			return -ERESTART_RESTARTBLOCK;
		}
	}
	return 0;
}

static long nanosleep_restart(struct restart_block *rb)
{
	return nanosleep_until(rb->deadline_ns, (struct kernel_timespec *)rb->urem);
}

long sys_nanosleep(const struct kernel_timespec *ureq, struct kernel_timespec *urem)
{
	struct kernel_timespec req;

	if (copy_from_user(&req, ureq, sizeof(req)))
		return -EFAULT;
	if (req.tv_sec < 0 || req.tv_nsec < 0 || req.tv_nsec >= 1000000000L)
		return -EINVAL;
	return nanosleep_until(ktime_get_ns() + timespec_to_ns(&req), urem);
}

/* The wall clocks read the TSC through ktime: a nanosecond's resolution;
 * the CPU-time clocks count ticks. */
long sys_clock_getres(int clock, struct kernel_timespec *ures)
{
	struct kernel_timespec res = { 0, 1 };

	if (clock == CLOCK_PROCESS_CPUTIME_ID || clock == CLOCK_THREAD_CPUTIME_ID)
		res.tv_nsec = 1000000000L / HZ;
	else if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return -EINVAL;
	return ures && copy_to_user(ures, &res, sizeof(res)) ? -EFAULT : 0;
}

/* nanosleep on a clock; with TIMER_ABSTIME req is a time on that clock (no
 * rem, and a time already past returns at once). CLOCK_REALTIME cannot be
 * set here, so an absolute realtime sleep is a monotonic one. */
long sys_clock_nanosleep(int clock, int flags, const struct kernel_timespec *ureq,
			 struct kernel_timespec *urem)
{
	struct kernel_timespec req, now;
	u64 end;

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return -EINVAL;
	if (copy_from_user(&req, ureq, sizeof(req)))
		return -EFAULT;
	if (req.tv_sec < 0 || req.tv_nsec < 0 || req.tv_nsec >= 1000000000L)
		return -EINVAL;
	if (!(flags & TIMER_ABSTIME))
		return nanosleep_until(ktime_get_ns() + timespec_to_ns(&req), urem);
	if (clock == CLOCK_REALTIME)
		ktime_get_real_ts(&now);
	else
		ktime_get_ts(&now);
	if (timespec_to_ns(&req) <= timespec_to_ns(&now))
		return 0;
	end = ktime_get_ns() + (timespec_to_ns(&req) - timespec_to_ns(&now));
	return nanosleep_until(end, NULL);
}

/* A call interrupted by a signal that ran no handler goes on where it was. */
long sys_restart_syscall(void)
{
	struct restart_block *rb = &current->restart;
	long (*fn)(struct restart_block *) = rb->fn;

	rb->fn = NULL;
	return fn ? fn(rb) : -EINTR;
}

long sys_sched_yield(void)
{
	yield();
	return 0;
}

long sys_uname(struct new_utsname *uname)
{
	static const struct new_utsname u = {
		.sysname = KERNEL_NAME, .nodename = KERNEL_NAME, .release = KERNEL_VERSION,
		.version = "#1 " KERNEL_NAME " " KERNEL_VERSION, .machine = "i686",
		.domainname = "(none)",
	};

	return copy_to_user(uname, &u, sizeof(u)) ? -EFAULT : 0;
}

long sys_sysinfo(struct kernel_sysinfo *uinfo)
{
	struct kernel_sysinfo si;

	memset(&si, 0, sizeof(si));
	si.uptime = (long)(ktime_get_ns() / 1000000000ull);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		si.totalram += zones[z].present_pages;
	si.freeram = nr_free_pages();
	si.totalhigh = zones[ZONE_HIGHMEM].present_pages;
	si.freehigh = nr_free_pages_zone(ZONE_HIGHMEM);
	si.procs = nr_tasks;
	si.mem_unit = PAGE_SIZE;
	return copy_to_user(uinfo, &si, sizeof(si)) ? -EFAULT : 0;
}

/* Every process runs as root: all user and group ids are 0. */
long sys_getuid(void) { return 0; }
long sys_geteuid(void) { return 0; }
long sys_getgid(void) { return 0; }
long sys_getegid(void) { return 0; }
long sys_getuid32(void) { return 0; }
long sys_geteuid32(void) { return 0; }
long sys_getgid32(void) { return 0; }
long sys_getegid32(void) { return 0; }

/* Read the resource counters; changes nothing (aiok_shrink settles the slabs). */
long sys_aiok_stat(struct aiok_stat *ust)
{
	struct aiok_stat st = {
		.size = sizeof(st),
		.free_pages = nr_free_pages(),
		.free_highmem = nr_free_pages_zone(ZONE_HIGHMEM),
		.slab_objects = slab_objects_in_use(),
		.aio_nr = atomic_read(&aio_nr),
		.aio_reqs = aio_nr_kiocbs_read(),
		.nr_tasks = nr_tasks,
		.open_files = atomic_read(&nr_files),
		.nr_mms = atomic_read(&nr_mms),
		.blk_ios = atomic_read(&blk_io_live),
		.ramfs_pages = atomic_read(&ramfs_pages),
		.atomic_bugs = sched_atomic_bugs,
		.mutex_bugs = mutex_bugs,
		.uaccess_atomic = uaccess_atomic_bugs,
		.thread_groups = atomic_read(&nr_signal_structs),
		.sigqueues = atomic_read(&nr_sigqueues),
		.futex_waiters = futex_waiters,
		.ext2_pages = atomic_read(&ext2_cached_pages),
		.lockdep_bugs = lockdep_bugs,
	};

	return copy_to_user(ust, &st, sizeof(st)) ? -EFAULT : 0;
}

/* Let deferred work finish (the events queue: a last fput from an
 * interrupt), then give the slab caches' empty slabs, kept for reuse, back to
 * the page allocator, so that free_pages compares across a leak check (with
 * several CPUs the caller may get here before the events thread ran). Any
 * process; 0. */
long sys_aiok_shrink(void)
{
	flush_scheduled_work();
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
