/* apic.c: the local APIC of each CPU (Intel SDM vol. 3, chapter 10): mapped
 * uncached in the kernel half, read for ids, written for IPIs. */
#include "apic.h"
#include "clock.h"
#include "errno.h"
#include "irq.h"
#include "trap.h"
#include "paging.h"
#include "x86.h"

#define LAPIC_ID	0x020		/* bits 31-24: APIC id */
#define LAPIC_EOI	0x0B0		/* write 0: end of interrupt */
#define LAPIC_SVR	0x0F0		/* spurious-interrupt vector register */
#define LAPIC_ESR	0x280		/* error status */
#define LAPIC_ICR_LO	0x300		/* interrupt command: vector, mode, status */
#define LAPIC_ICR_HI	0x310		/* bits 31-24: destination APIC id */
#define LAPIC_LVT_LINT0	0x350
#define LAPIC_LVT_LINT1	0x360
#define LAPIC_LVT_ERROR	0x370
#define SVR_ENABLE	0x100		/* APIC software enable */
#define SPURIOUS_VECTOR	0xFF		/* T_APIC_SPURIOUS; low 4 bits must be 1 on P6 */
#define LVT_MASKED	0x10000
#define ICR_BUSY	0x1000		/* delivery status: send pending */
#define IPI_TIMEOUT_US	10000

static volatile u32 *lapic;

u32 lapic_read(u32 reg)
{
	return lapic[reg / 4];
}

void lapic_write(u32 reg, u32 v)
{
	lapic[reg / 4] = v;
}

int lapic_map(u32 phys)
{
	lapic = ioremap(phys, PAGE_SIZE);
	return lapic ? 0 : -ENOMEM;
}

u32 lapic_id(void)
{
	return lapic ? lapic_read(LAPIC_ID) >> 24 : 0;
}

void lapic_enable_ap(void)
{
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT0, LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT1, LVT_MASKED);
	lapic_write(LAPIC_LVT_ERROR, LVT_MASKED);
	lapic_write(LAPIC_SVR, SVR_ENABLE | SPURIOUS_VECTOR);
	lapic_write(LAPIC_ESR, 0);	/* back-to-back writes clear it */
	lapic_write(LAPIC_ESR, 0);
}

void lapic_eoi(void)
{
	irq_this_stat()->eoi++;
	lapic_write(LAPIC_EOI, 0);
}

/* Which counter an ICR value's IPI goes to. */
static enum irq_ipi_kind lapic_ipi_kind(u32 icr)
{
	switch (icr & 0x7FF) {		/* vector and delivery mode */
	case T_IPI_RESCHED: return IPI_KIND_RESCHED;
	case T_IPI_CALL: return IPI_KIND_CALL;
	case T_IPI_TLB: return IPI_KIND_TLB;
	default: return IPI_KIND_OTHER;
	}
}

int lapic_send_ipi(u32 dest, u32 icr)
{
	irq_this_stat()->ipi_sent[lapic_ipi_kind(icr)]++;
	lapic_write(LAPIC_ICR_HI, dest << 24);
	lapic_write(LAPIC_ICR_LO, icr);
	for (u32 us = 0; us < IPI_TIMEOUT_US; us++) {
		if (!(lapic_read(LAPIC_ICR_LO) & ICR_BUSY))
			return 0;
		udelay(1);
	}
	return -ETIMEDOUT;
}

bool lapic_present(void)
{
	return lapic;
}

void lapic_enable_boot(void)
{
	lapic_write(LAPIC_LVT_ERROR, LVT_MASKED);
	lapic_write(LAPIC_SVR, SVR_ENABLE | SPURIOUS_VECTOR);
}

void lapic_mask_lint0(void)
{
	lapic_write(LAPIC_LVT_LINT0, LVT_MASKED);
}
