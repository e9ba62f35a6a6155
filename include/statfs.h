/* statfs.h: what statfs(2) reports of a file system, as the file systems fill it (kernel/fs/statfs.c). */
#ifndef STATFS_H
#define STATFS_H

#include "types.h"

struct kstatfs {
	u32 type;			/* f_type: the file system's magic (uapi/statfs.h) */
	u32 bsize;			/* bytes per block: every count below is in these */
	u64 blocks, bfree, bavail;	/* data blocks; free; free for non-root */
	u64 files, ffree;		/* inodes; free inodes (0, 0: no fixed table) */
	s32 fsid[2];
	u32 namelen;			/* longest name */
	u32 flags;			/* ST_* */
};

#endif
