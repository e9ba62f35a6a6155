/* sysinfo.h (uapi): struct kernel_sysinfo for sysinfo (116), Linux i386's layout (64 bytes). */
#ifndef UAPI_SYSINFO_H
#define UAPI_SYSINFO_H

#include "types.h"

struct kernel_sysinfo {
	__s32	uptime;		/* seconds since boot */
	__u32	loads[3];	/* 1, 5, 15 minute load averages << 16 (0 here) */
	__u32	totalram;	/* in mem_unit bytes */
	__u32	freeram;
	__u32	sharedram;
	__u32	bufferram;
	__u32	totalswap;
	__u32	freeswap;
	__u16	procs;		/* tasks */
	__u16	pad;
	__u32	totalhigh;	/* HighMem, included in totalram */
	__u32	freehigh;
	__u32	mem_unit;	/* bytes per unit above */
	char	_f[8];
};
UAPI_ASSERT_SIZE(struct kernel_sysinfo, 64);

#endif
