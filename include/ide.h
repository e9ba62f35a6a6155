/* ide.h: the PIIX3 IDE driver (ATA disks on both channels, bus-master DMA or PIO). */
#ifndef IDE_H
#define IDE_H

#include "types.h"

/* Register the PCI driver for 8086:7010; disks appear as hda (primary
 * master), hdb (primary slave), hdc, hdd. "ide=pio" on the command line
 * turns DMA off. Boot context, after pci_init. */
void ide_init(void);

#endif
