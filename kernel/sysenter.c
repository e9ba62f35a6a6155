/* sysenter.c: the vsyscall page and the SYSENTER fast system-call entry. */
#include "cmdline.h"
#include "errno.h"
#include "fixmap.h"
#include "gdt.h"
#include "paging.h"
#include "printk.h"
#include "proc.h"
#include "sched.h"
#include "smp.h"
#include "spinlock.h"
#include "string.h"
#include "syscall.h"
#include "syscall_table.h"
#include "trap.h"
#include "uaccess.h"
#include "uapi/vsyscall.h"
#include "x86.h"

BUILD_BUG_ON(VSYSCALL_ENTRY != FIXADDR_TOP - FIX_VSYSCALL * PAGE_SIZE);

/* kernel/sysenter_entry.asm */
extern const u8 vsys_sysenter_start[], vsys_sysenter_end[];
extern const u8 vsys_int80_start[], vsys_int80_end[];
void sysenter_entry(void);

static u8 vsyscall_page[PAGE_SIZE] __aligned(PAGE_SIZE);
static bool sysenter_cpu_has;		/* the CPU has SYSENTER */
static bool sysenter_enabled;		/* ... and we use it (not nosysenter): every CPU */

/* Called by sysenter_entry with the frame it built: user_esp points at the
 * word the trampoline pushed, the sixth argument. Only a six-argument call
 * reads it; otherwise the frame's ebp stays the user esp, and the trampoline
 * pops the caller's ebp itself. Branches are few on purpose (each ends a
 * translated block under emulation). Returns with interrupts off: the last
 * look at signals and rescheduling cannot be overtaken before SYSEXIT. */
void sysenter_dispatch(struct trap_frame *tf)
{
	u32 nr = tf->eax;

	sti();
	if (unlikely(nr < NR_SYSCALLS && syscall_nargs[nr] == 6) &&
	    get_user(tf->ebp, (const u32 __user *)tf->user_esp))
		tf->eax = -EFAULT;
	else
		syscall_dispatch(tf);
	cli();				/* the asm's sti covers SYSEXIT */
	if (unlikely(current->sigpending | current->need_resched))
		user_return(tf);	/* returns with interrupts off too */
}

/* Fill the page with the chosen trampoline (int3 after it) and map it at
 * VSYSCALL_ENTRY, readable and executable from ring 3, never writable. */
static void vsyscall_map(const u8 *start, const u8 *end)
{
	u32 va = fix_to_virt(FIX_VSYSCALL);

	memset(vsyscall_page, 0xCC, PAGE_SIZE);
	memcpy(vsyscall_page, start, end - start);
	kernel_pgdir[PDX(va)] |= PTE_USER;	/* every other PTE there stays supervisor */
	*kernel_pte(va) = __pa(vsyscall_page) | PTE_PRESENT | PTE_USER | PTE_GLOBAL;
	invlpg(va);
}

/* Point the running CPU's SYSENTER MSRs at its own stack; its idle task
 * stands for `current` there (gdt.h). */
void sysenter_init_cpu(void)
{
	struct sysenter_stack *s = &sysenter_stacks[smp_processor_id()];

	thread_info_init((u32)&s->ti, this_cpu()->idle);
	if (sysenter_cpu_has && !sysenter_enabled)
		wrmsr(MSR_SYSENTER_CS, 0);	/* a stray SYSENTER faults (#GP), whoever set it before */
	if (!sysenter_enabled)
		return;
	wrmsr(MSR_SYSENTER_CS, KERNEL_CS);
	wrmsr(MSR_SYSENTER_ESP, (u32)&s->esp0);
	wrmsr(MSR_SYSENTER_EIP, (u32)sysenter_entry);
}

static void sysenter_init_cpu_ipi(void *unused)
{
	u32 flags = local_irq_save();	/* this CPU's MSRs: stay on it */

	sysenter_init_cpu();
	local_irq_restore(flags);
}

/* Before the first process: its page directory copies the kernel PDEs. */
void sysenter_init(void)
{
	sysenter_cpu_has = cpuid_edx(1) & CPUID_EDX_SEP;
	sysenter_enabled = sysenter_cpu_has && !cmdline_get(&boot_cmdline, "nosysenter");
	on_each_cpu(sysenter_init_cpu_ipi, NULL);
	if (!sysenter_enabled) {
		vsyscall_map(vsys_int80_start, vsys_int80_end);
		printk(KERN_INFO "vsyscall: int $0x80 at %08x (%s)\n", VSYSCALL_ENTRY,
		       sysenter_cpu_has ? "nosysenter" : "no SYSENTER on this CPU");
		return;
	}
	vsyscall_map(vsys_sysenter_start, vsys_sysenter_end);
	printk(KERN_INFO "vsyscall: SYSENTER at %08x\n", VSYSCALL_ENTRY);
}

/* A debug trap at sysenter_entry's first instruction: ring 3 set TF just
 * before SYSENTER. Drop TF (the saved user flags lose it) and go on. */
bool sysenter_debug_trap(struct trap_frame *tf)
{
	if (tf->vector != T_DEBUG || trap_from_user(tf) || tf->eip != (u32)sysenter_entry)
		return false;
	tf->eflags &= ~EFLAGS_TF;
	return true;
}
