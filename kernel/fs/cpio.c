/* cpio.c: unpack the initramfs (a cpio "newc" archive) into the ramfs. */
#include "errno.h"
#include "fs.h"
#include "printk.h"
#include "string.h"

#define NEWC_MAGIC	"070701"
#define NEWC_HDR_LEN	110		/* magic + 13 fields of 8 hex digits */
#define NEWC_TRAILER	"TRAILER!!!"

enum { F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE, F_DEVMAJ,
       F_DEVMIN, F_RDEVMAJ, F_RDEVMIN, F_NAMESIZE, F_CHECK, NR_FIELDS };

static bool parse_hex8(const char *s, u32 *out)
{
	u32 v = 0;

	for (int i = 0; i < 8; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return false;
		v = v << 4 | d;
	}
	*out = v;
	return true;
}

static int cpio_entry(const char *name, u32 mode, const void *data, u32 size)
{
	char path[PATH_MAX];
	struct inode *inode;
	ssize_t n;

	if (!strcmp(name, ".") || snprintf(path, sizeof(path), "/%s", name) >= PATH_MAX)
		return 0;
	if (S_ISDIR(mode)) {
		int err = vfs_mkdir(path);
		return err == -EEXIST ? 0 : err;
	}
	if (!S_ISREG(mode))
		return 0;			/* no symlinks or devices in ours */
	inode = ramfs_create(path, mode);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	n = ramfs_write_kernel(inode, data, size, 0);
	iput(inode);
	return n == (ssize_t)size ? 0 : n < 0 ? (int)n : -ENOSPC;
}

int cpio_unpack(const void *data, size_t size)
{
	const char *p = data, *end = p + size;
	int files = 0;

	while (p + NEWC_HDR_LEN <= end) {
		u32 f[NR_FIELDS];
		const char *name, *body;
		int err;

		if (memcmp(p, NEWC_MAGIC, 6))
			return -EINVAL;
		for (int i = 0; i < NR_FIELDS; i++)
			if (!parse_hex8(p + 6 + 8 * i, &f[i]))
				return -EINVAL;
		name = p + NEWC_HDR_LEN;
		body = data + ALIGN_UP((size_t)(name + f[F_NAMESIZE] - (const char *)data), 4);
		if (name + f[F_NAMESIZE] > end || body + f[F_FILESIZE] > end ||
		    !f[F_NAMESIZE] || name[f[F_NAMESIZE] - 1])
			return -EINVAL;
		if (!strcmp(name, NEWC_TRAILER))
			return files;
		err = cpio_entry(name, f[F_MODE], body, f[F_FILESIZE]);
		if (err)
			return err;
		files++;
		p = data + ALIGN_UP((size_t)(body + f[F_FILESIZE] - (const char *)data), 4);
	}
	return -EINVAL;				/* no trailer */
}
