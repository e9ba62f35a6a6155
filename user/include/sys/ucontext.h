/* sys/ucontext.h: ucontext_t and mcontext_t, the context a SA_SIGINFO handler receives (Linux i386 layout). */
#ifndef USER_SYS_UCONTEXT_H
#define USER_SYS_UCONTEXT_H

#include <sys/signal.h>

/* Registers saved at the signal, in the kernel's order (struct sigcontext). */
enum {
	REG_GS, REG_FS, REG_ES, REG_DS, REG_EDI, REG_ESI, REG_EBP, REG_ESP, REG_EBX,
	REG_EDX, REG_ECX, REG_EAX, REG_TRAPNO, REG_ERR, REG_EIP, REG_CS, REG_EFL,
	REG_UESP, REG_SS
};
#define NGREG	19

typedef int greg_t;
typedef greg_t gregset_t[NGREG];

typedef struct {
	gregset_t	gregs;
	void		*fpregs;	/* the FPU state the kernel saved */
	unsigned long	oldmask;
	unsigned long	cr2;		/* the faulting address of a page fault */
} mcontext_t;

/*
 * The kernel's 64-bit signal mask sits where uc_sigmask and __uc_sigmask_rt are:
 * while the program's handler runs, uc_sigmask holds it in newlib's numbering
 * (the glue translates it in place, and back when the handler returns, so a
 * handler may change the mask the interrupted code gets back).
 */
typedef struct ucontext_t {
	unsigned long		uc_flags;
	struct ucontext_t	*uc_link;
	stack_t			uc_stack;
	mcontext_t		uc_mcontext;
	sigset_t		uc_sigmask;
	unsigned long		__uc_sigmask_rt;	/* kernel signals 33..64 */
} ucontext_t;

#endif
