/* sysenter.h: the vsyscall page and the SYSENTER system-call entry (kernel/sysenter.c). */
#ifndef SYSENTER_H
#define SYSENTER_H

#include "trap.h"

/* Map the vsyscall page and program the SYSENTER MSRs ("nosysenter" on the
 * command line keeps int $0x80). Before the first process is created. */
void sysenter_init(void);
/* The running CPU's SYSENTER MSRs and its SYSENTER stack's thread_info:
 * sysenter_init does it on every CPU online then; a CPU that starts later
 * calls it itself. Interrupts off. */
void sysenter_init_cpu(void);
/* C half of kernel/sysenter_entry.asm. */
void sysenter_dispatch(struct trap_frame *tf);
/* exception(): true when it was the debug trap at the entry's first instruction. */
bool sysenter_debug_trap(struct trap_frame *tf);

#endif
