/* signalfd.h (uapi): signalfd4's flags and struct signalfd_siginfo, the
 * 128-byte record a read of a signal file gives, Linux's layout. */
#ifndef UAPI_SIGNALFD_H
#define UAPI_SIGNALFD_H

#include "types.h"

struct signalfd_siginfo {
	unsigned int		ssi_signo;	/* the kernel's numbering (SIGUSR1 10) */
	int			ssi_errno;
	int			ssi_code;	/* SI_USER, SI_QUEUE, SI_TKILL, CLD_*, ... */
	unsigned int		ssi_pid;	/* the sender, or the child (SIGCHLD) */
	unsigned int		ssi_uid;
	int			ssi_fd;
	unsigned int		ssi_tid;
	unsigned int		ssi_band;
	unsigned int		ssi_overrun;
	unsigned int		ssi_trapno;
	int			ssi_status;	/* SIGCHLD: the exit status or signal */
	int			ssi_int;	/* sigqueue's value */
	unsigned long long	ssi_ptr;
	unsigned long long	ssi_utime;	/* SIGCHLD */
	unsigned long long	ssi_stime;
	unsigned long long	ssi_addr;	/* a fault's address */
	unsigned short		ssi_addr_lsb;
	unsigned short		__pad2;
	int			ssi_syscall;
	unsigned long long	ssi_call_addr;
	unsigned int		ssi_arch;
	unsigned char		__pad[28];
};

UAPI_ASSERT_SIZE(struct signalfd_siginfo, 128);

#ifndef UAPI_STRUCTS_ONLY
#define SFD_CLOEXEC	02000000	/* O_CLOEXEC */
#define SFD_NONBLOCK	00004000	/* O_NONBLOCK */
#endif

#endif
