/* sysctl.c: /proc/sys/fs/aio-nr (read) and /proc/sys/fs/aio-max-nr (read, write). */
#include "aio_internal.h"
#include "errno.h"
#include "fs.h"
#include "printk.h"
#include "procfs.h"
#include "string.h"
#include "uaccess.h"

/* Read a number formatted as text, from offset *pos. */
static ssize_t read_number(u32 value, char *ubuf, size_t n, loff_t *pos)
{
	char text[16];

	return proc_read_text(text, snprintf(text, sizeof(text), "%u\n", value), ubuf, n, pos);
}

static ssize_t aio_nr_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	return read_number(atomic_read(&aio_nr), ubuf, n, pos);
}

static ssize_t aio_max_nr_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	return read_number(aio_max_nr, ubuf, n, pos);
}

static ssize_t aio_max_nr_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	char text[16];
	const char *end;
	unsigned long long v;

	if (!n || n >= sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, ubuf, n))
		return -EFAULT;
	text[n] = '\0';
	v = simple_strtoull(text, &end);
	if (end == text || (*end && *end != '\n') || v > INT_MAX)
		return -EINVAL;
	aio_max_nr = v;
	return n;
}

static const struct file_operations aio_nr_ops = { .read = aio_nr_read };
static const struct file_operations aio_max_nr_ops = {
	.read = aio_max_nr_read, .write = aio_max_nr_write,
};

void aio_sysctl_init(void)
{
	struct inode *inode;

	vfs_mkdir("/proc");
	vfs_mkdir("/proc/sys");
	vfs_mkdir("/proc/sys/fs");
	inode = vfs_create("/proc/sys/fs/aio-nr", S_IFREG | 0444, &aio_nr_ops);
	if (!IS_ERR(inode))
		iput(inode);
	inode = vfs_create("/proc/sys/fs/aio-max-nr", S_IFREG | 0644, &aio_max_nr_ops);
	if (!IS_ERR(inode))
		iput(inode);
}
