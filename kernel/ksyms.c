/* ksyms.c: address-to-name lookup in the build-time symbol table. */
#include "ksyms.h"
#include "string.h"

extern char _etext[];

const char *ksym_lookup(u32 addr, u32 *offset, u32 *size)
{
	u32 lo = 0, hi = ksym_count;

	if (!ksym_count || addr < ksym_table[0].addr || addr >= (u32)_etext)
		return NULL;
	while (hi - lo > 1) {		/* last entry with .addr <= addr */
		u32 mid = (lo + hi) / 2;
		if (ksym_table[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*offset = addr - ksym_table[lo].addr;
	*size = (lo + 1 < ksym_count ? ksym_table[lo + 1].addr : (u32)_etext)
		- ksym_table[lo].addr;
	return ksym_table[lo].name;
}

u32 ksym_address(const char *name)
{
	for (u32 i = 0; i < ksym_count; i++)
		if (!strcmp(ksym_table[i].name, name))
			return ksym_table[i].addr;
	return 0;
}
