/* sys/uio.h: struct iovec and vectored I/O (readv, writev, preadv, pwritev) for newlib programs; layout from include/uapi/uio.h. */
#ifndef USER_SYS_UIO_H
#define USER_SYS_UIO_H

#include <sys/types.h>
#include "uapi/uio.h"

#ifndef IOV_MAX
#define IOV_MAX		UIO_MAXIOV
#endif

ssize_t readv(int fd, const struct iovec *iov, int iovcnt);
ssize_t writev(int fd, const struct iovec *iov, int iovcnt);
ssize_t preadv(int fd, const struct iovec *iov, int iovcnt, off_t offset);
ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset);

#endif
