/* uaccess.h: reading and writing user memory from the kernel, safely.
 *
 * Every pointer that comes from user space goes through these. They check the
 * range lies below USER_TOP (access_ok), then touch it with instructions
 * listed in the exception table: a fault on an unmapped page resumes at a
 * fixup (after the process layer's handle_user_fault had its chance), so the
 * kernel returns an error instead of crashing.
 *
 * Context: process context with no spinlock held, preemption and interrupts
 * on (a mutex may be held): the access may fault, and the fault handler
 * allocates and may sleep. Every accessor checks this at run time: an access
 * in atomic context is counted in uaccess_atomic_bugs (the test runs require
 * it to stay 0) and reported with a backtrace, then goes on. The hot ones
 * (get_user/put_user of 4 bytes, the copies) test the context and the range
 * with one branch (uaccess_fast) and sort out which failed on a slow path.
 */
#ifndef UACCESS_H
#define UACCESS_H

#include "paging.h"
#include "spinlock.h"
#include "types.h"

#define __user		/* marks a user-space pointer (documentation only) */

/* True when [addr, addr + size) lies entirely in user space (size is taken
 * as 64-bit, so a huge count cannot wrap). Says nothing about mappings. */
static inline bool __access_ok(u32 addr, u64 size)
{
	return (u64)addr + size <= USER_TOP;
}
#define access_ok(addr, size)	__access_ok((u32)(addr), (u64)(size))

/* User accesses made in atomic context so far (tests reset it after one). */
extern u32 uaccess_atomic_bugs;
/* Report an access in atomic context made for caller (0: where this is
 * called from), counted and printed with a backtrace. */
void uaccess_report_atomic(u32 caller);
/* The check every accessor runs first. */
static inline void uaccess_might_fault(u32 caller)
{
	if (unlikely(in_atomic_context()))
		uaccess_report_atomic(caller);
}
/* The accessors' fast-path test, branch-free: [addr, addr + size) is user
 * space and the context may fault. When false, the slow path reports an
 * atomic context (uaccess_might_fault) and checks the range alone. */
static inline bool uaccess_fast(u32 addr, u64 size)
{
	return !(atomic_context_bits() | (u32)((u64)addr + size > USER_TOP));
}

/* access_ok, and no byte lies in a mapping of the current process whose
 * protection forbids the access (write: no PROT_WRITE; read: no PROT_READ).
 * For read/write/io_submit, whose device may never touch the buffer
 * (/dev/null): the protections hold there too (-EFAULT). Unmapped holes are
 * left to the copy, which stops at them (a short count, as on Linux). A
 * kernel thread (no mm) gets access_ok alone. Process context; takes the
 * mm's lock. */
bool access_ok_prot(const void __user *addr, size_t size, bool write);

/* Copy n bytes; returns the number of bytes NOT copied (0 on success), as
 * Linux does: callers turn a non-zero result into -EFAULT. copy_from_user
 * zeroes the part of the kernel buffer it could not fill. */
size_t copy_from_user(void *to, const void __user *from, size_t n);
/* The same, but the part not copied keeps its old bytes: for a destination
 * whose contents matter beyond a short copy (a file's page). */
size_t raw_copy_from_user(void *to, const void __user *from, size_t n);
size_t copy_to_user(void __user *to, const void *from, size_t n);
/* Copy a NUL-terminated string of at most count bytes: returns its length
 * (without the NUL; count if no NUL came first, then dst is not terminated),
 * or -EFAULT on a fault or when it runs into kernel space. */
long strncpy_from_user(char *dst, const char __user *src, long count);
/* Zero n user bytes; returns the number NOT cleared (n for a bad range). */
size_t clear_user(void __user *to, size_t n);

/* Backends of get_user/put_user: 0 or -EFAULT (get: dst zeroed on failure). */
int __get_user_bytes(void *dst, const void __user *src, size_t n);
int __put_user_bytes(void __user *dst, const void *src, size_t n);

/* The tail of a one-instruction user access labelled 1: a fault there
 * resumes after it with err = -EFAULT (operands [err] and [efault]). */
#define UACCESS_EFAULT_FIXUP						\
	"2:\n"								\
	".pushsection .text.fixup, \"ax\"\n"				\
	"3:	movl %[efault], %[err]\n"					\
	"	jmp 2b\n"							\
	".popsection\n"							\
	".pushsection __ex_table, \"a\"\n"					\
	"	.long 1b, 3b\n"						\
	".popsection"

/* One 32-bit load from user address src, inline: a u32 is the common
 * get_user (a pointer, a count, a word of a timespec). 0 or -EFAULT (*v 0). */
static inline int __get_user_4(u32 *v, const void __user *src)
{
	int err = 0;

	if (unlikely(!uaccess_fast((u32)src, 4)))
		return __get_user_bytes(v, src, 4);
	*v = 0;
	asm volatile("1:	movl (%[src]), %[v]\n"
		     UACCESS_EFAULT_FIXUP
		     : [v] "+r"(*v), [err] "+r"(err)
		     : [src] "r"(src), [efault] "i"(-EFAULT) : "memory");
	return err;
}

/* x = *ptr from user space; 0 or -EFAULT (x is 0 then). */
#define get_user(x, ptr) ({							\
	union { __typeof__(*(ptr)) v; u8 b[sizeof(*(ptr))]; u32 w; } __gu;	\
	int __gu_err = sizeof(*(ptr)) == 4 ? __get_user_4(&__gu.w, (ptr)) :	\
		__get_user_bytes(__gu.b, (ptr), sizeof(*(ptr)));		\
	(x) = __gu.v;								\
	__gu_err; })

/* One 32-bit store of v to user address dst, inline (a key, a count, a
 * context id). 0 or -EFAULT. */
static inline int __put_user_4(u32 v, void __user *dst)
{
	int err = 0;

	if (unlikely(!uaccess_fast((u32)dst, 4)))
		return __put_user_bytes(dst, &v, 4);
	asm volatile("1:	movl %[v], (%[dst])\n"
		     UACCESS_EFAULT_FIXUP
		     : [err] "+r"(err)
		     : [v] "r"(v), [dst] "r"(dst), [efault] "i"(-EFAULT) : "memory");
	return err;
}

/* *ptr = x in user space; 0 or -EFAULT. */
#define put_user(x, ptr) ({							\
	union { __typeof__(*(ptr)) v; u8 b[sizeof(*(ptr))]; u32 w; } __pu;	\
	__pu.v = (x);								\
	sizeof(*(ptr)) == 4 ? __put_user_4(__pu.w, (ptr)) :			\
		__put_user_bytes((ptr), __pu.b, sizeof(*(ptr))); })

#endif
