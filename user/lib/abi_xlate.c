/* abi_xlate.c: translate newlib's errno, open and *at() flags, signals, clocks and wait status to and from the kernel's. */
#define _GNU_SOURCE		/* AT_EMPTY_PATH */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include "aiokern.h"	/* O_DSYNC */
#include "abi_names.h"
#include "glue.h"

static const int newlib_errno[ABI_NR_ERRNO] = { ABI_ERRNO_LIST(ABI_VALUE) };
static const int newlib_oflag[ABI_NR_OFLAG] = { ABI_OFLAG_LIST(ABI_VALUE) };
static const int newlib_signal[ABI_NR_SIGNAL] = { ABI_SIGNAL_LIST(ABI_VALUE) };
static const int newlib_clock[ABI_NR_CLOCK] = { ABI_CLOCK_LIST(ABI_VALUE) };
static const int newlib_at[ABI_NR_AT] = { ABI_AT_LIST(ABI_VALUE) };

/* Map v through from[] -> to[]; -1 when v is not in from[]. */
static int abi_map(const int *from, const int *to, int n, int v)
{
	for (int i = 0; i < n; i++)
		if (from[i] == v)
			return to[i];
	return -1;
}

int abi_errno_from_kernel(int kerr)
{
	int e = abi_map(abi_kernel_errno, newlib_errno, ABI_NR_ERRNO, kerr);

	return e < 0 ? kerr : e;	/* unknown: pass the number through */
}

int abi_errno_to_kernel(int err)
{
	int e = abi_map(newlib_errno, abi_kernel_errno, ABI_NR_ERRNO, err);

	return e < 0 ? err : e;
}

/* Translate each bit of flags found in from[] to its to[] value; the bits left
 * over go to *rest. */
static int abi_bits(const int *from, const int *to, int n, int flags, int *rest)
{
	int out = 0;

	for (int i = 0; i < n; i++) {
		if (flags & from[i]) {
			out |= to[i];
			flags &= ~from[i];
		}
	}
	*rest = flags;
	return out;
}

int abi_oflags_to_kernel(int flags)
{
	int rest, kflags = abi_bits(newlib_oflag, abi_kernel_oflag, ABI_NR_OFLAG,
				    flags & ~(O_ACCMODE | O_NOCTTY), &rest);	/* no ttys to control */

	return rest ? -1 : kflags | (flags & O_ACCMODE);	/* 0, 1, 2 on both sides */
}

int abi_oflags_from_kernel(int kflags)
{
	int rest;

	return abi_bits(abi_kernel_oflag, newlib_oflag, ABI_NR_OFLAG, kflags & ~O_ACCMODE, &rest) |
	       (kflags & O_ACCMODE);		/* kernel-only bits (O_LARGEFILE) are dropped */
}

int abi_at_flags_to_kernel(int flags)
{
	int rest, kflags = abi_bits(newlib_at, abi_kernel_at, ABI_NR_AT, flags, &rest);

	return rest ? -1 : kflags;
}

int abi_dirfd_to_kernel(int dirfd)
{
	return dirfd == AT_FDCWD ? abi_kernel_at_fdcwd : dirfd;
}

int abi_signal_to_kernel(int sig)
{
	return sig == 0 ? 0 : abi_map(newlib_signal, abi_kernel_signal, ABI_NR_SIGNAL, sig);
}

int abi_signal_from_kernel(int ksig)
{
	int sig = abi_map(abi_kernel_signal, newlib_signal, ABI_NR_SIGNAL, ksig);

	return sig < 0 ? ksig : sig;
}

int abi_clock_to_kernel(int clock)
{
	return abi_map(newlib_clock, abi_kernel_clock, ABI_NR_CLOCK, clock);
}

/* Exit codes are encoded alike; only a terminating signal's number changes. */
int abi_wait_status_from_kernel(int kstatus)
{
	int sig = kstatus & 0x7f;

	if (sig == 0 || sig == 0x7f)
		return kstatus;
	return (kstatus & ~0x7f) | (abi_signal_from_kernel(sig) & 0x7f);
}
