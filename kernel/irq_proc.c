/* irq_proc.c: /proc/irq/N/smp_affinity (read, write) and effective_affinity
 * (read) for the ISA lines 0-15 and each MSI with a handler at boot, in
 * Linux's hex CPU-mask format.
 *
 * A mask is hex digits, bit n CPU n, read as at most 32 bits (commas between
 * 32-bit groups are allowed, as Linux writes them; a group past the first
 * must be zero: no CPU is numbered that high). The text shown has one digit
 * per four online CPUs, zero-padded, and a newline. A write that names no
 * online CPU is -EINVAL; the IRQ goes to the lowest online CPU named
 * (irq_set_affinity, irq.c). Process context.
 */
#include "irq_proc.h"
#include "errno.h"
#include "fs.h"
#include "irq.h"
#include "printk.h"
#include "procfs.h"
#include "smp.h"
#include "string.h"
#include "uaccess.h"

#define MASK_TEXT	32		/* longest mask text a write takes */

/* The IRQ a /proc/irq file is for (kept in its inode). */
static int irq_proc_irq(struct file *f)
{
	return (int)(uintptr_t)f->f_inode->private;
}

/* mask as Linux shows it: (online CPUs + 3) / 4 hex digits, then '\n'. */
static int irq_proc_format(char *text, size_t size, u32 mask)
{
	int digits = (nr_cpus_online + 3) / 4;

	return snprintf(text, size, "%0*x\n", digits, mask);
}

static ssize_t irq_proc_read_mask(u32 mask, char *ubuf, size_t n, loff_t *pos)
{
	char text[16];

	return proc_read_text(text, irq_proc_format(text, sizeof(text), mask), ubuf, n, pos);
}

int irq_proc_parse_mask(const char *text, u32 *mask)
{
	u32 v = 0, high = 0;
	int digits = 0;

	for (const char *p = text; *p && *p != '\n'; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' :
			(*p | 0x20) >= 'a' && (*p | 0x20) <= 'f' ? (*p | 0x20) - 'a' + 10 : -1;

		if (*p == ',') {	/* the next 32-bit group: this one was higher */
			high |= v;
			v = 0;
			continue;
		}
		if (d < 0 || (v >> 28))
			return -EINVAL;
		v = v << 4 | d;
		digits++;
	}
	if (!digits || high)
		return -EINVAL;
	*mask = v;
	return 0;
}

static ssize_t smp_affinity_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	return irq_proc_read_mask(irq_get_affinity(irq_proc_irq(f)), ubuf, n, pos);
}

static ssize_t effective_affinity_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	return irq_proc_read_mask(1u << irq_effective_cpu(irq_proc_irq(f)), ubuf, n, pos);
}

static ssize_t smp_affinity_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	char text[MASK_TEXT];
	u32 mask;
	int err;

	if (!n || n >= sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, ubuf, n))
		return -EFAULT;
	text[n] = '\0';
	err = irq_proc_parse_mask(text, &mask);
	err = err ? err : irq_set_affinity(irq_proc_irq(f), mask);
	return err ? err : (ssize_t)n;
}

static const struct file_operations smp_affinity_ops = {
	.read = smp_affinity_read, .write = smp_affinity_write,
};
static const struct file_operations effective_affinity_ops = {
	.read = effective_affinity_read,
};

static void irq_proc_file(const char *path, u32 mode, const struct file_operations *ops, int irq)
{
	struct inode *inode = vfs_create(path, S_IFREG | mode, ops);

	if (IS_ERR(inode))
		return;
	inode->private = (void *)(uintptr_t)irq;
	iput(inode);
}

void irq_proc_init(void)
{
	char path[48];

	vfs_mkdir("/proc/irq");
	for (int irq = 0; irq < NR_IRQS; irq++) {
		if (irq >= NR_LINE_IRQS && !irq_has_handler(irq))
			continue;		/* every ISA line, and the MSIs in use */
		snprintf(path, sizeof(path), "/proc/irq/%d", irq);
		vfs_mkdir(path);
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity", irq);
		irq_proc_file(path, 0644, &smp_affinity_ops, irq);
		snprintf(path, sizeof(path), "/proc/irq/%d/effective_affinity", irq);
		irq_proc_file(path, 0444, &effective_affinity_ops, irq);
	}
}
