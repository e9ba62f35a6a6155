/* readdir.c: getdents64 (220): directory entries as struct linux_dirent64 (up to 4 KiB a call), for ramfs directories and file systems on disks, each d_off a position lseek resumes from; 0 at the end, -EINVAL when one entry does not fit, -ENOTDIR. */
#include "errno.h"
#include "fs.h"
#include "slab.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"

#define GETDENTS_CHUNK	4096		/* bytes filled in the kernel per call */


struct getdents_ctx {
	struct dir_context ctx;
	char *buf;
	size_t size, used;
	u32 count;
	bool full;			/* an entry did not fit */
};

/* Append one record to the kernel buffer (never sleeps: called under the
 * namespace lock for ramfs); false when it does not fit. */
static bool getdents_emit(struct dir_context *ctx, const char *name, size_t len, u32 ino, u32 type)
{
	struct getdents_ctx *g = container_of(ctx, struct getdents_ctx, ctx);
	size_t rec = (sizeof(struct linux_dirent64) + len + 1 + 7) & ~7u;
	struct linux_dirent64 *d = (void *)(g->buf + g->used);

	if (g->used + rec > g->size) {
		g->full = true;
		return false;
	}
	memset(d, 0, rec);
	d->d_ino = ino;
	d->d_off = ctx->next;		/* lseek there: the listing goes on after it */
	d->d_reclen = rec;
	d->d_type = type;
	memcpy(d->d_name, name, len);
	g->used += rec;
	g->count++;
	return true;
}

long sys_getdents64(int fd, void *udirent, unsigned count)
{
	struct file *f = fget(fd);
	struct getdents_ctx g = { { getdents_emit, 0 }, NULL, MIN(count, GETDENTS_CHUNK), 0, 0,
				  false };
	bool locked;
	long ret;

	if (!f)
		return -EBADF;
	g.buf = kmalloc(GETDENTS_CHUNK, GFP_KERNEL);
	locked = file_pos_lock(f);
	ret = g.buf ? vfs_readdir(f, &g.ctx) : -ENOMEM;
	file_pos_unlock(f, locked);
	if (!ret && !g.count && g.full)
		ret = -EINVAL;			/* not even one entry fits */
	if (!ret)
		ret = copy_to_user(udirent, g.buf, g.used) ? -EFAULT : (long)g.used;
	kfree(g.buf);
	fput(f);
	return ret;
}
