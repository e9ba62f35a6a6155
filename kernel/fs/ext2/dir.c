/* dir.c: ext2 directories as linear lists of entries, block by block: lookup,
 * getdents (a position is a byte of the directory: getdents64's d_off is the
 * byte of the next record, and a listing resumed at any byte starts with the
 * first record at or after it), adding (in a free record, by splitting a used one, or in a new
 * block), removing (merged into the previous record), and the first block of
 * a new directory. A hashed (dir_index) directory reads the same way: its
 * index blocks look like empty records; one that we change loses its index
 * flag and stays a valid linear directory. sb->lock held. */
#include "errno.h"
#include "string.h"
#include "ext2.h"

/* Called for each record (in use or not) with its buffer: 0 goes on, anything
 * else stops the walk and is returned. pos: the record's byte in dir. */
typedef int (*ext2_dirent_fn)(struct inode *dir, struct ext2_buf *b, struct ext2_dir_entry *de,
			      struct ext2_dir_entry *prev, u32 pos, void *arg);

/* Is the record at off of a block sane? */
static bool ext2_dirent_ok(const struct ext2_sb *sb, const struct ext2_dir_entry *de, u32 off)
{
	u32 rl = de->rec_len;

	return rl >= EXT2_DIR_REC_LEN(1) && !(rl & 3) && rl >= EXT2_DIR_REC_LEN(de->name_len) &&
	       off + rl <= sb->block_size && de->inode <= sb->inodes_count;
}

/* Block lblk of dir, read: a hole in a directory is -EUCLEAN. */
static struct ext2_buf *ext2_dir_block(struct inode *dir, u32 lblk)
{
	long nr = ext2_bmap(dir, lblk, false, NULL);

	if (nr < 0)
		return ERR_PTR(nr);
	if (!nr)
		return ERR_PTR(ext2_corrupt(EXT2_SB(dir), "directory hole in inode", dir->ino));
	return ext2_bread(EXT2_SB(dir), nr);
}

/* Walk the records of dir from byte start (a record boundary, or the first
 * record after it). */
static int ext2_dir_walk(struct inode *dir, u32 start, ext2_dirent_fn fn, void *arg)
{
	struct ext2_sb *sb = EXT2_SB(dir);
	u32 bs = sb->block_size, nblocks = dir->size / bs;

	for (u32 lb = start / bs; lb < nblocks; lb++) {
		struct ext2_buf *b = ext2_dir_block(dir, lb);
		struct ext2_dir_entry *de, *prev = NULL;
		int r = 0;
		if (IS_ERR(b))
			return PTR_ERR(b);
		for (u32 off = 0; off < bs && !r; off += de->rec_len) {
			de = (struct ext2_dir_entry *)((char *)b->data + off);
			if (!ext2_dirent_ok(sb, de, off))
				r = ext2_corrupt(sb, "directory entry in inode", dir->ino);
			else if (lb * bs + off >= start)
				r = fn(dir, b, de, prev, lb * bs + off, arg);
			prev = de;
		}
		ext2_brelse(b);
		if (r)
			return r;
	}
	return 0;
}

struct ext2_name {
	const char *name;
	size_t len;
	u32 ino, mode;			/* for add and set */
};

static bool ext2_name_is(const struct ext2_dir_entry *de, const struct ext2_name *n)
{
	return de->inode && de->name_len == n->len && !memcmp(de->name, n->name, n->len);
}

static int ext2_find_fn(struct inode *dir, struct ext2_buf *b, struct ext2_dir_entry *de,
			struct ext2_dir_entry *prev, u32 pos, void *arg)
{
	struct ext2_name *n = arg;

	if (!ext2_name_is(de, n))
		return 0;
	n->ino = de->inode;
	return 1;
}

long ext2_dir_find(struct inode *dir, const char *name, size_t len)
{
	struct ext2_name n = { name, len, 0, 0 };
	int r = ext2_dir_walk(dir, 0, ext2_find_fn, &n);

	if (r < 0)
		return r;
	if (r && (n.ino < 1 || n.ino > EXT2_SB(dir)->inodes_count))
		return ext2_corrupt(EXT2_SB(dir), "inode number in directory", dir->ino);
	return r ? (long)n.ino : 0;
}

static u8 ext2_type_of(const struct ext2_sb *sb, u32 mode)
{
	if (!(sb->es->s_feature_incompat & EXT2_FEATURE_INCOMPAT_FILETYPE))
		return EXT2_FT_UNKNOWN;
	switch (mode & S_IFMT) {
	case S_IFREG: return EXT2_FT_REG_FILE;
	case S_IFDIR: return EXT2_FT_DIR;
	case S_IFLNK: return EXT2_FT_SYMLINK;
	case S_IFCHR: return EXT2_FT_CHRDEV;
	case S_IFBLK: return EXT2_FT_BLKDEV;
	case S_IFIFO: return EXT2_FT_FIFO;
	case S_IFSOCK: return EXT2_FT_SOCK;
	}
	return EXT2_FT_UNKNOWN;
}

static void ext2_dirent_fill(const struct ext2_sb *sb, struct ext2_dir_entry *de,
			     const struct ext2_name *n)
{
	de->inode = n->ino;
	de->name_len = n->len;
	de->file_type = ext2_type_of(sb, n->mode);
	memcpy(de->name, n->name, n->len);
}

/* A directory we change is linear from now on (its hash index would be stale). */
static void ext2_dir_changed(struct inode *dir)
{
	EXT2_I(dir)->di.i_flags &= ~EXT2_INDEX_FL;
	ext2_touch(dir, true);
}

static int ext2_add_fn(struct inode *dir, struct ext2_buf *b, struct ext2_dir_entry *de,
		       struct ext2_dir_entry *prev, u32 pos, void *arg)
{
	struct ext2_name *n = arg;
	u32 need = EXT2_DIR_REC_LEN(n->len), used = de->inode ? EXT2_DIR_REC_LEN(de->name_len) : 0;

	if (de->rec_len < used + need)
		return 0;
	if (used) {			/* split: the new record takes the slack */
		struct ext2_dir_entry *nd = (void *)((char *)de + used);
		nd->rec_len = de->rec_len - used;
		de->rec_len = used;
		de = nd;
	}
	ext2_dirent_fill(EXT2_SB(dir), de, n);
	ext2_bdirty(b, dir->ino);
	return 1;
}

/* Add a block at dir's end holding one record for n. */
static int ext2_dir_grow(struct inode *dir, struct ext2_name *n)
{
	struct ext2_sb *sb = EXT2_SB(dir);
	struct ext2_dir_entry *de;
	struct ext2_buf *b;
	long nr;

	if ((u64)dir->size + sb->block_size > 0x7fffffffu)
		return -ENOSPC;
	nr = ext2_bmap(dir, dir->size / sb->block_size, true, NULL);
	if (nr < 0)
		return nr;
	b = ext2_bread(sb, nr);		/* zeroed by the allocation */
	if (IS_ERR(b))
		return PTR_ERR(b);
	de = b->data;
	de->rec_len = sb->block_size;
	ext2_dirent_fill(sb, de, n);
	ext2_bdirty(b, dir->ino);
	ext2_brelse(b);
	dir->size += sb->block_size;
	return 0;
}

/* Every metadata change made while ino is being named in a directory is
 * ino's too: its fsync writes the entry, and the directory's inode, blocks,
 * bitmap and counts the entry needed (the name survives a crash). */
static void ext2_dir_owner(struct inode *dir, u32 ino)
{
	EXT2_SB(dir)->meta_also = ino;
}

int ext2_dir_add(struct inode *dir, const char *name, size_t len, u32 ino, u32 mode)
{
	struct ext2_name n = { name, len, ino, mode };
	int r;

	if (len > EXT2_NAME_LEN)
		return -ENAMETOOLONG;
	ext2_dir_owner(dir, ino);
	r = ext2_dir_walk(dir, 0, ext2_add_fn, &n);
	if (!r)
		r = ext2_dir_grow(dir, &n);
	if (r >= 0) {
		ext2_dir_changed(dir);
		r = ext2_write_inode(dir);
	}
	ext2_dir_owner(dir, 0);
	return r;
}

static int ext2_remove_fn(struct inode *dir, struct ext2_buf *b, struct ext2_dir_entry *de,
			  struct ext2_dir_entry *prev, u32 pos, void *arg)
{
	if (!ext2_name_is(de, arg))
		return 0;
	ext2_bdirty(b, dir->ino);
	ext2_bown(b, de->inode);	/* (a rename's fsync of it: the old name goes) */
	if (prev)
		prev->rec_len += de->rec_len;
	else
		de->inode = 0;
	return 1;
}

int ext2_dir_remove(struct inode *dir, const char *name, size_t len)
{
	struct ext2_name n = { name, len, 0, 0 };
	int r = ext2_dir_walk(dir, 0, ext2_remove_fn, &n);

	if (r <= 0)
		return r ? r : -ENOENT;
	ext2_dir_changed(dir);
	return ext2_write_inode(dir);
}

static int ext2_set_fn(struct inode *dir, struct ext2_buf *b, struct ext2_dir_entry *de,
		       struct ext2_dir_entry *prev, u32 pos, void *arg)
{
	struct ext2_name *n = arg;

	if (!de->inode || de->name_len != n->len || memcmp(de->name, n->name, n->len))
		return 0;
	de->inode = n->ino;
	de->file_type = ext2_type_of(EXT2_SB(dir), n->mode);
	ext2_bdirty(b, dir->ino);
	return 1;
}

int ext2_dir_set(struct inode *dir, const char *name, size_t len, u32 ino, u32 mode)
{
	struct ext2_name n = { name, len, ino, mode };
	int r;

	ext2_dir_owner(dir, ino);
	r = ext2_dir_walk(dir, 0, ext2_set_fn, &n);
	if (r > 0) {
		ext2_touch(dir, true);
		r = ext2_write_inode(dir);
	} else if (!r) {
		r = ext2_corrupt(EXT2_SB(dir), "missing entry in directory", dir->ino);
	}
	ext2_dir_owner(dir, 0);
	return r;
}

static int ext2_empty_fn(struct inode *dir, struct ext2_buf *b, struct ext2_dir_entry *de,
			 struct ext2_dir_entry *prev, u32 pos, void *arg)
{
	bool dots = (de->name_len == 1 && de->name[0] == '.') ||
		    (de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.');

	return de->inode && !dots;
}

int ext2_dir_empty(struct inode *dir)
{
	int r = ext2_dir_walk(dir, 0, ext2_empty_fn, NULL);

	return r < 0 ? r : !r;
}

int ext2_dir_init(struct inode *dir, u32 parent_ino)
{
	struct ext2_sb *sb = EXT2_SB(dir);
	struct ext2_dir_entry *de;
	struct ext2_buf *b;
	long nr = ext2_bmap(dir, 0, true, NULL);

	if (nr < 0)
		return nr;
	b = ext2_bread(sb, nr);
	if (IS_ERR(b))
		return PTR_ERR(b);
	de = b->data;
	ext2_dirent_fill(sb, de, &(struct ext2_name){ ".", 1, dir->ino, S_IFDIR });
	de->rec_len = EXT2_DIR_REC_LEN(1);
	de = (void *)((char *)b->data + EXT2_DIR_REC_LEN(1));
	ext2_dirent_fill(sb, de, &(struct ext2_name){ "..", 2, parent_ino, S_IFDIR });
	de->rec_len = sb->block_size - EXT2_DIR_REC_LEN(1);
	ext2_bdirty(b, dir->ino);
	ext2_brelse(b);
	dir->size = sb->block_size;
	return ext2_write_inode(dir);
}

static const u8 ext2_dt[] = {
	[EXT2_FT_UNKNOWN] = DT_UNKNOWN, [EXT2_FT_REG_FILE] = DT_REG, [EXT2_FT_DIR] = DT_DIR,
	[EXT2_FT_CHRDEV] = DT_CHR, [EXT2_FT_BLKDEV] = DT_BLK, [EXT2_FT_FIFO] = DT_FIFO,
	[EXT2_FT_SOCK] = DT_SOCK, [EXT2_FT_SYMLINK] = DT_LNK,
};

struct ext2_readdir_arg {
	struct file *f;
	struct dir_context *ctx;
};

static int ext2_readdir_fn(struct inode *dir, struct ext2_buf *b, struct ext2_dir_entry *de,
			   struct ext2_dir_entry *prev, u32 pos, void *arg)
{
	struct ext2_readdir_arg *a = arg;
	u32 type = de->file_type < sizeof(ext2_dt) ? ext2_dt[de->file_type] : DT_UNKNOWN;

	a->ctx->next = pos + de->rec_len;	/* d_off: the byte of the next record */
	if (de->inode && !a->ctx->emit(a->ctx, de->name, de->name_len, de->inode, type))
		return 1;		/* full: f_pos stays at this record */
	a->f->f_pos = pos + de->rec_len;
	return 0;
}

int ext2_readdir(struct file *f, struct dir_context *ctx)
{
	struct inode *dir = f->f_inode;
	struct ext2_sb *sb = EXT2_SB(dir);
	struct ext2_readdir_arg a = { f, ctx };
	int r;

	mutex_lock(&sb->lock);
	if (f->f_pos < 0 || f->f_pos >= dir->size)
		r = 0;
	else
		r = ext2_dir_walk(dir, (u32)f->f_pos, ext2_readdir_fn, &a);
	if (r >= 0)
		ext2_accessed(dir);
	mutex_unlock(&sb->lock);
	return r < 0 ? r : 0;
}
