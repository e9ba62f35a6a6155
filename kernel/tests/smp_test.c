/* smp_test.c: the "smp" suite: CPU discovery (ACPI MADT, MP table) and the
 * start of the other CPUs, checked against the CPU count the testplan booted
 * QEMU with (smp_expect=N); the per-CPU segment on each CPU; call-function
 * IPIs; a lock torture on every CPU at once (Linux's locktorture idea);
 * per-CPU `current` and kmap_atomic slots; a synchronous kiocb completed on
 * one CPU while its owner looks on another. */
#include "acpi.h"
#include "aio.h"
#include "apic_timer.h"
#include "clock.h"
#include "cmdline.h"
#include "fixmap.h"
#include "gdt.h"
#include "highmem.h"
#include "ktest.h"
#include "mm.h"
#include "sched.h"
#include "smp.h"
#include "spinlock.h"
#include "string.h"
#include "test_hooks.h"
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

#define TICK_WINDOW_MS	200

/* Each AP halts between its local APIC timer's ticks: over 200 ms its tick
 * count moves, never faster than HZ (a bad calibration that ran it fast
 * would), not far slower (at least a tenth: a loaded host delays vCPU
 * threads) unless the idle AP stopped its tick (apic_timer.c; test_sys
 * idle_cpus_stop_ticking checks a busy AP's rate), and its idle loop turns
 * once per interrupt (a loop that spun instead of halting would count
 * thousands). */
static void aps_tick_and_halt(struct ktest *t)
{
	u32 ticks[NR_CPUS], halts[NR_CPUS];
	u64 start = ktime_get_ns(), ns;

	for (u32 i = 1; i < nr_cpus_online; i++) {
		EXPECT_NE(t, cpus[i].idle_stack_top, 0);
		ticks[i] = __atomic_load_n(&cpus[i].ticks, __ATOMIC_RELAXED);
		halts[i] = __atomic_load_n(&cpus[i].idle_halts, __ATOMIC_RELAXED);
	}
	msleep(TICK_WINDOW_MS);
	ns = ktime_get_ns() - start;
	for (u32 i = 1; i < nr_cpus_online; i++) {
		u32 dt = __atomic_load_n(&cpus[i].ticks, __ATOMIC_RELAXED) - ticks[i];
		u32 dh = __atomic_load_n(&cpus[i].idle_halts, __ATOMIC_RELAXED) - halts[i];
		u32 want = ns / TICK_NSEC;

		ktest_log("CPU %u: %u ticks, %u halts in %llu ms (HZ: %u)", i, dt, dh,
			  ns / 1000000, want);
		EXPECT_TRUE(t, dt >= want / 10 || apic_timer_tick_stopped(i));
		EXPECT_LE(t, dt, want + 2);
		EXPECT_LE(t, dh, dt + 4);
	}
	EXPECT_NE(t, apic_timer_per_tick, 0);
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
	for (u32 i = 0; i < TORTURE_ROUNDS && rdtsc() < torture.deadline_tsc; i++) {
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

#define TORTURE_TRIES	5	/* runs until the CPUs met: a loaded host may run them in turn */

/* One torture run on every CPU; the rounds it took. */
static u32 torture_once(void)
{
	u32 total = 0;

	memset(torture.rounds, 0, sizeof(torture.rounds));
	torture.holder = TORTURE_NOBODY;
	torture.arrived = 0;
	torture.deadline_tsc = rdtsc() + (u64)TORTURE_BUDGET_MS * tsc_khz;
	on_each_cpu(torture_run, NULL);
	for (u32 i = 0; i < nr_cpus_online; i++)
		total += torture.rounds[i];
	return total;
}

/* Every CPU at once on one ticket lock: mutual exclusion holds (no CPU finds
 * another inside, no increment is lost), every CPU takes part, and the CPUs
 * really met (the lock was found taken; with 4 vCPU threads on 2 busy host
 * cores a run of 21 ms can pass with the CPUs in turn: run again, up to
 * TORTURE_TRIES times, mutual exclusion checked over all of them). */
static void lock_torture_all_cpus(struct ktest *t)
{
	u64 start = ktime_get_ns();
	u32 total = 0, tries = 0;

	torture.counter = torture.contended = torture.violations = 0;
	do {
		total += torture_once();
		for (u32 i = 0; i < nr_cpus_online; i++)
			EXPECT_GE(t, torture.rounds[i], 1);
	} while (++tries < TORTURE_TRIES && nr_cpus_online > 1 && !torture.contended);
	ktest_log("%u CPUs, %u rounds in %u runs (at most %u per CPU each) in %llu ms, "
		  "lock found taken %u times", nr_cpus_online, total, tries, TORTURE_ROUNDS,
		  (ktime_get_ns() - start) / 1000000, torture.contended);
	EXPECT_EQ(t, torture.violations, 0);
	EXPECT_EQ(t, torture.counter, total);
	if (nr_cpus_online > 1)
		EXPECT_GE(t, torture.contended, 1);
	EXPECT_FALSE(t, spin_is_locked(&torture.lock));
	EXPECT_EQ(t, spinlocks_held, 0);
}

static struct task *seen_current[NR_CPUS];
static u32 seen_ti[NR_CPUS];

static void record_current(void *unused)
{
	u32 me = smp_processor_id();

	seen_current[me] = current;
	seen_ti[me] = (u32)current_thread_info();
}

/* `current` comes from esp (thread_info.h): on each AP, in its IPI handler,
 * it is that CPU's own idle task, whose stack the AP runs on; on the boot
 * CPU it is the task running the suite. */
static void current_is_per_cpu(struct ktest *t)
{
	memset(seen_current, 0, sizeof(seen_current));
	on_each_cpu(record_current, NULL);
	EXPECT_TRUE(t, seen_current[0] == current);
	for (u32 i = 1; i < nr_cpus_online; i++) {
		ASSERT_NOT_NULL(t, cpus[i].idle);
		EXPECT_TRUE(t, seen_current[i] == cpus[i].idle);
		EXPECT_TRUE(t, cpus[i].curr == cpus[i].idle);
		EXPECT_EQ(t, seen_ti[i], cpus[i].idle->kstack);
		for (u32 j = 0; j < i; j++)
			EXPECT_TRUE(t, seen_current[j] != seen_current[i]);
	}
}

#define KM_MEET_WAIT_US	2000000

static struct {
	struct page *page;
	u32 mapped;		/* atomic: CPUs holding their mapping */
	u32 va[NR_CPUS];
	u32 word[NR_CPUS];
	bool met[NR_CPUS];
} km_meet;

/* Map the page into this CPU's KM_IRQ0 slot and hold it until every CPU
 * holds its own (interrupts off, as the slot requires outside a handler). */
static void km_meet_run(void *unused)
{
	u32 me = smp_processor_id(), flags = local_irq_save();
	u32 *va = kmap_atomic(km_meet.page, KM_IRQ0);

	km_meet.va[me] = (u32)va;
	km_meet.word[me] = va[me];
	__atomic_fetch_add(&km_meet.mapped, 1, __ATOMIC_ACQ_REL);
	for (u32 us = 0; us < KM_MEET_WAIT_US; us += 10) {
		if (__atomic_load_n(&km_meet.mapped, __ATOMIC_ACQUIRE) == nr_cpus_online) {
			km_meet.met[me] = true;
			break;
		}
		udelay(10);
	}
	kunmap_atomic(va, KM_IRQ0);
	local_irq_restore(flags);
}

/* Every CPU holds a kmap_atomic of one HighMem page in the same slot type at
 * the same time: each gets its own fixmap page (CPU n's KM_IRQ0), reads the
 * page through it, and no slot is found mapped twice. */
static void kmap_atomic_slots_per_cpu(struct ktest *t)
{
	u32 *p;

	memset(&km_meet, 0, sizeof(km_meet));
	km_meet.page = alloc_page(GFP_HIGHUSER);
	ASSERT_NOT_NULL(t, km_meet.page);
	EXPECT_TRUE(t, PageHighMem(km_meet.page));
	p = kmap(km_meet.page);
	for (u32 i = 0; i < NR_CPUS; i++)
		p[i] = 0xC0DE0000 + i;
	kunmap(km_meet.page);
	on_each_cpu(km_meet_run, NULL);
	for (u32 i = 0; i < nr_cpus_online; i++) {
		EXPECT_TRUE(t, km_meet.met[i]);
		EXPECT_EQ(t, km_meet.va[i], fix_to_virt(FIX_KMAP_BEGIN + i * KM_TYPE_NR + KM_IRQ0));
		EXPECT_EQ(t, km_meet.word[i], 0xC0DE0000 + i);
		EXPECT_NULL(t, kmap_atomic_slots[i * KM_TYPE_NR + KM_IRQ0].page);
	}
	__free_page(km_meet.page);
}

/* A synchronous kiocb completed on CPU 0 while its owner, on CPU 1, looks
 * at it: the owner must not return (and free req, its stack) before the
 * completer has stopped touching req and the owner's task. The test hook
 * holds the completer between clearing ki_users and the wake-up until the
 * owner has returned or 50 ms have passed; the owner records whether it
 * returned inside that window (the bug: the wake-up then used a task that
 * may have exited). */
static struct {
	struct kiocb *volatile req;
	volatile int in_window, looking, returned, returned_in_window;
	volatile long res;
} swk;

static void sync_wake_hold(void)
{
	u64 until = rdtsc() + (u64)tsc_khz * 1000;	/* 1 s for the owner to look */

	swk.in_window = 1;
	while (!swk.looking && rdtsc() < until)
		cpu_relax();
	until = rdtsc() + (u64)tsc_khz * 50;
	while (!swk.returned && rdtsc() < until)
		cpu_relax();
	swk.in_window = 0;
}

static int sync_wake_owner(void *unused)
{
	struct kiocb req;

	init_sync_kiocb(&req, NULL);
	swk.req = &req;
	while (!swk.in_window)
		cpu_relax();
	swk.looking = 1;
	swk.res = wait_on_sync_kiocb(&req, -EIOCBQUEUED);
	swk.returned_in_window = swk.in_window;
	swk.returned = 1;
	return 0;
}

static void sync_kiocb_wake_after_owner_looks(struct ktest *t)
{
	struct task *w;
	u64 until;

	memset((void *)&swk, 0, sizeof(swk));
	w = kthread_create(sync_wake_owner, NULL, "syncwake");
	ASSERT_FALSE(t, IS_ERR(w));
	ASSERT_EQ(t, sched_set_affinity(w, 1u << 1), 0);
	wake_up_process(w);
	for (until = rdtsc() + (u64)tsc_khz * 2000; !swk.req && rdtsc() < until; )
		cpu_relax();
	ASSERT_TRUE(t, swk.req != NULL);
	sync_wake_test_hook = sync_wake_hold;
	EXPECT_TRUE(t, aio_complete(swk.req, 77, 0));	/* on CPU 0: kmain's */
	sync_wake_test_hook = NULL;
	kthread_stop(w);
	EXPECT_TRUE(t, swk.looking);
	EXPECT_EQ(t, swk.res, 77);
	EXPECT_EQ(t, swk.returned_in_window, 0);
}

static const struct ktest_case smp_cases[] = {
	KTEST_CASE(discovery_counts_every_cpu),
	KTEST_CASE(apic_ids_distinct),
	KTEST_CASE(ioapic_found),
	KTEST_CASE(mptable_agrees_with_madt),
	KTEST_CASE(every_cpu_reported_in),
	KTEST_CASE(aps_tick_and_halt),
	KTEST_CASE(boot_cpu_percpu_lookup),
	KTEST_CASE(call_function_reaches_every_ap),
	KTEST_CASE(lock_torture_all_cpus),
	KTEST_CASE(current_is_per_cpu),
	KTEST_CASE(kmap_atomic_slots_per_cpu),
	KTEST_CASE(sync_kiocb_wake_after_owner_looks),
};

KTEST_SUITE(smp_suite, "smp", smp_cases, .explicit_only = true);
