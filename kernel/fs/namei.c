/* namei.c: the in-memory name space: inodes in a tree, path lookup from the root or a directory, create, unlink, rename, getcwd. */
#include "clock.h"
#include "errno.h"
#include "fs.h"
#include "procfs.h"
#include "panic.h"
#include "printk.h"
#include "sched.h"
#include "slab.h"
#include "string.h"

static DEFINE_SPINLOCK(ns_lock);	/* guards names, parents, children, nlink */
static struct inode *root;
static u32 next_ino = 1;

struct inode *fs_root(void)
{
	return root;
}

struct inode *inode_alloc(u32 mode, const struct file_operations *fops)
{
	struct inode *inode = kmalloc(sizeof(*inode), GFP_KERNEL);
	struct kernel_timespec now;

	if (!inode)
		return NULL;
	memset(inode, 0, sizeof(*inode));
	inode->ino = __atomic_fetch_add(&next_ino, 1, __ATOMIC_RELAXED);
	inode->mode = mode;
	inode->fops = fops;
	ktime_get_real_ts(&now);
	inode->time_sec = now.tv_sec;
	inode->time_nsec = now.tv_nsec;
	atomic_set(&inode->count, 1);
	mutex_init(&inode->lock);
	INIT_LIST_HEAD(&inode->children);
	INIT_LIST_HEAD(&inode->sibling);
	return inode;
}

void iget(struct inode *inode)
{
	atomic_inc(&inode->count);
}

void iput(struct inode *inode)
{
	u32 flags;
	bool gone;

	spin_lock_irqsave(&ns_lock, flags);
	gone = atomic_dec_and_test(&inode->count) && inode->nlink == 0;
	spin_unlock_irqrestore(&ns_lock, flags);
	if (!gone)
		return;
	if (inode->destroy)
		inode->destroy(inode);
	kfree(inode);
}

static bool is_dot(const char *name, size_t len)
{
	return len == 1 && name[0] == '.';
}

static bool is_dotdot(const char *name, size_t len)
{
	return len == 2 && name[0] == '.' && name[1] == '.';
}

static struct inode *child_lookup(struct inode *dir, const char *name, size_t len)
{
	struct inode *c;

	if (is_dot(name, len))
		return dir;
	if (is_dotdot(name, len))
		return dir->parent ? dir->parent : dir;
	list_for_each_entry(c, &dir->children, sibling)
		if (strlen(c->name) == len && !strncmp(c->name, name, len))
			return c;
	return NULL;
}

/* Next component of *path: sets *len, advances *path past it; NULL at the end. */
static const char *next_component(const char **path, size_t *len)
{
	const char *p = *path, *start;

	while (*p == '/')
		p++;
	if (!*p)
		return NULL;
	start = p;
	while (*p && *p != '/')
		p++;
	*len = p - start;
	*path = p;
	return start;
}

static bool is_last(const char *rest)
{
	while (*rest == '/')
		rest++;
	return !*rest;
}

/* Where path starts: the root for an absolute path, else base (ns_lock held).
 * A directory that was removed (nlink 0) has no names left to find. */
static struct inode *walk_start(struct inode *base, const char *path)
{
	if (*path == '/')
		return root;
	return base->nlink ? base : ERR_PTR(-ENOENT);
}

/* Walk path from base under ns_lock. With want_parent, stop before the last
 * component: return its directory and put the name in *last / *len. */
static struct inode *walk(struct inode *base, const char *path, bool want_parent,
			  const char **last, size_t *len)
{
	struct inode *cur = walk_start(base, path);
	const char *name;
	size_t n;

	if (strnlen(path, PATH_MAX) == PATH_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	while (!IS_ERR(cur) && (name = next_component(&path, &n))) {
		if (n > NAME_MAX)
			return ERR_PTR(-ENAMETOOLONG);
		if (!S_ISDIR(cur->mode))
			return ERR_PTR(-ENOTDIR);
		if (want_parent && is_last(path)) {
			*last = name;
			*len = n;
			return cur;
		}
		cur = child_lookup(cur, name, n);
		if (!cur)
			return ERR_PTR(-ENOENT);
	}
	return want_parent && !IS_ERR(cur) ? ERR_PTR(-EEXIST) : cur;	/* "/" has no parent entry */
}

/* A path ending in '/' names a directory. */
static bool wants_dir(const char *path)
{
	size_t n = strnlen(path, PATH_MAX);

	return n && path[n - 1] == '/';
}

/* base, or the working directory, with a reference: release with iput. */
static struct inode *base_get(struct inode *base)
{
	if (base) {
		iget(base);
		return base;
	}
	if (current && current->files)
		return files_get_cwd(current->files);
	iget(root);
	return root;
}

struct inode *namei_at(struct inode *base, const char *path)
{
	struct inode *start = base_get(base), *inode;
	u32 flags;

	spin_lock_irqsave(&ns_lock, flags);
	inode = walk(start, path, false, NULL, NULL);
	if (!IS_ERR(inode) && wants_dir(path) && !S_ISDIR(inode->mode))
		inode = ERR_PTR(-ENOTDIR);
	if (!IS_ERR(inode))
		iget(inode);
	spin_unlock_irqrestore(&ns_lock, flags);
	iput(start);
	return inode;
}

/* The directory that will hold path's last component (ns_lock held), its
 * name in *name / *len; "." and ".." as that name are -EEXIST. */
static struct inode *parent_for_new(struct inode *start, const char *path, const char **name,
				    size_t *len)
{
	struct inode *dir = walk(start, path, true, name, len);

	if (!IS_ERR(dir) && child_lookup(dir, *name, *len))
		return ERR_PTR(-EEXIST);
	if (!IS_ERR(dir) && !dir->nlink)
		return ERR_PTR(-ENOENT);
	return dir;
}

struct inode *vfs_create_at(struct inode *base, const char *path, u32 mode,
			    const struct file_operations *fops)
{
	struct inode *start, *dir, *inode = inode_alloc(mode, fops);
	const char *name;
	size_t len;
	u32 flags;

	if (!inode)
		return ERR_PTR(-ENOMEM);
	start = base_get(base);
	spin_lock_irqsave(&ns_lock, flags);
	dir = parent_for_new(start, path, &name, &len);
	if (!IS_ERR(dir) && wants_dir(path) && !S_ISDIR(mode))
		dir = ERR_PTR(-EISDIR);
	if (IS_ERR(dir)) {
		spin_unlock_irqrestore(&ns_lock, flags);
		iput(start);
		kfree(inode);
		return dir;
	}
	memcpy(inode->name, name, len);
	inode->name[len] = '\0';
	inode->parent = dir;
	inode->nlink = 1;
	list_add_tail(&inode->sibling, &dir->children);
	spin_unlock_irqrestore(&ns_lock, flags);
	iput(start);
	return inode;			/* with the caller's reference */
}

/* Take inode out of the name space (ns_lock held). */
static int unlink_locked(struct inode *inode)
{
	if (inode == root)
		return -EBUSY;
	if (S_ISDIR(inode->mode) && !list_empty(&inode->children))
		return -ENOTEMPTY;
	list_del_init(&inode->sibling);
	inode->nlink = 0;
	return 0;
}

/* The existing node path names, for removal or renaming (ns_lock held):
 * "." is -EINVAL and ".." -ENOTEMPTY, as rmdir(2) says; "/" is -EBUSY. */
static struct inode *lookup_for_removal(struct inode *start, const char *path)
{
	struct inode *dir, *inode;
	const char *name;
	size_t len;

	dir = walk(start, path, true, &name, &len);
	if (IS_ERR(dir))
		return PTR_ERR(dir) == -EEXIST ? ERR_PTR(-EBUSY) : dir;
	if (is_dot(name, len))
		return ERR_PTR(-EINVAL);
	if (is_dotdot(name, len))
		return ERR_PTR(-ENOTEMPTY);
	inode = child_lookup(dir, name, len);
	return inode ? inode : ERR_PTR(-ENOENT);
}

/* Unlink a name; dirs says whether it must (or must not) be a directory. */
static int remove_name(struct inode *base, const char *path, bool dirs)
{
	struct inode *start = base_get(base), *inode;
	u32 flags;
	int err;

	spin_lock_irqsave(&ns_lock, flags);
	inode = lookup_for_removal(start, path);
	if (IS_ERR(inode))
		err = PTR_ERR(inode);
	else if (S_ISDIR(inode->mode) != dirs)
		err = dirs ? -ENOTDIR : -EISDIR;
	else if (!dirs && wants_dir(path))
		err = -ENOTDIR;			/* "file/" */
	else
		err = unlink_locked(inode);
	if (!err)
		atomic_inc(&inode->count);	/* so the iput below can free it */
	spin_unlock_irqrestore(&ns_lock, flags);
	if (!err)
		iput(inode);
	iput(start);
	return err;
}

int vfs_unlink_at(struct inode *base, const char *path)
{
	return remove_name(base, path, false);
}

int vfs_rmdir_at(struct inode *base, const char *path)
{
	return remove_name(base, path, true);
}

int vfs_mkdir_at(struct inode *base, const char *path, u32 mode)
{
	struct inode *dir = vfs_create_at(base, path, S_IFDIR | (mode & 07777), NULL);

	if (IS_ERR(dir))
		return PTR_ERR(dir);
	iput(dir);
	return 0;
}

/* Is dir inside (or equal to) the directory anc? (ns_lock held) */
static bool is_within(struct inode *dir, struct inode *anc)
{
	for (; dir; dir = dir->parent == dir ? NULL : dir->parent)
		if (dir == anc)
			return true;
	return false;
}

/* May old replace target in a rename? (ns_lock held) 0 or -errno. */
static int rename_target_ok(struct inode *old, struct inode *target, u32 flags)
{
	if (flags & RENAME_NOREPLACE)
		return -EEXIST;
	if (target == root)
		return -EBUSY;
	if (S_ISDIR(old->mode) && !S_ISDIR(target->mode))
		return -ENOTDIR;
	if (!S_ISDIR(old->mode) && S_ISDIR(target->mode))
		return -EISDIR;
	if (S_ISDIR(target->mode) && !list_empty(&target->children))
		return -ENOTEMPTY;
	return 0;
}

/* The rename itself (ns_lock held); *gone is a replaced target to iput. */
static int rename_locked(struct inode *os, const char *opath, struct inode *ns,
			 const char *npath, u32 flags, struct inode **gone)
{
	struct inode *old = lookup_for_removal(os, opath), *ndir, *target;
	const char *name;
	size_t len;
	int err;

	if (IS_ERR(old))
		return PTR_ERR(old) == -ENOTEMPTY || PTR_ERR(old) == -EINVAL ? -EBUSY : PTR_ERR(old);
	ndir = walk(ns, npath, true, &name, &len);
	if (IS_ERR(ndir))
		return PTR_ERR(ndir) == -EEXIST ? -EBUSY : PTR_ERR(ndir);
	if (is_dot(name, len) || is_dotdot(name, len))
		return -EBUSY;
	if (!S_ISDIR(old->mode) && (wants_dir(opath) || wants_dir(npath)))
		return -ENOTDIR;
	target = child_lookup(ndir, name, len);
	if (target == old)
		return 0;			/* the same file: nothing to do */
	if (S_ISDIR(old->mode) && is_within(ndir, old))
		return -EINVAL;			/* into itself */
	if (target && (err = rename_target_ok(old, target, flags)))
		return err;
	if (target && (err = unlink_locked(target)))
		return err;
	if (target) {
		atomic_inc(&target->count);	/* the caller's iput may free it */
		*gone = target;
	}
	list_del_init(&old->sibling);
	memcpy(old->name, name, len);
	old->name[len] = '\0';
	old->parent = ndir;
	list_add_tail(&old->sibling, &ndir->children);
	return 0;
}

int vfs_rename_at(struct inode *obase, const char *opath, struct inode *nbase,
		  const char *npath, u32 flags)
{
	struct inode *os = base_get(obase), *ns = base_get(nbase), *gone = NULL;
	u32 irq;
	int err;

	if (flags & ~RENAME_NOREPLACE)
		err = -EINVAL;
	else {
		spin_lock_irqsave(&ns_lock, irq);
		err = rename_locked(os, opath, ns, npath, flags, &gone);
		spin_unlock_irqrestore(&ns_lock, irq);
	}
	if (gone)
		iput(gone);
	iput(os);
	iput(ns);
	return err;
}

/* Write dir's path into the end of buf[0..size) (ns_lock held); the start, or
 * NULL when it does not fit. */
static char *path_of(struct inode *dir, char *buf, size_t size)
{
	char *p = buf + size;

	*--p = '\0';
	for (; dir != root; dir = dir->parent) {
		size_t n = strlen(dir->name);
		if ((size_t)(p - buf) < n + 1)
			return NULL;
		p -= n;
		memcpy(p, dir->name, n);
		*--p = '/';
	}
	if (!*p) {
		if (p == buf)
			return NULL;
		*--p = '/';
	}
	return p;
}

int vfs_getcwd(char *buf, size_t size)
{
	struct inode *cwd = base_get(NULL);
	char *p = NULL;
	u32 flags;
	int err = 0;

	spin_lock_irqsave(&ns_lock, flags);
	if (!cwd->nlink)
		err = -ENOENT;
	else if (size && !(p = path_of(cwd, buf, size)))
		err = -ERANGE;
	spin_unlock_irqrestore(&ns_lock, flags);
	iput(cwd);
	if (!err && !size)
		err = -ERANGE;
	if (err)
		return err;
	memmove(buf, p, buf + size - p);
	return strlen(buf) + 1;
}

struct file *vfs_open_inode(struct inode *inode, u32 fmode, u32 flags)
{
	struct file *f = file_alloc(inode, fmode, flags);
	int err;

	if (!f)
		return ERR_PTR(-ENOMEM);
	if (f->f_op && f->f_op->open && (err = f->f_op->open(inode, f))) {
		f->f_op = NULL;			/* no release for a failed open */
		fput(f);
		return ERR_PTR(err);
	}
	return f;
}

void fs_init(void)
{
	root = inode_alloc(S_IFDIR | 0755, NULL);
	BUG_ON(!root);
	root->nlink = 1;
	vfs_mkdir("/bin");
	vfs_mkdir("/dev");
	vfs_mkdir("/tmp");
	devices_init();
	procfs_init();
}
