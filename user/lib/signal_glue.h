/* signal_glue.h: the signal glue's internals shared with libpthread (not installed for programs). */
#ifndef USER_SIGNAL_GLUE_H
#define USER_SIGNAL_GLUE_H

#include <signal.h>
#include "pthread/kabi.h"

/* newlib's signal number <-> the kernel's; 0 when it has none on the other side. */
int __sig_to_kernel(int sig);
int __sig_from_kernel(int ksig);

/* newlib's 32-bit set <-> the kernel's 64-bit one (signals the other side
 * cannot name are left out). */
void __sigset_to_kernel(const sigset_t *set, struct kernel_sigset *k);
sigset_t __sigset_from_kernel(const struct kernel_sigset *k);

/* Block every signal in the calling thread (the library's own too), saving
 * the mask in *old; then put it back.  Around thread start and thread exit. */
void __signals_block_all(struct kernel_sigset *old);
void __signals_restore(const struct kernel_sigset *old);

/* The SA_RESTORER trampoline (sigreturn.S). */
void __aiok_sigreturn(void);

#endif
