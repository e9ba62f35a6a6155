/* trap.c: the IDT, exception dispatch, and the exception-fixup table. */
#include "trap.h"
#include "gdt.h"
#include "irq.h"
#include "panic.h"
#include "printk.h"
#include "sysenter.h"
#include "test_hooks.h"
#include "x86.h"

#define IDT_ENTRIES	256
#define GATE_INTR	0x8E	/* present, DPL 0, 32-bit interrupt gate */
#define GATE_DPL(d)	((d) << 5)

struct idt_gate {
	u16 off_lo;
	u16 sel;
	u8 zero;
	u8 type;
	u16 off_hi;
} __packed;

static struct idt_gate idt[IDT_ENTRIES];
static trap_handler_t handlers[IDT_ENTRIES];

extern const u32 trap_stubs[T_IRQ_BASE + NR_IRQS];	/* trap_entry.asm's NR_STUBS */
extern const u32 trap_stub_syscall[1];
extern const u32 trap_stubs_apic[3];	/* T_IPI_CALL, T_IPI_STOP, T_APIC_SPURIOUS */
extern const struct exception_entry __ex_table_start[], __ex_table_end[];

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow",
	"bound range exceeded", "invalid opcode", "device not available",
	"double fault", "coprocessor segment overrun", "invalid TSS",
	"segment not present", "stack-segment fault", "general protection fault",
	"page fault", "reserved 15", "x87 floating-point error", "alignment check",
	"machine check", "SIMD floating-point error", "virtualization",
	"control protection",
};

const char *trap_name(u32 vector)
{
	if (vector < 32 && exception_names[vector])
		return exception_names[vector];
	if (vector >= T_IRQ_BASE && vector < T_IRQ_BASE + NR_IRQS)
		return "IRQ";
	return "reserved";
}

static void set_gate(u32 vector, u32 addr, int dpl)
{
	idt[vector].off_lo = addr & 0xFFFF;
	idt[vector].off_hi = addr >> 16;
	idt[vector].sel = KERNEL_CS;
	idt[vector].zero = 0;
	idt[vector].type = GATE_INTR | GATE_DPL(dpl);
}

void trap_set_handler(u32 vector, trap_handler_t fn, int dpl)
{
	handlers[vector] = fn;
	if (vector == T_SYSCALL)
		set_gate(vector, trap_stub_syscall[0], dpl);
	else
		idt[vector].type = GATE_INTR | GATE_DPL(dpl);
}

void trap_load_idt(void)
{
	struct dtr d = { sizeof(idt) - 1, (u32)idt };

	lidt(&d);
}

void trap_init(void)
{
	for (u32 v = 0; v < T_IRQ_BASE + NR_IRQS; v++)
		set_gate(v, trap_stubs[v], v == T_BREAKPOINT ? 3 : 0);
	set_gate(T_IPI_CALL, trap_stubs_apic[0], 0);
	set_gate(T_IPI_STOP, trap_stubs_apic[1], 0);
	set_gate(T_APIC_SPURIOUS, trap_stubs_apic[2], 0);
	trap_load_idt();
}

u32 search_exception_table(u32 eip)
{
	for (const struct exception_entry *e = __ex_table_start; e < __ex_table_end; e++)
		if (e->insn == eip)
			return e->fixup;
	return 0;
}

static void exception(struct trap_frame *tf)
{
	u32 fixup;

	if (ktest_trap_hook(tf))		/* the test kernel's traps suite */
		return;
	if (sysenter_debug_trap(tf))
		return;
	if (handlers[tf->vector]) {
		handlers[tf->vector](tf);
		return;
	}
	if (!trap_from_user(tf) && (fixup = search_exception_table(tf->eip))) {
		tf->eip = fixup;
		return;
	}
	if (trap_from_user(tf)) {
		user_exception(tf);		/* a signal; the way out delivers it */
		return;
	}
	panic_trap(tf, "unexpected %s in %s mode", trap_name(tf->vector),
		   trap_from_user(tf) ? "user" : "kernel");
}

void trap_dispatch(struct trap_frame *tf)
{
	if (tf->vector < 32)
		exception(tf);
	else if (tf->vector < T_IRQ_BASE + NR_IRQS)
		irq_dispatch(tf);
	else if (handlers[tf->vector])
		handlers[tf->vector](tf);
	else
		panic_trap(tf, "trap to vector %u with no handler", tf->vector);
	if (trap_from_user(tf))
		user_return(tf);		/* signals, then a pending reschedule */
}
