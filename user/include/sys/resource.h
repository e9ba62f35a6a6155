/* sys/resource.h: resource limits (getrlimit, setrlimit, prlimit) and usage
 * (getrusage) as glibc declares them, with Linux's numbers (the kernel's own);
 * it replaces newlib's header. */
#ifndef _SYS_RESOURCE_H_
#define _SYS_RESOURCE_H_

#include <sys/time.h>
#include <sys/types.h>

#define RUSAGE_SELF	0		/* calling process */
#define RUSAGE_CHILDREN	-1		/* terminated (and waited-for) child processes */
#define RUSAGE_THREAD	1		/* calling thread (glibc: _GNU_SOURCE) */

/* glibc's fields; aiokern measures the two times, the rest read 0. */
struct rusage {
	struct timeval ru_utime;	/* user time used */
	struct timeval ru_stime;	/* system time used */
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt, ru_nswap;
	long ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};
int getrusage(int who, struct rusage *usage);

typedef unsigned long long rlim_t;	/* 64-bit, as glibc's with _FILE_OFFSET_BITS=64 */

#define RLIMIT_CPU	0
#define RLIMIT_FSIZE	1
#define RLIMIT_DATA	2
#define RLIMIT_STACK	3
#define RLIMIT_CORE	4
#define RLIMIT_RSS	5
#define RLIMIT_NPROC	6
#define RLIMIT_NOFILE	7
#define RLIMIT_OFILE	RLIMIT_NOFILE
#define RLIMIT_MEMLOCK	8
#define RLIMIT_AS	9
#define RLIMIT_LOCKS	10
#define RLIMIT_SIGPENDING 11
#define RLIMIT_MSGQUEUE	12
#define RLIMIT_NICE	13
#define RLIMIT_RTPRIO	14
#define RLIMIT_RTTIME	15
#define RLIMIT_NLIMITS	16
#define RLIM_NLIMITS	RLIMIT_NLIMITS

#define RLIM_INFINITY	(~0ull)
#define RLIM_SAVED_MAX	RLIM_INFINITY
#define RLIM_SAVED_CUR	RLIM_INFINITY

struct rlimit {
	rlim_t rlim_cur;
	rlim_t rlim_max;
};

/* 0, or -1 and errno (EINVAL, EFAULT, EPERM, ESRCH). */
int getrlimit(int resource, struct rlimit *rlim);
int setrlimit(int resource, const struct rlimit *rlim);
int prlimit(pid_t pid, int resource, const struct rlimit *new_limit, struct rlimit *old_limit);

#endif
