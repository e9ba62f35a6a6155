/* resource.h (uapi): resource limits for getrlimit/setrlimit/ugetrlimit/prlimit64, Linux i386's numbers and layouts. */
#ifndef UAPI_RESOURCE_H
#define UAPI_RESOURCE_H

#define RLIMIT_CPU		0
#define RLIMIT_FSIZE		1	/* largest file a write may make (SIGXFSZ, -EFBIG) */
#define RLIMIT_DATA		2
#define RLIMIT_STACK		3	/* reported: the stack area may grow to 8 MiB */
#define RLIMIT_CORE		4
#define RLIMIT_RSS		5
#define RLIMIT_NPROC		6
#define RLIMIT_NOFILE		7	/* one more than the highest descriptor (at most 64) */
#define RLIMIT_MEMLOCK		8
#define RLIMIT_AS		9	/* bytes of address space (mmap, brk, mremap) */
#define RLIMIT_LOCKS		10
#define RLIMIT_SIGPENDING	11
#define RLIMIT_MSGQUEUE		12
#define RLIMIT_NICE		13
#define RLIMIT_RTPRIO		14
#define RLIMIT_RTTIME		15
#define RLIM_NLIMITS		16

/* setrlimit (75), ugetrlimit (191): unsigned long fields, infinity ~0. */
struct kernel_rlimit {
	unsigned long	rlim_cur;
	unsigned long	rlim_max;
};
#define RLIM_INFINITY		(~0ul)
/* getrlimit (76), the old call: values above 0x7fffffff read as that. */
#define RLIM_OLD_INFINITY	0x7ffffffful

/* prlimit64 (340) */
struct kernel_rlimit64 {
	unsigned long long	rlim_cur;
	unsigned long long	rlim_max;
};
#define RLIM64_INFINITY		(~0ull)

#endif
