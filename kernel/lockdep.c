/* lockdep.c: the lock-order checker (lockdep.h): classes found by name, the
 * "taken after" edges as one bitmap row per class, held-lock stacks per CPU
 * (spinlocks) and per task (mutexes), and the inversion reports.
 *
 * Locks: one raw lock of its own (ld_lock_word, a plain exchange loop that
 * the checker does not follow), taken with interrupts off, guards the classes,
 * the edges and the usage bits. Each stack is touched only by its own CPU or
 * task, with interrupts off. The bitmap is read without the lock on the fast
 * path: a bit, once set, stays set. Reports run with this CPU's busy flag set,
 * so the locks printk takes are not followed.
 */
#include "cmdline.h"
#include "irq.h"
#include "lockdep.h"
#include "mm.h"
#include "panic.h"
#include "printk.h"
#include "sched.h"
#include "softirq.h"
#include "spinlock.h"
#include "string.h"

#define LD_MAX_CLASSES	512
#define LD_MAX_EDGES	2048
#define LD_CPU_DEPTH	24
#define LD_HASH		64
#define LD_NAME_LEN	32

/* Usage bits: in which context a class was taken; pairs that conflict. */
#define LD_HARDIRQ	0	/* in a hard interrupt handler */
#define LD_SOFTIRQ	1	/* in a softirq */
#define LD_IRQS_ON	2	/* with interrupts on, any context */
#define LD_PROC_IRQS_ON	3	/* in process context with interrupts on */
#define LD_USAGES	4

struct ld_class {
	char name[LD_NAME_LEN];
	u8 kind;
	u8 usage;			/* 1 << LD_* */
	bool nest_told;			/* a same-class nesting was reported */
	u16 hash_next;
	u32 usage_pc[LD_USAGES];	/* where each usage was first seen */
};

struct ld_edge {
	u16 from, to;			/* to taken while from held */
	u32 from_pc, to_pc;		/* where, the first time */
};

struct ld_cpu {
	u32 depth;
	bool busy;			/* reporting: ignore locks taken meanwhile */
	bool overflow_told;
	struct lockdep_held held[LD_CPU_DEPTH];
};

u8 lockdep_on;
u32 lockdep_bugs;

static volatile u32 ld_lock_word;
static struct ld_class classes[LD_MAX_CLASSES];	/* [0] unused: "not known yet" */
static u32 nr_classes = 1;
static u16 class_hash[LD_HASH];
static u32 after[LD_MAX_CLASSES][LD_MAX_CLASSES / 32];	/* after[a] bit b: a -> b */
static struct ld_edge edges[LD_MAX_EDGES];
static u32 nr_edges;
static struct ld_cpu ld_cpus[NR_CPUS];
static u16 path_parent[LD_MAX_CLASSES], path_queue[LD_MAX_CLASSES];

void lockdep_init(void)
{
	if (cmdline_get(&boot_cmdline, "lockdep")) {
		lockdep_on = 1;
		printk("lockdep: lock-order checker on (%u classes, %u edges at most)\n",
		       LD_MAX_CLASSES - 1, LD_MAX_EDGES);
	}
}

u32 lockdep_nr_classes(void) { return READ_ONCE(nr_classes) - 1; }
u32 lockdep_nr_edges(void) { return READ_ONCE(nr_edges); }

/* The checker's own lock: interrupts off, returns the flags to restore. */
static u32 ld_lock(void)
{
	u32 flags = local_irq_save();

	while (__atomic_exchange_n(&ld_lock_word, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
	return flags;
}

static void ld_unlock(u32 flags)
{
	__atomic_store_n(&ld_lock_word, 0, __ATOMIC_RELEASE);
	local_irq_restore(flags);
}

static u32 name_hash(const char *name, int kind)
{
	u32 h = 5381 + kind;

	for (int i = 0; name[i] && i < LD_NAME_LEN - 1; i++)
		h = h * 33 + (u8)name[i];
	return h % LD_HASH;
}

/* ld_lock held: the class of (name, kind), made if new; 0 when the table is full. */
static u16 class_find(const char *name, int kind)
{
	u32 h = name_hash(name, kind);
	struct ld_class *c;

	for (u16 i = class_hash[h]; i; i = classes[i].hash_next)
		if (classes[i].kind == kind && !strncmp(classes[i].name, name, LD_NAME_LEN - 1))
			return i;
	if (nr_classes == LD_MAX_CLASSES)
		return 0;
	c = &classes[nr_classes];
	strlcpy(c->name, name, sizeof(c->name));
	c->kind = kind;
	c->hash_next = class_hash[h];
	class_hash[h] = nr_classes;
	WRITE_ONCE(nr_classes, nr_classes + 1);
	return nr_classes - 1;
}

/* The lock's class, looked up once and cached in the lock (*cls). */
static u16 class_of(u16 *cls, const char *name, int kind)
{
	u16 c = READ_ONCE(*cls);
	u32 flags;

	if (likely(c))
		return c;
	flags = ld_lock();
	c = class_find(name ? name : "(unnamed)", kind);
	ld_unlock(flags);
	if (!c && lockdep_on) {
		lockdep_on = 0;
		printk(KERN_ERR "lockdep: more than %u lock classes: checker off\n",
		       LD_MAX_CLASSES - 1);
	}
	WRITE_ONCE(*cls, c);
	return c;
}

static bool edge_known(u16 from, u16 to)
{
	return READ_ONCE(after[from][to / 32]) & (1u << (to % 32));
}

static const struct ld_edge *edge_site(u16 from, u16 to)
{
	for (u32 i = 0; i < nr_edges; i++)
		if (edges[i].from == from && edges[i].to == to)
			return &edges[i];
	return NULL;
}

/* ld_lock held: is there a path from -> ... -> to? Breadth first over the
 * bitmap rows; path_parent[] then leads back from to. */
static bool path_exists(u16 from, u16 to)
{
	u32 head = 0, tail = 0;

	memset(path_parent, 0, sizeof(path_parent));
	path_queue[tail++] = from;
	path_parent[from] = from;
	while (head < tail) {
		u16 c = path_queue[head++];
		for (u16 n = 1; n < nr_classes; n++) {
			if (path_parent[n] || !edge_known(c, n))
				continue;
			path_parent[n] = c;
			if (n == to)
				return true;
			path_queue[tail++] = n;
		}
	}
	return false;
}

static const char *sym(u32 pc, char *buf, size_t size)
{
	return pc ? mm_symbolize(pc, buf, size) : "?";
}

static const char *kind_name(int kind)
{
	return kind == LOCKDEP_MUTEX ? "mutex" : "spinlock";
}

/* The locks held by this context, oldest first, then the one being taken. */
static void print_this_chain(struct ld_cpu *lc, u16 cls, u32 pc)
{
	char where[64];

	printk(KERN_ERR "  this chain (CPU %u, %s/%d, irq level %d):\n", smp_processor_id(),
	       current ? current->name : "?", current ? current->pid : 0, irq_nesting);
	for (u32 i = 0; !in_interrupt() && current && i < current->lockdep.depth; i++) {
		const struct lockdep_held *h = &current->lockdep.held[i];
		printk(KERN_ERR "    holds %s (mutex), taken at %s\n", classes[h->cls].name,
		       sym(h->pc, where, sizeof(where)));
	}
	for (u32 i = 0; i < lc->depth && i < LD_CPU_DEPTH; i++) {
		const struct lockdep_held *h = &lc->held[i];
		printk(KERN_ERR "    holds %s (spinlock, irq level %d), taken at %s\n",
		       classes[h->cls].name, h->level, sym(h->pc, where, sizeof(where)));
	}
	printk(KERN_ERR "    takes %s (%s) at %s\n", classes[cls].name, kind_name(classes[cls].kind),
	       sym(pc, where, sizeof(where)));
}

#define LD_HOPS	16	/* classes of an old chain printed at most */

struct ld_chain {
	u32 n;
	u16 hop[LD_HOPS];		/* hop[0] the first class, then each taken after it */
};

/* ld_lock held, after path_exists(from, to): the path, from first. */
static void chain_save(struct ld_chain *ch, u16 from, u16 to)
{
	u16 back[LD_HOPS];
	u32 n = 0;

	for (u16 c = to; c != from && n < LD_HOPS - 1; c = path_parent[c])
		back[n++] = c;
	back[n++] = from;
	ch->n = n;
	for (u32 i = 0; i < n; i++)
		ch->hop[i] = back[n - 1 - i];
}

/* The chain recorded before, with where each step was first taken. */
static void print_old_chain(const struct ld_chain *ch)
{
	char a[64], b[64];

	printk(KERN_ERR "  the order seen before:\n");
	for (u32 i = 0; i + 1 < ch->n; i++) {
		const struct ld_edge *e = edge_site(ch->hop[i], ch->hop[i + 1]);
		printk(KERN_ERR "    %s (taken at %s), then %s (taken at %s)\n",
		       classes[ch->hop[i]].name, sym(e ? e->from_pc : 0, a, sizeof(a)),
		       classes[ch->hop[i + 1]].name, sym(e ? e->to_pc : 0, b, sizeof(b)));
	}
}

static __noinline void ld_backtrace(void)
{
	dump_backtrace((u32)__builtin_return_address(0) - 1, *(u32 *)__builtin_frame_address(0));
}

/* Interrupts off: report that cls, about to be taken while holding held,
 * closes the cycle held -> cls -> ... -> held. */
static void report_inversion(struct ld_cpu *lc, u16 held, u16 cls, u32 pc,
			     const struct ld_chain *ch)
{
	lockdep_bugs++;
	lc->busy = true;
	printk(KERN_ERR "BUG: lock order inversion: %s taken while holding %s, "
	       "but %s was taken before with %s held (or after it, through others)\n",
	       classes[cls].name, classes[held].name, classes[held].name, classes[cls].name);
	print_this_chain(lc, cls, pc);
	print_old_chain(ch);
	ld_backtrace();
	lc->busy = false;
}

static void report_irq_inversion(struct ld_cpu *lc, u16 cls, int used, int with, u32 pc)
{
	static const char *const what[LD_USAGES] = {
		"in a hard interrupt handler", "in a softirq", "with interrupts on",
		"in process context with interrupts on",
	};
	char a[64], b[64];

	lockdep_bugs++;
	lc->busy = true;
	printk(KERN_ERR "BUG: lock order inversion (irq): %s taken %s (first at %s) and %s "
	       "(first at %s): the interrupt may come while it is held\n", classes[cls].name,
	       what[used], sym(classes[cls].usage_pc[used], a, sizeof(a)), what[with],
	       sym(classes[cls].usage_pc[with], b, sizeof(b)));
	print_this_chain(lc, cls, pc);
	ld_backtrace();
	lc->busy = false;
}

/* The usage this acquisition adds (bits), from the caller's context. */
static u8 usage_now(bool irqs_on)
{
	u8 u = 0;

	if (in_irq())
		u |= 1u << LD_HARDIRQ;
	else if (in_softirq())
		u |= 1u << LD_SOFTIRQ;
	if (irqs_on) {
		u |= 1u << LD_IRQS_ON;
		if (!in_interrupt())
			u |= 1u << LD_PROC_IRQS_ON;
	}
	return u;
}

/* Interrupts off: record new usage bits of cls; report a conflicting pair
 * the first time it appears. */
static void check_usage(struct ld_cpu *lc, u16 cls, bool irqs_on, u32 pc)
{
	static const u8 conflict[][2] = {
		{ LD_HARDIRQ, LD_IRQS_ON }, { LD_SOFTIRQ, LD_PROC_IRQS_ON },
	};
	struct ld_class *c = &classes[cls];
	u8 u = usage_now(irqs_on), old;

	if (likely((READ_ONCE(c->usage) & u) == u))
		return;
	while (__atomic_exchange_n(&ld_lock_word, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
	old = c->usage;
	for (int i = 0; i < LD_USAGES; i++)
		if ((u & ~old) & (1u << i))
			c->usage_pc[i] = pc;
	c->usage = old | u;
	__atomic_store_n(&ld_lock_word, 0, __ATOMIC_RELEASE);
	for (u32 i = 0; i < ARRAY_SIZE(conflict); i++) {
		u8 pair = (1u << conflict[i][0]) | (1u << conflict[i][1]);
		if ((c->usage & pair) == pair && (old & pair) != pair)
			report_irq_inversion(lc, cls, conflict[i][0], conflict[i][1], pc);
	}
}

/* Interrupts off: held -> cls is new. Record it; report if cls -> ... -> held
 * was seen before. */
static void add_edge(struct ld_cpu *lc, const struct lockdep_held *held, u16 cls, u32 pc)
{
	struct ld_chain ch;
	bool cycle;

	while (__atomic_exchange_n(&ld_lock_word, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
	if (edge_known(held->cls, cls)) {
		__atomic_store_n(&ld_lock_word, 0, __ATOMIC_RELEASE);
		return;			/* another CPU was first */
	}
	cycle = path_exists(cls, held->cls);
	if (cycle)
		chain_save(&ch, cls, held->cls);
	if (nr_edges < LD_MAX_EDGES)
		edges[nr_edges++] = (struct ld_edge){ held->cls, cls, held->pc, pc };
	__atomic_or_fetch(&after[held->cls][cls / 32], 1u << (cls % 32), __ATOMIC_RELEASE);
	__atomic_store_n(&ld_lock_word, 0, __ATOMIC_RELEASE);
	if (cycle)		/* printed without the lock: printk's own locks may need it */
		report_inversion(lc, held->cls, cls, pc, &ch);
}

/* Is taking n (lock, subclass) while h of the same class is held legal?
 * (lockdep.h: a higher subclass, or neither annotated and a higher address.) */
static bool nesting_legal(const struct lockdep_held *h, const struct lockdep_held *n)
{
	if (h->subclass || n->subclass)
		return n->subclass > h->subclass;
	return (u32)n->lock > (u32)h->lock;
}

/* Interrupts off: n, of h's class, is taken while h is held against the
 * rule; reported the first time for the class. */
static void report_nesting(struct ld_cpu *lc, const struct lockdep_held *h,
			   const struct lockdep_held *n)
{
	struct ld_class *c = &classes[n->cls];
	char where[64];

	if (c->nest_told)
		return;
	c->nest_told = true;
	lockdep_bugs++;
	lc->busy = true;
	printk(KERN_ERR "BUG: same-class lock nesting: %s %p (subclass %u) taken while holding "
	       "%s %p (subclass %u, taken at %s): neither a higher subclass nor address order\n",
	       c->name, n->lock, n->subclass, c->name, h->lock, h->subclass,
	       sym(h->pc, where, sizeof(where)));
	print_this_chain(lc, n->cls, n->pc);
	ld_backtrace();
	lc->busy = false;
}

static void check_order_one(struct ld_cpu *lc, const struct lockdep_held *h,
			    const struct lockdep_held *n)
{
	if (!h->cls)
		return;
	if (h->cls == n->cls) {
		if (h->lock != n->lock && !nesting_legal(h, n))	/* recursion: the lock's own check */
			report_nesting(lc, h, n);
	} else if (!edge_known(h->cls, n->cls)) {
		add_edge(lc, h, n->cls, n->pc);
	}
}

/* Interrupts off: every lock this context holds against n. */
static void check_order(struct ld_cpu *lc, const struct lockdep_held *n)
{
	int level = irq_nesting;

	if (!in_interrupt() && current)
		for (u32 i = 0; i < current->lockdep.depth; i++)
			check_order_one(lc, &current->lockdep.held[i], n);
	for (u32 i = 0; i < lc->depth; i++)
		if (lc->held[i].level == level)
			check_order_one(lc, &lc->held[i], n);
}

static void push_held(struct lockdep_held *stack, u32 *depth, u32 max,
		      const struct lockdep_held *h, struct ld_cpu *lc)
{
	if (*depth < max) {
		stack[(*depth)++] = *h;
		return;
	}
	if (!lc->overflow_told) {
		lc->overflow_told = true;
		printk(KERN_WARNING "lockdep: more than %u locks held at once: %s not followed\n",
		       max, classes[h->cls].name);
	}
}

/* lockdep_check with the acquisition's subclass. */
static void check_nested(const void *lock, u16 *cls, const char *name, int kind, u32 pc,
			 u8 subclass)
{
	struct lockdep_held n = { lock, 0, (u8)irq_nesting, subclass, pc };
	bool irqs_on = read_eflags() & EFLAGS_IF;
	u32 flags = local_irq_save();
	struct ld_cpu *lc = &ld_cpus[smp_processor_id()];

	if (!lc->busy && (n.cls = class_of(cls, name, kind))) {
		if (kind == LOCKDEP_SPIN)
			check_usage(lc, n.cls, irqs_on, pc);
		check_order(lc, &n);
	}
	local_irq_restore(flags);
}

void lockdep_check(const void *lock, u16 *cls, const char *name, int kind, u32 pc)
{
	check_nested(lock, cls, name, kind, pc, 0);
}

/* Count lock as held (its order already checked, or a trylock). */
static void push_lock(const void *lock, u16 *cls, const char *name, int kind, u32 pc,
		      u8 subclass)
{
	struct lockdep_held h = { lock, 0, (u8)irq_nesting, subclass, pc };
	struct ld_cpu *lc;
	u32 flags;

	flags = local_irq_save();
	lc = &ld_cpus[smp_processor_id()];
	h.cls = lc->busy ? 0 : class_of(cls, name, kind);	/* a trylock may come first */
	if (h.cls) {
		if (kind == LOCKDEP_MUTEX)
			push_held(current->lockdep.held, &current->lockdep.depth,
				  LOCKDEP_TASK_DEPTH, &h, lc);
		else
			push_held(lc->held, &lc->depth, LD_CPU_DEPTH, &h, lc);
	}
	local_irq_restore(flags);
}

void lockdep_acquire(const void *lock, u16 *cls, const char *name, int kind, u32 pc, bool try)
{
	if (!try)
		check_nested(lock, cls, name, kind, pc, 0);
	push_lock(lock, cls, name, kind, pc, 0);
}

void lockdep_acquire_nested(const void *lock, u16 *cls, const char *name, int kind, u32 pc,
			    u8 subclass)
{
	subclass = MIN(subclass, LOCKDEP_MAX_SUBCLASS);
	check_nested(lock, cls, name, kind, pc, subclass);
	push_lock(lock, cls, name, kind, pc, subclass);
}

/* Remove lock from a stack (the most recent entry for it); false if absent:
 * taken before the checker was on, or while it was reporting. */
static bool pop_held(struct lockdep_held *stack, u32 *depth, const void *lock)
{
	for (u32 i = *depth; i-- > 0;) {
		if (stack[i].lock != lock)
			continue;
		memmove(&stack[i], &stack[i + 1], (*depth - i - 1) * sizeof(stack[0]));
		(*depth)--;
		return true;
	}
	return false;
}

void lockdep_release(const void *lock, int kind)
{
	u32 flags = local_irq_save();

	if (kind == LOCKDEP_MUTEX)
		pop_held(current->lockdep.held, &current->lockdep.depth, lock);
	else
		pop_held(ld_cpus[smp_processor_id()].held, &ld_cpus[smp_processor_id()].depth, lock);
	local_irq_restore(flags);
}
