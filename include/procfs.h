/* procfs.h: the small /proc (kernel/fs/procfs.c). */
#ifndef PROCFS_H
#define PROCFS_H

#include "types.h"

/* Make /proc/meminfo, /proc/self/maps and /proc/aiok/blk. Boot, after fs_init. */
void procfs_init(void);

/* Fill buf (size bytes) with a file's text; its length (cut at size - 1). */
typedef int (*proc_show_t)(char *buf, size_t size);
/* A read-only file at path (its directory exists) whose text show makes at
 * each read. Process context; nothing when it cannot be made. */
void proc_create(const char *path, proc_show_t show);

/* Copy the part of text (len bytes) from *pos to ubuf, at most n bytes;
 * *pos moves on. The count, 0 at the end, or -EFAULT. Process context. */
ssize_t proc_read_text(const char *text, int len, char *ubuf, size_t n, loff_t *pos);

#endif
