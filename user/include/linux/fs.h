/* linux/fs.h: the block-device ioctls (BLKGETSIZE64, BLKSSZGET, ...) and RWF_* flags programs take from Linux's header. */
#ifndef USER_LINUX_FS_H
#define USER_LINUX_FS_H

#include "uapi/ioctl.h"
#include "uapi/uio.h"		/* RWF_* */

#endif
