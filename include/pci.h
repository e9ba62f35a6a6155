/* pci.h: PCI bus 0 through configuration mechanism #1, BARs, and the driver registry. */
#ifndef PCI_H
#define PCI_H

#include "types.h"

/* Configuration space offsets (type 0 header). */
#define PCI_VENDOR_ID		0x00	/* u16 */
#define PCI_DEVICE_ID		0x02	/* u16 */
#define PCI_COMMAND		0x04	/* u16 */
#define PCI_STATUS		0x06	/* u16 */
#define PCI_REVISION		0x08	/* u8 */
#define PCI_PROG_IF		0x09	/* u8: programming interface */
#define PCI_SUBCLASS		0x0A	/* u8 */
#define PCI_CLASS		0x0B	/* u8 */
#define PCI_HEADER_TYPE		0x0E	/* u8; bit 7: multi-function */
#define PCI_BAR0		0x10	/* six u32 BARs, 0x10..0x24 */
#define PCI_SUBSYS_VENDOR	0x2C	/* u16 */
#define PCI_SUBSYS_ID		0x2E	/* u16 */
#define PCI_CAP_PTR		0x34	/* u8: first capability (status bit 4 set) */
#define PCI_INTERRUPT_LINE	0x3C	/* u8: PIC line the firmware routed INTx to */
#define PCI_INTERRUPT_PIN	0x3D	/* u8: 0 none, 1..4 INTA..INTD */

#define PCI_COMMAND_IO		0x0001	/* respond to I/O space */
#define PCI_COMMAND_MEMORY	0x0002	/* respond to memory space */
#define PCI_COMMAND_MASTER	0x0004	/* may master the bus (DMA) */
#define PCI_COMMAND_INTX_OFF	0x0400	/* INTx disabled */

#define PCI_STATUS_CAP_LIST	0x0010	/* a capability list at PCI_CAP_PTR */

/* Capabilities: id (u8), next (u8), then the capability's own fields. */
#define PCI_CAP_ID_MSIX		0x11
#define PCI_MSIX_CTRL		0x02	/* u16: message control */
#define PCI_MSIX_CTRL_SIZE	0x07FF	/* table size - 1 */
#define PCI_MSIX_CTRL_MASKALL	0x4000	/* function mask */
#define PCI_MSIX_CTRL_ENABLE	0x8000	/* MSI-X enable (INTx no longer used) */
#define PCI_MSIX_TABLE		0x04	/* u32: table offset | BAR indicator (bits 2:0) */
#define PCI_MSIX_ENTRY_SIZE	16	/* address lo, address hi, data, vector control */
#define PCI_MSIX_ENTRY_MASKED	0x1	/* vector control: masked */
#define MSI_ADDR_BASE		0xFEE00000u	/* x86 MSI address: the local APICs */
#define MSI_ADDR_DEST_SHIFT	12	/* destination APIC id, bits 19:12 */

#define PCI_BAR_IO		0x01	/* bit 0: I/O space BAR */
#define PCI_BAR_MEM_TYPE_64	0x04	/* bits 2:1 == 10b: 64-bit memory BAR */
#define PCI_BAR_PREFETCH	0x08	/* prefetchable memory */
#define PCI_HEADER_MULTIFN	0x80	/* header type bit 7 */

#define PCI_MAX_DEVICES		32	/* functions remembered on bus 0 */
#define PCI_NR_BARS		6

struct pci_bar {
	u32 base;		/* I/O port or physical address; 0 if unused */
	u32 size;		/* bytes decoded; 0 if unused */
	bool io;		/* I/O space (else memory) */
	bool prefetch;
	bool is64;		/* 64-bit memory BAR: the next slot is its high half */
};

struct pci_dev {
	u8 bus, dev, fn;
	u16 vendor, device;
	u16 subsys_vendor, subsys_id;
	u8 class, subclass, prog_if, revision;
	u8 header_type;
	u8 irq_line;		/* PIC line from config 0x3C, 0xFF if none */
	u8 irq_pin;		/* 0 none, 1..4 INTA..INTD */
	struct pci_bar bar[PCI_NR_BARS];
	const struct pci_driver *driver;	/* bound driver, or NULL */
	void *drvdata;		/* the bound driver's state */
};

struct pci_device_id {
	u16 vendor, device;
};

/* A driver: ids[] ends with {0, 0}; probe returns 0 to bind or -errno. */
struct pci_driver {
	const char *name;
	const struct pci_device_id *ids;
	int (*probe)(struct pci_dev *pdev);
	struct pci_driver *next;	/* registry linkage (pci.c) */
};

/* Enumerate bus 0, print one line per function, bind registered drivers.
 * Boot context, once, interrupts may be on. */
void pci_init(void);
/* Add a driver to the registry and probe it against every unbound device found
 * so far (drivers registered before pci_init are probed by it). Returns the
 * number of devices bound, or -EINVAL for a driver without ids/probe. */
int pci_register_driver(struct pci_driver *drv);

/* Configuration reads/writes of a found device; any context (irq-safe lock). */
u32 pci_read32(const struct pci_dev *p, u8 off);
u16 pci_read16(const struct pci_dev *p, u8 off);
u8 pci_read8(const struct pci_dev *p, u8 off);
void pci_write32(const struct pci_dev *p, u8 off, u32 v);
void pci_write16(const struct pci_dev *p, u8 off, u16 v);
/* Raw mechanism #1 read of any bus/device/function (0xFFFFFFFF if absent). */
u32 pci_conf_read32(u8 bus, u8 dev, u8 fn, u8 off);

/* Set bits (PCI_COMMAND_IO / MEMORY / MASTER) in the command register and
 * clear INTx-disable. Returns the new command register value. */
u16 pci_enable(struct pci_dev *p, u16 bits);
/* Config offset of the first capability with this id, or 0. */
u8 pci_find_cap(const struct pci_dev *p, u8 id);

/* A function's MSI-X table (PCI 3.0 6.8.2), mapped from its BAR. */
struct pci_msix {
	struct pci_dev *pdev;
	u8 cap;				/* config offset of the capability */
	u16 nr_entries;			/* table size */
	volatile u32 *table;		/* nr_entries x 16 bytes, uncached */
};
/* Find the MSI-X capability and map its table (memory decoding turned on),
 * every entry masked, MSI-X still off. 0, -ENODEV (no capability or no
 * table BAR) or -ENOMEM. Boot (ioremap). */
int pci_msix_init(struct pci_dev *p, struct pci_msix *m);
/* Point entry at the local APIC whose id is apic_id, with vector, and unmask
 * it (masked while it is rewritten). -EINVAL for an entry past the table. */
int pci_msix_set_entry(struct pci_msix *m, u16 entry, u32 apic_id, u8 vector);
/* Read back entry's message: its destination APIC id and vector, and
 * whether it is masked (tests). -EINVAL past the table. */
int pci_msix_get_entry(const struct pci_msix *m, u16 entry, u32 *apic_id, u8 *vector,
		       bool *masked);
/* MSI-X on (INTx disabled, function mask off) or off (INTx back). */
void pci_msix_enable(struct pci_msix *m, bool on);

/* The index-th function found (0-based), or NULL. */
struct pci_dev *pci_get(int index);
/* The index-th function with this vendor:device, or NULL. */
struct pci_dev *pci_find(u16 vendor, u16 device, int index);
int pci_count(void);

#endif
