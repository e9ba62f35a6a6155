/* setjmp.h: newlib's setjmp/longjmp plus POSIX sigsetjmp/siglongjmp (user/lib/signal.c), which newlib lacks for this target. */
#ifndef USER_SETJMP_H
#define USER_SETJMP_H

#include_next <setjmp.h>
#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	jmp_buf		__jb;
	int		__savemask;	/* restore __mask at siglongjmp */
	sigset_t	__mask;
} sigjmp_buf[1];

/*
 * A macro, so that setjmp runs in the caller's frame, as it must: the mask is
 * saved first (sigprocmask), then the registers.
 */
#define sigsetjmp(env, savemask) __extension__ ({ \
	__typeof__((env)[0]) *__sj = &(env)[0]; \
	__sj->__savemask = (savemask); \
	if (__sj->__savemask) \
		sigprocmask(SIG_SETMASK, 0, &__sj->__mask); \
	setjmp(__sj->__jb); })

/* Back to sigsetjmp, with val (1 if 0); the saved mask first if it was saved.
 * Leaving a signal handler this way is allowed. */
void siglongjmp(sigjmp_buf env, int val) __attribute__((noreturn));

#define _setjmp(env)		setjmp(env)
#define _longjmp(env, val)	longjmp((env), (val))

#ifdef __cplusplus
}
#endif

#endif
