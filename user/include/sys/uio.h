/* sys/uio.h: struct iovec and vectored I/O (readv, writev, preadv, pwritev) for newlib programs; layout from include/uapi/uio.h. */
#ifndef USER_SYS_UIO_H
#define USER_SYS_UIO_H

#include <sys/types.h>
#include "uapi/uio.h"

#ifndef IOV_MAX
#define IOV_MAX		UIO_MAXIOV
#endif

/* preadv2/pwritev2 and AIO flags (libaio's aio_rw_flags), Linux's values. */
#ifndef RWF_HIPRI
#define RWF_HIPRI	0x00000001
#define RWF_DSYNC	0x00000002
#define RWF_SYNC	0x00000004
#define RWF_NOWAIT	0x00000008
#define RWF_APPEND	0x00000010
#endif

ssize_t readv(int fd, const struct iovec *iov, int iovcnt);
ssize_t writev(int fd, const struct iovec *iov, int iovcnt);
ssize_t preadv(int fd, const struct iovec *iov, int iovcnt, off_t offset);
ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset);

#endif
