/* hello.c: the smallest real program: printf with %lld and %f, malloc, a file round trip, exit code. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Write a few bytes to a file, read them back, and check them; 0 when all went well. */
static int file_round_trip(const char *path)
{
	char buf[16] = { 0 };
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, "aiokern", 7) == 7 && lseek(fd, 0, SEEK_SET) == 0 &&
	     read(fd, buf, sizeof(buf)) == 7 && memcmp(buf, "aiokern", 7) == 0;
	close(fd);
	unlink(path);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	long long big = 176366841446LL;
	double pi = 3.14159265;
	char *p = malloc(1 << 16);
	int code = argc > 1 ? atoi(argv[1]) : 0;

	if (!p)
		return 99;
	strcpy(p, "heap");
	printf("hello from user space: %s %lld %.5f argc=%d\n", p, big, pi, argc);
	free(p);
	if (argc > 2)
		printf("file round trip: %s\n", file_round_trip(argv[2]) == 0 ? "ok" : "FAILED");
	return code;
}
