/* namei.c: the name space: ramfs inodes in a tree, path lookup from the root or a directory
 * (symbolic links followed, mount points crossed into file systems on disks), create, unlink,
 * rename, getcwd, and ramfs directories' entries.
 *
 * ramfs names, parents, children, nlink and mount points are guarded by ns_lock; a
 * file system on a disk keeps its own names (its inode_operations, which sleep), so a
 * walk holds the lock one ramfs step at a time and a reference on where it stands. */
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

	if (inode->i_op && inode->i_op->put) {
		inode->i_op->put(inode);	/* a disk file system's inode cache */
		return;
	}
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

static bool is_dots(const char *name, size_t len)
{
	return is_dot(name, len) || is_dotdot(name, len);
}

/* A ramfs child of dir by name, "." and ".." included (ns_lock held). */
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

/* dir's parent with a reference: a file system's root goes up through its
 * mount point; the root is its own parent. */
static struct inode *parent_get(struct inode *dir)
{
	struct inode *p;
	u32 flags;

	spin_lock_irqsave(&ns_lock, flags);
	if (dir->covered)
		dir = dir->covered;
	p = dir->parent ? dir->parent : dir;
	iget(p);
	spin_unlock_irqrestore(&ns_lock, flags);
	return p;
}

/* A ramfs directory's child by name, or the root mounted on it; referenced. */
static struct inode *ramfs_child(struct inode *dir, const char *name, size_t len)
{
	struct inode *c;
	u32 flags;

	spin_lock_irqsave(&ns_lock, flags);
	c = child_lookup(dir, name, len);
	if (c && c->mounted)
		c = c->mounted;
	if (c)
		iget(c);
	spin_unlock_irqrestore(&ns_lock, flags);
	return c ? c : ERR_PTR(-ENOENT);
}

/* One component from the directory dir (the caller's reference): the child with a reference. */
static struct inode *step(struct inode *dir, const char *name, size_t len)
{
	if (is_dot(name, len)) {
		iget(dir);
		return dir;
	}
	if (is_dotdot(name, len))
		return parent_get(dir);
	if (dir->i_op)
		return dir->i_op->lookup(dir, name, len);
	return ramfs_child(dir, name, len);
}

#define WALK_PARENT	0x1		/* stop before the last component */
#define WALK_FOLLOW	0x2		/* follow a symbolic link as the last component */
#define WALK_MAX_LINKS	8		/* nested symbolic links: -ELOOP past this */

static struct inode *walk(struct inode *cur, const char *path, unsigned how, const char **last,
			  size_t *len, int depth);

/* What the symbolic link link (a reference, dropped) names, from dir. */
static struct inode *follow(struct inode *dir, struct inode *link, int depth)
{
	char *buf = depth < WALK_MAX_LINKS ? kmalloc(PATH_MAX, GFP_KERNEL) : NULL;
	struct inode *r;
	int n;

	if (!buf) {
		iput(link);
		return ERR_PTR(depth < WALK_MAX_LINKS ? -ENOMEM : -ELOOP);
	}
	n = vfs_readlink(link, buf, PATH_MAX);
	iput(link);
	if (n < 0) {
		r = ERR_PTR(n);
	} else {
		iget(dir);
		r = walk(dir, buf, WALK_FOLLOW, NULL, NULL, depth + 1);
	}
	kfree(buf);
	return r;
}

/* The next inode of a walk from cur (referenced) by the component name;
 * rest is the path after it. */
static struct inode *walk_next(struct inode *cur, const char *name, size_t n, const char *rest,
			       unsigned how, int depth)
{
	struct inode *next;

	if (n > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	if (!S_ISDIR(cur->mode))
		return ERR_PTR(-ENOTDIR);
	next = step(cur, name, n);
	if (!IS_ERR(next) && S_ISLNK(next->mode) &&
	    (!is_last(rest) || (how & WALK_FOLLOW) || *rest == '/'))
		next = follow(cur, next, depth);
	return next;
}

/* Walk path from cur (a reference, consumed; an absolute path starts at the
 * root). With WALK_PARENT, stop before the last component: return its
 * directory and put the name in *last / *len. May sleep. */
static struct inode *walk(struct inode *cur, const char *path, unsigned how, const char **last,
			  size_t *len, int depth)
{
	struct inode *next;
	const char *name;
	size_t n;

	if (strnlen(path, PATH_MAX) == PATH_MAX)
		next = ERR_PTR(-ENAMETOOLONG);
	else if (*path == '/')
		next = root;
	else
		next = cur->nlink ? cur : ERR_PTR(-ENOENT);	/* a removed directory */
	if (next == root)
		iget(root);
	if (next != cur)
		iput(cur);
	if (IS_ERR(next))
		return next;
	cur = next;
	while ((name = next_component(&path, &n))) {
		if ((how & WALK_PARENT) && is_last(path) && n <= NAME_MAX && S_ISDIR(cur->mode)) {
			*last = name;
			*len = n;
			return cur;
		}
		next = walk_next(cur, name, n, path, how, depth);
		iput(cur);
		if (IS_ERR(next))
			return next;
		cur = next;
	}
	if (how & WALK_PARENT) {		/* "/" has no parent entry */
		iput(cur);
		return ERR_PTR(-EEXIST);
	}
	return cur;
}

static struct inode *lookup(struct inode *base, const char *path, unsigned how)
{
	struct inode *inode = walk(base_get(base), path, how, NULL, NULL, 0);

	if (!IS_ERR(inode) && wants_dir(path) && !S_ISDIR(inode->mode)) {
		iput(inode);
		inode = ERR_PTR(-ENOTDIR);
	}
	return inode;
}

struct inode *namei_at(struct inode *base, const char *path)
{
	return lookup(base, path, WALK_FOLLOW);
}

struct inode *namei_at_nofollow(struct inode *base, const char *path)
{
	return lookup(base, path, 0);
}

/* The directory that holds path's last component, with a reference; its
 * name in *name / *len. "/" is -EEXIST. */
static struct inode *walk_parent(struct inode *base, const char *path, const char **name,
				 size_t *len)
{
	return walk(base_get(base), path, WALK_PARENT, name, len, 0);
}

struct inode *vfs_create_at(struct inode *base, const char *path, u32 mode,
			    const struct file_operations *fops)
{
	struct inode *dir, *inode;
	const char *name;
	size_t len;
	u32 flags;
	int err = 0;

	dir = walk_parent(base, path, &name, &len);
	if (IS_ERR(dir))
		return dir;
	if (!(inode = inode_alloc(mode, fops)))
		err = -ENOMEM;
	else if (dir->i_op)
		err = -EPERM;			/* no such node on that file system */
	else if (wants_dir(path) && !S_ISDIR(mode))
		err = -EISDIR;
	spin_lock_irqsave(&ns_lock, flags);
	if (!err && child_lookup(dir, name, len))
		err = -EEXIST;
	if (!err && !dir->nlink)
		err = -ENOENT;
	if (!err) {
		memcpy(inode->name, name, len);
		inode->name[len] = '\0';
		inode->parent = dir;
		inode->nlink = 1;
		list_add_tail(&inode->sibling, &dir->children);
	}
	spin_unlock_irqrestore(&ns_lock, flags);
	iput(dir);
	if (err) {
		kfree(inode);
		return ERR_PTR(err);
	}
	return inode;			/* with the caller's reference */
}

struct inode *vfs_create_file_at(struct inode *base, const char *path, u32 mode)
{
	struct inode *dir, *inode;
	const char *name;
	size_t len;

	dir = walk_parent(base, path, &name, &len);
	if (IS_ERR(dir) || !dir->i_op) {
		if (!IS_ERR(dir))
			iput(dir);
		return IS_ERR(dir) ? dir : ramfs_create_at(base, path, mode);
	}
	if (is_dots(name, len))
		inode = ERR_PTR(-EEXIST);
	else if (wants_dir(path))
		inode = ERR_PTR(-EISDIR);
	else
		inode = dir->i_op->create(dir, name, len, mode & 07777);
	iput(dir);
	return inode;
}

/* Take inode out of the ramfs name space (ns_lock held). */
static int unlink_locked(struct inode *inode)
{
	if (inode == root || inode->mounted)
		return -EBUSY;
	if (S_ISDIR(inode->mode) && !list_empty(&inode->children))
		return -ENOTEMPTY;
	list_del_init(&inode->sibling);
	inode->nlink = 0;
	return 0;
}

/* May a name of this type go with unlink (dirs false) or rmdir (dirs true)? */
static int remove_type_ok(struct inode *inode, bool dirs, bool slash)
{
	if (S_ISDIR(inode->mode) != dirs)
		return dirs ? -ENOTDIR : -EISDIR;
	if (!dirs && slash)
		return -ENOTDIR;		/* "file/" */
	return 0;
}

/* unlink or rmdir of name in a ramfs directory. */
static int ramfs_remove(struct inode *dir, const char *name, size_t len, bool dirs, bool slash)
{
	struct inode *inode;
	u32 flags;
	int err;

	spin_lock_irqsave(&ns_lock, flags);
	inode = child_lookup(dir, name, len);
	err = inode ? remove_type_ok(inode, dirs, slash) : -ENOENT;
	if (!err)
		err = unlink_locked(inode);
	if (!err)
		atomic_inc(&inode->count);	/* so the iput below can free it */
	spin_unlock_irqrestore(&ns_lock, flags);
	if (!err)
		iput(inode);
	return err;
}

/* unlink or rmdir of name in a directory of a file system on a disk. */
static int fs_remove(struct inode *dir, const char *name, size_t len, bool dirs, bool slash)
{
	struct inode *inode = dir->i_op->lookup(dir, name, len);
	int err;

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	err = remove_type_ok(inode, dirs, slash);
	iput(inode);
	if (err)
		return err;
	return dirs ? dir->i_op->rmdir(dir, name, len) : dir->i_op->unlink(dir, name, len);
}

/* Unlink a name; dirs says whether it must (or must not) be a directory.
 * "." is -EINVAL and ".." -ENOTEMPTY, as rmdir(2) says; "/" is -EBUSY. */
static int remove_name(struct inode *base, const char *path, bool dirs)
{
	const char *name;
	size_t len;
	struct inode *dir = walk_parent(base, path, &name, &len);
	int err;

	if (IS_ERR(dir))
		return PTR_ERR(dir) == -EEXIST ? -EBUSY : PTR_ERR(dir);
	if (is_dot(name, len))
		err = -EINVAL;
	else if (is_dotdot(name, len))
		err = -ENOTEMPTY;
	else if (dir->i_op)
		err = fs_remove(dir, name, len, dirs, wants_dir(path));
	else
		err = ramfs_remove(dir, name, len, dirs, wants_dir(path));
	iput(dir);
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
	struct inode *dir;
	const char *name;
	size_t len;
	int err;

	dir = walk_parent(base, path, &name, &len);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	if (dir->i_op) {
		err = is_dots(name, len) ? -EEXIST : dir->i_op->mkdir(dir, name, len, mode & 07777);
		iput(dir);
		return err;
	}
	iput(dir);
	dir = vfs_create_at(base, path, S_IFDIR | (mode & 07777), NULL);
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

/* A rename's two names: each parent directory and last component. */
struct rename_names {
	struct inode *odir, *ndir;
	const char *oname, *nname;
	size_t olen, nlen;
	bool slash;			/* either path ends in '/' */
};

/* The rename in ramfs (ns_lock held); *gone is a replaced target to iput. */
static int ramfs_rename_locked(struct rename_names *r, u32 flags, struct inode **gone)
{
	struct inode *old = child_lookup(r->odir, r->oname, r->olen), *target;
	int err;

	if (!old)
		return -ENOENT;
	if (old->mounted)
		return -EBUSY;
	if (!S_ISDIR(old->mode) && r->slash)
		return -ENOTDIR;
	target = child_lookup(r->ndir, r->nname, r->nlen);
	if (target == old)
		return 0;			/* the same file: nothing to do */
	if (S_ISDIR(old->mode) && is_within(r->ndir, old))
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
	memcpy(old->name, r->nname, r->nlen);
	old->name[r->nlen] = '\0';
	old->parent = r->ndir;
	list_add_tail(&old->sibling, &r->ndir->children);
	return 0;
}

/* The rename on a disk file system: both names on the same one (-EXDEV). */
static int fs_rename(struct rename_names *r, u32 flags)
{
	struct inode *old;

	if (r->odir->i_sb != r->ndir->i_sb || !r->odir->i_op)
		return -EXDEV;
	old = r->odir->i_op->lookup(r->odir, r->oname, r->olen);
	if (IS_ERR(old))
		return PTR_ERR(old);
	if (!S_ISDIR(old->mode) && r->slash) {
		iput(old);
		return -ENOTDIR;
	}
	iput(old);
	return r->odir->i_op->rename(r->odir, r->oname, r->olen, r->ndir, r->nname, r->nlen, flags);
}

/* The parents and names of a rename: 0, or -errno with nothing held. */
static int rename_walk(struct rename_names *r, struct inode *obase, const char *opath,
		       struct inode *nbase, const char *npath)
{
	r->odir = walk_parent(obase, opath, &r->oname, &r->olen);
	if (IS_ERR(r->odir))
		return PTR_ERR(r->odir) == -EEXIST ? -EBUSY : PTR_ERR(r->odir);
	r->ndir = walk_parent(nbase, npath, &r->nname, &r->nlen);
	if (IS_ERR(r->ndir)) {
		iput(r->odir);
		return PTR_ERR(r->ndir) == -EEXIST ? -EBUSY : PTR_ERR(r->ndir);
	}
	r->slash = wants_dir(opath) || wants_dir(npath);
	return 0;
}

int vfs_rename_at(struct inode *obase, const char *opath, struct inode *nbase,
		  const char *npath, u32 flags)
{
	struct rename_names r;
	struct inode *gone = NULL;
	u32 irq;
	int err;

	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	if ((err = rename_walk(&r, obase, opath, nbase, npath)))
		return err;
	if (is_dots(r.oname, r.olen) || is_dots(r.nname, r.nlen)) {
		err = -EBUSY;
	} else if (r.odir->i_op || r.ndir->i_op) {
		err = fs_rename(&r, flags);
	} else {
		spin_lock_irqsave(&ns_lock, irq);
		err = ramfs_rename_locked(&r, flags, &gone);
		spin_unlock_irqrestore(&ns_lock, irq);
	}
	if (gone)
		iput(gone);
	iput(r.odir);
	iput(r.ndir);
	return err;
}

int vfs_symlink_at(struct inode *base, const char *path, const char *target)
{
	const char *name;
	size_t len;
	struct inode *dir = walk_parent(base, path, &name, &len);
	int err;

	if (IS_ERR(dir))
		return PTR_ERR(dir);
	if (!dir->i_op || !dir->i_op->symlink)
		err = -EPERM;			/* ramfs has no symbolic links */
	else if (is_dots(name, len) || wants_dir(path))
		err = -EEXIST;
	else
		err = dir->i_op->symlink(dir, name, len, target);
	iput(dir);
	return err;
}

int vfs_link_at(struct inode *obase, const char *opath, struct inode *nbase, const char *npath)
{
	struct inode *old = namei_at_nofollow(obase, opath), *dir;
	const char *name;
	size_t len;
	int err;

	if (IS_ERR(old))
		return PTR_ERR(old);
	dir = walk_parent(nbase, npath, &name, &len);
	if (IS_ERR(dir)) {
		err = PTR_ERR(dir);
	} else {
		if (S_ISDIR(old->mode))
			err = -EPERM;
		else if (!dir->i_op || !dir->i_op->link)
			err = old->i_op ? -EXDEV : -EPERM;
		else if (old->i_sb != dir->i_sb)
			err = -EXDEV;
		else if (is_dots(name, len) || wants_dir(npath))
			err = -EEXIST;
		else
			err = dir->i_op->link(old, dir, name, len);
		iput(dir);
	}
	iput(old);
	return err;
}

int vfs_readlink(struct inode *inode, char *buf, size_t size)
{
	if (!S_ISLNK(inode->mode) || !inode->i_op || !inode->i_op->readlink)
		return -EINVAL;
	return inode->i_op->readlink(inode, buf, size);
}

int vfs_truncate(struct inode *inode, loff_t size)
{
	if (S_ISDIR(inode->mode))
		return -EISDIR;
	if (!S_ISREG(inode->mode) || size < 0)
		return -EINVAL;
	if (inode->i_op && inode->i_op->truncate)
		return inode->i_op->truncate(inode, size);
	if (inode->fops != &ramfs_file_ops)
		return -EINVAL;
	return ramfs_truncate(inode, size);
}

/* getdents's type of a mode. */
static u32 dt_of(u32 mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return DT_DIR;
	case S_IFREG: return DT_REG;
	case S_IFLNK: return DT_LNK;
	case S_IFBLK: return DT_BLK;
	case S_IFCHR: return DT_CHR;
	case S_IFIFO: return DT_FIFO;
	}
	return DT_UNKNOWN;
}

/* A ramfs directory: position 0 is ".", 1 "..", 2 + i its i-th child.
 * ctx->emit must not sleep (it fills a kernel buffer): ns_lock is held. */
static int ramfs_readdir(struct file *f, struct dir_context *ctx)
{
	struct inode *dir = f->f_inode, *c, *up;
	loff_t i = 0;
	u32 flags;

	spin_lock_irqsave(&ns_lock, flags);
	up = dir->parent ? dir->parent : dir;
	ctx->next = 1;
	if (f->f_pos == 0 && ctx->emit(ctx, ".", 1, dir->ino, DT_DIR))
		f->f_pos = 1;
	ctx->next = 2;
	if (f->f_pos == 1 && ctx->emit(ctx, "..", 2, up->ino, DT_DIR))
		f->f_pos = 2;
	list_for_each_entry(c, &dir->children, sibling) {
		if (f->f_pos < 2 || i++ < f->f_pos - 2)
			continue;
		ctx->next = f->f_pos + 1;
		if (!ctx->emit(ctx, c->name, strlen(c->name), c->ino, dt_of(c->mode)))
			break;
		f->f_pos++;
	}
	spin_unlock_irqrestore(&ns_lock, flags);
	return 0;
}

int vfs_readdir(struct file *f, struct dir_context *ctx)
{
	if (!f->f_inode || !S_ISDIR(f->f_inode->mode))
		return -ENOTDIR;
	if (f->f_op && f->f_op->readdir)
		return f->f_op->readdir(f, ctx);
	if (f->f_inode->i_op)
		return -EINVAL;
	return ramfs_readdir(f, ctx);
}

/* The ramfs directory path names (not crossing a mount at its end), with a
 * reference, or ERR_PTR. */
static struct inode *mount_point(const char *path)
{
	const char *name;
	size_t len;
	struct inode *dir = walk_parent(NULL, path, &name, &len), *mp = NULL;
	u32 flags;

	if (IS_ERR(dir))
		return PTR_ERR(dir) == -EEXIST ? ERR_PTR(-EBUSY) : dir;	/* "/" */
	if (!dir->i_op && !is_dots(name, len)) {
		spin_lock_irqsave(&ns_lock, flags);
		mp = child_lookup(dir, name, len);
		if (mp)
			iget(mp);
		spin_unlock_irqrestore(&ns_lock, flags);
	}
	iput(dir);
	if (!mp)
		return ERR_PTR(dir->i_op || is_dots(name, len) ? -EINVAL : -ENOENT);
	return mp;
}

int vfs_mount_at(const char *path, struct inode *fsroot)
{
	struct inode *mp = mount_point(path);
	u32 flags;
	int err = 0;

	if (IS_ERR(mp))
		return PTR_ERR(mp);
	spin_lock_irqsave(&ns_lock, flags);
	if (!S_ISDIR(mp->mode))
		err = -ENOTDIR;
	else if (mp->mounted || !mp->nlink)
		err = mp->mounted ? -EBUSY : -ENOENT;
	if (!err) {
		mp->mounted = fsroot;		/* the mount's references: fsroot's, and mp */
		fsroot->covered = mp;
	}
	spin_unlock_irqrestore(&ns_lock, flags);
	if (err)
		iput(mp);
	return err;
}

struct inode *vfs_umount_at(const char *path)
{
	struct inode *mp = mount_point(path), *fsroot;
	u32 flags;

	if (IS_ERR(mp))
		return mp;
	spin_lock_irqsave(&ns_lock, flags);
	fsroot = mp->mounted;
	if (!fsroot)
		fsroot = ERR_PTR(-EINVAL);
	else if (fsroot->i_op->busy && fsroot->i_op->busy(fsroot))
		fsroot = ERR_PTR(-EBUSY);
	else {
		mp->mounted = NULL;
		fsroot->covered = NULL;
	}
	spin_unlock_irqrestore(&ns_lock, flags);
	if (!IS_ERR(fsroot))
		iput(mp);			/* the mount's */
	iput(mp);
	return fsroot;
}

/* Write dir's path into the end of buf[0..size) (ns_lock held); the start, or
 * NULL when it does not fit. A file system's root is named by its mount point. */
static char *path_of(struct inode *dir, char *buf, size_t size)
{
	char *p = buf + size;

	*--p = '\0';
	while (dir && dir != root) {
		struct inode *named = dir->covered ? dir->covered : dir;
		size_t n = strlen(named->name);
		if ((size_t)(p - buf) < n + 1)
			return NULL;
		p -= n;
		memcpy(p, named->name, n);
		*--p = '/';
		dir = named->parent;
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

/* For a disk file system: name the directory dir (a new reference to parent
 * moves in; the old one is returned for the caller to iput, outside locks). */
struct inode *vfs_set_dir_name(struct inode *dir, struct inode *parent, const char *name, size_t len)
{
	struct inode *old;
	u32 flags;

	len = MIN(len, (size_t)NAME_MAX);
	spin_lock_irqsave(&ns_lock, flags);
	old = dir->parent;
	dir->parent = parent;
	memcpy(dir->name, name, len);
	dir->name[len] = '\0';
	spin_unlock_irqrestore(&ns_lock, flags);
	return old;
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
	vfs_mkdir_at(NULL, "/dev/shm", 01777);	/* shm_open's files (ramfs, as Linux's tmpfs) */
	vfs_mkdir("/tmp");
	devices_init();
	procfs_init();
}
