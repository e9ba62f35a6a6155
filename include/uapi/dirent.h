/* dirent.h (uapi): getdents64 (220)'s record, struct linux_dirent64 as Linux lays it out, and the DT_* types of its d_type. */
#ifndef UAPI_DIRENT_H
#define UAPI_DIRENT_H

#include "types.h"

#define DT_UNKNOWN	0
#define DT_FIFO		1
#define DT_CHR		2
#define DT_DIR		4
#define DT_BLK		6
#define DT_REG		8
#define DT_LNK		10
#define DT_SOCK		12

/* One record; d_reclen pads it (with the name's NUL) to a multiple of 8. */
struct linux_dirent64 {
	__u64 d_ino;
	__s64 d_off;			/* the position after this entry: lseek there
					 * and the listing goes on with the next */
	__u16 d_reclen;
	__u8 d_type;			/* DT_* */
	char d_name[];			/* NUL-terminated */
} __attribute__((packed));

#endif
