/* resource.h (uapi): resource limits (getrlimit/setrlimit/ugetrlimit/prlimit64) and usage (getrusage, times), Linux i386's numbers and layouts. */
#ifndef UAPI_RESOURCE_H
#define UAPI_RESOURCE_H

#include "types.h"

#ifndef UAPI_STRUCTS_ONLY	/* newlib programs: <sys/resource.h> has these */

#define RLIMIT_CPU		0
#define RLIMIT_FSIZE		1	/* largest file a write may make (SIGXFSZ, -EFBIG) */
#define RLIMIT_DATA		2
#define RLIMIT_STACK		3	/* reported: the stack area may grow to 8 MiB */
#define RLIMIT_CORE		4
#define RLIMIT_RSS		5
#define RLIMIT_NPROC		6
#define RLIMIT_NOFILE		7	/* one more than the highest descriptor (at most 1024) */
#define RLIMIT_MEMLOCK		8
#define RLIMIT_AS		9	/* bytes of address space (mmap, brk, mremap) */
#define RLIMIT_LOCKS		10
#define RLIMIT_SIGPENDING	11
#define RLIMIT_MSGQUEUE		12
#define RLIMIT_NICE		13
#define RLIMIT_RTPRIO		14
#define RLIMIT_RTTIME		15
#define RLIM_NLIMITS		16

#define RLIM_INFINITY		(~0ul)	/* struct kernel_rlimit's */
/* getrlimit (76), the old call: values above 0x7fffffff read as that. */
#define RLIM_OLD_INFINITY	0x7ffffffful
#define RLIM64_INFINITY		(~0ull)
#define RUSAGE_SELF		0
#define RUSAGE_CHILDREN		(-1)
#define RUSAGE_THREAD		1
#endif

/* setrlimit (75), ugetrlimit (191): unsigned long fields, infinity ~0. */
struct kernel_rlimit {
	unsigned long	rlim_cur;
	unsigned long	rlim_max;
};

/* prlimit64 (340) */
struct kernel_rlimit64 {
	unsigned long long	rlim_cur;
	unsigned long long	rlim_max;
};

/* getrusage (77) and wait4's report: Linux i386's struct rusage (72 bytes). */
struct kernel_rusage {
	struct { long tv_sec, tv_usec; } ru_utime, ru_stime;
	long	ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt, ru_nswap;
	long	ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};

/* times (43): clock ticks of USER_HZ. */
#define USER_HZ			100
struct kernel_tms {
	long	tms_utime, tms_stime, tms_cutime, tms_cstime;
};

UAPI_ASSERT_SIZE(struct kernel_rusage, 72);
UAPI_ASSERT_SIZE(struct kernel_tms, 16);

#endif
