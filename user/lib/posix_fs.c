/* posix_fs.c: POSIX file-name calls on the kernel's: access/faccessat, lstat/fstatat, openat, mkdirat, unlinkat, rename*, chdir/fchdir/getcwd, umask. */
#define _GNU_SOURCE		/* AT_EMPTY_PATH, renameat2 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "glue.h"

#define GLUE_PATH_MAX	512		/* the kernel's PATH_MAX */

/* EINVAL for a flag the kernel lacks: -1; else the kernel's flags. */
static int at_flags(int flags, int allowed)
{
	int k = (flags & ~allowed) ? -1 : abi_at_flags_to_kernel(flags);

	if (k < 0)
		errno = EINVAL;
	return k;
}

int access(const char *path, int mode)
{
	return glue_ret(__sys_access(path, mode));	/* F_OK, R_OK, W_OK, X_OK: Linux's values */
}

int eaccess(const char *path, int mode)
{
	return access(path, mode);		/* real and effective ids are both 0 */
}

int euidaccess(const char *path, int mode)
{
	return access(path, mode);
}

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	int k = at_flags(flags, AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH);

	if (k < 0)
		return -1;
	return glue_ret(__sys_faccessat2(abi_dirfd_to_kernel(dirfd), path, mode, k));
}

/* lstat: a symbolic link itself (ext2 has them). */
int lstat(const char *path, struct stat *st)
{
	return fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	struct kernel_stat64 k;
	int kf = at_flags(flags, AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH);
	long r;

	if (kf < 0)
		return -1;
	r = __sys_fstatat64(abi_dirfd_to_kernel(dirfd), path, &k, kf);
	if (!GLUE_IS_ERR(r))
		glue_stat_from_kernel(&k, st);
	return glue_ret(r);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	unsigned mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = va_arg(ap, unsigned);
	va_end(ap);
	return glue_openat(abi_dirfd_to_kernel(dirfd), path, flags, mode, 1);	/* a cancellation point */
}

int mkdirat(int dirfd, const char *path, mode_t mode)
{
	return glue_ret(__sys_mkdirat(abi_dirfd_to_kernel(dirfd), path, mode));
}

int unlinkat(int dirfd, const char *path, int flags)
{
	int k = at_flags(flags, AT_REMOVEDIR);

	if (k < 0)
		return -1;
	return glue_ret(__sys_unlinkat(abi_dirfd_to_kernel(dirfd), path, k));
}

/* newlib's own rename is link + unlink; the kernel renames in one step. */
int rename(const char *old, const char *new)
{
	return glue_ret(__sys_rename(old, new));
}

int _rename(const char *old, const char *new)
{
	return rename(old, new);
}

int renameat(int olddirfd, const char *old, int newdirfd, const char *new)
{
	return glue_ret(__sys_renameat(abi_dirfd_to_kernel(olddirfd), old,
				       abi_dirfd_to_kernel(newdirfd), new));
}

/* flags: RENAME_NOREPLACE (1), Linux's value. */
int renameat2(int olddirfd, const char *old, int newdirfd, const char *new, unsigned flags)
{
	return glue_ret(__sys_renameat2(abi_dirfd_to_kernel(olddirfd), old,
					abi_dirfd_to_kernel(newdirfd), new, flags));
}

int chdir(const char *path)
{
	return glue_ret(__sys_chdir(path));
}

int fchdir(int fd)
{
	return glue_ret(__sys_fchdir(fd));
}

/* POSIX, plus glibc's extension: a NULL buf is allocated (size bytes, or as
 * many as the path needs when size is 0). */
char *getcwd(char *buf, size_t size)
{
	char path[GLUE_PATH_MAX];
	long r;

	if (buf && !size) {
		errno = EINVAL;
		return NULL;
	}
	if (buf)
		return glue_ret(__sys_getcwd(buf, size)) < 0 ? NULL : buf;
	r = __sys_getcwd(path, sizeof(path));
	if (glue_ret(r) < 0)
		return NULL;
	if (size && (size_t)r > size) {
		errno = ERANGE;
		return NULL;
	}
	buf = malloc(size ? size : (size_t)r);
	if (buf)
		memcpy(buf, path, r);
	return buf;
}

mode_t umask(mode_t mask)
{
	return (mode_t)__sys_umask(mask & 0777);
}
