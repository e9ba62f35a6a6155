/* uio.h (uapi): struct iovec for readv/writev/preadv/pwritev (145/146/333/334), Linux i386 layout. */
#ifndef UAPI_UIO_H
#define UAPI_UIO_H

struct iovec {
	void		*iov_base;
	__SIZE_TYPE__	iov_len;	/* size_t, without a libc header */
};

#define UIO_MAXIOV	1024	/* most segments in one call; more is -EINVAL */

/* Per-request flags of preadv2/pwritev2 and of an AIO request (iocb
 * aio_rw_flags), Linux's values; the kernel does not take them yet. */
#define RWF_HIPRI	0x00000001
#define RWF_DSYNC	0x00000002
#define RWF_SYNC	0x00000004
#define RWF_NOWAIT	0x00000008
#define RWF_APPEND	0x00000010

#endif
