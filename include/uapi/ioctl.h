/* ioctl.h (uapi): the ioctl requests aiokern answers (54), Linux i386 numbers, and the structs they fill. */
#ifndef UAPI_IOCTL_H
#define UAPI_IOCTL_H

#include "types.h"

/* Block devices (linux/fs.h) */
#define BLKGETSIZE	0x1260		/* unsigned long: size in 512-byte sectors */
#define BLKSSZGET	0x1268		/* int: logical sector size */
#define BLKBSZGET	0x80041270	/* int: block size the kernel uses for it */
#define BLKGETSIZE64	0x80041272	/* u64: size in bytes */
#define BLKPBSZGET	0x127b		/* unsigned int: physical sector size */

/* Terminals and any descriptor (asm-generic/ioctls.h) */
#define TCGETS		0x5401		/* struct kernel_termios: terminals only (isatty) */
#define TCSETS		0x5402
#define TCSETSW		0x5403
#define TCSETSF		0x5404
#define TIOCGWINSZ	0x5413		/* struct kernel_winsize */
#define FIONREAD	0x541b		/* int: bytes ready to read */
#define FIONBIO		0x5421		/* int: non-zero sets O_NONBLOCK */
#define FIONCLEX	0x5450		/* clear FD_CLOEXEC */
#define FIOCLEX		0x5451		/* set FD_CLOEXEC */

/* The kernel's struct termios (TCGETS/TCSETS), 36 bytes. */
struct kernel_termios {
	__u32	c_iflag;
	__u32	c_oflag;
	__u32	c_cflag;
	__u32	c_lflag;
	__u8	c_line;
	__u8	c_cc[19];
};
UAPI_ASSERT_SIZE(struct kernel_termios, 36);

struct kernel_winsize {
	__u16	ws_row;
	__u16	ws_col;
	__u16	ws_xpixel;
	__u16	ws_ypixel;
};

#endif
