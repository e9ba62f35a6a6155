/* mman.c: the memory system calls: brk, mmap2 (anonymous, ramfs and ext2 files),
 * munmap, mremap, mprotect, madvise and msync. Protections are kept per
 * region (VM_READ/VM_WRITE from PROT_*; PROT_NONE gives neither), and the
 * fault handler and get_user_page honour them for the CPU and the kernel
 * alike; nothing maps below VM_MIN_ADDR (64 KiB). */
#include "aio.h"
#include "errno.h"
#include "fs.h"
#include "syscall_table.h"
#include "paging.h"
#include "resource.h"
#include "sched.h"
#include "uapi/mman.h"
#include "vm.h"

#define MS_ASYNC	1
#define MS_INVALIDATE	2
#define MS_SYNC		4
#define MADV_NORMAL	0
#define MADV_RANDOM	1
#define MADV_SEQUENTIAL	2
#define MADV_WILLNEED	3
#define MADV_DONTNEED	4

/* brk(addr): move the program break; returns the new (or unchanged) break.
 * The heap grows until it meets another mapping (mmap places its regions
 * from 1 GiB up, the stack is at the top) or RLIMIT_AS. */
static long do_brk(struct mm *mm, unsigned long addr)
{
	u32 old_end, new_end;

	if (!addr || addr < mm->brk_start || addr > USER_STACK_TOP - USER_STACK_MAX)
		return mm->brk;
	old_end = ALIGN_UP(mm->brk, PAGE_SIZE);
	new_end = ALIGN_UP(addr, PAGE_SIZE);
	if (new_end > old_end && (!rlimit_as_ok(mm, new_end - old_end) ||
				  vm_map(mm, old_end, new_end - old_end, VM_READ | VM_WRITE)))
		return mm->brk;		/* collides with a mapping, or the limit: unchanged */
	if (new_end < old_end)
		vm_unmap(mm, new_end, old_end - new_end);
	mm->brk = addr;
	return addr;
}

static u32 prot_to_vm(int prot)
{
	return (prot & PROT_READ ? VM_READ : 0) | (prot & PROT_WRITE ? VM_WRITE | VM_READ : 0) |
	       (prot & PROT_EXEC ? VM_EXEC | VM_READ : 0);
}

/* The file an mmap2 maps: a regular file whose f_op has map_page (ramfs,
 * ext2; -ENODEV otherwise, -EBADF for no descriptor) or /dev/zero, open for
 * reading, and for writing when a shared mapping may write (-EACCES). With a
 * reference. */
static struct file *mmap_file(int fd, int prot, int flags)
{
	struct file *f = fget(fd);

	if (!f)
		return ERR_PTR(-EBADF);
	if (!file_is_dev_zero(f) &&
	    (!f->f_op || !f->f_op->map_page || !f->f_inode || !S_ISREG(f->f_inode->mode))) {
		fput(f);
		return ERR_PTR(-ENODEV);
	}
	if (!(f->f_mode & FMODE_READ) ||
	    ((flags & MAP_SHARED) && (prot & PROT_WRITE) && !(f->f_mode & FMODE_WRITE))) {
		fput(f);
		return ERR_PTR(-EACCES);
	}
	return f;
}

/* Where the mapping goes (MAP_FIXED replaces what is there; a hint below
 * USER_MMAP_BASE moves up): the address, or 0. */
static u32 mmap_place(struct mm *mm, unsigned long addr, unsigned len, int flags)
{
	if (flags & MAP_FIXED) {
		vm_unmap(mm, addr, len);
		return addr;
	}
	return vm_find_free(mm, addr && addr >= USER_MMAP_BASE ? addr : USER_MMAP_BASE, len);
}

static long do_mmap2(struct mm *mm, unsigned long addr, unsigned len, int prot, int flags,
		     int fd, unsigned long pgoff)
{
	u32 vmflags = prot_to_vm(prot);
	struct file *f = NULL;
	int err;

	if (!len || len > USER_TOP || !!(flags & MAP_SHARED) == !!(flags & MAP_PRIVATE))
		return -EINVAL;
	if ((flags & MAP_FIXED) &&
	    ((addr & (PAGE_SIZE - 1)) || addr + len > USER_TOP || addr + len < addr))
		return -EINVAL;
	if ((flags & MAP_FIXED) && addr < VM_MIN_ADDR)
		return -EPERM;			/* as Linux's mmap_min_addr answers */
	if (!rlimit_as_ok(mm, ALIGN_UP(len, PAGE_SIZE)))
		return -ENOMEM;
	if (!(flags & MAP_ANONYMOUS) && IS_ERR(f = mmap_file(fd, prot, flags)))
		return PTR_ERR(f);
	if (f && file_is_dev_zero(f)) {
		fput(f);			/* anonymous memory, shared or not */
		f = NULL;
		flags |= MAP_ANONYMOUS;
	}
	if ((flags & (MAP_ANONYMOUS | MAP_SHARED)) == (MAP_ANONYMOUS | MAP_SHARED) &&
	    len <= RAMFS_MAX_SIZE) {
		f = ramfs_anon_file(ALIGN_UP(len, PAGE_SIZE));	/* larger: pages shared once touched */
		if (IS_ERR(f))
			return PTR_ERR(f);
		pgoff = 0;
	}
	if (flags & MAP_SHARED)
		vmflags |= VM_SHARED;
	addr = mmap_place(mm, addr, len, flags);
	if (!addr)
		err = -ENOMEM;
	else if (f)
		err = vm_map_file(mm, addr, len, vmflags, f, pgoff);
	else
		err = vm_map(mm, addr, len, vmflags);
	if (f)
		fput(f);			/* the region holds its own reference */
	return err ? err : (long)addr;
}

/* The threads of a process may call brk, mmap2, munmap and mremap at once:
 * each is one step under the mm's map_mutex (a free range found and mapped
 * before another thread can take it; brk's read and write of mm->brk). */
long sys_brk(unsigned long addr)
{
	struct mm *mm = current->mm;
	long ret;

	mutex_lock(&mm->map_mutex);
	ret = do_brk(mm, addr);
	mutex_unlock(&mm->map_mutex);
	return ret;
}

long sys_mmap2(unsigned long addr, unsigned len, int prot, int flags, int fd,
	       unsigned long pgoff)
{
	struct mm *mm = current->mm;
	long ret;

	mutex_lock(&mm->map_mutex);
	ret = do_mmap2(mm, addr, len, prot, flags, fd, pgoff);
	mutex_unlock(&mm->map_mutex);
	return ret;
}

long sys_munmap(unsigned long addr, unsigned len)
{
	struct mm *mm = current->mm;
	long ret;

	mutex_lock(&mm->map_mutex);
	ret = vm_unmap(mm, addr, len);
	mutex_unlock(&mm->map_mutex);
	return ret;
}

/* A user range [addr, addr+len) that is page aligned and below USER_TOP. */
static bool user_range_ok(unsigned long addr, unsigned long len)
{
	return !(addr & (PAGE_SIZE - 1)) && addr + len >= addr && addr + len <= USER_TOP;
}

/* mremap: -EINVAL for bad flags, alignment or a zero length; an AIO ring
 * moves whole (MREMAP_MAYMOVE | MREMAP_FIXED to a new address), and its
 * context's id becomes the new address, as on Linux. */
static long do_mremap(struct mm *mm, unsigned long addr, unsigned old_len, unsigned new_len,
		      int flags, unsigned long new_addr)
{
	u32 ring = 0, fixed = 0;
	long ret;

	if ((flags & ~(MREMAP_MAYMOVE | MREMAP_FIXED)) || !new_len || !old_len ||
	    ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE)))
		return -EINVAL;
	if (!user_range_ok(addr, ALIGN_UP(old_len, PAGE_SIZE)) || new_len > USER_TOP)
		return -EINVAL;
	if (flags & MREMAP_FIXED) {
		fixed = new_addr;
		if (!fixed || !user_range_ok(new_addr, ALIGN_UP(new_len, PAGE_SIZE)) ||
		    (new_addr < addr + old_len && addr < new_addr + new_len))
			return -EINVAL;		/* overlapping the old range */
		if (new_addr < VM_MIN_ADDR)
			return -EPERM;		/* as mmap */
	}
	if (new_len > old_len && !rlimit_as_ok(mm, ALIGN_UP(new_len - old_len, PAGE_SIZE)))
		return -ENOMEM;
	/* a ring moves only with MREMAP_FIXED (it never grows): not into another
	 * live context's ring range (issue 14, finding 5) */
	if (fixed && (vm_flags_at(mm, addr) & VM_RING) &&
	    (ret = aio_ring_may_move(mm, addr, ALIGN_UP(old_len, PAGE_SIZE), fixed)))
		return ret;
	ret = vm_mremap(mm, addr, old_len, new_len, flags & MREMAP_MAYMOVE, fixed, &ring);
	if (ring && ret >= 0 && (u32)ret != addr)
		aio_ring_moved(mm, addr, ret);
	return ret;
}

long sys_mremap(unsigned long addr, unsigned old_len, unsigned new_len, int flags,
		unsigned long new_addr)
{
	struct mm *mm = current->mm;
	long ret;

	mutex_lock(&mm->map_mutex);
	ret = do_mremap(mm, addr, old_len, new_len, flags, new_addr);
	mutex_unlock(&mm->map_mutex);
	return ret;
}

long sys_mprotect(unsigned long addr, unsigned len, int prot)
{
	if (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC))
		return -EINVAL;
	if (!user_range_ok(addr, ALIGN_UP(len, PAGE_SIZE)))
		return -EINVAL;
	return len ? vm_protect(current->mm, addr, len, prot_to_vm(prot)) : 0;
}

/* Advice only, except MADV_DONTNEED (private pages read as zeros again). */
long sys_madvise(unsigned long addr, unsigned len, int advice)
{
	if (!user_range_ok(addr, ALIGN_UP(len, PAGE_SIZE)))
		return -EINVAL;
	switch (advice) {
	case MADV_NORMAL: case MADV_RANDOM: case MADV_SEQUENTIAL: case MADV_WILLNEED:
		return len && !vm_range_mapped(current->mm, addr, len) ? -ENOMEM : 0;
	case MADV_DONTNEED:
		return len ? vm_dontneed(current->mm, addr, len) : 0;
	}
	return -EINVAL;
}

/* The checks are Linux's: flags, alignment, and a range that is all mapped.
 * MS_SYNC writes back the files of the shared file regions in the range
 * (a shared mapping writes the file's own cached pages in place, marked dirty
 * by its write faults: see f_op->map_page) and returns when they are on the
 * device; MS_ASYNC has nothing to start (the pages are dirty in the cache
 * already: the flusher, fsync, sync or umount write them). */
long sys_msync(unsigned long addr, unsigned len, int flags)
{
	if ((flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC)) ||
	    ((flags & MS_ASYNC) && (flags & MS_SYNC)))
		return -EINVAL;
	if (!user_range_ok(addr, ALIGN_UP(len, PAGE_SIZE)))
		return -EINVAL;
	if (len && !vm_range_mapped(current->mm, addr, len))
		return -ENOMEM;
	return len && (flags & MS_SYNC) ? vm_sync_range(current->mm, addr, len) : 0;
}
