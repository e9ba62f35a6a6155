/* printk.h: kernel logging to the serial console and the in-memory log ring. */
#ifndef PRINTK_H
#define PRINTK_H

#include "types.h"

/* A message may start with a level prefix "<N>", 0 (most urgent) to 7. */
#define KERN_EMERG	"<0>"
#define KERN_ALERT	"<1>"
#define KERN_CRIT	"<2>"
#define KERN_ERR	"<3>"
#define KERN_WARNING	"<4>"
#define KERN_NOTICE	"<5>"
#define KERN_INFO	"<6>"
#define KERN_DEBUG	"<7>"
#define LOGLEVEL_DEFAULT 6	/* level of a message without a prefix */

/* Size of the log ring: the last LOG_BUF_LEN bytes printed are kept. */
#define LOG_BUF_LEN	(64 * 1024)

extern char log_buf[LOG_BUF_LEN];
extern u32 log_end;		/* total bytes ever logged; ring index is log_end % LOG_BUF_LEN */
extern int console_loglevel;	/* messages with level < this reach the console */

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);

/* Formatting: %d %i %u %x %X %o %p %s %c %%, with l / ll / z, width, '-', '0'
 * and precision for %s. Returns the length the full output would have. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/* Copy the last n bytes of the log ring (or fewer) into buf, NUL-terminated. */
size_t log_tail(char *buf, size_t n);

/* Console output hook for panics: write straight to the console. */
void console_write(const char *s, size_t n);

#define pr_err(...)	printk(KERN_ERR __VA_ARGS__)
#define pr_warn(...)	printk(KERN_WARNING __VA_ARGS__)
#define pr_info(...)	printk(KERN_INFO __VA_ARGS__)
#define pr_debug(...)	printk(KERN_DEBUG __VA_ARGS__)

#endif
