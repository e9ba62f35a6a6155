/* string.h: the kernel's memory and string routines (no libc in the kernel). */
#ifndef STRING_H
#define STRING_H

#include "types.h"

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);
size_t strlcpy(char *dst, const char *src, size_t size);

/* Parse an unsigned number in base 10, or base 16 after "0x"; *end gets the
 * first unparsed character. */
unsigned long long simple_strtoull(const char *s, const char **end);

#endif
