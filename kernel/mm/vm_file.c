/* vm_file.c: file mappings seen from the file's side: a truncate's unmapping
 * of a file's pages in every address space, msync of shared file regions. */
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
