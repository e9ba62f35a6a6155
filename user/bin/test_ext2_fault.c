/* test_ext2_fault.c: ext2 under device errors, per-file fsync and the flusher.
 *
 * (init's run=test_ext2_fault:ARG:ARG gives the arguments)
 *   test_ext2_fault fault DEV [CASE]  suite ext2_fault: DEV holds the image of
 *                  tools/ext2_fault.py behind QEMU's blkdebug with its rules (reads of
 *                  a file block, an indirect block, a directory block, an inode-table
 *                  block and the inode bitmap fail; so do writes of a file block and
 *                  of an indirect block): each error reaches the caller as EIO (read,
 *                  stat, open, getdents, create, fsync, AIO events), a failed
 *                  write-back is reported by the next fsync of each open file once
 *                  (a failed metadata write by every fsync: it is retried), umount
 *                  reports it, and the file system mounts again
 *   test_ext2_fault sync DEV [CASE]   suite ext2_sync: on a clean image, fsync writes
 *                  back one file's pages only, fdatasync skips the inode when only
 *                  the times changed, the periodic flusher writes back old dirty pages,
 *                  write() with O_DSYNC returns with its pages written
 * Both read /proc/aiok/ext2 (the page cache's, block cache's and flusher's counters)
 * and need the boot parameter ext2_flush_ms=1000.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "aio_raw.h"
#include "aiokern.h"
#include "lx_syscall.h"
#include "ext2_pattern.h"
#include "ext2_stat.h"
#include "utest.h"

#define MNT		"/mnt/x"
#define NCASES(a)	((int)(sizeof(a) / sizeof((a)[0])))
#define NR_MOUNT	21
#define NR_UMOUNT2	52
#define NR_GETDENTS64	220
#define K_EIO		5
#define WAIT_NS		10000000000LL
#define FLUSH_WAIT_MS	6000		/* > ext2_flush_ms (1000) twice over */

static const char *dev_path;
static unsigned char buf[65536], got[65536];

static long do_mount(void)
{
	return lx_syscall(NR_MOUNT, (long)dev_path, (long)MNT, (long)"ext2", 0, 0);
}

static long do_umount(void)
{
	return lx_syscall(NR_UMOUNT2, (long)MNT, 0, 0, 0, 0);
}

/* One AIO request submitted and waited for: its event's res. */
static long long aio_one(int op, int fd, void *b, unsigned n, long long off)
{
	return raw_aio_one(op, fd, b, n, off, WAIT_NS);
}

/* Sleep until /proc/aiok/ext2's name reaches at most want: 1, or 0 on timeout. */
static int wait_stat_le(const char *name, long want)
{
	for (int ms = 0; ms < FLUSH_WAIT_MS; ms += 50) {
		long v = ext2_stat(name);
		if (v >= 0 && v <= want)
			return 1;
		usleep(50000);
	}
	return 0;
}

static int mount_it(void)
{
	CHECK(mkdir("/mnt", 0755) == 0 || errno == EEXIST);
	CHECK(mkdir(MNT, 0755) == 0 || errno == EEXIST);
	CHECK_EQ(do_mount(), 0);
	CHECK(ext2_stat("flush_ms") == 1000);
	return 0;
}

/* The mount point and /mnt go again (ramfs inodes: init's leak check). */
static int unmake_dirs(void)
{
	CHECK_EQ(rmdir(MNT), 0);
	CHECK(rmdir("/mnt") == 0 || errno == ENOTEMPTY);
	return 0;
}

/* ---- suite ext2_fault ---- */

/* /rdata.bin's second page (file block 4) fails; the pages around it read. */
static int data_read(void)
{
	int fd = open(MNT "/rdata.bin", O_RDONLY);
	long pages = ext2_stat("cached_pages");

	CHECK(fd >= 0);
	CHECK_EQ(pread(fd, got, 4096, 0), 4096);
	CHECK(same(got, 1, 0, 4096));
	CHECK_ERR(pread(fd, got, 4096, 4096), K_EIO);
	CHECK_ERR(pread(fd, got, 100, 5000), K_EIO);	/* again: not cached as good */
	CHECK_EQ(pread(fd, got, 4096, 8192), 4096);
	CHECK(same(got, 1, 8192, 4096));
	CHECK_EQ(ext2_stat("cached_pages"), pages + 2);	/* the failed page is not kept */
	CHECK_EQ(read(fd, got, 20480), 4096);		/* read(): stops at the bad page */
	CHECK_ERR(read(fd, got, 20480), K_EIO);		/* ... then says why */
	close(fd);
	return 0;
}

/* The same page by AIO (its map is in the inode: the fill is sent from
 * io_submit and its completion fails the event with EIO, twice: the page is
 * not kept as good) and O_DIRECT. */
static int data_read_aio(void)
{
	int fd = open(MNT "/rdata.bin", O_RDONLY), fdd = open(MNT "/rdata.bin", O_RDONLY | O_DIRECT);
	static unsigned char al[8192] __attribute__((aligned(4096)));
	long sent = ext2_stat("aread_sent");

	CHECK(fd >= 0 && fdd >= 0 && sent >= 0);
	CHECK_EQ(aio_one(IOCB_CMD_PREAD, fd, got, 4096, 4096), -K_EIO);
	CHECK_EQ(aio_one(IOCB_CMD_PREAD, fd, got, 100, 5000), -K_EIO);
	CHECK_EQ(ext2_stat("aread_sent") - sent, 2);
	CHECK_EQ(aio_one(IOCB_CMD_PREAD, fd, got, 4096, 12288), 4096);
	CHECK(same(got, 1, 12288, 4096));
	CHECK_EQ(aio_one(IOCB_CMD_PREAD, fdd, al, 4096, 4096), -K_EIO);
	CHECK_EQ(aio_one(IOCB_CMD_PREAD, fdd, al, 4096, 16384), 4096);
	CHECK(same(al, 1, 16384, 4096));
	close(fd);
	close(fdd);
	return 0;
}

/* /runs.bin's block 20 fails, in its second block run (the indirect block
 * lies between blocks 11 and 12): an O_DIRECT read over both runs, its map
 * cached, is sent from io_submit as one device request per run (dio_multi)
 * and its one event is -EIO; the runs before block 20 read fine the same way. */
static int direct_runs_error(void)
{
	static unsigned char al[32768] __attribute__((aligned(4096)));
	int fd = open(MNT "/runs.bin", O_RDONLY), fdd = open(MNT "/runs.bin", O_RDONLY | O_DIRECT);
	long m0 = ext2_stat("dio_multi");

	CHECK(fd >= 0 && fdd >= 0 && m0 >= 0);
	CHECK_EQ(pread(fd, got, 1024, 12288), 1024);	/* the indirect block cached */
	CHECK(same(got, 5, 12288, 1024));
	for (int t = 0; t < 5 && ext2_stat("dio_multi") == m0; t++)	/* (the flusher may */
		CHECK_EQ(aio_one(IOCB_CMD_PREAD, fdd, al, 32768, 0), -K_EIO);	/* hold the lock) */
	CHECK(ext2_stat("dio_multi") > m0);
	m0 = ext2_stat("dio_multi");
	for (int t = 0; t < 5 && ext2_stat("dio_multi") == m0; t++)
		CHECK_EQ(aio_one(IOCB_CMD_PREAD, fdd, al, 16384, 0), 16384);	/* blocks 0-15 */
	CHECK(ext2_stat("dio_multi") > m0);
	CHECK(same(al, 5, 0, 16384));
	close(fd);
	close(fdd);
	return 0;
}

/* /ind.bin's indirect block fails: its first 12 blocks read, the rest EIO. */
static int indirect_read(void)
{
	int fd = open(MNT "/ind.bin", O_RDONLY);

	CHECK(fd >= 0);
	CHECK_EQ(pread(fd, got, 12288, 0), 12288);
	CHECK(same(got, 2, 0, 12288));
	CHECK_ERR(pread(fd, got, 4096, 12288), K_EIO);
	CHECK_ERR(pread(fd, got, 4096, 30000), K_EIO);
	CHECK_EQ(aio_one(IOCB_CMD_PREAD, fd, got, 4096, 20480), -K_EIO);
	close(fd);
	return 0;
}

/* Writes that must read first: a part of the bad block of /rdata.bin, and a
 * block of /ind.bin past its bad indirect block; by write and by AIO. */
static int write_needs_read(void)
{
	int r = open(MNT "/rdata.bin", O_RDWR), i = open(MNT "/ind.bin", O_RDWR);
	struct stat st;

	CHECK(r >= 0 && i >= 0);
	CHECK_ERR(pwrite(r, "x", 1, 4100), K_EIO);
	CHECK_EQ(aio_one(IOCB_CMD_PWRITE, r, "y", 1, 4200), -K_EIO);
	CHECK_ERR(pwrite(i, buf, 1024, 13 * 1024), K_EIO);
	CHECK_EQ(aio_one(IOCB_CMD_PWRITE, i, buf, 1024, 14 * 1024), -K_EIO);
	CHECK_EQ(fstat(i, &st), 0);
	CHECK_EQ(st.st_size, 40960);
	CHECK_EQ(fsync(r), 0);			/* nothing was dirtied */
	CHECK_EQ(fsync(i), 0);
	close(r);
	close(i);
	return 0;
}

/* /ibad.txt's inode-table block fails: its name is found, its inode is not. */
static int inode_table_read(void)
{
	struct stat st;

	CHECK_ERR(stat(MNT "/ibad.txt", &st), K_EIO);
	CHECK_ERR(open(MNT "/ibad.txt", O_RDONLY), K_EIO);
	CHECK_ERR(stat(MNT "/ibad.txt", &st), K_EIO);
	CHECK_EQ(stat(MNT "/rdata.bin", &st), 0);	/* other blocks of the table read */
	CHECK_EQ(st.st_size, 20480);
	return 0;
}

/* /dbad's only block fails: lookups in it and reading it are EIO. */
static int dir_read(void)
{
	struct stat st;
	int fd;

	CHECK_EQ(stat(MNT "/dbad", &st), 0);
	CHECK(S_ISDIR(st.st_mode));
	CHECK_ERR(open(MNT "/dbad/f0", O_RDONLY), K_EIO);
	CHECK_ERR(stat(MNT "/dbad/f4", &st), K_EIO);
	fd = open(MNT "/dbad", O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);
	CHECK_EQ(lx_syscall(NR_GETDENTS64, fd, (long)got, sizeof(got), 0, 0), -K_EIO);
	close(fd);
	return 0;
}

/* The inode bitmap fails: a new name cannot get an inode, and none is made. */
static int bitmap_read(void)
{
	struct stat st;

	CHECK_ERR(open(MNT "/new.txt", O_WRONLY | O_CREAT, 0644), K_EIO);
	CHECK_ERR(mkdir(MNT "/newdir", 0755), K_EIO);
	CHECK_ERR(stat(MNT "/new.txt", &st), ENOENT);
	CHECK_ERR(stat(MNT "/newdir", &st), ENOENT);
	return 0;
}

/* Writes of /wdata.bin's block 1 fail: fsync says EIO once to each file open
 * when the write-back failed, then 0 (the error was reported; the page is
 * clean); by AIO the FSYNC event carries it. */
static int data_writeback(void)
{
	int a = open(MNT "/wdata.bin", O_RDWR), b = open(MNT "/wdata.bin", O_RDONLY);
	long errors = ext2_stat("wb_errors");

	CHECK(a >= 0 && b >= 0);
	fill(buf, 30, 0, 16384);
	CHECK_EQ(pwrite(a, buf, 16384, 0), 16384);
	CHECK_ERR(fsync(a), K_EIO);
	CHECK(ext2_stat("wb_errors") > errors);
	CHECK_EQ(fsync(a), 0);			/* reported once */
	CHECK_ERR(fsync(b), K_EIO);		/* ... to each open file */
	CHECK_EQ(fdatasync(b), 0);
	CHECK_EQ(pwrite(a, buf, 4096, 0), 4096);
	CHECK_EQ(aio_one(IOCB_CMD_FDSYNC, a, NULL, 0, 0), -K_EIO);
	CHECK_EQ(aio_one(IOCB_CMD_FSYNC, a, NULL, 0, 0), 0);
	CHECK_EQ(pwrite(a, buf + 8192, 4096, 8192), 4096);	/* page 2: blocks 8-11 */
	CHECK_EQ(fsync(a), 0);			/* other blocks write */
	close(a);
	close(b);
	return 0;
}

/* The flusher's write-back of /wdata.bin fails with nobody waiting: the next
 * fsync of the file says so, once. */
static int flusher_error_kept(void)
{
	int a = open(MNT "/wdata.bin", O_RDWR);
	long passes = ext2_stat("flush_passes");

	CHECK(a >= 0);
	fill(buf, 31, 0, 4096);
	CHECK_EQ(pwrite(a, buf, 4096, 0), 4096);
	CHECK(ext2_stat("dirty_pages") >= 1);
	CHECK(wait_stat_le("dirty_pages", 0));
	CHECK(ext2_stat("flush_passes") > passes);
	CHECK_ERR(fsync(a), K_EIO);
	CHECK_EQ(fsync(a), 0);
	close(a);
	return 0;
}

/* Writes of /wind.bin's indirect block fail: a write into its hole adds a
 * pointer there that never reaches the disk; the block stays dirty, so every
 * fsync tries it again and says EIO (run last: any fsync now does). */
static int metadata_writeback(void)
{
	int a = open(MNT "/wind.bin", O_RDWR);

	CHECK(a >= 0);
	fill(buf, 32, 0, 1024);
	CHECK_EQ(pwrite(a, buf, 1024, 15 * 1024), 1024);
	CHECK_ERR(fsync(a), K_EIO);
	CHECK_ERR(fdatasync(a), K_EIO);		/* the map changed: metadata too */
	CHECK_ERR(fsync(a), K_EIO);
	CHECK_EQ(pread(a, got, 1024, 15 * 1024), 1024);	/* the cache holds it */
	CHECK(same(got, 32, 0, 1024));
	CHECK_EQ(aio_one(IOCB_CMD_FSYNC, a, NULL, 0, 0), -K_EIO);
	close(a);
	return 0;
}

/* The first page of /rdata.bin reads and holds its pattern: 0, or 1. */
static int rdata_first_page(void)
{
	int fd = open(MNT "/rdata.bin", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : pread(fd, got, 4096, 0);

	if (fd >= 0)
		close(fd);
	return n == 4096 && same(got, 1, 0, 4096) ? 0 : 1;
}

/* umount reports the unwritten block; nothing stays cached; it mounts again
 * (the rules still fail the same reads) and unmounts cleanly. */
static int umount_mount_again(void)
{
	struct stat st;

	CHECK_EQ(do_umount(), -K_EIO);
	CHECK_EQ(ext2_stat("cached_pages"), 0);
	CHECK_EQ(ext2_stat("dirty_pages"), 0);
	CHECK_EQ(ext2_stat("cached_blocks"), 0);
	CHECK_EQ(do_mount(), 0);
	CHECK_EQ(stat(MNT "/wind.bin", &st), 0);
	CHECK_EQ(st.st_size, 21 * 1024);
	CHECK_EQ(rdata_first_page(), 0);
	CHECK_ERR(stat(MNT "/ibad.txt", &st), K_EIO);
	CHECK_EQ(do_umount(), 0);
	CHECK_EQ(ext2_stat("cached_blocks"), 0);
	return unmake_dirs();
}

static const struct utest_case fault_cases[] = {
	UTEST(mount_it),
	UTEST(data_read),
	UTEST(data_read_aio),
	UTEST(indirect_read),
	UTEST(direct_runs_error),
	UTEST(write_needs_read),
	UTEST(inode_table_read),
	UTEST(dir_read),
	UTEST(bitmap_read),
	UTEST(data_writeback),
	UTEST(flusher_error_kept),
	UTEST(metadata_writeback),
	UTEST(umount_mount_again),
};

/* ---- suite ext2_sync ---- */

/* Two files dirty: fsync of one writes its pages only. */
static int fsync_one_file(void)
{
	int a = open(MNT "/sync_a.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
	int b = open(MNT "/sync_b.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
	long written, dirty;

	CHECK(a >= 0 && b >= 0);
	CHECK_EQ(fsync(a), 0);
	CHECK_EQ(fsync(b), 0);
	fill(buf, 40, 0, 65536);
	CHECK_EQ(write(a, buf, 65536), 65536);
	fill(buf, 41, 0, 65536);
	CHECK_EQ(write(b, buf, 65536), 65536);
	dirty = ext2_stat("dirty_pages");
	written = ext2_stat("pages_written");
	CHECK(dirty >= 32);
	CHECK_EQ(fsync(a), 0);
	CHECK_EQ(ext2_stat("pages_written") - written, 16);	/* a's 16 pages */
	CHECK(ext2_stat("dirty_pages") >= 16);			/* b's wait */
	CHECK_EQ(fsync(b), 0);
	CHECK_EQ(ext2_stat("dirty_pages"), 0);
	close(a);
	close(b);
	return 0;
}

/* Metadata blocks written by an fsync call, not counting the flusher's: the
 * call's result in *res. */
static long meta_blocks_of(int (*sync)(int), int fd, int *res)
{
	long bw = ext2_stat("blocks_written"), fb = ext2_stat("flush_blocks");

	*res = sync(fd);
	return (ext2_stat("blocks_written") - bw) - (ext2_stat("flush_blocks") - fb);
}

/* fdatasync after an overwrite in place writes the page and no metadata (only
 * the times changed); fsync writes the inode; after an append or a truncate
 * fdatasync writes the metadata too. */
static int fdatasync_times_only(void)
{
	int a = open(MNT "/sync_a.bin", O_RDWR), res;
	long pages;

	CHECK(a >= 0);
	fill(buf, 42, 0, 4096);
	CHECK_EQ(pwrite(a, buf, 4096, 0), 4096);
	pages = ext2_stat("pages_written");
	CHECK_EQ(meta_blocks_of(fdatasync, a, &res), 0);
	CHECK_EQ(res, 0);
	CHECK_EQ(ext2_stat("pages_written") - pages, 1);
	CHECK_EQ(pwrite(a, buf, 4096, 0), 4096);
	CHECK(meta_blocks_of(fsync, a, &res) >= 1);		/* the inode */
	CHECK_EQ(res, 0);
	CHECK_EQ(pwrite(a, buf, 4096, 65536), 4096);		/* size and map grow */
	CHECK(meta_blocks_of(fdatasync, a, &res) >= 2);		/* inode, bitmap, ... */
	CHECK_EQ(res, 0);
	CHECK_EQ(ftruncate(a, 8192), 0);
	CHECK_EQ(pwrite(a, buf, 4096, 8192), 4096);		/* back to 12 KiB */
	CHECK(meta_blocks_of(fdatasync, a, &res) >= 1);
	CHECK_EQ(res, 0);
	close(a);
	return 0;
}

/* Nobody syncs: the flusher writes the pages back once they are a period old. */
static int flusher_writes_back(void)
{
	int c = open(MNT "/sync_c.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
	long pages = ext2_stat("flush_pages"), passes = ext2_stat("flush_passes");

	CHECK(c >= 0);
	fill(buf, 43, 0, 8192);
	CHECK_EQ(write(c, buf, 8192), 8192);
	CHECK(ext2_stat("dirty_pages") >= 2);			/* not at once */
	CHECK(wait_stat_le("dirty_pages", 0));
	CHECK(ext2_stat("flush_pages") - pages >= 2);
	CHECK(ext2_stat("flush_passes") > passes);
	CHECK_EQ(pread(c, got, 8192, 0), 8192);
	CHECK(same(got, 43, 0, 8192));
	close(c);
	return 0;
}

/* write() on an O_DSYNC descriptor returns with its pages on the disk. */
static int o_dsync_write(void)
{
	int d = open(MNT "/sync_d.bin", O_WRONLY | O_CREAT | O_TRUNC | O_DSYNC, 0644);
	long written = ext2_stat("pages_written");

	CHECK(d >= 0);
	fill(buf, 44, 0, 8192);
	CHECK_EQ(write(d, buf, 8192), 8192);
	CHECK_EQ(ext2_stat("dirty_pages"), 0);
	CHECK(ext2_stat("pages_written") - written >= 2);
	close(d);
	return 0;
}

static int sync_umount(void)
{
	CHECK_EQ(do_umount(), 0);
	CHECK_EQ(ext2_stat("cached_pages"), 0);
	CHECK_EQ(ext2_stat("cached_blocks"), 0);
	return unmake_dirs();
}

static const struct utest_case sync_cases[] = {
	UTEST(mount_it),
	UTEST(fsync_one_file),
	UTEST(fdatasync_times_only),
	UTEST(flusher_writes_back),
	UTEST(o_dsync_write),
	UTEST(sync_umount),
};

int main(int argc, char **argv)
{
	char *args[] = { argv[0], argc > 3 ? argv[3] : NULL, NULL };
	int n = argc > 3 ? 2 : 1;

	if (argc > 2 && !strcmp(argv[1], "fault")) {
		dev_path = argv[2];
		return utest_main(n, args, "ext2_fault", fault_cases, NCASES(fault_cases));
	}
	if (argc > 2 && !strcmp(argv[1], "sync")) {
		dev_path = argv[2];
		return utest_main(n, args, "ext2_sync", sync_cases, NCASES(sync_cases));
	}
	printf("usage: test_ext2_fault fault|sync DEV [CASE]\n");
	return 2;
}
