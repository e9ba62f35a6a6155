/* exec.c: the exec family over execve: execv, execl, execle, execlp, execvp, execvpe (a PATH search as glibc's; no shell fallback). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#define EXEC_DEFAULT_PATH	"/bin:/usr/bin"	/* glibc's when PATH is unset */
#define EXEC_MAX_ARGS		4096		/* execl's list, counted on the stack */

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

/* Try file in each directory of PATH, in order. A directory that has no such
 * file (ENOENT, ENOTDIR) or refuses it (EACCES, remembered) moves on; any
 * other error ends the search. -1 with errno: EACCES when a candidate was
 * refused and none ran, else the last error. */
static int exec_search(const char *file, char *const argv[], char *const envp[])
{
	const char *p = getenv("PATH");
	size_t flen = strlen(file);
	int refused = 0;

	if (!p)
		p = EXEC_DEFAULT_PATH;
	for (const char *dir = p, *end; ; dir = end + 1) {
		char full[PATH_MAX];
		size_t dlen;

		end = strchr(dir, ':');
		if (!end)
			end = dir + strlen(dir);
		dlen = (size_t)(end - dir);
		if (dlen + 1 + flen < sizeof(full)) {
			memcpy(full, dir, dlen);	/* an empty entry: the working directory */
			full[dlen] = dlen ? '/' : 0;
			strcpy(full + (dlen ? dlen + 1 : 0), file);
			execve(full, argv, envp);
			if (errno == EACCES)
				refused = 1;
			else if (errno != ENOENT && errno != ENOTDIR && errno != ENAMETOOLONG)
				return -1;
		}
		if (!*end)
			break;
	}
	errno = refused ? EACCES : ENOENT;
	return -1;
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (!file || !*file) {
		errno = ENOENT;
		return -1;
	}
	if (strchr(file, '/'))
		return execve(file, argv, envp);
	if (strlen(file) > NAME_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return exec_search(file, argv, envp);
}

int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/* The arguments after arg0 up to the NULL that ends them: their count, or
 * -1 (E2BIG) past EXEC_MAX_ARGS. *ap is left after that NULL (execle's
 * environment follows it). */
static int exec_count(const char *arg0, va_list *ap)
{
	int n = 1;

	if (!arg0)
		return 0;
	while (va_arg(*ap, const char *))
		if (++n > EXEC_MAX_ARGS) {
			errno = E2BIG;
			return -1;
		}
	return n;
}

/* Fill argv[0..n] from arg0 and ap (n arguments, then NULL). */
static void exec_fill(char **argv, int n, const char *arg0, va_list ap)
{
	argv[0] = (char *)arg0;
	for (int i = 1; i < n; i++)
		argv[i] = va_arg(ap, char *);
	argv[n] = NULL;
}

int execl(const char *path, const char *arg0, ...)
{
	va_list ap;
	int n;

	va_start(ap, arg0);
	n = exec_count(arg0, &ap);
	va_end(ap);
	if (n < 0)
		return -1;
	char *argv[n + 1];

	va_start(ap, arg0);
	exec_fill(argv, n, arg0, ap);
	va_end(ap);
	return execve(path, argv, environ);
}

int execlp(const char *file, const char *arg0, ...)
{
	va_list ap;
	int n;

	va_start(ap, arg0);
	n = exec_count(arg0, &ap);
	va_end(ap);
	if (n < 0)
		return -1;
	char *argv[n + 1];

	va_start(ap, arg0);
	exec_fill(argv, n, arg0, ap);
	va_end(ap);
	return execvpe(file, argv, environ);
}

/* execle: the environment follows the NULL that ends the arguments. */
int execle(const char *path, const char *arg0, ...)
{
	char *const *envp;
	va_list ap;
	int n;

	va_start(ap, arg0);
	n = exec_count(arg0, &ap);
	envp = n >= 0 ? va_arg(ap, char *const *) : NULL;
	va_end(ap);
	if (n < 0)
		return -1;
	char *argv[n + 1];

	va_start(ap, arg0);
	exec_fill(argv, n, arg0, ap);
	va_end(ap);
	return execve(path, argv, envp);
}
