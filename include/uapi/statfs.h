/* statfs.h (uapi): Linux i386's struct statfs (statfs/fstatfs 99-100) and struct statfs64 (statfs64/fstatfs64 268-269), and the f_type and f_flags values. */
#ifndef UAPI_STATFS_H
#define UAPI_STATFS_H

#include "types.h"

#ifndef UAPI_STRUCTS_ONLY
#define RAMFS_MAGIC		0x858458f6	/* f_type: ramfs (the initramfs, /dev) */
#define PIPEFS_MAGIC		0x50495045	/* f_type: a pipe */

/* f_flags (Linux's ST_*; ST_VALID says f_flags is filled in) */
#define ST_RDONLY	0x0001
#define ST_VALID	0x0020
#define ST_NOATIME	0x0400
#define ST_NODIRATIME	0x0800
#define ST_RELATIME	0x1000
#endif

/* Counts in f_bsize units; the 32-bit struct cannot hold a count above
 * 2^32 - 1: statfs answers -EOVERFLOW then (statfs64 never). */
struct kernel_statfs {
	__u32	f_type;
	__u32	f_bsize;
	__u32	f_blocks;
	__u32	f_bfree;
	__u32	f_bavail;	/* free for unprivileged users (less the reserve) */
	__u32	f_files;
	__u32	f_ffree;
	__s32	f_fsid[2];
	__u32	f_namelen;
	__u32	f_frsize;
	__u32	f_flags;
	__u32	f_spare[4];
};
UAPI_ASSERT_SIZE(struct kernel_statfs, 64);

/* statfs64's size argument must be sizeof(struct kernel_statfs64), 84. */
struct kernel_statfs64 {
	__u32	f_type;
	__u32	f_bsize;
	__u64	f_blocks;
	__u64	f_bfree;
	__u64	f_bavail;
	__u64	f_files;
	__u64	f_ffree;
	__s32	f_fsid[2];
	__u32	f_namelen;
	__u32	f_frsize;
	__u32	f_flags;
	__u32	f_spare[4];
} __attribute__((packed, aligned(4)));
UAPI_ASSERT_SIZE(struct kernel_statfs64, 84);

#endif
