/* vsprintf.c: the kernel's printf-style formatter. */
#include "printk.h"
#include "string.h"

struct out {
	char *buf;
	size_t size;
	size_t len;		/* characters produced so far (may exceed size) */
};

struct spec {
	int width;
	int precision;		/* -1: none */
	bool left;
	bool zero;
	bool plus;
	int lmod;		/* 0, 1 (l, z), 2 (ll) */
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, int n, char c)
{
	while (n-- > 0)
		put(o, c);
}

static void emit_str(struct out *o, const struct spec *sp, const char *s)
{
	int n;

	if (!s)
		s = "(null)";
	n = sp->precision >= 0 ? (int)strnlen(s, sp->precision) : (int)strlen(s);
	if (!sp->left)
		pad(o, sp->width - n, ' ');
	for (int i = 0; i < n; i++)
		put(o, s[i]);
	if (sp->left)
		pad(o, sp->width - n, ' ');
}

static void emit_num(struct out *o, const struct spec *sp, u64 v, bool neg,
		     unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, sign = neg || sp->plus;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	if (!sp->left && !sp->zero)
		pad(o, sp->width - n - sign, ' ');
	if (sign)
		put(o, neg ? '-' : '+');
	if (!sp->left && sp->zero)
		pad(o, sp->width - n - sign, '0');
	while (n)
		put(o, tmp[--n]);
}

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	memset(sp, 0, sizeof(*sp));
	sp->precision = -1;
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '+')
			sp->plus = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		f++;
		sp->precision = 0;
		if (*f == '*') {
			sp->precision = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->precision = sp->precision * 10 + (*f++ - '0');
	}
	for (; *f == 'l' || *f == 'z'; f++)
		sp->lmod++;
	return f;
}

static u64 fetch_unsigned(const struct spec *sp, va_list *ap)
{
	if (sp->lmod >= 2)
		return va_arg(*ap, u64);
	return va_arg(*ap, unsigned long);
}

static s64 fetch_signed(const struct spec *sp, va_list *ap)
{
	if (sp->lmod >= 2)
		return va_arg(*ap, s64);
	return va_arg(*ap, long);
}

/* Right-justified numbers pad in emit_num; left-justified ones pad after. */
static void emit_int(struct out *o, struct spec *sp, u64 v, bool neg,
		     unsigned base, bool upper)
{
	size_t start = o->len;
	int w = sp->width;

	if (!sp->left) {
		emit_num(o, sp, v, neg, base, upper);
		return;
	}
	sp->width = 0;
	emit_num(o, sp, v, neg, base, upper);
	pad(o, w - (int)(o->len - start), ' ');
}

static void convert(struct out *o, struct spec *sp, char c, va_list *ap)
{
	s64 sv;

	switch (c) {
	case 'd': case 'i':
		sv = fetch_signed(sp, ap);
		emit_int(o, sp, sv < 0 ? -(u64)sv : (u64)sv, sv < 0, 10, false);
		break;
	case 'u': emit_int(o, sp, fetch_unsigned(sp, ap), false, 10, false); break;
	case 'x': emit_int(o, sp, fetch_unsigned(sp, ap), false, 16, false); break;
	case 'X': emit_int(o, sp, fetch_unsigned(sp, ap), false, 16, true); break;
	case 'o': emit_int(o, sp, fetch_unsigned(sp, ap), false, 8, false); break;
	case 'p':
		sp->width = 8;
		sp->zero = true;
		sp->left = false;
		emit_num(o, sp, (uintptr_t)va_arg(*ap, void *), false, 16, false);
		break;
	case 's': emit_str(o, sp, va_arg(*ap, const char *)); break;
	case 'c': {
		char s[2] = { (char)va_arg(*ap, int), 0 };
		sp->precision = 1;
		emit_str(o, sp, s);
		break;
	}
	case '%': put(o, '%'); break;
	default: put(o, '%'); put(o, c); break;
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	struct spec sp;
	va_list aq;

	va_copy(aq, ap);
	for (const char *f = fmt; *f; f++) {
		if (*f != '%') {
			put(&o, *f);
			continue;
		}
		f = parse_spec(f + 1, &sp, &aq);
		if (!*f)
			break;
		convert(&o, &sp, *f, &aq);
	}
	va_end(aq);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
