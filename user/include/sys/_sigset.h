/* sys/_sigset.h: __sigset_t for aiokern's newlib programs: the kernel's 64-bit signal set (replaces newlib's 32-bit one). */
#ifndef _SYS__SIGSET_H_
#define _SYS__SIGSET_H_

/*
 * Every header that names sigset_t (sys/signal.h, newlib's sys/select.h)
 * takes it from here, so all agree: Linux i386's set, bit k - 1 of the two
 * words for kernel signal k (1..64), handled only by sigaddset and friends
 * (user/lib/sigset.c).  newlib's libc.a was built with a 32-bit set: of its
 * objects only dbopen's hash_page.o takes one (sigprocmask), no program here
 * links it.
 */
typedef struct {
	unsigned long	__bits[2];
} __sigset_t;

#endif
