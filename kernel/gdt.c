/* gdt.c: flat kernel and user segments, the TSS that holds the ring-0 stack, and the three per-thread TLS entries (6-8). */
#include "gdt.h"
#include "string.h"
#include "x86.h"

struct tss {
	u32 link, esp0, ss0, esp1, ss1, esp2, ss2;
	u32 cr3, eip, eflags, eax, ecx, edx, ebx, esp, ebp, esi, edi;
	u32 es, cs, ss, ds, fs, gs, ldt;
	u16 trap, iomap_base;
} __packed;

#define SEG_PRESENT	0x80
#define SEG_DPL3	0x60
#define SEG_CODE_DATA	0x10	/* S bit: code/data, not system */
#define SEG_CODE_RX	0x0A	/* execute/read */
#define SEG_DATA_RW	0x02	/* read/write */
#define SEG_TSS32	0x09	/* available 32-bit TSS */
#define GRAN_4K_32	0xC0	/* 4 KiB granularity, 32-bit */

static u64 gdt[GDT_ENTRIES];
static struct tss tss;
struct sysenter_stack sysenter_stack;

static u64 seg_desc(u32 base, u32 limit, u8 access, u8 gran)
{
	u64 d = limit & 0xFFFF;

	d |= (u64)(base & 0xFFFFFF) << 16;
	d |= (u64)access << 40;
	d |= (u64)((limit >> 16) & 0xF) << 48;
	d |= (u64)(gran & 0xF0) << 48;
	d |= (u64)(base >> 24) << 56;
	return d;
}

void tss_set_kernel_stack(u32 esp0)
{
	tss.esp0 = esp0;
	sysenter_stack.esp0 = esp0;
}

void gdt_set_entry(int entry, u64 desc)
{
	gdt[entry] = desc;
}

u64 gdt_get_entry(int entry)
{
	return gdt[entry];
}

void gdt_init(void)
{
	const u8 code = SEG_PRESENT | SEG_CODE_DATA | SEG_CODE_RX;
	const u8 data = SEG_PRESENT | SEG_CODE_DATA | SEG_DATA_RW;
	struct dtr d = { sizeof(gdt) - 1, (u32)gdt };

	gdt[1] = seg_desc(0, 0xFFFFF, code, GRAN_4K_32);
	gdt[2] = seg_desc(0, 0xFFFFF, data, GRAN_4K_32);
	gdt[3] = seg_desc(0, 0xFFFFF, code | SEG_DPL3, GRAN_4K_32);
	gdt[4] = seg_desc(0, 0xFFFFF, data | SEG_DPL3, GRAN_4K_32);
	memset(&tss, 0, sizeof(tss));
	tss.ss0 = KERNEL_DS;
	tss.iomap_base = sizeof(tss);	/* no I/O bitmap: ring 3 gets no ports */
	gdt[5] = seg_desc((u32)&tss, sizeof(tss) - 1, SEG_PRESENT | SEG_TSS32, 0);
	lgdt(&d);
	asm volatile("ljmp %0, $1f\n1:\n"
		     "mov %1, %%ds\nmov %1, %%es\nmov %1, %%fs\nmov %1, %%gs\nmov %1, %%ss"
		     :: "i"(KERNEL_CS), "r"(KERNEL_DS) : "memory");
	ltr(TSS_SEL);
}
