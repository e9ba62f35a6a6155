/* sys/signalfd.h: signalfd(2) as glibc declares it; struct signalfd_siginfo is
 * Linux's 128 bytes, ssi_signo in this library's signal numbers (the read of a
 * descriptor signalfd returned translates it; see README). */
#ifndef _SYS_SIGNALFD_H
#define _SYS_SIGNALFD_H

#include <signal.h>
#include <stdint.h>

#define SFD_CLOEXEC	02000000	/* O_CLOEXEC's kernel value */
#define SFD_NONBLOCK	00004000	/* O_NONBLOCK's kernel value */

struct signalfd_siginfo {
	uint32_t	ssi_signo;
	int32_t		ssi_errno;
	int32_t		ssi_code;
	uint32_t	ssi_pid;
	uint32_t	ssi_uid;
	int32_t		ssi_fd;
	uint32_t	ssi_tid;
	uint32_t	ssi_band;
	uint32_t	ssi_overrun;
	uint32_t	ssi_trapno;
	int32_t		ssi_status;
	int32_t		ssi_int;
	uint64_t	ssi_ptr;
	uint64_t	ssi_utime;
	uint64_t	ssi_stime;
	uint64_t	ssi_addr;
	uint16_t	ssi_addr_lsb;
	uint16_t	__pad2;
	int32_t		ssi_syscall;
	uint64_t	ssi_call_addr;
	uint32_t	ssi_arch;
	uint8_t		__pad[28];
};

/* A new signal file (fd -1) reading the signals of mask, or a new mask for
 * the signal file fd: the descriptor, or -1 and errno. */
int signalfd(int fd, const sigset_t *mask, int flags);

#endif
