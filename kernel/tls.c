/* tls.c: per-thread TLS segments: set_thread_area (243), CLONE_SETTLS, and the GDT's TLS entries 6-8 at each context switch. */
#include "errno.h"
#include "gdt.h"
#include "sched.h"
#include "string.h"
#include "syscall_table.h"
#include "tls.h"
#include "uaccess.h"
#include "uapi/sched.h"
#include "x86.h"

#define DESC_S		(1ull << 44)	/* code/data, not system */
#define DESC_DPL3	(3ull << 45)
#define DESC_P		(1ull << 47)	/* present */
#define DESC_AVL	(1ull << 52)	/* "useable" */
#define DESC_DB		(1ull << 54)	/* 32-bit */
#define DESC_G		(1ull << 55)	/* limit in pages */
#define DESC_WRITABLE	(1ull << 41)

/* Linux's "empty" descriptor: clears the slot. */
static bool desc_empty(const struct user_desc *u)
{
	return (!u->base_addr && !u->limit && u->flags == (KDESC_READ_EXEC_ONLY | KDESC_SEG_NOT_PRESENT)) ||
	       (!u->base_addr && !u->limit && !u->flags);
}

/* A ring-3 data segment from u; 0 for an empty one; -EINVAL for a code segment. */
static int desc_encode(const struct user_desc *u, u64 *out)
{
	u64 d;

	if (desc_empty(u)) {
		*out = 0;
		return 0;
	}
	if ((u->flags & KDESC_CONTENTS_MASK) >= 4 || (u->flags & ~0x7Fu))
		return -EINVAL;			/* code segments, unknown bits */
	d = (u->limit & 0xFFFF) | ((u64)(u->base_addr & 0xFFFF) << 16);
	d |= (u64)((u->base_addr >> 16) & 0xFF) << 32;
	d |= (u64)(u->limit & 0xF0000) << 32;
	d |= (u64)(u->base_addr >> 24) << 56;
	d |= (u64)(u->flags & KDESC_CONTENTS_MASK) << 41;	/* expand-down bit (contents 1) */
	d |= DESC_S | DESC_DPL3;
	if (!(u->flags & KDESC_READ_EXEC_ONLY))
		d |= DESC_WRITABLE;
	if (!(u->flags & KDESC_SEG_NOT_PRESENT))
		d |= DESC_P;
	if (u->flags & KDESC_SEG_32BIT)
		d |= DESC_DB;
	if (u->flags & KDESC_LIMIT_IN_PAGES)
		d |= DESC_G;
	if (u->flags & KDESC_USEABLE)
		d |= DESC_AVL;
	*out = d;
	return 0;
}

int tls_set(struct task *t, struct user_desc *u)
{
	int idx = (int)u->entry_number;
	u64 desc;
	u32 flags;
	int err;

	if (idx == -1) {
		for (int i = 0; i < GDT_TLS_COUNT && idx == -1; i++)
			if (!t->tls[i])
				idx = GDT_TLS_MIN + i;
		if (idx == -1)
			return -ESRCH;
		u->entry_number = idx;
	}
	if (idx < GDT_TLS_MIN || idx >= GDT_TLS_MIN + GDT_TLS_COUNT)
		return -EINVAL;
	err = desc_encode(u, &desc);
	if (err)
		return err;
	flags = local_irq_save();
	t->tls[idx - GDT_TLS_MIN] = desc;
	if (t == current)
		gdt_set_entry(idx, desc);
	local_irq_restore(flags);
	return 0;
}

long sys_set_thread_area(struct user_desc *uinfo)
{
	struct user_desc u;
	u32 old;
	int err;

	if (copy_from_user(&u, uinfo, sizeof(u)))
		return -EFAULT;
	old = u.entry_number;
	err = tls_set(current, &u);
	if (!err && old == (u32)-1 && put_user(u.entry_number, &uinfo->entry_number))
		return -EFAULT;
	return err;
}

void tls_switch(struct task *next)
{
	bool changed = false;

	if (!next->mm)
		return;				/* a kernel thread never uses them */
	for (int i = 0; i < GDT_TLS_COUNT; i++)
		if (gdt_get_entry(GDT_TLS_MIN + i) != next->tls[i]) {
			gdt_set_entry(GDT_TLS_MIN + i, next->tls[i]);
			changed = true;
		}
	if (changed)	/* drop the stale cached bases: the way out reloads from the frame */
		asm volatile("mov %0, %%fs\n\tmov %0, %%gs" :: "r"(0) : "memory");
}

bool tls_selector_ok(u32 sel)
{
	int entry = sel >> 3;

	return (sel & 7) == 3 && entry >= GDT_TLS_MIN && entry < GDT_TLS_MIN + GDT_TLS_COUNT &&
	       (current->tls[entry - GDT_TLS_MIN] & DESC_P);
}

void tls_clear(struct task *t)
{
	u32 flags = local_irq_save();

	memset(t->tls, 0, sizeof(t->tls));
	if (t == current)
		tls_switch(t);
	local_irq_restore(flags);
}
