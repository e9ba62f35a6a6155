/* aio_abi.h (uapi): the AIO system-call ABI, as the seed's linux/aio_abi.h on little-endian i386. */
#ifndef UAPI_AIO_ABI_H
#define UAPI_AIO_ABI_H

#include "types.h"

/* A context id is the user address of the context's mapped completion ring. */
typedef unsigned long aio_context_t;

enum {
	IOCB_CMD_PREAD = 0,
	IOCB_CMD_PWRITE = 1,
	IOCB_CMD_FSYNC = 2,
	IOCB_CMD_FDSYNC = 3,
	IOCB_CMD_POLL = 5,	/* one-shot poll: aio_buf = requested POLL* events */
	IOCB_CMD_NOOP = 6,	/* completes at once with res 0 (extension) */
	IOCB_CMD_PREADV = 7,	/* aio_buf = struct iovec array, aio_nbytes = count */
	IOCB_CMD_PWRITEV = 8,
};

/* iocb.aio_flags */
#define IOCB_FLAG_RESFD		(1 << 0)	/* signal the eventfd aio_resfd on completion */
#define IOCB_FLAG_IOPRIO	(1 << 1)	/* aio_reqprio is meant (accepted, ignored) */

/* One completion, as written to the ring or to io_cancel's result. */
struct io_event {
	__u64	data;		/* iocb.aio_data of the request */
	__u64	obj;		/* user address of the iocb */
	__s64	res;		/* bytes done, or -errno (kernel numbering) */
	__s64	res2;		/* secondary result */
};

/* One request; the 64-bit fields carry 32-bit user pointers and sizes zero-extended. */
struct iocb {
	__u64	aio_data;	/* returned in io_event.data */
	__u32	aio_key;	/* the kernel sets this to the request number */
	__u32	aio_rw_flags;	/* RWF_* (uapi/uio.h); the 2002 ABI's aio_reserved1 */
	__u16	aio_lio_opcode;	/* IOCB_CMD_* */
	__s16	aio_reqprio;
	__u32	aio_fildes;
	__u64	aio_buf;
	__u64	aio_nbytes;
	__s64	aio_offset;
	__u64	aio_reserved2;	/* must be 0 */
	__u32	aio_flags;	/* IOCB_FLAG_*; with aio_resfd the 2002 ABI's aio_reserved3 */
	__u32	aio_resfd;	/* eventfd signalled with IOCB_FLAG_RESFD */
};

/* io_pgetevents_abs' last argument (Linux's struct __aio_sigset on i386). */
struct aio_sigset {
	__u32	sigmask;	/* user address of a sigset_t; 0: no mask */
	__u32	sigsetsize;	/* must be 8 */
};

#include "aio_ring.h"		/* the ring header, shared with libaio */

UAPI_ASSERT_SIZE(struct io_event, 32);
UAPI_ASSERT_SIZE(struct iocb, 64);
_Static_assert(__builtin_offsetof(struct iocb, aio_lio_opcode) == 16, "iocb layout");
_Static_assert(__builtin_offsetof(struct iocb, aio_buf) == 24, "iocb layout");
_Static_assert(__builtin_offsetof(struct iocb, aio_offset) == 40, "iocb layout");
_Static_assert(__builtin_offsetof(struct iocb, aio_rw_flags) == 12, "iocb layout");
_Static_assert(__builtin_offsetof(struct iocb, aio_flags) == 56, "iocb layout");
_Static_assert(__builtin_offsetof(struct iocb, aio_resfd) == 60, "iocb layout");

#endif
