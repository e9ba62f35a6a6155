/* procfs.h: the small /proc (kernel/fs/procfs.c). */
#ifndef PROCFS_H
#define PROCFS_H

/* Make /proc/meminfo, /proc/self/maps and /proc/aiok/blk. Boot, after fs_init. */
void procfs_init(void);

#endif
