/* posix_mm.c: memory and resource calls on the kernel's: mremap, mprotect,
 * madvise, msync, getrlimit/setrlimit/prlimit, truncate/ftruncate, getppid. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
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
