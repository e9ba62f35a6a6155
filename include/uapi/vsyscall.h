/* vsyscall.h (uapi): the kernel's system-call entry page, mapped read-only into every process. */
#ifndef UAPI_VSYSCALL_H
#define UAPI_VSYSCALL_H

/*
 * A call to VSYSCALL_ENTRY is a system call: eax = number, arguments in ebx,
 * ecx, edx, esi, edi, ebp, result in eax, as with int $0x80; ecx, edx and
 * the arithmetic flags are clobbered (the i386 C convention does not keep
 * them across a call either). The kernel puts its
 * fastest entry there: SYSENTER when the CPU has it, else int $0x80.
 * The user stubs (tools/gensyscalls.py) use it; raw int $0x80 works as well.
 */
#define VSYSCALL_ENTRY	0xFFFFE000u

#endif
