/* signal.h (uapi): signal numbers, the rt_sig* structs, siginfo and the i386 signal frame, Linux i386 values and layouts (newlib differs for some numbers: the glue translates). */
#ifndef UAPI_SIGNAL_H
#define UAPI_SIGNAL_H

#include "types.h"

#ifndef UAPI_STRUCTS_ONLY
#define SIGHUP		1
#define SIGINT		2
#define SIGQUIT		3
#define SIGILL		4
#define SIGTRAP		5
#define SIGABRT		6
#define SIGBUS		7
#define SIGFPE		8
#define SIGKILL		9
#define SIGUSR1		10
#define SIGSEGV		11
#define SIGUSR2		12
#define SIGPIPE		13
#define SIGALRM		14
#define SIGTERM		15
#define SIGSTKFLT	16
#define SIGCHLD		17
#define SIGCONT		18
#define SIGSTOP		19
#define SIGTSTP		20
#define SIGTTIN		21
#define SIGTTOU		22
#define SIGURG		23
#define SIGXCPU		24
#define SIGXFSZ		25
#define SIGVTALRM	26
#define SIGPROF		27
#define SIGWINCH	28
#define SIGIO		29
#define SIGPWR		30
#define SIGSYS		31
#define NSIG		32	/* the standard signals are 1..31 */
#define SIGRTMIN	32	/* real-time signals 32..64 are queued */
#define SIGRTMAX	64

#define SIG_BLOCK	0	/* rt_sigprocmask's how */
#define SIG_UNBLOCK	1
#define SIG_SETMASK	2

#define SS_ONSTACK	1	/* sigaltstack: running on it */
#define SS_DISABLE	2	/* ... none set */
#define MINSIGSTKSZ	2048

/* si_code, Linux's values */
#define SI_USER		0	/* kill */
#define SI_KERNEL	0x80
#define SI_QUEUE	(-1)	/* rt_sigqueueinfo */
#define SI_TIMER	(-2)
#define SI_ASYNCIO	(-4)
#define SI_TKILL	(-6)	/* tgkill, tkill */
#define ILL_ILLOPN	2
#define FPE_INTDIV	1
#define FPE_FLTINV	7
#define SEGV_MAPERR	1	/* nothing mapped there */
#define SEGV_ACCERR	2	/* mapped, but not for this access */
#define BUS_ADRALN	1
#define BUS_ADRERR	2	/* no object there (a file page past the end) */
#define TRAP_BRKPT	1
#define CLD_EXITED	1
#define CLD_KILLED	2
#define CLD_DUMPED	3
#define CLD_STOPPED	5
#define CLD_CONTINUED	6
#endif

/* sa_flags: the same values in newlib programs (user/include/sys/signal.h). */
#define KSA_NOCLDSTOP		0x00000001u
#define KSA_NOCLDWAIT		0x00000002u
#define KSA_SIGINFO		0x00000004u
#define KSA_RESTORER		0x04000000u
#define KSA_ONSTACK		0x08000000u
#define KSA_RESTART		0x10000000u
#define KSA_NODEFER		0x40000000u
#define KSA_RESETHAND		0x80000000u

#define KNSIG			64	/* signals 1..64 */
#define KSIG_DFL		((void *)0)
#define KSIG_IGN		((void *)1)
#define KSIGSET_SIZE		8	/* the sigsetsize argument of the rt_sig* calls */

/* The kernel's signal set: 64 signals, bit (n - 1) of the 64 for signal n. */
struct kernel_sigset {
	unsigned long	sig[2];
};

/* rt_sigaction's struct, i386. */
struct kernel_sigaction {
	void		*handler;	/* KSIG_DFL, KSIG_IGN or a function */
	unsigned long	flags;		/* KSA_* */
	void		(*restorer)(void);
	struct kernel_sigset mask;
};

/* sigaltstack's stack_t (newlib's has the same layout). */
struct kernel_sigaltstack {
	void		*ss_sp;
	int		ss_flags;
	unsigned long	ss_size;
};

/* siginfo_t, Linux i386's 128 bytes. */
union kernel_sigval {
	int	sival_int;
	void	*sival_ptr;
};

struct kernel_siginfo {
	int	si_signo;
	int	si_errno;
	int	si_code;
	union {
		int	_pad[29];
		struct {		/* kill, tgkill, sigqueue, SIGEV_SIGNAL */
			int		pid;
			unsigned	uid;
			union kernel_sigval value;
		} kill;
		struct {		/* SI_TIMER: a POSIX timer's */
			int		tid;	/* the timer's id */
			int		overrun;	/* expiries since this one */
			union kernel_sigval value;
		} timer;
		struct {		/* SIGCHLD */
			int		pid;
			unsigned	uid;
			int		status;
			long		utime, stime;
		} chld;
		struct {		/* SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP */
			void		*addr;
		} fault;
	} f;
};

/* timer_create's struct sigevent, Linux's 64 bytes; sigev_notify is one of
 * KSIGEV_* (newlib programs name their own values: the glue translates). */
#define KSIGEV_SIGNAL		0	/* sigev_signo to the process */
#define KSIGEV_NONE		1	/* nothing: timer_gettime shows the expiry */
#define KSIGEV_THREAD		2	/* a library's matter: the kernel signals, as KSIGEV_SIGNAL */
#define KSIGEV_THREAD_ID	4	/* sigev_signo to thread un.tid of the process */

struct kernel_sigevent {
	union kernel_sigval sigev_value;
	int		sigev_signo;
	int		sigev_notify;
	union {
		int	pad[13];
		int	tid;		/* KSIGEV_THREAD_ID */
		struct {
			void	*function;
			void	*attribute;
		} thread;
	} un;
};

/* struct sigcontext: the registers at the signal (uc_mcontext). */
struct kernel_sigcontext {
	unsigned	gs, fs, es, ds;		/* selectors in the low 16 bits */
	unsigned	edi, esi, ebp, esp, ebx, edx, ecx, eax;
	unsigned	trapno, err, eip, cs, eflags, esp_at_signal, ss;
	void		*fpstate;		/* the fxsave (or fnsave) image, or NULL */
	unsigned long	oldmask;		/* signals 1..32 of the interrupted mask */
	unsigned long	cr2;			/* the faulting address of a page fault */
};

struct kernel_ucontext {
	unsigned long		uc_flags;
	struct kernel_ucontext	*uc_link;
	struct kernel_sigaltstack uc_stack;
	struct kernel_sigcontext uc_mcontext;
	struct kernel_sigset	uc_sigmask;	/* the mask rt_sigreturn restores */
};

/* The frame a handler finds on its stack (Linux's rt_sigframe): it is called
 * with esp at pretcode, which its ret pops; rt_sigreturn finds the frame at
 * esp - 4. The FPU image follows, 16-byte aligned, where uc_mcontext.fpstate points. */
struct kernel_rt_sigframe {
	void			*pretcode;	/* the restorer, or retcode below */
	int			sig;
	struct kernel_siginfo	*pinfo;
	struct kernel_ucontext	*puc;
	struct kernel_siginfo	info;
	struct kernel_ucontext	uc;
	unsigned char		retcode[8];	/* mov $173, %eax; int $0x80 */
};

/* The old frame, for a handler without SA_SIGINFO (Linux's sigframe): the
 * restorer pops sig and calls sigreturn (119), which finds the frame at
 * esp - 8. fpstate_unused keeps Linux's layout (the FPU image follows the
 * frame, where sc.fpstate points). */
struct kernel_sigframe {
	void			*pretcode;
	int			sig;
	struct kernel_sigcontext sc;
	unsigned char		fpstate_unused[624];
	unsigned long		extramask[1];	/* signals 33..64 of the mask */
	unsigned char		retcode[8];	/* popl %eax; mov $119, %eax; int $0x80 */
};

/* sigaction (67)'s struct: a 32-bit mask, flags after it. */
struct kernel_old_sigaction {
	void		*handler;
	unsigned long	mask;
	unsigned long	flags;
	void		(*restorer)(void);
};

UAPI_ASSERT_SIZE(struct kernel_sigset, 8);
UAPI_ASSERT_SIZE(struct kernel_old_sigaction, 16);
UAPI_ASSERT_SIZE(struct kernel_sigaction, 20);
UAPI_ASSERT_SIZE(struct kernel_sigaltstack, 12);
UAPI_ASSERT_SIZE(struct kernel_siginfo, 128);
UAPI_ASSERT_SIZE(struct kernel_sigevent, 64);
UAPI_ASSERT_SIZE(struct kernel_sigcontext, 88);
UAPI_ASSERT_SIZE(struct kernel_ucontext, 116);

#endif
