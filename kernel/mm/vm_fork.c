/* vm_fork.c: fork's copy of an address space: regions shared or made
 * copy-on-write on both sides, pages pinned for I/O copied, PROT_NONE pages
 * kept hidden. */
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

/* For fork, under the parent's mm->lock (so atomic): a copy of src, or NULL. */
static struct page *copy_user_page(struct page *src)
{
	struct page *page = alloc_pages(__GFP_HIGHMEM | GFP_ATOMIC, 0);

	if (page)
		copy_user_highpage(page, src);
	return page;
}

/* A PROT_NONE page in fork: the child holds it hidden too (both locks held;
 * it is read-only, so mprotect back to writable copies on write as usual). */
static int dup_hidden(struct mm *new, u32 va, const u32 *pte)
{
	struct page *page = phys_to_page(*pte & PAGE_MASK);

	get_page(page);
	if (map_new_page(new, va, page, false)) {
		put_page(page);
		return -ENOMEM;
	}
	*pte_lookup(new->pgdir, va) = (*pte & ~(PTE_PRESENT | PTE_WRITE)) | PTE_HIDDEN;
	return 0;
}

/* Share or copy-on-write one region's pages into the child (both locks held).
 * The pin count is read once per page: an I/O completing in an interrupt
 * unpins at any moment, and two reads could see "pinned" (so the parent's
 * page stays writable) and then "not pinned" (so it is shared, writable, with
 * the child). Seen pinned, the child gets a copy; an unpin after that only
 * makes the copy unneeded. Pins are only taken by this process's own calls. */
static int dup_area(struct mm *old, struct mm *new, struct vm_area *v)
{
	for (u32 va = v->start; va < v->end; va += PAGE_SIZE) {
		u32 *pte = pte_lookup(old->pgdir, va);
		struct page *page;
		bool pinned;
		if (pte_has_page(pte) && (*pte & PTE_HIDDEN)) {
			if (dup_hidden(new, va, pte))
				return -ENOMEM;
			continue;
		}
		if (!pte || !(*pte & PTE_PRESENT))
			continue;
		page = phys_to_page(*pte & PAGE_MASK);
		pinned = !(v->flags & VM_SHARED) && atomic_read(&page->pincount);
		if (!(v->flags & VM_SHARED) && (*pte & PTE_WRITE) && !pinned) {
			*pte &= ~PTE_WRITE;	/* both sides now copy on write */
			tlb_flush_page(old->pgdir, va);
		}
		if (pinned) {
			/* Pinned for I/O in flight: the I/O must land in the
			 * parent's page, so the child gets a copy now. */
			ktest_fork_pin_delay();	/* test kernel: widen the window */
			page = copy_user_page(page);
			if (!page)
				return -ENOMEM;
		} else {
			get_page(page);
		}
		if (map_new_page(new, va, page, *pte & PTE_WRITE)) {
			put_page(page);
			return -ENOMEM;
		}
	}
	return 0;
}

struct mm *mm_dup(struct mm *old)
{
	struct mm *new = mm_create();
	struct vm_area *v, *copy;
	int err = 0;

	if (!new)
		return NULL;
	spin_lock(&old->lock);
	new->brk_start = old->brk_start;
	new->brk = old->brk;
	list_for_each_entry(v, &old->vmas, list) {
		if (v->flags & VM_RING)
			continue;		/* AIO contexts are not inherited */
		copy = vma_new(v->start, v->end, v->flags);
		if (!copy || (err = dup_area(old, new, v))) {
			kfree(copy);
			err = -ENOMEM;
			break;
		}
		vma_piece(copy, v, v->start, v->end);	/* the file too */
		list_add_tail(&copy->list, &new->vmas);
	}
	spin_unlock(&old->lock);
	if (err) {
		mm_put(new);
		return NULL;
	}
	return new;
}
