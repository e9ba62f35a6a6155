/* vm.c: user address spaces and their regions: create, find, map (anonymous,
 * AIO rings, files), unmap (zapping the pages), tear down, switch to.
 * The rest of the address-space code is beside it: vm_fault.c (page faults,
 * copy-on-write, pinning), vm_fork.c (fork's copy), vm_protect.c (mprotect,
 * madvise, mremap), vm_file.c (truncate's unmapping, msync).
 *
 * Lock order: a file system's lock (ext2's sb->lock, held by a truncate) ->
 * mm_list_lock -> mm->lock. A fault calls map_page with no spinlock held. */
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

atomic_t nr_mms = ATOMIC_INIT(0);

/* Every address space (mm->mm_link), for vm_unmap_file_pages; process context. */
LIST_HEAD(mm_list);

DEFINE_SPINLOCK(mm_list_lock);

struct mm *mm_create(void)
{
	struct mm *mm = kmalloc(sizeof(*mm), GFP_KERNEL);

	if (!mm)
		return NULL;
	memset(mm, 0, sizeof(*mm));
	mm->pgdir = pgdir_create();
	if (!mm->pgdir) {
		kfree(mm);
		return NULL;
	}
	atomic_set(&mm->users, 1);
	atomic_set(&mm->tasks, 1);
	mutex_init(&mm->map_mutex);
	spin_lock_init(&mm->lock, "mm");
	INIT_LIST_HEAD(&mm->vmas);
	INIT_LIST_HEAD(&mm->dead_vmas);
	spin_lock(&mm_list_lock);
	list_add(&mm->mm_link, &mm_list);
	spin_unlock(&mm_list_lock);
	atomic_inc(&nr_mms);
	return mm;
}

struct vm_area *vm_find(struct mm *mm, u32 addr)
{
	struct vm_area *v;

	list_for_each_entry(v, &mm->vmas, list)
		if (addr >= v->start && addr < v->end)
			return v;
	return NULL;
}

u32 vm_flags_at(struct mm *mm, u32 addr)
{
	struct vm_area *v;
	u32 flags;

	spin_lock(&mm->lock);
	v = vm_find(mm, addr);
	flags = v ? v->flags : 0;
	spin_unlock(&mm->lock);
	return flags;
}

bool range_free(struct mm *mm, u32 start, u32 end)
{
	struct vm_area *v;

	list_for_each_entry(v, &mm->vmas, list)
		if (start < v->end && end > v->start)
			return false;
	return true;
}

struct vm_area *vma_new(u32 start, u32 end, u32 flags)
{
	struct vm_area *v = kmalloc(sizeof(*v), GFP_KERNEL);

	if (v) {
		v->start = start;
		v->end = end;
		v->flags = flags;
		v->file = NULL;
		v->pgoff = 0;
	}
	return v;
}

/* Make dst the part [start, end) of src (mm->lock held): same flags, its own
 * reference to src's file, the file page that lands at start. */
struct vm_area *vma_piece(struct vm_area *dst, const struct vm_area *src, u32 start,
				 u32 end)
{
	dst->start = start;
	dst->end = end;
	dst->flags = src->flags;
	dst->file = src->file ? get_file(src->file) : NULL;
	dst->pgoff = src->pgoff + ((start - src->start) >> PAGE_SHIFT);
	INIT_LIST_HEAD(&dst->list);
	return dst;
}

/* A region unlinked under mm->lock: freed now, or, with a file (whose last
 * fput may sleep), kept for vm_reap. */
void vma_free(struct mm *mm, struct vm_area *v)
{
	if (v->file)
		list_add(&v->list, &mm->dead_vmas);
	else
		kfree(v);
}

/* Drop the files of the regions vma_free kept (mm->lock not held). */
void vm_reap(struct mm *mm)
{
	struct vm_area *v, *n;
	LIST_HEAD(dead);

	spin_lock(&mm->lock);
	list_for_each_entry_safe(v, n, &mm->dead_vmas, list)
		list_move_tail(&v->list, &dead);
	spin_unlock(&mm->lock);
	list_for_each_entry_safe(v, n, &dead, list) {
		fput(v->file);
		kfree(v);
	}
}

/* Link v into the sorted list (mm->lock held). */
void vma_link(struct mm *mm, struct vm_area *v)
{
	struct vm_area *pos;

	list_for_each_entry(pos, &mm->vmas, list)
		if (pos->start > v->start)
			break;
	list_add_tail(&v->list, &pos->list);
}

int vm_map(struct mm *mm, u32 start, u32 len, u32 flags)
{
	u32 end = start + ALIGN_UP(len, PAGE_SIZE);
	struct vm_area *v;

	if ((start & (PAGE_SIZE - 1)) || !len || end > USER_TOP || end <= start)
		return -EINVAL;
	if (start < VM_MIN_ADDR)
		return -EPERM;			/* page 0 stays a trap for NULL */
	v = vma_new(start, end, flags);
	if (!v)
		return -ENOMEM;
	spin_lock(&mm->lock);
	if (!range_free(mm, start, end)) {
		spin_unlock(&mm->lock);
		kfree(v);
		return -EINVAL;
	}
	vma_link(mm, v);
	spin_unlock(&mm->lock);
	return 0;
}

int vm_map_file(struct mm *mm, u32 start, u32 len, u32 flags, struct file *file, u32 pgoff)
{
	u32 end = start + ALIGN_UP(len, PAGE_SIZE);
	struct vm_area *v;

	if ((start & (PAGE_SIZE - 1)) || !len || end > USER_TOP || end <= start)
		return -EINVAL;
	v = vma_new(start, end, flags);
	if (!v)
		return -ENOMEM;
	v->file = get_file(file);
	v->pgoff = pgoff;
	spin_lock(&mm->lock);
	if (!range_free(mm, start, end)) {
		spin_unlock(&mm->lock);
		fput(v->file);
		kfree(v);
		return -EINVAL;
	}
	vma_link(mm, v);
	spin_unlock(&mm->lock);
	return 0;
}

u32 find_free_locked(struct mm *mm, u32 start, u32 len)
{
	struct vm_area *v;

	list_for_each_entry(v, &mm->vmas, list) {
		if (v->end <= start)
			continue;
		if ((u64)start + len <= v->start)
			break;
		start = v->end;
	}
	/* 64-bit sums: a start past the stack plus a huge len must not wrap */
	return (u64)start + len <= USER_STACK_TOP - USER_STACK_MAX ? start : 0;
}

u32 vm_find_free(struct mm *mm, u32 hint, u32 len)
{
	u32 start;

	spin_lock(&mm->lock);
	start = find_free_locked(mm, ALIGN_UP(hint, PAGE_SIZE), ALIGN_UP(len, PAGE_SIZE));
	spin_unlock(&mm->lock);
	return start;
}

/* Drop the page mapped at va, if any (mm->lock held): its PTE cleared now,
 * the page put by g once every CPU has flushed it. */
static void zap_page(struct mm *mm, u32 va, struct tlb_gather *g)
{
	u32 *pte = pte_lookup(mm->pgdir, va);
	u32 old;

	if (!pte_has_page(pte))
		return;
	old = *pte;
	*pte = 0;
	tlb_gather_page(g, va, phys_to_page(old & PAGE_MASK));
	mm->nr_pages--;
}

/* One shootdown per TLB_GATHER_MAX pages, not one per page. */
void zap_range(struct mm *mm, u32 start, u32 end)
{
	struct tlb_gather g;

	tlb_gather_init(&g, mm->pgdir);
	for (u32 va = start; va < end; va += PAGE_SIZE)
		zap_page(mm, va, &g);
	tlb_gather_flush(&g);
}

/* Cut [s, e) out of v (mm->lock held); spare is used for a middle hole. */
void vma_cut(struct mm *mm, struct vm_area *v, u32 s, u32 e, struct vm_area **spare)
{
	zap_range(mm, s, e);
	if (s == v->start && e == v->end) {
		list_del(&v->list);
		vma_free(mm, v);
	} else if (s == v->start) {
		v->pgoff += (e - v->start) >> PAGE_SHIFT;
		v->start = e;
	} else if (e == v->end) {
		v->end = s;
	} else {
		struct vm_area *tail = vma_piece(*spare, v, e, v->end);
		*spare = NULL;
		v->end = s;
		list_add(&tail->list, &v->list);
	}
}

static int unmap_range(struct mm *mm, u32 start, u32 len, u32 only_flag);

int vm_unmap(struct mm *mm, u32 start, u32 len)
{
	return unmap_range(mm, start, len, 0);
}

int vm_unmap_flagged(struct mm *mm, u32 start, u32 len, u32 flag)
{
	return unmap_range(mm, start, len, flag);
}

/* Remove [start, start+len) from the regions (those with only_flag, if set). */
static int unmap_range(struct mm *mm, u32 start, u32 len, u32 only_flag)
{
	u32 end = start + ALIGN_UP(len, PAGE_SIZE);
	struct vm_area *v, *n, *spare = vma_new(0, 0, 0);

	if ((start & (PAGE_SIZE - 1)) || !len || end > USER_TOP || end <= start) {
		kfree(spare);
		return -EINVAL;
	}
	if (!spare)
		return -ENOMEM;
	spin_lock(&mm->lock);
	list_for_each_entry_safe(v, n, &mm->vmas, list) {
		u32 s = MAX(v->start, start), e = MIN(v->end, end);
		if (s < e && (!only_flag || (v->flags & only_flag)))
			vma_cut(mm, v, s, e, &spare);
	}
	spin_unlock(&mm->lock);
	kfree(spare);
	vm_reap(mm);
	return 0;
}

static void mm_teardown(struct mm *mm)
{
	struct vm_area *v, *n;

	spin_lock(&mm->lock);
	list_for_each_entry_safe(v, n, &mm->vmas, list) {
		zap_range(mm, v->start, v->end);
		list_del(&v->list);
		vma_free(mm, v);
	}
	spin_unlock(&mm->lock);
	vm_reap(mm);
}

void mm_put(struct mm *mm)
{
	if (!atomic_dec_and_test(&mm->users))
		return;
	BUG_ON(mm->aio);		/* exit_aio ran when its last task left it */
	tlb_drop_mm(mm);		/* a kernel thread may still borrow it, on any CPU */
	spin_lock(&mm_list_lock);
	list_del(&mm->mm_link);
	spin_unlock(&mm_list_lock);
	mm_teardown(mm);
	pgdir_destroy(mm->pgdir);
	oom_mm_gone(mm);		/* after the pages are free */
	atomic_dec(&nr_mms);
	kfree(mm);
}

/* This CPU's CR3 and active_mm (struct cpu), with interrupts off between. */
void mm_activate(struct mm *mm)
{
	u32 flags = local_irq_save();
	struct cpu *c = this_cpu();

	if (!mm || mm != c->active_mm) {
		switch_pgdir(mm ? mm->pgdir : kernel_pgdir);
		c->active_mm = mm;
	}
	local_irq_restore(flags);
}

/* Is every byte of [start, end) in some region? (mm->lock held) */
bool range_covered(struct mm *mm, u32 start, u32 end)
{
	struct vm_area *v;

	list_for_each_entry(v, &mm->vmas, list) {
		if (v->end <= start)
			continue;
		if (v->start > start)
			return false;
		start = v->end;
		if (start >= end)
			return true;
	}
	return false;
}

bool vm_range_mapped(struct mm *mm, u32 start, u32 len)
{
	bool ok;

	spin_lock(&mm->lock);
	ok = range_covered(mm, start, start + ALIGN_UP(len, PAGE_SIZE));
	spin_unlock(&mm->lock);
	return ok;
}

u32 vm_total(struct mm *mm)
{
	struct vm_area *v;
	u32 total = 0;

	spin_lock(&mm->lock);
	list_for_each_entry(v, &mm->vmas, list)
		total += v->end - v->start;
	spin_unlock(&mm->lock);
	return total;
}
