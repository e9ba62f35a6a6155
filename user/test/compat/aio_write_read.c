/* aio_write_read.c: libaio's documented sequence (io_queue_init, io_prep_pwrite/pread, io_submit, io_getevents, io_destroy), written as for Linux. */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NR	4
#define SIZE	512

int main(void)
{
	io_context_t ctx;
	struct iocb iocbs[NR], *list[NR];
	struct io_event events[NR];
	struct timespec timeout = { 5, 0 };
	static char out[NR][SIZE], in[NR][SIZE];
	int fd, ret;

	memset(&ctx, 0, sizeof(ctx));
	fd = open("aio_write_read.tmp", O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (fd < 0) {
		perror("open");
		return 1;
	}
	ret = io_queue_init(NR, &ctx);
	if (ret < 0) {
		fprintf(stderr, "io_queue_init: %s\n", strerror(-ret));
		return 1;
	}
	for (int i = 0; i < NR; i++) {
		memset(out[i], 'a' + i, SIZE);
		io_prep_pwrite(&iocbs[i], fd, out[i], SIZE, (long long)i * SIZE);
		iocbs[i].data = out[i];
		list[i] = &iocbs[i];
	}
	ret = io_submit(ctx, NR, list);
	if (ret != NR) {
		fprintf(stderr, "io_submit: %d\n", ret);
		return 1;
	}
	ret = io_getevents(ctx, NR, NR, events, &timeout);
	if (ret != NR) {
		fprintf(stderr, "io_getevents: %d\n", ret);
		return 1;
	}
	for (int i = 0; i < ret; i++) {
		if (events[i].res != SIZE || events[i].res2 != 0 ||
		    events[i].data != events[i].obj->data) {
			fprintf(stderr, "write event %d: res %ld\n", i, (long)events[i].res);
			return 1;
		}
	}
	for (int i = 0; i < NR; i++)
		io_prep_pread(&iocbs[i], fd, in[i], SIZE, (long long)i * SIZE);
	if (io_submit(ctx, NR, list) != NR || io_getevents(ctx, 1, NR, events, NULL) < 1) {
		fprintf(stderr, "read back failed\n");
		return 1;
	}
	for (int got = 0; got < NR; ) {		/* the rest, if the first call took fewer */
		int n = io_getevents(ctx, 0, NR, events, NULL);
		if (n < 0)
			return 1;
		got += n ? n : NR;
	}
	if (memcmp(in, out, sizeof(in))) {
		fprintf(stderr, "data differs\n");
		return 1;
	}
	if (io_destroy(ctx) != 0 || io_submit(ctx, NR, list) != -EINVAL) {
		fprintf(stderr, "io_destroy\n");
		return 1;
	}
	close(fd);
	unlink("aio_write_read.tmp");
	printf("aio_write_read: PASS\n");
	return 0;
}
