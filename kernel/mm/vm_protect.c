/* vm_protect.c: changing regions in place: mprotect (PROT_NONE pages hidden),
 * madvise(MADV_DONTNEED), mremap (grow, shrink, move). */
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

/* Make [s, e) (inside v) a region of its own (mm->lock held); spares give the
 * one or two new regions. Returns the region now covering exactly [s, e). */
static struct vm_area *vma_isolate(struct vm_area *v, u32 s, u32 e, struct vm_area **spare)
{
	if (s > v->start) {
		struct vm_area *mid = vma_piece(spare[0], v, s, v->end);
		spare[0] = NULL;
		v->end = s;
		list_add(&mid->list, &v->list);
		v = mid;
	}
	if (e < v->end) {
		struct vm_area *tail = vma_piece(spare[1], v, e, v->end);
		spare[1] = NULL;
		v->end = e;
		list_add(&tail->list, &v->list);
	}
	return v;
}

/* The PTEs of [s, e) for a region with flags (mm->lock held): no access
 * hides the pages; access shows them again, writable only where a write
 * needs no copy (shared anonymous memory) or the page already was; a private
 * page made writable gets its write bit back from the copy-on-write fault,
 * a shared file page from the write fault that tells the file (file). */
static void protect_ptes(struct mm *mm, u32 s, u32 e, u32 flags, bool file)
{
	bool none = !(flags & (VM_READ | VM_WRITE | VM_EXEC));

	for (u32 va = s; va < e; va += PAGE_SIZE) {
		u32 *pte = pte_lookup(mm->pgdir, va), val;
		if (!pte_has_page(pte))
			continue;
		val = *pte;
		if (none) {
			val = (val & ~(PTE_PRESENT | PTE_WRITE)) | PTE_HIDDEN;
		} else {
			bool was_hidden = val & PTE_HIDDEN;
			val = (val & ~PTE_HIDDEN) | PTE_PRESENT;
			if (!(flags & VM_WRITE) || (was_hidden && !(flags & VM_SHARED)))
				val &= ~PTE_WRITE;
			else if ((flags & VM_SHARED) && !file)
				val |= PTE_WRITE;
		}
		*pte = val;
		tlb_flush_page(mm->pgdir, va);
	}
}

/* A shared mapping of a file opened without write access never becomes
 * writable (-EACCES, as Linux). mm->lock held. */
static int protect_allowed(struct mm *mm, u32 start, u32 end, u32 prot_flags)
{
	struct vm_area *v;

	list_for_each_entry(v, &mm->vmas, list)
		if (v->start < end && v->end > start && v->file && (v->flags & VM_SHARED) &&
		    (prot_flags & VM_WRITE) && !(v->file->f_mode & FMODE_WRITE))
			return -EACCES;
	return 0;
}

int vm_protect(struct mm *mm, u32 start, u32 len, u32 prot_flags)
{
	u32 end = start + ALIGN_UP(len, PAGE_SIZE);
	struct vm_area *v, *n, *spare[2] = { vma_new(0, 0, 0), vma_new(0, 0, 0) };
	int err = 0;

	if (!spare[0] || !spare[1]) {
		err = -ENOMEM;
		goto out;
	}
	spin_lock(&mm->lock);
	err = range_covered(mm, start, end) ? protect_allowed(mm, start, end, prot_flags) : -ENOMEM;
	if (err) {
		spin_unlock(&mm->lock);
		goto out;
	}
	list_for_each_entry_safe(v, n, &mm->vmas, list) {
		u32 s = MAX(v->start, start), e = MIN(v->end, end);
		if (s >= e)
			continue;
		v = vma_isolate(v, s, e, spare);	/* pieces go before n: not seen again */
		v->flags = (v->flags & ~(VM_READ | VM_WRITE | VM_EXEC)) | prot_flags;
		protect_ptes(mm, s, e, v->flags, v->file != NULL);
	}
	spin_unlock(&mm->lock);
out:
	kfree(spare[0]);
	kfree(spare[1]);
	return err;
}

int vm_dontneed(struct mm *mm, u32 start, u32 len)
{
	u32 end = start + ALIGN_UP(len, PAGE_SIZE);
	struct vm_area *v;
	int err = 0;

	spin_lock(&mm->lock);
	if (!range_covered(mm, start, end))
		err = -ENOMEM;
	list_for_each_entry(v, &mm->vmas, list)
		if (!err && v->start < end && v->end > start && (v->flags & VM_RING))
			err = -EINVAL;		/* the AIO core's pages */
	list_for_each_entry(v, &mm->vmas, list) {
		if (err || v->end <= start || v->start >= end || (v->flags & VM_SHARED))
			continue;		/* shared pages keep their data */
		zap_range(mm, MAX(v->start, start), MIN(v->end, end));
	}
	spin_unlock(&mm->lock);
	return err;
}

/* Copy the PTEs of [old, old+len) to new (free, mm->lock held), then clear
 * the old ones; all or nothing (-ENOMEM with nothing moved). */
static int move_ptes(struct mm *mm, u32 old, u32 new, u32 len)
{
	u32 off;

	for (off = 0; off < len; off += PAGE_SIZE) {
		u32 *pte = pte_lookup(mm->pgdir, old + off), val;
		if (!pte_has_page(pte))
			continue;
		val = *pte;
		if (map_page(mm->pgdir, new + off, val & PAGE_MASK, val & (PTE_USER | PTE_WRITE)))
			goto undo;
		*pte_lookup(mm->pgdir, new + off) = val;
	}
	for (off = 0; off < len; off += PAGE_SIZE) {
		u32 *pte = pte_lookup(mm->pgdir, old + off);
		if (pte_has_page(pte)) {
			*pte = 0;
			tlb_flush_page(mm->pgdir, old + off);
		}
	}
	return 0;
undo:
	while (off) {
		u32 *pte;
		off -= PAGE_SIZE;
		pte = pte_lookup(mm->pgdir, new + off);
		if (pte) {
			*pte = 0;
			tlb_flush_page(mm->pgdir, new + off);
		}
	}
	return -ENOMEM;
}

/* Move [old, old+old_len) of v to a new region [to, to+new_len) (free; mm->lock
 * held; spare becomes the new region). The old range is cut out of v. */
static int vma_move(struct mm *mm, struct vm_area *v, u32 old, u32 old_len, u32 to,
		    u32 new_len, struct vm_area **spare)
{
	struct vm_area *nv = spare[2];
	int err = move_ptes(mm, old, to, MIN(old_len, new_len));

	if (err)
		return err;
	spare[2] = NULL;
	vma_piece(nv, v, old, old + old_len);
	nv->start = to;
	nv->end = to + new_len;
	vma_cut(mm, v, old, old + old_len, &spare[0]);	/* zaps what was not moved */
	vma_link(mm, nv);
	return 0;
}

/* mremap's work, with the target range already free (mm->lock held):
 * the new address, or -errno. */
static long mremap_locked(struct mm *mm, u32 old, u32 old_len, u32 new_len, bool may_move,
			  u32 fixed, struct vm_area **spare)
{
	struct vm_area *v = vm_find(mm, old);
	u32 to;

	if (!v || old + old_len > v->end)
		return -EFAULT;
	if ((v->flags & VM_RING) && (old != v->start || old + old_len != v->end ||
				     new_len != old_len))
		return -EINVAL;			/* a ring moves whole or not at all */
	if (!fixed && new_len <= old_len) {
		if (new_len < old_len)
			vma_cut(mm, v, old + new_len, old + old_len, &spare[0]);
		return old;
	}
	if (!fixed && old + old_len == v->end && range_free(mm, v->end, old + new_len) &&
	    old + new_len <= USER_STACK_TOP - USER_STACK_MAX && old + new_len > old) {
		v->end = old + new_len;		/* grows in place */
		return old;
	}
	if (!may_move)
		return -ENOMEM;
	to = fixed ? fixed : find_free_locked(mm, USER_MMAP_BASE, new_len);
	if (!to)
		return -ENOMEM;
	return vma_move(mm, v, old, old_len, to, new_len, spare) ?: (long)to;
}

long vm_mremap(struct mm *mm, u32 old, u32 old_len, u32 new_len, bool may_move, u32 fixed,
	       u32 *ring_flag)
{
	struct vm_area *spare[3] = { vma_new(0, 0, 0), NULL, vma_new(0, 0, 0) };
	struct vm_area *v;
	long ret;

	old_len = ALIGN_UP(old_len, PAGE_SIZE);
	new_len = ALIGN_UP(new_len, PAGE_SIZE);
	if (!spare[0] || !spare[2]) {
		ret = -ENOMEM;
		goto out;
	}
	if (fixed)
		vm_unmap(mm, fixed, new_len);	/* MREMAP_FIXED replaces what is there */
	spin_lock(&mm->lock);
	v = vm_find(mm, old);
	*ring_flag = v ? v->flags & VM_RING : 0;
	ret = mremap_locked(mm, old, old_len, new_len, may_move, fixed, spare);
	spin_unlock(&mm->lock);
	vm_reap(mm);
out:
	kfree(spare[0]);
	kfree(spare[2]);
	return ret;
}
