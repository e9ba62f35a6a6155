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
int abi_oflags_from_kernel(int kflags);
int abi_at_flags_to_kernel(int flags);
int abi_dirfd_to_kernel(int dirfd);

int main(void)
{
	struct ktap t;

	ktap_begin(&t, "ulib_abi", 9);
	ktap_case(&t, "iocb_64", sizeof(struct iocb) == 64, NULL);
	ktap_case(&t, "io_event_32", sizeof(struct io_event) == 32, NULL);
	ktap_case(&t, "aio_ring_header_32", sizeof(struct aio_ring) == 32, NULL);
	ktap_case(&t, "kernel_stat_64_and_stat64_96",	/* Linux i386's struct stat, stat64 */
		  sizeof(struct kernel_stat) == 64 && sizeof(struct kernel_stat64) == 96, NULL);
	ktap_case(&t, "kernel_timespec_8", sizeof(struct kernel_timespec) == 8, NULL);
	ktap_case(&t, "errno_translation",
		  abi_errno_from_kernel(38) == ENOSYS && abi_errno_from_kernel(125) == ECANCELED &&
		  abi_errno_from_kernel(110) == ETIMEDOUT && abi_errno_from_kernel(22) == EINVAL, NULL);
	ktap_case(&t, "oflag_translation",
		  abi_oflags_to_kernel(0x0200 | 0x0400 | 2) == (0100 | 01000 | 2) &&
		  abi_oflags_to_kernel(0x0008 | 1) == (02000 | 1), NULL);
	/* newlib O_NONBLOCK 0x4000, O_CLOEXEC 0x40000, O_DIRECT 0x80000; O_LARGEFILE dropped */
	ktap_case(&t, "oflag_from_kernel",
		  abi_oflags_from_kernel(04000 | 02000000 | 040000 | 0100000 | 2) ==
		  (0x4000 | 0x40000 | 0x80000 | 2) && abi_oflags_to_kernel(0x1000000) == -1, NULL);
	/* newlib AT_FDCWD -2, AT_EACCESS 1, AT_SYMLINK_NOFOLLOW 2, AT_REMOVEDIR 8, AT_EMPTY_PATH 16 */
	ktap_case(&t, "at_translation",
		  abi_dirfd_to_kernel(-2) == -100 && abi_dirfd_to_kernel(5) == 5 &&
		  abi_at_flags_to_kernel(8) == 0x200 && abi_at_flags_to_kernel(2 | 16) == 0x1100 &&
		  abi_at_flags_to_kernel(1) == 0x200 && abi_at_flags_to_kernel(64) == -1, NULL);
	return ktap_end(&t);
}
