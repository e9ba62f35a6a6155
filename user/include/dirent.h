/* dirent.h: directory streams on getdents64 (user/lib/dirent.c), with Linux's struct dirent; overrides newlib's, which has none for this target. */
#ifndef _DIRENT_H
#define _DIRENT_H

#include <sys/types.h>
#include "uapi/dirent.h"		/* DT_*, the kernel's record */

struct dirent {
	ino_t d_ino;
	long long d_off;		/* the position after this entry: telldir's */
	unsigned short d_reclen;
	unsigned char d_type;		/* DT_* */
	char d_name[256];
};

typedef struct __dirstream DIR;

/* A stream over the directory at path / on the open directory fd (which the
 * stream then owns); NULL and errno on failure. */
DIR *opendir(const char *path);
DIR *fdopendir(int fd);
/* The next entry (valid until the next call on the stream), or NULL at the
 * end (errno unchanged) or on an error (errno set). */
struct dirent *readdir(DIR *d);
int closedir(DIR *d);
int dirfd(DIR *d);
/* The position of the next entry (a getdents64 d_off); seekdir to it resumes
 * the listing there, rewinddir starts again. */
long telldir(DIR *d);
void seekdir(DIR *d, long loc);
void rewinddir(DIR *d);

#endif
