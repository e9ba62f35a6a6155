/* acpi.c: CPU discovery: the ACPI MADT (through the RSDP and the RSDT) and, as a
 * fallback, the Intel MP table; what the local and I/O APICs are and where. */
#include "acpi.h"
#include "cmdline.h"
#include "errno.h"
#include "paging.h"
#include "printk.h"
#include "string.h"

#define BDA_EBDA_SEG	0x40E		/* BIOS data area: EBDA segment (u16) */
#define BIOS_ROM_START	0xE0000		/* RSDP search area, ACPI 5.2.5.1 */
#define MP_ROM_START	0xF0000		/* MP floating pointer search area */
#define BIOS_ROM_END	0x100000
#define BASE_MEM_TOP	0xA0000		/* last KiB of base memory: MP search */
#define LAPIC_DEFAULT	0xFEE00000	/* the architectural local APIC address */

#define MADT_LAPIC	0		/* processor local APIC */
#define MADT_IOAPIC	1
#define MADT_OVERRIDE	2		/* interrupt source override */
#define MADT_LAPIC_ADDR	5		/* 64-bit local APIC address override */
#define MADT_ENABLED	0x1		/* processor flags: usable */
#define MP_PROCESSOR	0		/* MP table entry types */
#define MP_BUS		1
#define MP_IOAPIC	2
#define MP_INTSRC	3		/* I/O interrupt assignment */
#define MP_INT_VECTORED	0		/* an INT, the I/O APIC supplies the vector */
#define MP_NO_BUS	0xFF
#define MP_CPU_ENABLED	0x1

struct acpi_rsdp {
	char sig[8];			/* "RSD PTR " */
	u8 checksum;			/* over the first 20 bytes */
	char oem[6];
	u8 revision;
	u32 rsdt;
} __packed;

struct acpi_header {
	char sig[4];
	u32 length;			/* of the whole table, header included */
	u8 revision, checksum;
	char oem[6], oem_table[8];
	u32 oem_rev, creator, creator_rev;
} __packed;

struct mp_floating {
	char sig[4];			/* "_MP_" */
	u32 config;			/* physical address of the "PCMP" table */
	u8 length, revision, checksum, feature[5];
} __packed;

struct mp_config {
	char sig[4];			/* "PCMP" */
	u16 length;
	u8 revision, checksum;
	char oem[8], product[12];
	u32 oem_table;
	u16 oem_size, count;
	u32 lapic;
	u16 ext_length;
	u8 ext_checksum, reserved;
} __packed;

struct cpu_topology cpu_topology;

static u8 checksum(const void *p, u32 len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum += *b++;
	return sum;
}

/* A table of len bytes at physical phys, readable (cached), or NULL. */
static const void *fw_map(u32 phys, u32 len)
{
	return phys ? ioremap_flags(phys, len, false) : NULL;
}

/* A len-byte structure starting with sig, on 16-byte boundaries in
 * [start, end) of the first MiB, whose first sum_len bytes sum to 0. */
static const void *fw_scan(u32 start, u32 end, const char *sig, u32 len, u32 sum_len)
{
	for (u32 pa = ALIGN_UP(start, 16); pa + len <= end; pa += 16) {
		const char *p = __va(pa);
		if (!memcmp(p, sig, strlen(sig)) && !checksum(p, sum_len))
			return p;
	}
	return NULL;
}

static u32 ebda_base(void)
{
	return (u32)*(const u16 *)__va(BDA_EBDA_SEG) << 4;
}

/* Add a CPU by local APIC id; counts the ones that do not fit or are off. */
static void topo_add_cpu(struct cpu_topology *t, u8 apic_id, bool enabled)
{
	if (!enabled || t->nr_cpus == NR_CPUS) {
		t->nr_skipped++;
		return;
	}
	t->apic_id[t->nr_cpus++] = apic_id;
}

static void topo_add_ioapic(struct cpu_topology *t, u8 id, u32 phys, u32 gsi_base)
{
	if (!t->nr_ioapics++) {
		t->ioapic_id = id;
		t->ioapic_phys = phys;
		t->ioapic_gsi_base = gsi_base;
	}
}

static const struct acpi_rsdp *acpi_find_rsdp(void)
{
	const struct acpi_rsdp *r = NULL;
	u32 ebda = ebda_base();

	if (ebda >= 0x80000 && ebda < BASE_MEM_TOP)
		r = fw_scan(ebda, ebda + 1024, "RSD PTR ", sizeof(*r), 20);
	return r ? r : fw_scan(BIOS_ROM_START, BIOS_ROM_END, "RSD PTR ", sizeof(*r), 20);
}

/* The whole table at phys when its length is sane and its checksum holds. */
static const struct acpi_header *acpi_map_table(u32 phys)
{
	const struct acpi_header *h = fw_map(phys, sizeof(*h));

	if (!h || h->length < sizeof(*h) || h->length > (1u << 20))
		return NULL;
	h = fw_map(phys, h->length);
	return h && !checksum(h, h->length) ? h : NULL;
}

/* The RSDT entry whose signature is sig, or NULL. */
static const struct acpi_header *acpi_find_table(const struct acpi_header *rsdt, const char *sig)
{
	const u32 *entry = (const u32 *)(rsdt + 1);
	u32 n = (rsdt->length - sizeof(*rsdt)) / 4;

	for (u32 i = 0; i < n; i++) {
		const struct acpi_header *h = fw_map(entry[i], sizeof(*h));
		if (h && !memcmp(h->sig, sig, 4))
			return acpi_map_table(entry[i]);
	}
	return NULL;
}

/* The firmware says ISA IRQ irq arrives at GSI gsi with INTI flags. */
static void topo_add_override(struct cpu_topology *t, u8 irq, u32 gsi, u16 flags)
{
	if (irq >= NR_ISA_IRQS)
		return;
	t->isa_irq[irq] = (struct isa_irq_route){ gsi, flags, true };
	t->nr_overrides++;
}

/* Every ISA IRQ identity-mapped until an override says otherwise. */
static void topo_reset(struct cpu_topology *t, const char *source)
{
	memset(t, 0, sizeof(*t));
	t->source = source;
	t->mp_isa_bus = MP_NO_BUS;
	for (u32 i = 0; i < NR_ISA_IRQS; i++)
		t->isa_irq[i].gsi = i;
}

/* One MADT entry (type, length, then the type's fields) into t. */
static void madt_entry(struct cpu_topology *t, const u8 *e)
{
	switch (e[0]) {
	case MADT_LAPIC:		/* acpi id, apic id, flags (u32) */
		topo_add_cpu(t, e[3], *(const u32 *)(e + 4) & MADT_ENABLED);
		break;
	case MADT_IOAPIC:		/* id, reserved, address, GSI base */
		topo_add_ioapic(t, e[2], *(const u32 *)(e + 4), *(const u32 *)(e + 8));
		break;
	case MADT_OVERRIDE:		/* bus (0: ISA), source IRQ, GSI, flags (u16) */
		if (e[1] >= 10 && e[2] == 0)
			topo_add_override(t, e[3], *(const u32 *)(e + 4), *(const u16 *)(e + 8));
		break;
	case MADT_LAPIC_ADDR:		/* reserved (u16), address (u64) */
		if (!*(const u32 *)(e + 8))
			t->lapic_phys = *(const u32 *)(e + 4);
		break;
	}
}

int acpi_madt_parse(struct cpu_topology *t)
{
	const struct acpi_rsdp *rsdp = acpi_find_rsdp();
	const struct acpi_header *rsdt, *madt;
	const u8 *e, *end;

	if (!rsdp)
		return -ENODEV;
	rsdt = acpi_map_table(rsdp->rsdt);
	if (!rsdt || memcmp(rsdt->sig, "RSDT", 4))
		return -EINVAL;
	madt = acpi_find_table(rsdt, "APIC");
	if (!madt || madt->length < sizeof(*madt) + 8)
		return -ENODEV;
	topo_reset(t, "ACPI MADT");
	t->lapic_phys = *(const u32 *)(madt + 1);
	end = (const u8 *)madt + madt->length;
	for (e = (const u8 *)(madt + 1) + 8; e + 2 <= end && e[1] >= 2 && e + e[1] <= end; e += e[1])
		madt_entry(t, e);
	return t->nr_cpus ? 0 : -EINVAL;
}

static const struct mp_floating *mp_find_floating(void)
{
	const struct mp_floating *f = NULL;
	u32 ebda = ebda_base();

	if (ebda >= 0x80000 && ebda < BASE_MEM_TOP)
		f = fw_scan(ebda, ebda + 1024, "_MP_", sizeof(*f), sizeof(*f));
	if (!f)
		f = fw_scan(BASE_MEM_TOP - 1024, BASE_MEM_TOP, "_MP_", sizeof(*f), sizeof(*f));
	return f ? f : fw_scan(MP_ROM_START, BIOS_ROM_END, "_MP_", sizeof(*f), sizeof(*f));
}

/* An MP interrupt entry (type, INT type, flags u16, source bus, source IRQ,
 * destination I/O APIC, pin): an ISA IRQ that does not arrive at its own pin
 * or has flags is recorded as an override, as the MADT would list it. */
static void mp_intsrc(struct cpu_topology *t, const u8 *e)
{
	u16 flags = *(const u16 *)(e + 2);

	if (e[1] != MP_INT_VECTORED || e[4] != t->mp_isa_bus || e[4] == MP_NO_BUS)
		return;
	if (e[7] != e[5] || flags)
		topo_add_override(t, e[5], e[7], flags);
}

/* Entries: a processor is 20 bytes, every other type 8. */
static int mp_entries(struct cpu_topology *t, const struct mp_config *c)
{
	const u8 *e = (const u8 *)(c + 1), *end = (const u8 *)c + c->length;

	for (u32 i = 0; i < c->count; i++) {
		u32 len = e[0] == MP_PROCESSOR ? 20 : 8;
		if (e + len > end)
			return -EINVAL;
		if (e[0] == MP_PROCESSOR)	/* apic id, version, flags */
			topo_add_cpu(t, e[1], e[3] & MP_CPU_ENABLED);
		else if (e[0] == MP_IOAPIC && (e[3] & MP_CPU_ENABLED))
			topo_add_ioapic(t, e[1], *(const u32 *)(e + 4), 0);
		else if (e[0] == MP_BUS && !memcmp(e + 2, "ISA", 3))	/* id, "ISA   " */
			t->mp_isa_bus = e[1];
		else if (e[0] == MP_INTSRC)
			mp_intsrc(t, e);
		e += len;
	}
	return 0;
}

int mptable_parse(struct cpu_topology *t)
{
	const struct mp_floating *f = mp_find_floating();
	const struct mp_config *c;

	if (!f || !f->config)		/* a default configuration: not supported */
		return -ENODEV;
	c = fw_map(f->config, sizeof(*c));
	if (!c || memcmp(c->sig, "PCMP", 4) || c->length < sizeof(*c))
		return -EINVAL;
	c = fw_map(f->config, c->length);
	if (!c || checksum(c, c->length))
		return -EINVAL;
	topo_reset(t, "MP table");
	t->lapic_phys = c->lapic;
	if (mp_entries(t, c))
		return -EINVAL;
	return t->nr_cpus ? 0 : -EINVAL;
}

static void cpu_topology_show(const struct cpu_topology *t)
{
	char io[80] = "";

	if (t->nr_ioapics)
		snprintf(io, sizeof(io), " (id %u at %08x, GSI %u), %u ISA override%s", t->ioapic_id,
			 t->ioapic_phys, t->ioapic_gsi_base, t->nr_overrides,
			 t->nr_overrides == 1 ? "" : "s");
	printk("smp: %u CPU%s from the %s (%u skipped), local APIC at %08x, %u I/O APIC%s%s\n",
	       t->nr_cpus, t->nr_cpus == 1 ? "" : "s", t->source, t->nr_skipped, t->lapic_phys,
	       t->nr_ioapics, t->nr_ioapics == 1 ? "" : "s", io);
}

void cpu_discover(void)
{
	struct cpu_topology *t = &cpu_topology;
	const char *acpi = cmdline_get(&boot_cmdline, "acpi");

	if ((acpi && !strcmp(acpi, "off")) || acpi_madt_parse(t)) {
		if (mptable_parse(t)) {
			topo_reset(t, "none");
			t->nr_cpus = 1;	/* the boot CPU; its id is read from its APIC */
			t->lapic_phys = LAPIC_DEFAULT;
		}
	}
	cpu_topology_show(t);
}
