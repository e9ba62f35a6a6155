/* pci.c: PCI bus 0 enumeration by configuration mechanism #1, BAR sizing, driver
 * binding, capabilities and MSI-X tables.
 *
 * Only bus 0 is scanned (QEMU's `pc` machine has nothing behind bridges).
 * Interrupts: INTx is level-triggered and may be shared; drivers register
 * their handler on pdev->irq_line with irq_register() and must check their own
 * device's status first. The line is the firmware's interrupt line register
 * (i440FX/PIIX3 PIRQ routing onto ISA IRQs; no _PRT without AML), routed
 * level-triggered by the I/O APIC when it is in use. Config-space accesses take pci_lock with interrupts
 * off, because the address/data port pair is one global resource.
 */
#include "pci.h"
#include "errno.h"
#include "ioapic.h"
#include "paging.h"
#include "printk.h"
#include "spinlock.h"
#include "x86.h"

#define PCI_CONFIG_ADDRESS	0xCF8	/* mechanism #1 address port */
#define PCI_CONFIG_DATA		0xCFC	/* mechanism #1 data port (4 bytes) */
#define PCI_CONFIG_ENABLE	0x80000000u	/* address bit 31: configuration cycle */
#define PCI_SLOTS		32	/* devices per bus */
#define PCI_FUNCS		8	/* functions per device */

static DEFINE_SPINLOCK(pci_lock);
static struct pci_dev pci_devs[PCI_MAX_DEVICES];
static int pci_nr_devs;
static struct pci_driver *pci_drivers;

static u32 pci_addr(u8 bus, u8 dev, u8 fn, u8 off)
{
	return PCI_CONFIG_ENABLE | (u32)bus << 16 | (u32)dev << 11 | (u32)fn << 8 | (off & 0xFC);
}

u32 pci_conf_read32(u8 bus, u8 dev, u8 fn, u8 off)
{
	u32 flags, v;

	spin_lock_irqsave(&pci_lock, flags);
	outl(PCI_CONFIG_ADDRESS, pci_addr(bus, dev, fn, off));
	v = inl(PCI_CONFIG_DATA);
	spin_unlock_irqrestore(&pci_lock, flags);
	return v;
}

static void pci_conf_write32(u8 bus, u8 dev, u8 fn, u8 off, u32 v)
{
	u32 flags;

	spin_lock_irqsave(&pci_lock, flags);
	outl(PCI_CONFIG_ADDRESS, pci_addr(bus, dev, fn, off));
	outl(PCI_CONFIG_DATA, v);
	spin_unlock_irqrestore(&pci_lock, flags);
}

u32 pci_read32(const struct pci_dev *p, u8 off)
{
	return pci_conf_read32(p->bus, p->dev, p->fn, off);
}

u16 pci_read16(const struct pci_dev *p, u8 off)
{
	return pci_read32(p, off) >> ((off & 2) * 8);
}

u8 pci_read8(const struct pci_dev *p, u8 off)
{
	return pci_read32(p, off) >> ((off & 3) * 8);
}

void pci_write32(const struct pci_dev *p, u8 off, u32 v)
{
	pci_conf_write32(p->bus, p->dev, p->fn, off, v);
}

/* 16-bit write through the data port's byte lanes (0xCFC + 2 for the upper
 * half): no read-modify-write, so STATUS's write-1-to-clear bits next to
 * COMMAND are never written back by accident. */
void pci_write16(const struct pci_dev *p, u8 off, u16 v)
{
	u32 flags;

	spin_lock_irqsave(&pci_lock, flags);
	outl(PCI_CONFIG_ADDRESS, pci_addr(p->bus, p->dev, p->fn, off));
	outw(PCI_CONFIG_DATA + (off & 2), v);
	spin_unlock_irqrestore(&pci_lock, flags);
}

u16 pci_enable(struct pci_dev *p, u16 bits)
{
	u16 cmd = pci_read16(p, PCI_COMMAND);

	cmd = (cmd | bits) & ~PCI_COMMAND_INTX_OFF;
	pci_write16(p, PCI_COMMAND, cmd);
	return pci_read16(p, PCI_COMMAND);
}

u8 pci_find_cap(const struct pci_dev *p, u8 id)
{
	u8 off;

	if (!(pci_read16(p, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	off = pci_read8(p, PCI_CAP_PTR) & ~3;
	for (int n = 0; off >= 0x40 && n < 48; n++) {	/* 48: a looped list ends */
		if (pci_read8(p, off) == id)
			return off;
		off = pci_read8(p, off + 1) & ~3;
	}
	return 0;
}

static volatile u32 *msix_entry(const struct pci_msix *m, u16 entry)
{
	return m->table + entry * (PCI_MSIX_ENTRY_SIZE / 4);
}

int pci_msix_init(struct pci_dev *p, struct pci_msix *m)
{
	u8 cap = pci_find_cap(p, PCI_CAP_ID_MSIX);
	u32 table, bir;
	struct pci_bar *b;

	if (!cap)
		return -ENODEV;
	table = pci_read32(p, cap + PCI_MSIX_TABLE);
	bir = table & 7;
	b = bir < PCI_NR_BARS ? &p->bar[bir] : NULL;
	m->pdev = p;
	m->cap = cap;
	m->nr_entries = (pci_read16(p, cap + PCI_MSIX_CTRL) & PCI_MSIX_CTRL_SIZE) + 1;
	if (!b || b->io || !b->base || (table & ~7u) + m->nr_entries * PCI_MSIX_ENTRY_SIZE > b->size)
		return -ENODEV;
	m->table = ioremap(b->base + (table & ~7u), m->nr_entries * PCI_MSIX_ENTRY_SIZE);
	if (!m->table)
		return -ENOMEM;
	pci_enable(p, PCI_COMMAND_MEMORY);
	for (u16 i = 0; i < m->nr_entries; i++)
		msix_entry(m, i)[3] |= PCI_MSIX_ENTRY_MASKED;
	return 0;
}

int pci_msix_set_entry(struct pci_msix *m, u16 entry, u32 apic_id, u8 vector)
{
	volatile u32 *e;

	if (entry >= m->nr_entries)
		return -EINVAL;
	e = msix_entry(m, entry);
	e[3] |= PCI_MSIX_ENTRY_MASKED;
	e[0] = MSI_ADDR_BASE | (apic_id & 0xFF) << MSI_ADDR_DEST_SHIFT;	/* physical, no hint */
	e[1] = 0;
	e[2] = vector;				/* fixed delivery, edge */
	e[3] &= ~PCI_MSIX_ENTRY_MASKED;
	return 0;
}

int pci_msix_get_entry(const struct pci_msix *m, u16 entry, u32 *apic_id, u8 *vector,
		       bool *masked)
{
	volatile u32 *e;

	if (entry >= m->nr_entries)
		return -EINVAL;
	e = msix_entry(m, entry);
	*apic_id = (e[0] >> MSI_ADDR_DEST_SHIFT) & 0xFF;
	*vector = e[2] & 0xFF;
	*masked = e[3] & PCI_MSIX_ENTRY_MASKED;
	return 0;
}

void pci_msix_enable(struct pci_msix *m, bool on)
{
	u16 ctrl = pci_read16(m->pdev, m->cap + PCI_MSIX_CTRL) & ~PCI_MSIX_CTRL_MASKALL;
	u16 cmd = pci_read16(m->pdev, PCI_COMMAND);

	pci_write16(m->pdev, PCI_COMMAND, on ? cmd | PCI_COMMAND_INTX_OFF : cmd & ~PCI_COMMAND_INTX_OFF);
	pci_write16(m->pdev, m->cap + PCI_MSIX_CTRL,
		    on ? ctrl | PCI_MSIX_CTRL_ENABLE : ctrl & ~PCI_MSIX_CTRL_ENABLE);
}

/* Size one BAR by writing all-ones with decoding off; returns slots used (1 or 2). */
static int pci_size_bar(struct pci_dev *p, int i)
{
	u8 off = PCI_BAR0 + 4 * i;
	u32 orig = pci_read32(p, off), mask;
	struct pci_bar *b = &p->bar[i];

	pci_write32(p, off, 0xFFFFFFFF);
	mask = pci_read32(p, off);
	pci_write32(p, off, orig);
	if (!mask || mask == 0xFFFFFFFF)
		return 1;			/* unimplemented BAR */
	b->io = orig & PCI_BAR_IO;
	if (b->io) {
		b->base = orig & ~3u;
		b->size = ~(mask & ~3u) + 1;
		b->size &= 0xFFFF;		/* I/O decodes at most 16 address bits */
		return 1;
	}
	b->base = orig & ~15u;
	b->size = ~(mask & ~15u) + 1;
	b->prefetch = orig & PCI_BAR_PREFETCH;
	b->is64 = (orig & 6) == PCI_BAR_MEM_TYPE_64;
	return b->is64 ? 2 : 1;
}

static void pci_read_bars(struct pci_dev *p)
{
	u16 cmd = pci_read16(p, PCI_COMMAND);
	int nbars = (p->header_type & 0x7F) == 0 ? PCI_NR_BARS : 2;

	/* Decoding off while a BAR holds all-ones, so it cannot claim a range. */
	pci_write16(p, PCI_COMMAND, cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	for (int i = 0; i < nbars; )
		i += pci_size_bar(p, i);
	pci_write16(p, PCI_COMMAND, cmd);
}

static void pci_print(const struct pci_dev *p)
{
	char bars[96];
	int n = 0;

	bars[0] = 0;
	for (int i = 0; i < PCI_NR_BARS; i++)
		if (p->bar[i].size && n < (int)sizeof(bars))
			n += snprintf(bars + n, sizeof(bars) - n, " bar%d=%s:%x/%x", i,
				      p->bar[i].io ? "io" : "mem", p->bar[i].base, p->bar[i].size);
	printk("pci %02x:%02x.%u %04x:%04x class %02x.%02x.%02x irq %d%s\n",
	       p->bus, p->dev, p->fn, p->vendor, p->device, p->class, p->subclass,
	       p->prog_if, p->irq_pin ? p->irq_line : -1, bars);
}

static void pci_add(u8 bus, u8 dev, u8 fn)
{
	struct pci_dev *p;

	if (pci_nr_devs == PCI_MAX_DEVICES) {
		pr_warn("pci: more than %d functions, %02x:%02x.%u ignored\n",
			PCI_MAX_DEVICES, bus, dev, fn);
		return;
	}
	p = &pci_devs[pci_nr_devs++];
	p->bus = bus; p->dev = dev; p->fn = fn;
	p->vendor = pci_read16(p, PCI_VENDOR_ID);
	p->device = pci_read16(p, PCI_DEVICE_ID);
	p->revision = pci_read8(p, PCI_REVISION);
	p->prog_if = pci_read8(p, PCI_PROG_IF);
	p->subclass = pci_read8(p, PCI_SUBCLASS);
	p->class = pci_read8(p, PCI_CLASS);
	p->header_type = pci_read8(p, PCI_HEADER_TYPE);
	p->subsys_vendor = pci_read16(p, PCI_SUBSYS_VENDOR);
	p->subsys_id = pci_read16(p, PCI_SUBSYS_ID);
	p->irq_pin = pci_read8(p, PCI_INTERRUPT_PIN);
	p->irq_line = p->irq_pin ? pci_read8(p, PCI_INTERRUPT_LINE) : 0xFF;
	if (p->irq_pin)
		ioapic_set_pci_line(p->irq_line);	/* level triggered */
	pci_read_bars(p);
	pci_print(p);
}

static void pci_scan_bus0(void)
{
	for (u8 dev = 0; dev < PCI_SLOTS; dev++) {
		u32 id = pci_conf_read32(0, dev, 0, PCI_VENDOR_ID);
		u8 nfn = 1;

		if ((id & 0xFFFF) == 0xFFFF)
			continue;
		if (pci_conf_read32(0, dev, 0, PCI_HEADER_TYPE & ~3) >> 16 & PCI_HEADER_MULTIFN)
			nfn = PCI_FUNCS;
		for (u8 fn = 0; fn < nfn; fn++)
			if ((pci_conf_read32(0, dev, fn, PCI_VENDOR_ID) & 0xFFFF) != 0xFFFF)
				pci_add(0, dev, fn);
	}
}

static bool pci_match(const struct pci_driver *drv, const struct pci_dev *p)
{
	for (const struct pci_device_id *id = drv->ids; id->vendor; id++)
		if (id->vendor == p->vendor && id->device == p->device)
			return true;
	return false;
}

/* Probe drv against every unbound device; returns how many it bound. */
static int pci_bind(struct pci_driver *drv)
{
	int bound = 0, err;

	for (int i = 0; i < pci_nr_devs; i++) {
		struct pci_dev *p = &pci_devs[i];
		if (p->driver || !pci_match(drv, p))
			continue;
		err = drv->probe(p);
		if (err) {
			pr_warn("pci %02x:%02x.%u: %s probe failed (%d)\n",
				p->bus, p->dev, p->fn, drv->name, err);
			continue;
		}
		p->driver = drv;
		bound++;
	}
	return bound;
}

int pci_register_driver(struct pci_driver *drv)
{
	if (!drv->ids || !drv->probe)
		return -EINVAL;
	drv->next = pci_drivers;
	pci_drivers = drv;
	return pci_bind(drv);
}

void pci_init(void)
{
	pci_scan_bus0();
	for (struct pci_driver *drv = pci_drivers; drv; drv = drv->next)
		pci_bind(drv);
}

struct pci_dev *pci_get(int index)
{
	return index >= 0 && index < pci_nr_devs ? &pci_devs[index] : NULL;
}

struct pci_dev *pci_find(u16 vendor, u16 device, int index)
{
	for (int i = 0; i < pci_nr_devs; i++)
		if (pci_devs[i].vendor == vendor && pci_devs[i].device == device && index-- == 0)
			return &pci_devs[i];
	return NULL;
}

int pci_count(void)
{
	return pci_nr_devs;
}
