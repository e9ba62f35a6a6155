/* smp.c: bringing up the application processors: the real-mode trampoline,
 * INIT-SIPI-SIPI, each AP's GDT/TSS/IDT and idle stack, the per-CPU data
 * found through each CPU's own GDT (sgdt), and /proc/cpuinfo.
 *
 * The boot CPU starts the APs one at a time (smp_booting names the one being
 * started), each on the stack of an idle task made for it; each reports in
 * by setting its cpus[].online with release order and then runs tasks
 * (kernel/sched.c sched_ap_run): locks, as on the boot CPU (docs/locking.md).
 */
#include "apic.h"
#include "apic_timer.h"
#include "clock.h"
#include "errno.h"
#include "gdt.h"
#include "mm.h"
#include "paging.h"
#include "printk.h"
#include "sched.h"
#include "smp.h"
#include "string.h"
#include "trap.h"
#include "x86.h"

#define AP_START_WAIT_US 2000000	/* give up on an AP after 2 s (MTTCG on a busy host) */
#define CPUID_1_EDX_APIC (1u << 9)	/* an on-chip local APIC */

/* The trampoline's argument block (boot/trampoline.asm). */
struct smp_trampoline_args {
	u32 cr0, cr3, cr4, stack, entry;
};

extern const char smp_trampoline_start[], smp_trampoline_end[], smp_trampoline_args[];

struct cpu cpus[NR_CPUS] = { [0] = { .self = &cpus[0], .id = 0, .online = 1 } };
u32 nr_cpus_online = 1;
static struct cpu *smp_booting;		/* the AP being started (boot CPU writes) */

/* First C code of an AP, on its idle stack, paging on through the
 * trampoline's directory; interrupts off. */
static void __noreturn __used smp_ap_entry(void)
{
	struct cpu *c = smp_booting;

	write_cr3(__pa(kernel_pgdir));
	gdt_init_ap(c->id, c->idle_stack_top);
	c->pgdir = kernel_pgdir;	/* tlb.h: what its CR3 holds */
	c->curr = c->idle;		/* already `current`: we run on its stack */
	trap_load_idt();
	lapic_enable_ap();
	apic_timer_start();		/* its tick, from now on */
	c->seen_id = smp_processor_id();	/* through this CPU's own GDT */
	c->seen_apic_id = lapic_id();
	__atomic_store_n(&c->online, 1, __ATOMIC_RELEASE);
	sched_ap_run();			/* tasks from now on */
}

/* Copy the trampoline below 1 MiB and fill what does not change per AP. The
 * directory maps the first 4 MiB at 0 as well as high, so the AP can turn
 * paging on while it still runs at SMP_TRAMPOLINE_PHYS. */
static struct smp_trampoline_args *smp_trampoline_setup(u32 *pgdir)
{
	u8 *low = __va(SMP_TRAMPOLINE_PHYS);
	struct smp_trampoline_args *a;

	memcpy(pgdir, kernel_pgdir, PAGE_SIZE);
	pgdir[0] = kernel_pgdir[KERNEL_PDE_FIRST];
	memcpy(low, smp_trampoline_start, smp_trampoline_end - smp_trampoline_start);
	a = (void *)(low + (smp_trampoline_args - smp_trampoline_start));
	a->cr0 = read_cr0();
	a->cr3 = __pa(pgdir);
	a->cr4 = read_cr4();
	a->entry = (u32)smp_ap_entry;
	return a;
}

/* Wait for c to report in; true when it did. */
static bool smp_wait_online(struct cpu *c)
{
	for (u32 us = 0; us < AP_START_WAIT_US; us += 10) {
		if (__atomic_load_n(&c->online, __ATOMIC_ACQUIRE))
			return true;
		udelay(10);
	}
	return false;
}

/* INIT, then two start-up IPIs (Intel's MP start-up algorithm, SDM 8.4.4.1). */
static int smp_send_init_sipi(u32 apic_id)
{
	int err = lapic_send_ipi(apic_id, APIC_ICR_INIT | APIC_ICR_LEVEL | APIC_ICR_ASSERT);

	err = err ? err : lapic_send_ipi(apic_id, APIC_ICR_INIT | APIC_ICR_LEVEL);
	udelay(10000);
	for (int i = 0; i < 2 && !err; i++) {
		err = lapic_send_ipi(apic_id, APIC_ICR_STARTUP | (SMP_TRAMPOLINE_PHYS >> 12));
		udelay(200);
	}
	return err;
}

/* Start the AP with APIC id apic_id as CPU id, on the stack of its own
 * idle task; 0, -ENOMEM, -ETIMEDOUT. */
static int smp_start_ap(struct smp_trampoline_args *a, u32 id, u32 apic_id)
{
	struct cpu *c = &cpus[id];
	struct task *idle = sched_idle_create();
	int err;

	if (IS_ERR(idle))
		return PTR_ERR(idle);
	*c = (struct cpu){ .self = c, .id = id, .apic_id = apic_id, .idle = idle,
			   .idle_stack_top = idle->kstack_top };
	a->stack = c->idle_stack_top;
	smp_booting = c;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* all of it before the IPIs */
	err = smp_send_init_sipi(apic_id);
	if (!err && !smp_wait_online(c))
		err = -ETIMEDOUT;
	return err;		/* a late AP may still use its idle task: kept on failure */
}

/* Start every listed AP in turn; stop at the first that fails (it may still
 * come up later and must not find its slot or the trampoline reused). */
static void smp_boot_aps(const struct cpu_topology *t)
{
	unsigned long pgdir = __get_free_page(GFP_KERNEL);
	struct smp_trampoline_args *a;
	int err = 0;

	if (!pgdir) {
		pr_err("smp: no memory for the trampoline's directory\n");
		return;
	}
	a = smp_trampoline_setup((u32 *)pgdir);
	for (u32 i = 0; i < t->nr_cpus && !err; i++) {
		if (t->apic_id[i] == cpus[0].apic_id)
			continue;
		err = smp_start_ap(a, nr_cpus_online, t->apic_id[i]);
		if (err)
			pr_err("smp: CPU with APIC id %u did not start (%d)\n", t->apic_id[i], err);
		else
			nr_cpus_online++;
	}
	if (!err)
		free_page(pgdir);
}

void smp_init(void)
{
	const struct cpu_topology *t = &cpu_topology;

	if (!(cpuid_edx(1) & CPUID_1_EDX_APIC) || lapic_map(t->lapic_phys)) {
		printk("smp: no local APIC, one CPU\n");
		return;
	}
	ipi_init();
	apic_timer_calibrate();
	cpus[0].apic_id = cpus[0].seen_apic_id = lapic_id();
	cpus[0].seen_id = smp_processor_id();
	if (t->nr_cpus > 1 && nr_cpus_online == 1) {
		spin_mode_init();
		smp_boot_aps(t);
	}
	printk("smp: %u of %u CPU%s online, boot CPU APIC id %u\n", nr_cpus_online,
	       t->nr_cpus, t->nr_cpus == 1 ? "" : "s", cpus[0].apic_id);
}

int smp_cpuinfo_show(char *buf, size_t size)
{
	int n = 0;

	for (u32 i = 0; i < nr_cpus_online && n < (int)size; i++)
		n += snprintf(buf + n, size - n, "processor\t: %u\napicid\t\t: %u\n"
			      "initial apicid\t: %u\n\n", i, cpus[i].seen_apic_id, cpus[i].apic_id);
	return MIN(n, (int)size - 1);
}
