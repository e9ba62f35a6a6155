/* irq.c: 8259 PIC set-up, shared IRQ handlers, spurious-IRQ filtering. */
#include "irq.h"
#include "errno.h"
#include "smp.h"
#include "softirq.h"
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
u32 irq_count[NR_IRQS];
u32 irq_spurious_count;

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

	spin_lock_irqsave(&pic_lock, f);
	irq_mask_bits |= 1 << irq;
	pic_write_mask();
	spin_unlock_irqrestore(&pic_lock, f);
}

void irq_unmask(int irq)
{
	u32 f;

	spin_lock_irqsave(&pic_lock, f);
	irq_mask_bits &= ~(1 << irq);
	pic_write_mask();
	spin_unlock_irqrestore(&pic_lock, f);
}

int irq_register(int irq, irq_handler_t fn, void *data)
{
	if (irq < 0 || irq >= NR_IRQS)
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

/* IRQ 7 and 15 may be spurious: the PIC raised them but no line is in service. */
static bool irq_is_spurious(int irq)
{
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
	irq_count[irq]++;
	trace_irq(TR_IRQ_ENTER, irq);
	for (int i = 0; i < MAX_SHARED && actions[irq][i].fn; i++)
		actions[irq][i].fn(irq, actions[irq][i].data);
	trace_irq(TR_IRQ_EXIT, irq);
	c->irq_regs = outer;
	irq_nesting--;
	irq_eoi(irq);
	irq_exit(tf);
}
