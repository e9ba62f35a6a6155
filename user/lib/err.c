/* err.c: err, errx, warn, warnx and their v* forms: "prog: message: strerror(errno)" on stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <err.h>
#include "glue.h"

/* The program's name as glibc's program_invocation_short_name: argv[0]'s last part. */
const char *getprogname(void)
{
	const char *name = glue_argv && glue_argv[0] ? glue_argv[0] : "?";
	const char *slash = strrchr(name, '/');

	return slash ? slash + 1 : name;
}

/* One message; with_errno appends ": " and the text of errno as it was at entry. */
static void message(int with_errno, const char *fmt, va_list ap)
{
	int saved = errno;

	fflush(stdout);
	fprintf(stderr, "%s: ", getprogname());
	if (fmt) {
		vfprintf(stderr, fmt, ap);
		if (with_errno)
			fputs(": ", stderr);
	}
	if (with_errno)
		fputs(strerror(saved), stderr);
	fputc('\n', stderr);
	errno = saved;
}

void vwarn(const char *fmt, va_list ap)
{
	message(1, fmt, ap);
}

void vwarnx(const char *fmt, va_list ap)
{
	message(0, fmt, ap);
}

void verr(int status, const char *fmt, va_list ap)
{
	message(1, fmt, ap);
	exit(status);
}

void verrx(int status, const char *fmt, va_list ap)
{
	message(0, fmt, ap);
	exit(status);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

void err(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(status, fmt, ap);
}

void errx(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrx(status, fmt, ap);
}
