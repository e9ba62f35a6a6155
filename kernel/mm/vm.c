/* vm.c: user address spaces: regions (anonymous, AIO rings, files through
 * their f_op->map_page: ramfs and ext2), demand-zero and file pages,
 * copy-on-write fork, mprotect/madvise/mremap, truncate's unmapping, teardown.
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

atomic_t nr_mms = ATOMIC_INIT(0);
/* Every address space (mm->mm_link), for vm_unmap_file_pages; process context. */
static LIST_HEAD(mm_list);
static DEFINE_SPINLOCK(mm_list_lock);

/* Software PTE bit: the page stays while its region allows no access
 * (PROT_NONE): the entry is not present, so every access faults, and the
 * fault finds a region it may not touch (-EFAULT). mprotect makes it present
 * again; teardown and fork treat it as a mapped page. */
#define PTE_HIDDEN	0x200

/* Does this PTE hold a page (present, or hidden by PROT_NONE)? */
static bool pte_has_page(const u32 *pte)
{
	return pte && (*pte & (PTE_PRESENT | PTE_HIDDEN));
}

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
		v->file = NULL;
		v->pgoff = 0;
	}
	return v;
}

/* Make dst the part [start, end) of src (mm->lock held): same flags, its own
 * reference to src's file, the file page that lands at start. */
static struct vm_area *vma_piece(struct vm_area *dst, const struct vm_area *src, u32 start,
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
static void vma_free(struct mm *mm, struct vm_area *v)
{
	if (v->file)
		list_add(&v->list, &mm->dead_vmas);
	else
		kfree(v);
}

/* Drop the files of the regions vma_free kept (mm->lock not held). */
static void vm_reap(struct mm *mm)
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

u32 vm_find_free(struct mm *mm, u32 hint, u32 len)
{
	u32 start = ALIGN_UP(hint, PAGE_SIZE);
	struct vm_area *v;

	len = ALIGN_UP(len, PAGE_SIZE);
	spin_lock(&mm->lock);
	list_for_each_entry(v, &mm->vmas, list) {
		if (v->end <= start)
			continue;
		if ((u64)start + len <= v->start)
			break;
		start = v->end;
	}
	spin_unlock(&mm->lock);
	/* 64-bit sums: a start past the stack plus a huge len must not wrap */
	return (u64)start + len <= USER_STACK_TOP - USER_STACK_MAX ? start : 0;
}

/* Drop the page mapped at va, if any (mm->lock held). */
static void zap_page(struct mm *mm, u32 va)
{
	u32 *pte = pte_lookup(mm->pgdir, va);

	u32 old;

	if (!pte_has_page(pte))
		return;
	old = *pte;
	*pte = 0;
	tlb_flush_page(mm->pgdir, va);	/* no CPU reads it any more: then free */
	put_page(phys_to_page(old & PAGE_MASK));
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

/* ---- mprotect, madvise, msync, mremap ---- */

/* Is every byte of [start, end) in some region? (mm->lock held) */
static bool range_covered(struct mm *mm, u32 start, u32 end)
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

/* A free range of len bytes at or above USER_MMAP_BASE (mm->lock held); 0 if none. */
static u32 find_free_locked(struct mm *mm, u32 len)
{
	u32 start = USER_MMAP_BASE;
	struct vm_area *v;

	list_for_each_entry(v, &mm->vmas, list) {
		if (v->end <= start)
			continue;
		if ((u64)start + len <= v->start)
			break;
		start = v->end;
	}
	return (u64)start + len <= USER_STACK_TOP - USER_STACK_MAX ? start : 0;
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
	to = fixed ? fixed : find_free_locked(mm, new_len);
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

/* ---- files: truncate's unmapping, msync ---- */

/* Zap v's pages of file pages [first, last] (mm->lock held). */
static void vma_zap_file_pages(struct mm *mm, struct vm_area *v, u32 first, u32 last)
{
	u64 v_last = (u64)v->pgoff + ((v->end - v->start) >> PAGE_SHIFT) - 1;
	u64 from = MAX(first, v->pgoff), to = MIN((u64)last, v_last);

	if (from > to)
		return;
	zap_range(mm, v->start + ((from - v->pgoff) << PAGE_SHIFT),
		  v->start + ((to - v->pgoff + 1) << PAGE_SHIFT));
}

void vm_unmap_file_pages(struct inode *inode, u32 first, u32 last)
{
	struct vm_area *v;
	struct mm *mm;

	atomic_inc(&inode->i_mapgen);	/* a fault holding an older page retries */
	spin_lock(&mm_list_lock);
	list_for_each_entry(mm, &mm_list, mm_link) {
		spin_lock(&mm->lock);
		list_for_each_entry(v, &mm->vmas, list)
			if (v->file && v->file->f_inode == inode)
				vma_zap_file_pages(mm, v, first, last);
		spin_unlock(&mm->lock);
	}
	spin_unlock(&mm_list_lock);
}

/* The file of the first shared file region ending after *from that starts
 * before end, with a reference; *from moves past it. NULL when none. */
static struct file *next_shared_file(struct mm *mm, u32 *from, u32 end)
{
	struct file *f = NULL;
	struct vm_area *v;

	spin_lock(&mm->lock);
	list_for_each_entry(v, &mm->vmas, list) {
		if (v->end <= *from || !v->file || !(v->flags & VM_SHARED))
			continue;
		if (v->start < end) {
			f = get_file(v->file);
			*from = v->end;
		}
		break;
	}
	spin_unlock(&mm->lock);
	return f;
}

int vm_sync_range(struct mm *mm, u32 start, u32 len)
{
	u32 from = start, end = start + ALIGN_UP(len, PAGE_SIZE);
	struct file *f;
	int err = 0, e;

	while ((f = next_shared_file(mm, &from, end))) {
		e = f->f_op->fsync ? f->f_op->fsync(f, 1) : 0;
		if (e && !err)
			err = e;
		fput(f);
	}
	return err;
}
