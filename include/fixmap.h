/* fixmap.h: compile-time virtual addresses at the top of the kernel half.
 *
 * Each index is one page at FIXADDR_TOP - index * PAGE_SIZE; its PTE lives in
 * the preallocated kernel page tables, so setting one is a single store plus
 * invlpg and works from any context. Index 0 is a guard page; index 1 is the
 * one page of the kernel half that ring 3 may read and execute.
 */
#ifndef FIXMAP_H
#define FIXMAP_H

#include "acpi.h"
#include "highmem_types.h"
#include "paging.h"

enum fixed_addresses {
	FIX_HOLE,				/* guard: never mapped */
	FIX_VSYSCALL,				/* the user-visible entry page (uapi/vsyscall.h) */
	FIX_KMAP_BEGIN,				/* kmap_atomic slots, one per km_type per CPU: */
	FIX_KMAP_END = FIX_KMAP_BEGIN + KM_TYPE_NR * NR_CPUS - 1,	/* CPU n's from n * KM_TYPE_NR */
	__end_of_fixed_addresses
};

#define FIXADDR_SIZE	(__end_of_fixed_addresses << PAGE_SHIFT)
#define FIXADDR_START	(FIXADDR_TOP - FIXADDR_SIZE + PAGE_SIZE)

static inline u32 fix_to_virt(unsigned idx)
{
	return FIXADDR_TOP - (idx << PAGE_SHIFT);
}

static inline unsigned virt_to_fix(u32 va)
{
	return (FIXADDR_TOP - (va & PAGE_MASK)) >> PAGE_SHIFT;
}

#endif
