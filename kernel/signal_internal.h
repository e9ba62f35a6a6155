/* signal_internal.h: what kernel/signal.c and kernel/signal_calls.c share (kernel/fs/signalfd.c too: dequeue_signal): the signal sets by default action, and the queue helpers (all with sighand->lock held). */
#ifndef SIGNAL_INTERNAL_H
#define SIGNAL_INTERNAL_H

#include "signal.h"

#define SIG_IGNORE_SET	(SIGBIT(SIGCHLD) | SIGBIT(SIGURG) | SIGBIT(SIGWINCH) | SIGBIT(SIGCONT))
#define SIG_CORE_SET	(SIGBIT(SIGQUIT) | SIGBIT(SIGILL) | SIGBIT(SIGTRAP) | SIGBIT(SIGABRT) | \
			 SIGBIT(SIGBUS) | SIGBIT(SIGFPE) | SIGBIT(SIGSEGV) | SIGBIT(SIGXCPU) | \
			 SIGBIT(SIGXFSZ) | SIGBIT(SIGSYS))
#define SIG_SYNC_SET	(SIGBIT(SIGSEGV) | SIGBIT(SIGBUS) | SIGBIT(SIGILL) | SIGBIT(SIGTRAP) | \
			 SIGBIT(SIGFPE) | SIGBIT(SIGSYS))
#define ALL_SIGS	(~0ull)

bool sig_valid(int sig);
/* Would the signal be dropped at once (ignored and not blocked; for init,
 * anything it has no handler for)? */
bool sig_ignored(struct task *t, int sig);
/* Set t->sigpending from what it can take now. */
void recalc_sigpending_tsk(struct task *t);
/* Remove the signals in mask from a pending set and its queue. */
void flush_sigs(u64 *set, struct list_head *q, u64 mask, struct signal_struct *s);
/* The next signal not in blocked, its siginfo in info: thread-directed first. */
int dequeue_signal(struct task *t, u64 blocked, struct kernel_siginfo *info);

#endif
