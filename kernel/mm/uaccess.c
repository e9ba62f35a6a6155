/* uaccess.c: user-memory access through exception-table fixups.
 *
 * Each routine touches user memory with one string instruction listed in
 * __ex_table. A fault leaves ecx/esi/edi exactly where the copy stopped; the
 * page-fault handler resumes at the fixup, which reports what was left.
 * Each entry point first checks that it may fault (uaccess_might_fault); the
 * hot ones fold that check and the range check into one branch (uaccess_ok).
 */
#include "errno.h"
#include "sched.h"
#include "string.h"
#include "uaccess.h"
#include "vm.h"

/* Copy n bytes: whole words with rep movsl, then the rest with rep movsb
 * (an emulator runs a rep instruction one iteration at a time, so words cost
 * a quarter). Returns the bytes not copied, exactly: a fault in the word part
 * (a word across the end of the mapping) goes on byte by byte from the word
 * that faulted, up to the first byte that faults. */
static size_t __copy_user(void *to, const void *from, size_t n)
{
	size_t words = n >> 2, tail = n & 3;

	asm volatile("1:	rep movsl\n"
		     "	movl %[tail], %%ecx\n"
		     "2:	rep movsb\n"
		     "3:\n"
		     ".pushsection .text.fixup, \"ax\"\n"
		     "4:	leal (%[tail], %%ecx, 4), %%ecx\n"
		     "	jmp 2b\n"
		     ".popsection\n"
		     ".pushsection __ex_table, \"a\"\n"
		     "	.long 1b, 4b\n"
		     "	.long 2b, 3b\n"
		     ".popsection"
		     : "+c"(words), "+D"(to), "+S"(from) : [tail] "r"(tail) : "memory");
	return words;
}

#define COPY_BLOCK	64		/* bytes per pass of the unrolled copy */

/* Copy whole 64-byte blocks with sixteen load/store pairs of words per pass.
 * Under TCG a rep movsl runs one translated-block pass per word; this loop
 * runs one per block, and a 4 KiB copy takes about 0.65 of the time (measured:
 * 4,800 against 7,500 TSC cycles; 16-byte SSE moves took 6,700). A fault
 * leaves esi/edi at the start of the block it hit: that block and the rest
 * go to __copy_user, which stops at the exact byte. Returns the bytes not
 * copied. */
static size_t __copy_user_blocks(void *to, const void *from, size_t n)
{
	size_t blocks = n / COPY_BLOCK;

	asm volatile("1:\n"
		     ".irp off, 0, 8, 16, 24, 32, 40, 48, 56\n"
		     "10:	movl \\off(%%esi), %%eax\n"
		     "11:	movl %%eax, \\off(%%edi)\n"
		     "12:	movl \\off+4(%%esi), %%edx\n"
		     "13:	movl %%edx, \\off+4(%%edi)\n"
		     ".pushsection __ex_table, \"a\"\n"
		     "	.long 10b, 9f\n	.long 11b, 9f\n	.long 12b, 9f\n	.long 13b, 9f\n"
		     ".popsection\n"
		     ".endr\n"
		     "	addl $64, %%esi\n"
		     "	addl $64, %%edi\n"
		     "	decl %%ecx\n"
		     "	jnz 1b\n"
		     "9:\n"
		     : "+c"(blocks), "+D"(to), "+S"(from) : : "eax", "edx", "memory");
	return __copy_user(to, from, blocks * COPY_BLOCK + n % COPY_BLOCK);
}

/* The copy for n bytes: unrolled blocks from one block up, else words. */
static inline size_t copy_user_any(void *to, const void *from, size_t n)
{
	if (n >= COPY_BLOCK)
		return __copy_user_blocks(to, from, n);
	return __copy_user(to, from, n);
}

/* Zero n bytes with rep stosb; returns the bytes not cleared. */
static size_t __clear_user(void *to, size_t n)
{
	asm volatile("1:	rep stosb\n"
		     "2:\n"
		     ".pushsection __ex_table, \"a\"\n"
		     "	.long 1b, 2b\n"
		     ".popsection"
		     : "+c"(n), "+D"(to) : "a"(0) : "memory");
	return n;
}

/* Copy up to max bytes, stopping after a NUL; returns the bytes copied
 * before the NUL (max if none), or -EFAULT on a fault. */
static long __strncpy_user(char *dst, const char *src, long max)
{
	long left = max, err = 0;

	asm volatile("1:	testl %[left], %[left]\n"
		     "	jz 3f\n"
		     "2:	lodsb\n"
		     "	stosb\n"
		     "	decl %[left]\n"
		     "	testb %%al, %%al\n"
		     "	jnz 1b\n"
		     "	incl %[left]\n"		/* the NUL is not counted */
		     "3:\n"
		     ".pushsection .text.fixup, \"ax\"\n"
		     "4:	movl %[efault], %[err]\n"
		     "	jmp 3b\n"
		     ".popsection\n"
		     ".pushsection __ex_table, \"a\"\n"
		     "	.long 2b, 4b\n"
		     ".popsection"
		     : [left] "+c"(left), [err] "+r"(err), "+S"(src), "+D"(dst)
		     : [efault] "i"(-EFAULT) : "eax", "memory");
	return err ? err : max - left;
}

bool access_ok_prot(const void __user *addr, size_t size, bool write)
{
	struct mm *mm = current->mm;

	if (!access_ok(addr, size))
		return false;
	return !size || !mm || !vm_range_forbids(mm, (u32)addr, size, write);
}

#define CALLER()	((u32)__builtin_return_address(0))

u32 uaccess_atomic_bugs;

__noinline void uaccess_report_atomic(u32 caller)
{
	lock_bug_report(&uaccess_atomic_bugs, caller ? caller : CALLER(),
			"user memory access in atomic context (its fault may sleep)");
}

/* The fast test failed: report an atomic context for caller, then answer
 * for the range alone. */
static __noinline bool uaccess_slow_ok(const void __user *p, size_t n, u32 caller)
{
	uaccess_might_fault(caller);
	return access_ok(p, n);
}

/* May [p, p + n) be accessed from here? One branch when all is well; the
 * report names the caller of the function using it. */
#define uaccess_ok(p, n) \
	(likely(uaccess_fast((u32)(p), (n))) || uaccess_slow_ok((p), (n), CALLER()))

size_t copy_from_user(void *to, const void __user *from, size_t n)
{
	size_t left = uaccess_ok(from, n) ? copy_user_any(to, from, n) : n;

	if (unlikely(left))
		memset((char *)to + (n - left), 0, left);	/* no stale kernel bytes */
	return left;
}

size_t raw_copy_from_user(void *to, const void __user *from, size_t n)
{
	return uaccess_ok(from, n) ? copy_user_any(to, from, n) : n;
}

size_t copy_to_user(void __user *to, const void *from, size_t n)
{
	return uaccess_ok(to, n) ? copy_user_any(to, from, n) : n;
}

long strncpy_from_user(char *dst, const char __user *src, long count)
{
	u32 addr = (u32)src;
	long max, res;

	uaccess_might_fault(CALLER());
	if (count <= 0)
		return 0;
	if (addr >= USER_TOP)
		return -EFAULT;
	max = MIN((u32)count, USER_TOP - addr);
	res = __strncpy_user(dst, src, max);
	if (res == max && max < count)
		return -EFAULT;		/* reached kernel space without a NUL */
	return res;
}

size_t clear_user(void __user *to, size_t n)
{
	return uaccess_ok(to, n) ? __clear_user(to, n) : n;
}

int __get_user_bytes(void *dst, const void __user *src, size_t n)
{
	if (uaccess_ok(src, n) && !__copy_user(dst, src, n))
		return 0;
	memset(dst, 0, n);		/* a partial value is no value */
	return -EFAULT;
}

int __put_user_bytes(void __user *dst, const void *src, size_t n)
{
	return uaccess_ok(dst, n) && !__copy_user(dst, src, n) ? 0 : -EFAULT;
}
