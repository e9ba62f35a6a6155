/* slab.h: object caches (kmem_cache_*) and kmalloc/kfree.
 *
 * A cache hands out objects of one size from slabs: blocks of 2^order low
 * pages cut into equal objects, described by the struct page of their first
 * page (freelist, inuse). A slab is on exactly one of its cache's lists:
 * free (no object used), partial, or full. A free object holds the link to
 * the next one at free_offset (0, or past the object when there is a
 * constructor, so constructed state survives a free). Each cache's lock is
 * irq-safe (GFP_ATOMIC callers in interrupts) and is never held while the
 * page allocator or a constructor runs. Every cache is on kmem_caches.
 */
#ifndef SLAB_H
#define SLAB_H

#include "list.h"
#include "mm.h"
#include "spinlock.h"
#include "types.h"

#define SLAB_MAX_ORDER		3	/* slabs of at most 8 pages */
#define SLAB_MIN_OBJS		8	/* grow the slab order until this many fit */
/* Empty slabs a cache keeps for reuse: enough for SLAB_KEEP_FREE_OBJS objects
 * (a burst of completions frees a queue's worth, and the next submits take
 * them again), at least one slab and at most SLAB_KEEP_FREE_PAGES pages. */
#define SLAB_KEEP_FREE_OBJS	64u
#define SLAB_KEEP_FREE_PAGES	8u
#define KMALLOC_MIN_SIZE	8
#define KMALLOC_MAX_CACHE_SIZE	2048	/* larger kmallocs come from the page allocator */

struct kmem_cache {
	const char *name;
	u32 object_size;		/* what the creator asked for */
	u32 size;			/* stride between objects */
	u32 align;
	u32 free_offset;		/* where a free object keeps its link */
	u32 order;			/* a slab is 2^order pages */
	u32 objs_per_slab;
	u32 size_recip;			/* ceil(2^32 / size): slab_index() */
	u32 keep_free;			/* empty slabs kept for reuse (SLAB_KEEP_FREE_*) */
	gfp_t gfp;			/* zone flags for slab pages (__GFP_DMA) */
	void (*ctor)(void *obj);	/* run once per object when its slab is made */
	struct list_head list;		/* in kmem_caches, under kmem_caches_lock */

	spinlock_t lock;		/* guards everything below */
	struct list_head slabs_full, slabs_partial, slabs_free;
	u32 objs_in_use;		/* allocated and not freed */
	u32 nr_slabs;
	u32 nr_free_slabs;
	u32 pages;			/* pages held by all slabs */
	u32 allocs, frees;		/* lifetime totals */
};

extern struct list_head kmem_caches;	/* every cache (a gdb helper walks it) */
extern spinlock_t kmem_caches_lock;

/* Create the kmalloc caches; part of mm_init. */
void slab_init(void);

/* A cache of size-byte objects aligned to align (0: 4 bytes; a power of 2),
 * with an optional constructor. name must outlive the cache. Returns NULL on
 * a bad size/alignment or no memory. Process context. */
struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align,
				     void (*ctor)(void *obj));
/* Destroy an empty cache: 0, or -EBUSY (after a report) while objects are
 * still allocated. Process context. */
int kmem_cache_destroy(struct kmem_cache *cache);
/* One object, or NULL when no memory. Any context with GFP_ATOMIC. */
void *kmem_cache_alloc(struct kmem_cache *cache, gfp_t gfp);
/* Give obj back to cache; a wrong cache, a pointer that is no object of it or
 * an immediate double free is reported (mm_bug). Any context. */
void kmem_cache_free(struct kmem_cache *cache, void *obj);
/* Release the cache's empty slabs; returns the pages freed. Any context. */
u32 kmem_cache_shrink(struct kmem_cache *cache);
/* Objects in use over all caches (leak checks). */
u32 slab_objects_in_use(void);
/* Give every cache's empty slabs back to the page allocator. */
void slab_shrink_all(void);

/* size bytes from the smallest size class that fits (8..2048), or pages for
 * larger sizes; GFP_DMA gives DMA-zone memory. NULL for 0 bytes or no memory. */
void *kmalloc(size_t size, gfp_t gfp);
void *kzalloc(size_t size, gfp_t gfp);
/* Free what kmalloc returned; NULL is ignored. Any context. */
void kfree(const void *ptr);
/* Usable size of a kmalloc block. */
size_t ksize(const void *ptr);
/* The kmalloc cache serving size (NULL above KMALLOC_MAX_CACHE_SIZE). */
struct kmem_cache *kmalloc_cache(size_t size, gfp_t gfp);

#endif
