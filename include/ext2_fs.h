/* ext2_fs.h: the ext2 on-disk format (revision 0 and 1) as facts: superblock,
 * group descriptor, inode and directory entry layouts, feature bits. All
 * multi-byte fields are little-endian, as the i386 reads them. */
#ifndef EXT2_FS_H
#define EXT2_FS_H

#include "types.h"

#define EXT2_SUPER_OFFSET	1024	/* byte offset of the primary superblock */
#define EXT2_SUPER_MAGIC	0xEF53
#define EXT2_MIN_BLOCK_LOG	10	/* 1 KiB blocks: block size = 1024 << s_log_block_size */
#define EXT2_MAX_BLOCK_LOG	12	/* 4 KiB: the largest this kernel mounts (a page) */
#define EXT2_GOOD_OLD_REV	0	/* 128-byte inodes, first inode 11, no features */
#define EXT2_DYNAMIC_REV	1
#define EXT2_GOOD_OLD_INODE_SIZE 128
#define EXT2_GOOD_OLD_FIRST_INO	11

/* Reserved inode numbers */
#define EXT2_BAD_INO		1
#define EXT2_ROOT_INO		2
#define EXT2_RESIZE_INO		7

/* s_state */
#define EXT2_VALID_FS		0x0001	/* unmounted cleanly */
#define EXT2_ERROR_FS		0x0002	/* errors detected */

/* Feature bits. COMPAT: safe to ignore; RO_COMPAT: may be read, not written;
 * INCOMPAT: must be understood to read at all. */
#define EXT2_FEATURE_COMPAT_DIR_PREALLOC	0x0001
#define EXT2_FEATURE_COMPAT_IMAGIC_INODES	0x0002
#define EXT3_FEATURE_COMPAT_HAS_JOURNAL		0x0004
#define EXT2_FEATURE_COMPAT_EXT_ATTR		0x0008
#define EXT2_FEATURE_COMPAT_RESIZE_INODE	0x0010
#define EXT2_FEATURE_COMPAT_DIR_INDEX		0x0020
#define EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER	0x0001	/* backups in groups 0, 1, powers of 3, 5, 7 */
#define EXT2_FEATURE_RO_COMPAT_LARGE_FILE	0x0002	/* i_size_high used */
#define EXT2_FEATURE_INCOMPAT_FILETYPE		0x0002	/* file_type in directory entries */
/* What this kernel understands (Debian 12's `mke2fs -t ext2` sets exactly these). */
#define EXT2_SUPP_INCOMPAT	EXT2_FEATURE_INCOMPAT_FILETYPE
#define EXT2_SUPP_RO_COMPAT	(EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | \
				 EXT2_FEATURE_RO_COMPAT_LARGE_FILE)

struct ext2_super_block {
	u32 s_inodes_count;
	u32 s_blocks_count;
	u32 s_r_blocks_count;		/* reserved for root */
	u32 s_free_blocks_count;
	u32 s_free_inodes_count;
	u32 s_first_data_block;		/* 1 with 1 KiB blocks, else 0 */
	u32 s_log_block_size;		/* block size = 1024 << this */
	u32 s_log_frag_size;
	u32 s_blocks_per_group;
	u32 s_frags_per_group;
	u32 s_inodes_per_group;
	u32 s_mtime;			/* last mount */
	u32 s_wtime;			/* last write */
	u16 s_mnt_count;
	s16 s_max_mnt_count;
	u16 s_magic;			/* EXT2_SUPER_MAGIC */
	u16 s_state;			/* EXT2_VALID_FS, EXT2_ERROR_FS */
	u16 s_errors;
	u16 s_minor_rev_level;
	u32 s_lastcheck;
	u32 s_checkinterval;
	u32 s_creator_os;
	u32 s_rev_level;		/* EXT2_GOOD_OLD_REV or EXT2_DYNAMIC_REV */
	u16 s_def_resuid;
	u16 s_def_resgid;
	/* EXT2_DYNAMIC_REV only: */
	u32 s_first_ino;		/* first inode for ordinary files */
	u16 s_inode_size;
	u16 s_block_group_nr;		/* the group holding this copy */
	u32 s_feature_compat;
	u32 s_feature_incompat;
	u32 s_feature_ro_compat;
	u8 s_uuid[16];
	char s_volume_name[16];
	char s_last_mounted[64];
	u32 s_algorithm_usage_bitmap;
	u8 s_prealloc_blocks;
	u8 s_prealloc_dir_blocks;
	u16 s_reserved_gdt_blocks;	/* for growth (resize_inode) */
	u8 s_rest[1024 - 208];		/* journal, hash seed, ...: kept as read */
} __attribute__((packed));

struct ext2_group_desc {
	u32 bg_block_bitmap;		/* block numbers */
	u32 bg_inode_bitmap;
	u32 bg_inode_table;
	u16 bg_free_blocks_count;
	u16 bg_free_inodes_count;
	u16 bg_used_dirs_count;
	u16 bg_pad;
	u32 bg_reserved[3];
} __attribute__((packed));

#define EXT2_NDIR_BLOCKS	12	/* i_block[0..11]: direct */
#define EXT2_IND_BLOCK		12	/* single indirect */
#define EXT2_DIND_BLOCK		13	/* double indirect */
#define EXT2_TIND_BLOCK		14	/* triple indirect */
#define EXT2_N_BLOCKS		15

/* i_flags */
#define EXT2_INDEX_FL		0x00001000	/* hashed (htree) directory */
#define EXT4_EXTENTS_FL		0x00080000	/* extents: not ext2 */

struct ext2_inode {
	u16 i_mode;
	u16 i_uid;
	u32 i_size;			/* low 32 bits */
	u32 i_atime;
	u32 i_ctime;
	u32 i_mtime;
	u32 i_dtime;			/* deletion time */
	u16 i_gid;
	u16 i_links_count;
	u32 i_blocks;			/* 512-byte units, indirect blocks included */
	u32 i_flags;
	u32 i_osd1;
	u32 i_block[EXT2_N_BLOCKS];	/* block map; a fast symlink's target */
	u32 i_generation;
	u32 i_file_acl;			/* extended-attribute block */
	u32 i_size_high;		/* regular files with large_file (i_dir_acl) */
	u32 i_faddr;
	u8 i_osd2[12];
};				/* naturally aligned: no packing needed */

_Static_assert(sizeof(struct ext2_super_block) == 1024, "ext2 superblock layout");
_Static_assert(sizeof(struct ext2_group_desc) == 32, "ext2 group descriptor layout");
_Static_assert(sizeof(struct ext2_inode) == EXT2_GOOD_OLD_INODE_SIZE, "ext2 inode layout");
_Static_assert(__builtin_offsetof(struct ext2_inode, i_block) == 40, "ext2 inode layout");
_Static_assert(__builtin_offsetof(struct ext2_super_block, s_reserved_gdt_blocks) == 206,
	       "ext2 superblock layout");

/* A symlink whose target fits i_block (60 bytes) and that has no data block. */
#define EXT2_FAST_SYMLINK_MAX	(EXT2_N_BLOCKS * 4 - 1)

/* Directory entry: rec_len spans to the next entry (a multiple of 4, never
 * across a block); inode 0 marks an unused record. */
struct ext2_dir_entry {
	u32 inode;
	u16 rec_len;
	u8 name_len;
	u8 file_type;			/* with INCOMPAT_FILETYPE */
	char name[];			/* not NUL-terminated */
} __attribute__((packed));

#define EXT2_DIR_ENTRY_HEAD	8
#define EXT2_NAME_LEN		255
#define EXT2_DIR_REC_LEN(n)	(((n) + EXT2_DIR_ENTRY_HEAD + 3) & ~3u)

/* file_type */
#define EXT2_FT_UNKNOWN		0
#define EXT2_FT_REG_FILE	1
#define EXT2_FT_DIR		2
#define EXT2_FT_CHRDEV		3
#define EXT2_FT_BLKDEV		4
#define EXT2_FT_FIFO		5
#define EXT2_FT_SOCK		6
#define EXT2_FT_SYMLINK		7

#endif
