/* syscall.h: the system-call dispatcher both entries share (kernel/syscall.c). */
#ifndef SYSCALL_H
#define SYSCALL_H

#include "trap.h"

/* Run the call numbered tf->eax with the frame's six argument registers and
 * put the result (or -ENOSYS) in tf->eax; then check that no mutex is held on
 * the way back to user space. Process context, interrupts on. */
void syscall_dispatch(struct trap_frame *tf);

#endif
