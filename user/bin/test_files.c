/* test_files.c: the "files" suite: ramfs files, offsets, modes, descriptors, /dev, errors. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <aiokern.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include "user/syscalls.h"	/* raw stubs: 64-bit offsets, -errno */
#include "utest.h"

#define TOP_OFF		0x7fffffffffffff00LL	/* 256 bytes below the largest offset */
#define RAMFS_MAX	(64LL << 20)		/* ramfs's largest file (kernel/fs/ramfs.c) */

static long pw64(int fd, const void *buf, unsigned n, long long off)
{
	return __sys_pwrite64(fd, buf, n, (unsigned)off, (unsigned)((unsigned long long)off >> 32));
}

static long pr64(int fd, void *buf, unsigned n, long long off)
{
	return __sys_pread64(fd, buf, n, (unsigned)off, (unsigned)((unsigned long long)off >> 32));
}

static long pwv64(int fd, const struct iovec *v, unsigned n, long long off)
{
	return __sys_pwritev(fd, v, n, (unsigned)off, (unsigned)((unsigned long long)off >> 32));
}

static long prv64(int fd, const struct iovec *v, unsigned n, long long off)
{
	return __sys_preadv(fd, v, n, (unsigned)off, (unsigned)((unsigned long long)off >> 32));
}

static int create_write_read(void)
{
	char buf[32] = { 0 };
	int fd = open("/tmp/f1", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK(fd >= 0);
	CHECK_EQ(write(fd, "hello, ramfs", 12), 12);
	CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
	CHECK_EQ(read(fd, buf, sizeof(buf)), 12);
	CHECK(!memcmp(buf, "hello, ramfs", 12));
	CHECK_EQ(read(fd, buf, sizeof(buf)), 0);	/* EOF */
	CHECK_EQ(close(fd), 0);
	CHECK_EQ(unlink("/tmp/f1"), 0);
	return 0;
}

static int append_and_truncate(void)
{
	struct stat st;
	int fd = open("/tmp/f2", O_CREAT | O_WRONLY | O_TRUNC, 0644);

	CHECK(fd >= 0);
	CHECK_EQ(write(fd, "abc", 3), 3);
	close(fd);
	fd = open("/tmp/f2", O_WRONLY | O_APPEND);
	CHECK(fd >= 0);
	lseek(fd, 0, SEEK_SET);
	CHECK_EQ(write(fd, "def", 3), 3);	/* lands at the end anyway */
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, 6);
	close(fd);
	fd = open("/tmp/f2", O_RDWR | O_TRUNC);
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, 0);
	CHECK(S_ISREG(st.st_mode));
	close(fd);
	unlink("/tmp/f2");
	return 0;
}

static int pread_pwrite_offsets(void)
{
	char buf[8];
	int fd = open("/tmp/f3", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK(fd >= 0);
	CHECK_EQ(pwrite(fd, "XYZ", 3, 100000), 3);	/* leaves a hole */
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 0);		/* pwrite keeps the offset */
	CHECK_EQ(pread(fd, buf, 3, 100000), 3);
	CHECK(!memcmp(buf, "XYZ", 3));
	CHECK_EQ(pread(fd, buf, 4, 5000), 4);
	CHECK(!memcmp(buf, "\0\0\0\0", 4));		/* the hole reads as zeros */
	CHECK_EQ(lseek(fd, 0, SEEK_END), 100003);
	CHECK_ERR(lseek(fd, -1, SEEK_SET), EINVAL);
	close(fd);
	unlink("/tmp/f3");
	return 0;
}

static int modes_enforced(void)
{
	char c = 'x';
	int fd = open("/tmp/f4", O_CREAT | O_WRONLY, 0644);

	CHECK(fd >= 0);
	CHECK_ERR(read(fd, &c, 1), EBADF);
	close(fd);
	fd = open("/tmp/f4", O_RDONLY);
	CHECK_ERR(write(fd, &c, 1), EBADF);
	CHECK_ERR(pwrite(fd, &c, 1, 0), EBADF);
	close(fd);
	CHECK_ERR(open("/tmp/f4", O_CREAT | O_EXCL | O_RDWR, 0644), EEXIST);
	CHECK_ERR(open("/tmp", O_RDWR), EISDIR);
	unlink("/tmp/f4");
	return 0;
}

static int bad_descriptors(void)
{
	char c;

	CHECK_ERR(read(-1, &c, 1), EBADF);
	CHECK_ERR(write(63, &c, 1), EBADF);
	CHECK_ERR(close(1000), EBADF);
	CHECK_ERR(lseek(50, 0, SEEK_SET), EBADF);
	CHECK_ERR(dup(-5), EBADF);
	CHECK_ERR(fsync(44), EBADF);
	return 0;
}

static int bad_paths(void)
{
	CHECK_ERR(open("/nope/x", O_RDONLY), ENOENT);
	CHECK_ERR(open("/tmp/missing", O_RDONLY), ENOENT);
	CHECK_ERR(open((char *)0xC0010000, O_RDONLY), EFAULT);
	CHECK_ERR(open(NULL, O_RDONLY), EFAULT);
	CHECK_ERR(unlink("/tmp/missing"), ENOENT);
	CHECK_ERR(open("/bin/helper/x", O_RDONLY), ENOTDIR);
	return 0;
}

static int dup_and_dup2(void)
{
	char buf[4] = { 0 };
	int fd = open("/tmp/f5", O_CREAT | O_RDWR | O_TRUNC, 0644), d;

	CHECK(fd >= 0);
	d = dup(fd);
	CHECK(d > fd);
	CHECK_EQ(write(d, "ab", 2), 2);			/* shared offset */
	CHECK_EQ(lseek(fd, 0, SEEK_CUR), 2);
	CHECK_EQ(dup2(fd, 40), 40);
	CHECK_EQ(pread(40, buf, 2, 0), 2);
	CHECK(!memcmp(buf, "ab", 2));
	close(fd);
	close(d);
	CHECK_EQ(pread(40, buf, 1, 1), 1);		/* still open through 40 */
	close(40);
	unlink("/tmp/f5");
	return 0;
}

static int mkdir_and_nested(void)
{
	int fd;

	CHECK_EQ(mkdir("/tmp/d", 0755), 0);
	CHECK_ERR(mkdir("/tmp/d", 0755), EEXIST);
	fd = open("/tmp/d/inner", O_CREAT | O_RDWR, 0644);
	CHECK(fd >= 0);
	close(fd);
	CHECK_ERR(unlink("/tmp/d"), EISDIR);
	CHECK_ERR(rmdir("/tmp/d"), ENOTEMPTY);
	CHECK_EQ(unlink("/tmp/d/inner"), 0);
	CHECK_ERR(rmdir("/tmp/f-none"), ENOENT);
	CHECK_EQ(rmdir("/tmp/d"), 0);
	CHECK_ERR(open("/tmp/d/x", O_CREAT | O_RDWR, 0644), ENOENT);
	return 0;
}

static int dev_null_zero(void)
{
	char buf[64];
	int n = open("/dev/null", O_RDWR), z = open("/dev/zero", O_RDONLY);

	CHECK(n >= 0 && z >= 0);
	CHECK_EQ(write(n, "discard", 7), 7);
	CHECK_EQ(read(n, buf, sizeof(buf)), 0);
	memset(buf, 1, sizeof(buf));
	CHECK_EQ(read(z, buf, sizeof(buf)), 64);
	for (int i = 0; i < 64; i++)
		CHECK(buf[i] == 0);
	close(n);
	close(z);
	return 0;
}

static int large_file(void)
{
	static char block[8192];
	int fd = open("/tmp/big", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK(fd >= 0);
	for (int i = 0; i < 256; i++) {		/* 2 MiB */
		memset(block, i, sizeof(block));
		CHECK_EQ(write(fd, block, sizeof(block)), (int)sizeof(block));
	}
	for (int i = 255; i >= 0; i--) {
		CHECK_EQ(pread(fd, block, sizeof(block), (off_t)i * sizeof(block)), (int)sizeof(block));
		CHECK(block[0] == (char)i && block[8191] == (char)i);
	}
	close(fd);
	CHECK_EQ(unlink("/tmp/big"), 0);
	return 0;
}

static int stdio_on_ramfs(void)
{
	char line[64];
	FILE *f = fopen("/tmp/stdio.txt", "w");

	CHECK(f != NULL);
	for (int i = 0; i < 100; i++)
		fprintf(f, "line %d %lld\n", i, (long long)i * 1000000007LL);
	CHECK_EQ(fclose(f), 0);
	f = fopen("/tmp/stdio.txt", "r");
	CHECK(f != NULL);
	for (int i = 0; i < 100; i++) {
		char want[64];
		CHECK(fgets(line, sizeof(line), f) != NULL);
		snprintf(want, sizeof(want), "line %d %lld\n", i, (long long)i * 1000000007LL);
		CHECK(!strcmp(line, want));
	}
	CHECK(fgets(line, sizeof(line), f) == NULL);
	fclose(f);
	unlink("/tmp/stdio.txt");
	return 0;
}

/* A write whose source runs into an unmapped page is short; the file's bytes
 * after the short count keep their old contents (a zero-filling copy would
 * have erased them). */
static int short_write_keeps_file(void)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char old[8192], back[200];
	int fd = open("/tmp/f_short", O_CREAT | O_RDWR | O_TRUNC, 0644);
	long n;

	CHECK(p != MAP_FAILED && fd >= 0);
	CHECK_EQ(munmap(p + 4096, 4096), 0);
	memset(p, 'B', 4096);
	memset(old, 'A', sizeof(old));
	CHECK_EQ(write(fd, old, sizeof(old)), (long)sizeof(old));
	n = pwrite(fd, p + 4096 - 101, 200, 0);
	CHECK(n > 0 && n <= 101);
	CHECK_EQ(pread(fd, back, sizeof(back), 0), (long)sizeof(back));
	for (long i = 0; i < (long)sizeof(back); i++)
		CHECK_EQ(back[i], i < n ? 'B' : 'A');
	CHECK_ERR(pwrite(fd, p + 4096, 16, 0), EFAULT);	/* nothing mapped: nothing written */
	CHECK_EQ(pread(fd, back, 16, 0), 16);
	CHECK(back[0] == 'B' && back[n] == 'A');
	close(fd);
	unlink("/tmp/f_short");
	munmap(p, 4096);
	return 0;
}

/* Issue 14 finding 1: an offset whose end passes 2^63 - 1 is -EINVAL on every
 * kind of file (this pwrite64 looped in ramfs_rw for good, the machine with
 * it); ramfs then has its own limit, RAMFS_MAX: a write at or past it is
 * -EFBIG, one across it is cut there, a read past the end returns 0. */
static int offsets_at_the_top_ramfs(void)
{
	char buf[256], back[16];
	struct iovec v[2] = { { buf, 200 }, { buf, 56 } };
	int fd = open("/tmp/f_top", O_CREAT | O_RDWR | O_TRUNC, 0644);

	CHECK(fd >= 0);
	memset(buf, 'T', sizeof(buf));
	CHECK_EQ(pw64(fd, buf, 256, TOP_OFF), -EINVAL);		/* the call */
	CHECK_EQ(pr64(fd, buf, 256, TOP_OFF), -EINVAL);
	CHECK_EQ(pw64(fd, buf, 1, 0x7fffffffffffffffLL), -EINVAL);
	CHECK_EQ(pw64(fd, buf, 1, -1), -EINVAL);
	CHECK_EQ(pw64(fd, buf, 1, (long long)0x8000000000000000ULL), -EINVAL);
	CHECK_EQ(pwv64(fd, v, 2, TOP_OFF), -EINVAL);
	CHECK_EQ(prv64(fd, v, 2, TOP_OFF), -EINVAL);
	CHECK_EQ(pw64(fd, buf, 255, TOP_OFF), -EFBIG);		/* ends at 2^63 - 1 */
	CHECK_EQ(pr64(fd, buf, 255, TOP_OFF), 0);
	CHECK_EQ(pwv64(fd, v, 2, TOP_OFF - 1), -EFBIG);
	CHECK_EQ(pw64(fd, buf, 0, 0x7fffffffffffffffLL), 0);	/* nothing to move */
	CHECK_EQ(pw64(fd, buf, 1, RAMFS_MAX), -EFBIG);
	CHECK_EQ(pw64(fd, buf, 0, RAMFS_MAX), 0);
	CHECK_EQ(pw64(fd, buf, 100, RAMFS_MAX - 10), 10);	/* cut at the limit */
	CHECK_EQ(lseek(fd, 0, SEEK_END), RAMFS_MAX);
	CHECK_EQ(pr64(fd, back, 16, RAMFS_MAX - 10), 10);
	CHECK(!memcmp(back, buf, 10));
	CHECK_EQ(pr64(fd, back, 16, RAMFS_MAX), 0);
	CHECK_EQ(pr64(fd, back, 16, 0), 16);			/* a hole before it */
	CHECK_EQ(back[0], 0);
	close(fd);
	CHECK_EQ(unlink("/tmp/f_top"), 0);
	return 0;
}

/* The same rule on the other kinds: pipes have no offset (-ESPIPE first),
 * /dev/null and /dev/zero take any offset whose end fits. */
static int offsets_at_the_top_devices(void)
{
	char buf[256];
	int fds[2], n = open("/dev/null", O_RDWR), z = open("/dev/zero", O_RDONLY);

	CHECK(n >= 0 && z >= 0);
	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(pw64(fds[1], buf, 256, TOP_OFF), -ESPIPE);
	CHECK_EQ(pr64(fds[0], buf, 256, TOP_OFF), -ESPIPE);
	CHECK_EQ(pw64(n, buf, 256, TOP_OFF), -EINVAL);
	CHECK_EQ(pw64(n, buf, 1, -5), -EINVAL);
	CHECK_EQ(pw64(n, buf, 255, TOP_OFF), 255);
	CHECK_EQ(pr64(n, buf, 256, TOP_OFF), -EINVAL);
	CHECK_EQ(pr64(z, buf, 256, TOP_OFF), -EINVAL);
	memset(buf, 1, sizeof(buf));
	CHECK_EQ(pr64(z, buf, 255, TOP_OFF), 255);
	CHECK(buf[0] == 0 && buf[254] == 0 && buf[255] == 1);
	close(fds[0]);
	close(fds[1]);
	close(n);
	close(z);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(create_write_read),
	UTEST(append_and_truncate),
	UTEST(pread_pwrite_offsets),
	UTEST(modes_enforced),
	UTEST(bad_descriptors),
	UTEST(bad_paths),
	UTEST(dup_and_dup2),
	UTEST(mkdir_and_nested),
	UTEST(dev_null_zero),
	UTEST(large_file),
	UTEST(stdio_on_ramfs),
	UTEST(short_write_keeps_file),
	UTEST(offsets_at_the_top_ramfs),
	UTEST(offsets_at_the_top_devices),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "files", cases, sizeof(cases) / sizeof(cases[0]));
}
