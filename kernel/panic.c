/* panic.c: report a fatal kernel error with registers and a backtrace, stop the other CPUs, then exit. */
#include "panic.h"
#include "ksyms.h"
#include "power.h"
#include "printk.h"
#include "smp.h"
#include "trap.h"
#include "x86.h"

#define KERNEL_BASE	0xC0000000u
#define MAX_FRAMES	32

static int panicking;
static u32 panic_cpu = 0xFFFFFFFFu;	/* the CPU that panicked first */

static void print_addr(u32 addr)
{
	u32 off, size;
	const char *name = ksym_lookup(addr, &off, &size);

	if (name)
		printk(KERN_EMERG "  [<%08x>] %s+0x%x/0x%x\n", addr, name, off, size);
	else
		printk(KERN_EMERG "  [<%08x>] ?\n", addr);
}

static void walk_frames(u32 ebp)
{
	for (int i = 0; i < MAX_FRAMES && ebp >= KERNEL_BASE && !(ebp & 3); i++) {
		u32 *frame = (u32 *)ebp;
		if (!frame[1])
			break;
		print_addr(frame[1] - 1);	/* inside the call instruction */
		if (frame[0] <= ebp)
			break;			/* frames only go up the stack */
		ebp = frame[0];
	}
}

void dump_backtrace(u32 eip, u32 ebp)
{
	printk(KERN_EMERG "Call trace:\n");
	print_addr(eip);
	walk_frames(ebp);
}

/* Did the function containing eip push its own frame yet? gcc leaves small
 * leaf functions frameless even with -fno-omit-frame-pointer. */
static bool has_own_frame(u32 eip)
{
	u32 off, size;
	const u8 *start;

	if (!ksym_lookup(eip, &off, &size))
		return true;
	start = (const u8 *)(eip - off);
	/* push ebp (55); mov ebp, esp (89 e5) */
	return off >= 3 && start[0] == 0x55 && start[1] == 0x89 && start[2] == 0xE5;
}

static void dump_trap_backtrace(const struct trap_frame *tf)
{
	printk(KERN_EMERG "Call trace:\n");
	print_addr(tf->eip);
	if (!has_own_frame(tf->eip))	/* its caller's return address is on top */
		print_addr(*(u32 *)trap_kernel_esp(tf) - 1);
	walk_frames(tf->ebp);
}

void dump_trap_frame(const struct trap_frame *tf)
{
	u32 esp = trap_from_user(tf) ? tf->user_esp : trap_kernel_esp(tf);

	printk(KERN_EMERG "trap %u (%s) err %08x\n", tf->vector, trap_name(tf->vector), tf->err);
	printk(KERN_EMERG "EIP: %04x:%08x EFLAGS: %08x\n", tf->cs, tf->eip, tf->eflags);
	printk(KERN_EMERG "EAX: %08x EBX: %08x ECX: %08x EDX: %08x\n",
	       tf->eax, tf->ebx, tf->ecx, tf->edx);
	printk(KERN_EMERG "ESI: %08x EDI: %08x EBP: %08x ESP: %08x\n",
	       tf->esi, tf->edi, tf->ebp, esp);
	printk(KERN_EMERG "DS: %04x ES: %04x FS: %04x GS: %04x\n",
	       tf->ds & 0xFFFF, tf->es & 0xFFFF, tf->fs & 0xFFFF, tf->gs & 0xFFFF);
	printk(KERN_EMERG "CR0: %08x CR2: %08x CR3: %08x CR4: %08x\n",
	       read_cr0(), read_cr2(), read_cr3(), read_cr4());
	if (tf->vector == T_PAGE_FAULT)
		printk(KERN_EMERG "page fault at %08x: %s %s in %s mode\n", read_cr2(),
		       tf->err & PF_PRESENT ? "protection violation" : "not-present page",
		       tf->err & PF_WRITE ? "on write" : "on read",
		       tf->err & PF_USER ? "user" : "kernel");
}

static void panic_begin(const char *fmt, va_list ap)
{
	char msg[256];

	u32 stopped;

	cli();
	if (__atomic_fetch_add(&panicking, 1, __ATOMIC_SEQ_CST)) {
		if (panic_cpu == smp_processor_id())	/* a panic while panicking: just stop */
			machine_exit(EXIT_PANIC);
		for (;;)			/* another CPU panics: it reports, we halt */
			hlt();
	}
	panic_cpu = smp_processor_id();
	stopped = smp_stop_others();		/* before they change what we print */
	vsnprintf(msg, sizeof(msg), fmt, ap);
	printk(KERN_EMERG "Kernel panic: %s\n", msg);
	if (nr_cpus_online > 1)
		printk(KERN_EMERG "on CPU %u; %u of the %u other CPUs stopped\n", panic_cpu,
		       stopped, nr_cpus_online - 1);
}

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	panic_begin(fmt, ap);
	va_end(ap);
	dump_backtrace((u32)__builtin_return_address(0) - 1,
		       *(u32 *)__builtin_frame_address(0));
	printk(KERN_EMERG "---[ end Kernel panic ]---\n");
	machine_exit(EXIT_PANIC);
}

void panic_trap(struct trap_frame *tf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	panic_begin(fmt, ap);
	va_end(ap);
	dump_trap_frame(tf);
	if (trap_from_user(tf))
		printk(KERN_EMERG "(user mode: no kernel backtrace)\n");
	else
		dump_trap_backtrace(tf);
	printk(KERN_EMERG "---[ end Kernel panic ]---\n");
	machine_exit(EXIT_PANIC);
}
