/* posix_aio_rw.c: POSIX <aio.h> as the standard describes it (aio_write, aio_suspend, aio_error, aio_return, lio_listio), linked with -lrt as on Linux. */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Wait for cb and return its result (aio_return), or -1. */
static ssize_t finish(struct aiocb *cb)
{
	const struct aiocb *list[1] = { cb };

	while (aio_error(cb) == EINPROGRESS)
		if (aio_suspend(list, 1, NULL) != 0 && errno != EINTR)
			return -1;
	return aio_error(cb) == 0 ? aio_return(cb) : -1;
}

int main(void)
{
	static char out[1024], in[2][512];
	struct aiocb w, r[2], *list[2] = { &r[0], &r[1] };
	int fd = open("posix_aio_rw.tmp", O_CREAT | O_TRUNC | O_RDWR, 0644);

	if (fd < 0)
		return 1;
	for (int i = 0; i < (int)sizeof(out); i++)
		out[i] = (char)(i * 7);
	memset(&w, 0, sizeof(w));
	w.aio_fildes = fd;
	w.aio_buf = out;
	w.aio_nbytes = sizeof(out);
	w.aio_offset = 0;
	if (aio_write(&w) != 0 || finish(&w) != (ssize_t)sizeof(out))
		return 1;
	memset(r, 0, sizeof(r));
	for (int i = 0; i < 2; i++) {
		r[i].aio_fildes = fd;
		r[i].aio_buf = in[i];
		r[i].aio_nbytes = sizeof(in[i]);
		r[i].aio_offset = i * 512;
		r[i].aio_lio_opcode = LIO_READ;
	}
	if (lio_listio(LIO_WAIT, list, 2, NULL) != 0 || aio_return(&r[0]) != 512 ||
	    aio_return(&r[1]) != 512 || memcmp(in, out, sizeof(out)))
		return 1;
	close(fd);
	unlink("posix_aio_rw.tmp");
	printf("posix_aio_rw: PASS\n");
	return 0;
}
