/* highmem_types.h: the kmap_atomic slots; the slot names the calling context. */
#ifndef HIGHMEM_TYPES_H
#define HIGHMEM_TYPES_H

/* One slot per context that may hold an atomic mapping at the same time.
 * Process context: KM_USER*, KM_PTE*. Interrupt context (or interrupts off):
 * KM_BIO_*_IRQ, KM_IRQ*. A page fault uses KM_USER0/1 (clearing a page, the
 * copy-on-write source and destination): no user access happens while a
 * kmap_atomic is held, which the uaccess checks enforce. */
enum km_type {
	KM_USER0,		/* process context, first page */
	KM_USER1,		/* process context, second page (copies) */
	KM_BIO_SRC_IRQ,		/* block I/O completion, source */
	KM_BIO_DST_IRQ,		/* block I/O completion, destination */
	KM_PTE0,		/* page-table pages only (none in HighMem yet: reserved) */
	KM_PTE1,
	KM_IRQ0,		/* interrupt handlers, e.g. aio_complete */
	KM_IRQ1,
	KM_TYPE_NR
};

#endif
