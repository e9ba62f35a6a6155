/* getopt.c: getopt, getopt_long and getopt_long_only with glibc's behaviour (optind starts at 1, argv permuted), in place of newlib's. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * newlib's getopt starts with optind 0 and fails when a program sets optind
 * to 1 before its first call (as POSIX allows and Linux programs do), so the
 * glue library carries its own; linked first, it keeps newlib's object out.
 *
 * As glibc: options and non-options may be mixed, the non-options are moved
 * behind the options as the scan goes (PERMUTE); a leading '+' in optstring
 * or POSIXLY_CORRECT stops at the first non-option (REQUIRE_ORDER); a
 * leading '-' returns each non-option as the argument of option 1
 * (RETURN_IN_ORDER); a ':' after those reports a missing argument as ':'
 * and prints nothing.  "--" ends the options.  Setting optind to 0 restarts
 * a scan; once a scan ended, the next call starts a new one at optind (so
 * setting it back to 1 parses again).
 */
char *optarg;
int optind = 1, opterr = 1, optopt = '?';

enum ordering { PERMUTE, REQUIRE_ORDER, RETURN_IN_ORDER };

static struct {
	char *nextchar;			/* the rest of a group of short options */
	int first_nonopt, last_nonopt;	/* the non-options skipped so far */
	int initialized;
	int ended;			/* the scan returned -1: a new call starts another */
	enum ordering ordering;
} g;

static int nonoption(const char *arg)
{
	return arg[0] != '-' || arg[1] == '\0';
}

/* Swap [first_nonopt, last_nonopt) with [last_nonopt, optind): non-options last. */
static void exchange(char **argv)
{
	int nonopts = g.last_nonopt - g.first_nonopt, opts = optind - g.last_nonopt;

	for (int k = 0; k < opts; k++) {
		char *opt = argv[g.last_nonopt + k];

		memmove(&argv[g.first_nonopt + k + 1], &argv[g.first_nonopt + k],
			nonopts * sizeof(*argv));
		argv[g.first_nonopt + k] = opt;
	}
	g.first_nonopt += opts;
	g.last_nonopt = optind;
}

/* Begin a scan at optind (1 if it is 0), in the ordering optstring asks for. */
static void start_scan(const char *optstring)
{
	if (optind == 0)
		optind = 1;
	g.first_nonopt = g.last_nonopt = optind;
	g.nextchar = NULL;
	g.initialized = 1;
	g.ended = 0;
	g.ordering = getenv("POSIXLY_CORRECT") ? REQUIRE_ORDER : PERMUTE;
	if (optstring[0] == '-')
		g.ordering = RETURN_IN_ORDER;
	else if (optstring[0] == '+')
		g.ordering = REQUIRE_ORDER;
}

static const char *skip_mode(const char *optstring)
{
	return optstring + (optstring[0] == '-' || optstring[0] == '+');
}

static int colon_mode(const char *optstring)
{
	return skip_mode(optstring)[0] == ':';
}

static void complain(char *const *argv, const char *optstring, const char *fmt, const char *what)
{
	if (opterr && !colon_mode(optstring)) {
		fprintf(stderr, "%s: ", argv[0]);
		fprintf(stderr, fmt, what);
		fputc('\n', stderr);
	}
}

/* The index of the long option nextchar names (exactly, or as an unambiguous
 * prefix); -1 unknown, -2 ambiguous. */
static int long_lookup(const struct option *longopts, const char *name, size_t len)
{
	int found = -1;

	for (int i = 0; longopts[i].name; i++) {
		if (strncmp(longopts[i].name, name, len))
			continue;
		if (strlen(longopts[i].name) == len)
			return i;			/* exact */
		if (found >= 0 && (longopts[found].has_arg != longopts[i].has_arg ||
				   longopts[found].flag != longopts[i].flag ||
				   longopts[found].val != longopts[i].val))
			return -2;
		if (found < 0)
			found = i;
	}
	return found;
}

/* The long option at g.nextchar (argv[optind] past its dashes). */
static int long_option(int argc, char *const *argv, const char *optstring,
		       const struct option *longopts, int *longindex)
{
	const char *name = g.nextchar, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int i = long_lookup(longopts, name, len);
	const struct option *o;

	g.nextchar = NULL;
	optind++;
	if (i < 0) {
		complain(argv, optstring, i == -2 ? "option '%s' is ambiguous" :
			 "unrecognized option '%s'", argv[optind - 1]);
		optopt = 0;
		return '?';
	}
	o = &longopts[i];
	optarg = NULL;
	if (eq && o->has_arg == no_argument) {
		complain(argv, optstring, "option '--%s' doesn't allow an argument", o->name);
		optopt = o->val;
		return '?';
	}
	if (eq)
		optarg = (char *)eq + 1;
	else if (o->has_arg == required_argument && optind < argc)
		optarg = argv[optind++];
	else if (o->has_arg == required_argument) {
		complain(argv, optstring, "option '--%s' requires an argument", o->name);
		optopt = o->val;
		return colon_mode(optstring) ? ':' : '?';
	}
	if (longindex)
		*longindex = i;
	if (o->flag) {
		*o->flag = o->val;
		return 0;
	}
	return o->val;
}

/* The next short option from g.nextchar. */
static int short_option(int argc, char *const *argv, const char *optstring)
{
	const char *opts = skip_mode(optstring) + colon_mode(optstring);
	char c = *g.nextchar++, what[2] = { c, 0 };
	const char *spec = c == ':' ? NULL : strchr(opts, c);

	if (!*g.nextchar) {
		optind++;
		g.nextchar = NULL;
	}
	if (!spec) {
		complain(argv, optstring, "invalid option -- '%s'", what);
		optopt = c;
		return '?';
	}
	if (spec[1] != ':')
		return c;
	optarg = NULL;
	if (g.nextchar) {			/* "-ovalue" */
		optarg = g.nextchar;
		optind++;
	} else if (spec[2] != ':' && optind < argc) {	/* "-o value" */
		optarg = argv[optind++];
	} else if (spec[2] != ':') {
		complain(argv, optstring, "option requires an argument -- '%s'", what);
		optopt = c;
		c = colon_mode(optstring) ? ':' : '?';
	}
	g.nextchar = NULL;
	return c;
}

/* Move to the next option element; -1 at the end of the options, 1 for a
 * non-option in RETURN_IN_ORDER, 0 when argv[optind] is an option. */
static int next_element(int argc, char **argv)
{
	if (g.last_nonopt > optind)
		g.last_nonopt = optind;
	if (g.first_nonopt > optind)
		g.first_nonopt = optind;
	if (g.ordering == PERMUTE) {
		if (g.first_nonopt != g.last_nonopt && g.last_nonopt != optind)
			exchange(argv);
		else if (g.last_nonopt != optind)
			g.first_nonopt = optind;
		while (optind < argc && nonoption(argv[optind]))
			optind++;
		g.last_nonopt = optind;
	}
	if (optind < argc && !strcmp(argv[optind], "--")) {
		optind++;
		if (g.first_nonopt != g.last_nonopt && g.last_nonopt != optind)
			exchange(argv);
		else if (g.first_nonopt == g.last_nonopt)
			g.first_nonopt = optind;
		g.last_nonopt = optind = argc;
	}
	if (optind >= argc) {
		if (g.first_nonopt != g.last_nonopt)
			optind = g.first_nonopt;	/* the non-options follow the options */
		return -1;
	}
	if (nonoption(argv[optind])) {
		if (g.ordering == REQUIRE_ORDER)
			return -1;
		optarg = argv[optind++];
		return 1;
	}
	return 0;
}

static int getopt_internal(int argc, char *const *cargv, const char *optstring,
			   const struct option *longopts, int *longindex, int long_only)
{
	char **argv = (char **)cargv;		/* permuted in place, as glibc does */
	int r;

	if (optind == 0 || !g.initialized || g.ended)
		start_scan(optstring);
	optarg = NULL;
	if (!g.nextchar || !*g.nextchar) {
		if ((r = next_element(argc, argv)) != 0) {
			g.ended = r < 0;
			return r;
		}
		if (longopts && argv[optind][1] == '-') {
			g.nextchar = argv[optind] + 2;
			return long_option(argc, argv, optstring, longopts, longindex);
		}
		g.nextchar = argv[optind] + 1;
		if (long_only && longopts && (g.nextchar[1] ||
		    !strchr(skip_mode(optstring), g.nextchar[0]))) {
			const char *eq = strchr(g.nextchar, '=');
			size_t len = eq ? (size_t)(eq - g.nextchar) : strlen(g.nextchar);
			if (long_lookup(longopts, g.nextchar, len) != -1)
				return long_option(argc, argv, optstring, longopts, longindex);
		}
	}
	return short_option(argc, argv, optstring);
}

int getopt(int argc, char *const argv[], const char *optstring)
{
	return getopt_internal(argc, argv, optstring, NULL, NULL, 0);
}

int getopt_long(int argc, char *const argv[], const char *optstring,
		const struct option *longopts, int *longindex)
{
	return getopt_internal(argc, argv, optstring, longopts, longindex, 0);
}

int getopt_long_only(int argc, char *const argv[], const char *optstring,
		     const struct option *longopts, int *longindex)
{
	return getopt_internal(argc, argv, optstring, longopts, longindex, 1);
}
