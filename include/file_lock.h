/* file_lock.h: advisory file locks: POSIX record locks (fcntl F_GETLK/F_SETLK/F_SETLKW), open file description locks (F_OFD_*) and flock(2) (kernel/fs/locks.c).
 *
 * A POSIX lock belongs to a process: its owner is the descriptor table
 * (files_struct, shared by the threads of a process, never across fork), and
 * any close of a descriptor of the file by that process drops all of the
 * process's locks on the file, as POSIX says. A flock lock belongs to an open
 * file description (struct file, shared by dup and fork) and goes with its
 * last reference. An OFD record lock (F_OFD_SETLK*) is a record lock owned
 * by the open file description: it conflicts with POSIX and other
 * descriptions' OFD locks (those of the same process too), survives closes
 * of other descriptors and goes with the description's last reference.
 * Record locks and flock locks never conflict with each other (Linux's
 * rule). Every lock hangs on its inode's i_flock chain under one global
 * spinlock (file_lock_lock); waiters sleep on one wait queue, woken whenever
 * a lock goes or shrinks.
 */
#ifndef FILE_LOCK_H
#define FILE_LOCK_H

#include "atomic.h"
#include "types.h"

struct file;
struct files_struct;
struct inode;

/* fcntl's lock commands, F_GETLK .. F_SETLKW64 and F_OFD_GETLK .. F_OFD_SETLKW,
 * on fd with the user's struct kernel_flock at arg, or kernel_flock64 when
 * wide (the *64 commands, and the OFD ones through fcntl64, as Linux i386).
 * 0, or -EBADF, -EINVAL (also an OFD command's l_pid not 0), -EFAULT, -EAGAIN
 * (F_SETLK: conflict), -EDEADLK (POSIX locks only), -ERESTARTSYS (F_SETLKW: a
 * signal), -ENOLCK, -EOVERFLOW (F_GETLK: a lock past what struct
 * kernel_flock holds). Process context, may sleep. */
long fcntl_lock(int fd, int cmd, unsigned long arg, bool wide);
/* Drop every POSIX lock files owns on f's inode (a close by that process).
 * Process context; cheap when the inode has no lock. */
void locks_remove_posix(struct files_struct *files, struct file *f);
/* Drop f's flock lock and its OFD locks (its last fput). Process context. */
void locks_remove_file(struct file *f);
/* File locks alive (taken, and spares a request holds). */
extern atomic_t nr_file_locks;
/* /proc/locks: one line per lock, Linux's format ("1: POSIX  ADVISORY  WRITE
 * pid 00:00:ino start end"; the device is not named). Process context. */
int locks_proc_show(char *buf, size_t size);

#endif
