/* paging.c: the kernel page tables, the boot allocator, address-space helpers
 * and the page-fault handler.
 *
 * boot/boot.asm runs on an early directory of 4 MiB pages covering 16 MiB;
 * paging_init replaces it with the real one: 4 KiB pages, every page table of
 * the kernel half (256 of them, 1 MiB) allocated once here as one array, so
 * process directories copy the kernel PDEs at creation and never need syncing,
 * and kernel_pte() finds any kernel PTE by indexing.
 */
#include "cmdline.h"
#include "errno.h"
#include "fixmap.h"
#include "mm.h"
#include "multiboot.h"
#include "panic.h"
#include "paging.h"
#include "printk.h"
#include "string.h"
#include "trap.h"
#include "x86.h"
#include "smp.h"
#include "tlb.h"

#define EARLY_MAP_LIMIT		(16u << 20)	/* what boot.asm maps */
#define KERNEL_PT_COUNT		(PDE_COUNT - KERNEL_PDE_FIRST)	/* 256 tables */
#define PTES_PER_TABLE		1024u
#define MIN_LOWMEM		(16u << 20)	/* keep the whole DMA zone mapped */
#define PHYS_LIMIT		0xFFFFF000ull	/* no PAE: RAM above 4 GiB is ignored */
#define BOOT_HIGH_GOAL		(16u << 20)	/* late boot allocations start here */

u32 *kernel_pgdir;
u32 lowmem_limit;
u32 page_fault_fixups;
static u32 *kernel_ptes;		/* all kernel-half PTEs, by (va - KERNEL_BASE) >> 12 */

extern char _text[], _etext[], _end[];

static struct {
	u32 start, next, limit;		/* physical; limit: what is mapped now */
	u32 early_end, late_start;	/* the gap left to spare the DMA zone */
	bool done;
} boot_mem;

/* --------------------------------------------------------------- boot memory */

static bool overlaps(u32 a, u32 a_end, u32 b, u32 b_end)
{
	return a < b_end && b < a_end;
}

/* Is [start, end) inside one available region of the memory map? */
static bool boot_range_is_ram(u32 start, u32 end)
{
	for (u32 i = 0; i < boot_info.nr_regions; i++) {
		const struct boot_region *r = &boot_info.region[i];
		if (r->type == MMAP_AVAILABLE && r->addr <= start && r->addr + r->len >= end)
			return true;
	}
	return false;
}

/* First address at or above start where size bytes miss every module. */
static u32 boot_skip_modules(u32 start, u32 size)
{
	for (u32 i = 0; i < boot_info.nr_modules; i++) {
		const struct boot_module *m = &boot_info.module[i];
		if (overlaps(start, start + size, m->start, m->end))
			return boot_skip_modules(PAGE_ALIGN(m->end), size);
	}
	return start;
}

void *boot_alloc(u32 size)
{
	u32 start;

	if (boot_mem.done)
		panic("boot_alloc: called after the page allocator took over");
	size = PAGE_ALIGN(size);
	start = boot_skip_modules(boot_mem.next, size);
	if (start + size > boot_mem.limit || !boot_range_is_ram(start, start + size))
		panic("boot_alloc: no room for %u bytes at %08x (limit %08x)",
		      size, start, boot_mem.limit);
	boot_mem.next = start + size;
	memset(__va(start), 0, size);
	return __va(start);
}

void boot_alloc_done(struct boot_range out[2])
{
	boot_mem.done = true;
	out[0] = (struct boot_range){ boot_mem.start, boot_mem.early_end };
	out[1] = (struct boot_range){ boot_mem.late_start, boot_mem.next };
}

/* Once all low memory is mapped, allocate above 16 MiB when there is room
 * (Linux's bootmem goal): mem_map of a big machine would eat the DMA zone. */
static void boot_alloc_go_high(void)
{
	boot_mem.early_end = boot_mem.next;
	boot_mem.limit = lowmem_limit;
	if (boot_mem.next < BOOT_HIGH_GOAL && lowmem_limit >= 2 * BOOT_HIGH_GOAL &&
	    boot_range_is_ram(BOOT_HIGH_GOAL, 2 * BOOT_HIGH_GOAL))
		boot_mem.next = BOOT_HIGH_GOAL;
	boot_mem.late_start = boot_mem.next;
}

/* ----------------------------------------------------------- kernel tables */

/* Highest usable physical address (exclusive), below 4 GiB. */
static u32 boot_mem_top(void)
{
	u64 top = 0;

	for (u32 i = 0; i < boot_info.nr_regions; i++) {
		const struct boot_region *r = &boot_info.region[i];
		if (r->type == MMAP_AVAILABLE && r->addr < PHYS_LIMIT)
			top = MAX(top, MIN(r->addr + r->len, PHYS_LIMIT));
	}
	return (u32)top & PAGE_MASK;
}

/* The direct-map limit: the lowest of RAM, lowmem= and 896 MiB. */
static u32 choose_lowmem_limit(u32 top)
{
	u64 want = cmdline_get_num(&boot_cmdline, "lowmem", MAX_LOWMEM);

	want = MIN(want, (u64)MAX_LOWMEM);
	want = MAX(want, (u64)MIN_LOWMEM);
	return (u32)MIN(want, (u64)top) & PAGE_MASK;
}

static bool is_kernel_text(u32 va)
{
	return va >= (u32)_text && va < PAGE_ALIGN(_etext);
}

static void build_kernel_tables(void)
{
	kernel_pgdir = boot_alloc(PAGE_SIZE);
	kernel_ptes = boot_alloc(KERNEL_PT_COUNT * PAGE_SIZE);
	for (u32 i = 0; i < KERNEL_PT_COUNT; i++)
		kernel_pgdir[KERNEL_PDE_FIRST + i] =
			__pa(kernel_ptes + i * PTES_PER_TABLE) | PTE_PRESENT | PTE_WRITE;
	for (u32 pa = 0; pa < lowmem_limit; pa += PAGE_SIZE) {
		u32 va = (u32)__va(pa);
		/* Text is read-only (CR0.WP is on): a stray write faults at once. */
		*kernel_pte(va) = pa | (is_kernel_text(va) ? PTE_PRESENT | PTE_GLOBAL : PTE_KERNEL);
	}
}

void paging_init(void)
{
	u32 top = boot_mem_top();

	lowmem_limit = choose_lowmem_limit(top);
	max_pfn = top >> PAGE_SHIFT;
	max_low_pfn = lowmem_limit >> PAGE_SHIFT;
	boot_mem.start = boot_mem.next = PAGE_ALIGN(__pa(_end));
	boot_mem.limit = MIN(EARLY_MAP_LIMIT, lowmem_limit);
	build_kernel_tables();
	write_cr3(__pa(kernel_pgdir));		/* the early directory is gone */
	write_cr4(read_cr4() | CR4_PGE);
	boot_alloc_go_high();			/* all of low memory is mapped now */
}

/* -------------------------------------------------------- address spaces */

u32 *kernel_pte(u32 va)
{
	return &kernel_ptes[(va - KERNEL_BASE) >> PAGE_SHIFT];
}

u32 *pte_lookup(u32 *pgdir, u32 va)
{
	u32 pde = pgdir[PDX(va)];

	if (!(pde & PTE_PRESENT) || (pde & PTE_PSE))
		return NULL;
	return (u32 *)__va(pde & PAGE_MASK) + PTX(va);
}

u32 virt_to_phys_walk(u32 *pgdir, u32 va)
{
	u32 *pte = pte_lookup(pgdir, va);

	if (!pte || !(*pte & PTE_PRESENT))
		return 0;
	return (*pte & PAGE_MASK) | (va & ~PAGE_MASK);
}

u32 *current_pgdir(void)
{
	return __va(read_cr3() & PAGE_MASK);
}

/* Interrupts off (the CPU must not change in between). The store to
 * cpus[].pgdir is fenced before CR3 is loaded: tlb.h. */
void switch_pgdir(u32 *pgdir)
{
	this_cpu()->pgdir = pgdir;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	write_cr3(__pa(pgdir));
}

/* A present PTE of va changed: a kernel address is flushed here (boot-time
 * mappings, never used by another CPU before), a user one on every CPU
 * that has pgdir loaded (tlb_flush_page). */
void flush_tlb_page(u32 *pgdir, u32 va)
{
	if (va >= KERNEL_BASE)
		invlpg(va);
	else
		tlb_flush_page(pgdir, va);
}

/* A zeroed page table for user address va in pgdir; NULL when out of memory. */
static u32 *user_table_alloc(u32 *pgdir, u32 va)
{
	u32 table = get_zeroed_page(GFP_KERNEL);

	if (!table)
		return NULL;
	pgdir[PDX(va)] = __pa(table) | PTE_PRESENT | PTE_WRITE | PTE_USER;
	return (u32 *)table + PTX(va);
}

int map_page(u32 *pgdir, u32 va, u32 phys, u32 flags)
{
	u32 *pte, old;

	if ((va | phys) & ~PAGE_MASK)
		return -EINVAL;
	pte = pte_lookup(pgdir, va);
	if (!pte && va >= KERNEL_BASE)
		return -EINVAL;			/* cannot happen: preallocated */
	if (!pte && !(pte = user_table_alloc(pgdir, va)))
		return -ENOMEM;
	old = *pte;
	*pte = phys | flags | PTE_PRESENT;
	if (old & PTE_PRESENT)		/* x86 caches no translation of an absent page */
		flush_tlb_page(pgdir, va);
	return 0;
}

u32 unmap_page(u32 *pgdir, u32 va)
{
	u32 *pte = pte_lookup(pgdir, va & PAGE_MASK), old;

	if (!pte || !(*pte & PTE_PRESENT))
		return 0;
	old = *pte;
	*pte = 0;
	flush_tlb_page(pgdir, va & PAGE_MASK);
	return old;
}

u32 *pgdir_create(void)
{
	u32 *pgdir = (u32 *)get_zeroed_page(GFP_KERNEL);

	if (!pgdir)
		return NULL;
	memcpy(pgdir + KERNEL_PDE_FIRST, kernel_pgdir + KERNEL_PDE_FIRST,
	       KERNEL_PT_COUNT * sizeof(u32));
	return pgdir;
}

void pgdir_destroy(u32 *pgdir)
{
	if (!pgdir)
		return;
	if (pgdir == current_pgdir() || pgdir == kernel_pgdir) {
		mm_bug("pgdir_destroy: directory %p is live", pgdir);
		return;
	}
	for (u32 i = 0; i < KERNEL_PDE_FIRST; i++)
		if (pgdir[i] & PTE_PRESENT)
			free_page((unsigned long)__va(pgdir[i] & PAGE_MASK));
	free_page((unsigned long)pgdir);
}

/* ------------------------------------------------------------ page faults */

__attribute__((weak)) bool handle_user_fault(struct trap_frame *tf, u32 addr)
{
	return false;
}

static const char *kernel_fault_kind(u32 addr)
{
	if (addr < PAGE_SIZE)
		return "NULL pointer dereference";
	if (addr < USER_TOP)
		return "user address outside the uaccess routines";
	if (addr >= FIXADDR_START)
		return "unmapped fixmap / kmap_atomic slot";
	if (addr >= PKMAP_BASE && addr < PKMAP_BASE + LAST_PKMAP * PAGE_SIZE)
		return "unmapped kmap entry";
	if (addr >= KERNEL_BASE && addr < (u32)__va(lowmem_limit))
		return "protection fault in the direct map";
	return "paging request";
}

/* T_PAGE_FAULT: user faults go to the process layer; kernel faults in the
 * exception table resume at their fixup; anything else is fatal. Once CR2 is
 * read, interrupts go back on if the faulting code had them on: resolving a
 * fault allocates with GFP_HIGHUSER and copies a page, as the process context
 * it interrupted may (uaccess callers hold no spinlock; the uaccess checks
 * report any that do). */
static void page_fault(struct trap_frame *tf)
{
	u32 addr = read_cr2(), fixup;

	if (tf->eflags & EFLAGS_IF)
		sti();

	if (trap_from_user(tf)) {
		if (handle_user_fault(tf, addr))
			return;
		panic_trap(tf, "user page fault at %08x and no process layer to handle it", addr);
	}
	fixup = search_exception_table(tf->eip);
	if (fixup) {
		if (addr < USER_TOP && handle_user_fault(tf, addr))
			return;			/* e.g. copy-on-write under copy_to_user */
		tf->eip = fixup;
		page_fault_fixups++;
		return;
	}
	panic_trap(tf, "unable to handle kernel %s at virtual address %08x",
		   kernel_fault_kind(addr), addr);
}

void paging_fault_init(void)
{
	trap_set_handler(T_PAGE_FAULT, page_fault, 0);
}
