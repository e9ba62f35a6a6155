/* uio.h (uapi): struct iovec for readv/writev/preadv/pwritev (145/146/333/334), Linux i386 layout. */
#ifndef UAPI_UIO_H
#define UAPI_UIO_H

struct iovec {
	void		*iov_base;
	__SIZE_TYPE__	iov_len;	/* size_t, without a libc header */
};

#define UIO_MAXIOV	1024	/* most segments in one call; more is -EINVAL */

#endif
