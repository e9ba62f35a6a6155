/* gdt.c: one GDT per CPU: flat kernel and user segments, the TSS that holds the ring-0 stack, the three per-thread TLS entries (6-8); where each lies tells sgdt which CPU runs; each CPU's SYSENTER stack. */
#include "gdt.h"
#include "smp.h"
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
#define GRAN_1_32	0x40	/* byte granularity, 32-bit */

/* One per CPU; each CPU writes only its own (esp0 and the TLS entries at a
 * switch, interrupts off). */
static struct cpu_gdt {
	u64 gdt[GDT_ENTRIES];
	struct tss tss;
} __attribute__((aligned(CPU_GDT_STRIDE))) cpu_gdt[NR_CPUS];
_Static_assert(sizeof(struct cpu_gdt) == CPU_GDT_STRIDE, "one GDT per stride");
const u32 cpu_gdt_first = (u32)cpu_gdt;
struct sysenter_stack sysenter_stacks[NR_CPUS] __aligned(KSTACK_SIZE);

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
	u32 cpu = smp_processor_id();

	cpu_gdt[cpu].tss.esp0 = esp0;
	sysenter_stacks[cpu].esp0 = esp0;
}

void gdt_set_entry(int entry, u64 desc)
{
	cpu_gdt[smp_processor_id()].gdt[entry] = desc;
}

u64 gdt_get_entry(int entry)
{
	return cpu_gdt[smp_processor_id()].gdt[entry];
}

/* Fill CPU cpu's GDT and TSS. */
static void gdt_fill(u32 cpu, u32 esp0)
{
	const u8 code = SEG_PRESENT | SEG_CODE_DATA | SEG_CODE_RX;
	const u8 data = SEG_PRESENT | SEG_CODE_DATA | SEG_DATA_RW;
	u64 *g = cpu_gdt[cpu].gdt;
	struct tss *t = &cpu_gdt[cpu].tss;

	g[1] = seg_desc(0, 0xFFFFF, code, GRAN_4K_32);
	g[2] = seg_desc(0, 0xFFFFF, data, GRAN_4K_32);
	g[3] = seg_desc(0, 0xFFFFF, code | SEG_DPL3, GRAN_4K_32);
	g[4] = seg_desc(0, 0xFFFFF, data | SEG_DPL3, GRAN_4K_32);
	memset(t, 0, sizeof(*t));
	t->ss0 = KERNEL_DS;
	t->esp0 = esp0;
	t->iomap_base = sizeof(*t);	/* no I/O bitmap: ring 3 gets no ports */
	g[5] = seg_desc((u32)t, sizeof(*t) - 1, SEG_PRESENT | SEG_TSS32, 0);
}

/* Load CPU cpu's GDT, every segment register and its TSS. */
static void gdt_load(u32 cpu)
{
	struct dtr d = { sizeof(cpu_gdt[cpu].gdt) - 1, (u32)cpu_gdt[cpu].gdt };

	lgdt(&d);
	asm volatile("ljmp %0, $1f\n1:\n"
		     "mov %1, %%ds\nmov %1, %%es\nmov %1, %%fs\nmov %1, %%gs\nmov %1, %%ss"
		     :: "i"(KERNEL_CS), "r"(KERNEL_DS) : "memory");
	ltr(TSS_SEL);
}

void gdt_init(void)
{
	gdt_fill(0, 0);
	gdt_load(0);
}

void gdt_init_ap(u32 cpu, u32 esp0)
{
	gdt_fill(cpu, esp0);
	gdt_load(cpu);
}
