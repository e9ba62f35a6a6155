/* slab.c: object caches over the page allocator, and kmalloc on top of them. */
#include "errno.h"
#include "mm.h"
#include "panic.h"
#include "printk.h"
#include "slab.h"
#include "string.h"

LIST_HEAD(kmem_caches);
DEFINE_SPINLOCK(kmem_caches_lock);

static struct kmem_cache cache_cache;	/* the descriptors of the other caches */

static const u32 kmalloc_sizes[] = { 8, 16, 32, 64, 128, 256, 512, 1024, 2048 };
#define NR_KMALLOC	ARRAY_SIZE(kmalloc_sizes)
static const char *const kmalloc_names[NR_KMALLOC] = {
	"kmalloc-8", "kmalloc-16", "kmalloc-32", "kmalloc-64", "kmalloc-128",
	"kmalloc-256", "kmalloc-512", "kmalloc-1024", "kmalloc-2048",
};
static const char *const kmalloc_dma_names[NR_KMALLOC] = {
	"kmalloc-dma-8", "kmalloc-dma-16", "kmalloc-dma-32", "kmalloc-dma-64",
	"kmalloc-dma-128", "kmalloc-dma-256", "kmalloc-dma-512", "kmalloc-dma-1024",
	"kmalloc-dma-2048",
};
static struct kmem_cache *kmalloc_caches[NR_KMALLOC];
static struct kmem_cache *kmalloc_dma_caches[NR_KMALLOC];

BUILD_BUG_ON(KMALLOC_MAX_CACHE_SIZE != 2048);
BUILD_BUG_ON((PAGE_SIZE << SLAB_MAX_ORDER) > (1u << 15));	/* slab_index() is exact below it */

/* --------------------------------------------------------------- layout */

static void **free_link(const struct kmem_cache *c, void *obj)
{
	return (void **)((char *)obj + c->free_offset);
}

/* Choose stride and slab order; -EINVAL when the object cannot be cached. */
static int cache_layout(struct kmem_cache *c, size_t size, size_t align)
{
	u32 need;

	if (!size || size > (PAGE_SIZE << SLAB_MAX_ORDER) || (align & (align - 1)))
		return -EINVAL;
	c->align = MAX(align, sizeof(void *));
	c->object_size = size;
	c->free_offset = c->ctor ? ALIGN_UP(size, sizeof(void *)) : 0;
	need = c->ctor ? c->free_offset + sizeof(void *) : MAX(size, sizeof(void *));
	c->size = ALIGN_UP(need, c->align);
	for (c->order = 0; c->order < SLAB_MAX_ORDER; c->order++)
		if ((PAGE_SIZE << c->order) / c->size >= SLAB_MIN_OBJS)
			break;
	c->objs_per_slab = (PAGE_SIZE << c->order) / c->size;
	if (!c->objs_per_slab)
		return -EINVAL;
	c->size_recip = (u32)(((1ull << 32) + c->size - 1) / c->size);
	c->keep_free = MAX(1u, MIN(DIV_ROUND_UP(SLAB_KEEP_FREE_OBJS, c->objs_per_slab),
				   SLAB_KEEP_FREE_PAGES >> c->order));
	return 0;
}

static int cache_setup(struct kmem_cache *c, const char *name, size_t size,
		       size_t align, gfp_t gfp, void (*ctor)(void *))
{
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->ctor = ctor;
	c->gfp = gfp;
	if (cache_layout(c, size, align))
		return -EINVAL;
	spin_lock_init(&c->lock, name);
	INIT_LIST_HEAD(&c->slabs_full);
	INIT_LIST_HEAD(&c->slabs_partial);
	INIT_LIST_HEAD(&c->slabs_free);
	return 0;
}

static void cache_list_add(struct kmem_cache *c)
{
	u32 flags;

	spin_lock_irqsave(&kmem_caches_lock, flags);
	list_add_tail(&c->list, &kmem_caches);
	spin_unlock_irqrestore(&kmem_caches_lock, flags);
}

/* ---------------------------------------------------------------- slabs */

/* A new slab with every object constructed and free; no lock held. */
static struct page *slab_new(struct kmem_cache *c, gfp_t gfp)
{
	gfp_t flags = (gfp & (__GFP_WAIT | __GFP_HIGH)) | c->gfp;
	struct page *page = alloc_pages(flags, c->order);
	char *base;
	void *next = NULL;

	if (!page)
		return NULL;
	for (u32 i = 0; i < (1u << c->order); i++) {
		page[i].flags |= PG_slab;
		page[i].slab_cache = c;
		page[i].slab_head = page;
	}
	base = page_address(page);
	for (u32 i = c->objs_per_slab; i-- > 0;) {
		void *obj = base + i * c->size;
		if (c->ctor)
			c->ctor(obj);
		*free_link(c, obj) = next;
		next = obj;
	}
	page->freelist = next;
	page->slab_inuse = 0;
	return page;
}

static void slab_release(struct kmem_cache *c, struct page *page)
{
	for (u32 i = 0; i < (1u << c->order); i++) {
		page[i].flags &= ~PG_slab;
		page[i].slab_cache = NULL;
		page[i].slab_head = NULL;
	}
	page->private = c->order;	/* slab_inuse shared the field */
	__free_pages(page, c->order);
}

/* The list a slab with this many objects in use belongs on. */
static struct list_head *slab_list_for(struct kmem_cache *c, u32 inuse)
{
	if (!inuse)
		return &c->slabs_free;
	return inuse == c->objs_per_slab ? &c->slabs_full : &c->slabs_partial;
}

/* inuse of page changed from old: move the slab between lists; lock held. */
static void slab_relist(struct kmem_cache *c, struct page *page, u32 old)
{
	struct list_head *from = slab_list_for(c, old), *to = slab_list_for(c, page->slab_inuse);

	if (from == to)
		return;
	list_del(&page->lru);
	list_add(&page->lru, to);
	c->nr_free_slabs += (to == &c->slabs_free) - (from == &c->slabs_free);
}

static void slab_attach(struct kmem_cache *c, struct page *page)
{
	list_add(&page->lru, &c->slabs_free);
	c->nr_slabs++;
	c->nr_free_slabs++;
	c->pages += 1u << c->order;
}

static void slab_detach(struct kmem_cache *c, struct page *page)
{
	list_del(&page->lru);
	c->nr_slabs--;
	c->nr_free_slabs--;
	c->pages -= 1u << c->order;
}

/* A slab with a free object, partial ones first; NULL if none. Lock held. */
static struct page *slab_pick(struct kmem_cache *c)
{
	if (!list_empty(&c->slabs_partial))
		return list_first_entry(&c->slabs_partial, struct page, lru);
	if (!list_empty(&c->slabs_free))
		return list_first_entry(&c->slabs_free, struct page, lru);
	return NULL;
}

/* ------------------------------------------------------- alloc and free */

void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp)
{
	struct page *page;
	void *obj;
	u32 flags;

	spin_lock_irqsave(&c->lock, flags);
	while (!(page = slab_pick(c))) {
		spin_unlock_irqrestore(&c->lock, flags);
		page = slab_new(c, gfp);
		if (!page)
			return NULL;
		spin_lock_irqsave(&c->lock, flags);
		slab_attach(c, page);
	}
	obj = page->freelist;
	page->freelist = *free_link(c, obj);
	page->slab_inuse++;
	slab_relist(c, page, page->slab_inuse - 1);
	c->objs_in_use++;
	c->allocs++;
	spin_unlock_irqrestore(&c->lock, flags);
	return obj;
}

/* off / c->size for an offset inside a slab, by multiplication: exact, since
 * off and the size are below 2^15 and the rounding error of size_recip times
 * off stays below 2^30 (a division is a helper call under TCG). */
static u32 slab_index(const struct kmem_cache *c, u32 off)
{
	return (u32)(((u64)off * c->size_recip) >> 32);
}

/* The slab head of obj, or NULL (after a report) when obj is no object of c. */
static struct page *slab_of(struct kmem_cache *c, const void *obj, u32 caller)
{
	u32 va = (u32)obj, off, idx;
	struct page *page;
	char who[64];

	if (va < KERNEL_BASE || va >= (u32)__va(lowmem_limit) ||
	    !PageSlab(virt_to_page(obj)) || virt_to_page(obj)->slab_cache != c) {
		mm_bug("kmem_cache_free(%s, %p) from %s: not an object of this cache",
		       c->name, obj, mm_symbolize(caller, who, sizeof(who)));
		return NULL;
	}
	page = virt_to_page(obj)->slab_head;
	off = va - (u32)page_address(page);
	idx = slab_index(c, off);
	if (idx * c->size != off || idx >= c->objs_per_slab) {
		mm_bug("kmem_cache_free(%s, %p) from %s: not the start of an object",
		       c->name, obj, mm_symbolize(caller, who, sizeof(who)));
		return NULL;
	}
	return page;
}

static void cache_free(struct kmem_cache *c, void *obj, u32 caller)
{
	struct page *page = slab_of(c, obj, caller), *release = NULL;
	char who[64];
	u32 flags;

	if (!page)
		return;
	spin_lock_irqsave(&c->lock, flags);
	if (!page->slab_inuse || page->freelist == obj) {
		spin_unlock_irqrestore(&c->lock, flags);
		mm_bug("kmem_cache_free(%s, %p) from %s: double free", c->name, obj,
		       mm_symbolize(caller, who, sizeof(who)));
		return;
	}
	*free_link(c, obj) = page->freelist;
	page->freelist = obj;
	page->slab_inuse--;
	slab_relist(c, page, page->slab_inuse + 1);
	c->objs_in_use--;
	c->frees++;
	if (!page->slab_inuse && c->nr_free_slabs > c->keep_free) {
		slab_detach(c, page);
		release = page;
	}
	spin_unlock_irqrestore(&c->lock, flags);
	if (release)
		slab_release(c, release);
}

void kmem_cache_free(struct kmem_cache *c, void *obj)
{
	cache_free(c, obj, (u32)__builtin_return_address(0));
}

u32 kmem_cache_shrink(struct kmem_cache *c)
{
	LIST_HEAD(empty);
	struct page *page, *next;
	u32 flags, freed = 0;

	spin_lock_irqsave(&c->lock, flags);
	while (!list_empty(&c->slabs_free)) {
		page = list_first_entry(&c->slabs_free, struct page, lru);
		slab_detach(c, page);
		list_add(&page->lru, &empty);
	}
	spin_unlock_irqrestore(&c->lock, flags);
	list_for_each_entry_safe(page, next, &empty, lru) {
		list_del(&page->lru);
		slab_release(c, page);
		freed += 1u << c->order;
	}
	return freed;
}

/* ------------------------------------------------------ create, destroy */

struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align,
				     void (*ctor)(void *obj))
{
	struct kmem_cache *c = kmem_cache_alloc(&cache_cache, GFP_KERNEL);

	if (!c)
		return NULL;
	if (cache_setup(c, name, size, align, 0, ctor)) {
		kmem_cache_free(&cache_cache, c);
		return NULL;
	}
	cache_list_add(c);
	return c;
}

int kmem_cache_destroy(struct kmem_cache *c)
{
	u32 flags, in_use;

	spin_lock_irqsave(&c->lock, flags);
	in_use = c->objs_in_use;
	spin_unlock_irqrestore(&c->lock, flags);
	if (in_use) {
		mm_bug("kmem_cache_destroy(%s): %u objects still in use", c->name, in_use);
		return -EBUSY;
	}
	kmem_cache_shrink(c);
	spin_lock_irqsave(&kmem_caches_lock, flags);
	list_del(&c->list);
	spin_unlock_irqrestore(&kmem_caches_lock, flags);
	kmem_cache_free(&cache_cache, c);
	return 0;
}

/* --------------------------------------------------------------- kmalloc */

struct kmem_cache *kmalloc_cache(size_t size, gfp_t gfp)
{
	for (u32 i = 0; i < NR_KMALLOC; i++)
		if (size <= kmalloc_sizes[i])
			return (gfp & __GFP_DMA) ? kmalloc_dma_caches[i] : kmalloc_caches[i];
	return NULL;
}

static unsigned size_to_order(size_t size)
{
	unsigned order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

void *kmalloc(size_t size, gfp_t gfp)
{
	struct kmem_cache *c;

	if (!size)
		return NULL;
	c = kmalloc_cache(size, gfp);
	if (c)
		return kmem_cache_alloc(c, gfp);
	if (size > (PAGE_SIZE << (MAX_ORDER - 1)))
		return NULL;
	return (void *)__get_free_pages(gfp, size_to_order(size));
}

void *kzalloc(size_t size, gfp_t gfp)
{
	void *p = kmalloc(size, gfp);

	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(const void *ptr)
{
	u32 va = (u32)ptr;
	struct page *page;

	if (!ptr)
		return;
	if (va < KERNEL_BASE || va >= (u32)__va(lowmem_limit)) {
		mm_bug("kfree(%p): not a kmalloc address", ptr);
		return;
	}
	page = virt_to_page(ptr);
	if (PageSlab(page))
		cache_free(page->slab_cache, (void *)ptr, (u32)__builtin_return_address(0));
	else if ((va & ~PAGE_MASK) || !(page->flags & PG_head))
		mm_bug("kfree(%p): not a kmalloc block", ptr);
	else
		__free_pages(page, page->private);
}

size_t ksize(const void *ptr)
{
	struct page *page;

	if (!ptr)
		return 0;
	page = virt_to_page(ptr);
	if (PageSlab(page))
		return page->slab_cache->object_size;
	return PAGE_SIZE << page->private;
}

void slab_init(void)
{
	if (cache_setup(&cache_cache, "kmem_cache", sizeof(struct kmem_cache), 0, 0, NULL))
		panic("slab_init: cannot set up the cache of caches");
	cache_list_add(&cache_cache);
	for (u32 i = 0; i < NR_KMALLOC; i++) {
		kmalloc_caches[i] = kmem_cache_create(kmalloc_names[i], kmalloc_sizes[i], 0, NULL);
		kmalloc_dma_caches[i] = kmem_cache_create(kmalloc_dma_names[i],
							  kmalloc_sizes[i], 0, NULL);
		if (!kmalloc_caches[i] || !kmalloc_dma_caches[i])
			panic("slab_init: cannot create %s", kmalloc_names[i]);
		kmalloc_dma_caches[i]->gfp = __GFP_DMA;
	}
	printk("slab: %u kmalloc size classes %u..%u bytes, larger from pages\n",
	       (unsigned)NR_KMALLOC, kmalloc_sizes[0], kmalloc_sizes[NR_KMALLOC - 1]);
}

void slab_shrink_all(void)
{
	struct kmem_cache *c;
	u32 flags;

	spin_lock_irqsave(&kmem_caches_lock, flags);
	list_for_each_entry(c, &kmem_caches, list)
		kmem_cache_shrink(c);
	spin_unlock_irqrestore(&kmem_caches_lock, flags);
}

u32 slab_objects_in_use(void)
{
	struct kmem_cache *c;
	u32 n = 0, flags;

	spin_lock_irqsave(&kmem_caches_lock, flags);
	list_for_each_entry(c, &kmem_caches, list)
		n += c->objs_in_use;
	spin_unlock_irqrestore(&kmem_caches_lock, flags);
	return n;
}
