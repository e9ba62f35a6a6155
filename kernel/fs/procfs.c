/* procfs.c: a small /proc: cpuinfo, interrupts, meminfo, vmstat (oom_kill), locks (kernel/fs/locks.c), self/maps (the caller's regions),
 * aiok/blk (the block-file counters), aiok/lockdep (the lock-order checker), aiok/sched (run-queue lock, IPIs, halts) and aiok/cpustat (APIC writes, IPIs, port I/O per CPU), files whose text is made at each read.
 * /proc/sys/fs/aio-nr and aio-max-nr live with the AIO core (aio/sysctl.c), /proc/irq/N/ with irq_proc.c. */
#include "blk_file.h"
#include "errno.h"
#include "file_lock.h"
#include "fs.h"
#include "irq.h"
#include "irq_proc.h"
#include "lockdep.h"
#include "mm.h"
#include "oom.h"
#include "printk.h"
#include "procfs.h"
#include "sched.h"
#include "slab.h"
#include "smp.h"
#include "string.h"
#include "uaccess.h"
#include "vm.h"

#define PROC_BUF	8192		/* the most text one file shows */

/* A kB figure of a page count. */
static u32 kb(u32 pages)
{
	return pages * (PAGE_SIZE / 1024);
}

static int meminfo_show(char *buf, size_t size)
{
	u32 total = 0, high = zones[ZONE_HIGHMEM].present_pages;
	u32 free = nr_free_pages(), free_high = nr_free_pages_zone(ZONE_HIGHMEM);

	for (int z = 0; z < MAX_NR_ZONES; z++)
		total += zones[z].present_pages;
	return snprintf(buf, size,
			"MemTotal:       %8u kB\nMemFree:        %8u kB\nMemAvailable:   %8u kB\n"
			"HighTotal:      %8u kB\nHighFree:       %8u kB\nLowTotal:       %8u kB\n"
			"LowFree:        %8u kB\n",
			kb(total), kb(free), kb(free), kb(high), kb(free_high), kb(total - high),
			kb(free - free_high));
}

/* Linux's /proc/vmstat, of which only the OOM killer's count is kept. */
static int vmstat_show(char *buf, size_t size)
{
	return snprintf(buf, size, "oom_kill %u\n", (u32)atomic_read(&oom_kills));
}

/* What Linux names a region in maps. */
static const char *vma_name(struct mm *mm, const struct vm_area *v)
{
	if (v->flags & VM_RING)
		return "/[aio] (deleted)";
	if (v->flags & VM_STACK)
		return "[stack]";
	if (v->start >= mm->brk_start && v->end <= ALIGN_UP(mm->brk, PAGE_SIZE) &&
	    mm->brk > mm->brk_start)
		return "[heap]";
	return "";
}

/* One line per region, as Linux's /proc/PID/maps (device 00:00; a mapped
 * file shows its offset, inode number and name, not its path). Under
 * mm->lock, into a buffer made before. */
static int maps_show(char *buf, size_t size)
{
	struct mm *mm = current->mm;
	struct vm_area *v;
	int len = 0;

	spin_lock(&mm->lock);
	list_for_each_entry(v, &mm->vmas, list) {
		if ((size_t)len >= size - 1)
			break;
		struct inode *ino = v->file ? v->file->f_inode : NULL;
		len += snprintf(buf + len, size - len, "%08x-%08x %c%c%c%c %08x 00:00 %u %s\n",
				v->start, v->end, v->flags & VM_READ ? 'r' : '-',
				v->flags & VM_WRITE ? 'w' : '-', v->flags & VM_EXEC ? 'x' : '-',
				v->flags & VM_SHARED ? 's' : 'p', ino ? v->pgoff << PAGE_SHIFT : 0,
				ino ? ino->ino : 0, ino ? ino->name : vma_name(mm, v));
	}
	spin_unlock(&mm->lock);
	return MIN(len, (int)size - 1);
}

static int blk_show(char *buf, size_t size)
{
	return snprintf(buf, size, "requests %u\npages_pinned %u\nios_live %u\n",
			atomic_read(&blk_file_requests), atomic_read(&blk_file_pages_pinned),
			atomic_read(&blk_io_live));
}

ssize_t proc_read_text(const char *text, int len, char *ubuf, size_t n, loff_t *pos)
{
	if (*pos >= len)
		return 0;
	n = MIN(n, (size_t)(len - *pos));
	if (copy_to_user(ubuf, text + *pos, n))
		return -EFAULT;
	*pos += n;
	return n;
}

/* Read: make the text, hand out the part from *pos. */
static ssize_t proc_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	proc_show_t show = f->f_inode->private;
	char *text = kmalloc(PROC_BUF, GFP_KERNEL);
	ssize_t ret;
	int len;

	if (!text)
		return -ENOMEM;
	len = MIN(show(text, PROC_BUF), PROC_BUF - 1);
	ret = proc_read_text(text, len, ubuf, n, pos);
	kfree(text);
	return ret;
}

static const struct file_operations proc_ops = {
	.llseek = generic_llseek,
	.read = proc_read,
};

void proc_create(const char *path, proc_show_t show)
{
	struct inode *inode = vfs_create(path, S_IFREG | 0444, &proc_ops);

	if (IS_ERR(inode))
		return;
	inode->private = show;
	iput(inode);
}

/* The lock-order checker (lockdep.h): on or off, what it has learnt, reports. */
static int lockdep_show(char *buf, size_t size)
{
	return snprintf(buf, size, "on %u\nclasses %u\nedges %u\nreports %u\n", lockdep_on,
			lockdep_nr_classes(), lockdep_nr_edges(), lockdep_bugs);
}

void procfs_init(void)
{
	vfs_mkdir("/proc");
	vfs_mkdir("/proc/self");
	vfs_mkdir("/proc/aiok");
	proc_create("/proc/cpuinfo", smp_cpuinfo_show);
	proc_create("/proc/interrupts", irq_show);
	proc_create("/proc/meminfo", meminfo_show);
	proc_create("/proc/vmstat", vmstat_show);
	proc_create("/proc/locks", locks_proc_show);
	proc_create("/proc/self/maps", maps_show);
	proc_create("/proc/aiok/blk", blk_show);
	proc_create("/proc/aiok/lockdep", lockdep_show);
	proc_create("/proc/aiok/sched", sched_stats_show);
	proc_create("/proc/aiok/cpustat", irq_cpustat_show);
	irq_proc_init();
}
