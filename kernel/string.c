/* string.c: memory and string routines for the kernel. */
#include "string.h"

/* Whole words first, then the bytes left: an emulator runs a rep string
 * instruction one iteration at a time, so words cost a quarter. */
void *memset(void *dst, int c, size_t n)
{
	void *d = dst;
	u32 word = (u8)c * 0x01010101u;
	size_t words = n >> 2, tail = n & 3;

	asm volatile("rep stosl\n\t"
		     "movl %[tail], %%ecx\n\t"
		     "rep stosb"
		     : "+D"(d), "+c"(words) : "a"(word), [tail] "r"(tail) : "memory");
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;
	size_t words = n >> 2, tail = n & 3;

	asm volatile("rep movsl\n\t"
		     "movl %[tail], %%ecx\n\t"
		     "rep movsb"
		     : "+D"(d), "+S"(src), "+c"(words) : [tail] "r"(tail) : "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (; *s; s++)
		if (*s == (char)c)
			return (char *)s;
	return c ? NULL : (char *)s;
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (; *s; s++)
		if (*s == (char)c)
			last = s;
	return c ? (char *)last : (char *)s;
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncmp(hay, needle, n))
			return (char *)hay;
	return n ? NULL : (char *)hay;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;
		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

unsigned long long simple_strtoull(const char *s, const char **end)
{
	unsigned long long v = 0;
	int base = 10, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	while ((d = digit_value(*s)) < base) {
		v = v * base + d;
		s++;
	}
	if (end)
		*end = s;
	return v;
}
