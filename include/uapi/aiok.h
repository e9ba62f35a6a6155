/* aiok.h (uapi): aiokern's own calls: the resource counters init checks for leaks,
 * and the debug checks' report counts it checks are 0.
 *
 * aiok_stat (call 500) only reads them. Each slab cache keeps an empty slab for
 * reuse, which free_pages does not count: a leak check calls aiok_shrink (call
 * 502) before each aiok_stat whose free_pages it compares. */
#ifndef UAPI_AIOK_H
#define UAPI_AIOK_H

#include "types.h"

/* Filled by aiok_stat (call 500); 0 in a field the kernel does not count yet. */
struct aiok_stat {
	__u32	size;		/* sizeof(struct aiok_stat) as the kernel knows it */
	__u32	free_pages;	/* free physical pages, all zones */
	__u32	free_highmem;	/* of which HighMem */
	__u32	slab_objects;	/* slab objects in use, all caches */
	__u32	aio_nr;		/* io_setup reservations outstanding (sum of nr_reqs) */
	__u32	aio_reqs;	/* AIO requests allocated */
	__u32	nr_tasks;	/* tasks: processes, their threads, zombies, kernel threads */
	__u32	open_files;	/* open file objects */
	__u32	nr_mms;		/* user address spaces alive */
	__u32	blk_ios;	/* block I/Os (struct blk_io) not yet freed */
	__u32	ramfs_pages;	/* pages holding ramfs file data */
	/* Debug-check reports since boot (each must stay 0): */
	__u32	atomic_bugs;	/* sleeping (or might_sleep) in atomic context */
	__u32	mutex_bugs;	/* mutex rules broken (see the kernel's mutex.h) */
	__u32	uaccess_atomic;	/* user memory accessed in atomic context */
	/* Threads and signals (issue 15): */
	__u32	thread_groups;	/* signal_structs alive: processes, zombies included */
	__u32	sigqueues;	/* queued siginfo entries (pending signals) */
	__u32	futex_waiters;	/* tasks queued in futex waits */
	/* Files on disks (issue 18): */
	__u32	ext2_pages;	/* pages of ext2 file data in the page cache */
	/* The lock-order checker (issue 17; booted with "lockdep"): */
	__u32	lockdep_bugs;	/* lock order (and irq) inversions reported */
};
UAPI_ASSERT_SIZE(struct aiok_stat, 76);

#endif
