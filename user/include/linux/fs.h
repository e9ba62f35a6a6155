/* linux/fs.h: the block-device ioctls (BLKGETSIZE64, BLKSSZGET, ...) and RWF_* flags programs take from Linux's header. */
#ifndef USER_LINUX_FS_H
#define USER_LINUX_FS_H

#include "uapi/ioctl.h"

#ifndef RWF_HIPRI
#define RWF_HIPRI	0x00000001
#define RWF_DSYNC	0x00000002
#define RWF_SYNC	0x00000004
#define RWF_NOWAIT	0x00000008
#define RWF_APPEND	0x00000010
#endif

#endif
