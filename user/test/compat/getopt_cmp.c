/* getopt_cmp.c: prints what getopt and getopt_long return for many command lines; built for aiokern and for the host's glibc, the two outputs must match. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct option longopts[] = {
	{ "depth", required_argument, NULL, 'd' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "color", optional_argument, NULL, 'c' },
	{ "verify", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* One command line (space-separated words); long: use getopt_long. */
static void run(const char *line, const char *optstring, int use_long)
{
	char copy[256], *argv[32];
	int argc = 0, c, idx;

	snprintf(copy, sizeof(copy), "prog %s", line);
	for (char *w = strtok(copy, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	optind = 0;			/* a fresh scan, as both libraries allow */
	opterr = 0;
	printf("[%s] %s:", optstring, line);
	while ((c = use_long ? getopt_long(argc, argv, optstring, longopts, &idx) :
		    getopt(argc, argv, optstring)) != -1)
		printf(" %d(%s,%d)", c, optarg ? optarg : "-", c == '?' || c == ':' ? optopt : 0);
	printf(" | optind %d:", optind);
	for (int i = optind; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
}

int main(void)
{
	static const char *const lines[] = {
		"-a -b x file", "-ab x file", "-bx -a", "file -a more -b y", "-a -- -b",
		"-z -a", "-b", "-a - file", "--depth=3 -v file --verbose", "--dep 8 --verb",
		"--ver", "--depth", "--verbose=1", "--color --color=red -c",
		"--unknown -a", "x -- y -a", "",
	};
	const int n = sizeof(lines) / sizeof(lines[0]);

	for (int i = 0; i < n; i++) {
		run(lines[i], "ab:c::dv", 0);
		run(lines[i], ":ab:c::dv", 1);
		run(lines[i], "+ab:c::dv", 1);
		run(lines[i], "-ab:c::dv", 1);
	}
	/* setting optind to 1 (not 0) before parsing again */
	{
		char *argv[] = { "prog", "-a", "-b", "z", NULL };
		int c, count = 0;

		for (int pass = 0; pass < 2; pass++) {
			optind = 1;
			while ((c = getopt(4, argv, "ab:")) != -1)
				count += c == 'a' || c == 'b';
		}
		printf("optind=1 twice: %d options, optind %d\n", count, optind);
	}
	return 0;
}
