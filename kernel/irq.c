/* irq.c: 8259 PIC set-up, shared IRQ handlers, spurious-IRQ filtering; masking
 * and EOI through the I/O APIC instead once it has taken over (ioapic.c);
 * message-signalled IRQs (MSI-X) allocated and dispatched the same way.
 *
 * A line IRQ (0..15) reaches one CPU: the boot CPU through the 8259, any
 * CPU through the I/O APIC (irq_set_affinity); an MSI may reach any CPU
 * (its message names it; its driver's hook moves it). irq_nesting (thread_info.h) and the saved frame are per
 * CPU; the counts are atomic. An interrupt ends with the softirqs and a
 * preemption check on whichever CPU took it.
 */
#include "irq.h"
#include "apic.h"
#include "atomic.h"
#include "ioapic.h"
#include "errno.h"
#include "ksyms.h"
#include "printk.h"
#include "smp.h"
#include "softirq.h"
#include "tlb.h"
#include "spinlock.h"
#include "trace.h"
#include "trap.h"
#include "x86.h"

#define PIC1_CMD	0x20
#define PIC1_DATA	0x21
#define PIC2_CMD	0xA0
#define PIC2_DATA	0xA1
#define ICW1_INIT_ICW4	0x11	/* edge triggered, cascade, ICW4 follows */
#define ICW4_8086	0x01	/* 8086 mode */
#define OCW2_EOI	0x20	/* non-specific end of interrupt */
#define OCW3_READ_ISR	0x0B	/* next read of the command port returns ISR */
#define CASCADE_IRQ	2
#define MAX_SHARED	4

struct irq_action {
	irq_handler_t fn;
	void *data;
};

static struct irq_action actions[NR_IRQS][MAX_SHARED];
static u16 irq_mask_bits = 0xFFFF;
static DEFINE_SPINLOCK(msi_lock);
static u64 msi_taken;			/* under msi_lock: bit n is IRQ_MSI_BASE + n */
u32 irq_count[NR_IRQS];
u32 irq_spurious_count;
static u32 irq_count_cpu[NR_CPUS][NR_IRQS];	/* row n written by CPU n only */
struct irq_cpu_stat irq_cpu_stats[NR_CPUS];

/* Affinity, under affinity_lock (writers; readers read racily): the mask
 * last set (0: never), the CPU the IRQ goes to, an MSI's mover. */
static DEFINE_SPINLOCK(affinity_lock);
static u32 irq_aff_mask[NR_IRQS];
static u8 irq_aff_cpu[NR_IRQS];
static struct {
	irq_affinity_fn fn;
	void *data;
} irq_aff_hook[NR_IRQS];

static void pic_write_mask(void)
{
	outb(PIC1_DATA, irq_mask_bits & 0xFF);
	outb(PIC2_DATA, irq_mask_bits >> 8);
}

void irq_init(void)
{
	outb(PIC1_CMD, ICW1_INIT_ICW4); io_wait();
	outb(PIC2_CMD, ICW1_INIT_ICW4); io_wait();
	outb(PIC1_DATA, T_IRQ_BASE); io_wait();		/* ICW2: vector base */
	outb(PIC2_DATA, T_IRQ_BASE + 8); io_wait();
	outb(PIC1_DATA, 1 << CASCADE_IRQ); io_wait();	/* ICW3: slave on IRQ2 */
	outb(PIC2_DATA, CASCADE_IRQ); io_wait();
	outb(PIC1_DATA, ICW4_8086); io_wait();
	outb(PIC2_DATA, ICW4_8086); io_wait();
	irq_mask_bits = 0xFFFF & ~(1 << CASCADE_IRQ);
	pic_write_mask();
}

/* pic_lock (irq-safe) guards irq_mask_bits and the mask registers: any CPU
 * may mask or unmask a line. The PIC itself delivers to the boot CPU only. */
static DEFINE_SPINLOCK(pic_lock);

void irq_mask(int irq)
{
	u32 f;

	if (irq < 0 || irq >= NR_LINE_IRQS)
		return;			/* an MSI is masked at its device */
	spin_lock_irqsave(&pic_lock, f);
	irq_mask_bits |= 1 << irq;
	if (ioapic_enabled())
		ioapic_set_masked(irq, true);
	else
		pic_write_mask();
	spin_unlock_irqrestore(&pic_lock, f);
}

void irq_unmask(int irq)
{
	u32 f;

	if (irq < 0 || irq >= NR_LINE_IRQS)
		return;
	spin_lock_irqsave(&pic_lock, f);
	irq_mask_bits &= ~(1 << irq);
	if (ioapic_enabled())
		ioapic_set_masked(irq, false);
	else
		pic_write_mask();
	spin_unlock_irqrestore(&pic_lock, f);
}

u16 irq_pic_disable(void)
{
	outb(PIC1_DATA, 0xFF);
	outb(PIC2_DATA, 0xFF);
	return ~irq_mask_bits & ~(1 << CASCADE_IRQ);
}

int irq_register(int irq, irq_handler_t fn, void *data)
{
	if (irq < 0 || irq >= NR_IRQS || !fn)
		return -EINVAL;
	for (int i = 0; i < MAX_SHARED; i++) {
		if (!actions[irq][i].fn) {
			actions[irq][i].data = data;
			actions[irq][i].fn = fn;
			irq_unmask(irq);
			return 0;
		}
	}
	return -EBUSY;
}

static bool pic_in_service(u16 cmd_port, int bit)
{
	outb(cmd_port, OCW3_READ_ISR);
	return inb(cmd_port) & (1 << bit);
}

int irq_alloc_msi(void)
{
	int irq = -ENOSPC;
	u32 flags;

	spin_lock_irqsave(&msi_lock, flags);
	for (int n = 0; n < NR_IRQS - IRQ_MSI_BASE; n++) {
		if (!(msi_taken & (1ull << n)) && !actions[IRQ_MSI_BASE + n][0].fn) {
			msi_taken |= 1ull << n;
			irq = IRQ_MSI_BASE + n;
			break;
		}
	}
	spin_unlock_irqrestore(&msi_lock, flags);
	return irq;
}

void irq_free_msi(int irq)
{
	u32 flags;

	if (irq < IRQ_MSI_BASE || irq >= NR_IRQS)
		return;
	spin_lock_irqsave(&affinity_lock, flags);	/* a later owner starts hookless */
	irq_aff_hook[irq].fn = NULL;
	irq_aff_hook[irq].data = NULL;
	irq_aff_cpu[irq] = 0;
	irq_aff_mask[irq] = 0;
	spin_unlock_irqrestore(&affinity_lock, flags);
	spin_lock_irqsave(&msi_lock, flags);
	for (int i = 0; i < MAX_SHARED; i++)
		actions[irq][i].fn = NULL;
	msi_taken &= ~(1ull << (irq - IRQ_MSI_BASE));
	spin_unlock_irqrestore(&msi_lock, flags);
}

bool irq_has_handler(int irq)
{
	return irq >= 0 && irq < NR_IRQS && READ_ONCE(actions[irq][0].fn);
}

void irq_set_affinity_hook(int irq, irq_affinity_fn fn, void *data, u32 cpu)
{
	u32 flags;

	if (irq < IRQ_MSI_BASE || irq >= NR_IRQS)
		return;
	spin_lock_irqsave(&affinity_lock, flags);
	irq_aff_hook[irq].fn = fn;
	irq_aff_hook[irq].data = data;
	irq_aff_cpu[irq] = cpu;
	irq_aff_mask[irq] = 0;
	spin_unlock_irqrestore(&affinity_lock, flags);
}

u32 irq_effective_cpu(int irq)
{
	if (irq < 0 || irq >= NR_IRQS)
		return 0;
	return irq < NR_LINE_IRQS ? ioapic_dest(irq) : READ_ONCE(irq_aff_cpu[irq]);
}

u32 irq_get_affinity(int irq)
{
	u32 mask = irq >= 0 && irq < NR_IRQS ? READ_ONCE(irq_aff_mask[irq]) : 0;

	return mask ? mask : 1u << irq_effective_cpu(irq);
}

/* Point irq at cpu: the I/O APIC's entry or the MSI driver's hook.
 * affinity_lock held. */
static int irq_move(int irq, u32 cpu)
{
	int err;

	if (irq < NR_LINE_IRQS)		/* the PIT's jiffies and the RTC's CMOS pair: CPU 0's */
		return (irq == 0 || irq == 8) && cpu ? -EIO : ioapic_set_dest(irq, cpu);
	if (!irq_aff_hook[irq].fn)
		return -EIO;
	err = irq_aff_hook[irq].fn(irq, cpu, irq_aff_hook[irq].data);
	if (!err)
		irq_aff_cpu[irq] = cpu;
	return err;
}

int irq_set_affinity(int irq, u32 mask)
{
	u32 online = nr_cpus_online >= 32 ? ~0u : (1u << nr_cpus_online) - 1;
	u32 flags;
	int err;

	if (!irq_has_handler(irq) || !(mask & online))
		return -EINVAL;
	spin_lock_irqsave(&affinity_lock, flags);
	err = irq_move(irq, __builtin_ctz(mask & online));
	if (!err)
		irq_aff_mask[irq] = mask;
	spin_unlock_irqrestore(&affinity_lock, flags);
	return err;
}

/* IRQ 7 and 15 may be spurious: the PIC raised them but no line is in service. */
static bool irq_is_spurious(int irq)
{
	if (irq >= NR_LINE_IRQS || ioapic_enabled())
		return false;		/* the 8259 is masked: its 7 and 15 never come */
	if (irq == IRQ_SPURIOUS_MASTER && !pic_in_service(PIC1_CMD, 7))
		return true;
	if (irq == IRQ_SPURIOUS_SLAVE && !pic_in_service(PIC2_CMD, 7)) {
		outb(PIC1_CMD, OCW2_EOI);	/* the master did see the cascade */
		return true;
	}
	return false;
}

static void irq_eoi(int irq)
{
	if (irq >= NR_LINE_IRQS || ioapic_enabled()) {
		lapic_eoi();
		return;
	}
	if (irq >= 8)
		outb(PIC2_CMD, OCW2_EOI);
	outb(PIC1_CMD, OCW2_EOI);
}

struct trap_frame *get_irq_regs(void)
{
	return this_cpu()->irq_regs;
}

void irq_dispatch(struct trap_frame *tf)
{
	int irq = tf->vector - T_IRQ_BASE;
	struct cpu *c = this_cpu();
	struct trap_frame *outer = c->irq_regs;

	if (irq_is_spurious(irq)) {
		irq_spurious_count++;
		return;
	}
	irq_nesting++;
	c->irq_regs = tf;
	__atomic_fetch_add(&irq_count[irq], 1, __ATOMIC_RELAXED);
	irq_count_cpu[c->id][irq]++;
	trace_irq(TR_IRQ_ENTER, irq);
	for (int i = 0; i < MAX_SHARED && actions[irq][i].fn; i++)
		actions[irq][i].fn(irq, actions[irq][i].data);
	trace_irq(TR_IRQ_EXIT, irq);
	c->irq_regs = outer;
	irq_nesting--;
	irq_eoi(irq);
	irq_exit(tf);			/* softirqs, then preemption, on any CPU */
}

/* Append to buf (size bytes, *n used so far), never past its end. */
static void __printf(4, 5) irq_printf(char *buf, size_t size, int *n, const char *fmt, ...)
{
	va_list ap;

	if ((size_t)*n + 1 >= size)
		return;
	va_start(ap, fmt);
	*n += vsnprintf(buf + *n, size - *n, fmt, ap);
	va_end(ap);
	if ((size_t)*n >= size)
		*n = size - 1;
}

/* One IRQ: its count on each online CPU, how it arrives, its handlers. */
static void irq_show_one(char *buf, size_t size, int *n, int irq)
{
	int pin = ioapic_irq_pin(irq);
	u32 off, len;

	irq_printf(buf, size, n, "%3d:", irq);
	for (u32 c = 0; c < nr_cpus_online; c++)
		irq_printf(buf, size, n, " %10u", READ_ONCE(irq_count_cpu[c][irq]));
	if (irq >= NR_LINE_IRQS)
		irq_printf(buf, size, n, "  PCI-MSI        ");
	else if (ioapic_enabled() && pin >= 0)
		irq_printf(buf, size, n, "  IO-APIC %2d-%-5s", pin,
			   ioapic_read_rte(pin) & IOAPIC_RTE_LEVEL ? "level" : "edge");
	else
		irq_printf(buf, size, n, "  XT-PIC         ");
	for (int i = 0; i < MAX_SHARED && actions[irq][i].fn; i++) {
		const char *fn = ksym_lookup((u32)actions[irq][i].fn, &off, &len);
		irq_printf(buf, size, n, "%s%s", i ? ", " : " ", fn ? fn : "?");
	}
	irq_printf(buf, size, n, "\n");
}

/* The head line: a column per online CPU. */
static void irq_show_head(char *buf, size_t size, int *n)
{
	irq_printf(buf, size, n, "    ");
	for (u32 c = 0; c < nr_cpus_online; c++)
		irq_printf(buf, size, n, "       CPU%u", c);
	irq_printf(buf, size, n, "\n");
}

/* One row of per-CPU figures: "NAME: n0 n1 ...  what". */
static void irq_show_row(char *buf, size_t size, int *n, const char *name,
			 u32 (*get)(u32 cpu, u32 arg), u32 arg, const char *what)
{
	irq_printf(buf, size, n, "%s:", name);
	for (u32 c = 0; c < nr_cpus_online; c++)
		irq_printf(buf, size, n, " %10u", get(c, arg));
	irq_printf(buf, size, n, "  %s\n", what);
}

/* A u32 field of CPU cpu's struct irq_cpu_stat, arg its byte offset. */
static u32 irq_stat_field(u32 cpu, u32 arg)
{
	return READ_ONCE(*(u32 *)((u8 *)&irq_cpu_stats[cpu] + arg));
}

static u32 irq_resched_taken(u32 cpu, u32 arg)
{
	return READ_ONCE(cpus[cpu].resched_ipis);
}

static u32 irq_tlb_taken(u32 cpu, u32 arg)
{
	return tlb_shootdowns_taken_on(cpu);
}

static u32 irq_cpu_field(u32 cpu, u32 arg)
{
	return READ_ONCE(*(u32 *)((u8 *)&cpus[cpu] + arg));
}

#define IRQ_STAT(f)	irq_stat_field, offsetof(struct irq_cpu_stat, f)

int irq_cpustat_show(char *buf, size_t size)
{
	int n = 0;

	irq_show_head(buf, size, &n);
	irq_show_row(buf, size, &n, "EOI", IRQ_STAT(eoi), "local APIC EOI writes");
	irq_show_row(buf, size, &n, "LTW", IRQ_STAT(timer_writes), "local APIC timer writes");
	irq_show_row(buf, size, &n, "LOC", IRQ_STAT(loc), "local APIC timer ticks taken");
	irq_show_row(buf, size, &n, "RSS", IRQ_STAT(ipi_sent[IPI_KIND_RESCHED]),
		     "reschedule IPIs sent");
	irq_show_row(buf, size, &n, "CAS", IRQ_STAT(ipi_sent[IPI_KIND_CALL]),
		     "call-function IPIs sent");
	irq_show_row(buf, size, &n, "TLS", IRQ_STAT(ipi_sent[IPI_KIND_TLB]),
		     "TLB shootdown IPIs sent");
	irq_show_row(buf, size, &n, "OTS", IRQ_STAT(ipi_sent[IPI_KIND_OTHER]),
		     "other IPIs sent (INIT, start-up, stop)");
	irq_show_row(buf, size, &n, "RES", irq_resched_taken, 0, "reschedule IPIs taken");
	irq_show_row(buf, size, &n, "CAL", IRQ_STAT(cal), "call-function IPIs taken");
	irq_show_row(buf, size, &n, "TLB", irq_tlb_taken, 0, "TLB shootdown IPIs taken");
	irq_show_row(buf, size, &n, "SAV", irq_cpu_field, offsetof(struct cpu, resched_ipis_saved),
		     "wake-ups of a polling CPU without an IPI");
	irq_show_row(buf, size, &n, "HLT", irq_cpu_field, offsetof(struct cpu, idle_halts),
		     "idle halts ended (wake-ups from hlt)");
	irq_show_row(buf, size, &n, "SWT", irq_cpu_field, offsetof(struct cpu, nr_switches),
		     "context switches");
	irq_show_row(buf, size, &n, "PIO", IRQ_STAT(port_io), "driver port accesses (virtio kicks, ISR reads)");
	irq_show_row(buf, size, &n, "IOW", IRQ_STAT(ioapic_writes), "I/O APIC register writes");
	return n;
}

int irq_show(char *buf, size_t size)
{
	int n = 0;

	irq_show_head(buf, size, &n);
	for (int irq = 0; irq < NR_IRQS; irq++)
		if (actions[irq][0].fn || READ_ONCE(irq_count[irq]))
			irq_show_one(buf, size, &n, irq);
	irq_show_row(buf, size, &n, "LOC", IRQ_STAT(loc), "Local timer interrupts");
	irq_show_row(buf, size, &n, "RES", irq_resched_taken, 0, "Rescheduling interrupts");
	irq_show_row(buf, size, &n, "CAL", IRQ_STAT(cal), "Function call interrupts");
	irq_show_row(buf, size, &n, "TLB", irq_tlb_taken, 0, "TLB shootdowns");
	irq_printf(buf, size, &n, "SPU: %10u  8259 IRQ 7/15 spurious\n", irq_spurious_count);
	return n;
}
