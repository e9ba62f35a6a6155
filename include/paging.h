/* paging.h: i386 two-level paging, the 3G/1G split and address-space helpers.
 *
 * Virtual layout (the kernel half is shared by every page directory):
 *   0x00000000-0xBFFFFFFF  user space (page 0 is never mapped)
 *   0xC0000000-...         direct map of low memory, phys + KERNEL_BASE, up to
 *                          the low-memory limit (896 MiB at most, lowmem=)
 *   VMALLOC_START-         ioremap: the local APIC, ACPI tables (ioremap.c)
 *   PKMAP_BASE             the persistent kmap area (highmem.c)
 *   FIXADDR_START-TOP      fixed mappings: the kmap_atomic slots (fixmap.h)
 * The page tables of the whole kernel half are allocated at boot, so a new
 * page directory copies the kernel PDEs once and they never need syncing.
 */
#ifndef PAGING_H
#define PAGING_H

#include "types.h"

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1u << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x)	ALIGN_UP((u32)(x), PAGE_SIZE)

#define KERNEL_BASE	0xC0000000u	/* start of the kernel half */
#define USER_TOP	0xC0000000u	/* first kernel address */
#define MAX_LOWMEM	(896u << 20)	/* largest direct map (Linux's 896 MiB) */
#define VMALLOC_START	(KERNEL_BASE + MAX_LOWMEM)	/* 0xF8000000 */
#define PKMAP_BASE	0xFF400000u	/* persistent kmap area, one page table */
#define LAST_PKMAP	1024u		/* entries in it */
#define FIXADDR_TOP	0xFFFFF000u	/* fixmap index 0; grows down */

#define PTE_PRESENT	0x001	/* P: the mapping is valid */
#define PTE_WRITE	0x002	/* R/W: writable */
#define PTE_USER	0x004	/* U/S: reachable from ring 3 */
#define PTE_PWT		0x008	/* write-through */
#define PTE_PCD		0x010	/* cache disabled */
#define PTE_ACCESSED	0x020	/* A: set by the CPU on access */
#define PTE_DIRTY	0x040	/* D: set by the CPU on write */
#define PTE_PSE		0x080	/* PS in a PDE: 4 MiB page */
#define PTE_GLOBAL	0x100	/* G: survives CR3 reloads (CR4.PGE) */
#define PTE_KERNEL	(PTE_PRESENT | PTE_WRITE | PTE_GLOBAL)	/* kernel data */

#define CR4_PSE		0x010	/* 4 MiB pages */
#define CR4_PGE		0x080	/* global pages */

#define PDX(va)		((u32)(va) >> 22)		/* page-directory index */
#define PTX(va)		(((u32)(va) >> 12) & 0x3FF)	/* page-table index */
#define KERNEL_PDE_FIRST PDX(KERNEL_BASE)		/* 768 */
#define PDE_COUNT	1024u

#define __pa(va)	((u32)(va) - KERNEL_BASE)
#define __va(pa)	((void *)((u32)(pa) + KERNEL_BASE))

/* The kernel's own page directory (virtual address); every process directory
 * shares its kernel half. */
extern u32 *kernel_pgdir;
/* Physical end of the direct map (the low-memory limit, page aligned). */
extern u32 lowmem_limit;

/* Build the kernel page tables from the boot memory map and switch to them;
 * boot only, before any allocation. Also sets lowmem_limit from lowmem=. */
void paging_init(void);
/* Boot allocator used before the page allocator exists: page-aligned, zeroed
 * low memory, never freed. Panics when it runs out (boot cannot go on). */
void *boot_alloc(u32 size);
/* Close the boot allocator and give the physical ranges [start, end) it
 * handed out (below 16 MiB, then above it), to be reserved; later boot_alloc
 * calls panic. */
struct boot_range {
	u32 start, end;
};
void boot_alloc_done(struct boot_range out[2]);

/* A new page directory whose kernel half is the kernel's; NULL when out of
 * memory. Any context that may allocate with GFP_KERNEL. */
u32 *pgdir_create(void);
/* Free a directory from pgdir_create and the user page tables it holds (not
 * the pages they map: the caller releases those first). Not the current one. */
void pgdir_destroy(u32 *pgdir);
/* Map va to phys with flags (PTE_*; PTE_PRESENT implied) in pgdir, allocating
 * a page table for a user address when needed, and invalidate the TLB entry.
 * Returns 0, -ENOMEM (no page table), or -EINVAL (unaligned). */
int map_page(u32 *pgdir, u32 va, u32 phys, u32 flags);
/* Remove the mapping of va in pgdir and invalidate it; returns the old PTE
 * (0 when nothing was mapped). Page tables are kept. */
u32 unmap_page(u32 *pgdir, u32 va);
/* Pointer to the PTE for va in pgdir, or NULL when it has no page table. */
u32 *pte_lookup(u32 *pgdir, u32 va);
/* PTE of a kernel-half address: O(1), the kernel tables are one array. */
u32 *kernel_pte(u32 va);
/* Physical address va maps to in pgdir, or 0 when unmapped. */
u32 virt_to_phys_walk(u32 *pgdir, u32 va);
/* Load pgdir into CR3. */
void switch_pgdir(u32 *pgdir);
/* The page directory in CR3 (virtual address). */
u32 *current_pgdir(void);
/* Invalidate va in the TLB when pgdir is live (current, or a kernel address). */
void flush_tlb_page(u32 *pgdir, u32 va);

/* Map firmware or device memory at phys (size bytes) into the kernel half and
 * return its address, NULL when there is no room; uncached for device
 * registers. Boot only. (kernel/mm/ioremap.c) */
void *ioremap_flags(u32 phys, u32 size, bool uncached);
static inline void *ioremap(u32 phys, u32 size) { return ioremap_flags(phys, size, true); }

/* Register the page-fault handler (part of mm_init). */
void paging_fault_init(void);
/* Kernel page faults resumed at an exception-table fixup since boot. */
extern u32 page_fault_fixups;

/* The process layer overrides this (weak default: false). Called for a page
 * fault in user mode, and for a kernel fault on a user address inside a
 * uaccess routine before its fixup runs. Returns true when the access can be
 * retried (page mapped in), false to kill/fix up. Interrupts are off. */
struct trap_frame;
bool handle_user_fault(struct trap_frame *tf, u32 addr);

#endif
