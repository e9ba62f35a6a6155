/* serial.c: COM1 16550 UART console, 115200 8N1, polled transmit; a break on the line dumps the tasks. */
#include "atomic.h"
#include "serial.h"
#include "errno.h"
#include "irq.h"
#include "spinlock.h"
#include "sysrq.h"
#include "wait.h"
#include "x86.h"

#define COM1		0x3F8
#define UART_DATA	0	/* transmit/receive buffer (DLAB=0) */
#define UART_IER	1	/* interrupt enable (DLAB=0) */
#define UART_DLL	0	/* divisor latch low (DLAB=1) */
#define UART_DLM	1	/* divisor latch high (DLAB=1) */
#define UART_FCR	2	/* FIFO control */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define LCR_DLAB	0x80	/* divisor latch access */
#define LCR_8N1		0x03	/* 8 data bits, no parity, 1 stop bit */
#define FCR_ENABLE	0xC7	/* enable + clear FIFOs, 14-byte threshold */
#define MCR_DTR_RTS_OUT2 0x0B	/* DTR, RTS, OUT2 (IRQ gate) */
#define LSR_THRE	0x20	/* transmit holding register empty */
#define BAUD_DIVISOR	1	/* 115200 / 115200 */
#define IER_RX		0x01	/* interrupt when a byte is received */
#define IER_LINE	0x04	/* interrupt on a line status change (a break) */
#define LSR_DATA	0x01	/* a received byte is waiting */
#define LSR_BREAK	0x10	/* a break was received (reading LSR clears it) */
#define COM1_IRQ	4
#define RX_BUF		256

void serial_init(void)
{
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + UART_DLL, BAUD_DIVISOR & 0xFF);
	outb(COM1 + UART_DLM, BAUD_DIVISOR >> 8);
	outb(COM1 + UART_LCR, LCR_8N1);
	outb(COM1 + UART_FCR, FCR_ENABLE);
	outb(COM1 + UART_MCR, MCR_DTR_RTS_OUT2);
}

void serial_putc(char c)
{
	while (!(inb(COM1 + UART_LSR) & LSR_THRE))
		;
	outb(COM1 + UART_DATA, c);
}

void serial_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}

static char rx_buf[RX_BUF];
static u32 rx_head, rx_len;		/* under rx_lock */
static DEFINE_SPINLOCK(rx_lock);
static DECLARE_WAIT_QUEUE_HEAD(rx_wait);

/* Received bytes go to rx_buf; a break (its NUL byte dropped) asks for the
 * task dump, printed once the lock is released. */
static void serial_intr(int irq, void *data)
{
	bool got = false, brk = false;
	u8 lsr;

	spin_lock(&rx_lock);
	while ((lsr = inb(COM1 + UART_LSR)) & (LSR_DATA | LSR_BREAK)) {
		char c = lsr & LSR_DATA ? inb(COM1 + UART_DATA) : 0;
		brk |= lsr & LSR_BREAK;
		if (!(lsr & LSR_DATA) || ((lsr & LSR_BREAK) && !c))
			continue;		/* no byte, or the break's own NUL */
		if (rx_len < RX_BUF)
			rx_buf[(rx_head + rx_len++) % RX_BUF] = c;
		got = true;
	}
	spin_unlock(&rx_lock);
	if (got)
		wake_up(&rx_wait);
	if (brk)
		show_tasks();
}

void serial_rx_init(void)
{
	irq_register(COM1_IRQ, serial_intr, NULL);
	outb(COM1 + UART_IER, IER_RX | IER_LINE);
}

size_t serial_rx_ready(void)
{
	return READ_ONCE(rx_len);
}

wait_queue_head_t *serial_rx_waitq(void)
{
	return &rx_wait;
}

ssize_t serial_read(char *buf, size_t n)
{
	u32 flags;
	size_t got = 0;

	if (wait_event_interruptible(rx_wait, READ_ONCE(rx_len) > 0))
		return -EINTR;
	spin_lock_irqsave(&rx_lock, flags);
	while (got < n && rx_len) {
		buf[got++] = rx_buf[rx_head];
		rx_head = (rx_head + 1) % RX_BUF;
		rx_len--;
	}
	spin_unlock_irqrestore(&rx_lock, flags);
	return got;
}
