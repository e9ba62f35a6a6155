/* poll.h: the poll table: how poll, ppoll, select and pselect6 wait on many files' wait queues at once. */
#ifndef POLL_H
#define POLL_H

#include "types.h"
#include "uapi/poll.h"
#include "wait.h"

struct file;
struct kiocb;
struct poll_table;

/* A poll table's own way to queue on a file's wait queue (IOCB_CMD_POLL);
 * NULL: the polling task waits there (poll, select). */
typedef void (*poll_queue_fn)(struct file *f, wait_queue_head_t *q, struct poll_table *pt);

/* One wait-queue registration of the polling task (it holds a file reference,
 * so the queue outlives it). */
struct poll_entry {
	wait_queue_entry_t wait;
	wait_queue_head_t *head;
	struct file *file;
	struct poll_table *pt;
};

/*
 * Filled by the files' ->poll methods on the first pass (poll_wait), emptied
 * when the call returns. A wake-up on any queue sets `triggered`, which the
 * sleeper tests after setting its state, so none is lost; a file that wants
 * more queues than there are entries sets `overflow`, and the sleeper then
 * looks again every tick instead.
 */
struct poll_table {
	struct poll_entry *entries;
	u32 nr, max;
	bool overflow;
	volatile bool triggered;
	poll_queue_fn qproc;		/* set: poll_wait hands the queue to it */
};

/* Queue the polling task on q until the call ends (a file's ->poll calls it,
 * process context, no sleeping lock held is needed). pt NULL: nothing to do. */
void poll_wait(struct file *f, wait_queue_head_t *q, struct poll_table *pt);

/* IOCB_CMD_POLL (the AIO core's dispatch): wait once for events (POLL*, with
 * POLLERR and POLLHUP always) on req's file. The ready mask when one is ready
 * now; -EIOCBQUEUED when the file's wake-up will complete it later (through
 * the system workqueue: the wake-up may come in interrupt context), and
 * io_cancel can withdraw it meanwhile; -EINVAL for a file without ->poll or
 * one that uses more than one wait queue; -ENOMEM. Process context. */
long aio_poll_start(struct kiocb *req, u16 events);

/* What a file without ->poll reports: always readable and writable. */
#define DEFAULT_POLLMASK	(POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

#endif
