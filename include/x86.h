/* x86.h: one-line wrappers around the i386 instructions the kernel needs. */
#ifndef X86_H
#define X86_H

#include "types.h"

static inline void outb(u16 port, u8 v) { asm volatile("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(u16 port, u16 v) { asm volatile("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(u16 port, u32 v) { asm volatile("outl %0, %1" :: "a"(v), "Nd"(port)); }
static inline u8 inb(u16 port) { u8 v; asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u16 inw(u16 port) { u16 v; asm volatile("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u32 inl(u16 port) { u32 v; asm volatile("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline void io_wait(void) { outb(0x80, 0); }

static inline void cli(void) { asm volatile("cli" ::: "memory"); }
static inline void sti(void) { asm volatile("sti" ::: "memory"); }
static inline void hlt(void) { asm volatile("hlt" ::: "memory"); }
static inline void cpu_relax(void) { asm volatile("pause" ::: "memory"); }
static inline void barrier(void) { asm volatile("" ::: "memory"); }

static inline u32 read_eflags(void)
{
	u32 f;
	asm volatile("pushfl; popl %0" : "=r"(f));
	return f;
}
#define EFLAGS_TF	0x100		/* single-step trap */
#define EFLAGS_IF	0x200		/* interrupts enabled */
#define EFLAGS_NT	0x4000		/* nested task: iret would switch tasks */
#define EFLAGS_DF	0x400		/* string direction */
#define EFLAGS_IOPL	0x3000		/* I/O privilege level */
#define EFLAGS_RF	0x10000		/* resume flag */
#define EFLAGS_VM	0x20000		/* virtual-8086 mode */
#define EFLAGS_AC	0x40000		/* alignment check */

static inline u32 cpuid_edx(u32 leaf)
{
	u32 a = leaf, b, c = 0, d;

	asm volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return d;
}
#define CPUID_EDX_SEP	(1u << 11)	/* leaf 1: SYSENTER/SYSEXIT */

static inline u32 cpuid_ecx(u32 leaf)
{
	u32 a = leaf, b, c = 0, d;

	asm volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return c;
}
#define CPUID_ECX_HYPERVISOR	(1u << 31)	/* leaf 1: running under a hypervisor */

static inline u32 cpuid_ebx(u32 leaf)
{
	u32 a = leaf, b, c = 0, d;

	asm volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return b;
}
#define CPUID_EBX_APIC_ID(b)	((b) >> 24)	/* leaf 1: initial local APIC id */

static inline void wrmsr(u32 msr, u64 v)
{
	asm volatile("wrmsr" :: "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)) : "memory");
}
#define MSR_SYSENTER_CS		0x174
#define MSR_SYSENTER_ESP	0x175
#define MSR_SYSENTER_EIP	0x176

static inline u32 read_cr0(void) { u32 v; asm volatile("mov %%cr0, %0" : "=r"(v)); return v; }
static inline u32 read_cr2(void) { u32 v; asm volatile("mov %%cr2, %0" : "=r"(v)); return v; }
static inline u32 read_cr3(void) { u32 v; asm volatile("mov %%cr3, %0" : "=r"(v)); return v; }
static inline u32 read_cr4(void) { u32 v; asm volatile("mov %%cr4, %0" : "=r"(v)); return v; }
static inline void write_cr0(u32 v) { asm volatile("mov %0, %%cr0" :: "r"(v) : "memory"); }
static inline void write_cr3(u32 v) { asm volatile("mov %0, %%cr3" :: "r"(v) : "memory"); }
static inline void write_cr4(u32 v) { asm volatile("mov %0, %%cr4" :: "r"(v) : "memory"); }
static inline void invlpg(u32 va) { asm volatile("invlpg (%0)" :: "r"(va) : "memory"); }

static inline u64 rdtsc(void)
{
	u32 lo, hi;
	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

struct dtr {
	u16 limit;
	u32 base;
} __packed;

static inline void lgdt(const struct dtr *d) { asm volatile("lgdt %0" :: "m"(*d)); }
static inline void lidt(const struct dtr *d) { asm volatile("lidt %0" :: "m"(*d)); }
static inline void ltr(u16 sel) { asm volatile("ltr %0" :: "r"(sel)); }

static inline u32 read_ebp(void) { u32 v; asm volatile("mov %%ebp, %0" : "=r"(v)); return v; }

#endif
