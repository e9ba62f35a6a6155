/* kabi.h: the Linux i386 ABI of threads and signals (clone, futex, TLS, rt_sig*) as the user side sees it: the kernel's uapi headers. */
#ifndef USER_PTHREAD_KABI_H
#define USER_PTHREAD_KABI_H

/*
 * aiokern implements these calls with Linux's numbers, layouts and semantics
 * (issue 15), so the same binaries run there and under qemu-i386.  The structs
 * and values are the kernel's own (include/uapi); newlib's names for signals
 * and errno differ and are translated by the glue (abi_xlate.c), never mixed
 * with these.
 */
#ifndef UAPI_STRUCTS_ONLY
#define UAPI_STRUCTS_ONLY	/* newlib owns SIG*, SIG_BLOCK, SI_* */
#endif
#include "uapi/futex.h"
#include "uapi/sched.h"
#include "uapi/signal.h"

/* rt_sigprocmask's how (uapi/signal.h has them only without UAPI_STRUCTS_ONLY) */
#define KSIG_BLOCK		0
#define KSIG_UNBLOCK		1
#define KSIG_SETMASK		2

/*
 * The library's own signal: the first real-time signal, which every signal
 * call of the glue refuses (as 33: SIGRTMIN is 34, as glibc's), so no program
 * can block, catch or send it.  pthread_cancel uses it to interrupt a thread
 * blocked in a cancellation point.
 */
#define KSIG_CANCEL		32

#endif
