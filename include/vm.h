/* vm.h: user address spaces: regions (vm areas), brk, mmap, faults, fork copies. */
#ifndef VM_H
#define VM_H

#include "atomic.h"
#include "list.h"
#include "mutex.h"
#include "spinlock.h"
#include "paging.h"
#include "types.h"

#define USER_STACK_TOP	0xBFFFF000u	/* one guard page below the kernel */
#define USER_STACK_MAX	(8u << 20)	/* the stack area may grow to 8 MiB */
#define USER_MMAP_BASE	0x40000000u	/* mmap searches upward from here */
#define VM_MIN_ADDR	0x10000u	/* nothing maps below (Linux's mmap_min_addr) */

#define VM_READ		0x1
#define VM_WRITE	0x2
#define VM_EXEC		0x4
#define VM_SHARED	0x8		/* MAP_SHARED: fork shares pages, no COW */
#define VM_STACK	0x10
#define VM_RING		0x20		/* an AIO ring: pages owned by the AIO core */

struct page;
struct aio_mm;

struct file;
struct inode;

struct vm_area {
	u32 start, end;			/* [start, end), page aligned */
	u32 flags;
	struct list_head list;		/* in mm->vmas, sorted by start */
	struct file *file;		/* a mapped file (a reference; its f_op has
					 * map_page: ramfs, ext2), or NULL */
	u32 pgoff;			/* the file page mapped at start */
};

struct mm {
	atomic_t users;			/* references: one per task using it */
	atomic_t tasks;			/* tasks using it (threads, a vfork child): the
					 * last one out ends its AIO contexts */
	u32 *pgdir;
	spinlock_t lock;		/* guards vmas, the page tables and nr_pages;
					 * process context only (no irqsave) */
	struct list_head vmas;
	struct mutex map_mutex;		/* serialises brk, mmap2, munmap, mremap and
					 * an AIO ring's map + link / unlink + unmap
					 * of the threads sharing the mm (a free range
					 * found and mapped in one step); outside
					 * mm->lock */
	u32 brk_start, brk;		/* heap: [brk_start, brk); written under map_mutex
					 * (sys_brk) or by exec before any thread, read
					 * by fork under lock */
	u32 nr_pages;			/* user pages mapped (for k-mem / leaks) */
	struct aio_mm *aio;		/* AIO contexts; NULL until io_setup */
	struct list_head dead_vmas;	/* regions with a file, cut under lock: their
					 * fput waits for vm_reap (mm->lock) */
	struct list_head mm_link;	/* every address space (mm_list_lock, vm.c) */
	bool oom_victim;		/* the OOM killer chose it (oom_lock and
					 * tasklist_lock); counted in oom.c until
					 * mm_put frees it */
};

struct mm *mm_create(void);
/* Copy an address space for fork: private pages become copy-on-write. */
struct mm *mm_dup(struct mm *old);
/* Drop a user; the last one tears the address space down (AIO first). */
void mm_put(struct mm *mm);

/* Add a region [start, start+len) with flags; -EINVAL on overlap, -EPERM
 * below VM_MIN_ADDR. */
int vm_map(struct mm *mm, u32 start, u32 len, u32 flags);
/* Add a region mapping file (a regular file whose f_op has map_page; the
 * region takes its own reference) from page pgoff: faults map the file's own
 * pages, read-only until a write: a shared region's write fault asks the file
 * for the page again with write set (the file system marks it dirty) and makes
 * the entry writable; a private region's copies the page. -EINVAL on overlap. */
int vm_map_file(struct mm *mm, u32 start, u32 len, u32 flags, struct file *file, u32 pgoff);
/* Remove [start, start+len): unmaps and frees the pages in it. */
int vm_unmap(struct mm *mm, u32 start, u32 len);
/* Find a free range of len bytes at or above hint; 0 if none. */
/* Like vm_unmap, but only regions carrying flag (an AIO ring: never a mapping
 * the process put over it after unmapping the ring). */
int vm_unmap_flagged(struct mm *mm, u32 start, u32 len, u32 flag);
u32 vm_find_free(struct mm *mm, u32 hint, u32 len);
struct vm_area *vm_find(struct mm *mm, u32 addr);
/* The flags of the region at addr, 0 if none (takes mm->lock). */
u32 vm_flags_at(struct mm *mm, u32 addr);
/* Map an existing page at addr (used by the AIO ring); takes a page reference. */
int vm_insert_page(struct mm *mm, u32 addr, struct page *page, bool writable);

/* Resolve a fault at addr (demand-zero or copy-on-write). Returns 0 when the
 * access can be retried, -EFAULT when addr is not a valid access: outside
 * every region, or in one without VM_READ (a read) or VM_WRITE (a write);
 * -EIO when it is in a file region but the file has no page there (past its
 * end, a read error, no room: SIGBUS, as Linux). */
int handle_mm_fault(struct mm *mm, u32 addr, bool write);
/* Pin the user page at addr for DMA or a cross-process copy: faults it in
 * (for writing if write) and returns it with a reference, or NULL when the
 * region does not allow the access (VM_READ to read it, VM_WRITE to write),
 * present page or not. */
struct page *get_user_page(struct mm *mm, u32 addr, bool write);
/* Does a region overlapping [addr, addr+len) forbid the access (lack
 * VM_WRITE for write, else VM_READ)? Holes do not count: a copy finds them.
 * Takes mm->lock. */
bool vm_range_forbids(struct mm *mm, u32 addr, u32 len, bool write);

/* Is all of [start, start+len) inside regions? */
bool vm_range_mapped(struct mm *mm, u32 start, u32 len);
/* Bytes of all regions (RLIMIT_AS). */
u32 vm_total(struct mm *mm);
/* mprotect: give [start, start+len) (page aligned) the access bits prot_flags
 * (VM_READ/VM_WRITE/VM_EXEC), splitting regions; PROT_NONE keeps the pages
 * out of reach. -ENOMEM when part of the range is not mapped, -EACCES to
 * make a shared mapping of a file not open for writing writable. */
int vm_protect(struct mm *mm, u32 start, u32 len, u32 prot_flags);
/* MADV_DONTNEED: drop the private pages of the range (they read as zeros
 * again); shared ones keep their data. -ENOMEM unmapped, -EINVAL a ring. */
int vm_dontneed(struct mm *mm, u32 start, u32 len);
/* mremap of [old, old+old_len) to new_len bytes: shrink or grow in place, or
 * move (may_move) to a free range or to fixed (non-zero: MREMAP_FIXED, what
 * is there is unmapped first). The new address or -errno (-EFAULT: not one
 * region; -ENOMEM: no room; -EINVAL: part of an AIO ring or a ring resized).
 * *ring_flag tells whether the region was an AIO ring (the caller moves the
 * context's id with it). */
long vm_mremap(struct mm *mm, u32 old, u32 old_len, u32 new_len, bool may_move, u32 fixed,
	       u32 *ring_flag);

/* Take the pages [first, last] of a file out of every address space that
 * maps it (shared and private copies alike, as Linux's truncate), so that the
 * next access faults and asks the file again: a file that shrank (last ~0u:
 * then there is nothing, SIGBUS), or pages that direct I/O is about to go
 * around (the next fault finds the new page). Process context; takes
 * mm_list_lock, then each mm->lock (after any file-system lock the caller
 * holds). */
void vm_unmap_file_pages(struct inode *inode, u32 first, u32 last);
/* msync(MS_SYNC): write back the files of the shared file regions that
 * overlap [start, start+len) (their f_op->fsync, data only): 0 or the first
 * error. Takes mm->lock between the calls, none during them. */
int vm_sync_range(struct mm *mm, u32 start, u32 len);

/* Load mm's page directory (the kernel's for NULL); nothing to do when it is
 * the one loaded. mm_put moves off a directory it is about to free. */
void mm_activate(struct mm *mm);
extern atomic_t nr_mms;			/* address spaces alive (leak checks) */

#endif
