/* sys/select.h: fd_set sized for 1,024 descriptors (the kernel's NR_OPEN, Linux's FD_SETSIZE), then newlib's. */
#ifndef AIOKERN_SYS_SELECT_H
#define AIOKERN_SYS_SELECT_H
#ifndef FD_SETSIZE
#define FD_SETSIZE	1024	/* newlib's default is 64: descriptors reach 1023 here */
#endif
#include_next <sys/select.h>
#endif
