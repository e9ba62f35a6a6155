/* ioapic.h: the I/O APIC: ISA and PCI interrupt lines routed to the local
 * APICs (the 8259 pair stays masked while it is in use). */
#ifndef IOAPIC_H
#define IOAPIC_H

#include "types.h"

/* Redirection entry bits (82093AA datasheet 3.2.4). */
#define IOAPIC_RTE_VECTOR	0x000000FFu	/* vector delivered */
#define IOAPIC_RTE_LOGICAL	0x00000800u	/* destination mode (0: physical APIC id) */
#define IOAPIC_RTE_PENDING	0x00001000u	/* delivery status (RO) */
#define IOAPIC_RTE_ACTIVE_LOW	0x00002000u	/* input pin polarity */
#define IOAPIC_RTE_REMOTE_IRR	0x00004000u	/* level: accepted, EOI not yet seen (RO) */
#define IOAPIC_RTE_LEVEL	0x00008000u	/* trigger mode (0: edge) */
#define IOAPIC_RTE_MASKED	0x00010000u	/* interrupt mask */
#define IOAPIC_RTE_DEST_SHIFT	56		/* destination APIC id, bits 63-56 */

/* Take over from the 8259 when the firmware listed an I/O APIC, the local
 * APIC is mapped and the command line does not say noapic: every pin
 * masked, the lines that already have handlers routed to the boot CPU (until
 * ioapic_set_dest moves one), the
 * 8259 masked and the boot CPU's LINT0 (its ExtINT input) masked. The boot
 * CPU's local APIC is software-enabled either way (MSI goes to it). Boot,
 * after smp_init, interrupts off. */
void ioapic_init(void);
/* True once ioapic_init took over (irq.c asks; any context). */
bool ioapic_enabled(void);
/* Mask or unmask ISA IRQ irq at its pin (irq.c, under its caller's irq-off
 * section; takes ioapic_lock). */
void ioapic_set_masked(int irq, bool masked);
/* Line irq carries PCI INTx (pci.c, at enumeration): level triggered; its
 * polarity is the MADT override's for that IRQ when the firmware lists one
 * (QEMU's lists 5, 9, 10, 11 as level, active high), else PCI's active low.
 * Without _PRT (AML) the line is what the firmware wrote in the device's
 * interrupt line register (i440FX/PIIX3 PIRQ routing to ISA IRQs). */
void ioapic_set_pci_line(int irq);
/* The pin an ISA IRQ arrives at (its GSI less the I/O APIC's base), or -1. */
int ioapic_irq_pin(int irq);
/* A redirection entry as the I/O APIC holds it (tests, /proc). */
u64 ioapic_read_rte(u32 pin);
/* Deliver ISA IRQ irq to CPU cpu (online) from now on: its entry rewritten
 * with that CPU's APIC id, the mask bit kept. 0, -EINVAL for a bad IRQ or
 * CPU, -EIO when the I/O APIC is not in use (the 8259 reaches CPU 0 only).
 * Any context but an interrupt handler of that line; takes ioapic_lock. */
int ioapic_set_dest(int irq, u32 cpu);
/* The CPU ISA IRQ irq is delivered to (0 without the I/O APIC). */
u32 ioapic_dest(int irq);
/* Number of redirection entries (0 when there is no I/O APIC in use). */
u32 ioapic_nr_pins(void);

#endif
