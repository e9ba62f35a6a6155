/* namei.c: ext2's inode operations on names: lookup, create, mkdir, unlink,
 * rmdir, rename, symlink, link, readlink. Each takes sb->lock for its whole
 * change and hands inodes to drop back to the caller, who iputs them after
 * unlocking (ext2.h). Link counts: a directory has 2 + its subdirectories. */
#include "errno.h"
#include "string.h"
#include "ext2.h"

/* A directory entry naming one of these would make a loop. */
bool ext2_is_ancestor(struct inode *anc, struct inode *dir)
{
	for (struct inode *p = dir; p; p = p->parent)
		if (p == anc)
			return true;
	return false;
}

/* dir's child name found in dir: a directory learns its name and parent (for
 * getcwd and ".."); the old parent reference is put in *drop. */
static struct inode *ext2_lookup_locked(struct inode *dir, const char *name, size_t len,
					struct inode **drop)
{
	struct ext2_sb *sb = EXT2_SB(dir);
	long ino = ext2_dir_find(dir, name, len);
	struct inode *inode;

	if (ino <= 0)
		return ERR_PTR(ino ? ino : -ENOENT);
	inode = ext2_iget(sb, ino);
	if (IS_ERR(inode) || !S_ISDIR(inode->mode))
		return inode;
	if (ext2_is_ancestor(inode, dir)) {
		*drop = inode;
		return ERR_PTR(ext2_corrupt(sb, "directory loop at inode", ino));
	}
	if (inode->parent != dir && inode != sb->root) {
		iget(dir);
		*drop = vfs_set_dir_name(inode, dir, name, len);
	}
	return inode;
}

static struct inode *ext2_lookup(struct inode *dir, const char *name, size_t len)
{
	struct ext2_sb *sb = EXT2_SB(dir);
	struct inode *inode, *drop = NULL;

	mutex_lock(&sb->lock);
	inode = ext2_lookup_locked(dir, name, len, &drop);
	mutex_unlock(&sb->lock);
	if (drop)
		iput(drop);
	return inode;
}

/* May a new name go into dir? (sb->lock held) 0, -EROFS, -ENOENT (dir was
 * removed), -EEXIST. */
static int ext2_may_add(struct inode *dir, const char *name, size_t len)
{
	long ino;

	if (EXT2_SB(dir)->rdonly)
		return -EROFS;
	if (!dir->nlink)
		return -ENOENT;
	ino = ext2_dir_find(dir, name, len);
	return ino < 0 ? ino : ino ? -EEXIST : 0;
}

/* A symlink's target into the new inode: in i_block when it fits (a fast
 * symlink), else in a block of its own. */
static int ext2_symlink_init(struct inode *inode, const char *target)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	size_t n = strlen(target);
	struct ext2_buf *b;
	long nr;

	if (n <= EXT2_FAST_SYMLINK_MAX) {
		memcpy(EXT2_I(inode)->di.i_block, target, n);
	} else {
		nr = ext2_bmap(inode, 0, true, NULL);
		if (nr < 0)
			return nr;
		b = ext2_bread(sb, nr);
		if (IS_ERR(b))
			return PTR_ERR(b);
		memcpy(b->data, target, n);
		ext2_bdirty(b, inode->ino);
		ext2_brelse(b);
	}
	inode->size = n;
	return ext2_write_inode(inode);
}

/* A new inode of mode with nlink links, named name in dir (sb->lock held);
 * on failure after it was made it has no links and is put in *drop (its last
 * iput frees it). */
static struct inode *ext2_make(struct inode *dir, const char *name, size_t len, u32 mode,
			       const char *target, struct inode **drop)
{
	struct inode *inode;
	int err;

	if ((err = ext2_may_add(dir, name, len)))
		return ERR_PTR(err);
	if (S_ISDIR(mode) && dir->nlink >= EXT2_LINK_MAX)
		return ERR_PTR(-EMLINK);
	inode = ext2_new_inode(dir, mode);
	if (IS_ERR(inode))
		return inode;
	inode->nlink = S_ISDIR(mode) ? 2 : 1;
	if (S_ISDIR(mode))
		err = ext2_dir_init(inode, dir->ino);
	else if (target)
		err = ext2_symlink_init(inode, target);
	else
		err = ext2_write_inode(inode);
	if (!err)
		err = ext2_dir_add(dir, name, len, inode->ino, mode);
	if (!err && S_ISDIR(mode)) {
		dir->nlink++;
		err = ext2_write_inode(dir);
	}
	if (err) {
		inode->nlink = 0;
		*drop = inode;
		return ERR_PTR(err);
	}
	return inode;
}

/* create, mkdir and symlink: the new inode with a reference (create) or dropped. */
static struct inode *ext2_make_op(struct inode *dir, const char *name, size_t len, u32 mode,
				  const char *target)
{
	struct ext2_sb *sb = EXT2_SB(dir);
	struct inode *inode, *drop = NULL;

	mutex_lock(&sb->lock);
	inode = ext2_make(dir, name, len, mode, target, &drop);
	mutex_unlock(&sb->lock);
	if (drop)
		iput(drop);
	return inode;
}

static struct inode *ext2_create(struct inode *dir, const char *name, size_t len, u32 mode)
{
	return ext2_make_op(dir, name, len, S_IFREG | (mode & 07777), NULL);
}

/* The result of a make whose inode the caller does not keep. */
static int ext2_made(struct inode *inode)
{
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	iput(inode);
	return 0;
}

static int ext2_mkdir(struct inode *dir, const char *name, size_t len, u32 mode)
{
	return ext2_made(ext2_make_op(dir, name, len, S_IFDIR | (mode & 07777), NULL));
}

static int ext2_symlink(struct inode *dir, const char *name, size_t len, const char *target)
{
	size_t n = strnlen(target, PATH_MAX);

	if (!n)
		return -ENOENT;
	if (n >= EXT2_SB(dir)->block_size || n >= PATH_MAX)
		return -ENAMETOOLONG;
	return ext2_made(ext2_make_op(dir, name, len, S_IFLNK | 0777, target));
}

/* Take name out of dir and drop one link of its inode (sb->lock held); a
 * directory must be empty and loses both its links, its parent one. The
 * inode goes to *drop. */
static int ext2_remove(struct inode *dir, const char *name, size_t len, bool isdir,
		       struct inode **drop)
{
	struct ext2_sb *sb = EXT2_SB(dir);
	long ino = sb->rdonly ? -EROFS : ext2_dir_find(dir, name, len);
	struct inode *inode;
	int err;

	if (ino <= 0)
		return ino ? ino : -ENOENT;
	inode = ext2_iget(sb, ino);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	*drop = inode;
	if (S_ISDIR(inode->mode) != isdir)
		return isdir ? -ENOTDIR : -EISDIR;
	if (isdir && (err = ext2_dir_empty(inode)) <= 0)
		return err ? err : -ENOTEMPTY;
	if ((err = ext2_dir_remove(dir, name, len)))
		return err;
	inode->nlink = isdir || !inode->nlink ? 0 : inode->nlink - 1;
	ext2_touch(inode, false);
	err = ext2_write_inode(inode);
	if (isdir && dir->nlink > 2) {
		dir->nlink--;
		err = ext2_write_inode(dir);
	}
	return err;
}

static int ext2_remove_op(struct inode *dir, const char *name, size_t len, bool isdir)
{
	struct ext2_sb *sb = EXT2_SB(dir);
	struct inode *drop = NULL;
	int err;

	mutex_lock(&sb->lock);
	err = ext2_remove(dir, name, len, isdir, &drop);
	mutex_unlock(&sb->lock);
	if (drop)
		iput(drop);
	return err;
}

static int ext2_unlink(struct inode *dir, const char *name, size_t len)
{
	return ext2_remove_op(dir, name, len, false);
}

static int ext2_rmdir(struct inode *dir, const char *name, size_t len)
{
	return ext2_remove_op(dir, name, len, true);
}

static int ext2_link(struct inode *old, struct inode *dir, const char *name, size_t len)
{
	struct ext2_sb *sb = EXT2_SB(dir);
	int err;

	mutex_lock(&sb->lock);
	err = ext2_may_add(dir, name, len);
	if (!err && !old->nlink)
		err = -ENOENT;
	if (!err && old->nlink >= EXT2_LINK_MAX)
		err = -EMLINK;
	if (!err)
		err = ext2_dir_add(dir, name, len, old->ino, old->mode);
	if (!err) {
		old->nlink++;
		ext2_touch(old, false);
		err = ext2_write_inode(old);
	}
	mutex_unlock(&sb->lock);
	return err;
}

static int ext2_readlink(struct inode *inode, char *buf, size_t size)
{
	struct ext2_sb *sb = EXT2_SB(inode);
	struct ext2_inode *di = &EXT2_I(inode)->di;
	size_t n = inode->size;
	struct ext2_buf *b = NULL;
	long nr = 0;

	if (n + 1 > size)
		return -ENAMETOOLONG;
	mutex_lock(&sb->lock);
	if (ext2_fast_symlink(sb, di)) {
		if (n > EXT2_FAST_SYMLINK_MAX)
			nr = ext2_corrupt(sb, "fast symlink size", inode->ino);
		else
			memcpy(buf, di->i_block, n);
	} else if ((nr = ext2_bmap(inode, 0, false, NULL)) > 0) {
		b = ext2_bread(sb, nr);
		nr = IS_ERR(b) ? PTR_ERR(b) : 0;
		if (!nr)
			memcpy(buf, b->data, n);
		ext2_brelse(b);
	} else if (!nr) {
		nr = ext2_corrupt(sb, "symlink without a block", inode->ino);
	}
	mutex_unlock(&sb->lock);
	if (nr < 0)
		return nr;
	buf[n] = '\0';
	return strlen(buf) == n ? (int)n : ext2_corrupt(sb, "symlink target", inode->ino);
}

static int ext2_truncate(struct inode *inode, loff_t size)
{
	int err;

	ext2_ilock(inode);
	err = ext2_truncate_locked(inode, size);
	ext2_iunlock(inode);
	return err;
}

const struct inode_operations ext2_dir_iops = {
	.lookup = ext2_lookup,
	.create = ext2_create,
	.mkdir = ext2_mkdir,
	.unlink = ext2_unlink,
	.rmdir = ext2_rmdir,
	.rename = ext2_rename,
	.symlink = ext2_symlink,
	.link = ext2_link,
	.getattr = ext2_getattr,
	.put = ext2_put,
	.busy = ext2_busy,
};

const struct inode_operations ext2_file_iops = {
	.truncate = ext2_truncate,
	.getattr = ext2_getattr,
	.put = ext2_put,
};

const struct inode_operations ext2_symlink_iops = {
	.readlink = ext2_readlink,
	.getattr = ext2_getattr,
	.put = ext2_put,
};
