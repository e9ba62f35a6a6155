/* fcntl.h: newlib's <fcntl.h> and the calls glibc adds there: posix_fadvise, posix_fallocate, fallocate (_GNU_SOURCE), with Linux's values; struct iovec as glibc's gives it. */
#ifndef USER_FCNTL_H
#define USER_FCNTL_H

#include_next <fcntl.h>
#include <sys/uio.h>	/* struct iovec, which glibc's <fcntl.h> gives (vmsplice's) */

#define POSIX_FADV_NORMAL	0
#define POSIX_FADV_RANDOM	1
#define POSIX_FADV_SEQUENTIAL	2
#define POSIX_FADV_WILLNEED	3
#define POSIX_FADV_DONTNEED	4
#define POSIX_FADV_NOREUSE	5

#ifdef __cplusplus
extern "C" {
#endif

/* The error number (EBADF, ESPIPE, EINVAL, ...) or 0; errno is left alone. */
int posix_fadvise(int fd, off_t offset, off_t len, int advice);
int posix_fallocate(int fd, off_t offset, off_t len);
#if __GNU_VISIBLE
#define FALLOC_FL_KEEP_SIZE	0x01
#define FALLOC_FL_PUNCH_HOLE	0x02
#define FALLOC_FL_COLLAPSE_RANGE 0x08
#define FALLOC_FL_ZERO_RANGE	0x10
#define FALLOC_FL_INSERT_RANGE	0x20
int fallocate(int fd, int mode, off_t offset, off_t len);
#endif

#ifdef __cplusplus
}
#endif

#endif
