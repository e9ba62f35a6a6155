/* test_powercut.c: the guest side of the ext2 power-cut test (tools/ext2_powercut.py).
 *
 * (init's run=test_powercut:ARG:ARG gives the arguments)
 *   test_powercut load DEV SEED   mount DEV on /mnt/p and write until the host kills
 *                  QEMU: appends to /log.bin (pattern 77), new files in /d written in
 *                  random pieces and overwritten in places, renamed, some fsynced, some
 *                  removed. After each fsync that returned 0 one console line says
 *                  what must survive the cut:
 *                    PC prefix /log.bin LEN      its first LEN bytes are pattern 77
 *                    PC file /d/NAME LEN FNV     exactly LEN bytes, FNV-1a 32 as given
 *                  (a recorded file is never written again).
 *   test_powercut reuse DEV       blocks one file frees, another takes (issue 18): on a
 *                  full file system, /x (fsynced) is truncated to 0 and /w (fsynced)
 *                  unlinked, neither fsynced again; /y then takes as many blocks as /x
 *                  had, only freed ones exist, and is fsynced: "PC file /y LEN FNV",
 *                  then "PC reuse done" (or "PC reuse failed STEP ERRNO"); it waits
 *                  for the cut. Booted with ext2_flush_ms=0: nothing but the fsyncs
 *                  writes. On the image neither /x's nor /w's inode may still point
 *                  at a block of /y's (the host's check).
 *   test_powercut verify DEV      suite ext2_powercut_verify (the second boot, on the
 *                  image e2fsck repaired): mount, read every file of /d and /log.bin
 *                  whole, print "PC have /d/NAME LEN FNV" and "PC log LEN GOOD" (GOOD:
 *                  how many leading bytes are pattern 77), umount.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lx_syscall.h"
#include "ext2_pattern.h"
#include "utest.h"

#define MNT		"/mnt/p"
#define NR_MOUNT	21
#define NR_UMOUNT2	52
#define NR_GETDENTS64	220
#define MAX_FILE	(24 * 1024)
#define MAX_FILES	400		/* then only the log grows */
#define MAX_LOG		(2 * 1024 * 1024)
#define LOG_SEED	77

static const char *dev_path;
static unsigned rng_state;
static unsigned char data[MAX_FILE], piece[MAX_FILE];

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state % n;
}

static unsigned fnv(const unsigned char *p, size_t n)
{
	unsigned h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static long do_mount(void)
{
	mkdir("/mnt", 0755);
	mkdir(MNT, 0755);
	return lx_syscall(NR_MOUNT, (long)dev_path, (long)MNT, (long)"ext2", 0, 0);
}

/* Append 1-3000 bytes to the log; every third append fsyncs and says so. */
static void log_append(int fd, unsigned *len, unsigned *appends)
{
	unsigned n = 1 + rnd(3000);

	if (*len + n > MAX_LOG)
		return;
	for (unsigned i = 0; i < n; i++)
		piece[i] = pat(LOG_SEED, *len + i);
	if (write(fd, piece, n) != (ssize_t)n)
		return;
	*len += n;
	if (++*appends % 3 == 0 && fsync(fd) == 0) {
		printf("PC prefix /log.bin %u\n", *len);
		fflush(stdout);
	}
}

/* Fill data[0, len) in random pieces (appends), then overwrite a few ranges. */
static int file_write(int fd, unsigned len)
{
	unsigned off = 0;

	for (unsigned i = 0; i < len; i++)
		data[i] = rnd(256);
	while (off < len) {
		unsigned n = 1 + rnd(5000);
		n = n > len - off ? len - off : n;
		if (write(fd, data + off, n) != (ssize_t)n)
			return -1;
		off += n;
	}
	for (unsigned k = rnd(4); k; k--) {
		unsigned at = rnd(len), n = 1 + rnd(len - at);
		for (unsigned i = 0; i < n; i++)
			data[at + i] = rnd(256);
		if (pwrite(fd, data + at, n, at) != (ssize_t)n)
			return -1;
	}
	return 0;
}

/* A new file: written, then either renamed and fsynced (recorded) or left
 * unsynced (some of those are removed later). */
static void file_new(unsigned i)
{
	char tmp[64], name[64];
	unsigned len = 1 + rnd(MAX_FILE);
	int fd;

	snprintf(tmp, sizeof(tmp), MNT "/d/t%05u", i);
	snprintf(name, sizeof(name), MNT "/d/f%05u", i);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	if (file_write(fd, len) == 0 && rnd(2) && rename(tmp, name) == 0 && fsync(fd) == 0) {
		printf("PC file /d/f%05u %u %08x\n", i, len, fnv(data, len));
		fflush(stdout);
	}
	close(fd);
	if (rnd(3) == 0 && i > 4) {	/* an older unsynced one goes (if it is there) */
		snprintf(tmp, sizeof(tmp), MNT "/d/t%05u", i - 1 - rnd(4));
		unlink(tmp);
	}
}

static int load(unsigned seed)
{
	unsigned log_len = 0, appends = 0;
	int logfd;

	rng_state = seed ? seed : 1;
	if (do_mount() || mkdir(MNT "/d", 0755))
		return 1;
	logfd = open(MNT "/log.bin", O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (logfd < 0)
		return 1;
	printf("PC start seed %u\n", seed);
	fflush(stdout);
	for (unsigned i = 0;; i++) {
		if (i < MAX_FILES && rnd(3))
			file_new(i);
		else if (log_len >= MAX_LOG)
			usleep(100000);		/* all done: wait for the cut */
		log_append(logfd, &log_len, &appends);
	}
}

/* ---- reuse: another file's freed blocks ---- */

#define REUSE_X		(256 * 1024)	/* /x and /y: direct and indirect blocks */
#define REUSE_W		(64 * 1024)

/* A new file path of len bytes of seed's random bytes (in data), fsynced: 0 or -errno. */
static int reuse_file(const char *path, unsigned len, unsigned seed)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), err = 0;

	if (fd < 0)
		return -errno;
	for (unsigned off = 0; off < len && !err; off += MAX_FILE) {
		unsigned n = len - off < MAX_FILE ? len - off : MAX_FILE;
		rng_state = seed + off;
		for (unsigned i = 0; i < n; i++)
			data[i] = rnd(256);
		if (write(fd, data, n) != (ssize_t)n)
			err = -errno;
	}
	if (!err && fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

/* FNV-1a of what reuse_file(len, seed) wrote. */
static unsigned reuse_fnv(unsigned len, unsigned seed)
{
	unsigned h = 2166136261u;

	for (unsigned off = 0; off < len; off += MAX_FILE) {
		unsigned n = len - off < MAX_FILE ? len - off : MAX_FILE;
		rng_state = seed + off;
		for (unsigned i = 0; i < n; i++)
			h = (h ^ (unsigned char)rnd(256)) * 16777619u;
	}
	return h;
}

/* Write /fill until the file system is full, fsynced: 0 or -errno. */
static int reuse_fill(void)
{
	int fd = open(MNT "/fill", O_WRONLY | O_CREAT | O_TRUNC, 0644), err = 0;

	if (fd < 0)
		return -errno;
	memset(piece, 0x5a, sizeof(piece));
	while (write(fd, piece, 1024) == 1024)
		;
	if (errno != ENOSPC)
		err = -errno;
	if (!err && fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

static void __attribute__((noreturn)) wait_cut(void)
{
	for (;;)
		usleep(100000);
}

static int reuse_fail(const char *step, int err)
{
	printf("PC reuse failed %s %d\n", step, err);
	fflush(stdout);
	wait_cut();
}

static int reuse(void)
{
	int err;

	if (do_mount())
		return reuse_fail("mount", -errno);
	printf("PC start reuse\n");
	fflush(stdout);
	if ((err = reuse_file(MNT "/x", REUSE_X, 11)) || (err = reuse_file(MNT "/w", REUSE_W, 12)))
		return reuse_fail("files", err);
	if ((err = reuse_fill()))
		return reuse_fail("fill", err);
	if (truncate(MNT "/x", 0) || unlink(MNT "/w"))
		return reuse_fail("free", -errno);
	/* only the blocks just freed are free: never a false ENOSPC */
	if ((err = reuse_file(MNT "/y", REUSE_X, 13)))
		return reuse_fail("y", err);
	printf("PC file /y %u %08x\nPC reuse done\n", REUSE_X, reuse_fnv(REUSE_X, 13));
	fflush(stdout);
	wait_cut();			/* the host cuts */
}

/* ---- the second boot ---- */

/* Read path whole into data (at most MAX_FILE bytes + 1): its length, or -1. */
static long read_whole(const char *path, unsigned char *buf, size_t max)
{
	int fd = open(path, O_RDONLY);
	long got = 0, r;

	if (fd < 0)
		return -1;
	while ((size_t)got < max && (r = read(fd, buf + got, max - got)) > 0)
		got += r;
	close(fd);
	return r < 0 ? -1 : got;
}

struct dirent64_head {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
} __attribute__((packed));

/* Say what each file of /d holds: 0, or -1 when one cannot be read. */
static int verify_dir(void)
{
	static char buf[4096];
	char path[300];
	int fd = open(MNT "/d", O_RDONLY | O_DIRECTORY);
	long r = 0, n;

	if (fd < 0)
		return -1;
	while ((r = lx_syscall(NR_GETDENTS64, fd, (long)buf, sizeof(buf), 0, 0)) > 0) {
		for (long off = 0; off < r; off += ((struct dirent64_head *)(buf + off))->d_reclen) {
			struct dirent64_head *e = (void *)(buf + off);
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), MNT "/d/%s", e->d_name);
			n = read_whole(path, data, sizeof(data));
			if (n < 0)
				break;
			printf("PC have /d/%s %ld %08x\n", e->d_name, n, fnv(data, n));
		}
	}
	close(fd);
	return r < 0 ? -1 : 0;
}

static int verify_files(void)
{
	static unsigned char logbuf[MAX_LOG + 1];
	long n, good = 0;

	CHECK_EQ(do_mount(), 0);
	CHECK_EQ(verify_dir(), 0);
	n = read_whole(MNT "/log.bin", logbuf, sizeof(logbuf));
	CHECK(n >= 0);
	while (good < n && logbuf[good] == pat(LOG_SEED, good))
		good++;
	printf("PC log %ld %ld\n", n, good);
	fflush(stdout);
	CHECK_EQ(lx_syscall(NR_UMOUNT2, (long)MNT, 0, 0, 0, 0), 0);
	CHECK_EQ(rmdir(MNT), 0);
	CHECK(rmdir("/mnt") == 0 || errno == ENOTEMPTY);
	return 0;
}

static const struct utest_case verify_cases[] = {
	UTEST(verify_files),
};

int main(int argc, char **argv)
{
	char *args[] = { argv[0], NULL };

	if (argc > 3 && !strcmp(argv[1], "load")) {
		dev_path = argv[2];
		return load(strtoul(argv[3], NULL, 10));
	}
	if (argc > 2 && !strcmp(argv[1], "reuse")) {
		dev_path = argv[2];
		return reuse();
	}
	if (argc > 2 && !strcmp(argv[1], "verify")) {
		dev_path = argv[2];
		return utest_main(1, args, "ext2_powercut_verify", verify_cases, 1);
	}
	printf("usage: test_powercut load DEV SEED | reuse DEV | verify DEV\n");
	return 2;
}
