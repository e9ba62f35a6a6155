/* highmem.h: reaching pages without a permanent mapping: kmap and kmap_atomic.
 *
 * Low pages map to their direct-map address at no cost. A highmem page gets
 * either a persistent kmap entry (process context only; may sleep once there
 * is a scheduler) or a kmap_atomic slot: one fixmap page per km_type per CPU, usable
 * from interrupt context, never sleeping. Debug checks (always on): a slot
 * mapped twice, unmapped with another slot's address or not mapped, a
 * process-context slot used in an interrupt, an interrupt slot used with
 * interrupts enabled. They report both call sites through mm_bug().
 * kunmap_atomic leaves the slot's PTE in place in the shipped kernel (a later
 * map of the same page costs nothing); the test kernel clears it, so that a
 * stale user faults (highmem.c).
 */
#ifndef HIGHMEM_H
#define HIGHMEM_H

#include "acpi.h"
#include "highmem_types.h"
#include "types.h"

struct page;

/* State of each kmap_atomic slot, for the debug checks and a gdb helper:
 * CPU n's slot of type t is kmap_atomic_slots[n * KM_TYPE_NR + t], at fixmap
 * index FIX_KMAP_BEGIN + the same (km_slot below). Only CPU n touches its
 * slots, with preemption off from map to unmap (no lock). */
struct kmap_atomic_slot {
	struct page *page;		/* mapped page, NULL when the slot is free */
	u32 caller;			/* return address of the kmap_atomic call */
};
extern struct kmap_atomic_slot kmap_atomic_slots[KM_TYPE_NR * NR_CPUS];
/* The index of the running CPU's slot of type (into kmap_atomic_slots and
 * after FIX_KMAP_BEGIN). Preemption off (or the answer may be stale). */
unsigned km_slot(enum km_type type);
extern const char *const km_type_names[KM_TYPE_NR];

/* Set up the persistent kmap area; part of mm_init. */
void highmem_init(void);

/* Map page into the kernel until kunmap; process context only. Returns the
 * address, or NULL (after a report) when every kmap entry is taken. */
void *kmap(struct page *page);
/* Drop one kmap of page; the last one removes the mapping. */
void kunmap(struct page *page);
/* kmap entries in use (for tests and leak checks). */
u32 kmap_nr_in_use(void);
/* kmap calls that found no free entry. */
extern u32 kmap_failures;

/* Map page in the slot named by type; never sleeps, any context whose slot
 * type matches (KM_IRQ* etc. in interrupts). Returns the address. */
void *kmap_atomic(struct page *page, enum km_type type);
/* Unmap the slot; addr must be what kmap_atomic(.., type) returned. */
void kunmap_atomic(void *addr, enum km_type type);
/* The page mapped at a kmap_atomic or direct-map address. */
struct page *kmap_atomic_to_page(void *addr);

#ifdef CONFIG_KTEST
/* Test kernel: kunmap_atomic clears the PTE (true, the default); a test sets
 * it false to run the shipped kernel's way. */
extern bool km_clear_on_unmap;
#endif

#endif
