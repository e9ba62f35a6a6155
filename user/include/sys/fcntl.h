/* sys/fcntl.h: newlib's <sys/fcntl.h> with Linux i386's F_DUPFD_CLOEXEC, record locks (F_GETLK 5 .. F_SETLKW64 14, F_OFD_GETLK 36 .. F_OFD_SETLKW 38, F_RDLCK 0, struct flock, struct flock64), F_SETPIPE_SZ/F_GETPIPE_SZ and flock(2). */
#ifndef USER_SYS_FCNTL_H
#define USER_SYS_FCNTL_H

/* newlib numbers the lock commands and types its own way and has a BSD
 * struct flock (short l_pid): hide its names, give glibc's. */
#define flock	__newlib_flock
#include_next <sys/fcntl.h>
#undef flock
#undef F_GETLK
#undef F_SETLK
#undef F_SETLKW
#undef F_RDLCK
#undef F_WRLCK
#undef F_UNLCK
#undef F_DUPFD_CLOEXEC

#include <sys/types.h>

#define F_DUPFD_CLOEXEC	1030	/* Linux's (newlib's 14 is F_SETLKW64 there) */
#define F_GETLK		5	/* the first lock in the way, or l_type F_UNLCK */
#define F_SETLK		6	/* take or drop; EAGAIN when another process holds one */
#define F_SETLKW	7	/* ... waiting (EINTR on a signal, EDEADLK on a cycle) */
#define F_GETLK64	12	/* with struct flock64 */
#define F_SETLK64	13
#define F_SETLKW64	14
#define F_OFD_GETLK	36	/* locks of the open file description: l_pid 0 in, -1 out */
#define F_OFD_SETLK	37	/* for a holder that is one; gone at the description's */
#define F_OFD_SETLKW	38	/* last close, never at another descriptor's close */
#define F_SETPIPE_SZ	1031	/* a pipe's capacity (64 KiB at first), rounded up */
#define F_GETPIPE_SZ	1032

#define F_RDLCK		0
#define F_WRLCK		1
#define F_UNLCK		2

/* Linux i386's layouts (the kernel reads them as they are). */
struct flock {
	short	l_type;		/* F_RDLCK, F_WRLCK, F_UNLCK */
	short	l_whence;	/* SEEK_SET, SEEK_CUR, SEEK_END */
	off_t	l_start;
	off_t	l_len;		/* 0: to the end, whatever the size */
	pid_t	l_pid;		/* F_GETLK: the holder */
};

struct flock64 {
	short		l_type;
	short		l_whence;
	long long	l_start;
	long long	l_len;
	pid_t		l_pid;
};

_Static_assert(sizeof(struct flock) == 16, "struct flock is Linux i386's");
_Static_assert(sizeof(struct flock64) == 24, "struct flock64 is Linux i386's");

#ifdef __cplusplus
extern "C" {
#endif
/* LOCK_SH, LOCK_EX (| LOCK_NB), LOCK_UN: 0, or -1 with errno. */
int flock(int fd, int operation);
#ifdef __cplusplus
}
#endif

#endif
