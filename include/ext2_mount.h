/* ext2_mount.h: the ext2 driver's entry points for mount(2), umount2(2) and sync(2) (kernel/fs/ext2/super.c). */
#ifndef EXT2_MOUNT_H
#define EXT2_MOUNT_H

#include "atomic.h"
#include "types.h"

struct file;
struct inode;
struct kstatfs;

/* Mount the ext2 file system found at byte offset of the block-device file
 * dev (bytes of it usable from there): its root with the mount's reference,
 * or ERR_PTR: -EINVAL (no ext2 this kernel can mount: magic, revision,
 * geometry, an unknown INCOMPAT feature), -EUCLEAN (a bad root), -EIO,
 * -ENOMEM. An unknown RO_COMPAT feature mounts read-only, as MS_RDONLY does.
 * flags: mount(2)'s MS_RDONLY and atime flags (uapi/mount.h; Linux's rule:
 * relatime unless MS_NOATIME, MS_STRICTATIME overrides both).
 * Takes over the caller's reference to dev in every case. Process context. */
struct inode *ext2_mount(struct file *dev, u64 offset, u64 bytes, u32 flags);
/* Write back, mark clean (when it was at mount) and free everything of the
 * file system whose root is root (detached from the name space, no inode of
 * it in use: vfs_umount_at checked). 0 or the write-back's -EIO. */
int ext2_umount(struct inode *root);
/* Write back every dirty page and block and flush the device's cache. */
int ext2_sync_root(struct inode *root);
/* statfs(2) of the ext2 file system inode is on: its blocks less the
 * metadata's (superblocks, descriptors and their reserve for growth,
 * bitmaps, inode tables: what today's Linux reports of an ext2 image), the
 * free and reserved counts, its inodes, fsid from
 * the UUID, the mount's flags. Process context (takes sb->lock). */
void ext2_statfs(struct inode *inode, struct kstatfs *st);
/* Boot, before the first mount: start ext2's AIO worker threads ("ext2aio0", "ext2aio1", ...: one per CPU, at least 2). */
void ext2_init(void);
/* Pages of ext2 file data cached, all file systems (aiok_stat's ext2_pages). */
extern atomic_t ext2_cached_pages;

#endif
