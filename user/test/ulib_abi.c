/* ulib_abi.c: the shared ABI as user space compiles it: struct sizes and the translation tables. */
#include <errno.h>
#include <stdio.h>
#include "lib/ktap.h"
#define UAPI_STRUCTS_ONLY
#include "uapi/aio_abi.h"
#include "uapi/stat.h"
#include "uapi/time.h"
#include "uapi/aiok.h"
#include "user/syscalls.h"	/* its aio_context_t typedef must agree with uapi's */

int abi_errno_from_kernel(int kerr);
int abi_oflags_to_kernel(int flags);

int main(void)
{
	struct ktap t;

	ktap_begin(&t, "ulib_abi", 7);
	ktap_case(&t, "iocb_64", sizeof(struct iocb) == 64, NULL);
	ktap_case(&t, "io_event_32", sizeof(struct io_event) == 32, NULL);
	ktap_case(&t, "aio_ring_header_32", sizeof(struct aio_ring) == 32, NULL);
	ktap_case(&t, "kernel_stat_80", sizeof(struct kernel_stat) == 80, NULL);
	ktap_case(&t, "kernel_timespec_8", sizeof(struct kernel_timespec) == 8, NULL);
	ktap_case(&t, "errno_translation",
		  abi_errno_from_kernel(38) == ENOSYS && abi_errno_from_kernel(125) == ECANCELED &&
		  abi_errno_from_kernel(110) == ETIMEDOUT && abi_errno_from_kernel(22) == EINVAL, NULL);
	ktap_case(&t, "oflag_translation",
		  abi_oflags_to_kernel(0x0200 | 0x0400 | 2) == (0100 | 01000 | 2) &&
		  abi_oflags_to_kernel(0x0008 | 1) == (02000 | 1), NULL);
	return ktap_end(&t);
}
