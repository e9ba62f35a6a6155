/* abi_kernel.c: the kernel's values of the names in abi_names.h; includes no newlib header. */
#include "uapi/errno.h"
#include "uapi/fcntl.h"
#include "uapi/signal.h"
#include "uapi/time.h"
#include "abi_names.h"

const int abi_kernel_errno[ABI_NR_ERRNO] = { ABI_ERRNO_LIST(ABI_VALUE) };
const int abi_kernel_oflag[ABI_NR_OFLAG] = { ABI_OFLAG_LIST(ABI_VALUE) };
const int abi_kernel_signal[ABI_NR_SIGNAL] = { ABI_SIGNAL_LIST(ABI_VALUE) };
const int abi_kernel_clock[ABI_NR_CLOCK] = { ABI_CLOCK_LIST(ABI_VALUE) };
const int abi_kernel_at[ABI_NR_AT] = { ABI_AT_LIST(ABI_VALUE) };
const int abi_kernel_at_fdcwd = AT_FDCWD;
