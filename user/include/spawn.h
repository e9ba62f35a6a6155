/* spawn.h: newlib's <spawn.h> (posix_spawn, its file actions and attributes) and glibc's additions: POSIX_SPAWN_SETSID, POSIX_SPAWN_USEVFORK, the chdir file actions. */
#ifndef USER_SPAWN_H
#define USER_SPAWN_H

#include_next <spawn.h>

#define POSIX_SPAWN_USEVFORK	0x40	/* accepted; the child is always a fork */
#define POSIX_SPAWN_SETSID	0x80	/* the child starts a session (glibc, _GNU_SOURCE) */

#ifdef __cplusplus
extern "C" {
#endif

/* glibc 2.29's: the child changes directory (to path, or fd's) at that point. */
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict fa,
					 const char *__restrict path);
int posix_spawn_file_actions_addfchdir_np(posix_spawn_file_actions_t *fa, int fd);

#ifdef __cplusplus
}
#endif

#endif
