/* sys/ioctl.h: ioctl for newlib programs, with the requests aiokern answers (Linux's numbers, include/uapi/ioctl.h). */
#ifndef USER_SYS_IOCTL_H
#define USER_SYS_IOCTL_H

#include "uapi/ioctl.h"

struct winsize {
	unsigned short	ws_row;
	unsigned short	ws_col;
	unsigned short	ws_xpixel;
	unsigned short	ws_ypixel;
};

/* 0 or the request's value; -1 with errno (ENOTTY: not this kind of file). */
int ioctl(int fd, unsigned long request, ...);

#endif
