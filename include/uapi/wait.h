/* wait.h (uapi): wait status encoding and options, as Linux. */
#ifndef UAPI_WAIT_H
#define UAPI_WAIT_H

/*
 * Status word: exited normally -> (code & 0xff) << 8; killed by a signal ->
 * signal number in bits 0-6 (bit 7 = core dumped).  Same as newlib's macros.
 */
#define WAIT_EXITED(code)	(((code) & 0xff) << 8)
#define WAIT_SIGNALED(sig)	((sig) & 0x7f)

#ifndef UAPI_STRUCTS_ONLY
#define WNOHANG		1	/* return 0 at once if no child has exited */
#define WUNTRACED	2	/* report stops (waitid: WSTOPPED) */
#define WSTOPPED	WUNTRACED
#define WEXITED		4	/* waitid: report ends (wait4 always does) */
#define WCONTINUED	8	/* report continues (SIGCONT) */
#define WNOWAIT		0x01000000	/* waitid: leave the child waitable */
#define P_ALL		0	/* waitid's idtype: any child */
#define P_PID		1	/* ... the child with pid id */
#define P_PGID		2	/* ... any child in process group id (0: the caller's) */
#define WIFEXITED(s)	(((s) & 0x7f) == 0)
#define WEXITSTATUS(s)	(((s) >> 8) & 0xff)
#define WIFSIGNALED(s)	(((s) & 0x7f) != 0 && ((s) & 0x7f) != 0x7f)
#define WTERMSIG(s)	((s) & 0x7f)
#endif

#endif
