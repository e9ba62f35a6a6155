/* outf.h: one formatted line to stdout in a single write (user/lib/outf.c). */
#ifndef USER_OUTF_H
#define USER_OUTF_H

/* printf-style, at most 255 bytes, one write(1, ...): no stdio buffering, no
 * fstat, so lines from several processes never interleave mid-line. */
void outf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
