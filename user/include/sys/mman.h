/* sys/mman.h: mmap/munmap for newlib programs (newlib has none); values from include/uapi/mman.h. */
#ifndef USER_SYS_MMAN_H
#define USER_SYS_MMAN_H

#include <sys/types.h>
#include "uapi/mman.h"

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset);
int munmap(void *addr, size_t len);

#endif
