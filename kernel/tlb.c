/* tlb.c: TLB shootdown: flush a translation on the CPUs that may cache it.
 *
 * One request at a time: tlb_lock (plain spinlock, taken with interrupts
 * on) serialises the senders and guards tlb_req. The sender stores the
 * request, sends T_IPI_TLB to each target and waits, interrupts on, until
 * each has cleared its bit of pending (release; the sender reads it with
 * acquire). Interrupts stay on while a sender waits or spins for the lock,
 * so two CPUs that shoot down at once still take each other's IPIs.
 *
 * A request names one page, a range (each target flushes it page by page, or
 * all of its TLB past TLB_RANGE_MAX pages) or a directory to drop. Unmapping
 * gathers its pages (struct tlb_gather): the PTEs are cleared, one request
 * covers the batch's range, and only then are the pages freed.
 */
#include "apic.h"
#include "clock.h"
#include "mm.h"
#include "panic.h"
#include "paging.h"
#include "sched.h"
#include "smp.h"
#include "spinlock.h"
#include "tlb.h"
#include "trap.h"
#include "vm.h"
#include "x86.h"

#define TLB_WAIT_US	5000000		/* a CPU that does not answer in 5 s: a bug */
#define TLB_ALL		0xFFFFFFFFu	/* va: every non-global entry */
#define TLB_RANGE_MAX	32		/* past this many pages, a full flush */

enum tlb_kind { TLB_PAGE, TLB_RANGE, TLB_DROP };

static DEFINE_SPINLOCK(tlb_lock);
static struct {
	enum tlb_kind kind;
	u32 *pgdir;		/* the directory; NULL: any (kernel address) */
	u32 va;
	u32 end;		/* TLB_RANGE: [va, end) */
	u32 pending;		/* CPUs yet to answer; atomic */
} tlb_req;
u32 tlb_shootdowns_sent, tlb_shootdowns_taken;
static u32 tlb_taken_on[NR_CPUS];	/* requests each CPU answered (/proc/interrupts) */

static void tlb_flush_local(u32 va)
{
	if (va == TLB_ALL)
		write_cr3(read_cr3());
	else
		invlpg(va);
}

/* [va, end) here: page by page, or everything past TLB_RANGE_MAX pages. */
static void tlb_flush_local_range(u32 va, u32 end)
{
	if ((end - va) >> PAGE_SHIFT > TLB_RANGE_MAX) {
		tlb_flush_local(TLB_ALL);
		return;
	}
	for (; va < end; va += PAGE_SIZE)
		invlpg(va);
}

/* T_IPI_TLB: do what tlb_req asks, if it concerns this CPU's directory. */
static void tlb_interrupt(struct trap_frame *tf)
{
	struct cpu *c = this_cpu();

	if (tlb_req.kind == TLB_DROP && c->active_mm && c->active_mm->pgdir == tlb_req.pgdir)
		mm_activate(NULL);
	else if (tlb_req.kind == TLB_PAGE && (!tlb_req.pgdir || c->pgdir == tlb_req.pgdir))
		tlb_flush_local(tlb_req.va);
	else if (tlb_req.kind == TLB_RANGE && c->pgdir == tlb_req.pgdir)
		tlb_flush_local_range(tlb_req.va, tlb_req.end);
	__atomic_fetch_add(&tlb_shootdowns_taken, 1, __ATOMIC_RELAXED);
	tlb_taken_on[c->id]++;			/* this CPU's only */
	__atomic_and_fetch(&tlb_req.pending, ~(1u << c->id), __ATOMIC_RELEASE);
	lapic_eoi();
}

/* The other CPUs that have pgdir loaded (all of them for NULL); after a full
 * fence, so that the PTE store before it is seen by any CPU not counted. */
static u32 tlb_targets(u32 *pgdir, u32 me)
{
	u32 mask = 0;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (u32 i = 0; i < nr_cpus_online; i++)
		if (i != me && (!pgdir || READ_ONCE(cpus[i].pgdir) == pgdir))
			mask |= 1u << i;
	return mask & sched_cpu_mask;
}

static void tlb_send(enum tlb_kind kind, u32 *pgdir, u32 va, u32 end, u32 targets)
{
	if (!(read_eflags() & EFLAGS_IF))
		panic("tlb shootdown with interrupts off (from %p)", __builtin_return_address(0));
	spin_lock(&tlb_lock);
	tlb_req.kind = kind;
	tlb_req.pgdir = pgdir;
	tlb_req.va = va;
	tlb_req.end = end;
	__atomic_store_n(&tlb_req.pending, targets, __ATOMIC_RELEASE);
	tlb_shootdowns_sent++;
	for (u32 i = 0; i < nr_cpus_online; i++)
		if (targets & (1u << i)) {
			u32 flags = local_irq_save();	/* the ICR: no IPI from an interrupt between */
			lapic_send_ipi(cpus[i].apic_id, T_IPI_TLB);
			local_irq_restore(flags);
		}
	for (u32 us = 0; __atomic_load_n(&tlb_req.pending, __ATOMIC_ACQUIRE); us++) {
		if (us == TLB_WAIT_US)
			panic("tlb shootdown: CPUs %x did not answer", tlb_req.pending);
		udelay(1);
	}
	spin_unlock(&tlb_lock);
}

void tlb_flush_page(u32 *pgdir, u32 va)
{
	u32 me, targets;

	preempt_disable();
	me = smp_processor_id();
	if (!pgdir || cpus[me].pgdir == pgdir)
		invlpg(va);
	targets = tlb_targets(pgdir, me);
	if (targets)
		tlb_send(TLB_PAGE, pgdir, va, 0, targets);
	preempt_enable();
}

void tlb_flush_all(void)
{
	u32 targets;

	preempt_disable();
	tlb_flush_local(TLB_ALL);
	targets = tlb_targets(NULL, smp_processor_id());
	if (targets)
		tlb_send(TLB_PAGE, NULL, TLB_ALL, 0, targets);
	preempt_enable();
}

void tlb_drop_mm(struct mm *mm)
{
	u32 targets, flags;

	preempt_disable();
	flags = local_irq_save();
	if (this_cpu()->active_mm == mm)
		mm_activate(NULL);
	local_irq_restore(flags);
	targets = tlb_targets(mm->pgdir, smp_processor_id());
	if (targets)
		tlb_send(TLB_DROP, mm->pgdir, 0, 0, targets);
	preempt_enable();
}

/* [va, end) of user directory pgdir changed: flushed here and on every other
 * CPU with pgdir loaded, one request for the whole range. */
static void tlb_flush_range(u32 *pgdir, u32 va, u32 end)
{
	u32 me, targets;

	preempt_disable();
	me = smp_processor_id();
	if (cpus[me].pgdir == pgdir)
		tlb_flush_local_range(va, end);
	targets = tlb_targets(pgdir, me);
	if (targets)
		tlb_send(TLB_RANGE, pgdir, va, end, targets);
	preempt_enable();
}

void tlb_gather_init(struct tlb_gather *g, u32 *pgdir)
{
	g->pgdir = pgdir;
	g->nr = 0;
	g->start = g->end = 0;
}

void tlb_gather_flush(struct tlb_gather *g)
{
	if (!g->nr)
		return;
	tlb_flush_range(g->pgdir, g->start, g->end);
	for (u32 i = 0; i < g->nr; i++)		/* no CPU reads them any more */
		put_page(g->pages[i]);
	g->nr = 0;
}

void tlb_gather_page(struct tlb_gather *g, u32 va, struct page *page)
{
	if (g->nr && va < g->start)
		tlb_gather_flush(g);		/* not ascending: a range of its own */
	if (!g->nr) {
		g->start = va;
		g->end = va + PAGE_SIZE;
	}
	g->end = MAX(g->end, va + PAGE_SIZE);
	g->pages[g->nr++] = page;
	if (g->nr == TLB_GATHER_MAX)
		tlb_gather_flush(g);
}

u32 tlb_shootdowns_taken_on(u32 cpu)
{
	return cpu < NR_CPUS ? READ_ONCE(tlb_taken_on[cpu]) : 0;
}

void tlb_init(void)
{
	trap_set_handler(T_IPI_TLB, tlb_interrupt, 0);
}
