/* mount.c: mount (21) and umount2 (52) for ext2 on a block device, sync's write-back of them, and
 * the mount= boot parameter (mount=/dev/vda:/mnt, after the initramfs is unpacked).
 *
 * Mounts are kept in a small table under mount_mutex (process context), which
 * also serialises mount, umount and sync with each other. */
#include "blk_file.h"
#include "cmdline.h"
#include "errno.h"
#include "ext2_mount.h"
#include "fs.h"
#include "mount.h"
#include "mutex.h"
#include "printk.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/mount.h"
#include "fs_internal.h"

#define MOUNT_MAX	8		/* file systems mounted at once */

static DEFINE_MUTEX(mount_mutex);

/* A mounted file system: its root, and where it lies. */
struct mount {
	struct inode *root;		/* NULL: a free slot */
	struct blkdev *dev;
	u64 start, end;			/* bytes of dev it uses */
};
static struct mount mounts[MOUNT_MAX];

/* Where on the device the file system lies: mount data "offset=N,sizelimit=N"
 * (bytes, as losetup names them); a window to mount one of several images. */
struct mount_opts {
	u64 offset, sizelimit;
};

static int mount_parse_opts(char *data, struct mount_opts *o)
{
	for (char *p = data; p && *p;) {
		char *next = strchr(p, ','), *end;
		const char *num;
		u64 *dst = NULL;
		if (next)
			*next++ = '\0';
		if (!strncmp(p, "offset=", 7))
			dst = &o->offset, num = p + 7;
		else if (!strncmp(p, "sizelimit=", 10))
			dst = &o->sizelimit, num = p + 10;
		else
			return -EINVAL;
		*dst = simple_strtoull(num, (const char **)&end);
		if (end == num || *end)
			return -EINVAL;
		p = next;
	}
	return 0;
}

/* The block-device file at path opened for the file system: -ENOTBLK for
 * anything else. */
static struct file *mount_open_dev(const char *path)
{
	struct inode *inode = namei(path);
	struct file *f;

	if (IS_ERR(inode))
		return ERR_PTR(PTR_ERR(inode));
	f = S_ISBLK(inode->mode) ? vfs_open_inode(inode, FMODE_READ | FMODE_WRITE, O_RDWR) :
		ERR_PTR(-ENOTBLK);
	iput(inode);
	if (!IS_ERR(f) && !blk_file_dev(f)) {
		fput(f);
		f = ERR_PTR(-ENOTBLK);
	}
	return f;
}

/* A free slot of the table for [start, end) of dev: its index, -EBUSY when
 * the table is full or a mounted file system overlaps it (two would write
 * the same blocks). mount_mutex held. */
static int mount_slot(struct blkdev *dev, u64 start, u64 end)
{
	int slot = -EBUSY;

	for (int i = 0; i < MOUNT_MAX; i++) {
		struct mount *m = &mounts[i];
		if (!m->root && slot < 0)
			slot = i;
		if (m->root && m->dev == dev && start < m->end && m->start < end)
			return -EBUSY;
	}
	return slot;
}

/* Mount ext2 from dev at dir (mount_mutex held); flags: MS_* (the atime
 * and read-only ones are the file system's). */
static int mount_locked(const char *dev, const char *dir, u32 flags, const struct mount_opts *o)
{
	struct file *f = mount_open_dev(dev);
	struct inode *root;
	u64 size;
	int slot, err;

	if (IS_ERR(f))
		return PTR_ERR(f);
	size = f->f_inode->size;
	if (o->offset >= size) {
		fput(f);
		return -EINVAL;
	}
	size -= o->offset;
	if (o->sizelimit && o->sizelimit < size)
		size = o->sizelimit;
	slot = mount_slot(blk_file_dev(f), o->offset, o->offset + size);
	if (slot < 0) {
		fput(f);
		return slot;
	}
	mounts[slot] = (struct mount){ NULL, blk_file_dev(f), o->offset, o->offset + size };
	root = ext2_mount(f, o->offset, size, flags);
	if (IS_ERR(root))
		return PTR_ERR(root);
	if ((err = vfs_mount_at(dir, root))) {
		ext2_umount(root);
		return err;
	}
	mounts[slot].root = root;
	return 0;
}

int do_mount(const char *dev, const char *dir, const char *type, u32 flags, char *data)
{
	struct mount_opts o = { 0, 0 };
	int err;

	if ((flags & MS_MGC_MSK) == MS_MGC_VAL)
		flags &= ~MS_MGC_MSK;
	if (strcmp(type, "ext2"))
		return -ENODEV;
	if (flags & (MS_REMOUNT | MS_BIND | MS_MOVE))
		return -EINVAL;
	if ((err = mount_parse_opts(data, &o)))
		return err;
	mutex_lock(&mount_mutex);
	err = mount_locked(dev, dir, flags, &o);
	mutex_unlock(&mount_mutex);
	return err;
}

int do_umount(const char *dir)
{
	struct inode *root;
	int err;

	mutex_lock(&mount_mutex);
	root = vfs_umount_at(dir);
	err = IS_ERR(root) ? PTR_ERR(root) : 0;
	if (!err) {
		for (int i = 0; i < MOUNT_MAX; i++)
			if (mounts[i].root == root)
				mounts[i].root = NULL;
		err = ext2_umount(root);
	}
	mutex_unlock(&mount_mutex);
	return err;
}

/* A user string of at most size bytes (NUL included) into buf: 0 or -errno. */
static int mount_get_str(char *buf, const char *ustr, long size)
{
	long n = strncpy_from_user(buf, ustr, size);

	if (n < 0)
		return n;
	return n == size ? -ENAMETOOLONG : 0;
}

long sys_mount(const char *dev_name, const char *dir_name, const char *type, unsigned long flags,
	       const void *data)
{
	char dev[PATH_MAX], dir[PATH_MAX], fstype[16], opts[128] = "";
	int err = fs_get_path(dev, dev_name);

	if (!err)
		err = fs_get_path(dir, dir_name);
	if (!err)
		err = mount_get_str(fstype, type, sizeof(fstype));
	if (!err && data)
		err = mount_get_str(opts, data, sizeof(opts));
	return err ? err : do_mount(dev, dir, fstype, flags, opts);
}

long sys_umount2(const char *name, int flags)
{
	char dir[PATH_MAX];
	int err = fs_get_path(dir, name);

	if (flags & ~UMOUNT_NOFOLLOW)
		return -EINVAL;			/* no forced or lazy umount */
	return err ? err : do_umount(dir);
}

void mount_sync_all(void)
{
	mutex_lock(&mount_mutex);
	for (int i = 0; i < MOUNT_MAX; i++)
		if (mounts[i].root)
			ext2_sync_root(mounts[i].root);
	mutex_unlock(&mount_mutex);
}

/* mkdir -p: every directory of path, quietly (do_mount says what is missing). */
static void mount_mkdirs(const char *path)
{
	char buf[PATH_MAX];
	size_t n = strnlen(path, PATH_MAX - 1);

	memcpy(buf, path, n);
	buf[n] = '\0';
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		vfs_mkdir(buf);
		buf[i] = i < n ? '/' : '\0';
	}
}

/* The flag of one mount= option (as mount(8) names them), or 0 when unknown. */
static u32 mount_boot_flag(const char *opt, size_t len)
{
	static const struct { const char *name; u32 flag; } opts[] = {
		{ "ro", MS_RDONLY }, { "noatime", MS_NOATIME }, { "nodiratime", MS_NODIRATIME },
		{ "relatime", MS_RELATIME }, { "strictatime", MS_STRICTATIME },
	};

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (strlen(opts[i].name) == len && !strncmp(opts[i].name, opt, len))
			return opts[i].flag;
	return 0;
}

/* mount='s options after the directory ("noatime,ro"): the MS_* flags, or
 * -EINVAL for one not known ("rw" is no flag). */
static long mount_boot_flags(const char *list)
{
	u32 flags = 0;

	while (list && *list) {
		const char *end = strchr(list, ',');
		size_t len = end ? (size_t)(end - list) : strlen(list);
		u32 f = mount_boot_flag(list, len);
		if (!f && !(len == 2 && !strncmp(list, "rw", 2)))
			return -EINVAL;
		flags |= f;
		list = end ? end + 1 : NULL;
	}
	return flags;
}

/* Split mount=DEV:DIR[:OPTIONS] into dev and dir (each < PATH_MAX); the
 * options, "" when none, or NULL when it does not parse. */
static const char *mount_boot_split(const char *arg, char *dev, char *dir)
{
	const char *colon = strchr(arg, ':'), *opts;
	size_t n;

	if (!colon || (size_t)(colon - arg) >= PATH_MAX)
		return NULL;
	memcpy(dev, arg, colon - arg);
	dev[colon - arg] = '\0';
	opts = strchr(colon + 1, ':');
	n = opts ? (size_t)(opts - colon - 1) : strlen(colon + 1);
	if (!n || n >= PATH_MAX)
		return NULL;
	memcpy(dir, colon + 1, n);
	dir[n] = '\0';
	return opts ? opts + 1 : "";
}

void mount_boot(void)
{
	const char *arg = cmdline_get(&boot_cmdline, "mount"), *opts;
	char dev[PATH_MAX], dir[PATH_MAX], data[1] = "";
	long flags;
	int err;

	if (!arg)
		return;
	opts = mount_boot_split(arg, dev, dir);
	flags = opts ? mount_boot_flags(opts) : -EINVAL;
	if (flags < 0) {
		printk("mount=%s: want mount=/dev/DEVICE:/DIR[:OPTIONS] (ro, rw, noatime, "
		       "nodiratime, relatime, strictatime)\n", arg);
		return;
	}
	mount_mkdirs(dir);
	err = do_mount(dev, dir, "ext2", flags, data);
	printk("mount: ext2 %s on %s: %s (%d)\n", dev, dir, err ? "failed" : "mounted", err);
}
