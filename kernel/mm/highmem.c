/* highmem.c: kmap (persistent kernel mappings) and kmap_atomic (fixmap slots).
 *
 * kmap entries live in one page table at PKMAP_BASE; pkmap_count[i] counts
 * the kmaps of entry i and page->virtual points back at it. An entry whose
 * count drops to zero is unmapped at once, flushed here, and marked stale:
 * another CPU may still cache its old translation, so it is not handed out
 * again until a kmap that finds no other entry has flushed every CPU's TLB
 * (tlb_flush_all, one IPI round for many entries: Linux's lazy pkmap flush).
 * kmap_lock guards pkmap_count, pkmap_stale, pkmap_page and page->virtual of
 * highmem pages.
 * kmap_atomic slots need no lock: each CPU has its own set (a fixmap page per
 * CPU per type), and each slot belongs to one context of that CPU at a time,
 * with preemption off: what the debug checks enforce. The PTE of a CPU's slot
 * is only ever used by that CPU, so its invlpg needs no shootdown.
 *
 * TLB flushes (invlpg) cost about 200 ns each under QEMU's TCG, with a TLB
 * refill after them, and the AIO ring maps a page or two for every event
 * posted and read. So no map flushes when the PTE was not present (x86 never
 * caches such a translation), and kunmap_atomic leaves the slot's PTE in place
 * in the shipped kernel: the next map of the same page into the slot costs
 * nothing, another page costs one flush. The test kernel (CONFIG_KTEST) clears
 * the PTE and flushes at every kunmap_atomic so that a stale user of a slot
 * faults (what Linux's CONFIG_DEBUG_HIGHMEM did). Which slots are mapped is
 * kept in kmap_atomic_slots[] in both, and every slot check uses that.
 */
#include "fixmap.h"
#include "highmem.h"
#include "irq.h"
#include "mm.h"
#include "printk.h"
#include "sched.h"
#include "smp.h"
#include "spinlock.h"
#include "string.h"
#include "tlb.h"
#include "wait.h"
#include "x86.h"

#define PKMAP_NR(va)	(((u32)(va) - PKMAP_BASE) >> PAGE_SHIFT)
#define PKMAP_ADDR(nr)	(PKMAP_BASE + ((nr) << PAGE_SHIFT))
#define PKMAP_END	PKMAP_ADDR(LAST_PKMAP)

struct kmap_atomic_slot kmap_atomic_slots[KM_TYPE_NR * NR_CPUS];
const char *const km_type_names[KM_TYPE_NR] = {
	[KM_USER0] = "KM_USER0", [KM_USER1] = "KM_USER1",
	[KM_BIO_SRC_IRQ] = "KM_BIO_SRC_IRQ", [KM_BIO_DST_IRQ] = "KM_BIO_DST_IRQ",
	[KM_PTE0] = "KM_PTE0", [KM_PTE1] = "KM_PTE1",
	[KM_IRQ0] = "KM_IRQ0", [KM_IRQ1] = "KM_IRQ1",
};

static DEFINE_SPINLOCK(kmap_lock);
static u32 pkmap_count[LAST_PKMAP];	/* kmaps of each entry; 0: free */
static u32 last_pkmap_nr;		/* where the next search starts */
static u32 pkmap_in_use;
static u32 pkmap_stale[LAST_PKMAP / 32];	/* unmapped, maybe cached elsewhere */
static u32 pkmap_stale_nr;
u32 kmap_failures;

#ifdef CONFIG_KTEST
bool km_clear_on_unmap = true;		/* a stale user of a slot faults */
#else
#define km_clear_on_unmap	false	/* the PTE stays until the slot maps another page */
#endif

BUILD_BUG_ON(FIXADDR_START <= PKMAP_BASE + LAST_PKMAP * PAGE_SIZE);
BUILD_BUG_ON(PKMAP_BASE < VMALLOC_START);

void highmem_init(void)
{
	printk("highmem: %u kmap entries at %08x, %u kmap_atomic slots at %08x-%08x\n",
	       LAST_PKMAP, PKMAP_BASE, KM_TYPE_NR, FIXADDR_START, FIXADDR_TOP + PAGE_SIZE - 1);
}

/* ---------------------------------------------------------------- kmap */

static DECLARE_WAIT_QUEUE_HEAD(pkmap_map_wait);	/* kmap callers waiting for an entry */

static void *pkmap_map_new(struct page *page)
{
	for (u32 n = 0; n < LAST_PKMAP; n++) {
		u32 nr = (last_pkmap_nr + n) % LAST_PKMAP;
		if (pkmap_count[nr] || (pkmap_stale[nr / 32] & (1u << nr % 32)))
			continue;
		last_pkmap_nr = (nr + 1) % LAST_PKMAP;
		/* a free entry's PTE is not present: nothing to flush */
		*kernel_pte(PKMAP_ADDR(nr)) = page_to_phys(page) | PTE_PRESENT | PTE_WRITE;
		page->virtual = (void *)PKMAP_ADDR(nr);
		pkmap_in_use++;
		return page->virtual;
	}
	if (!pkmap_stale_nr)
		kmap_failures++;	/* counted: the caller will wait */
	return NULL;
}

/* Make the stale entries usable: flush every CPU's TLB, then free the ones
 * that were stale before the flush (process context, interrupts on). */
static void pkmap_flush_stale(void)
{
	u32 snap[LAST_PKMAP / 32], flags;

	spin_lock_irqsave(&kmap_lock, flags);
	memcpy(snap, pkmap_stale, sizeof(snap));
	spin_unlock_irqrestore(&kmap_lock, flags);
	tlb_flush_all();
	spin_lock_irqsave(&kmap_lock, flags);
	for (u32 i = 0; i < LAST_PKMAP / 32; i++) {
		pkmap_stale_nr -= __builtin_popcount(snap[i]);
		pkmap_stale[i] &= ~snap[i];
	}
	spin_unlock_irqrestore(&kmap_lock, flags);
}

void *kmap(struct page *page)
{
	void *va;
	u32 flags;
	char who[64];

	if (in_interrupt())
		mm_bug("kmap: may sleep, called in interrupt context by %s (use kmap_atomic)",
		       mm_symbolize((u32)__builtin_return_address(0), who, sizeof(who)));
	if (!PageHighMem(page))
		return page_address(page);
	for (;;) {
		bool stale;

		spin_lock_irqsave(&kmap_lock, flags);
		va = page->virtual ? page->virtual : pkmap_map_new(page);
		if (va)
			pkmap_count[PKMAP_NR(va)]++;
		stale = pkmap_stale_nr;
		spin_unlock_irqrestore(&kmap_lock, flags);
		if (va)
			return va;
		if (stale)
			pkmap_flush_stale();
		else	/* every entry is in use: sleep until a kunmap frees one */
			wait_event(pkmap_map_wait, READ_ONCE(pkmap_in_use) < LAST_PKMAP);
	}
}

void kunmap(struct page *page)
{
	u32 flags, nr;

	if (!PageHighMem(page))
		return;
	spin_lock_irqsave(&kmap_lock, flags);
	if (!page->virtual) {
		spin_unlock_irqrestore(&kmap_lock, flags);
		mm_bug("kunmap: pfn 0x%x is not kmapped", page_to_pfn(page));
		return;
	}
	nr = PKMAP_NR(page->virtual);
	if (--pkmap_count[nr] == 0) {
		*kernel_pte(PKMAP_ADDR(nr)) = 0;
		invlpg(PKMAP_ADDR(nr));
		page->virtual = NULL;
		pkmap_in_use--;
		pkmap_stale[nr / 32] |= 1u << nr % 32;
		pkmap_stale_nr++;
	}
	spin_unlock_irqrestore(&kmap_lock, flags);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* the count before the waiter test */
	if (waitqueue_active(&pkmap_map_wait))
		wake_up(&pkmap_map_wait);
}

u32 kmap_nr_in_use(void)
{
	return READ_ONCE(pkmap_in_use);
}

/* --------------------------------------------------------- kmap_atomic */

static bool km_is_irq_slot(enum km_type type)
{
	return type == KM_BIO_SRC_IRQ || type == KM_BIO_DST_IRQ ||
	       type == KM_IRQ0 || type == KM_IRQ1;
}

unsigned km_slot(enum km_type type)
{
	return smp_processor_id() * KM_TYPE_NR + type;
}

static u32 km_slot_addr(enum km_type type)
{
	return fix_to_virt(FIX_KMAP_BEGIN + km_slot(type));
}

/* The slot must suit the context, so that an interrupt cannot reuse it. */
static void km_check_context(enum km_type type, u32 caller)
{
	char who[64];

	if (in_interrupt() && !km_is_irq_slot(type))
		mm_bug("kmap_atomic: process slot %s used in interrupt context by %s",
		       km_type_names[type], mm_symbolize(caller, who, sizeof(who)));
	else if (!in_interrupt() && km_is_irq_slot(type) && (read_eflags() & EFLAGS_IF))
		mm_bug("kmap_atomic: interrupt slot %s used with interrupts enabled by %s",
		       km_type_names[type], mm_symbolize(caller, who, sizeof(who)));
}

static void km_report_busy(enum km_type type, struct page *page, u32 caller)
{
	char first[64], second[64];
	const struct kmap_atomic_slot *s = &kmap_atomic_slots[km_slot(type)];

	mm_bug("kmap_atomic: slot %s mapped twice: pfn 0x%x by %s, still holds pfn 0x%x mapped by %s",
	       km_type_names[type], page_to_pfn(page), mm_symbolize(caller, second, sizeof(second)),
	       s->page ? page_to_pfn(s->page) : 0, mm_symbolize(s->caller, first, sizeof(first)));
}

/* Point slot va's PTE at phys, flushing only what the TLB may hold. */
static void km_set_pte(u32 va, u32 phys)
{
	u32 *pte = kernel_pte(va), old = *pte, want = phys | PTE_PRESENT | PTE_WRITE;

	if ((old & ~(PTE_ACCESSED | PTE_DIRTY)) == want)
		return;			/* left by the last unmap: still right */
	*pte = want;
	if (old & PTE_PRESENT)
		invlpg(va);
}

void *kmap_atomic(struct page *page, enum km_type type)
{
	u32 caller = (u32)__builtin_return_address(0), va;
	struct kmap_atomic_slot *slot;

	if (!PageHighMem(page))
		return page_address(page);
	if ((unsigned)type >= KM_TYPE_NR) {
		mm_bug("kmap_atomic: bad slot %d", type);
		return NULL;
	}
	km_check_context(type, caller);
	preempt_disable();		/* this CPU's slot: ours until kunmap_atomic */
	va = km_slot_addr(type);
	slot = &kmap_atomic_slots[km_slot(type)];
	if (unlikely(slot->page)) {
		km_report_busy(type, page, caller);
		preempt_enable_no_resched();	/* one count per mapped slot */
	}
	slot->page = page;
	slot->caller = caller;
	km_set_pte(va, page_to_phys(page));
	return (void *)va;
}

static void km_report_wrong_addr(u32 va, enum km_type type, u32 caller)
{
	char unmapper[64], owner[64], mine[64];
	unsigned idx = virt_to_fix(va) - FIX_KMAP_BEGIN;
	const struct kmap_atomic_slot *s = &kmap_atomic_slots[km_slot(type)];

	if (idx >= KM_TYPE_NR * NR_CPUS) {
		mm_bug("kunmap_atomic(%08x, %s) from %s: not a kmap_atomic address",
		       va, km_type_names[type], mm_symbolize(caller, unmapper, sizeof(unmapper)));
		return;
	}
	mm_bug("kunmap_atomic(%08x, %s) from %s: that is slot %s's address (mapped by %s); %s was mapped by %s",
	       va, km_type_names[type], mm_symbolize(caller, unmapper, sizeof(unmapper)),
	       km_type_names[idx % KM_TYPE_NR],
	       mm_symbolize(kmap_atomic_slots[idx].caller, owner, sizeof(owner)),
	       km_type_names[type], s->page ? mm_symbolize(s->caller, mine, sizeof(mine)) : "nobody");
}

void kunmap_atomic(void *addr, enum km_type type)
{
	u32 caller = (u32)__builtin_return_address(0), va = (u32)addr & PAGE_MASK;
	struct kmap_atomic_slot *slot;
	char who[64];

	if (va < FIXADDR_START && !(va >= PKMAP_BASE && va < PKMAP_END))
		return;				/* a low page: nothing was mapped */
	if ((unsigned)type >= KM_TYPE_NR || va != km_slot_addr(type)) {
		km_report_wrong_addr(va, (unsigned)type < KM_TYPE_NR ? type : KM_USER0, caller);
		return;
	}
	slot = &kmap_atomic_slots[km_slot(type)];
	if (!slot->page) {
		mm_bug("kunmap_atomic: slot %s is not mapped (from %s)", km_type_names[type],
		       mm_symbolize(caller, who, sizeof(who)));
		return;
	}
	if (km_clear_on_unmap) {
		*kernel_pte(va) = 0;	/* a stale user of the slot now faults */
		invlpg(va);
	}
	slot->page = NULL;
	slot->caller = 0;
	preempt_enable();
}

struct page *kmap_atomic_to_page(void *addr)
{
	u32 va = (u32)addr;

	if (va < FIXADDR_START && !(va >= PKMAP_BASE && va < PKMAP_END))
		return virt_to_page(addr);
	return phys_to_page(*kernel_pte(va & PAGE_MASK) & PAGE_MASK);
}
