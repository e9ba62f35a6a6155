/* cmdline.h: the kernel command line: "key=value" and bare "flag" words. */
#ifndef CMDLINE_H
#define CMDLINE_H

#include "types.h"

#define CMDLINE_MAX	512
#define CMDLINE_PARAMS	32

struct cmdline {
	char text[CMDLINE_MAX];		/* parsed copy: keys and values NUL-separated */
	int count;
	const char *key[CMDLINE_PARAMS];
	const char *value[CMDLINE_PARAMS];	/* "" for a bare flag */
};

/* Parse s into cl. Words are separated by spaces; a value may be in double
 * quotes to hold spaces. Returns the number of parameters, or -E2BIG if the
 * line or the number of words is too large (what fit is kept). */
int cmdline_parse(struct cmdline *cl, const char *s);
/* Value of the last "key=..." (later words override), or NULL if absent. */
const char *cmdline_get(const struct cmdline *cl, const char *key);
/* Numeric value (decimal or 0x hex, with K/M/G suffixes), or def. */
unsigned long long cmdline_get_num(const struct cmdline *cl, const char *key,
				   unsigned long long def);
/* True if value is "all" or one of its comma-separated words equals word. */
bool cmdline_list_has(const char *value, const char *word);

extern struct cmdline boot_cmdline;
extern char boot_cmdline_raw[CMDLINE_MAX];

#endif
