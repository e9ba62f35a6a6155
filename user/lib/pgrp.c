/* pgrp.c: process groups and sessions for newlib programs: setpgid, getpgid, getpgrp, setpgrp, setsid, getsid (kill and waitpid take groups as they are). */
#include <unistd.h>
#include "glue.h"

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
