/* sys/mman.h: mmap, munmap, mremap, mprotect, madvise, msync for newlib programs (newlib has none); values from include/uapi/mman.h and Linux's. */
#ifndef USER_SYS_MMAN_H
#define USER_SYS_MMAN_H

#include <sys/types.h>
#include "uapi/mman.h"

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset);
int munmap(void *addr, size_t len);

#define MS_ASYNC	1
#define MS_INVALIDATE	2
#define MS_SYNC		4
#define MADV_NORMAL	0
#define MADV_RANDOM	1
#define MADV_SEQUENTIAL	2
#define MADV_WILLNEED	3
#define MADV_DONTNEED	4
#define POSIX_MADV_NORMAL	MADV_NORMAL
#define POSIX_MADV_RANDOM	MADV_RANDOM
#define POSIX_MADV_SEQUENTIAL	MADV_SEQUENTIAL
#define POSIX_MADV_WILLNEED	MADV_WILLNEED
#define POSIX_MADV_DONTNEED	MADV_DONTNEED

/* The new address, or MAP_FAILED and errno; with MREMAP_FIXED a fifth
 * argument, the new address. */
void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...);
int mprotect(void *addr, size_t len, int prot);
int madvise(void *addr, size_t len, int advice);
/* As madvise, but returns the error number (POSIX). */
int posix_madvise(void *addr, size_t len, int advice);
int msync(void *addr, size_t len, int flags);

/* POSIX shared memory: "/name" is the file /dev/shm/name (a ramfs directory),
 * opened with O_CLOEXEC | O_NOFOLLOW added; size it with ftruncate, map it
 * MAP_SHARED. -1 and errno (EINVAL for a name with an inner '/'). */
int shm_open(const char *name, int oflag, mode_t mode);
int shm_unlink(const char *name);

#endif
