/* vm_internal.h: what the address-space files of kernel/mm (vm.c, vm_fault.c,
 * vm_fork.c, vm_protect.c, vm_file.c) share; nothing outside them includes it. */
#ifndef VM_INTERNAL_H
#define VM_INTERNAL_H

#include "list.h"
#include "spinlock.h"
#include "types.h"
#include "vm.h"

struct page;

/* Software PTE bit: the page stays while its region allows no access
 * (PROT_NONE): the entry is not present, so every access faults, and the
 * fault finds a region it may not touch (-EFAULT). mprotect makes it present
 * again; teardown and fork treat it as a mapped page. */
#define PTE_HIDDEN	0x200

/* Does this PTE hold a page (present, or hidden by PROT_NONE)? */
static inline bool pte_has_page(const u32 *pte)
{
	return pte && (*pte & (PTE_PRESENT | PTE_HIDDEN));
}

/* Every address space (mm->mm_link), for vm_unmap_file_pages; process context. */
extern struct list_head mm_list;
extern spinlock_t mm_list_lock;

/* Regions (vm.c; mm->lock held unless said). */
/* Does [start, end) overlap no region? */
bool range_free(struct mm *mm, u32 start, u32 end);
/* Is every byte of [start, end) in some region? */
bool range_covered(struct mm *mm, u32 start, u32 end);
/* A region not linked anywhere, or NULL (GFP_KERNEL: no lock held). */
struct vm_area *vma_new(u32 start, u32 end, u32 flags);
/* Make dst the part [start, end) of src, with its own file reference. */
struct vm_area *vma_piece(struct vm_area *dst, const struct vm_area *src, u32 start, u32 end);
/* A region unlinked: freed now, or kept for vm_reap when it has a file. */
void vma_free(struct mm *mm, struct vm_area *v);
/* Drop the files of the regions vma_free kept (mm->lock not held). */
void vm_reap(struct mm *mm);
/* The first free range of len bytes at or above start (page-aligned both),
 * below the stack's reserve; 0 if none. */
u32 find_free_locked(struct mm *mm, u32 start, u32 len);
/* Link v into the sorted list. */
void vma_link(struct mm *mm, struct vm_area *v);
/* Drop the pages mapped in [start, end), shot down on every CPU first. */
void zap_range(struct mm *mm, u32 start, u32 end);
/* Cut [s, e) out of v, zapping its pages; *spare gives a middle hole's tail. */
void vma_cut(struct mm *mm, struct vm_area *v, u32 s, u32 e, struct vm_area **spare);

/* Pages (vm_fault.c). */
/* Map page at va in mm, counted in nr_pages (mm->lock held): 0 or -ENOMEM. */
int map_new_page(struct mm *mm, u32 va, struct page *page, bool writable);
/* Copy a user page's contents (process context: KM_USER0 and KM_USER1). */
void copy_user_highpage(struct page *to, struct page *from);

#endif
