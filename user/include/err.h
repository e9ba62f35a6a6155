/* err.h: BSD/glibc error messages: "prog: message: strerror(errno)" on stderr, and exit for err*. */
#ifndef USER_ERR_H
#define USER_ERR_H

#include <stdarg.h>

void err(int status, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
void errx(int status, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
void verr(int status, const char *fmt, va_list ap) __attribute__((noreturn, format(printf, 2, 0)));
void verrx(int status, const char *fmt, va_list ap) __attribute__((noreturn, format(printf, 2, 0)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vwarn(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void vwarnx(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
