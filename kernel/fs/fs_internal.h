/* fs_internal.h: helpers the file-system call files in kernel/fs share (the syscall files, stat.c, read_write.c, poll.c). */
#ifndef FS_INTERNAL_H
#define FS_INTERNAL_H

#include "fs.h"

/* Copy a user path into buf (PATH_MAX): 0, -EFAULT, -ENAMETOOLONG or -ENOENT (empty). */
int fs_get_path(char *buf, const char *upath);
/* The directory a relative path starts from for a *at() call: NULL for
 * AT_FDCWD or an absolute path, dirfd's directory with a reference, or
 * ERR_PTR(-EBADF / -ENOTDIR). Release with fs_put_base. */
struct inode *fs_at_base(int dirfd, const char *path);
void fs_put_base(struct inode *base);
/* The calling process's umask. */
u32 fs_umask(void);
/* The POLL* events of f now (f->f_op->poll without a table, or always ready). */
unsigned fs_poll_now(struct file *f);

#endif
