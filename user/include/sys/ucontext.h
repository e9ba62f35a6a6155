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
 * uc_sigmask is the kernel's 64-bit mask, which sigset_t's layout is (read it
 * with sigismember; a handler may change the mask the interrupted code gets
 * back).
 */
typedef struct ucontext_t {
	unsigned long		uc_flags;
	struct ucontext_t	*uc_link;
	stack_t			uc_stack;
	mcontext_t		uc_mcontext;
	sigset_t		uc_sigmask;
} ucontext_t;

#endif
