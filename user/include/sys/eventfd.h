/* sys/eventfd.h: eventfd(2) as glibc declares it; the EFD_* values are Linux's (the kernel's own). */
#ifndef _SYS_EVENTFD_H
#define _SYS_EVENTFD_H

#include <stdint.h>

typedef uint64_t eventfd_t;

#define EFD_SEMAPHORE	00000001	/* read takes 1 instead of the whole count */
#define EFD_NONBLOCK	00004000	/* O_NONBLOCK's kernel value */
#define EFD_CLOEXEC	02000000	/* O_CLOEXEC's kernel value */

/* A new eventfd with count initval; -1 and errno on failure. */
int eventfd(unsigned int initval, int flags);
/* Read / add the 8-byte count: 0, or -1 and errno. */
int eventfd_read(int fd, eventfd_t *value);
int eventfd_write(int fd, eventfd_t value);

#endif
