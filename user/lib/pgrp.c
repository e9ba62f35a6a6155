/* pgrp.c: process groups and sessions for newlib programs: setpgid, getpgid, getpgrp, setpgrp, setsid, getsid (kill and waitpid take groups as they are), and waitid. */
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>
#include "glue.h"
#include "pthread/tcb.h"
#include "signal_glue.h"

int setpgid(pid_t pid, pid_t pgid)
{
	return (int)glue_ret(__sys_setpgid(pid, pgid));
}

pid_t getpgid(pid_t pid)
{
	return (pid_t)glue_ret(__sys_getpgid(pid));
}

pid_t getpgrp(void)
{
	return (pid_t)__sys_getpgrp();
}

/* glibc's (System V's form): setpgid(0, 0). */
int setpgrp(void)
{
	return setpgid(0, 0);
}

pid_t setsid(void)
{
	return (pid_t)glue_ret(__sys_setsid());
}

pid_t getsid(pid_t pid)
{
	return (pid_t)glue_ret(__sys_getsid(pid));
}

/* A cancellation point, as waitpid. The kernel fills Linux's siginfo, which
 * is ours; the signal numbers (si_signo, and si_status for a child killed,
 * stopped or continued by a signal) become newlib's. */
int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options)
{
	siginfo_t k;
	long r = __SYSCALL_CP(__NR_waitid, (int)idtype, (int)id,
			      (struct kernel_siginfo *)&k, options, 0);

	if (GLUE_IS_ERR(r) || !info)
		return (int)glue_ret(r);
	*info = k;
	if (k.si_signo)
		info->si_signo = __sig_from_kernel(k.si_signo);
	if (k.si_signo && k.si_code != CLD_EXITED)
		info->si_status = __sig_from_kernel(k.si_status);
	return 0;
}
