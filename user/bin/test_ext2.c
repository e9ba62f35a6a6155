/* test_ext2.c: the ext2 suites on an image made by tools/ext2_image.py (mke2fs -d).
 *
 * (init's run=test_ext2:ARG:ARG gives the arguments)
 *   test_ext2 DEV [CASE]          suite ext2: mount DEV on /mnt/e, read what the host
 *                                 put there, write, rename, remove, truncate, link...,
 *                                 then umount; tools/ext2_image.py check compares the
 *                                 image with what these cases leave (EXPECT there)
 *   test_ext2 boot DIR DEV [CASE] suite ext2_boot: the mount= boot parameter's mount of
 *                                 DEV at DIR: read, write, umount, mount read-only again
 *   test_ext2 fuzz DEV N KB       suite ext2_fuzz: N images of KB KiB back to back on DEV
 *                                 (mutated by the host): mount, walk and write each
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "aio_raw.h"
#include "aiokern.h"
#include "lx_syscall.h"
#include "utest.h"
#include "ext2_stat.h"
#include "uapi/mount.h"

#define MNT		"/mnt/e"
#define NCASES(a)	((int)(sizeof(a) / sizeof((a)[0])))
#define NR_LINK		9
#define NR_MOUNT	21
#define NR_SYNC		36
#define NR_UMOUNT2	52
#define NR_SYMLINK	83
#define NR_READLINK	85
#define NR_PREAD64	180
#define NR_PWRITE64	181
#define NR_GETDENTS64	220
#define K_ENOENT	2
#define K_EIO		5
#define K_ENOTBLK	15
#define K_EBUSY		16
#define K_EEXIST	17
#define K_EXDEV		18
#define K_ENODEV	19
#define K_ENOTDIR	20
#define K_EINVAL	22
#define K_EPERM		1
#define K_ELOOP		40
#define K_EUCLEAN	117

static const char *dev_path;

/* Byte off of pattern file seed (tools/ext2_image.py pattern()). */
static unsigned char ext2_pat(unsigned seed, unsigned off)
{
	return (off * 7 + seed + (off >> 9) * 13) & 0xff;
}

static long sys_mount(const char *dev, const char *dir, const char *type, long flags,
		      const char *data)
{
	return lx_syscall(NR_MOUNT, (long)dev, (long)dir, (long)type, flags, (long)data);
}

static long sys_umount(const char *dir)
{
	return lx_syscall(NR_UMOUNT2, (long)dir, 0, 0, 0, 0);
}

/* Write the whole of a file: 0, or -1. */
static int put_file(const char *path, const void *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, data, n);
	close(fd);
	return w == (ssize_t)n ? 0 : -1;
}

/* Read up to n bytes of a file into buf: the count, or -1. */
static ssize_t get_file(const char *path, void *buf, size_t n)
{
	int fd = open(path, O_RDONLY);
	ssize_t r, got = 0;

	if (fd < 0)
		return -1;
	while ((size_t)got < n && (r = read(fd, (char *)buf + got, n - got)) > 0)
		got += r;
	close(fd);
	return got;
}

/* Does path hold exactly n bytes of pattern seed? Reads in 1000-byte pieces. */
static int file_is_pattern(const char *path, unsigned seed, size_t n)
{
	static unsigned char buf[1000];
	int fd = open(path, O_RDONLY);
	size_t off = 0;
	ssize_t r;

	if (fd < 0)
		return 0;
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < r; i++, off++)
			if (off >= n || buf[i] != ext2_pat(seed, off)) {
				close(fd);
				return 0;
			}
	}
	close(fd);
	return r == 0 && off == n;
}

/* Write n bytes of pattern seed to path in odd pieces of step bytes. */
static int write_pattern(const char *path, unsigned seed, size_t n, size_t step)
{
	unsigned char *buf = malloc(step);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t off = 0;

	if (fd < 0 || !buf)
		return -1;
	while (off < n) {
		size_t k = n - off < step ? n - off : step;
		for (size_t i = 0; i < k; i++)
			buf[i] = ext2_pat(seed, off + i);
		if (write(fd, buf, k) != (ssize_t)k)
			break;
		off += k;
	}
	free(buf);
	return close(fd) || off != n ? -1 : 0;
}

/* Entries of a directory by getdents64 (a small buffer: many calls); names
 * matching prefix counted; -1 on an error. */
static long count_entries(const char *path, const char *prefix, int *dots)
{
	char buf[512];
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	long n = 0, r;

	if (fd < 0)
		return -1;
	*dots = 0;
	while ((r = lx_syscall(NR_GETDENTS64, fd, (long)buf, sizeof(buf), 0, 0)) > 0) {
		for (long off = 0; off < r;) {
			struct linux_dirent64 *d = (void *)(buf + off);
			if (!strncmp(d->d_name, prefix, strlen(prefix)))
				n++;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				(*dots)++;
			off += d->d_reclen;
		}
	}
	close(fd);
	return r < 0 ? r : n;
}

/* Bad mounts: each refused with its error, nothing left mounted. */
static int mount_bad_args(void)
{
	mkdir("/mnt", 0755);
	mkdir(MNT, 0755);
	CHECK_EQ(sys_mount(dev_path, MNT, "ext3", 0, NULL), -K_ENODEV);
	CHECK_EQ(sys_mount("/dev/null", MNT, "ext2", 0, NULL), -K_ENOTBLK);
	CHECK_EQ(sys_mount("/dev/nope", MNT, "ext2", 0, NULL), -K_ENOENT);
	CHECK_EQ(sys_mount(dev_path, "/mnt/none", "ext2", 0, NULL), -K_ENOENT);
	CHECK_EQ(put_file("/tmp/ext2_file", "x", 1), 0);
	CHECK_EQ(sys_mount(dev_path, "/tmp/ext2_file", "ext2", 0, NULL), -K_ENOTDIR);
	CHECK_EQ(sys_mount(dev_path, MNT, "ext2", 0, "bogus=1"), -K_EINVAL);
	/* the image's second half is no file system (offset past its superblock) */
	CHECK_EQ(sys_mount(dev_path, MNT, "ext2", 0, "offset=1048576"), -K_EINVAL);
	CHECK_EQ(sys_umount(MNT), -K_EINVAL);
	unlink("/tmp/ext2_file");
	return 0;
}

static int mount_it(void)
{
	struct stat st;

	CHECK_EQ(sys_mount(dev_path, MNT, "ext2", 0, NULL), 0);
	CHECK_EQ(sys_mount(dev_path, MNT, "ext2", 0, NULL), -K_EBUSY);
	CHECK_EQ(mkdir("/mnt/e2", 0755), 0);	/* the same device twice: no */
	CHECK_EQ(sys_mount(dev_path, "/mnt/e2", "ext2", 0, NULL), -K_EBUSY);
	CHECK_EQ(rmdir("/mnt/e2"), 0);
	CHECK_EQ(stat(MNT, &st), 0);
	CHECK_EQ(st.st_ino, 2);			/* ext2's root */
	CHECK(S_ISDIR(st.st_mode));
	CHECK_EQ(rmdir(MNT), -1);		/* a mount point */
	CHECK_EQ(errno, EBUSY);
	return 0;
}

static int host_files(void)
{
	char buf[64];
	struct stat a, b;
	int dots;

	CHECK_EQ(get_file(MNT "/hello.txt", buf, sizeof(buf)), 20);
	CHECK(!memcmp(buf, "hello from the host\n", 20));
	CHECK(file_is_pattern(MNT "/small.bin", 1, 3000));
	CHECK(file_is_pattern(MNT "/big.bin", 2, 300 * 1024));	/* double indirect at 1 KiB */
	CHECK_EQ(get_file(MNT "/sub/dir/deep.txt", buf, sizeof(buf)), 5);
	CHECK(!memcmp(buf, "deep\n", 5));
	CHECK_EQ(get_file(MNT "/sub/dir/../../hello.txt", buf, sizeof(buf)), 20);
	CHECK_EQ(count_entries(MNT "/many", "f0", &dots), 300);	/* hashed, read linearly */
	CHECK_EQ(dots, 2);
	CHECK_EQ(get_file(MNT "/many/f0299", buf, sizeof(buf)), 4);
	CHECK(!memcmp(buf, "299\n", 4));
	/* a name added to the hashed directory: it becomes linear (e2fsck agrees) */
	CHECK_EQ(put_file(MNT "/many/added", "added\n", 6), 0);
	CHECK_EQ(count_entries(MNT "/many", "", &dots), 303);
	CHECK_EQ(get_file(MNT "/many/f0150", buf, sizeof(buf)), 4);
	CHECK(!memcmp(buf, "150\n", 4));
	CHECK_EQ(stat(MNT "/hello.txt", &a), 0);
	CHECK_EQ(stat(MNT "/hard.txt", &b), 0);
	CHECK_EQ(a.st_ino, b.st_ino);
	CHECK_EQ(a.st_nlink, 2);
	CHECK(a.st_mtime > 1600000000);	/* the host file's, copied by mke2fs -d */
	return 0;
}

static int sparse_and_links(void)
{
	char buf[128];
	struct stat st;

	CHECK_EQ(stat(MNT "/sparse.bin", &st), 0);
	CHECK_EQ(st.st_size, 200 * 1024 + 4);
	CHECK(st.st_blocks <= 3 * (st.st_blksize / 512));	/* two blocks and an indirect one */
	{
		int fd = open(MNT "/sparse.bin", O_RDONLY);
		CHECK(fd >= 0);
		CHECK_EQ(lseek(fd, 100 * 1024, SEEK_SET), 100 * 1024);
		CHECK_EQ(read(fd, buf, 64), 64);
		for (int i = 0; i < 64; i++)
			CHECK_EQ(buf[i], 0);
		CHECK_EQ(lseek(fd, -4, SEEK_END), 200 * 1024);
		CHECK_EQ(read(fd, buf, 64), 4);
		CHECK(!memcmp(buf, "tail", 4));
		close(fd);
	}
	CHECK_EQ(lstat(MNT "/short_link", &st), 0);
	CHECK(S_ISLNK(st.st_mode));
	CHECK_EQ(lx_syscall(NR_READLINK, (long)MNT "/short_link", (long)buf, sizeof(buf), 0, 0), 9);
	CHECK(!memcmp(buf, "hello.txt", 9));
	CHECK_EQ(lx_syscall(NR_READLINK, (long)MNT "/long_link", (long)buf, sizeof(buf), 0, 0),
		 4 + 80 + 12);			/* a slow symlink: its own block */
	CHECK_EQ(get_file(MNT "/long_link", buf, sizeof(buf)), 5);
	CHECK(!memcmp(buf, "deep\n", 5));
	CHECK_EQ(stat(MNT "/short_link", &st), 0);
	CHECK(S_ISREG(st.st_mode));
	CHECK_EQ(lx_syscall(NR_READLINK, (long)MNT "/hello.txt", (long)buf, sizeof(buf), 0, 0),
		 -K_EINVAL);
	return 0;
}

/* A new file of 200 KiB + 123 in pieces of 3001 bytes (direct, indirect and,
 * with 1 KiB blocks, double indirect blocks allocated as it grows). */
static int write_new(void)
{
	struct stat st;
	int fd;

	time_t t0 = time(NULL);

	CHECK_EQ(write_pattern(MNT "/new.bin", 7, 200 * 1024 + 123, 3001), 0);
	CHECK(file_is_pattern(MNT "/new.bin", 7, 200 * 1024 + 123));
	CHECK_EQ(stat(MNT "/new.bin", &st), 0);
	CHECK_EQ(st.st_size, 200 * 1024 + 123);
	CHECK(st.st_blocks >= (200 * 1024 + 123) / 512);
	CHECK(S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0644);
	CHECK(st.st_mtime >= t0 && st.st_mtime <= time(NULL) && st.st_ctime >= t0);
	fd = open(MNT "/new.bin", O_RDWR);
	CHECK(fd >= 0);
	CHECK_EQ(fsync(fd), 0);
	CHECK_EQ(lseek(fd, 0, SEEK_END), 200 * 1024 + 123);
	CHECK_EQ(write(fd, "", 0), 0);
	close(fd);
	return 0;
}

static int dirs(void)
{
	struct stat st, before;
	char cwd[128];

	CHECK_EQ(stat(MNT, &before), 0);
	CHECK_EQ(mkdir(MNT "/newdir", 0755), 0);
	CHECK_EQ(stat(MNT, &st), 0);
	CHECK_EQ(st.st_nlink, before.st_nlink + 1);
	CHECK_EQ(stat(MNT "/newdir", &st), 0);
	CHECK(S_ISDIR(st.st_mode));
	CHECK_EQ(st.st_nlink, 2);
	CHECK_EQ(write_pattern(MNT "/newdir/inner.bin", 9, 5000, 777), 0);
	CHECK_EQ(mkdir(MNT "/rmdir_me", 0700), 0);
	CHECK_EQ(rmdir(MNT "/rmdir_me"), 0);
	CHECK_ERR(rmdir(MNT "/newdir"), ENOTEMPTY);
	CHECK_ERR(mkdir(MNT "/newdir", 0755), EEXIST);
	CHECK_EQ(chdir(MNT "/newdir"), 0);
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK(!strcmp(cwd, MNT "/newdir"));
	CHECK(file_is_pattern("inner.bin", 9, 5000));
	CHECK_EQ(chdir(".."), 0);
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK(!strcmp(cwd, MNT));
	CHECK_EQ(chdir(".."), 0);
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK(!strcmp(cwd, "/mnt"));
	CHECK_EQ(chdir("/"), 0);
	return 0;
}

static int rename_cases(void)
{
	char buf[64];
	struct stat st;

	CHECK_EQ(put_file(MNT "/rename_src.txt", "rename me\n", 10), 0);
	CHECK_EQ(rename(MNT "/rename_src.txt", MNT "/moved.txt"), 0);
	CHECK_ERR(stat(MNT "/rename_src.txt", &st), ENOENT);
	CHECK_EQ(put_file(MNT "/tmp_a", "A", 1), 0);
	CHECK_EQ(put_file(MNT "/tmp_b", "BB", 2), 0);
	CHECK_EQ(rename(MNT "/tmp_a", MNT "/tmp_b"), 0);	/* replaces tmp_b */
	CHECK_EQ(get_file(MNT "/tmp_b", buf, sizeof(buf)), 1);
	CHECK_EQ(unlink(MNT "/tmp_b"), 0);
	CHECK_ERR(rename(MNT "/newdir", MNT "/newdir/sub"), EINVAL);	/* into itself */
	CHECK_EQ(mkdir(MNT "/d1", 0755), 0);
	CHECK_EQ(mkdir(MNT "/d2", 0755), 0);
	CHECK_EQ(rename(MNT "/d1", MNT "/d2/d1"), 0);
	CHECK_EQ(stat(MNT "/d2", &st), 0);
	CHECK_EQ(st.st_nlink, 3);
	CHECK_EQ(stat(MNT "/d2/d1/..", &st), 0);
	CHECK_EQ(chdir(MNT "/d2/d1"), 0);
	CHECK(getcwd(buf, sizeof(buf)) != NULL);
	CHECK(!strcmp(buf, MNT "/d2/d1"));
	CHECK_EQ(chdir("/"), 0);
	CHECK_ERR(rmdir(MNT "/d2"), ENOTEMPTY);
	CHECK_EQ(rmdir(MNT "/d2/d1"), 0);
	CHECK_EQ(rmdir(MNT "/d2"), 0);
	CHECK_ERR(rename(MNT "/moved.txt", "/tmp/moved.txt"), EXDEV);
	return 0;
}

/* Blocks come back: a removed file's, an open one's at its close. */
static int unlink_cases(void)
{
	char buf[8];
	int fd;

	CHECK_EQ(write_pattern(MNT "/to_remove.txt", 3, 50000, 4096), 0);
	fd = open(MNT "/to_remove.txt", O_RDONLY);
	CHECK(fd >= 0);
	CHECK_EQ(unlink(MNT "/to_remove.txt"), 0);
	CHECK_ERR(open(MNT "/to_remove.txt", O_RDONLY), ENOENT);
	CHECK_EQ(lseek(fd, 1000, SEEK_SET), 1000);
	CHECK_EQ(read(fd, buf, 1), 1);		/* still readable while open */
	CHECK_EQ((unsigned char)buf[0], ext2_pat(3, 1000));
	close(fd);
	CHECK_ERR(unlink(MNT "/newdir"), EISDIR);
	CHECK_ERR(rmdir(MNT "/new.bin"), ENOTDIR);
	CHECK_ERR(open(MNT "/hello.txt/x", O_RDONLY), ENOTDIR);
	CHECK_ERR(unlink(MNT "/nothing"), ENOENT);
	return 0;
}

static int truncate_cases(void)
{
	unsigned char buf[3000];

	CHECK_EQ(write_pattern(MNT "/trunc.bin", 11, 40000, 4000), 0);
	CHECK_EQ(truncate(MNT "/trunc.bin", 1500), 0);
	CHECK(file_is_pattern(MNT "/trunc.bin", 11, 1500));
	CHECK_EQ(truncate(MNT "/trunc.bin", 3000), 0);	/* grows with zeros */
	CHECK_EQ(get_file(MNT "/trunc.bin", buf, sizeof(buf)), 3000);
	for (int i = 1500; i < 3000; i++)
		CHECK_EQ(buf[i], 0);
	CHECK_EQ(truncate(MNT "/trunc.bin", 1500), 0);
	CHECK(file_is_pattern(MNT "/trunc.bin", 11, 1500));
	CHECK_ERR(truncate(MNT "/newdir", 0), EISDIR);
	return 0;
}

static int holes(void)
{
	int fd = open(MNT "/holes.bin", O_RDWR | O_CREAT | O_TRUNC, 0600);
	unsigned char buf[4096];
	struct stat st;

	CHECK(fd >= 0);
	CHECK_EQ(write(fd, "A", 1), 1);
	CHECK_EQ(lseek(fd, 100 * 1024, SEEK_SET), 100 * 1024);
	CHECK_EQ(write(fd, "B", 1), 1);
	CHECK_EQ(lseek(fd, 100 * 1024 + 4096, SEEK_SET), 100 * 1024 + 4096);
	CHECK_EQ(write(fd, "C", 1), 1);
	CHECK_EQ(lseek(fd, 50 * 1024, SEEK_SET), 50 * 1024);
	CHECK_EQ(read(fd, buf, sizeof(buf)), 4096);
	for (int i = 0; i < 4096; i++)
		CHECK_EQ(buf[i], 0);
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, 100 * 1024 + 4097);
	CHECK(st.st_blocks < 40);		/* holes take no blocks */
	close(fd);
	return 0;
}

/* Past the double indirect blocks' reach: triple indirect, sparse (a 4 KiB
 * block size reaches it past 4 GiB: 64-bit offsets, large_file). */
static int triple_indirect(void)
{
	static unsigned char buf[4096], back[4096];
	struct stat st;
	unsigned long long off;
	int fd;

	CHECK_EQ(stat(MNT, &st), 0);
	off = 12ull + st.st_blksize / 4 + (unsigned long long)(st.st_blksize / 4) * (st.st_blksize / 4);
	off = off * st.st_blksize + 3 * st.st_blksize + 100;
	for (int i = 0; i < 4096; i++)
		buf[i] = ext2_pat(13, i);
	fd = open(MNT "/tind.bin", O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	CHECK_EQ(lx_syscall(NR_PWRITE64, fd, (long)buf, 4096, (long)off, (long)(off >> 32)), 4096);
	CHECK_EQ(lx_syscall(NR_PREAD64, fd, (long)back, 4096, (long)off, (long)(off >> 32)), 4096);
	CHECK(!memcmp(buf, back, 4096));
	CHECK_EQ(lx_syscall(NR_PREAD64, fd, (long)back, 4096, (long)(off - 8192),
			    (long)((off - 8192) >> 32)), 4096);
	for (int i = 0; i < 4096; i++)
		CHECK_EQ(back[i], 0);
	close(fd);
	CHECK_EQ(unlink(MNT "/tind.bin"), 0);	/* its blocks, all levels, freed */
	return 0;
}

static int symlinks(void)
{
	char buf[200], target[120];
	struct stat st;

	CHECK_EQ(lx_syscall(NR_SYMLINK, (long)"new.bin", (long)MNT "/new_link", 0, 0, 0), 0);
	CHECK_EQ(lx_syscall(NR_READLINK, (long)MNT "/new_link", (long)buf, sizeof(buf), 0, 0), 7);
	CHECK(file_is_pattern(MNT "/new_link", 7, 200 * 1024 + 123));
	strcpy(target, "newdir/");		/* 74 bytes: a block of its own */
	for (int i = 0; i < 30; i++)
		strcat(target, "./");
	strcat(target, "nothere");
	CHECK_EQ(lx_syscall(NR_SYMLINK, (long)target, (long)MNT "/slow_link", 0, 0, 0), 0);
	CHECK_EQ(lx_syscall(NR_READLINK, (long)MNT "/slow_link", (long)buf, sizeof(buf), 0, 0), 74);
	CHECK(!memcmp(buf, target, 74));
	CHECK_ERR(stat(MNT "/slow_link", &st), ENOENT);	/* dangling */
	CHECK_EQ(unlink(MNT "/slow_link"), 0);
	CHECK_EQ(lx_syscall(NR_SYMLINK, (long)"loop2", (long)MNT "/loop1", 0, 0, 0), 0);
	CHECK_EQ(lx_syscall(NR_SYMLINK, (long)"loop1", (long)MNT "/loop2", 0, 0, 0), 0);
	CHECK_ERR(open(MNT "/loop1", O_RDONLY), ELOOP);
	CHECK_EQ(unlink(MNT "/loop1"), 0);
	CHECK_EQ(unlink(MNT "/loop2"), 0);
	CHECK_EQ(lx_syscall(NR_SYMLINK, (long)"x", (long)"/tmp/ramfs_link", 0, 0, 0), -K_EPERM);
	return 0;
}

static int hard_links(void)
{
	struct stat st;

	CHECK_EQ(lx_syscall(NR_LINK, (long)MNT "/new.bin", (long)MNT "/newdir/hard", 0, 0, 0), 0);
	CHECK_EQ(stat(MNT "/new.bin", &st), 0);
	CHECK_EQ(st.st_nlink, 2);
	CHECK(file_is_pattern(MNT "/newdir/hard", 7, 200 * 1024 + 123));
	CHECK_EQ(unlink(MNT "/newdir/hard"), 0);
	CHECK_EQ(stat(MNT "/new.bin", &st), 0);
	CHECK_EQ(st.st_nlink, 1);
	CHECK_EQ(lx_syscall(NR_LINK, (long)MNT "/new.bin", (long)"/tmp/x", 0, 0, 0), -K_EXDEV);
	CHECK_EQ(lx_syscall(NR_LINK, (long)MNT "/newdir", (long)MNT "/dl", 0, 0, 0), -K_EPERM);
	return 0;
}

/* umount refuses while a file or a working directory is in use; a remount
 * finds what was written (it went to the disk). */
static int umount_remount(void)
{
	int fd = open(MNT "/hello.txt", O_RDONLY);
	struct stat st;

	CHECK(fd >= 0);
	CHECK_EQ(sys_umount(MNT), -K_EBUSY);
	close(fd);
	CHECK_EQ(chdir(MNT "/newdir"), 0);
	CHECK_EQ(sys_umount(MNT), -K_EBUSY);
	CHECK_EQ(chdir("/"), 0);
	CHECK_EQ(lx_syscall(NR_SYNC, 0, 0, 0, 0, 0), 0);
	CHECK_EQ(sys_umount(MNT), 0);
	CHECK_ERR(stat(MNT "/hello.txt", &st), ENOENT);
	CHECK_EQ(sys_mount(dev_path, MNT, "ext2", 0, NULL), 0);
	CHECK(file_is_pattern(MNT "/new.bin", 7, 200 * 1024 + 123));
	CHECK(file_is_pattern(MNT "/newdir/inner.bin", 9, 5000));
	CHECK_EQ(sys_umount(MNT), 0);
	CHECK_EQ(rmdir(MNT), 0);		/* the mount point was ours */
	CHECK(rmdir("/mnt") == 0 || errno == ENOTEMPTY);	/* a boot mount may be there */
	return 0;
}

#define PAGE		4096

/* Fork, run fn in the child: its exit status, or -1 with *sig when a signal
 * ended it. */
static int run_child(int (*fn)(void), int *sig)
{
	int st;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn());
	*sig = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -2;
	if (WIFSIGNALED(st)) {
		*sig = WTERMSIG(st);
		return -1;
	}
	return WEXITSTATUS(st);
}

/* Copy the initramfs file from to the ext2 file to (mode 0755): 0 or -1. */
static int copy_file(const char *from, const char *to)
{
	static char buf[8192];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t r = -1;

	while (in >= 0 && out >= 0 && (r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, r) != r) {
			r = -1;
			break;
		}
	close(in);
	close(out);
	return r == 0 ? 0 : -1;
}

/* A new file of mode 0755 holding n bytes of data: 0 or -1. */
static int put_exec(const char *path, const void *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t w = fd >= 0 ? write(fd, data, n) : -1;

	return close(fd) || w != (ssize_t)n ? -1 : 0;
}

/* exec (fork + execve) of a program, waited for: its exit status, or -1. */
static int exec_wait(const char *path, char *const argv[])
{
	char *envp[] = { NULL };
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		execve(path, argv, envp);
		_exit(100 + errno);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* exec of programs on ext2: /bin/helper copied there runs from the disk
 * (the file system is mounted again first: nothing of it is cached, the
 * loader reads it through the page cache from the device); a file with no
 * x bit is -EACCES, one that is no ELF (a script with no #! line: the
 * kernel runs no interpreter) or a cut ELF is -ENOEXEC. */
static int exec_ext2(void)
{
	char *exit42[] = { "helper", "exit", "42", NULL };
	char *args[] = { "helper", "args", "a", "bb", "ccc", NULL };
	char *argv[] = { "x", NULL }, *envp[] = { NULL };

	CHECK_EQ(copy_file("/bin/helper", MNT "/helper"), 0);
	CHECK_EQ(lx_syscall(NR_SYNC, 0, 0, 0, 0, 0), 0);
	CHECK_EQ(sys_umount(MNT), 0);
	CHECK_EQ(sys_mount(dev_path, MNT, "ext2", 0, NULL), 0);
	CHECK_EQ(exec_wait(MNT "/helper", exit42), 42);
	CHECK_EQ(exec_wait(MNT "/helper", args), 0);
	CHECK_EQ(put_file(MNT "/script", "echo hi\n", 8), 0);
	CHECK_ERR(execve(MNT "/script", argv, envp), EACCES);	/* mode 0644 */
	CHECK_EQ(unlink(MNT "/script"), 0);
	CHECK_EQ(put_exec(MNT "/script", "echo hi\n", 8), 0);
	CHECK_ERR(execve(MNT "/script", argv, envp), ENOEXEC);
	CHECK_EQ(put_exec(MNT "/prog", "\177ELF", 4), 0);
	CHECK_ERR(execve(MNT "/prog", argv, envp), ENOEXEC);
	CHECK_EQ(unlink(MNT "/prog"), 0);
	CHECK_EQ(unlink(MNT "/script"), 0);
	CHECK_EQ(unlink(MNT "/helper"), 0);
	return 0;
}

/* Fill a buffer with pattern seed from file offset off. */
static void fill_pat(unsigned char *p, unsigned seed, unsigned off, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = ext2_pat(seed, off + i);
}

static int same_pat(const unsigned char *p, unsigned seed, unsigned off, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (p[i] != ext2_pat(seed, off + i))
			return 0;
	return 1;
}

/* MAP_PRIVATE: reads see the file (the cached page, read-only), bytes past
 * the end of the last page read as zeros, a write copies the page (the file
 * keeps its bytes); an offset maps from that page on. */
static int mmap_private(void)
{
	static unsigned char back[PAGE];
	unsigned n = 3 * PAGE + 100;
	unsigned char *p, *q;
	int fd;

	CHECK_EQ(write_pattern(MNT "/mpriv.bin", 40, n, 3000), 0);
	fd = open(MNT "/mpriv.bin", O_RDONLY);
	CHECK(fd >= 0);
	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	q = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 2 * PAGE);
	CHECK(p != MAP_FAILED && q != MAP_FAILED);
	CHECK(same_pat(p, 40, 0, n));
	for (unsigned i = n; i < 4 * PAGE; i++)
		CHECK(p[i] == 0);
	CHECK(same_pat(q, 40, 2 * PAGE, PAGE));
	p[5] = 0xaa;				/* a private copy of page 0 */
	p[3 * PAGE + 200] = 0xbb;		/* past the end, in the last page */
	CHECK_EQ(pread(fd, back, PAGE, 0), PAGE);
	CHECK(same_pat(back, 40, 0, PAGE));
	CHECK(p[5] == 0xaa && same_pat(p + 6, 40, 6, 100));
	CHECK_EQ(msync(p, 4 * PAGE, MS_SYNC), 0);
	CHECK_EQ(munmap(p, 4 * PAGE), 0);
	CHECK_EQ(munmap(q, PAGE), 0);
	close(fd);
	CHECK(file_is_pattern(MNT "/mpriv.bin", 40, n));
	CHECK_EQ(unlink(MNT "/mpriv.bin"), 0);
	return 0;
}

static int mshared_child(void)
{
	int fd = open(MNT "/mmap.bin", O_RDWR);
	unsigned char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, PAGE);

	if (p == MAP_FAILED)
		return 2;
	fill_pat(p, 31, PAGE, 2000);		/* then exit unmaps it */
	return 0;
}

/* MAP_SHARED: writes go into the cached page (read(2) sees them at once and
 * they reach the disk: ext2_host_check compares /mmap.bin byte for byte),
 * into holes too (the write fault allocates the blocks), from a child and
 * after an mprotect to writable; msync(MS_SYNC) writes them back. */
static int mmap_shared(void)
{
	static unsigned char buf[PAGE];
	unsigned n = 5 * PAGE + 1000;		/* page 0 written, the rest a hole */
	unsigned char *p;
	int fd = open(MNT "/mmap.bin", O_RDWR | O_CREAT | O_TRUNC, 0644), sig;
	struct stat st;

	CHECK(fd >= 0);
	fill_pat(buf, 30, 0, PAGE);
	CHECK_EQ(write(fd, buf, PAGE), PAGE);
	CHECK_EQ(ftruncate(fd, n), 0);
	p = mmap(NULL, 6 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED);
	CHECK(same_pat(p, 30, 0, PAGE) && p[2 * PAGE] == 0);	/* read faults */
	CHECK_EQ(mprotect(p, 6 * PAGE, PROT_READ | PROT_WRITE), 0);
	CHECK_EQ(run_child(mshared_child, &sig), 0);
	CHECK(same_pat(p + PAGE, 31, PAGE, 2000));
	fill_pat(p + PAGE + 2000, 31, PAGE + 2000, n - PAGE - 2000);
	CHECK_EQ(pread(fd, buf, PAGE, 4 * PAGE), PAGE);
	CHECK(same_pat(buf, 31, 4 * PAGE, PAGE));
	CHECK_EQ(msync(p, 6 * PAGE, MS_SYNC), 0);
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, n);		/* writes in the mapping never grow it */
	CHECK(st.st_blocks >= (blkcnt_t)(n / 512));	/* the hole has its blocks now */
	p[10] = ext2_pat(30, 10);		/* after the write-back: still written */
	CHECK_EQ(munmap(p, 6 * PAGE), 0);
	close(fd);
	return 0;
}

/* A page a mapping holds stays in the page cache while more than the cache
 * holds streams through it: a write(2) to the file still shows in the
 * mapping (a dropped page would leave the mapping with a stale copy). */
static int mmap_pinned(void)
{
	static unsigned char buf[65536];
	int fd = open(MNT "/mpin.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
	int big = open(MNT "/mpin_big.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
	unsigned char *p;

	CHECK(fd >= 0 && big >= 0);
	CHECK_EQ(write(fd, "0123456789", 10), 10);
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED && p[3] == '3');
	memset(buf, 0x11, sizeof(buf));
	for (int i = 0; i < 80; i++)		/* 5 MiB: more than the cache's 4 */
		CHECK_EQ(write(big, buf, sizeof(buf)), sizeof(buf));
	CHECK_EQ(lseek(big, 0, SEEK_SET), 0);
	for (int i = 0; i < 80; i++)
		CHECK_EQ(read(big, buf, sizeof(buf)), sizeof(buf));
	CHECK_EQ(pwrite(fd, "X", 1, 3), 1);
	CHECK_EQ(p[3], 'X');
	CHECK_EQ(munmap(p, PAGE), 0);
	close(fd);
	close(big);
	CHECK_EQ(unlink(MNT "/mpin.bin"), 0);
	CHECK_EQ(unlink(MNT "/mpin_big.bin"), 0);
	return 0;
}

static unsigned char *volatile bus_at;

static int touch_bus_at(void)
{
	return bus_at[0] == 0x5a ? 3 : 4;
}

/* Past the end of the file a mapping has no page: SIGBUS (Linux's rule),
 * also for a page that was mapped before a truncate took it away; the
 * last partial page stays, its tail reading as zeros. */
static int mmap_sigbus(void)
{
	static unsigned char buf[2 * PAGE + 10];
	int fd = open(MNT "/mbus.bin", O_RDWR | O_CREAT | O_TRUNC, 0644), sig;
	unsigned char *sh, *pr;

	CHECK(fd >= 0);
	memset(buf, 0x5a, sizeof(buf));
	CHECK_EQ(write(fd, buf, sizeof(buf)), sizeof(buf));
	sh = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	pr = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	CHECK(sh != MAP_FAILED && pr != MAP_FAILED);
	bus_at = sh + 3 * PAGE;			/* never in the file */
	CHECK_EQ(run_child(touch_bus_at, &sig), -1);
	CHECK_EQ(sig, SIGBUS);
	CHECK(sh[PAGE] == 0x5a && pr[PAGE + 5] == 0x5a && sh[2 * PAGE + 9] == 0x5a);
	pr[PAGE] = 0x77;			/* a private copy: gone with the page too */
	CHECK_EQ(ftruncate(fd, 100), 0);
	bus_at = sh + PAGE;
	CHECK_EQ(run_child(touch_bus_at, &sig), -1);
	CHECK_EQ(sig, SIGBUS);
	bus_at = pr + PAGE;
	CHECK_EQ(run_child(touch_bus_at, &sig), -1);
	CHECK_EQ(sig, SIGBUS);
	CHECK(sh[99] == 0x5a && sh[100] == 0 && sh[PAGE - 1] == 0);
	CHECK_EQ(ftruncate(fd, 2 * PAGE), 0);	/* grown again: a page, of zeros */
	bus_at = sh + PAGE;
	CHECK_EQ(run_child(touch_bus_at, &sig), 4);
	CHECK_EQ(munmap(sh, 4 * PAGE), 0);
	CHECK_EQ(munmap(pr, 4 * PAGE), 0);
	close(fd);
	CHECK_EQ(unlink(MNT "/mbus.bin"), 0);
	return 0;
}

/* read(2) of an ext2 file into a mapping of another file of the same file
 * system, and write(2) from one: the copy faults on that mapping while the
 * file system is busy with the read; it must neither deadlock nor fail. */
static int mmap_copy_same_fs(void)
{
	static unsigned char buf[PAGE];
	unsigned char *dst;
	int src = open(MNT "/big.bin", O_RDONLY);
	int fd = open(MNT "/mcopy.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);

	CHECK(src >= 0 && fd >= 0);
	CHECK_EQ(ftruncate(fd, 4 * PAGE), 0);
	dst = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(dst != MAP_FAILED);
	CHECK_EQ(read(src, dst, 4 * PAGE), 4 * PAGE);	/* not yet faulted in */
	CHECK(same_pat(dst, 2, 0, 4 * PAGE));
	CHECK_EQ(munmap(dst, 4 * PAGE), 0);
	dst = mmap(NULL, 4 * PAGE, PROT_READ, MAP_SHARED, src, 0);
	CHECK(dst != MAP_FAILED);
	CHECK_EQ(pwrite(fd, dst + PAGE, 2 * PAGE, 0), 2 * PAGE);
	CHECK_EQ(munmap(dst, 4 * PAGE), 0);
	CHECK_EQ(pread(fd, buf, PAGE, PAGE), PAGE);
	CHECK(same_pat(buf, 2, 2 * PAGE, PAGE));
	close(src);
	close(fd);
	CHECK_EQ(unlink(MNT "/mcopy.bin"), 0);
	return 0;
}

/* O_DIRECT AIO and a shared mapping of the same pages: a direct write shows
 * in the mapping (its pages were unmapped with the cached ones: the next
 * access maps the new page), and what the mapping wrote before a direct
 * read reaches the disk first (the read sees it). */
static int mmap_direct(void)
{
	static unsigned char io[PAGE] __attribute__((aligned(4096)));
	unsigned char *p;
	int fd, dfd;

	CHECK_EQ(write_pattern(MNT "/mdio.bin", 50, 4 * PAGE, 4096), 0);
	fd = open(MNT "/mdio.bin", O_RDWR);
	dfd = open(MNT "/mdio.bin", O_RDWR | O_DIRECT);
	CHECK(fd >= 0 && dfd >= 0);
	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED);
	p[100] = 'M';
	CHECK(same_pat(p + PAGE, 50, PAGE, PAGE));	/* page 1 mapped */
	fill_pat(io, 51, PAGE, PAGE);
	CHECK_EQ(raw_aio_one(IOCB_CMD_PWRITE, dfd, io, PAGE, PAGE, 5000000000LL), PAGE);
	CHECK(same_pat(p + PAGE, 51, PAGE, PAGE));
	memset(io, 0, PAGE);
	CHECK_EQ(raw_aio_one(IOCB_CMD_PREAD, dfd, io, PAGE, 0, 5000000000LL), PAGE);
	CHECK_EQ(io[100], 'M');
	CHECK(same_pat(io, 50, 0, 100));
	CHECK_EQ(p[100], 'M');
	CHECK_EQ(munmap(p, 4 * PAGE), 0);
	close(dfd);
	close(fd);
	CHECK_EQ(unlink(MNT "/mdio.bin"), 0);
	return 0;
}

/* read(2) and write(2) on an O_DIRECT file, as Linux's: an offset, length or
 * buffer not a multiple of 512 is EINVAL; aligned ones move the bytes (they
 * go through the page cache, a write written back before it returns; an
 * O_DIRECT AIO read sees it), and a read stops at the end. */
static int direct_read_write_calls(void)
{
	static unsigned char io[2 * PAGE] __attribute__((aligned(4096)));
	int dfd;

	CHECK_EQ(write_pattern(MNT "/drw.bin", 60, 3 * PAGE, 4096), 0);
	dfd = open(MNT "/drw.bin", O_RDWR | O_DIRECT);
	CHECK(dfd >= 0);
	CHECK_ERR(pread(dfd, io + 1, 512, 0), EINVAL);		/* the buffer */
	CHECK_ERR(pread(dfd, io, 100, 0), EINVAL);		/* the length */
	CHECK_ERR(pread(dfd, io, 512, 100), EINVAL);		/* the offset */
	CHECK_ERR(pwrite(dfd, io + 8, 512, 0), EINVAL);
	CHECK_ERR(pwrite(dfd, io, 512, 1000), EINVAL);
	CHECK_EQ(pread(dfd, io, PAGE, PAGE), PAGE);
	CHECK(same_pat(io, 60, PAGE, PAGE));
	fill_pat(io, 61, 512, 1024);
	CHECK_EQ(pwrite(dfd, io, 1024, 512), 1024);
	memset(io, 0, sizeof(io));
	CHECK_EQ(raw_aio_one(IOCB_CMD_PREAD, dfd, io, PAGE, 0, 5000000000LL), PAGE);
	CHECK(same_pat(io, 60, 0, 512) && same_pat(io + 512, 61, 512, 1024) &&
	      same_pat(io + 1536, 60, 1536, PAGE - 1536));
	CHECK_EQ(pread(dfd, io, 2 * PAGE, 2 * PAGE), PAGE);	/* to the end */
	CHECK(same_pat(io, 60, 2 * PAGE, PAGE));
	close(dfd);
	CHECK_EQ(unlink(MNT "/drw.bin"), 0);
	return 0;
}

/* A name of n bytes under MNT: c repeated, ending in tag. */
static void long_name(char *path, size_t size, char c, size_t n, const char *tag)
{
	size_t at = snprintf(path, size, MNT "/"), t = strlen(tag);

	memset(path + at, c, n - t);
	memcpy(path + at + n - t, tag, t + 1);
}

/* Names of up to 255 bytes (ext2's and Linux's NAME_MAX) are made, looked
 * up, listed, renamed and removed; 256 is ENAMETOOLONG; a directory with a
 * 200-byte name is a working directory getcwd names. One long name stays
 * for ext2_host_check. */
static int long_names(void)
{
	char a[300], b[300], buf[16], cwd[256];
	struct stat st;
	int dots;

	long_name(a, sizeof(a), 'L', 255, "-a");
	long_name(b, sizeof(b), 'L', 255, "-b");
	CHECK_EQ(put_file(a, "long\n", 5), 0);
	CHECK_EQ(stat(a, &st), 0);
	CHECK_EQ(st.st_size, 5);
	CHECK_EQ(get_file(a, buf, sizeof(buf)), 5);
	CHECK_EQ(count_entries(MNT, "LLLLLLLLLL", &dots), 1);
	CHECK_EQ(rename(a, b), 0);
	CHECK_ERR(stat(a, &st), ENOENT);
	CHECK_EQ(get_file(b, buf, sizeof(buf)), 5);
	CHECK_EQ(unlink(b), 0);
	long_name(a, sizeof(a), 'L', 256, "-c");
	CHECK_ERR(open(a, O_WRONLY | O_CREAT, 0644), ENAMETOOLONG);
	CHECK_ERR(stat(a, &st), ENAMETOOLONG);
	long_name(a, sizeof(a), 'D', 200, "");
	CHECK_EQ(mkdir(a, 0755), 0);
	CHECK_EQ(chdir(a), 0);
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK(!strcmp(cwd, a));
	CHECK_EQ(put_file("f", "x", 1), 0);
	CHECK_EQ(unlink("f"), 0);
	CHECK_EQ(chdir("/"), 0);
	CHECK_EQ(rmdir(a), 0);
	long_name(a, sizeof(a), 'N', 200, ".txt");
	CHECK_EQ(put_file(a, "long name\n", 10), 0);
	return 0;
}

struct dent {
	unsigned long long off;
	char name[256];
};

/* Up to max entries of fd from its position, by getdents64 with a buffer of
 * size bytes (calls until the end or max): their d_off and names; -1 on error. */
static int read_dents(int fd, struct dent *d, int max, size_t size)
{
	static char buf[4096];
	int n = 0;
	long r;

	while (n < max && (r = lx_syscall(NR_GETDENTS64, fd, (long)buf, size, 0, 0)) > 0) {
		for (long off = 0; off < r && n < max; n++) {
			struct linux_dirent64 *h = (void *)(buf + off);
			d[n].off = h->d_off;
			snprintf(d[n].name, sizeof(d[n].name), "%s", h->d_name);
			off += h->d_reclen;
		}
	}
	return n;
}

/* One directory: a listing in small pieces gives d_offs that resume it: an
 * lseek to entry i's d_off lists entry i + 1 on, as the whole listing has
 * them; lseek(SEEK_CUR) after a call is the last entry's d_off. */
static int d_off_dir(const char *path, int step)
{
	static struct dent all[400], part[400];
	int fd = open(path, O_RDONLY | O_DIRECTORY), n, m, i;
	char buf[512];
	long r;

	CHECK(fd >= 0);
	n = read_dents(fd, all, 400, 512);
	CHECK(n > 2 * step);
	for (i = 0; i < n; i += step) {
		CHECK_EQ(lseek(fd, (off_t)all[i].off, SEEK_SET), (off_t)all[i].off);
		m = read_dents(fd, part, 400, 4096);
		CHECK_EQ(m, n - i - 1);
		for (int k = 0; k < m; k++)
			CHECK(!strcmp(part[k].name, all[i + 1 + k].name));
	}
	CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
	r = lx_syscall(NR_GETDENTS64, fd, (long)buf, sizeof(buf), 0, 0);
	CHECK(r > 0);
	for (long off = 0; off < r;) {
		struct linux_dirent64 *h = (void *)(buf + off);
		off += h->d_reclen;
		if (off == r)
			CHECK_EQ(lseek(fd, 0, SEEK_CUR), (off_t)h->d_off);
	}
	close(fd);
	return 0;
}

/* The same through <dirent.h>: telldir after some entries, seekdir back to
 * it later gives the entry that followed; rewinddir lists all again. */
static int dirent_seek(const char *path, int skip)
{
	char want[256];
	struct dirent *e;
	long loc, total = 0, again = 0;
	DIR *d = opendir(path);

	CHECK(d != NULL);
	while ((e = readdir(d)))
		total++;
	rewinddir(d);
	for (int i = 0; i < skip; i++)
		CHECK(readdir(d) != NULL);
	loc = telldir(d);
	CHECK((e = readdir(d)) != NULL);
	snprintf(want, sizeof(want), "%s", e->d_name);
	while (readdir(d))
		;
	seekdir(d, loc);
	CHECK((e = readdir(d)) != NULL);
	CHECK(!strcmp(e->d_name, want));
	rewinddir(d);
	while (readdir(d))
		again++;
	CHECK_EQ(again, total);
	CHECK_EQ(closedir(d), 0);
	return 0;
}

/* getdents64's d_off on ext2 (a hashed directory of 300 names, in 512-byte
 * calls) and on ramfs (/bin), by lseek and by telldir/seekdir. */
static int d_off_resume(void)
{
	CHECK_EQ(d_off_dir(MNT "/many", 37), 0);
	CHECK_EQ(d_off_dir("/bin", 5), 0);
	CHECK_EQ(dirent_seek(MNT "/many", 150), 0);
	CHECK_EQ(dirent_seek("/bin", 7), 0);
	return 0;
}

/* atime by relatime (Linux's default): a read after a change moves it, a
 * read after that does not. */
static int atime_relatime(void)
{
	struct stat a, b, c;
	char buf[8];

	CHECK_EQ(put_file(MNT "/atime.txt", "tick\n", 5), 0);
	CHECK_EQ(stat(MNT "/atime.txt", &a), 0);
	sleep(1);
	CHECK_EQ(get_file(MNT "/atime.txt", buf, sizeof(buf)), 5);
	CHECK_EQ(stat(MNT "/atime.txt", &b), 0);
	CHECK(b.st_atime > a.st_mtime);
	CHECK_EQ(b.st_mtime, a.st_mtime);
	sleep(1);
	CHECK_EQ(get_file(MNT "/atime.txt", buf, sizeof(buf)), 5);
	CHECK_EQ(stat(MNT "/atime.txt", &c), 0);
	CHECK_EQ(c.st_atime, b.st_atime);
	CHECK_EQ(unlink(MNT "/atime.txt"), 0);
	return 0;
}

/* Mount the image again with flags; atime.txt written (its mtime and ctime
 * set), a second passed; a stat into *st. */
static int atime_remount(long flags, struct stat *st)
{
	CHECK_EQ(sys_umount(MNT), 0);
	CHECK_EQ(sys_mount(dev_path, MNT, "ext2", flags, NULL), 0);
	CHECK_EQ(put_file(MNT "/atime.txt", "tick\n", 5), 0);
	CHECK_EQ(stat(MNT "/atime.txt", st), 0);
	sleep(1);
	return 0;
}

/* The atime of path after a read of it (or a listing, dir), a second later. */
static long atime_after_read(const char *path, int dir)
{
	struct stat st;
	char buf[8];
	DIR *d;

	if (dir) {
		if (!(d = opendir(path)))
			return -1;
		while (readdir(d))
			;
		closedir(d);
	} else if (get_file(path, buf, sizeof(buf)) < 0) {
		return -1;
	}
	sleep(1);
	return stat(path, &st) ? -1 : (long)st.st_atime;
}

/* mount(2)'s atime flags (Linux's numbers): MS_NOATIME, a read and a
 * listing move nothing (relatime would: the atime is not after the mtime);
 * MS_STRICTATIME, every read moves it (relatime: the second would not);
 * MS_STRICTATIME wins over MS_NOATIME; MS_NODIRATIME, a listing leaves the
 * directory's atime, a read moves the file's. stat says what is on the
 * inode. Then the default again (relatime). */
static int atime_mount_flags(void)
{
	struct stat a, d;
	long t1, t2;

	CHECK_EQ(atime_remount(MS_NOATIME, &a), 0);
	CHECK_EQ(stat(MNT, &d), 0);
	CHECK_EQ(atime_after_read(MNT "/atime.txt", 0), a.st_atime);
	CHECK_EQ(atime_after_read(MNT, 1), d.st_atime);
	CHECK_EQ(atime_remount(MS_STRICTATIME, &a), 0);
	t1 = atime_after_read(MNT "/atime.txt", 0);
	t2 = atime_after_read(MNT "/atime.txt", 0);
	CHECK(t1 > a.st_atime && t2 > t1);
	CHECK_EQ(atime_remount(MS_STRICTATIME | MS_NOATIME, &a), 0);
	CHECK(atime_after_read(MNT "/atime.txt", 0) > a.st_atime);
	CHECK_EQ(atime_remount(MS_NODIRATIME | MS_RELATIME, &a), 0);
	CHECK_EQ(stat(MNT, &d), 0);
	CHECK_EQ(atime_after_read(MNT, 1), d.st_atime);
	CHECK(atime_after_read(MNT "/atime.txt", 0) > a.st_atime);
	CHECK_EQ(atime_remount(0, &a), 0);
	t1 = atime_after_read(MNT "/atime.txt", 0);
	CHECK(t1 > a.st_atime);
	CHECK_EQ(atime_after_read(MNT "/atime.txt", 0), t1);
	CHECK_EQ(unlink(MNT "/atime.txt"), 0);
	return 0;
}

#define OWN_STEPS	40		/* y's writes, 4 MiB apart: an indirect block each */

/* One try of fsync_own_metadata: *bx, *by the metadata blocks written by
 * x's fsync and then y's. 0; 2 when the flusher wrote meanwhile (try
 * again); 1 after a failed check. */
static int fsync_own_try(long *bx, long *by)
{
	static char piece[512];
	long p0 = ext2_stat("flush_passes"), b0, b1;
	int y = open(MNT "/own_y.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
	int x = open(MNT "/own_x.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);

	CHECK(x >= 0 && y >= 0 && p0 >= 0);
	CHECK_EQ(write(x, "x", 1), 1);
	CHECK_EQ(fsync(x), 0);
	CHECK_EQ(pwrite(x, "y", 1, 0), 1);
	for (long k = 0; k < OWN_STEPS; k++)
		CHECK_EQ(lx_syscall(NR_PWRITE64, y, (long)piece, sizeof(piece), k << 22, 0),
			 sizeof(piece));
	b0 = ext2_stat("blocks_written");
	CHECK_EQ(fsync(x), 0);
	b1 = ext2_stat("blocks_written");
	CHECK_EQ(fsync(y), 0);
	*bx = b1 - b0;
	*by = ext2_stat("blocks_written") - b1;
	close(x);
	close(y);
	CHECK_EQ(unlink(MNT "/own_x.bin"), 0);
	CHECK_EQ(unlink(MNT "/own_y.bin"), 0);
	return ext2_stat("flush_passes") != p0 ? 2 : 0;
}

/* fsync of a file writes its own dirty metadata, not another file's: with
 * y's 40 new indirect blocks (and its bitmap changes) dirty, x's fsync after
 * an overwrite writes a block or two (its inode's; /proc/aiok/ext2's
 * blocks_written), and y's own fsync then writes y's. Tried again when the
 * flusher wrote in between. ext2_host_check's e2fsck -fn checks the image. */
static int fsync_own_metadata(void)
{
	long bx = 0, by = 0;
	int r = 2;

	for (int tries = 0; tries < 5 && r == 2; tries++)
		r = fsync_own_try(&bx, &by);
	CHECK_EQ(r, 0);
	utest_log("fsync of x wrote %ld metadata blocks, then fsync of y %ld", bx, by);
	CHECK(bx >= 1 && bx <= 3);
	CHECK(by >= OWN_STEPS - 10);
	return 0;
}

#define FW_BYTES	(64 * 1024)	/* each file of freed_blocks_wait */

/* A new file path of FW_BYTES, fsynced, left open: its fd (-1: failed);
 * *blocks: the blocks it holds (data and indirect). */
static int fw_file(const char *path, long *blocks)
{
	static char buf[FW_BYTES];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct stat st;

	memset(buf, 0x3c, sizeof(buf));
	if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf) || fsync(fd) ||
	    fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*blocks = st.st_blocks * 512 / st.st_blksize;
	return fd;
}

/* One try of freed_blocks_wait: 0; 2 when the flusher wrote meanwhile (try
 * again); 1 after a failed check. */
static int freed_wait_try(void)
{
	long p0 = ext2_stat("flush_passes"), w0 = ext2_stat("free_waits"), nx = 0, ny = 0;
	int x, y;

	sync();				/* every wait of this mount ends */
	CHECK_EQ(ext2_stat("free_pending"), 0);
	CHECK((x = fw_file(MNT "/fw_x.bin", &nx)) >= 0);
	CHECK_EQ(ftruncate(x, 0), 0);
	CHECK_EQ(ext2_stat("free_pending"), nx);	/* x's blocks wait for x's inode */
	CHECK((y = fw_file(MNT "/fw_y.bin", &ny)) >= 0);
	CHECK_EQ(ext2_stat("free_pending"), nx);	/* y took none: its fsync left them */
	CHECK_EQ(ext2_stat("free_waits"), w0);	/* other blocks were free */
	CHECK_EQ(fsync(x), 0);
	CHECK_EQ(ext2_stat("free_pending"), 0);	/* x's truncate is on the disk */
	close(x);
	close(y);
	CHECK_EQ(unlink(MNT "/fw_y.bin"), 0);	/* the last name and reference */
	CHECK_EQ(ext2_stat("free_pending"), ny);
	sync();
	CHECK_EQ(ext2_stat("free_pending"), 0);
	CHECK_EQ(unlink(MNT "/fw_x.bin"), 0);
	CHECK(nx >= FW_BYTES / 4096 && ny == nx);
	return ext2_stat("flush_passes") != p0 ? 2 : 0;
}

/* Issue 18: a block a truncate or an unlink freed is not handed out again
 * until the inode's metadata saying so is written (its fsync, or sync):
 * /proc/aiok/ext2's free_pending counts the waiting blocks; another file's
 * allocation and fsync leave them waiting (free_waits: it found others).
 * Tried again when the flusher wrote in between. (The power-cut entry's
 * reuse run checks the image; fill_disk the allocation that must wait.) */
static int freed_blocks_wait(void)
{
	int r = 2;

	for (int tries = 0; tries < 5 && r == 2; tries++)
		r = freed_wait_try();
	CHECK_EQ(r, 0);
	return 0;
}

/* ext2 file data in the page cache right now (aiok_stat), or -1. */
static long ext2_pages(void)
{
	struct aiok_stat st;

	return aiok_stat(&st) ? -1 : (long)st.ext2_pages;
}

/* The page cache: a write leaves its pages cached (read back from them), a
 * truncate into a page zeroes its tail there (an extension reads zeros, not
 * the old bytes), and an unlinked file's pages go with it. */
static int pagecache(void)
{
	static unsigned char buf[65536];
	long before = ext2_pages();
	int fd = open(MNT "/pc.bin", O_RDWR | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0 && before >= 0);
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = ext2_pat(21, i);
	CHECK_EQ(write(fd, buf, sizeof(buf)), sizeof(buf));
	CHECK(ext2_pages() >= before + 16);
	CHECK_EQ(ftruncate(fd, 10000), 0);
	CHECK(ext2_pages() <= before + 3);	/* pages past the end gone */
	CHECK_EQ(ftruncate(fd, 20000), 0);
	memset(buf, 0xee, sizeof(buf));
	CHECK_EQ(pread(fd, buf, 20000, 0), 20000);
	for (unsigned i = 0; i < 20000; i++)
		CHECK(buf[i] == (i < 10000 ? ext2_pat(21, i) : 0));
	CHECK_EQ(fsync(fd), 0);
	close(fd);
	CHECK_EQ(unlink(MNT "/pc.bin"), 0);
	CHECK_EQ(ext2_pages(), before);
	return 0;
}

/* A sequential write, fsync and read of 2 MiB in 64 KiB calls: checked, and
 * timed for the record (the read comes from the page cache). */
static int sequential_2m(void)
{
	static unsigned char buf[65536];
	long long t0, t1, t2;
	int fd = open(MNT "/seq.bin", O_RDWR | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0);
	t0 = utest_now_ns();
	for (int i = 0; i < 32; i++) {
		memset(buf, i + 1, sizeof(buf));
		CHECK_EQ(write(fd, buf, sizeof(buf)), sizeof(buf));
	}
	CHECK_EQ(fsync(fd), 0);
	t1 = utest_now_ns();
	CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
	for (int i = 0; i < 32; i++) {
		CHECK_EQ(read(fd, buf, sizeof(buf)), sizeof(buf));
		CHECK(buf[0] == i + 1 && buf[sizeof(buf) - 1] == i + 1);
	}
	t2 = utest_now_ns();
	close(fd);
	CHECK_EQ(unlink(MNT "/seq.bin"), 0);
	utest_log("2 MiB: write + fsync %lld ms, read %lld ms", (t1 - t0) / 1000000,
		  (t2 - t1) / 1000000);
	return 0;
}

/* One child's share of concurrent: files made, checked, renamed, removed in
 * its own directory, while its siblings do the same and list the root. */
static int concurrent_child(int k)
{
	char dir[64], a[96], b[96];
	int dots;

	snprintf(dir, sizeof(dir), MNT "/conc%d", k);
	if (mkdir(dir, 0755))
		return 1;
	for (int i = 0; i < 30; i++) {
		size_t n = 100 + (size_t)(i * 997 + k * 331) % 9000;
		snprintf(a, sizeof(a), "%s/f%d", dir, i);
		snprintf(b, sizeof(b), "%s/g%d", dir, i);
		if (write_pattern(a, i + k, n, 1000) || !file_is_pattern(a, i + k, n))
			return 2;
		if (rename(a, b) || !file_is_pattern(b, i + k, n) || unlink(b))
			return 3;
		if (count_entries(MNT, "conc", &dots) < 1)
			return 4;
	}
	return rmdir(dir) ? 5 : 0;
}

/* Write until the disk is full: a short write or ENOSPC, never more blocks
 * than there are; removing the file gives them back (e2fsck checks the counts). */
static int fill_disk(void)
{
	static unsigned char buf[65536];
	int fd = open(MNT "/fill.bin", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	long long total = 0;
	ssize_t w = 0;
	struct stat st;

	CHECK(fd >= 0);
	memset(buf, 0x5a, sizeof(buf));
	while (total < 32ll << 20 && (w = write(fd, buf, sizeof(buf))) == (ssize_t)sizeof(buf))
		total += w;
	if (w > 0)
		total += w;
	CHECK(total > (4 << 20) && total < (16 << 20));	/* a 16 MiB image */
	CHECK_ERR(write(fd, buf, sizeof(buf)), ENOSPC);
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, total);
	close(fd);
	CHECK_EQ(unlink(MNT "/fill.bin"), 0);
	CHECK_EQ(write_pattern(MNT "/after_full.bin", 5, 100000, 8192), 0);
	CHECK(file_is_pattern(MNT "/after_full.bin", 5, 100000));
	CHECK_EQ(unlink(MNT "/after_full.bin"), 0);
	utest_log("%lld bytes fitted", total);
	return 0;
}

/* Four processes on one file system at once: every file right, nothing left. */
static int concurrent(void)
{
	pid_t pids[4];
	int dots;

	for (int k = 0; k < 4; k++) {
		pids[k] = fork();
		CHECK(pids[k] >= 0);
		if (!pids[k])
			_exit(concurrent_child(k));
	}
	for (int k = 0; k < 4; k++)
		CHECK(utest_child_ok(pids[k]));
	CHECK_EQ(count_entries(MNT, "conc", &dots), 0);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(mount_bad_args),
	UTEST(mount_it),
	UTEST(host_files),
	UTEST(sparse_and_links),
	UTEST(write_new),
	UTEST(dirs),
	UTEST(rename_cases),
	UTEST(unlink_cases),
	UTEST(truncate_cases),
	UTEST(holes),
	UTEST(triple_indirect),
	UTEST(symlinks),
	UTEST(hard_links),
	UTEST(exec_ext2),
	UTEST(mmap_private),
	UTEST(mmap_shared),
	UTEST(mmap_pinned),
	UTEST(mmap_sigbus),
	UTEST(mmap_copy_same_fs),
	UTEST(mmap_direct),
	UTEST(direct_read_write_calls),
	UTEST(long_names),
	UTEST(d_off_resume),
	UTEST(atime_relatime),
	UTEST(atime_mount_flags),
	UTEST(fsync_own_metadata),
	UTEST(freed_blocks_wait),
	UTEST(pagecache),
	UTEST(sequential_2m),
	UTEST(concurrent),
	UTEST(fill_disk),
	UTEST(umount_remount),
};

/* The mount= boot parameter's file system (boot_dev at boot_dir). */
static const char *boot_dir, *boot_dev;

static int boot_mounted(void)
{
	char path[128], buf[32];
	struct stat st;

	CHECK_EQ(stat(boot_dir, &st), 0);
	CHECK_EQ(st.st_ino, 2);
	snprintf(path, sizeof(path), "%s/hello.txt", boot_dir);
	CHECK_EQ(get_file(path, buf, sizeof(buf)), 20);
	CHECK(!memcmp(buf, "hello from the host\n", 20));
	snprintf(path, sizeof(path), "%s/big.bin", boot_dir);
	CHECK(file_is_pattern(path, 2, 300 * 1024));
	return 0;
}

/* The boot's mount=/dev/hdb:/mnt/boot:noatime: a read of a file just
 * written leaves its atime (relatime would move it: not after the mtime). */
static int boot_noatime(void)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "%s/noatime.txt", boot_dir);
	CHECK_EQ(put_file(path, "tick\n", 5), 0);
	CHECK_EQ(stat(path, &st), 0);
	sleep(1);
	CHECK_EQ(atime_after_read(path, 0), st.st_atime);
	CHECK_EQ(unlink(path), 0);
	return 0;
}

static int boot_write_umount(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/boot.bin", boot_dir);
	CHECK_EQ(write_pattern(path, 21, 10000, 999), 0);
	CHECK(file_is_pattern(path, 21, 10000));
	CHECK_EQ(sys_umount(boot_dir), 0);
	CHECK_ERR(stat(path, &(struct stat){ 0 }), ENOENT);
	/* read-only again, as the boot left it mounted (the leak check compares
	 * with then): the image stays as umount wrote it */
	CHECK_EQ(sys_mount(boot_dev, boot_dir, "ext2", 1 /* MS_RDONLY */, NULL), 0);
	CHECK(file_is_pattern(path, 21, 10000));
	CHECK_ERR(open(path, O_WRONLY), EROFS);
	CHECK_ERR(unlink(path), EROFS);
	CHECK_EQ(sys_umount(boot_dir), 0);
	/* once more, touching nothing: the blocks it caches are those of the boot's */
	CHECK_EQ(sys_mount(boot_dev, boot_dir, "ext2", 1 /* MS_RDONLY */, NULL), 0);
	return 0;
}

static const struct utest_case boot_cases[] = {
	UTEST(boot_mounted),
	UTEST(boot_noatime),
	UTEST(boot_write_umount),
};

/* The fuzz mode: many small images, each mounted, walked, written, unmounted. */
#define FUZZ_MNT	"/mnt/f"
#define FUZZ_BUDGET	400		/* operations per image */

static long fuzz_count, fuzz_kb;
static long fuzz_ops, fuzz_mounted, fuzz_refused, fuzz_walk_errors;

static void fuzz_note(long r)
{
	fuzz_ops++;
	if (r < 0 && (errno == K_EUCLEAN || errno == EIO || errno == ELOOP))
		fuzz_walk_errors++;
}

static void fuzz_read_file(const char *path)
{
	static char buf[4096];
	int fd = open(path, O_RDONLY);
	long total = 0, r = 0;

	fuzz_note(fd);
	while (fd >= 0 && total < 256 * 1024 && (r = read(fd, buf, sizeof(buf))) > 0)
		total += r;
	if (fd >= 0) {
		fuzz_note(r);
		close(fd);
	}
}

static void fuzz_walk(const char *dir, int depth);

/* One entry of a walk: stat it, read it, follow it. */
static void fuzz_visit(const char *dir, const char *name, int depth)
{
	char path[256], buf[256];
	struct stat st;

	if (!strcmp(name, ".") || !strcmp(name, "..") || fuzz_ops > FUZZ_BUDGET)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lstat(path, &st)) {
		fuzz_note(-1);
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		fuzz_note(lx_syscall(NR_READLINK, (long)path, (long)buf, sizeof(buf), 0, 0) < 0 ? -1 : 0);
		fuzz_note(stat(path, &st));
	} else if (S_ISREG(st.st_mode)) {
		fuzz_read_file(path);
	} else if (S_ISDIR(st.st_mode) && depth < 6) {
		fuzz_walk(path, depth + 1);
	}
}

static void fuzz_walk(const char *dir, int depth)
{
	char buf[1024], names[32][64];
	int fd = open(dir, O_RDONLY | O_DIRECTORY), n = 0;
	long r;

	fuzz_note(fd);
	if (fd < 0)
		return;
	while (n < 32 && (r = lx_syscall(NR_GETDENTS64, fd, (long)buf, sizeof(buf), 0, 0)) > 0) {
		for (long off = 0; off < r && n < 32;) {
			struct linux_dirent64 *d = (void *)(buf + off);
			snprintf(names[n++], sizeof(names[0]), "%s", d->d_name);
			off += d->d_reclen;
		}
	}
	if (r < 0) {
		errno = -r;
		fuzz_note(-1);
	}
	close(fd);
	for (int i = 0; i < n; i++)
		fuzz_visit(dir, names[i], depth);
}

/* Changes that allocate and free blocks and inodes on the (maybe corrupt) image. */
static void fuzz_write(void)
{
	static char data[5000];

	fuzz_note(put_file(FUZZ_MNT "/fz_new", data, sizeof(data)));
	fuzz_note(mkdir(FUZZ_MNT "/fz_dir", 0755));
	fuzz_note(rename(FUZZ_MNT "/fz_new", FUZZ_MNT "/fz_dir/moved"));
	fuzz_note(truncate(FUZZ_MNT "/ind.bin", 100));
	fuzz_note(unlink(FUZZ_MNT "/fz_dir/moved"));
	fuzz_note(rmdir(FUZZ_MNT "/fz_dir"));
	fuzz_note(unlink(FUZZ_MNT "/d1/f5"));
}

/* What the kernel must answer to the targeted variants 1-10 of
 * tools/ext2_image.py (targeted()): mount's result, then one call. */
static int fuzz_expect(long i, long mounted)
{
	static const long mount_res[11] = { 0, -K_EINVAL, -K_EINVAL, -K_EINVAL, -K_EINVAL, 0, 0,
					    0, 0, 0, -K_EUCLEAN };
	char buf[512];
	int fd;

	CHECK_EQ(mounted, mount_res[i]);
	switch (i) {
	case 5:		/* unknown RO_COMPAT feature: read-only */
		CHECK_ERR(open(FUZZ_MNT "/new", O_WRONLY | O_CREAT, 0644), EROFS);
		CHECK(file_is_pattern(FUZZ_MNT "/ind.bin", 3, 40 * 1024));
		break;
	case 6:		/* a directory record of length 0 */
		fd = open(FUZZ_MNT, O_RDONLY | O_DIRECTORY);
		CHECK(fd >= 0);
		CHECK_EQ(lx_syscall(NR_GETDENTS64, fd, (long)buf, sizeof(buf), 0, 0), -K_EUCLEAN);
		close(fd);
		break;
	case 7:		/* an indirect block listing itself: freed twice */
		CHECK_ERR(truncate(FUZZ_MNT "/ind.bin", 0), K_EUCLEAN);
		break;
	case 8:		/* a block pointer past the device */
		fd = open(FUZZ_MNT "/ind.bin", O_RDONLY);
		CHECK(fd >= 0);
		CHECK_ERR(read(fd, buf, sizeof(buf)), K_EUCLEAN);
		close(fd);
		break;
	case 9:		/* d1/d2/loop names d1 */
		CHECK_ERR(stat(FUZZ_MNT "/d1/d2/loop", &(struct stat){ 0 }), K_EUCLEAN);
		CHECK(file_is_pattern(FUZZ_MNT "/d1/f7", 7, 700));
		break;
	}
	return 0;
}

/* Every variant mounts or is refused; every mount is walked, written and
 * unmounted; the intact variant 0 mounts and walks without an error; the
 * targeted ones 1-10 get their answers (fuzz_expect). */
static int fuzz_run(void)
{
	char opts[64];

	for (long i = 0; i < fuzz_count; i++) {
		long r, errs0 = fuzz_walk_errors;
		snprintf(opts, sizeof(opts), "offset=%ld,sizelimit=%ld", i * fuzz_kb * 1024,
			 fuzz_kb * 1024);
		r = sys_mount(dev_path, FUZZ_MNT, "ext2", 0, opts);
		if (i >= 1 && i <= 10 && fuzz_expect(i, r)) {
			utest_log("targeted variant %ld", i);
			if (!r)
				sys_umount(FUZZ_MNT);
			return 1;
		}
		if (r) {
			fuzz_refused++;
			CHECK(i > 0);		/* the intact one mounts */
			CHECK(r == -K_EINVAL || r == -K_EUCLEAN || r == -K_EIO);
			continue;
		}
		fuzz_mounted++;
		fuzz_ops = 0;
		fuzz_walk(FUZZ_MNT, 0);
		if (i == 0)
			CHECK_EQ(fuzz_walk_errors, errs0);
		fuzz_write();
		r = sys_umount(FUZZ_MNT);
		if (r) {
			utest_log("image %ld: umount %ld", i, r);
			return 1;
		}
	}
	utest_log("%ld images: %ld mounted (walked and written), %ld refused; %ld calls "
		  "answered -EUCLEAN/-EIO/-ELOOP", fuzz_count, fuzz_mounted, fuzz_refused,
		  fuzz_walk_errors);
	CHECK(fuzz_mounted > 0 && fuzz_refused > 0);
	return 0;
}

static int fuzz_images(void)
{
	int r;

	mkdir("/mnt", 0755);
	mkdir(FUZZ_MNT, 0755);
	r = fuzz_run();
	rmdir(FUZZ_MNT);
	rmdir("/mnt");
	return r;
}

static const struct utest_case fuzz_cases[] = {
	UTEST_INPROC(fuzz_images),
};

/* init passes run=test_ext2:a:b as argv a, b. */
int main(int argc, char **argv)
{
	char *args[] = { argv[0], NULL, NULL };

	if (argc > 3 && !strcmp(argv[1], "boot")) {
		boot_dir = argv[2];
		boot_dev = argv[3];
		args[1] = argc > 4 ? argv[4] : NULL;
		return utest_main(argc > 4 ? 2 : 1, args, "ext2_boot", boot_cases,
				  NCASES(boot_cases));
	}
	if (argc > 4 && !strcmp(argv[1], "fuzz")) {
		dev_path = argv[2];
		fuzz_count = strtol(argv[3], NULL, 10);
		fuzz_kb = strtol(argv[4], NULL, 10);
		if (fuzz_count <= 0 || fuzz_kb <= 0)
			return 2;
		return utest_main(1, args, "ext2_fuzz", fuzz_cases, NCASES(fuzz_cases));
	}
	if (argc > 1 && argv[1][0] == '/') {
		dev_path = argv[1];
		args[1] = argc > 2 ? argv[2] : NULL;
		return utest_main(argc > 2 ? 2 : 1, args, "ext2", cases, NCASES(cases));
	}
	printf("usage: test_ext2 DEV [CASE] | boot DIR DEV [CASE] | fuzz DEV N KB\n");
	return 2;
}
