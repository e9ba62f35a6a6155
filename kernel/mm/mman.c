/* mman.c: the memory system calls: brk, mmap2 (anonymous) and munmap.
 * Protections are kept per region (VM_READ/VM_WRITE from PROT_*; PROT_NONE
 * gives neither), and the fault handler and get_user_page honour them for the
 * CPU and the kernel alike; nothing maps below VM_MIN_ADDR (64 KiB). */
#include "errno.h"
#include "syscall_table.h"
#include "paging.h"
#include "sched.h"
#include "uapi/mman.h"
#include "vm.h"

#define BRK_MAX		(256u << 20)	/* the heap may grow this far above brk_start */

/* brk(addr): move the program break (map_mutex held). */
static u32 do_brk(struct mm *mm, u32 addr)
{
	u32 old_end, new_end;

	if (!addr || addr < mm->brk_start || addr - mm->brk_start > BRK_MAX)
		return mm->brk;
	old_end = ALIGN_UP(mm->brk, PAGE_SIZE);
	new_end = ALIGN_UP(addr, PAGE_SIZE);
	if (new_end > old_end && vm_map(mm, old_end, new_end - old_end, VM_READ | VM_WRITE))
		return mm->brk;		/* collides with a mapping: unchanged */
	if (new_end < old_end)
		vm_unmap(mm, new_end, old_end - new_end);
	mm->brk = addr;
	return addr;
}

/* brk(addr): returns the new (or unchanged) break. Threads of the process
 * may call it at once: map_mutex makes each a whole step. */
long sys_brk(unsigned long addr)
{
	struct mm *mm = current->mm;
	u32 ret;

	mutex_lock(&mm->map_mutex);
	ret = do_brk(mm, addr);
	mutex_unlock(&mm->map_mutex);
	return ret;
}

static u32 prot_to_vm(int prot)
{
	return (prot & PROT_READ ? VM_READ : 0) | (prot & PROT_WRITE ? VM_WRITE | VM_READ : 0) |
	       (prot & PROT_EXEC ? VM_EXEC | VM_READ : 0);
}

static long do_mmap2(struct mm *mm, unsigned long addr, unsigned len, int prot, int flags)
{
	u32 vmflags = prot_to_vm(prot);
	int err;

	if (!(flags & MAP_ANONYMOUS))
		return -ENODEV;			/* no file mappings (yet) */
	if (!len || len > USER_TOP || !!(flags & MAP_SHARED) == !!(flags & MAP_PRIVATE))
		return -EINVAL;
	if (flags & MAP_SHARED)
		vmflags |= VM_SHARED;
	if (flags & MAP_FIXED) {
		if ((addr & (PAGE_SIZE - 1)) || addr + len > USER_TOP || addr + len < addr)
			return -EINVAL;
		if (addr < VM_MIN_ADDR)
			return -EPERM;		/* as Linux's mmap_min_addr answers */
		vm_unmap(mm, addr, len);
	} else {				/* a hint below USER_MMAP_BASE moves up */
		addr = vm_find_free(mm, addr && addr >= USER_MMAP_BASE ? addr : USER_MMAP_BASE, len);
		if (!addr)
			return -ENOMEM;
	}
	err = vm_map(mm, addr, len, vmflags);
	return err ? err : (long)addr;
}

/* Finding a free range and mapping it is one step under map_mutex: another
 * thread cannot take the range in between. */
long sys_mmap2(unsigned long addr, unsigned len, int prot, int flags, int fd,
	       unsigned long pgoff)
{
	struct mm *mm = current->mm;
	long ret;

	mutex_lock(&mm->map_mutex);
	ret = do_mmap2(mm, addr, len, prot, flags);
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
