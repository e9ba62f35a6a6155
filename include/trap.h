/* trap.h: the trap frame, the IDT and exception dispatch. */
#ifndef TRAP_H
#define TRAP_H

#include "types.h"

/* Pushed by kernel/trap_entry.asm, lowest address first. */
struct trap_frame {
	u32 gs, fs, es, ds;
	u32 edi, esi, ebp, esp_pusha, ebx, edx, ecx, eax;	/* pusha */
	u32 vector, err;
	u32 eip, cs, eflags;
	u32 user_esp, user_ss;		/* only when coming from ring 3 */
};

#define T_DIVIDE	0
#define T_DEBUG		1
#define T_NMI		2
#define T_BREAKPOINT	3
#define T_INVALID_OP	6
#define T_GPF		13
#define T_PAGE_FAULT	14
#define T_IRQ_BASE	32	/* IRQ n is vector 32 + n: ISA 0..15, MSI 16.. (irq.h) */
#define T_SYSCALL	0x80
#define T_IPI_CALL	0xF0	/* smp_call_function (kernel/ipi.c) */
#define T_IPI_STOP	0xF1	/* stop this CPU for a panic */
#define T_APIC_SPURIOUS	0xFF	/* the local APIC's spurious vector */

#define PF_PRESENT	0x1	/* page-fault error code: protection violation */
#define PF_WRITE	0x2	/* caused by a write */
#define PF_USER		0x4	/* from ring 3 */

static inline bool trap_from_user(const struct trap_frame *tf)
{
	return (tf->cs & 3) == 3;
}

/* Kernel esp at the time of the trap (the CPU pushes no esp for ring 0). */
static inline u32 trap_kernel_esp(const struct trap_frame *tf)
{
	return (u32)&tf->user_esp;
}

void trap_init(void);
/* Load the IDT on the running CPU (trap_init does it on the boot CPU; each AP at start). */
void trap_load_idt(void);
void trap_dispatch(struct trap_frame *tf);
const char *trap_name(u32 vector);

/* Handler for a vector other than exceptions and IRQs (e.g. the system call). */
typedef void (*trap_handler_t)(struct trap_frame *tf);
void trap_set_handler(u32 vector, trap_handler_t fn, int dpl);

/* Exception fixup table: a faulting kernel instruction at insn resumes at fixup. */
struct exception_entry {
	u32 insn;
	u32 fixup;
};
u32 search_exception_table(u32 eip);

/* The process layer's hooks (kernel/signal.c): an exception in user mode that
 * nobody handled (queues SIGSEGV, SIGFPE, ... for the current thread), and the
 * way back to user mode (delivers signals). */
void user_exception(struct trap_frame *tf);
void user_return(struct trap_frame *tf);	/* returns with interrupts off */

#endif
