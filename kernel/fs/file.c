/* file.c: struct file reference counting and per-process descriptor tables. */
#include "errno.h"
#include "fs.h"
#include "irq.h"
#include "panic.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "workqueue.h"

atomic_t nr_files = ATOMIC_INIT(0);

struct file *file_alloc(struct inode *inode, u32 mode, u32 flags)
{
	struct file *f = kmalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	memset(f, 0, sizeof(*f));
	atomic_set(&f->f_count, 1);
	f->f_mode = mode;
	f->f_flags = flags;
	f->f_inode = inode;
	f->f_op = inode ? inode->fops : NULL;
	if (inode)
		iget(inode);
	atomic_inc(&nr_files);
	return f;
}

void fput(struct file *f)
{
	if (!atomic_dec_and_test(&f->f_count))
		return;
	BUG_ON(in_interrupt());		/* the AIO core defers these */
	if (f->f_op && f->f_op->release)
		f->f_op->release(f->f_inode, f);
	if (f->f_inode)
		iput(f->f_inode);
	atomic_dec(&nr_files);
	kfree(f);
}

/* Files whose last reference was dropped in interrupt context. */
static DEFINE_SPINLOCK(deferred_lock);
static struct file *deferred_files;	/* chained through private_data */
static struct work_struct deferred_work;

static void fput_deferred_work(struct work_struct *w)
{
	struct file *f;
	u32 flags;

	for (;;) {
		spin_lock_irqsave(&deferred_lock, flags);
		f = deferred_files;
		if (f)
			deferred_files = f->private_data_next;
		spin_unlock_irqrestore(&deferred_lock, flags);
		if (!f)
			return;
		atomic_set(&f->f_count, 1);
		fput(f);
	}
}

void fput_any(struct file *f)
{
	u32 flags;

	if (!in_interrupt()) {
		fput(f);
		return;
	}
	if (!atomic_dec_and_test(&f->f_count))
		return;
	spin_lock_irqsave(&deferred_lock, flags);
	f->private_data_next = deferred_files;
	deferred_files = f;
	spin_unlock_irqrestore(&deferred_lock, flags);
	schedule_work(&deferred_work);
}

void file_init(void)
{
	INIT_WORK(&deferred_work, fput_deferred_work);
}

struct file *fget(int fd)
{
	struct files_struct *files = current->files;
	struct file *f = NULL;

	if (fd < 0 || fd >= NR_OPEN || !files)
		return NULL;
	spin_lock(&files->lock);
	f = files->fd[fd];
	if (f)
		get_file(f);
	spin_unlock(&files->lock);
	return f;
}

loff_t generic_llseek(struct file *f, loff_t off, int whence)
{
	loff_t pos;

	switch (whence) {
	case SEEK_SET: pos = off; break;
	case SEEK_CUR: pos = f->f_pos + off; break;
	case SEEK_END: pos = (f->f_inode ? f->f_inode->size : 0) + off; break;
	default: return -EINVAL;
	}
	if (pos < 0)
		return -EINVAL;
	f->f_pos = pos;
	return pos;
}

struct files_struct *files_alloc(void)
{
	struct files_struct *files = kmalloc(sizeof(*files), GFP_KERNEL);

	if (!files)
		return NULL;
	memset(files, 0, sizeof(*files));
	atomic_set(&files->count, 1);
	spin_lock_init(&files->lock, "files");	/* process context only: no irqsave */
	return files;
}

struct files_struct *files_dup(struct files_struct *old)
{
	struct files_struct *files = files_alloc();

	if (!files)
		return NULL;
	spin_lock(&old->lock);
	for (int i = 0; i < NR_OPEN; i++)
		if ((files->fd[i] = old->fd[i]))
			get_file(files->fd[i]);
	spin_unlock(&old->lock);
	return files;
}

void files_put(struct files_struct *files)
{
	if (!atomic_dec_and_test(&files->count))
		return;
	for (int i = 0; i < NR_OPEN; i++)
		if (files->fd[i])
			fput(files->fd[i]);
	kfree(files);
}

int fd_install(struct files_struct *files, struct file *f)
{
	int fd;

	spin_lock(&files->lock);
	for (fd = 0; fd < NR_OPEN && files->fd[fd]; fd++)
		;
	if (fd < NR_OPEN)
		files->fd[fd] = f;
	spin_unlock(&files->lock);
	return fd < NR_OPEN ? fd : -EMFILE;
}

int fd_close(struct files_struct *files, int fd)
{
	struct file *f;

	if (fd < 0 || fd >= NR_OPEN)
		return -EBADF;
	spin_lock(&files->lock);
	f = files->fd[fd];
	files->fd[fd] = NULL;
	spin_unlock(&files->lock);
	if (!f)
		return -EBADF;
	fput(f);
	return 0;
}
