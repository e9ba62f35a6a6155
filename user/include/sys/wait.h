/* sys/wait.h: newlib's wait and waitpid, and wait3/wait4 with their struct rusage (glibc declares them here). */
#ifndef USER_SYS_WAIT_H
#define USER_SYS_WAIT_H

#include_next <sys/wait.h>
#include <sys/resource.h>

#ifdef __cplusplus
extern "C" {
#endif

pid_t wait3(int *status, int options, struct rusage *usage);
pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage);

#ifdef __cplusplus
}
#endif

#endif
