/* fpu.c: x87/SSE set-up and per-task save/restore (fxsave, or fnsave on CPUs without FXSR). */
#include "fpu.h"
#include "string.h"
#include "x86.h"

#define CR0_MP		0x00000002	/* monitor coprocessor: wait/fwait honour TS */
#define CR0_EM		0x00000004	/* emulate FPU: must be clear */
#define CR0_TS		0x00000008	/* task switched: lazy FPU trap (unused) */
#define CR0_NE		0x00000020	/* native x87 errors (#MF), not IRQ 13 */
#define CR4_OSFXSR	0x00000200	/* fxsave/fxrstor cover SSE; SSE allowed */
#define CR4_OSXMMEXCPT	0x00000400	/* unmasked SSE exceptions raise #XM */
#define CPUID_EDX_FXSR	(1u << 24)
#define CPUID_EDX_SSE	(1u << 25)

static bool fpu_has_fxsr;
#define FX_MXCSR	24		/* fxsave image: MXCSR, then MXCSR_MASK */
#define FX_MXCSR_MASK	28
#define MXCSR_MASK_DEFAULT 0xFFBF	/* when the CPU stores 0 there */

static u8 fpu_initial[FPU_STATE_SIZE] __aligned(FPU_ALIGN);
static u32 fpu_mxcsr_mask = MXCSR_MASK_DEFAULT;

void fpu_init(void)
{
	u32 edx = cpuid_edx(1);

	write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE);
	fpu_has_fxsr = edx & CPUID_EDX_FXSR;
	if (fpu_has_fxsr)
		write_cr4(read_cr4() | CR4_OSFXSR | ((edx & CPUID_EDX_SSE) ? CR4_OSXMMEXCPT : 0));
	asm volatile("fninit" ::: "memory");
	fpu_save(fpu_initial);
	if (fpu_has_fxsr && *(u32 *)(fpu_initial + FX_MXCSR_MASK))
		fpu_mxcsr_mask = *(u32 *)(fpu_initial + FX_MXCSR_MASK);
}

u32 fpu_user_size(void)
{
	return fpu_has_fxsr ? FPU_STATE_SIZE : 108;
}

void fpu_save_for_signal(u8 *area)
{
	fpu_save(area);
	fpu_restore(fpu_initial);
}

void fpu_load_from_user(u8 *area)
{
	if (!area) {
		fpu_restore(fpu_initial);
		return;
	}
	if (fpu_has_fxsr)
		*(u32 *)(area + FX_MXCSR) &= fpu_mxcsr_mask;
	fpu_restore(area);
}

void fpu_init_state(u8 *area)
{
	memcpy(area, fpu_initial, FPU_STATE_SIZE);
}

void fpu_save(u8 *area)
{
	if (fpu_has_fxsr)
		asm volatile("fxsave %0" : "=m"(*(u8 (*)[FPU_STATE_SIZE])area));
	else	/* fnsave also re-initialises the FPU; restore follows anyway */
		asm volatile("fnsave %0; fwait" : "=m"(*(u8 (*)[108])area));
}

void fpu_restore(const u8 *area)
{
	if (fpu_has_fxsr)
		asm volatile("fxrstor %0" :: "m"(*(const u8 (*)[FPU_STATE_SIZE])area));
	else
		asm volatile("frstor %0" :: "m"(*(const u8 (*)[108])area));
}
