/* mman.h (uapi): mmap2 protections and flags, Linux i386 values (newlib has no sys/mman.h). */
#ifndef UAPI_MMAN_H
#define UAPI_MMAN_H

#define PROT_NONE	0x0
#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define PROT_EXEC	0x4

#define MAP_SHARED	0x01
#define MAP_PRIVATE	0x02
#define MAP_FIXED	0x10
#define MAP_ANONYMOUS	0x20
#define MAP_ANON	MAP_ANONYMOUS

/* mremap's flags */
#define MREMAP_MAYMOVE	1
#define MREMAP_FIXED	2

#define MAP_FAILED	((void *)-1)

/* mmap2 takes its file offset in units of this many bytes. */
#define MMAP2_UNIT	4096

#endif
