/* uapi/mount.h: mount(2)'s flags and umount2(2)'s, Linux i386's numbers (what aiokern takes of them). */
#ifndef UAPI_MOUNT_H
#define UAPI_MOUNT_H

#define MS_RDONLY	0x0001		/* read-only */
#define MS_REMOUNT	0x0020		/* (refused: -EINVAL) */
#define MS_NOATIME	0x0400		/* reads never move atime */
#define MS_NODIRATIME	0x0800		/* listings never move a directory's atime */
#define MS_BIND		0x1000		/* (refused) */
#define MS_MOVE		0x2000		/* (refused) */
#define MS_RELATIME	0x00200000	/* atime by relatime (the default) */
#define MS_STRICTATIME	0x01000000	/* every read moves atime (wins over the two above) */
#define MS_MGC_MSK	0xffff0000u	/* old magic in the high half: ignored */
#define MS_MGC_VAL	0xc0ed0000u
#define UMOUNT_NOFOLLOW	0x8

#endif
