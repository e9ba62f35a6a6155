/* test_newlib.c: the "newlib" suite: printf formats, malloc churn, stdio, math. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "utest.h"

static char buf[128];

static int printf_integers(void)
{
	snprintf(buf, sizeof(buf), "%d %u %x %o %5d|%-5d|%05d", -7, 7u, 255u, 8u, 42, 42, 42);
	CHECK(!strcmp(buf, "-7 7 ff 10    42|42   |00042"));
	snprintf(buf, sizeof(buf), "%lld %llu %llx", -176366841446LL, 18446744073709551615ULL,
		 0x123456789abcULL);
	CHECK(!strcmp(buf, "-176366841446 18446744073709551615 123456789abc"));
	snprintf(buf, sizeof(buf), "%hhd %zu %jd", (signed char)-1, (size_t)3, (intmax_t)-4);
	CHECK(!strcmp(buf, "-1 3 -4"));
	return 0;
}

static int printf_floats(void)
{
	snprintf(buf, sizeof(buf), "%f %.2f %e %g", 3.25, 2.0 / 3.0, 12345.678, 0.0001);
	CHECK(!strcmp(buf, "3.250000 0.67 1.234568e+04 0.0001"));
	snprintf(buf, sizeof(buf), "%.3f", -1.0005);
	CHECK(!strcmp(buf, "-1.000") || !strcmp(buf, "-1.001"));
	return 0;
}

static int scanf_and_strtol(void)
{
	int a;
	double d;
	char word[16];

	CHECK_EQ(sscanf("12 3.5 hello", "%d %lf %15s", &a, &d, word), 3);
	CHECK(a == 12 && d == 3.5 && !strcmp(word, "hello"));
	CHECK_EQ(strtol("-0x1f", NULL, 16), -31);
	CHECK_EQ(strtoull("18446744073709551615", NULL, 10) == 18446744073709551615ULL, 1);
	return 0;
}

static int malloc_churn(void)
{
	enum { SLOTS = 512 };
	static unsigned char *slot[SLOTS];
	static size_t size[SLOTS];
	uint32_t seed = 12345;

	for (int round = 0; round < 20000; round++) {
		int i;
		seed = seed * 1103515245 + 12345;
		i = (seed >> 8) % SLOTS;
		if (slot[i]) {
			for (size_t k = 0; k < size[i]; k += 97)
				CHECK(slot[i][k] == (unsigned char)(i + k));
			free(slot[i]);
			slot[i] = NULL;
		} else {
			size[i] = 1 + (seed >> 12) % (seed & 0x100 ? 40000 : 200);
			slot[i] = malloc(size[i]);
			CHECK(slot[i] != NULL);
			for (size_t k = 0; k < size[i]; k += 97)
				slot[i][k] = (unsigned char)(i + k);
		}
	}
	for (int i = 0; i < SLOTS; i++)
		free(slot[i]);
	return 0;
}

static int calloc_realloc(void)
{
	int *p = calloc(1000, sizeof(int));

	CHECK(p != NULL);
	for (int i = 0; i < 1000; i++)
		CHECK(p[i] == 0);
	p[999] = 7;
	p = realloc(p, 100000 * sizeof(int));
	CHECK(p && p[999] == 7);
	free(p);
	return 0;
}

static int stdio_binary_file(void)
{
	double in[100], out[100];
	FILE *f = fopen("/tmp/newlib.bin", "w+");

	CHECK(f != NULL);
	for (int i = 0; i < 100; i++)
		out[i] = i * 1.5;
	CHECK_EQ(fwrite(out, sizeof(double), 100, f), 100);
	CHECK_EQ(fseek(f, 0, SEEK_SET), 0);
	CHECK_EQ(fread(in, sizeof(double), 100, f), 100);
	CHECK(!memcmp(in, out, sizeof(in)));
	CHECK_EQ(ftell(f), (long)sizeof(in));
	fclose(f);
	remove("/tmp/newlib.bin");
	return 0;
}

static int math_functions(void)
{
	volatile double two = 2.0, x = 0.5;

	CHECK(fabs(sqrt(two) - 1.41421356237) < 1e-9);
	CHECK(fabs(sin(x) - 0.479425538604) < 1e-9);
	CHECK(fabs(pow(two, 10) - 1024.0) < 1e-9);
	CHECK(floor(-x) == -1.0 && ceil(x) == 1.0);
	CHECK(fabs(exp(log(two)) - 2.0) < 1e-12);
	return 0;
}

static int fpu_state_per_process(void)
{
	volatile double acc = 0;

	for (int i = 1; i <= 200000; i++)	/* long enough to be preempted */
		acc += 1.0 / ((double)i * i);
	CHECK(fabs(acc - 1.6449290668607) < 1e-9);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(printf_integers),
	UTEST(printf_floats),
	UTEST(scanf_and_strtol),
	UTEST(malloc_churn),
	UTEST(calloc_realloc),
	UTEST(stdio_binary_file),
	UTEST(math_functions),
	UTEST(fpu_state_per_process),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "newlib", cases, sizeof(cases) / sizeof(cases[0]));
}
