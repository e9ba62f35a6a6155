/* sys/features.h: newlib's, then the POSIX options this system has (as glibc's <unistd.h> says them on Linux), which newlib sets only for RTEMS and Cygwin. */
#ifndef AIOKERN_SYS_FEATURES_H
#define AIOKERN_SYS_FEATURES_H
#include_next <sys/features.h>

/* Each is what sysconf() answers for it (user/lib/posix.c); the library
 * that provides it: libc-glue (signals, clocks, files, memory), libpthread
 * (threads, barriers, locks, semaphores), librt (<aio.h>). */
#ifndef _POSIX_THREADS
#define _POSIX_THREADS			200809L
#endif
#ifndef _POSIX_THREAD_SAFE_FUNCTIONS
#define _POSIX_THREAD_SAFE_FUNCTIONS	200809L
#endif
#ifndef _POSIX_THREAD_ATTR_STACKADDR
#define _POSIX_THREAD_ATTR_STACKADDR	200809L
#endif
#ifndef _POSIX_THREAD_ATTR_STACKSIZE
#define _POSIX_THREAD_ATTR_STACKSIZE	200809L
#endif
#ifndef _POSIX_THREAD_PROCESS_SHARED
#define _POSIX_THREAD_PROCESS_SHARED	200809L
#endif
#ifndef _POSIX_REALTIME_SIGNALS
#define _POSIX_REALTIME_SIGNALS		200809L
#endif
#ifndef _POSIX_ASYNCHRONOUS_IO
#define _POSIX_ASYNCHRONOUS_IO		200809L
#endif
#ifndef _POSIX_SEMAPHORES
#define _POSIX_SEMAPHORES		200809L
#endif
#ifndef _POSIX_BARRIERS
#define _POSIX_BARRIERS			200809L
#endif
#ifndef _POSIX_SPIN_LOCKS
#define _POSIX_SPIN_LOCKS		200809L
#endif
#ifndef _POSIX_READER_WRITER_LOCKS
#define _POSIX_READER_WRITER_LOCKS	200809L
#endif
#ifndef _POSIX_TIMEOUTS
#define _POSIX_TIMEOUTS			200809L
#endif
#ifndef _POSIX_FSYNC
#define _POSIX_FSYNC			200809L
#endif
#ifndef _POSIX_SYNCHRONIZED_IO
#define _POSIX_SYNCHRONIZED_IO		200809L
#endif
#ifndef _POSIX_MAPPED_FILES
#define _POSIX_MAPPED_FILES		200809L
#endif
#ifndef _POSIX_MEMORY_PROTECTION
#define _POSIX_MEMORY_PROTECTION	200809L
#endif
#ifndef _POSIX_SHARED_MEMORY_OBJECTS
#define _POSIX_SHARED_MEMORY_OBJECTS	200809L
#endif
#endif
