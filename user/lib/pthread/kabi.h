/* kabi.h: the Linux i386 ABI of threads and signals (clone, futex, TLS, rt_sig*) as the user side sees it. */
#ifndef USER_PTHREAD_KABI_H
#define USER_PTHREAD_KABI_H

/*
 * aiokern implements these calls with Linux's numbers, layouts and semantics
 * (issue 15), so the same binaries run there and under qemu-i386.  Values are
 * the kernel's; newlib's names for signals and errno differ and are translated
 * by the glue (abi_xlate.c), never mixed with these.
 */

/* clone flags a thread is created with */
#define KCLONE_VM		0x00000100
#define KCLONE_FS		0x00000200
#define KCLONE_FILES		0x00000400
#define KCLONE_SIGHAND		0x00000800
#define KCLONE_THREAD		0x00010000
#define KCLONE_SYSVSEM		0x00040000
#define KCLONE_SETTLS		0x00080000	/* tls argument: a struct user_desc */
#define KCLONE_PARENT_SETTID	0x00100000	/* the new tid is stored at parent_tid */
#define KCLONE_CHILD_CLEARTID	0x00200000	/* 0 stored at child_tid at exit, then a futex wake */
#define KCLONE_THREAD_FLAGS	(KCLONE_VM | KCLONE_FS | KCLONE_FILES | KCLONE_SIGHAND | \
				 KCLONE_THREAD | KCLONE_SYSVSEM | KCLONE_SETTLS | \
				 KCLONE_PARENT_SETTID | KCLONE_CHILD_CLEARTID)

/* futex operations */
#define KFUTEX_WAIT		0
#define KFUTEX_WAKE		1
#define KFUTEX_REQUEUE		3
#define KFUTEX_CMP_REQUEUE	4
#define KFUTEX_PRIVATE		128	/* the word is not shared with another process */

/* set_thread_area's descriptor (struct user_desc); flags word bit by bit */
struct user_desc {
	unsigned int	entry_number;	/* -1: the kernel picks a free TLS slot and stores it here */
	unsigned int	base_addr;
	unsigned int	limit;
	unsigned int	flags;		/* KDESC_* */
};
#define KDESC_SEG_32BIT		0x01
#define KDESC_CONTENTS_DATA	0x00	/* bits 1-2 */
#define KDESC_READ_EXEC_ONLY	0x08
#define KDESC_LIMIT_IN_PAGES	0x10
#define KDESC_SEG_NOT_PRESENT	0x20
#define KDESC_USEABLE		0x40

/* The segment selector for a GDT entry at ring 3. */
#define KDESC_SELECTOR(entry)	(((entry) << 3) | 3)

/* The kernel's signal set: 64 signals, bit (n - 1) for signal n. */
struct kernel_sigset {
	unsigned long	sig[2];
};
#define KSIGSET_SIZE		8	/* the sigsetsize argument of the rt_sig* calls */
#define KNSIG			64

/* rt_sigaction's struct, i386 */
struct kernel_sigaction {
	void		*handler;	/* KSIG_DFL, KSIG_IGN or a function */
	unsigned long	flags;		/* KSA_* */
	void		(*restorer)(void);
	struct kernel_sigset mask;
};
#define KSIG_DFL		((void *)0)
#define KSIG_IGN		((void *)1)

/* sa_flags: the program's SA_* are these same values (user/include/sys/signal.h) */
#define KSA_NOCLDSTOP		0x00000001
#define KSA_NOCLDWAIT		0x00000002
#define KSA_SIGINFO		0x00000004
#define KSA_RESTORER		0x04000000
#define KSA_ONSTACK		0x08000000
#define KSA_RESTART		0x10000000
#define KSA_NODEFER		0x40000000
#define KSA_RESETHAND		0x80000000

/* rt_sigprocmask's how */
#define KSIG_BLOCK		0
#define KSIG_UNBLOCK		1
#define KSIG_SETMASK		2

/* sigaltstack's stack_t has newlib's layout and flags (ss_sp, ss_flags, ss_size). */
struct kernel_sigaltstack {
	void		*ss_sp;
	int		ss_flags;
	unsigned long	ss_size;
};

/*
 * The library's own signal: the first real-time signal, which newlib's 32-bit
 * sigset_t cannot name, so no program can block, catch or send it.
 * pthread_cancel uses it to interrupt a thread blocked in a cancellation point.
 */
#define KSIG_CANCEL		32

#endif
