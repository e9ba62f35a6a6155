/* rename.c: rename(2) on ext2: the new name points at the moved inode (over a
 * replaced target, which loses that link), the old name goes, and a moved
 * directory's ".." and both parents' link counts follow. sb->lock held for
 * all of it; inodes to drop are iput after it. */
#include "errno.h"
#include "string.h"
#include "ext2.h"

struct ext2_rename {
	struct inode *odir, *ndir, *old, *target;
	const char *oname, *nname;
	size_t olen, nlen;
	struct inode *drop[3];		/* references to put after unlocking */
};

/* May old replace target? 0 or -errno (sb->lock held). */
static int ext2_rename_target_ok(struct ext2_rename *r, u32 flags)
{
	int empty;

	if (flags & RENAME_NOREPLACE)
		return -EEXIST;
	if (S_ISDIR(r->old->mode) && !S_ISDIR(r->target->mode))
		return -ENOTDIR;
	if (!S_ISDIR(r->old->mode) && S_ISDIR(r->target->mode))
		return -EISDIR;
	if (!S_ISDIR(r->target->mode))
		return 0;
	empty = ext2_dir_empty(r->target);
	return empty < 0 ? empty : empty ? 0 : -ENOTEMPTY;
}

/* The new name: over the target (which loses a link), or added. */
static int ext2_rename_new_name(struct ext2_rename *r)
{
	int err;

	if (!r->target)
		return ext2_dir_add(r->ndir, r->nname, r->nlen, r->old->ino, r->old->mode);
	err = ext2_dir_set(r->ndir, r->nname, r->nlen, r->old->ino, r->old->mode);
	if (err)
		return err;
	if (S_ISDIR(r->target->mode)) {
		r->target->nlink = 0;
		r->ndir->nlink--;		/* the target's ".." */
	} else {
		r->target->nlink--;
	}
	ext2_touch(r->target, false);
	return ext2_write_inode(r->target);
}

/* A moved directory: its ".." and the parents' counts. */
static int ext2_rename_dir(struct ext2_rename *r)
{
	int err = 0;

	r->odir->nlink--;
	r->ndir->nlink++;
	if (r->odir != r->ndir)
		err = ext2_dir_set(r->old, "..", 2, r->ndir->ino, S_IFDIR);
	if (!err)
		err = ext2_write_inode(r->odir);
	if (!err)
		err = ext2_write_inode(r->ndir);
	iget(r->ndir);
	r->drop[2] = vfs_set_dir_name(r->old, r->ndir, r->nname, r->nlen);
	return err;
}

/* The two inodes involved, with the checks that need them. */
static int ext2_rename_find(struct ext2_rename *r, u32 flags)
{
	struct ext2_sb *sb = EXT2_SB(r->odir);
	long oino = ext2_dir_find(r->odir, r->oname, r->olen), tino;

	if (oino <= 0)
		return oino ? oino : -ENOENT;
	r->old = ext2_iget(sb, oino);
	if (IS_ERR(r->old))
		return PTR_ERR(r->old);
	r->drop[0] = r->old;
	tino = ext2_dir_find(r->ndir, r->nname, r->nlen);
	if (tino < 0 || tino == oino)
		return tino < 0 ? tino : 1;	/* 1: the same file, nothing to do */
	if (S_ISDIR(r->old->mode) && ext2_is_ancestor(r->old, r->ndir))
		return -EINVAL;			/* into itself */
	if (!r->ndir->nlink)
		return -ENOENT;
	if (!tino)
		return S_ISDIR(r->old->mode) && r->ndir->nlink >= EXT2_LINK_MAX ? -EMLINK : 0;
	r->target = ext2_iget(sb, tino);
	if (IS_ERR(r->target))
		return PTR_ERR(r->target);
	r->drop[1] = r->target;
	return ext2_rename_target_ok(r, flags);
}

static int ext2_rename_locked(struct ext2_rename *r, u32 flags)
{
	int err = EXT2_SB(r->odir)->rdonly ? -EROFS : ext2_rename_find(r, flags);

	if (err)
		return err > 0 ? 0 : err;
	if ((err = ext2_rename_new_name(r)))
		return err;
	if ((err = ext2_dir_remove(r->odir, r->oname, r->olen)))
		return err;
	if (S_ISDIR(r->old->mode) && (err = ext2_rename_dir(r)))
		return err;
	ext2_touch(r->old, false);
	return ext2_write_inode(r->old);
}

int ext2_rename(struct inode *odir, const char *oname, size_t olen, struct inode *ndir,
		const char *nname, size_t nlen, u32 flags)
{
	struct ext2_sb *sb = EXT2_SB(odir);
	struct ext2_rename r = { odir, ndir, NULL, NULL, oname, nname, olen, nlen, { NULL } };
	int err;

	mutex_lock(&sb->lock);
	err = ext2_rename_locked(&r, flags);
	mutex_unlock(&sb->lock);
	for (int i = 0; i < 3; i++)
		if (r.drop[i])
			iput(r.drop[i]);
	return err;
}
