/* dirent.c: opendir/readdir/telldir/seekdir/closedir on the kernel's getdents64 (220) and lseek; a position is the d_off of the entry before it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "glue.h"

#define DIR_BUF		4096		/* bytes of records per getdents64 call */


struct __dirstream {
	int fd;
	size_t at, len;			/* the next record in buf, bytes in buf */
	long loc;			/* telldir: the position of the next entry */
	struct dirent ent;
	char buf[DIR_BUF] __attribute__((aligned(8)));
};

DIR *fdopendir(int fd)
{
	DIR *d;
	struct stat st;

	if (fstat(fd, &st))
		return NULL;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return NULL;
	}
	if (!(d = malloc(sizeof(*d))))
		return NULL;
	d->fd = fd;
	d->at = d->len = 0;
	d->loc = lseek(fd, 0, SEEK_CUR);
	if (d->loc < 0)
		d->loc = 0;
	return d;
}

DIR *opendir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return NULL;
	if (!(d = fdopendir(fd)))
		close(fd);
	return d;
}

/* Refill buf from the kernel: bytes, 0 at the end, -1 on an error. */
static long dir_fill(DIR *d)
{
	long r = glue_ret(__sys_getdents64(d->fd, d->buf, sizeof(d->buf)));

	d->at = 0;
	d->len = r > 0 ? (size_t)r : 0;
	return r;
}

struct dirent *readdir(DIR *d)
{
	struct linux_dirent64 *k;

	if (d->at >= d->len && dir_fill(d) <= 0)
		return NULL;			/* the end (errno as it was), or an error */
	k = (struct linux_dirent64 *)(d->buf + d->at);
	d->at += k->d_reclen;
	d->ent.d_ino = k->d_ino;
	d->ent.d_off = k->d_off;
	d->ent.d_reclen = sizeof(d->ent);
	d->ent.d_type = k->d_type;
	strncpy(d->ent.d_name, k->d_name, sizeof(d->ent.d_name) - 1);
	d->ent.d_name[sizeof(d->ent.d_name) - 1] = '\0';
	d->loc = (long)k->d_off;
	return &d->ent;
}

int closedir(DIR *d)
{
	int r = close(d->fd);

	free(d);
	return r;
}

int dirfd(DIR *d)
{
	return d->fd;
}

long telldir(DIR *d)
{
	return d->loc;
}

void seekdir(DIR *d, long loc)
{
	if (lseek(d->fd, loc, SEEK_SET) < 0)
		return;
	d->at = d->len = 0;		/* what was read ahead is not next any more */
	d->loc = loc;
}

void rewinddir(DIR *d)
{
	seekdir(d, 0);
}
