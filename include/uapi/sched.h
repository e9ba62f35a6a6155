/* sched.h (uapi): clone's flags and set_thread_area's descriptor (struct user_desc), Linux i386 values. */
#ifndef UAPI_SCHED_H
#define UAPI_SCHED_H

#include "types.h"

#define KCLONE_CSIGNAL		0x000000ff	/* the signal the parent gets at the exit */
#define KCLONE_VM		0x00000100	/* share the address space */
#define KCLONE_FS		0x00000200	/* share cwd and umask (kept with the descriptors) */
#define KCLONE_FILES		0x00000400	/* share the descriptor table */
#define KCLONE_SIGHAND		0x00000800	/* share the handlers (needs KCLONE_VM) */
#define KCLONE_VFORK		0x00004000	/* the parent waits for exec or exit */
#define KCLONE_PARENT		0x00008000	/* unsupported: -EINVAL */
#define KCLONE_THREAD		0x00010000	/* same thread group (needs KCLONE_SIGHAND) */
#define KCLONE_NEWNS		0x00020000	/* unsupported: -EINVAL */
#define KCLONE_SYSVSEM		0x00040000	/* no System V semaphores: accepted */
#define KCLONE_SETTLS		0x00080000	/* tls argument: a struct user_desc */
#define KCLONE_PARENT_SETTID	0x00100000	/* the new tid is stored at parent_tid */
#define KCLONE_CHILD_CLEARTID	0x00200000	/* 0 stored at child_tid at exit, then a futex wake */
#define KCLONE_DETACHED		0x00400000	/* ignored, as Linux */
#define KCLONE_CHILD_SETTID	0x01000000	/* the new tid is stored at child_tid (child's memory) */
#define KCLONE_THREAD_FLAGS	(KCLONE_VM | KCLONE_FS | KCLONE_FILES | KCLONE_SIGHAND | \
				 KCLONE_THREAD | KCLONE_SYSVSEM | KCLONE_SETTLS | \
				 KCLONE_PARENT_SETTID | KCLONE_CHILD_CLEARTID)

/* set_thread_area's descriptor; the flags word bit by bit as Linux's bitfields. */
struct user_desc {
	unsigned int	entry_number;	/* -1: the kernel picks a free TLS slot and stores it here */
	unsigned int	base_addr;
	unsigned int	limit;
	unsigned int	flags;		/* KDESC_* */
};
#define KDESC_SEG_32BIT		0x01
#define KDESC_CONTENTS_DATA	0x00	/* bits 1-2 (2: code, refused) */
#define KDESC_CONTENTS_MASK	0x06
#define KDESC_READ_EXEC_ONLY	0x08
#define KDESC_LIMIT_IN_PAGES	0x10
#define KDESC_SEG_NOT_PRESENT	0x20
#define KDESC_USEABLE		0x40

#define GDT_ENTRY_TLS_MIN	6	/* the three TLS slots are GDT entries 6, 7, 8 (as Linux) */
#define GDT_ENTRY_TLS_ENTRIES	3

/* The segment selector for a GDT entry at ring 3. */
#define KDESC_SELECTOR(entry)	(((entry) << 3) | 3)

UAPI_ASSERT_SIZE(struct user_desc, 16);

#endif
