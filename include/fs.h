/* fs.h: inodes, open files, file operations and per-process descriptor tables.
 *
 * Lifetimes: an inode is held by its directory entry (nlink) and by every open
 * file (count); it is freed when both reach zero. A struct file is reference
 * counted (f_count): descriptors, in-flight AIO requests and fork all take
 * references; the last fput() calls ->release and drops the inode. fput() must
 * run in process context: the AIO core defers a last fput from an interrupt
 * to the worker thread.
 */
#ifndef FS_H
#define FS_H

#include "atomic.h"
#include "list.h"
#include "mutex.h"
#include "spinlock.h"
#include "types.h"
#include "uapi/fcntl.h"
#include "uapi/stat.h"

#define NAME_MAX	60
#define PATH_MAX	256
#define NR_OPEN		64	/* descriptors per process */

/* inode->mode: the S_IF* type bits of uapi/stat.h, plus permissions */

#define FMODE_READ	0x1	/* file opened for reading */
#define FMODE_WRITE	0x2	/* file opened for writing */


struct file;
struct kiocb;
struct page;

struct inode {
	u32 ino;
	u32 mode;
	u32 nlink;			/* directory entries naming it */
	atomic_t count;			/* open files */
	loff_t size;
	u32 rdev;			/* device number for device nodes */
	const struct file_operations *fops;	/* what open() installs */
	void *private;			/* ramfs pages, device or pipe data */
	void (*destroy)(struct inode *inode);	/* frees private when the inode goes */
	struct mutex lock;		/* guards size and the file data (ramfs);
					 * held across user copies */
	/* name space (ramfs): guarded by the namespace lock */
	char name[NAME_MAX + 1];
	struct inode *parent;
	struct list_head children;
	struct list_head sibling;
};

struct file {
	const struct file_operations *f_op;
	atomic_t f_count;
	u32 f_mode;			/* FMODE_READ | FMODE_WRITE */
	u32 f_flags;			/* O_APPEND, ... as given to open */
	loff_t f_pos;
	struct inode *f_inode;
	void *private_data;
	struct file *private_data_next;	/* the deferred-fput chain */
};

/*
 * File operations. read/write/fsync run in process context and may sleep.
 * aio_read/aio_write/aio_fsync start an asynchronous request: they return the
 * result when it finished at once, or -EIOCBQUEUED when aio_complete() will
 * be called later (possibly from an interrupt handler). A NULL method means
 * the file does not support the operation (-EINVAL).
 */
struct file_operations {
	loff_t (*llseek)(struct file *f, loff_t off, int whence);
	ssize_t (*read)(struct file *f, char *ubuf, size_t n, loff_t *pos);
	ssize_t (*write)(struct file *f, const char *ubuf, size_t n, loff_t *pos);
	int (*fsync)(struct file *f, int datasync);
	ssize_t (*aio_read)(struct kiocb *req, char *ubuf, size_t n, loff_t pos);
	ssize_t (*aio_write)(struct kiocb *req, const char *ubuf, size_t n, loff_t pos);
	int (*aio_fsync)(struct kiocb *req, int datasync);
	int (*open)(struct inode *inode, struct file *f);
	void (*release)(struct inode *inode, struct file *f);
};

struct files_struct {
	atomic_t count;			/* tasks sharing the table */
	spinlock_t lock;		/* guards fd[] */
	struct file *fd[NR_OPEN];
};

/* Files */
struct file *file_alloc(struct inode *inode, u32 mode, u32 flags);
static inline struct file *get_file(struct file *f) { atomic_inc(&f->f_count); return f; }
/* Drop a reference; the last one releases the file (process context only). */
void fput(struct file *f);
/* fput from any context: a last reference dropped in an interrupt handler is
 * released later by the worker thread. */
void fput_any(struct file *f);
void file_init(void);
/* The file behind descriptor fd of the current process, with a reference; NULL if none. */
struct file *fget(int fd);
loff_t generic_llseek(struct file *f, loff_t off, int whence);
extern atomic_t nr_files;		/* struct files alive (leak checks) */

/* Descriptor tables */
struct files_struct *files_alloc(void);
struct files_struct *files_dup(struct files_struct *old);
void files_put(struct files_struct *files);
/* Install f at the lowest free descriptor (the table takes over the reference). */
int fd_install(struct files_struct *files, struct file *f);
int fd_close(struct files_struct *files, int fd);

/* Inodes and the name space (kernel/fs/namei.c, ramfs.c) */
struct inode *inode_alloc(u32 mode, const struct file_operations *fops);
void iget(struct inode *inode);
void iput(struct inode *inode);
/* Look a path up (absolute; "." and ".." handled); returns the inode with a
 * reference, or an ERR_PTR (-ENOENT, -ENOTDIR, -ENAMETOOLONG). */
struct inode *namei(const char *path);
/* Create a node at path (parent must exist); ERR_PTR(-EEXIST) if present. */
struct inode *vfs_create(const char *path, u32 mode, const struct file_operations *fops);
int vfs_unlink(const char *path);
int vfs_mkdir(const char *path);
/* Remove an empty directory: -ENOTDIR, -ENOTEMPTY, -EBUSY (the root). */
int vfs_rmdir(const char *path);
/* Open inode as a new struct file (calls fops->open). */
struct file *vfs_open_inode(struct inode *inode, u32 fmode, u32 flags);
struct inode *fs_root(void);
void fs_init(void);

/* ramfs regular files */
extern const struct file_operations ramfs_file_ops;
/* Create an empty regular file at path; returns it with a reference, or ERR_PTR. */
struct inode *ramfs_create(const char *path, u32 mode);
/* Copy n bytes of kernel data into a ramfs file at pos (used by the initramfs). */
ssize_t ramfs_write_kernel(struct inode *inode, const void *buf, size_t n, loff_t pos);
/* Read up to n bytes at pos into a kernel buffer; returns the count. */
ssize_t ramfs_read_kernel(struct inode *inode, void *buf, size_t n, loff_t pos);
int ramfs_truncate(struct inode *inode, loff_t size);
extern atomic_t ramfs_pages;		/* pages holding file data */

/* Devices (kernel/fs/devices.c) */
void devices_init(void);
/* Make a character or block node in /dev with the given operations. */
int dev_register(const char *name, u32 type, const struct file_operations *fops, void *private);

/* Pipes (kernel/fs/pipe.c) */
int pipe_create(struct file **rd, struct file **wr);

/* Initramfs: unpack a cpio newc archive into the root (kernel/fs/cpio.c). */
int cpio_unpack(const void *data, size_t size);

#endif
