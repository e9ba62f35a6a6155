/* sys/signal.h: signals for aiokern's newlib programs: newlib's numbers, POSIX sigaction with SA_SIGINFO, siginfo_t, stack_t (replaces newlib's). */
#ifndef _SYS_SIGNAL_H
#define _SYS_SIGNAL_H

/*
 * user/include comes before newlib's headers, so this file stands in for
 * newlib's sys/signal.h (newlib's <signal.h> includes it).  The numbers of
 * signals 1..31 stay newlib's (libc.a is built with them); the glue
 * (user/lib/signal.c, sigset.c) translates them to and from the kernel's Linux
 * numbering, including the number a handler receives and si_signo.  Real-time
 * signals have the kernel's numbers (32..64), as glibc: SIGRTMIN and SIGRTMAX
 * are calls, the first two (32, 33) belong to the threads library.
 * sigset_t is 64 bits, glibc's way: opaque, the kernel's layout (bit k - 1 for
 * kernel signal k), filled only through sigaddset and friends.
 * siginfo_t and ucontext_t have Linux i386's layout; the SA_*, SS_* and si_code
 * values are Linux's.
 */
#include "_ansi.h"
#include <sys/cdefs.h>
#include <sys/features.h>
#include <sys/types.h>
#include <sys/_sigset.h>
#include <sys/_timespec.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef _SIGSET_T_DECLARED
#define _SIGSET_T_DECLARED
typedef __sigset_t sigset_t;	/* the kernel's 64-bit set: sys/_sigset.h */
#endif

/* newlib's numbering (the kernel's differs: SIGUSR1 is 30 here, 10 there) */
#define SIGHUP		1
#define SIGINT		2
#define SIGQUIT		3
#define SIGILL		4
#define SIGTRAP		5
#define SIGIOT		6
#define SIGABRT		6
#define SIGEMT		7	/* no kernel equivalent: cannot be sent or caught */
#define SIGFPE		8
#define SIGKILL		9
#define SIGBUS		10
#define SIGSEGV		11
#define SIGSYS		12
#define SIGPIPE		13
#define SIGALRM		14
#define SIGTERM		15
#define SIGURG		16
#define SIGSTOP		17
#define SIGTSTP		18
#define SIGCONT		19
#define SIGCHLD		20
#define SIGCLD		20
#define SIGTTIN		21
#define SIGTTOU		22
#define SIGIO		23
#define SIGPOLL		SIGIO
#define SIGXCPU		24
#define SIGXFSZ		25
#define SIGVTALRM	26
#define SIGPROF		27
#define SIGWINCH	28
#define SIGLOST		29	/* no kernel equivalent */
#define SIGUSR1		30
#define SIGUSR2		31
#define NSIG		65	/* signal 0 implied; 32..64 are real-time (glibc's) */
#define _NSIG		NSIG

/* Real-time signals, queued (one per send, each with its siginfo) and taken
 * lowest number first.  Programs use SIGRTMIN..SIGRTMAX (34..64, glibc's);
 * 32 and 33 are the threads library's own (sigaddset says EINVAL for them). */
#define __SIGRTMIN	32
#define __SIGRTMAX	64
int __libc_current_sigrtmin(void);
int __libc_current_sigrtmax(void);
#define SIGRTMIN	(__libc_current_sigrtmin())
#define SIGRTMAX	(__libc_current_sigrtmax())

typedef void (*_sig_func_ptr)(int);

union sigval {
	int	sival_int;
	void	*sival_ptr;
};
typedef union sigval sigval_t;

/* sigev_notify (newlib's values, and Linux's SIGEV_THREAD_ID; the POSIX aio
 * library takes a zero sigev_notify for SIGEV_NONE; the timer glue
 * translates to the kernel's) */
#define SIGEV_NONE	1
#define SIGEV_SIGNAL	2
#define SIGEV_THREAD	3
#define SIGEV_THREAD_ID	4	/* timer_create: sigev_signo to thread sigev_notify_thread_id */

/* Linux's layout and size (64 bytes), glibc's field names. */
struct sigevent {
	union sigval	sigev_value;
	int		sigev_signo;
	int		sigev_notify;
	union {
		int	__pad[13];
		pid_t	__tid;
		struct {
			void		(*__fn)(union sigval);
			pthread_attr_t	*__attr;
		} __sigev_thread;
	} __sigev_un;
};
#define sigev_notify_function	__sigev_un.__sigev_thread.__fn
#define sigev_notify_attributes	__sigev_un.__sigev_thread.__attr
#define sigev_notify_thread_id	__sigev_un.__tid

/* siginfo_t: Linux i386's 128 bytes; si_signo is newlib's number. */
typedef struct {
	int	si_signo;
	int	si_errno;
	int	si_code;
	union {
		int	__pad[29];
		struct {			/* kill, sigqueue, timers' value */
			pid_t		__pid;
			uid_t		__uid;	/* the kernel's 32-bit uid, low half */
			unsigned short	__uid_hi;
			union sigval	__value;
		} __kill;
		struct {
			int		__timerid;
			int		__overrun;
			union sigval	__value;
		} __timer;
		struct {			/* SIGCHLD */
			pid_t		__pid;
			uid_t		__uid;
			unsigned short	__uid_hi;
			int		__status;	/* exit code, or newlib's signal number */
			long		__utime;
			long		__stime;
		} __chld;
		struct {			/* SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP */
			void		*__addr;
			short		__addr_lsb;
		} __fault;
		struct {			/* SIGIO */
			long		__band;
			int		__fd;
		} __poll;
	} __si;
} siginfo_t;

#define si_pid		__si.__kill.__pid
#define si_uid		__si.__kill.__uid
#define si_value	__si.__kill.__value
#define si_int		__si.__kill.__value.sival_int
#define si_ptr		__si.__kill.__value.sival_ptr
#define si_timerid	__si.__timer.__timerid
#define si_overrun	__si.__timer.__overrun
#define si_status	__si.__chld.__status
#define si_utime	__si.__chld.__utime
#define si_stime	__si.__chld.__stime
#define si_addr		__si.__fault.__addr
#define si_addr_lsb	__si.__fault.__addr_lsb
#define si_band		__si.__poll.__band
#define si_fd		__si.__poll.__fd

/* si_code, Linux's values */
#define SI_USER		0
#define SI_KERNEL	0x80
#define SI_QUEUE	(-1)
#define SI_TIMER	(-2)
#define SI_MESGQ	(-3)
#define SI_ASYNCIO	(-4)
#define SI_SIGIO	(-5)
#define SI_TKILL	(-6)
#define ILL_ILLOPC	1
#define ILL_ILLOPN	2
#define ILL_ILLADR	3
#define ILL_ILLTRP	4
#define ILL_PRVOPC	5
#define ILL_PRVREG	6
#define ILL_COPROC	7
#define ILL_BADSTK	8
#define FPE_INTDIV	1
#define FPE_INTOVF	2
#define FPE_FLTDIV	3
#define FPE_FLTOVF	4
#define FPE_FLTUND	5
#define FPE_FLTRES	6
#define FPE_FLTINV	7
#define FPE_FLTSUB	8
#define SEGV_MAPERR	1
#define SEGV_ACCERR	2
#define BUS_ADRALN	1
#define BUS_ADRERR	2
#define BUS_OBJERR	3
#define TRAP_BRKPT	1
#define TRAP_TRACE	2
#define CLD_EXITED	1
#define CLD_KILLED	2
#define CLD_DUMPED	3
#define CLD_TRAPPED	4
#define CLD_STOPPED	5
#define CLD_CONTINUED	6
#define POLL_IN		1
#define POLL_OUT	2
#define POLL_MSG	3
#define POLL_ERR	4
#define POLL_PRI	5
#define POLL_HUP	6

/* sa_flags, Linux's values */
#define SA_NOCLDSTOP	0x00000001
#define SA_NOCLDWAIT	0x00000002
#define SA_SIGINFO	0x00000004
#define SA_ONSTACK	0x08000000
#define SA_RESTART	0x10000000
#define SA_NODEFER	0x40000000
#define SA_RESETHAND	0x80000000
#define SA_NOMASK	SA_NODEFER
#define SA_ONESHOT	SA_RESETHAND

struct sigaction {
	union {
		_sig_func_ptr	__sa_handler;
		void		(*__sa_sigaction)(int, siginfo_t *, void *);
	} __sa_u;
	sigset_t	sa_mask;
	int		sa_flags;
};
#define sa_handler	__sa_u.__sa_handler
#define sa_sigaction	__sa_u.__sa_sigaction

/* sigaltstack: the same layout and flags on both sides */
#define SS_ONSTACK	1
#define SS_DISABLE	2
#define MINSIGSTKSZ	2048
#define SIGSTKSZ	8192

typedef struct sigaltstack {
	void	*ss_sp;
	int	ss_flags;
	size_t	ss_size;
} stack_t;

#define SIG_SETMASK	0	/* sigprocmask's how (newlib's values) */
#define SIG_BLOCK	1
#define SIG_UNBLOCK	2

int sigprocmask(int how, const sigset_t *set, sigset_t *old);
int pthread_sigmask(int how, const sigset_t *set, sigset_t *old);
int kill(pid_t pid, int sig);
int killpg(pid_t pgrp, int sig);
int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
int sigaddset(sigset_t *set, int sig);
int sigdelset(sigset_t *set, int sig);
int sigismember(const sigset_t *set, int sig);
int sigfillset(sigset_t *set);
int sigemptyset(sigset_t *set);
int sigpending(sigset_t *set);
int sigsuspend(const sigset_t *mask);
int sigwait(const sigset_t *set, int *sig);
int sigwaitinfo(const sigset_t *set, siginfo_t *info);
int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout);
int sigaltstack(const stack_t *__restrict ss, stack_t *__restrict old);
int sigqueue(pid_t pid, int sig, const union sigval value);
int pthread_kill(pthread_t thread, int sig);
int siginterrupt(int sig, int flag);

/* XSI (user/lib/sigxsi.c): sigpause is XSI's (a signal taken out of the
 * mask), as glibc's with _XOPEN_SOURCE; SIG_HOLD is glibc's value. */
#define SIG_HOLD	((_sig_func_ptr)2)
int sighold(int sig);
int sigrelse(int sig);
int sigignore(int sig);
int sigpause(int sig);
_sig_func_ptr sigset(int sig, _sig_func_ptr disp);

#ifdef _COMPILING_NEWLIB
int _kill(pid_t, int);
#endif

#ifdef __cplusplus
}
#endif

#include <sys/ucontext.h>

#ifndef _SIGNAL_H_
#include <signal.h>	/* as glibc: <sys/signal.h> gives all of <signal.h> */
#endif

#endif
