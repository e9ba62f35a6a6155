/* tlb.h: keeping every CPU's TLB true to the page tables: shootdowns by IPI.
 *
 * Which CPUs may cache a user address space's translations: those whose CR3
 * holds its directory, running one of its tasks or lazily (a kernel thread
 * that borrowed it): cpus[n].pgdir, written by switch_pgdir before CR3 with a
 * full fence. A flush reads them after its PTE store with a full fence, so a
 * CPU it misses loads CR3 after the store and sees the new PTE.
 */
#ifndef TLB_H
#define TLB_H

#include "types.h"

struct mm;

/* The PTE of va in pgdir changed (cleared, made read-only or pointed
 * elsewhere): flush it here and on every other CPU with pgdir loaded, and
 * return when they all have. A kernel address (pgdir NULL) goes to every
 * CPU. Any context with interrupts on (a CPU waiting with them off could be
 * waiting for us); process context if another CPU may be involved: it may
 * wait for it, up to 5 s (then panics). */
void tlb_flush_page(u32 *pgdir, u32 va);
/* Every CPU that still has mm's directory loaded (lazily, or a thread of it
 * that stops now) loads the kernel's instead, so that the directory and its
 * tables may be freed. Interrupts on, not from a CPU that runs mm. */
void tlb_drop_mm(struct mm *mm);
/* Flush every non-global translation on every CPU (the kmap area's entries
 * before they are used again). Interrupts on. */
void tlb_flush_all(void);

/* Unmapping many pages: the caller clears each PTE and hands the page to
 * tlb_gather_page; a batch of up to TLB_GATHER_MAX pages is shot down in one
 * request for its range (each CPU flushes it page by page, or its whole TLB
 * past 32 pages) and only then are the pages put. tlb_gather_flush ends a
 * batch (call it before the mm's lock is dropped). The caller holds the mm's
 * lock, interrupts on (tlb_flush_page's contexts). On the stack: ~260 bytes. */
#define TLB_GATHER_MAX	64
struct page;
struct tlb_gather {
	u32 *pgdir;
	u32 nr;				/* pages gathered */
	u32 start, end;			/* the range their PTEs were in */
	struct page *pages[TLB_GATHER_MAX];
};
void tlb_gather_init(struct tlb_gather *g, u32 *pgdir);
/* va's PTE, which held page, is cleared: put page once no CPU can use it. */
void tlb_gather_page(struct tlb_gather *g, u32 va, struct page *page);
void tlb_gather_flush(struct tlb_gather *g);

/* Shootdown requests CPU cpu answered (/proc/interrupts' TLB line). */
u32 tlb_shootdowns_taken_on(u32 cpu);

/* Install the T_IPI_TLB handler. Boot, with the other IPIs (ipi_init). */
void tlb_init(void);

/* Shootdowns this CPU sent and took (the smp suite reads them). */
extern u32 tlb_shootdowns_sent, tlb_shootdowns_taken;

#endif
