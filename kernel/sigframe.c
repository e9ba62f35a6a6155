/* sigframe.c: the i386 rt signal frame on the user stack (Linux's layout), rt_sigreturn and sigaltstack.
 *
 * The frame (struct kernel_rt_sigframe, uapi/signal.h) holds the siginfo and a
 * ucontext with every register and the mask; the FPU image follows it. A
 * handler returns into its restorer, which calls rt_sigreturn by int $0x80:
 * the frame is at esp - 4. What rt_sigreturn takes back from user memory is
 * checked so that a forged frame gains nothing: CS and SS are the user's,
 * DS/ES the user data segment, FS/GS a null, user or present TLS selector,
 * EFLAGS keeps only the arithmetic, direction, trap, AC and RF bits (IF set;
 * IOPL, NT and VM clear), MXCSR loses its reserved bits.
 */
#include "errno.h"
#include "fpu.h"
#include "gdt.h"
#include "proc.h"
#include "sched.h"
#include "signal.h"
#include "string.h"
#include "syscall_table.h"
#include "tls.h"
#include "trap.h"
#include "uaccess.h"
#include "x86.h"

#define FIX_EFLAGS	(EFLAGS_AC | EFLAGS_DF | EFLAGS_TF | EFLAGS_RF | 0x8D5)	/* + OF SF ZF AF PF CF */
#define FRAME_FP_ALIGN	64

bool on_sig_stack(u32 sp)
{
	struct task *t = current;

	return t->sas_size && sp - t->sas_sp < t->sas_size;
}

static int sas_flags(u32 sp)
{
	if (!current->sas_size)
		return SS_DISABLE;
	return on_sig_stack(sp) ? SS_ONSTACK : 0;
}

static void sigcontext_fill(struct kernel_sigcontext *sc, const struct trap_frame *tf,
			    u32 fpstate, u64 oldmask, u32 cr2)
{
	sc->gs = tf->gs & 0xFFFF;
	sc->fs = tf->fs & 0xFFFF;
	sc->es = tf->es & 0xFFFF;
	sc->ds = tf->ds & 0xFFFF;
	sc->edi = tf->edi;
	sc->esi = tf->esi;
	sc->ebp = tf->ebp;
	sc->esp = tf->user_esp;
	sc->ebx = tf->ebx;
	sc->edx = tf->edx;
	sc->ecx = tf->ecx;
	sc->eax = tf->eax;
	sc->trapno = tf->vector;
	sc->err = tf->vector == T_SYSCALL ? 0 : tf->err;
	sc->eip = tf->eip;
	sc->cs = tf->cs & 0xFFFF;
	sc->eflags = tf->eflags;
	sc->esp_at_signal = tf->user_esp;
	sc->ss = tf->user_ss & 0xFFFF;
	sc->fpstate = (void *)fpstate;
	sc->oldmask = (u32)oldmask;
	sc->cr2 = cr2;
}

/* Where the frame goes: the alternate stack if asked and not on it already. */
static u32 frame_base(const struct kernel_sigaction *ka, u32 sp)
{
	if ((ka->flags & KSA_ONSTACK) && current->sas_size && !on_sig_stack(sp))
		return current->sas_sp + current->sas_size;
	return sp;
}

/* The registers a handler starts with: its stack at base, eip at it, the
 * user's segments; sig (and the rt frame's info and uc) in eax, edx, ecx. */
static void sigframe_enter(struct trap_frame *tf, const struct kernel_sigaction *ka, u32 base,
			   int sig, u32 info, u32 uc)
{
	tf->user_esp = base;
	tf->eip = (u32)ka->handler;
	tf->eax = sig;				/* regparm(3)-style, as Linux: sig, info, uc */
	tf->edx = info;
	tf->ecx = uc;
	tf->cs = USER_CS;
	tf->user_ss = tf->ds = tf->es = USER_DS;
	tf->eflags &= ~(EFLAGS_TF | EFLAGS_DF | EFLAGS_RF);
}

/* The old frame for a handler without SA_SIGINFO (Linux builds it too): a
 * C library's non-SA_SIGINFO restorer calls sigreturn (119). */
static int sigframe_setup_old(int sig, const struct kernel_sigaction *ka,
			      const struct kernel_siginfo *info, u64 oldmask, struct trap_frame *tf)
{
	static const u8 retcode[8] = { 0x58, 0xB8, 119, 0, 0, 0, 0xCD, 0x80 };
	u8 fpu[FPU_STATE_SIZE] __aligned(FPU_ALIGN);
	struct kernel_sigframe f;
	u32 sp = frame_base(ka, tf->user_esp), fpstate, base, fpsize = fpu_user_size();

	fpstate = (sp - fpsize) & ~(FRAME_FP_ALIGN - 1);
	base = ((fpstate - sizeof(f) + 4) & ~15u) - 4;
	if (fpstate > sp || base > fpstate || !access_ok(base, sp - base))
		return -EFAULT;
	memset(&f, 0, sizeof(f));
	f.sig = sig;
	sigcontext_fill(&f.sc, tf, fpstate, oldmask,
			sig == SIGSEGV || sig == SIGBUS ? (u32)info->f.fault.addr : 0);
	f.extramask[0] = (u32)(oldmask >> 32);
	memcpy(f.retcode, retcode, sizeof(retcode));
	f.pretcode = (ka->flags & KSA_RESTORER) ? (void *)ka->restorer :
		     (void *)(base + offsetof(struct kernel_sigframe, retcode));
	fpu_save_for_signal(fpu);
	if (copy_to_user((void *)fpstate, fpu, fpsize) || copy_to_user((void *)base, &f, sizeof(f))) {
		fpu_load_from_user(fpu);
		return -EFAULT;
	}
	sigframe_enter(tf, ka, base, sig, 0, 0);
	return 0;
}

int sigframe_setup(int sig, const struct kernel_sigaction *ka,
		   const struct kernel_siginfo *info, u64 oldmask, struct trap_frame *tf)
{
	static const u8 retcode[8] = { 0xB8, 173, 0, 0, 0, 0xCD, 0x80, 0x90 };
	u8 fpu[FPU_STATE_SIZE] __aligned(FPU_ALIGN);
	struct kernel_rt_sigframe f;
	u32 sp = frame_base(ka, tf->user_esp), fpstate, base, fpsize = fpu_user_size();

	if (!(ka->flags & KSA_SIGINFO))
		return sigframe_setup_old(sig, ka, info, oldmask, tf);
	fpstate = (sp - fpsize) & ~(FRAME_FP_ALIGN - 1);
	base = ((fpstate - sizeof(f) + 4) & ~15u) - 4;	/* (esp + 4) 16-aligned at entry */
	if (fpstate > sp || base > fpstate || !access_ok(base, sp - base))
		return -EFAULT;
	memset(&f, 0, sizeof(f));
	f.sig = sig;
	f.pinfo = (void *)(base + offsetof(struct kernel_rt_sigframe, info));
	f.puc = (void *)(base + offsetof(struct kernel_rt_sigframe, uc));
	f.info = *info;
	f.uc.uc_stack.ss_sp = (void *)current->sas_sp;
	f.uc.uc_stack.ss_size = current->sas_size;
	f.uc.uc_stack.ss_flags = sas_flags(tf->user_esp);
	sigcontext_fill(&f.uc.uc_mcontext, tf, fpstate, oldmask,
			sig == SIGSEGV || sig == SIGBUS ? (u32)info->f.fault.addr : 0);
	f.uc.uc_sigmask.sig[0] = (u32)oldmask;
	f.uc.uc_sigmask.sig[1] = (u32)(oldmask >> 32);
	memcpy(f.retcode, retcode, sizeof(retcode));
	f.pretcode = (ka->flags & KSA_RESTORER) ? (void *)ka->restorer :
		     (void *)(base + offsetof(struct kernel_rt_sigframe, retcode));
	fpu_save_for_signal(fpu);
	if (copy_to_user((void *)fpstate, fpu, fpsize) || copy_to_user((void *)base, &f, sizeof(f))) {
		fpu_load_from_user(fpu);	/* the interrupted code's state, unchanged */
		return -EFAULT;
	}
	sigframe_enter(tf, ka, base, sig, (u32)f.pinfo, (u32)f.puc);
	return 0;
}

/* A data selector a forged frame may hand back for FS/GS. */
static bool user_data_selector_ok(u32 sel)
{
	sel &= 0xFFFF;
	return sel == 0 || sel == USER_DS || tls_selector_ok(sel);
}

static int restore_sigcontext(struct trap_frame *tf, const struct kernel_sigcontext *sc)
{
	if (!user_data_selector_ok(sc->gs) || !user_data_selector_ok(sc->fs))
		return -EFAULT;
	tf->gs = sc->gs & 0xFFFF;
	tf->fs = sc->fs & 0xFFFF;
	tf->ds = tf->es = tf->user_ss = USER_DS;
	tf->cs = USER_CS;
	tf->edi = sc->edi;
	tf->esi = sc->esi;
	tf->ebp = sc->ebp;
	tf->ebx = sc->ebx;
	tf->edx = sc->edx;
	tf->ecx = sc->ecx;
	tf->eax = sc->eax;
	tf->eip = sc->eip;
	tf->user_esp = sc->esp;
	tf->eflags = (tf->eflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS);
	tf->eflags = (tf->eflags | EFLAGS_IF) & ~(EFLAGS_IOPL | EFLAGS_NT | EFLAGS_VM);
	return 0;
}

static long do_sigaltstack(const struct kernel_sigaltstack *ss, struct kernel_sigaltstack *oss,
			   u32 sp)
{
	struct task *t = current;

	if (oss) {
		oss->ss_sp = (void *)t->sas_sp;
		oss->ss_size = t->sas_size;
		oss->ss_flags = sas_flags(sp);
	}
	if (!ss)
		return 0;
	if (on_sig_stack(sp))
		return -EPERM;
	if (ss->ss_flags != 0 && ss->ss_flags != SS_DISABLE && ss->ss_flags != SS_ONSTACK)
		return -EINVAL;
	if (ss->ss_flags == SS_DISABLE) {
		t->sas_sp = t->sas_size = 0;
		return 0;
	}
	if (ss->ss_size < MINSIGSTKSZ)
		return -ENOMEM;
	if (!access_ok(ss->ss_sp, ss->ss_size))
		return -EFAULT;
	t->sas_sp = (u32)ss->ss_sp;
	t->sas_size = ss->ss_size;
	return 0;
}

long sys_sigaltstack(const struct kernel_sigaltstack *uss, struct kernel_sigaltstack *uoss)
{
	struct kernel_sigaltstack ss, oss;
	long err;

	if (uss && copy_from_user(&ss, uss, sizeof(ss)))
		return -EFAULT;
	err = do_sigaltstack(uss ? &ss : NULL, &oss, current_user_frame()->user_esp);
	if (!err && uoss && copy_to_user(uoss, &oss, sizeof(oss)))
		return -EFAULT;
	return err;
}

/* A frame that cannot be read or is forged: SIGSEGV, uncatchable now. */
static long bad_frame(struct trap_frame *tf)
{
	tf->err = (u32)-1;
	force_sig_fault(SIGSEGV, SI_KERNEL, 0);
	return tf->eax;
}

/* Both returns: the registers, the mask and the FPU image the frame holds.
 * 0, or -EFAULT for a frame that cannot be read or is forged. */
static int sigreturn_common(struct trap_frame *tf, const struct kernel_sigcontext *sc, u64 mask)
{
	u8 fpu[FPU_STATE_SIZE] __aligned(FPU_ALIGN);
	u32 fpstate = (u32)sc->fpstate;

	if (fpstate && copy_from_user(fpu, (void *)fpstate, fpu_user_size()))
		return -EFAULT;
	if (restore_sigcontext(tf, sc))
		return -EFAULT;
	signal_set_blocked(mask);
	fpu_load_from_user(fpstate ? fpu : NULL);
	tf->err = (u32)-1;			/* not a system call to restart */
	return 0;
}

long sys_rt_sigreturn(void)
{
	struct trap_frame *tf = current_user_frame();
	struct kernel_rt_sigframe *uf = (void *)(tf->user_esp - 4);
	struct kernel_ucontext uc;

	if (copy_from_user(&uc, &uf->uc, sizeof(uc)) ||
	    sigreturn_common(tf, &uc.uc_mcontext,
			     (u64)uc.uc_sigmask.sig[1] << 32 | uc.uc_sigmask.sig[0]))
		return bad_frame(tf);
	do_sigaltstack(&uc.uc_stack, NULL, tf->user_esp);	/* as it was; errors ignored */
	return tf->eax;
}

/* The old frame: the restorer popped sig, so it lies at esp - 8. */
long sys_sigreturn(void)
{
	struct trap_frame *tf = current_user_frame();
	struct kernel_sigframe *uf = (void *)(tf->user_esp - 8);
	struct kernel_sigcontext sc;
	unsigned long extra;

	if (copy_from_user(&sc, &uf->sc, sizeof(sc)) ||
	    copy_from_user(&extra, &uf->extramask[0], sizeof(extra)) ||
	    sigreturn_common(tf, &sc, (u64)extra << 32 | sc.oldmask))
		return bad_frame(tf);
	return tf->eax;
}
