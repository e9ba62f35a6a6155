/* smp_test.c: the "smp" suite: CPU discovery (ACPI MADT, MP table) checked
 * against the CPU count the testplan booted QEMU with (smp_expect=N). */
#include "acpi.h"
#include "cmdline.h"
#include "ktest.h"
#include "string.h"
#include "x86.h"

#define LAPIC_ARCH_ADDR	0xFEE00000u

static bool topo_has_apic(const struct cpu_topology *t, u8 id)
{
	for (u32 i = 0; i < t->nr_cpus; i++)
		if (t->apic_id[i] == id)
			return true;
	return false;
}

static void discovery_counts_every_cpu(struct ktest *t)
{
	u32 expect = cmdline_get_num(&boot_cmdline, "smp_expect", 0);

	ASSERT_TRUE(t, expect > 0);		/* the testplan says how many */
	EXPECT_EQ(t, cpu_topology.nr_cpus, expect);
	EXPECT_EQ(t, cpu_topology.nr_skipped, 0);
	EXPECT_EQ(t, cpu_topology.lapic_phys, LAPIC_ARCH_ADDR);
	EXPECT_TRUE(t, topo_has_apic(&cpu_topology, CPUID_EBX_APIC_ID(cpuid_ebx(1))));
}

static void apic_ids_distinct(struct ktest *t)
{
	for (u32 i = 0; i < cpu_topology.nr_cpus; i++)
		for (u32 j = i + 1; j < cpu_topology.nr_cpus; j++)
			EXPECT_NE(t, cpu_topology.apic_id[i], cpu_topology.apic_id[j]);
}

/* QEMU's pc machine has one I/O APIC at its architectural address. */
static void ioapic_found(struct ktest *t)
{
	struct cpu_topology madt;

	ASSERT_EQ(t, acpi_madt_parse(&madt), 0);
	EXPECT_EQ(t, madt.nr_ioapics, 1);
	EXPECT_EQ(t, madt.ioapic_phys, 0xFEC00000u);
	EXPECT_EQ(t, madt.ioapic_gsi_base, 0);
	EXPECT_GE(t, madt.nr_overrides, 1);	/* at least IRQ0 -> GSI 2 */
}

/* The fallback parser sees the same machine: SeaBIOS's MP table names the
 * same local and I/O APICs and only CPUs the MADT lists (it may list fewer:
 * SeaBIOS writes in the CPUs it found itself). */
static void mptable_agrees_with_madt(struct ktest *t)
{
	struct cpu_topology madt, mp;

	ASSERT_EQ(t, acpi_madt_parse(&madt), 0);
	ASSERT_EQ(t, mptable_parse(&mp), 0);
	EXPECT_STREQ(t, mp.source, "MP table");
	EXPECT_EQ(t, mp.lapic_phys, madt.lapic_phys);
	EXPECT_EQ(t, mp.ioapic_phys, madt.ioapic_phys);
	EXPECT_GE(t, mp.nr_cpus, 1);
	for (u32 i = 0; i < mp.nr_cpus; i++)
		EXPECT_TRUE(t, topo_has_apic(&madt, mp.apic_id[i]));
}

static const struct ktest_case smp_cases[] = {
	KTEST_CASE(discovery_counts_every_cpu),
	KTEST_CASE(apic_ids_distinct),
	KTEST_CASE(ioapic_found),
	KTEST_CASE(mptable_agrees_with_madt),
};

KTEST_SUITE(smp_suite, "smp", smp_cases, .explicit_only = true);
