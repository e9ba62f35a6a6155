/* vm_fault.c: user page faults: demand-zero and file pages, copy-on-write,
 * shared file write faults, get_user_page for pins, the OOM killer's retry;
 * mm->lock is dropped while a page is allocated (struct fault_alloc). */
#include "errno.h"
#include "fs.h"
#include "highmem.h"
#include "mm.h"
#include "oom.h"
#include "paging.h"
#include "panic.h"
#include "printk.h"
#include "slab.h"
#include "string.h"
#include "test_hooks.h"
#include "vm.h"
#include "x86.h"
#include "smp.h"
#include "tlb.h"
#include "vm_internal.h"

int map_new_page(struct mm *mm, u32 va, struct page *page, bool writable)
{
	int err = map_page(mm->pgdir, va, page_to_phys(page),
			   PTE_PRESENT | PTE_USER | (writable ? PTE_WRITE : 0));

	if (!err)
		mm->nr_pages++;
	return err;
}

/* Clear a user page (process context: KM_USER0). */
static void clear_user_highpage(struct page *page)
{
	void *addr = kmap_atomic(page, KM_USER0);

	memset(addr, 0, PAGE_SIZE);
	kunmap_atomic(addr, KM_USER0);
}

/* Copy a user page's contents (process context: KM_USER0 and KM_USER1). */
void copy_user_highpage(struct page *to, struct page *from)
{
	void *src = kmap_atomic(from, KM_USER0), *dst = kmap_atomic(to, KM_USER1);

	memcpy(dst, src, PAGE_SIZE);
	kunmap_atomic(dst, KM_USER1);
	kunmap_atomic(src, KM_USER0);
}

/*
 * A fault allocates its page without mm->lock, with GFP_HIGHUSER (it may
 * sleep): the locked part says what it needs and returns -EAGAIN, the page is
 * made (zeroed, or copied from cow_src, on which it holds a reference), and
 * the locked part runs again and checks that nothing changed meanwhile.
 */
struct fault_alloc {
	struct page *fresh;		/* zeroed, or a copy of cow_src */
	struct page *cow_src;		/* the shared page to copy (referenced) */
	struct inode *file_inode;	/* a file page is wanted (a reference) ... */
	u32 file_idx;			/* ... this one ... */
	bool file_write;		/* ... for a shared write (map_page's write) */
	u32 file_gen;			/* file_inode->i_mapgen before the fetch */
	int (*map_page)(struct inode *, u32, bool, struct page **);	/* the region's file's */
	struct page *file_page;		/* it, referenced, once fetched */
	bool file_only;			/* the next try needs only file_page */
};

/* The page to copy next (mm->lock held): fresh must be made again. */
static void fault_set_source(struct fault_alloc *fa, struct page *src)
{
	if (src)
		get_page(src);
	if (fa->cow_src)
		put_page(fa->cow_src);
	fa->cow_src = src;
	if (fa->fresh)
		put_page(fa->fresh);
	fa->fresh = NULL;
}

/* No lock held: ask the file for fa's page. 0, -ENOMEM, -EFAULT (a fault
 * from the file system's own copy: it retries), or -EIO (SIGBUS). */
static int fault_fetch_file_page(struct fault_alloc *fa)
{
	struct inode *inode = fa->file_inode;
	int err;

	fa->file_gen = atomic_read(&inode->i_mapgen);	/* before the size is seen */
	while ((err = fa->map_page(inode, fa->file_idx, fa->file_write, &fa->file_page)) ==
	       -ENOMEM)
		if (!oom_make_room())
			return -ENOMEM;
	if (err)
		fa->file_page = NULL;
	return !err ? 0 : err == -EDEADLK ? -EFAULT : -EIO;
}

/* No lock held: make fa->fresh (or fetch the file page) for the next try.
 * Out of memory, the OOM killer frees some, or says this process is the one
 * to fail. 0 or -ENOMEM. */
static int fault_prepare(struct fault_alloc *fa)
{
	if (fa->file_only)
		return fault_fetch_file_page(fa);
	fa->fresh = oom_alloc_user_page();
	if (!fa->fresh)
		return -ENOMEM;
	if (fa->cow_src)
		copy_user_highpage(fa->fresh, fa->cow_src);
	else
		clear_user_highpage(fa->fresh);
	return 0;
}

/* No lock held: drop what the fault did not use. */
static void fault_alloc_done(struct fault_alloc *fa)
{
	if (fa->fresh)
		put_page(fa->fresh);
	if (fa->cow_src)
		put_page(fa->cow_src);
	if (fa->file_page)
		put_page(fa->file_page);
	if (fa->file_inode)
		iput(fa->file_inode);
}

/* The file page for idx of inode (mm->lock held): true when fa has it,
 * fetched for a shared write if write, and no truncate unmapped the file's
 * pages since; false after asking for it (the caller returns -EAGAIN). */
static bool fault_file_page(struct fault_alloc *fa, struct file *file, u32 idx, bool write)
{
	struct inode *inode = file->f_inode;

	fa->file_only = false;
	if (fa->file_page && fa->file_inode == inode && fa->file_idx == idx &&
	    fa->file_write == write && fa->file_gen == (u32)atomic_read(&inode->i_mapgen))
		return true;
	if (fa->file_page)
		put_page(fa->file_page);
	fa->file_page = NULL;
	if (fa->file_inode != inode) {
		if (fa->file_inode)
			iput(fa->file_inode);	/* never the last: another fault's */
		iget(inode);
		fa->file_inode = inode;
	}
	fa->file_idx = idx;
	fa->file_write = write;
	fa->map_page = file->f_op->map_page;
	fa->file_only = true;
	return false;
}

/* A write to a present read-only page of a shared file region (mm->lock
 * held), with the file's page fetched for writing: the entry maps it,
 * writable (the same page as a rule; the mapping's reference moves to it). */
static int fault_file_mkwrite(u32 va, u32 *pte, struct fault_alloc *fa)
{
	struct page *old = phys_to_page(*pte & PAGE_MASK);

	*pte = page_to_phys(fa->file_page) | PTE_PRESENT | PTE_USER | PTE_WRITE;
	invlpg(va);
	fa->file_page = NULL;
	put_page(old);
	return 0;
}

/* A not-present page of a file region, or a write to a present read-only
 * one of a shared region (mm->lock held): map the file's page (read-only
 * until a write: a shared region's write asks the file with write set, so
 * that the file system marks the page dirty), or a copy of it for a private
 * write. -EAGAIN when fa must fetch or copy first. */
static int fault_file(struct mm *mm, struct vm_area *v, u32 va, u32 *pte, bool write,
		      struct fault_alloc *fa)
{
	u32 idx = v->pgoff + ((va - v->start) >> PAGE_SHIFT);
	bool shared = v->flags & VM_SHARED;

	if (!fault_file_page(fa, v->file, idx, shared && write))
		return -EAGAIN;
	if (pte && (*pte & PTE_PRESENT))
		return fault_file_mkwrite(va, pte, fa);
	if (!shared && write) {
		if (!fa->fresh || fa->cow_src != fa->file_page) {
			fault_set_source(fa, fa->file_page);
			return -EAGAIN;
		}
		if (map_new_page(mm, va, fa->fresh, true))
			return -ENOMEM;
		fa->fresh = NULL;
		return 0;
	}
	if (map_new_page(mm, va, fa->file_page, shared && write))
		return -ENOMEM;
	fa->file_page = NULL;			/* the mapping's reference now */
	return 0;
}

/* A write to a present read-only page of a writable private region (mm->lock
 * held). -EAGAIN: fa must hold a copy of the page first. */
static int do_cow(struct mm *mm, u32 va, u32 *pte, struct fault_alloc *fa)
{
	struct page *old = phys_to_page(*pte & PAGE_MASK);
	bool ours = fa->cow_src == old;		/* our reference counts too */

	if (page_count(old) - ours == 1) {	/* last user: just take it */
		*pte |= PTE_WRITE;
		tlb_flush_page(mm->pgdir, va);
		return 0;
	}
	if (!ours || !fa->fresh) {
		fault_set_source(fa, old);
		return -EAGAIN;
	}
	*pte = page_to_phys(fa->fresh) | PTE_PRESENT | PTE_USER | PTE_WRITE;
	tlb_flush_page(mm->pgdir, va);	/* the old page: nobody's any more */
	fa->fresh = NULL;
	put_page(old);				/* the mapping's reference */
	return 0;
}

/* The region at addr, if it allows the access (mm->lock held); else NULL. */
static struct vm_area *vm_find_allowed(struct mm *mm, u32 addr, bool write)
{
	struct vm_area *v = vm_find(mm, addr);

	return v && (v->flags & (write ? VM_WRITE : VM_READ)) ? v : NULL;
}

/* Resolve a fault at addr (mm->lock held): 0, -EFAULT, -ENOMEM, or -EAGAIN
 * when fa must be prepared without the lock first. A read needs VM_READ, a
 * write VM_WRITE: PROT_NONE memory is never mapped in. */
static int fault_locked(struct mm *mm, u32 addr, bool write, struct fault_alloc *fa)
{
	struct vm_area *v = vm_find_allowed(mm, addr, write);
	u32 va = addr & PAGE_MASK, *pte;

	if (!v || (v->flags & VM_RING))
		return -EFAULT;
	pte = pte_lookup(mm->pgdir, va);
	if (pte && (*pte & PTE_PRESENT)) {
		if (!write || (*pte & PTE_WRITE))
			return 0;		/* raced with another fault: fine */
		if (v->file && (v->flags & VM_SHARED))
			return fault_file(mm, v, va, pte, true, fa);
		return do_cow(mm, va, pte, fa);
	}
	if (v->file)
		return fault_file(mm, v, va, NULL, write, fa);
	if (!fa->fresh || fa->cow_src) {	/* a zeroed page is needed */
		fault_set_source(fa, NULL);
		return -EAGAIN;
	}
	if (map_new_page(mm, va, fa->fresh, v->flags & VM_WRITE))
		return -ENOMEM;
	fa->fresh = NULL;
	return 0;
}

/* Like fault_locked, but a page already mapped as needed is left alone
 * (whatever its region: get_user_page pins ring pages too), as long as the
 * region allows the access: a present page does not make it allowed. */
static int fault_in_locked(struct mm *mm, u32 addr, bool write, struct fault_alloc *fa)
{
	u32 *pte = pte_lookup(mm->pgdir, addr & PAGE_MASK);

	if (!vm_find_allowed(mm, addr, write))
		return -EFAULT;
	if (pte && (*pte & PTE_PRESENT) && (!write || (*pte & PTE_WRITE)))
		return 0;
	return fault_locked(mm, addr, write, fa);
}

int handle_mm_fault(struct mm *mm, u32 addr, bool write)
{
	struct fault_alloc fa = { 0 };
	int err;

	if (!mm || addr >= USER_TOP)
		return -EFAULT;
	for (;;) {
		spin_lock(&mm->lock);
		err = fault_locked(mm, addr, write, &fa);
		spin_unlock(&mm->lock);
		if (err != -EAGAIN || (err = fault_prepare(&fa)))
			break;
	}
	fault_alloc_done(&fa);
	return err;
}

struct page *get_user_page(struct mm *mm, u32 addr, bool write)
{
	struct fault_alloc fa = { 0 };
	struct page *page = NULL;
	int err;

	if (!mm || addr >= USER_TOP)
		return NULL;
	for (;;) {
		spin_lock(&mm->lock);
		err = fault_in_locked(mm, addr, write, &fa);
		if (!err) {
			page = phys_to_page(*pte_lookup(mm->pgdir, addr & PAGE_MASK) & PAGE_MASK);
			get_page(page);
		}
		spin_unlock(&mm->lock);
		if (err != -EAGAIN || fault_prepare(&fa))
			break;
	}
	fault_alloc_done(&fa);
	return page;
}

bool vm_range_forbids(struct mm *mm, u32 addr, u32 len, bool write)
{
	u64 end = (u64)addr + len;
	u32 need = write ? VM_WRITE : VM_READ;
	struct vm_area *v;
	bool forbids = false;

	spin_lock(&mm->lock);
	list_for_each_entry(v, &mm->vmas, list) {
		if (v->start >= end)
			break;			/* sorted: none further overlaps */
		if (v->end > addr && !(v->flags & need)) {
			forbids = true;
			break;
		}
	}
	spin_unlock(&mm->lock);
	return forbids;
}

int vm_insert_page(struct mm *mm, u32 addr, struct page *page, bool writable)
{
	int err;

	spin_lock(&mm->lock);
	get_page(page);
	err = map_new_page(mm, addr, page, writable);
	if (err)
		put_page(page);
	spin_unlock(&mm->lock);
	return err;
}
