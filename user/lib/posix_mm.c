/* posix_mm.c: memory and resource calls on the kernel's: mremap, mprotect,
 * madvise, msync, getrlimit/setrlimit/prlimit, truncate/ftruncate, getppid,
 * shm_open/shm_unlink (files in /dev/shm, as glibc's). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "glue.h"
#include "pthread/tcb.h"

void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	unsigned long to = 0;
	va_list ap;
	long r;

	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		to = (unsigned long)va_arg(ap, void *);
		va_end(ap);
	}
	r = __sys_mremap((unsigned long)old, old_len, new_len, flags, to);
	return GLUE_IS_ERR(r) ? (void *)glue_ret(r) : (void *)r;
}

int mprotect(void *addr, size_t len, int prot)
{
	return glue_ret(__sys_mprotect((unsigned long)addr, len, prot));
}

int madvise(void *addr, size_t len, int advice)
{
	return glue_ret(__sys_madvise((unsigned long)addr, len, advice));
}

int posix_madvise(void *addr, size_t len, int advice)
{
	long r = __sys_madvise((unsigned long)addr, len, advice);

	return GLUE_IS_ERR(r) ? -glue_neg_errno(r) : 0;
}

int msync(void *addr, size_t len, int flags)
{
	return glue_ret(__SYSCALL_CP(__NR_msync, addr, len, flags));	/* a cancellation point */
}

/* Every limit goes through prlimit64: 64-bit values, RLIM_INFINITY ~0 on both sides. */
int prlimit(pid_t pid, int resource, const struct rlimit *new_limit, struct rlimit *old_limit)
{
	return glue_ret(__sys_prlimit64(pid, resource, (const struct kernel_rlimit64 *)new_limit,
					(struct kernel_rlimit64 *)old_limit));
}

int getrlimit(int resource, struct rlimit *rlim)
{
	return prlimit(0, resource, NULL, rlim);
}

int setrlimit(int resource, const struct rlimit *rlim)
{
	return prlimit(0, resource, rlim, NULL);
}

int truncate(const char *path, off_t length)
{
	long long l = length;

	return glue_ret(__sys_truncate64(path, (unsigned)l, (unsigned)(l >> 32)));
}

int ftruncate(int fd, off_t length)
{
	long long l = length;

	return glue_ret(__sys_ftruncate64(fd, (unsigned)l, (unsigned)(l >> 32)));
}

pid_t getppid(void)
{
	return (pid_t)__sys_getppid();
}

#define SHM_DIR		"/dev/shm/"

/* "/name" (leading slashes skipped) -> SHM_DIR "name" in buf: 0, or -1 with
 * errno: EINVAL for an empty name, one with another '/', "." or "..";
 * ENAMETOOLONG past NAME_MAX (glibc's rules). */
static int shm_path(const char *name, char *buf, size_t size)
{
	size_t n;

	while (*name == '/')
		name++;
	n = strlen(name);
	if (!n || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
		errno = EINVAL;
		return -1;
	}
	if (n > NAME_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	snprintf(buf, size, SHM_DIR "%s", name);
	return 0;
}

/* A POSIX shared memory object: a file in /dev/shm (ramfs: mmap MAP_SHARED
 * shares its pages), opened close-on-exec and not through a symbolic link. */
int shm_open(const char *name, int oflag, mode_t mode)
{
	char path[sizeof(SHM_DIR) + NAME_MAX + 1];

	if (shm_path(name, path, sizeof(path)))
		return -1;
	return open(path, oflag | O_NOFOLLOW | O_CLOEXEC, mode);
}

int shm_unlink(const char *name)
{
	char path[sizeof(SHM_DIR) + NAME_MAX + 1];

	if (shm_path(name, path, sizeof(path)))
		return -1;
	return unlink(path);
}
