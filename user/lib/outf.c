/* outf.c: one formatted line to stdout in a single write (bench and the Linux /init use it). */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "outf.h"

void outf(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 1)
		n = sizeof(line) - 1;
	if (n > 0 && write(1, line, n) < 0)
		return;
}
