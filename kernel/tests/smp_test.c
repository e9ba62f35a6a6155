/* smp_test.c: the "smp" suite: CPU discovery (ACPI MADT, MP table) and the
 * start of the other CPUs, checked against the CPU count the testplan booted
 * QEMU with (smp_expect=N); the per-CPU segment on each CPU; call-function
 * IPIs; a lock torture on every CPU at once (Linux's locktorture idea). */
#include "acpi.h"
#include "clock.h"
#include "cmdline.h"
#include "gdt.h"
#include "ktest.h"
#include "smp.h"
#include "spinlock.h"
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

/* Every listed CPU came up and said so itself: its number as read through
 * its own GDT (sgdt), its APIC id as its own local APIC gives it. */
static void every_cpu_reported_in(struct ktest *t)
{
	ASSERT_EQ(t, nr_cpus_online, cpu_topology.nr_cpus);
	for (u32 i = 0; i < nr_cpus_online; i++) {
		const struct cpu *c = &cpus[i];
		EXPECT_EQ(t, __atomic_load_n(&c->online, __ATOMIC_ACQUIRE), 1);
		EXPECT_TRUE(t, c->self == c);
		EXPECT_EQ(t, c->id, i);
		EXPECT_EQ(t, c->seen_id, i);
		EXPECT_EQ(t, c->seen_apic_id, c->apic_id);
		EXPECT_TRUE(t, topo_has_apic(&cpu_topology, c->apic_id));
		for (u32 j = 0; j < i; j++)
			EXPECT_NE(t, cpus[j].seen_apic_id, c->seen_apic_id);
	}
}

/* The APs sit in hlt with interrupts off: over 20 ms their idle loops do
 * not turn (a loop that spun instead of halting would count thousands).
 * QEMU may end an AP's first hlt once (the second start-up IPI). */
static void aps_stay_halted(struct ktest *t)
{
	u32 before[NR_CPUS];

	for (u32 i = 1; i < nr_cpus_online; i++) {
		EXPECT_NE(t, cpus[i].idle_stack_top, 0);
		before[i] = __atomic_load_n(&cpus[i].idle_halts, __ATOMIC_RELAXED);
		EXPECT_LE(t, before[i], 2);
	}
	udelay(20000);
	for (u32 i = 1; i < nr_cpus_online; i++)
		EXPECT_EQ(t, __atomic_load_n(&cpus[i].idle_halts, __ATOMIC_RELAXED), before[i]);
}

/* The boot CPU runs on CPU 0's GDT (the suites run after interrupts and
 * task switches), and its lookup needs no segment register. */
static void boot_cpu_percpu_lookup(struct ktest *t)
{
	struct dtr d;

	asm volatile("sgdt %0" : "=m"(d));
	EXPECT_EQ(t, d.base, cpu_gdt_first);
	EXPECT_EQ(t, smp_processor_id(), 0);
	EXPECT_TRUE(t, this_cpu() == &cpus[0]);
}

static u32 call_hits[NR_CPUS];
static u32 call_irq_off[NR_CPUS];

static void record_call(void *arg)
{
	u32 me = smp_processor_id();

	call_hits[me] += (u32)arg;
	call_irq_off[me] += !(read_eflags() & EFLAGS_IF);
}

/* smp_call_function runs the function once on each other CPU, in its IPI
 * handler (interrupts off), and what it wrote is visible on return. */
static void call_function_reaches_every_ap(struct ktest *t)
{
	memset(call_hits, 0, sizeof(call_hits));
	memset(call_irq_off, 0, sizeof(call_irq_off));
	for (u32 round = 1; round <= 3; round++) {
		smp_call_function_start(record_call, (void *)round);
		smp_call_function_wait();
	}
	EXPECT_EQ(t, call_hits[0], 0);		/* not the caller */
	for (u32 i = 1; i < nr_cpus_online; i++) {
		EXPECT_EQ(t, call_hits[i], 1 + 2 + 3);
		EXPECT_EQ(t, call_irq_off[i], 3);
	}
	memset(call_hits, 0, sizeof(call_hits));
	on_each_cpu(record_call, (void *)1);
	for (u32 i = 0; i < nr_cpus_online; i++)
		EXPECT_EQ(t, call_hits[i], 1);
}

#define TORTURE_ROUNDS	1000	/* per CPU, unless the time budget ends first */
#define TORTURE_MEETINGS 64	/* ... and more until the CPUs met this often */
#define TORTURE_BUDGET_MS 10000	/* a loaded host slows ticket hand-offs a lot */
#define TORTURE_NOBODY	0xFFFFFFFFu

static struct torture {
	spinlock_t lock;
	volatile u32 holder;	/* under lock: the CPU inside, TORTURE_NOBODY */
	u32 counter;		/* under lock: incremented non-atomically */
	u32 violations;		/* atomic: someone else was inside */
	u32 contended;		/* atomic: the lock was held when we came */
	u32 rounds[NR_CPUS];	/* per CPU, its own slot */
	u64 deadline_tsc;	/* set before the start: stop taking rounds */
	u32 arrived;		/* atomic: CPUs at the start line */
} torture = { .lock = SPINLOCK_INIT("torture.lock") };

/* xorshift32: the hold and pause times. */
static u32 torture_random(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void torture_spin(u32 n)
{
	while (n--)
		cpu_relax();
}

/* One CPU's part: take the lock, check nobody else is inside, make a slow
 * read-modify-write of the counter with a random hold time, leave. */
static void torture_run(void *arg)
{
	u32 me = smp_processor_id(), seed = 0x9E3779B9u * (me + 1);

	/* all start together: a CPU done before the next one is scheduled
	 * would meet nobody */
	__atomic_fetch_add(&torture.arrived, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&torture.arrived, __ATOMIC_ACQUIRE) < nr_cpus_online &&
	       rdtsc() < torture.deadline_tsc)
		cpu_relax();
	/* On a loaded host a vCPU may get its host thread only after the others
	 * are done: go on past TORTURE_ROUNDS until the CPUs really met. */
	for (u32 i = 0; (i < TORTURE_ROUNDS ||
			 __atomic_load_n(&torture.contended, __ATOMIC_RELAXED) < TORTURE_MEETINGS) &&
			rdtsc() < torture.deadline_tsc; i++) {
		if (spin_is_locked(&torture.lock))
			__atomic_fetch_add(&torture.contended, 1, __ATOMIC_RELAXED);
		spin_lock(&torture.lock);
		if (torture.holder != TORTURE_NOBODY)
			__atomic_fetch_add(&torture.violations, 1, __ATOMIC_RELAXED);
		torture.holder = me;
		u32 c = torture.counter;
		torture_spin(torture_random(&seed) & 15);
		torture.counter = c + 1;
		if (torture.holder != me)
			__atomic_fetch_add(&torture.violations, 1, __ATOMIC_RELAXED);
		torture.holder = TORTURE_NOBODY;
		spin_unlock(&torture.lock);
		torture.rounds[me]++;
		torture_spin(torture_random(&seed) & 7);
	}
}

/* Every CPU at once on one ticket lock: mutual exclusion holds (no CPU finds
 * another inside, no increment is lost), every CPU takes part, and the CPUs
 * really met (the lock was found taken). */
static void lock_torture_all_cpus(struct ktest *t)
{
	u64 start = ktime_get_ns();
	u32 total = 0;

	torture.holder = TORTURE_NOBODY;
	torture.arrived = 0;
	torture.deadline_tsc = rdtsc() + (u64)TORTURE_BUDGET_MS * tsc_khz;
	on_each_cpu(torture_run, NULL);
	for (u32 i = 0; i < nr_cpus_online; i++) {
		EXPECT_GE(t, torture.rounds[i], 1);
		total += torture.rounds[i];
	}
	ktest_log("%u CPUs, %u rounds (%u each, more until it was found taken %u times) in %llu ms, "
		  "lock found taken %u times", nr_cpus_online, total, TORTURE_ROUNDS, TORTURE_MEETINGS, (ktime_get_ns() - start) / 1000000,
		  torture.contended);
	EXPECT_EQ(t, torture.violations, 0);
	EXPECT_EQ(t, torture.counter, total);
	if (nr_cpus_online > 1)
		EXPECT_GE(t, torture.contended, 1);
	EXPECT_FALSE(t, spin_is_locked(&torture.lock));
	EXPECT_EQ(t, spinlocks_held, 0);
}

static const struct ktest_case smp_cases[] = {
	KTEST_CASE(discovery_counts_every_cpu),
	KTEST_CASE(apic_ids_distinct),
	KTEST_CASE(ioapic_found),
	KTEST_CASE(mptable_agrees_with_madt),
	KTEST_CASE(every_cpu_reported_in),
	KTEST_CASE(aps_stay_halted),
	KTEST_CASE(boot_cpu_percpu_lookup),
	KTEST_CASE(call_function_reaches_every_ap),
	KTEST_CASE(lock_torture_all_cpus),
};

KTEST_SUITE(smp_suite, "smp", smp_cases, .explicit_only = true);
