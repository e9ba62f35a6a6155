/* sysenter.h: the vsyscall page and the SYSENTER system-call entry (kernel/sysenter.c). */
#ifndef SYSENTER_H
#define SYSENTER_H

#include "trap.h"

/* Map the vsyscall page and program the SYSENTER MSRs ("nosysenter" on the
 * command line keeps int $0x80). Before the first process is created. */
void sysenter_init(void);
/* C half of kernel/sysenter_entry.asm. */
void sysenter_dispatch(struct trap_frame *tf);
/* exception(): true when it was the debug trap at the entry's first instruction. */
bool sysenter_debug_trap(struct trap_frame *tf);

#endif
