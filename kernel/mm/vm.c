/* vm.c: user address spaces: regions, demand-zero pages, copy-on-write fork, teardown. */
#include "errno.h"
#include "highmem.h"
#include "mm.h"
#include "paging.h"
#include "panic.h"
#include "printk.h"
#include "slab.h"
#include "string.h"
#include "test_hooks.h"
#include "vm.h"
#include "x86.h"

atomic_t nr_mms = ATOMIC_INIT(0);

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

static bool range_free(struct mm *mm, u32 start, u32 end)
{
	struct vm_area *v;

	list_for_each_entry(v, &mm->vmas, list)
		if (start < v->end && end > v->start)
			return false;
	return true;
}

static struct vm_area *vma_new(u32 start, u32 end, u32 flags)
{
	struct vm_area *v = kmalloc(sizeof(*v), GFP_KERNEL);

	if (v) {
		v->start = start;
		v->end = end;
		v->flags = flags;
	}
	return v;
}

/* Link v into the sorted list (mm->lock held). */
static void vma_link(struct mm *mm, struct vm_area *v)
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

u32 vm_find_free(struct mm *mm, u32 hint, u32 len)
{
	u32 start = ALIGN_UP(hint, PAGE_SIZE);
	struct vm_area *v;

	len = ALIGN_UP(len, PAGE_SIZE);
	spin_lock(&mm->lock);
	list_for_each_entry(v, &mm->vmas, list) {
		if (v->end <= start)
			continue;
		if (start + len <= v->start)
			break;
		start = v->end;
	}
	spin_unlock(&mm->lock);
	return start + len <= USER_STACK_TOP - USER_STACK_MAX ? start : 0;
}

/* Drop the page mapped at va, if any (mm->lock held). */
static void zap_page(struct mm *mm, u32 va)
{
	u32 *pte = pte_lookup(mm->pgdir, va);

	if (!pte || !(*pte & PTE_PRESENT))
		return;
	put_page(phys_to_page(*pte & PAGE_MASK));
	*pte = 0;
	invlpg(va);
	mm->nr_pages--;
}

static void zap_range(struct mm *mm, u32 start, u32 end)
{
	for (u32 va = start; va < end; va += PAGE_SIZE)
		zap_page(mm, va);
}

/* Cut [s, e) out of v (mm->lock held); spare is used for a middle hole. */
static void vma_cut(struct mm *mm, struct vm_area *v, u32 s, u32 e, struct vm_area **spare)
{
	zap_range(mm, s, e);
	if (s == v->start && e == v->end) {
		list_del(&v->list);
		kfree(v);
	} else if (s == v->start) {
		v->start = e;
	} else if (e == v->end) {
		v->end = s;
	} else {
		struct vm_area *tail = *spare;
		*spare = NULL;
		tail->start = e;
		tail->end = v->end;
		tail->flags = v->flags;
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
	return 0;
}

static int map_new_page(struct mm *mm, u32 va, struct page *page, bool writable)
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
static void copy_user_highpage(struct page *to, struct page *from)
{
	void *src = kmap_atomic(from, KM_USER0), *dst = kmap_atomic(to, KM_USER1);

	memcpy(dst, src, PAGE_SIZE);
	kunmap_atomic(dst, KM_USER1);
	kunmap_atomic(src, KM_USER0);
}

/* For fork, under the parent's mm->lock (so atomic): a copy of src, or NULL. */
static struct page *copy_user_page(struct page *src)
{
	struct page *page = alloc_pages(__GFP_HIGHMEM | GFP_ATOMIC, 0);

	if (page)
		copy_user_highpage(page, src);
	return page;
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

/* No lock held: make fa->fresh for the next try. 0 or -ENOMEM. */
static int fault_prepare(struct fault_alloc *fa)
{
	fa->fresh = alloc_pages(GFP_HIGHUSER, 0);
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
}

/* A write to a present read-only page of a writable private region (mm->lock
 * held). -EAGAIN: fa must hold a copy of the page first. */
static int do_cow(struct mm *mm, u32 va, u32 *pte, struct fault_alloc *fa)
{
	struct page *old = phys_to_page(*pte & PAGE_MASK);
	bool ours = fa->cow_src == old;		/* our reference counts too */

	if (page_count(old) - ours == 1) {	/* last user: just take it */
		*pte |= PTE_WRITE;
		invlpg(va);
		return 0;
	}
	if (!ours || !fa->fresh) {
		fault_set_source(fa, old);
		return -EAGAIN;
	}
	*pte = page_to_phys(fa->fresh) | PTE_PRESENT | PTE_USER | PTE_WRITE;
	invlpg(va);
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
		return do_cow(mm, va, pte, fa);
	}
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
	struct fault_alloc fa = { NULL, NULL };
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
	struct fault_alloc fa = { NULL, NULL };
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
		if (!pte || !(*pte & PTE_PRESENT))
			continue;
		page = phys_to_page(*pte & PAGE_MASK);
		pinned = !(v->flags & VM_SHARED) && atomic_read(&page->pincount);
		if (!(v->flags & VM_SHARED) && (*pte & PTE_WRITE) && !pinned) {
			*pte &= ~PTE_WRITE;	/* both sides now copy on write */
			invlpg(va);
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
		list_add_tail(&copy->list, &new->vmas);
	}
	spin_unlock(&old->lock);
	if (err) {
		mm_put(new);
		return NULL;
	}
	return new;
}

static void mm_teardown(struct mm *mm)
{
	struct vm_area *v, *n;

	spin_lock(&mm->lock);
	list_for_each_entry_safe(v, n, &mm->vmas, list) {
		zap_range(mm, v->start, v->end);
		list_del(&v->list);
		kfree(v);
	}
	spin_unlock(&mm->lock);
}

/* Whose page directory CR3 holds; NULL: the kernel's. */
static struct mm *active_mm;

void mm_put(struct mm *mm)
{
	if (!atomic_dec_and_test(&mm->users))
		return;
	BUG_ON(mm->aio);		/* exit_aio ran when its last task left it */
	if (mm == active_mm)
		mm_activate(NULL);	/* a kernel thread may still borrow it */
	mm_teardown(mm);
	pgdir_destroy(mm->pgdir);
	atomic_dec(&nr_mms);
	kfree(mm);
}

void mm_activate(struct mm *mm)
{
	if (mm && mm == active_mm)
		return;
	switch_pgdir(mm ? mm->pgdir : kernel_pgdir);
	active_mm = mm;
}
