/* acpi.h: the CPUs and interrupt controllers the firmware lists (ACPI MADT, or
 * the MP table when there is no ACPI). */
#ifndef ACPI_H
#define ACPI_H

#include "types.h"

#define NR_CPUS		8	/* the most CPUs the kernel brings up */
#define NR_ISA_IRQS	16

/* MPS INTI flags (MADT interrupt source override, MP table interrupt entry). */
#define INTI_POLARITY_MASK	0x3	/* 00 bus default, 01 active high, 11 active low */
#define INTI_POLARITY_LOW	0x3
#define INTI_TRIGGER_MASK	0xC	/* 00 bus default, 01 edge, 11 level */
#define INTI_TRIGGER_LEVEL	0xC

/* Where an ISA IRQ arrives at the I/O APIC: identity (GSI = IRQ, the ISA
 * bus's edge/active high) unless the firmware overrides it. */
struct isa_irq_route {
	u32 gsi;
	u16 flags;		/* INTI_* */
	bool overridden;	/* listed by the firmware */
};

struct cpu_topology {
	const char *source;	/* "ACPI MADT", "MP table" or "none" */
	u32 nr_cpus;		/* usable CPUs listed, at most NR_CPUS */
	u32 nr_skipped;		/* listed but disabled, or past NR_CPUS */
	u8 apic_id[NR_CPUS];	/* local APIC ids, in the firmware's order */
	u32 lapic_phys;		/* local APIC registers (physical) */
	u32 nr_ioapics;
	u32 ioapic_phys;	/* the first I/O APIC: registers, id, first GSI */
	u8 ioapic_id;
	u32 ioapic_gsi_base;
	u32 nr_overrides;	/* ISA interrupt source overrides (MADT type 2) */
	struct isa_irq_route isa_irq[NR_ISA_IRQS];	/* by ISA IRQ */
	u8 mp_isa_bus;		/* MP table: the ISA bus's id (parser state) */
};

/* What cpu_discover found (zero before it runs). */
extern struct cpu_topology cpu_topology;

/* Fill cpu_topology from the ACPI MADT (RSDP in the EBDA or 0xE0000-0xFFFFF,
 * then the RSDT), else from the MP table, else one CPU at the default local
 * APIC address; print what was found. acpi=off on the command line skips ACPI.
 * Boot only, after mm_init (tables above the direct map are ioremapped). */
void cpu_discover(void);
/* The two parsers, for the tests: 0 when t was filled, -ENODEV when the
 * firmware has no such table, -EINVAL when the table is corrupt. */
int acpi_madt_parse(struct cpu_topology *t);
int mptable_parse(struct cpu_topology *t);

#endif
