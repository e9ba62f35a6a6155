/* irq_proc.h: /proc/irq/N/smp_affinity and effective_affinity (kernel/irq_proc.c). */
#ifndef IRQ_PROC_H
#define IRQ_PROC_H

#include "types.h"

/* Make /proc/irq/N/ for each ISA line and each MSI that has a handler now
 * (a line with no handler: writes are -EINVAL). Boot, after the
 * drivers registered theirs and procfs_init made /proc. */
void irq_proc_init(void);
/* A CPU mask in Linux's hex format ("f", "0002", "00000000,00000003\n"):
 * 0 and *mask, or -EINVAL for no digit, a character that is none, more
 * than 32 bits, or a bit past the first 32-bit group. */
int irq_proc_parse_mask(const char *text, u32 *mask);

#endif
