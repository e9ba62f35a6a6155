/* cmdline.c: parse the kernel command line given by the boot loader. */
#include "cmdline.h"
#include "errno.h"
#include "string.h"

struct cmdline boot_cmdline;
char boot_cmdline_raw[CMDLINE_MAX];

/* Copy one word (quotes removed) from *sp into out; returns its end in out. */
static char *copy_word(const char **sp, char *out, char *limit)
{
	const char *s = *sp;
	bool quoted = false;

	while (*s && (quoted || *s != ' ') && out < limit) {
		if (*s == '"')
			quoted = !quoted;
		else
			*out++ = *s;
		s++;
	}
	*sp = s;
	*out = '\0';
	return out;
}

int cmdline_parse(struct cmdline *cl, const char *s)
{
	char *out = cl->text, *limit = cl->text + CMDLINE_MAX - 1;
	int err = 0;

	cl->count = 0;
	while (*s) {
		char *word = out, *eq;
		if (*s == ' ') {
			s++;
			continue;
		}
		if (cl->count == CMDLINE_PARAMS || out >= limit) {
			err = -E2BIG;
			break;
		}
		out = copy_word(&s, word, limit) + 1;
		eq = strchr(word, '=');
		cl->key[cl->count] = word;
		cl->value[cl->count] = eq ? eq + 1 : "";
		if (eq)
			*eq = '\0';
		cl->count++;
	}
	if (*s && !err)
		err = -E2BIG;
	return err ? err : cl->count;
}

const char *cmdline_get(const struct cmdline *cl, const char *key)
{
	for (int i = cl->count - 1; i >= 0; i--)
		if (!strcmp(cl->key[i], key))
			return cl->value[i];
	return NULL;
}

unsigned long long cmdline_get_num(const struct cmdline *cl, const char *key,
				   unsigned long long def)
{
	const char *v = cmdline_get(cl, key), *end;
	unsigned long long n;

	if (!v || !*v)
		return def;
	n = simple_strtoull(v, &end);
	if (end == v)
		return def;
	switch (*end) {
	case 'G': case 'g': n <<= 10;	/* fall through */
	case 'M': case 'm': n <<= 10;	/* fall through */
	case 'K': case 'k': n <<= 10; end++; break;
	}
	return *end ? def : n;
}

bool cmdline_list_has(const char *value, const char *word)
{
	size_t n = strlen(word);

	if (!value)
		return false;
	if (!strcmp(value, "all"))
		return true;
	for (const char *p = value; *p; ) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == n && !strncmp(p, word, n))
			return true;
		p += len + (comma ? 1 : 0);
	}
	return false;
}
