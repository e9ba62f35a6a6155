/* ulib_posix_aio.c: POSIX <aio.h> against the mock kernel: read/write/fsync, error/return, suspend, cancel, lio_listio. */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "lib/ktap.h"
#include "lib/mock_aio.h"

static int fd;

static void prep(struct aiocb *cb, void *buf, size_t n, off_t off)
{
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = fd;
	cb->aio_buf = buf;
	cb->aio_nbytes = n;
	cb->aio_offset = off;
}

static int wait_one(struct aiocb *cb)
{
	const struct aiocb *list[1] = { cb };

	return aio_suspend(list, 1, NULL) == 0 && aio_error(cb) != EINPROGRESS;
}

static int case_write_read(void)
{
	struct aiocb w, r;
	char out[8] = "abcdefg", in[8] = { 0 };

	prep(&w, out, 7, 2);
	if (aio_write(&w) != 0 || !wait_one(&w) || aio_error(&w) || aio_return(&w) != 7)
		return 0;
	prep(&r, in, 5, 3);
	return aio_read(&r) == 0 && wait_one(&r) && aio_return(&r) == 5 &&
	       memcmp(in, "bcdef", 5) == 0 && aio_return(&r) == -1 && errno == EINVAL;
}

static int case_fsync(void)
{
	struct aiocb cb;

	prep(&cb, NULL, 0, 0);
	return aio_fsync(O_SYNC, &cb) == 0 && wait_one(&cb) && aio_return(&cb) == 0 &&
	       aio_fsync(O_DSYNC, &cb) == 0 && wait_one(&cb) && aio_return(&cb) == 0 &&
	       aio_fsync(12345, &cb) == -1 && errno == EINVAL;
}

/* A held-back request is EINPROGRESS until aio_cancel takes it back. */
static int case_inprogress_cancel(void)
{
	struct aiocb cb;
	char buf[4];

	prep(&cb, buf, 4, 0);
	cb.aio_reqprio = MOCK_DEFER;
	return aio_read(&cb) == 0 && aio_error(&cb) == EINPROGRESS &&
	       aio_cancel(fd, &cb) == AIO_CANCELED && aio_error(&cb) == ECANCELED &&
	       aio_return(&cb) == -1 && aio_cancel(fd, NULL) == AIO_ALLDONE;
}

/* aio_suspend with a timeout: a held-back request is delivered by the system call path. */
static int case_suspend_timeout(void)
{
	struct aiocb cb;
	const struct aiocb *list[2] = { NULL, &cb };
	struct timespec ts = { 1, 0 };
	char buf[4];

	prep(&cb, buf, 4, 0);
	cb.aio_reqprio = MOCK_DEFER;
	return aio_read(&cb) == 0 && aio_suspend(list, 2, &ts) == 0 &&
	       aio_return(&cb) == 4;
}

static int case_listio(void)
{
	struct aiocb a, b, c;
	struct aiocb *list[4] = { &a, NULL, &b, &c };
	char x[3] = "xyz", y[3], z[3];

	prep(&a, x, 3, 20);
	a.aio_lio_opcode = LIO_WRITE;
	prep(&b, y, 3, 2);
	b.aio_lio_opcode = LIO_READ;
	prep(&c, z, 3, 0);
	c.aio_lio_opcode = LIO_NOP;
	return lio_listio(LIO_WAIT, list, 4, NULL) == 0 && aio_return(&a) == 3 &&
	       aio_return(&b) == 3 && memcmp(y, "abc", 3) == 0 && aio_error(&c) == 0;
}

static int case_listio_nowait_error(void)
{
	struct aiocb a, bad;
	struct aiocb *list[2] = { &a, &bad };
	char buf[2];

	prep(&a, buf, 2, 0);
	a.aio_lio_opcode = LIO_READ;
	prep(&bad, buf, 2, 0);
	bad.aio_lio_opcode = 77;
	return lio_listio(LIO_NOWAIT, list, 2, NULL) == -1 && errno == EIO &&
	       aio_error(&bad) == EINVAL && wait_one(&a) && aio_return(&a) == 2;
}

static int case_sigevent(void)
{
	struct aiocb cb;
	char buf[2];

	prep(&cb, buf, 2, 0);
	cb.aio_sigevent.sigev_notify = SIGEV_SIGNAL;
	return aio_read(&cb) == -1 && errno == EINVAL;
}

int main(void)
{
	struct ktap t;
	const char *path = "ulib_posix_aio.tmp";

	ktap_begin(&t, "ulib_posix_aio", 7);
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
	ktap_case(&t, "write_then_read", fd >= 0 && case_write_read(), NULL);
	ktap_case(&t, "fsync_and_fdsync", case_fsync(), NULL);
	ktap_case(&t, "inprogress_then_cancel", case_inprogress_cancel(), NULL);
	ktap_case(&t, "suspend_with_timeout", case_suspend_timeout(), NULL);
	ktap_case(&t, "lio_listio_wait", case_listio(), NULL);
	ktap_case(&t, "lio_listio_nowait_error", case_listio_nowait_error(), NULL);
	ktap_case(&t, "sigev_signal_rejected", case_sigevent(), NULL);
	close(fd);
	unlink(path);
	return ktap_end(&t);
}
