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
#include "uapi/dirent.h"
#include "uapi/fcntl.h"
#include "uapi/stat.h"
#include "uapi/uio.h"
#include "uapi/resource.h"

#define NAME_MAX	255	/* bytes of one path component (Linux's, ext2's) */
#define PATH_MAX	512	/* bytes of a path with its NUL (Linux: 4096; here kernel
				 * stacks hold up to two: rename, link, symlink) */
#define NR_OPEN		1024	/* descriptors per process (Linux's default soft RLIMIT_NOFILE) */

/* inode->mode: the S_IF* type bits of uapi/stat.h, plus permissions */

#define FMODE_READ	0x1	/* file opened for reading */
#define FMODE_WRITE	0x2	/* file opened for writing */


struct file;
struct file_lock;
struct iovec;
struct kiocb;
struct page;
struct poll_table;

struct dir_context;
struct inode_operations;
struct kstat;

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
	u32 time_sec, time_nsec;	/* creation (CLOCK_REALTIME): stat's three times */
	struct mutex lock;		/* guards size and the file data (ramfs);
					 * held across user copies */
	/* name space (ramfs): guarded by the namespace lock */
	char name[NAME_MAX + 1];
	struct inode *parent;		/* ramfs: not counted; a disk directory: a
					 * reference (NULL at its file system's root) */
	struct list_head children;
	struct list_head sibling;
	struct inode *mounted;		/* a ramfs directory: the root of the file
					 * system mounted on it (ns lock) */
	struct inode *covered;		/* a file system's root: its mount point */
	/* A file system on a disk (NULL for ramfs, devices, pipes): */
	const struct inode_operations *i_op;
	void *i_sb;			/* the file system's own superblock */
	atomic_t i_mapgen;		/* bumped by a truncate that unmaps pages of the
					 * file from every mapping (vm_unmap_file_pages):
					 * a fault that fetched a page before it retries */
	struct file_lock *i_flock;	/* its advisory locks (kernel/fs/locks.c,
					 * under file_lock_lock) */
};

/* One entry for getdents: false when the caller's buffer is full (the
 * entry is then not consumed: the position stays before it). Before each
 * emit the file system sets next to the directory position after the entry
 * (getdents64's d_off): an lseek of the directory to it resumes the listing
 * with the entry that follows. */
struct dir_context {
	bool (*emit)(struct dir_context *ctx, const char *name, size_t len, u32 ino, u32 type);
	loff_t next;
};
/* type: the DT_* of getdents64 (uapi/dirent.h) */

/* What stat reports of an inode. */
struct kstat {
	u32 dev, ino, mode, nlink, rdev;
	u32 atime_sec, atime_nsec, mtime_sec, mtime_nsec, ctime_sec, ctime_nsec;
	u64 size, blocks;
	u32 blksize;
};

/*
 * Inode operations of a file system on a disk (ext2). Each runs in process
 * context and may sleep (it reads and writes the device); the file system
 * takes its own lock. Directory methods get the directory with the caller's
 * reference and one path component (name, len: not NUL-terminated, never "."
 * or ".."). 0 / a referenced inode, or -errno / ERR_PTR.
 */
struct inode_operations {
	/* The child named name, or ERR_PTR(-ENOENT); -EIO / -EUCLEAN on a bad disk. */
	struct inode *(*lookup)(struct inode *dir, const char *name, size_t len);
	/* A new empty regular file (mode: permissions): -EEXIST, -ENOSPC, ... */
	struct inode *(*create)(struct inode *dir, const char *name, size_t len, u32 mode);
	int (*mkdir)(struct inode *dir, const char *name, size_t len, u32 mode);
	int (*unlink)(struct inode *dir, const char *name, size_t len);
	int (*rmdir)(struct inode *dir, const char *name, size_t len);
	/* rename(2) within one file system (flags: RENAME_NOREPLACE). */
	int (*rename)(struct inode *odir, const char *oname, size_t olen, struct inode *ndir,
		      const char *nname, size_t nlen, u32 flags);
	int (*symlink)(struct inode *dir, const char *name, size_t len, const char *target);
	int (*link)(struct inode *old, struct inode *dir, const char *name, size_t len);
	/* A symlink's target into buf (kernel memory, NUL-terminated): its length. */
	int (*readlink)(struct inode *inode, char *buf, size_t size);
	/* Set a regular file's size (holes read as zeros): 0, -EFBIG, -ENOSPC. */
	int (*truncate)(struct inode *inode, loff_t size);
	void (*getattr)(struct inode *inode, struct kstat *k);
	/* The file system's iput: drop a reference; the last one takes the inode
	 * out of its cache (and frees it on disk when no name is left). */
	void (*put)(struct inode *inode);
	/* A file system's root, at umount: is any of its inodes in use besides
	 * the mount's reference on the root? Called under the namespace lock
	 * (a spinlock): must not sleep. */
	bool (*busy)(struct inode *root);
};

struct file {
	const struct file_operations *f_op;
	atomic_t f_count;
	u32 f_mode;			/* FMODE_READ | FMODE_WRITE */
	u32 f_flags;			/* access mode and status flags (O_APPEND,
					 * O_NONBLOCK, O_DIRECT, ...), as F_GETFL shows */
	loff_t f_pos;			/* under f_pos_lock for a regular file or
					 * directory (file_pos_lock) */
	struct mutex f_pos_lock;	/* one read/write/readv/writev/lseek/getdents
					 * at a time moves f_pos (Linux's: threads
					 * sharing a descriptor never read the same
					 * bytes); taken before any file system lock */
	struct inode *f_inode;
	void *private_data;
	struct file *private_data_next;	/* the deferred-fput chain */
	u32 f_wb_err;			/* a disk file system's write-back error
					 * sequence as this file's fsync last saw it */
	struct list_head f_ep_links;	/* the epoll items watching it (kernel/fs/epoll.c) */
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
	/* Vectored (IOCB_CMD_PREADV/PWRITEV): nr segments of a kernel copy of
	 * the user's iovec array, checked with access_ok, total <= INT_MAX; the
	 * array is the caller's and gone when the method returns. Without
	 * them the core runs one segment through aio_read/aio_write and refuses
	 * more (-EINVAL). */
	ssize_t (*aio_readv)(struct kiocb *req, const struct iovec *iov, u32 nr, loff_t pos);
	ssize_t (*aio_writev)(struct kiocb *req, const struct iovec *iov, u32 nr, loff_t pos);
	int (*open)(struct inode *inode, struct file *f);
	void (*release)(struct inode *inode, struct file *f);
	/* The POLL* events ready now (never sleeps); with pt, also queue the
	 * caller on the wait queues that announce a change (poll_wait). A NULL
	 * method means always readable and writable. */
	unsigned (*poll)(struct file *f, struct poll_table *pt);
	/* A request for this kind of file; -ENOIOCTLCMD lets the generic ones
	 * (kernel/fs/fd_syscalls.c) answer. Process context. */
	long (*ioctl)(struct file *f, unsigned cmd, unsigned long arg);
	/* Directory entries from f->f_pos on, through ctx->emit until it says
	 * full; f_pos becomes the position after the last entry taken. 0 or
	 * -errno. Process context. */
	int (*readdir)(struct file *f, struct dir_context *ctx);
	/* A regular file's page idx, for the fault of a mapping (mmap) or
	 * exec's loader: *pagep, with a reference the caller drops (a mapping
	 * keeps it while the page is mapped; the file system does not evict a
	 * page so held). write: a shared mapping is about to write the page:
	 * its blocks are allocated now, and it counts as dirty for every
	 * write-back while a mapping holds it. 0, or -ENOMEM (the fault tries
	 * the OOM killer), -EDEADLK (the fault came from a user copy the file
	 * system made under its own lock: the copy fails and the file system
	 * faults the user range in without the lock and tries again), or any
	 * other -errno: the page is past the end of the file (-ENXIO), cannot
	 * be read (-EIO) or has no room (-ENOSPC): SIGBUS for the process.
	 * Process context, no spinlock held; may sleep. NULL: no mmap, no exec. */
	int (*map_page)(struct inode *inode, u32 idx, bool write, struct page **pagep);
};

/* The bytes of nr segments (the AIO core checked the sum fits a result). */
static inline size_t iov_total(const struct iovec *iov, u32 nr)
{
	size_t n = 0;

	for (u32 i = 0; i < nr; i++)
		n += iov[i].iov_len;
	return n;
}

#define ENOIOCTLCMD	515		/* kernel-internal: not this file's request */

/*
 * A descriptor table, and what Linux keeps beside it in fs_struct: the working
 * directory and the umask (there are no threads, so one structure is shared
 * exactly as far as the table is).
 */
struct files_struct {
	atomic_t count;			/* tasks sharing the table */
	spinlock_t lock;		/* guards fd[], cloexec[] and cwd */
	struct file **fd;		/* NR_OPEN slots: one page of its own */
	u32 cloexec[NR_OPEN / 32];	/* FD_CLOEXEC, one bit per descriptor */
	struct inode *cwd;		/* working directory (a reference); NULL: the root */
	u32 umask;			/* bits cleared from the mode of new files */
	struct kernel_rlimit64 rlim[RLIM_NLIMITS];	/* resource limits (kernel/resource.c) */
};

/* Files */
struct file *file_alloc(struct inode *inode, u32 mode, u32 flags);
/* A file on a fresh inode (mode 0600, fops) with private_data private, for
 * an in-kernel object (epoll, timer and signal files); NULL without memory
 * (private is the caller's then; afterwards ->release frees it). */
struct file *anon_file_alloc(const struct file_operations *fops, void *private, u32 mode,
			     u32 flags);
static inline struct file *get_file(struct file *f) { atomic_inc(&f->f_count); return f; }
/* Drop a reference; the last one releases the file (process context only). */
void fput(struct file *f);
/* Take f->f_pos_lock when f is a regular file or a directory (whose f_pos
 * calls must not interleave); true when taken, to be given to
 * file_pos_unlock. Process context, may sleep; before any file system lock. */
bool file_pos_lock(struct file *f);
void file_pos_unlock(struct file *f, bool locked);
/* fput from any context: a last reference dropped in an interrupt handler is
 * released later by the worker thread. */
void fput_any(struct file *f);
void file_init(void);
/* The file behind descriptor fd of the current process, with a reference; NULL if none. */
struct file *fget(int fd);
loff_t generic_llseek(struct file *f, loff_t off, int whence);
#define LOFF_MAX	((loff_t)0x7fffffffffffffffLL)	/* the largest offset */
/* The offset rule of every read and write, plain or AIO, on every kind of
 * file (Linux's rw_verify_area; kernel/fs/read_write.c): -EINVAL when pos is
 * negative or pos + count would pass LOFF_MAX, else 0. A file then applies
 * its own limit: ramfs -EFBIG (RAMFS_MAX_SIZE), block devices -EINVAL past
 * their end. Any context. */
int rw_verify_area(loff_t pos, u64 count);
extern atomic_t nr_files;		/* struct files alive (leak checks) */

/* Descriptor tables */
struct files_struct *files_alloc(void);
struct files_struct *files_dup(struct files_struct *old);
void files_put(struct files_struct *files);
/* Install f at the lowest free descriptor (the table takes over the reference). */
int fd_install(struct files_struct *files, struct file *f);
/* ... at the lowest free descriptor >= min, with FD_CLOEXEC if cloexec; -EMFILE. */
int fd_install_from(struct files_struct *files, struct file *f, int min, bool cloexec);
/* Put f at descriptor fd (closing what was there; dup2/dup3); fd or -EBADF. */
int fd_replace(struct files_struct *files, int fd, struct file *f, bool cloexec);
int fd_close(struct files_struct *files, int fd);
/* FD_CLOEXEC of an open descriptor: 0/1, or -EBADF. */
int fd_get_cloexec(struct files_struct *files, int fd);
int fd_set_cloexec(struct files_struct *files, int fd, bool on);
/* Close every FD_CLOEXEC descriptor (execve, once the new image is in place). */
void files_close_on_exec(struct files_struct *files);
/* The working directory, with a reference (the root when none was set). */
struct inode *files_get_cwd(struct files_struct *files);
/* Make dir (the caller's reference moves to the table) the working directory. */
void files_set_cwd(struct files_struct *files, struct inode *dir);

/* Inodes and the name space (kernel/fs/namei.c, ramfs.c) */
struct inode *inode_alloc(u32 mode, const struct file_operations *fops);
void iget(struct inode *inode);
void iput(struct inode *inode);
/*
 * Path calls take `base`, the directory a relative path starts from (the
 * caller holds a reference), or NULL for the current task's working directory
 * (the root for kernel threads). An absolute path ignores base. A base that
 * was removed finds nothing (-ENOENT).
 */
/* Look a path up ("." and ".." handled, symbolic links followed, mount
 * points crossed); returns the inode with a reference, or an ERR_PTR
 * (-ENOENT, -ENOTDIR, -ENAMETOOLONG, -ELOOP, -EIO). May sleep. */
struct inode *namei_at(struct inode *base, const char *path);
/* The same, but a symbolic link as the last component is returned itself (lstat). */
struct inode *namei_at_nofollow(struct inode *base, const char *path);
/* open(O_CREAT)'s new regular file at path (ramfs, or the file system the
 * parent directory is on): the inode with a reference, or ERR_PTR(-EEXIST, ...). */
struct inode *vfs_create_file_at(struct inode *base, const char *path, u32 mode);
/* symlink(2) and link(2): -EPERM where the file system has no such thing (ramfs),
 * -EXDEV across file systems. */
int vfs_symlink_at(struct inode *base, const char *path, const char *target);
int vfs_link_at(struct inode *obase, const char *opath, struct inode *nbase, const char *npath);
/* A symlink's target (kernel buf of size bytes, NUL-terminated): its length,
 * -EINVAL when inode is no symlink. */
int vfs_readlink(struct inode *inode, char *buf, size_t size);
/* Set a regular file's size (ramfs or disk): -EINVAL for other files. */
int vfs_truncate(struct inode *inode, loff_t size);
/* A directory's entries from f->f_pos (ramfs, or its file system's readdir). */
int vfs_readdir(struct file *f, struct dir_context *ctx);
/* Mount points (kernel/fs/namei.c, for kernel/fs/mount.c). Attach root (a
 * file system's root, the caller's reference moves to the mount) on the ramfs
 * directory at path: -ENOTDIR, -EBUSY (mounted already, or the ramfs root),
 * -EINVAL (not a ramfs directory). Detach gives the root back with its reference. */
int vfs_mount_at(const char *path, struct inode *root);
struct inode *vfs_umount_at(const char *path);
/* For a disk file system's directories (getcwd, ".."): name dir `name` in
 * parent (whose new reference moves in); returns the old parent reference
 * for the caller to iput (NULL when none). */
struct inode *vfs_set_dir_name(struct inode *dir, struct inode *parent, const char *name,
			       size_t len);
static inline struct inode *namei(const char *path) { return namei_at(NULL, path); }
/* Create a node at path (parent must exist); ERR_PTR(-EEXIST) if present. */
struct inode *vfs_create_at(struct inode *base, const char *path, u32 mode,
			    const struct file_operations *fops);
static inline struct inode *vfs_create(const char *path, u32 mode,
				       const struct file_operations *fops)
{
	return vfs_create_at(NULL, path, mode, fops);
}
/* Remove a name that is not a directory: -EISDIR, -ENOENT, ... */
int vfs_unlink_at(struct inode *base, const char *path);
static inline int vfs_unlink(const char *path) { return vfs_unlink_at(NULL, path); }
/* Make a directory with permission bits mode. */
int vfs_mkdir_at(struct inode *base, const char *path, u32 mode);
static inline int vfs_mkdir(const char *path) { return vfs_mkdir_at(NULL, path, 0755); }
/* Remove an empty directory: -ENOTDIR, -ENOTEMPTY, -EBUSY (the root), -EINVAL (".") */
int vfs_rmdir_at(struct inode *base, const char *path);
static inline int vfs_rmdir(const char *path) { return vfs_rmdir_at(NULL, path); }
#define RENAME_NOREPLACE	1	/* renameat2: -EEXIST when the new name exists */
/* Move a name (replacing a compatible target, as rename(2)): -ENOENT, -EINVAL
 * (a directory into itself), -ENOTDIR, -EISDIR, -ENOTEMPTY, -EBUSY ("/", "."). */
int vfs_rename_at(struct inode *obase, const char *opath, struct inode *nbase,
		  const char *npath, u32 flags);
/* The working directory's absolute path in buf (NUL-terminated): its length
 * with the NUL, -ERANGE when size is too small, -ENOENT when it was removed. */
int vfs_getcwd(char *buf, size_t size);
/* Open inode as a new struct file (calls fops->open). */
struct file *vfs_open_inode(struct inode *inode, u32 fmode, u32 flags);
struct inode *fs_root(void);
void fs_init(void);

/* ramfs regular files */
#define RAMFS_MAX_SIZE	(64u << 20)	/* a file's largest size: a write at or past it is -EFBIG */
extern const struct file_operations ramfs_file_ops;
/* Create an empty regular file at path; returns it with a reference, or ERR_PTR. */
struct inode *ramfs_create_at(struct inode *base, const char *path, u32 mode);
/* The memory behind a MAP_SHARED | MAP_ANONYMOUS region: an unnamed ramfs
 * file of size bytes, open read-write (Linux's "/dev/zero (deleted)" shmem
 * file), so pages first touched after a fork are shared too. ERR_PTR(-ENOMEM). */
struct file *ramfs_anon_file(u32 size);
static inline struct inode *ramfs_create(const char *path, u32 mode)
{
	return ramfs_create_at(NULL, path, mode);
}
/* Copy n bytes of kernel data into a ramfs file at pos (used by the initramfs). */
ssize_t ramfs_write_kernel(struct inode *inode, const void *buf, size_t n, loff_t pos);
/* Read up to n bytes at pos into a kernel buffer; returns the count. */
ssize_t ramfs_read_kernel(struct inode *inode, void *buf, size_t n, loff_t pos);
int ramfs_truncate(struct inode *inode, loff_t size);
/* Grow a regular ramfs file to size if it is shorter (fallocate): 0 or -EFBIG. */
int ramfs_extend(struct inode *inode, loff_t size);
/* The file's page idx (made, zeroed, if it has none), with a reference, for
 * a mapping's fault; NULL without memory or past the most a file holds.
 * Process context (takes inode->lock). A page past the end stays the
 * file's: it reads as zeros and a truncate frees it like any other. */
struct page *ramfs_get_page(struct inode *inode, u32 idx);
extern atomic_t ramfs_pages;		/* pages holding file data */

/* Devices (kernel/fs/devices.c) */
void devices_init(void);
/* Make a character or block node in /dev with the given operations. */
int dev_register(const char *name, u32 type, const struct file_operations *fops, void *private);
/* f is open on /dev/zero, which mmap maps as anonymous memory (as Linux). */
bool file_is_dev_zero(const struct file *f);

/* Pipes (kernel/fs/pipe.c) */
int pipe_create(struct file **rd, struct file **wr);
/* fcntl F_GETPIPE_SZ / F_SETPIPE_SZ on f (kernel/fs/pipe.c): the capacity in
 * bytes, or -EBADF (no pipe), -EINVAL, -EPERM, -EBUSY, -ENOMEM. Process context. */
long pipe_fcntl(struct file *f, int cmd, unsigned long arg);

/* Initramfs: unpack a cpio newc archive into the root (kernel/fs/cpio.c). */
int cpio_unpack(const void *data, size_t size);

#endif
