/* eventfd.h: eventfd files (eventfd/eventfd2): a 64-bit counter that AIO
 * completions (IOCB_FLAG_RESFD) signal from any context. */
#ifndef EVENTFD_H
#define EVENTFD_H

#include "types.h"

struct file;

#define EFD_SEMAPHORE	1		/* read takes 1, not the whole count */
#define EFD_CLOEXEC	O_CLOEXEC
#define EFD_NONBLOCK	O_NONBLOCK

/* The eventfd behind descriptor fd, with a file reference: ERR_PTR(-EBADF)
 * for no descriptor, ERR_PTR(-EINVAL) for a file that is no eventfd. */
struct file *eventfd_fget(int fd);
/* Add n to the counter (it stops at 2^64 - 1, which read then reports as an
 * overflow through POLLERR) and wake readers and pollers. Any context,
 * interrupt handlers included (the counter's lock is irq-safe). */
void eventfd_signal(struct file *f, u64 n);

#endif
