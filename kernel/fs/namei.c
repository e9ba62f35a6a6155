/* namei.c: the in-memory name space: inodes in a tree, path lookup, create, unlink. */
#include "errno.h"
#include "fs.h"
#include "panic.h"
#include "printk.h"
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

	if (!inode)
		return NULL;
	memset(inode, 0, sizeof(*inode));
	inode->ino = __atomic_fetch_add(&next_ino, 1, __ATOMIC_RELAXED);
	inode->mode = mode;
	inode->fops = fops;
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

static struct inode *child_lookup(struct inode *dir, const char *name, size_t len)
{
	struct inode *c;

	if (len == 1 && name[0] == '.')
		return dir;
	if (len == 2 && name[0] == '.' && name[1] == '.')
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

/* Walk path under ns_lock. With want_parent, stop before the last component:
 * return its directory and put the name in *last / *len. */
static struct inode *walk(const char *path, bool want_parent, const char **last, size_t *len)
{
	struct inode *cur = root;
	const char *name;
	size_t n;

	if (strnlen(path, PATH_MAX) == PATH_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	while ((name = next_component(&path, &n))) {
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
	return want_parent ? ERR_PTR(-EEXIST) : cur;	/* "/" has no parent entry */
}

struct inode *namei(const char *path)
{
	struct inode *inode;
	u32 flags;

	spin_lock_irqsave(&ns_lock, flags);
	inode = walk(path, false, NULL, NULL);
	if (!IS_ERR(inode))
		iget(inode);
	spin_unlock_irqrestore(&ns_lock, flags);
	return inode;
}

struct inode *vfs_create(const char *path, u32 mode, const struct file_operations *fops)
{
	struct inode *dir, *inode = inode_alloc(mode, fops);
	const char *name;
	size_t len;
	u32 flags;

	if (!inode)
		return ERR_PTR(-ENOMEM);
	spin_lock_irqsave(&ns_lock, flags);
	dir = walk(path, true, &name, &len);
	if (!IS_ERR(dir) && child_lookup(dir, name, len))
		dir = ERR_PTR(-EEXIST);
	if (IS_ERR(dir)) {
		spin_unlock_irqrestore(&ns_lock, flags);
		kfree(inode);
		return dir;
	}
	memcpy(inode->name, name, len);
	inode->name[len] = '\0';
	inode->parent = dir;
	inode->nlink = 1;
	list_add_tail(&inode->sibling, &dir->children);
	spin_unlock_irqrestore(&ns_lock, flags);
	return inode;			/* with the caller's reference */
}

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

/* Unlink a name; dirs says whether it must (or must not) be a directory. */
static int remove_name(const char *path, bool dirs)
{
	struct inode *inode;
	u32 flags;
	int err;

	spin_lock_irqsave(&ns_lock, flags);
	inode = walk(path, false, NULL, NULL);
	if (IS_ERR(inode))
		err = PTR_ERR(inode);
	else if (S_ISDIR(inode->mode) != dirs)
		err = dirs ? -ENOTDIR : -EISDIR;
	else
		err = unlink_locked(inode);
	if (!err)
		atomic_inc(&inode->count);	/* so the iput below can free it */
	spin_unlock_irqrestore(&ns_lock, flags);
	if (!err)
		iput(inode);
	return err;
}

int vfs_unlink(const char *path)
{
	return remove_name(path, false);
}

int vfs_rmdir(const char *path)
{
	return remove_name(path, true);
}

int vfs_mkdir(const char *path)
{
	struct inode *dir = vfs_create(path, S_IFDIR | 0755, NULL);

	if (IS_ERR(dir))
		return PTR_ERR(dir);
	iput(dir);
	return 0;
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
}
