/* sys/wait.h: newlib's wait and waitpid, wait3/wait4 with their struct rusage (glibc declares them here), waitid and Linux's W* options newlib lacks. */
#ifndef USER_SYS_WAIT_H
#define USER_SYS_WAIT_H

#include_next <sys/wait.h>
#include <sys/resource.h>
#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Linux's values (waitpid, wait4 and waitid take them as they are). */
#ifndef WCONTINUED
#define WCONTINUED	8		/* report a child continued by SIGCONT */
#define WIFCONTINUED(w)	((w) == 0xffff)
#endif
#define WSTOPPED	WUNTRACED	/* waitid: report stops */
#define WEXITED		4		/* waitid: report ends */
#define WNOWAIT		0x01000000	/* waitid: leave the child waitable */

typedef enum {
	P_ALL = 0,			/* any child */
	P_PID = 1,			/* the child with that pid */
	P_PGID = 2			/* any child in that process group (0: the caller's) */
} idtype_t;

pid_t wait3(int *status, int options, struct rusage *usage);
pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage);
/* 0 with *info filled (si_pid 0: WNOHANG found nothing ready), or -1. */
int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options);

#ifdef __cplusplus
}
#endif

#endif
