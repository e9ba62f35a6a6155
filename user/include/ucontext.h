/* ucontext.h: ucontext_t for SA_SIGINFO handlers (getcontext and friends are not provided). */
#ifndef USER_UCONTEXT_H
#define USER_UCONTEXT_H

#include <sys/ucontext.h>

#endif
