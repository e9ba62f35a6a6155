/* aio_callbacks.c: libaio's callback style (io_set_callback, io_queue_run, io_fsync, io_fdsync), written as for Linux. */
#include <fcntl.h>
#include <libaio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int writes, syncs, bad;

static void write_done(io_context_t ctx, struct iocb *iocb, long res, long res2)
{
	(void)ctx;
	if (res != (long)iocb->u.c.nbytes || res2 != 0)
		bad++;
	writes++;
}

static void sync_done(io_context_t ctx, struct iocb *iocb, long res, long res2)
{
	(void)ctx;
	(void)iocb;
	(void)res2;
	if (res != 0)
		bad++;
	syncs++;
}

int main(void)
{
	io_context_t ctx = 0;
	struct iocb cb[3], fs, fds, *list[3] = { &cb[0], &cb[1], &cb[2] };
	char buf[3][100];
	int fd = open("aio_callbacks.tmp", O_CREAT | O_TRUNC | O_RDWR, 0644);

	if (fd < 0 || io_queue_init(8, &ctx) != 0)
		return 1;
	for (int i = 0; i < 3; i++) {
		memset(buf[i], '0' + i, sizeof(buf[i]));
		io_prep_pwrite(&cb[i], fd, buf[i], sizeof(buf[i]), i * 100);
		io_set_callback(&cb[i], write_done);
	}
	if (io_submit(ctx, 3, list) != 3)
		return 1;
	if (io_fsync(ctx, &fs, sync_done, fd) != 1 || io_fdsync(ctx, &fds, sync_done, fd) != 1)
		return 1;
	for (int tries = 0; writes + syncs < 5 && tries < 1000; tries++)
		if (io_queue_run(ctx) < 0)
			return 1;
	if (writes != 3 || syncs != 2 || bad) {
		fprintf(stderr, "writes %d syncs %d bad %d\n", writes, syncs, bad);
		return 1;
	}
	if (io_queue_release(ctx) != 0)
		return 1;
	close(fd);
	unlink("aio_callbacks.tmp");
	printf("aio_callbacks: PASS\n");
	return 0;
}
