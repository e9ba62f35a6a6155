/* ksyms.h: the kernel symbol table generated at build time, for backtraces. */
#ifndef KSYMS_H
#define KSYMS_H

#include "types.h"

struct ksym {
	u32 addr;
	const char *name;
};

extern const struct ksym ksym_table[];
extern const u32 ksym_count;

/* Find the function containing addr; *offset and *size describe the position.
 * Returns NULL outside the kernel's text. */
const char *ksym_lookup(u32 addr, u32 *offset, u32 *size);
/* Address of a symbol by name, or 0. */
u32 ksym_address(const char *name);

#endif
