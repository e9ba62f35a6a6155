/* mm_shim.h: TEMPORARY until the memory layer lands: page and kmalloc allocation
 * with the names and signatures include/mm.h and include/slab.h will provide. */
#ifndef MM_SHIM_H
#define MM_SHIM_H

#include "types.h"

typedef unsigned gfp_t;

#define GFP_KERNEL	0x1	/* may sleep (the shim never does) */
#define GFP_ATOMIC	0x2	/* interrupt context: must not sleep */
#define PAGE_SIZE	4096

/* 2^order contiguous pages, PAGE_SIZE << order aligned; returns the kernel
 * virtual address, or 0 when the pool is exhausted. Any context. */
unsigned long __get_free_pages(gfp_t gfp, unsigned order);
/* Give back pages from __get_free_pages with the same order. Any context. */
void free_pages(unsigned long addr, unsigned order);
/* size bytes, 16-byte aligned; NULL when out of memory. Any context. */
void *kmalloc(size_t size, gfp_t gfp);
/* Free a kmalloc block; NULL is ignored. Any context. */
void kfree(const void *p);

#endif
