/* printk.c: kernel log: a ring of the last LOG_BUF_LEN bytes, echoed to the console. */
#include "printk.h"
#include "serial.h"
#include "string.h"
#include "x86.h"

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

int vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	const char *text = buf;
	int level, n;
	u32 flags = read_eflags();

	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	level = parse_level(&text);
	n -= text - buf;
	cli();
	log_store(text, n);
	if (level < console_loglevel)
		console_write(text, n);
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
