/* sys/stat.h: newlib's <sys/stat.h> plus what it declares only for other systems (lstat, mknod), as Linux programs expect. */
#ifndef USER_SYS_STAT_H
#define USER_SYS_STAT_H

#include_next <sys/stat.h>

/* There are no symbolic links: lstat answers as stat. */
int lstat(const char *__restrict path, struct stat *__restrict buf);

#endif
