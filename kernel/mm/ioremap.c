/* ioremap.c: uncached kernel mappings of device and firmware memory (the local
 * APIC, ACPI tables above the direct map) in the unused vmalloc area. */
#include "errno.h"
#include "paging.h"
#include "x86.h"

#define IOREMAP_END	PKMAP_BASE	/* the vmalloc area ends at the kmap area */

static u32 ioremap_next = VMALLOC_START;	/* bump pointer; boot only, never freed */

/* Map [phys, phys + size) uncached (PCD | PWT) into fresh kernel addresses and
 * return the address of phys, or NULL when the area is full. Boot only (one
 * CPU, process context): the bump pointer takes no lock. Mappings are never
 * removed; the kernel half's page tables are shared, so every directory sees
 * them. Memory inside the direct map is returned through __va, cached, unless
 * uncached is asked. */
void *ioremap_flags(u32 phys, u32 size, bool uncached)
{
	u32 first = phys & PAGE_MASK, last = ALIGN_UP(phys + size, PAGE_SIZE), va;
	u32 flags = PTE_PRESENT | PTE_WRITE | (uncached ? PTE_PCD | PTE_PWT : 0);

	if (!uncached && last <= lowmem_limit && last > first)
		return __va(phys);
	if (last <= first || last - first > IOREMAP_END - ioremap_next)
		return NULL;
	va = ioremap_next;
	ioremap_next += last - first;
	for (u32 pa = first; pa < last; pa += PAGE_SIZE) {
		*kernel_pte(va + pa - first) = pa | flags;
		invlpg(va + pa - first);
	}
	return (void *)(va + (phys - first));
}
