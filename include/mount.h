/* mount.h: mounting file systems on disks (kernel/fs/mount.c): the kernel's own mount calls and the mount= boot parameter. */
#ifndef MOUNT_H
#define MOUNT_H

#include "types.h"

/* Mount the ext2 on the block device at path dev on the ramfs directory dir
 * (type must be "ext2": -ENODEV; flags: MS_RDONLY, MS_NOATIME, MS_NODIRATIME,
 * MS_RELATIME, MS_STRICTATIME (uapi/mount.h), others ignored but MS_REMOUNT,
 * MS_BIND, MS_MOVE (-EINVAL); data: "offset=N,sizelimit=N"
 * or "", modified). 0, or -ENOTBLK, -EBUSY, -EINVAL, -EUCLEAN, -EIO, ...
 * Process context. */
int do_mount(const char *dev, const char *dir, const char *type, u32 flags, char *data);
/* Write back and detach the file system mounted at dir: -EINVAL when none,
 * -EBUSY while any of its files, directories (a working directory) is in use. */
int do_umount(const char *dir);
/* sync(2)'s first half: write back every mounted file system (errors are
 * not reported, as sync(2) says). Process context. */
void mount_sync_all(void);
/* mount=/dev/DEV:/DIR[:OPTIONS] on the command line (OPTIONS: ro, rw,
 * noatime, nodiratime, relatime, strictatime, comma-separated): make DIR if
 * needed and mount DEV's ext2 there (boot, after the initramfs; a failure
 * is printed). */
void mount_boot(void);

#endif
