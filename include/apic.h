/* apic.h: the local APIC: its id, enabling it, inter-processor interrupts. */
#ifndef APIC_H
#define APIC_H

#include "types.h"

#define APIC_ICR_INIT		0x00000500	/* delivery mode INIT */
#define APIC_ICR_STARTUP	0x00000600	/* delivery mode start-up (SIPI) */
#define APIC_ICR_LEVEL		0x00008000	/* level triggered (INIT assert/de-assert) */
#define APIC_ICR_ASSERT		0x00004000	/* level: assert */

/* Map the local APIC registers at phys, uncached; 0 or -ENOMEM. Boot only. */
int lapic_map(u32 phys);
/* The running CPU's local APIC id (0 before lapic_map). */
u32 lapic_id(void);
/* Software-enable the running CPU's local APIC (spurious vector 0xFF) with
 * every local interrupt masked: an AP gets nothing but INIT, SIPI and NMI. */
void lapic_enable_ap(void);
/* The local APIC is mapped (lapic_map succeeded). Any context. */
bool lapic_present(void);
/* Software-enable the boot CPU's local APIC, so that it accepts the I/O
 * APIC's and MSI messages; LINT0 (the 8259's virtual wire), LINT1 (NMI) and
 * the timer entries are left as they are. Boot, interrupts off. */
void lapic_enable_boot(void);
/* Mask the running CPU's LINT0: the 8259 no longer reaches it. */
void lapic_mask_lint0(void);
/* End of interrupt for the running CPU's local APIC (an IPI's handler, or
 * any interrupt the I/O APIC or MSI delivered). */
void lapic_eoi(void);
/* Send the IPI icr (vector | APIC_ICR_*) to the CPU whose APIC id is dest and
 * wait until the APIC has sent it: 0, or -ETIMEDOUT after 10 ms. Interrupts
 * off or boot (one sender at a time). */
int lapic_send_ipi(u32 dest, u32 icr);

#endif
