/* resource.h: per-process resource limits (kernel/resource.c). They live in
 * the descriptor table's files_struct, beside the working directory and the
 * umask: inherited by fork, kept across execve, shared as far as the table is. */
#ifndef RESOURCE_H
#define RESOURCE_H

#include "types.h"
#include "uapi/resource.h"

struct files_struct;
struct mm;

/* Linux's defaults: every limit infinite but RLIMIT_NOFILE (NR_OPEN),
 * RLIMIT_STACK (8 MiB soft) and RLIMIT_CORE (0 soft). */
void rlimit_init(struct kernel_rlimit64 *rlim);
/* The current process's soft limit of resource (RLIM64_INFINITY for none,
 * and for a kernel thread). */
u64 rlimit_cur(int resource);
/* RLIMIT_FSIZE for a write of *n bytes at pos to a regular file: shortens *n
 * to end at the limit; at or past it, sends SIGXFSZ and returns -EFBIG.
 * 0 otherwise. Process context. */
int rlimit_fsize_check(loff_t pos, size_t *n);
/* RLIMIT_AS: may the current process's address space grow by add bytes? */
bool rlimit_as_ok(struct mm *mm, u32 add);

#endif
