/* lx_syscall.h: a raw Linux i386 system call by int $0x80, for the binaries that run on Linux. */
#ifndef USER_LX_SYSCALL_H
#define USER_LX_SYSCALL_H

/* Up to five arguments in ebx, ecx, edx, esi, edi; the result, or -errno (Linux's numbers). */
static inline long lx_syscall(long nr, long a, long b, long c, long d, long e)
{
	long r;

	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory");
	return r;
}

#endif
