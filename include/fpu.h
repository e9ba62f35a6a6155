/* fpu.h: x87/SSE state: CPU set-up, per-task save and restore (eager). */
#ifndef FPU_H
#define FPU_H

#include "types.h"

#define FPU_STATE_SIZE	512		/* fxsave area; fnsave uses the first 108 bytes */
#define FPU_ALIGN	16		/* fxsave needs a 16-byte aligned area */

/* CR0.EM clear, MP and NE set, CR4.OSFXSR (and OSXMMEXCPT) when supported,
 * fninit, and record the initial state new tasks start from. Boot, once. */
void fpu_init(void);
/* Give a new task the initial FPU state. */
void fpu_init_state(u8 *area);
/* Save the FPU registers into area / load them from it. Interrupts off. */
void fpu_save(u8 *area);
void fpu_restore(const u8 *area);

/* The FPU image in a signal frame: its size (fxsave 512, fnsave 108). */
u32 fpu_user_size(void);
/* Save the live registers into area (16-byte aligned) for a signal frame,
 * then give the handler the initial state. Process context. */
void fpu_save_for_signal(u8 *area);
/* Load an image that came from user space (rt_sigreturn): reserved MXCSR
 * bits are cleared first, so fxrstor cannot fault. NULL: the initial state. */
void fpu_load_from_user(u8 *area);

#endif
