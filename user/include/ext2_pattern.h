/* ext2_pattern.h: the pattern the ext2 test programs write and check
 * (tools/ext2_image.py pattern() on the host computes the same bytes). */
#ifndef EXT2_PATTERN_H
#define EXT2_PATTERN_H

/* Byte off of pattern seed: (off * 7 + seed + (off >> 9) * 13) & 0xff. */
static inline unsigned char pat(unsigned seed, unsigned off)
{
	return (off * 7 + seed + (off >> 9) * 13) & 0xff;
}

/* b[0, n) = bytes [off, off + n) of pattern seed. */
static inline void fill(unsigned char *b, unsigned seed, unsigned off, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		b[i] = pat(seed, off + i);
}

/* Does b[0, n) hold bytes [off, off + n) of pattern seed? */
static inline int same(const unsigned char *b, unsigned seed, unsigned off, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (b[i] != pat(seed, off + i))
			return 0;
	return 1;
}

#endif
