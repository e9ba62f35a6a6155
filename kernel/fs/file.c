/* file.c: struct file reference counting and per-process descriptor tables (with close-on-exec, the working directory and the umask). */
#include "epoll.h"
#include "errno.h"
#include "file_lock.h"
#include "fs.h"
#include "resource.h"
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
	mutex_init(&f->f_pos_lock);
	INIT_LIST_HEAD(&f->f_ep_links);
	f->f_mode = mode;
	f->f_flags = flags;
	f->f_inode = inode;
	f->f_op = inode ? inode->fops : NULL;
	if (inode)
		iget(inode);
	atomic_inc(&nr_files);
	return f;
}

struct file *anon_file_alloc(const struct file_operations *fops, void *private, u32 mode,
			     u32 flags)
{
	struct inode *inode = inode_alloc(0600, fops);
	struct file *f = inode ? file_alloc(inode, mode, flags) : NULL;

	if (inode)
		iput(inode);		/* the file holds it now (or it goes) */
	if (f)
		f->private_data = private;
	return f;
}

bool file_pos_lock(struct file *f)
{
	if (!f->f_inode || !(S_ISREG(f->f_inode->mode) || S_ISDIR(f->f_inode->mode)))
		return false;		/* pipes, devices: no position to share */
	mutex_lock(&f->f_pos_lock);
	return true;
}

void file_pos_unlock(struct file *f, bool locked)
{
	if (locked)
		mutex_unlock(&f->f_pos_lock);
}

void fput(struct file *f)
{
	if (!atomic_dec_and_test(&f->f_count))
		return;
	BUG_ON(in_interrupt());		/* the AIO core defers these */
	epoll_file_release(f);
	locks_remove_file(f);
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
	files->fd = kzalloc(NR_OPEN * sizeof(*files->fd), GFP_KERNEL);
	if (!files->fd) {
		kfree(files);
		return NULL;
	}
	atomic_set(&files->count, 1);
	spin_lock_init(&files->lock, "files");	/* process context only: no irqsave */
	files->umask = 022;
	rlimit_init(files->rlim);
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
	memcpy(files->cloexec, old->cloexec, sizeof(files->cloexec));
	files->cwd = old->cwd;
	if (files->cwd)
		iget(files->cwd);
	files->umask = old->umask;
	memcpy(files->rlim, old->rlim, sizeof(files->rlim));
	spin_unlock(&old->lock);
	return files;
}

/* A descriptor of files closed: the process's record locks on the file go
 * (any close drops them, POSIX's rule), then the reference. */
static void fd_put(struct files_struct *files, struct file *f)
{
	locks_remove_posix(files, f);
	fput(f);
}

void files_put(struct files_struct *files)
{
	if (!atomic_dec_and_test(&files->count))
		return;
	for (int i = 0; i < NR_OPEN; i++)
		if (files->fd[i])
			fd_put(files, files->fd[i]);
	if (files->cwd)
		iput(files->cwd);
	kfree(files->fd);
	kfree(files);
}

/* FD_CLOEXEC bit of fd (files->lock held). */
static void cloexec_assign(struct files_struct *files, int fd, bool on)
{
	u32 bit = 1u << (fd % 32);

	if (on)
		files->cloexec[fd / 32] |= bit;
	else
		files->cloexec[fd / 32] &= ~bit;
}

static bool cloexec_test(struct files_struct *files, int fd)
{
	return files->cloexec[fd / 32] & (1u << (fd % 32));
}

int fd_install_from(struct files_struct *files, struct file *f, int min, bool cloexec)
{
	int fd, limit;

	if (min < 0)
		return -EINVAL;
	spin_lock(&files->lock);
	limit = MIN((u64)NR_OPEN, files->rlim[RLIMIT_NOFILE].rlim_cur);
	for (fd = min; fd < limit && files->fd[fd]; fd++)
		;
	if (fd < limit) {
		files->fd[fd] = f;
		cloexec_assign(files, fd, cloexec);
	}
	spin_unlock(&files->lock);
	return fd < limit ? fd : -EMFILE;
}

int fd_install(struct files_struct *files, struct file *f)
{
	return fd_install_from(files, f, 0, false);
}

int fd_replace(struct files_struct *files, int fd, struct file *f, bool cloexec)
{
	struct file *old;

	if (fd < 0 || fd >= NR_OPEN)
		return -EBADF;
	spin_lock(&files->lock);
	if ((u64)fd >= files->rlim[RLIMIT_NOFILE].rlim_cur) {	/* dup2/dup3 past RLIMIT_NOFILE */
		spin_unlock(&files->lock);
		fput(f);			/* the reference we were given */
		return -EBADF;
	}
	old = files->fd[fd];
	files->fd[fd] = f;
	cloexec_assign(files, fd, cloexec);
	spin_unlock(&files->lock);
	if (old)
		fd_put(files, old);
	return fd;
}

int fd_close(struct files_struct *files, int fd)
{
	struct file *f;

	if (fd < 0 || fd >= NR_OPEN)
		return -EBADF;
	spin_lock(&files->lock);
	f = files->fd[fd];
	files->fd[fd] = NULL;
	cloexec_assign(files, fd, false);
	spin_unlock(&files->lock);
	if (!f)
		return -EBADF;
	fd_put(files, f);
	return 0;
}

int fd_get_cloexec(struct files_struct *files, int fd)
{
	int ret = -EBADF;

	if (fd < 0 || fd >= NR_OPEN)
		return -EBADF;
	spin_lock(&files->lock);
	if (files->fd[fd])
		ret = cloexec_test(files, fd);
	spin_unlock(&files->lock);
	return ret;
}

int fd_set_cloexec(struct files_struct *files, int fd, bool on)
{
	int ret = -EBADF;

	if (fd < 0 || fd >= NR_OPEN)
		return -EBADF;
	spin_lock(&files->lock);
	if (files->fd[fd]) {
		cloexec_assign(files, fd, on);
		ret = 0;
	}
	spin_unlock(&files->lock);
	return ret;
}

void files_close_on_exec(struct files_struct *files)
{
	for (int fd = 0; fd < NR_OPEN; fd++) {
		struct file *f = NULL;

		if (!(fd % 32) && !READ_ONCE(files->cloexec[fd / 32])) {
			fd += 31;		/* none of these 32 is marked */
			continue;
		}
		spin_lock(&files->lock);
		if (cloexec_test(files, fd)) {
			f = files->fd[fd];
			files->fd[fd] = NULL;
			cloexec_assign(files, fd, false);
		}
		spin_unlock(&files->lock);
		if (f)
			fd_put(files, f);
	}
}

struct inode *files_get_cwd(struct files_struct *files)
{
	struct inode *dir;

	spin_lock(&files->lock);
	dir = files->cwd ? files->cwd : fs_root();
	iget(dir);
	spin_unlock(&files->lock);
	return dir;
}

void files_set_cwd(struct files_struct *files, struct inode *dir)
{
	struct inode *old;

	spin_lock(&files->lock);
	old = files->cwd;
	files->cwd = dir;
	spin_unlock(&files->lock);
	if (old)
		iput(old);
}
