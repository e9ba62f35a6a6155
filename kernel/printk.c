/* printk.c: kernel log: a ring of the last LOG_BUF_LEN bytes, echoed to the console.
 *
 * log_owner serialises the ring and the console across CPUs, interrupts off.
 * It is no spinlock_t on purpose: a CPU that printk's while it holds it (a
 * fault inside printk, the panic path) goes on without it, and one that finds
 * it held for 100 ms (its holder was stopped by a panic) takes it anyway:
 * a garbled line beats a silent hang. */
#include "clock.h"
#include "printk.h"
#include "smp.h"
#include "serial.h"
#include "string.h"
#include "x86.h"

#define LOG_WAIT_US	100000
#define LOG_FREE	0xFFFFFFFFu

static u32 log_owner = LOG_FREE;	/* the CPU printing now */
char log_buf[LOG_BUF_LEN];
u32 log_end;
int console_loglevel = 7;

void console_write(const char *s, size_t n)
{
	serial_write(s, n);
}

static void log_store(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_buf[(log_end + i) % LOG_BUF_LEN] = s[i];
	log_end += n;
}

/* Strip a "<N>" level prefix; return the level. */
static int parse_level(const char **s)
{
	const char *p = *s;

	if (p[0] == '<' && p[1] >= '0' && p[1] <= '7' && p[2] == '>') {
		*s = p + 3;
		return p[1] - '0';
	}
	return LOGLEVEL_DEFAULT;
}

/* Take log_owner (interrupts off); false when this CPU holds it already. */
static bool log_lock(void)
{
	u32 me = smp_processor_id(), free = LOG_FREE;

	if (__atomic_load_n(&log_owner, __ATOMIC_RELAXED) == me)
		return false;
	for (u32 us = 0; us < LOG_WAIT_US; us++) {
		if (__atomic_compare_exchange_n(&log_owner, &free, me, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return true;
		free = LOG_FREE;
		udelay(1);
	}
	__atomic_store_n(&log_owner, me, __ATOMIC_RELAXED);	/* stopped holder: take it */
	return true;
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	const char *text = buf;
	bool mine;
	int level, n;
	u32 flags = read_eflags();

	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	level = parse_level(&text);
	n -= text - buf;
	cli();
	mine = log_lock();
	log_store(text, n);
	if (level < console_loglevel)
		console_write(text, n);
	if (mine)
		__atomic_store_n(&log_owner, LOG_FREE, __ATOMIC_RELEASE);
	if (flags & EFLAGS_IF)
		sti();
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

size_t log_tail(char *buf, size_t n)
{
	size_t avail = log_end < LOG_BUF_LEN ? log_end : LOG_BUF_LEN;
	u32 start;

	if (n == 0)
		return 0;
	if (n - 1 < avail)
		avail = n - 1;
	start = log_end - avail;
	for (size_t i = 0; i < avail; i++)
		buf[i] = log_buf[(start + i) % LOG_BUF_LEN];
	buf[avail] = '\0';
	return avail;
}
