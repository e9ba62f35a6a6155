/* signalfd.h: signal files (kernel/fs/signalfd.c): the hook signal sending calls. */
#ifndef SIGNALFD_H
#define SIGNALFD_H

/* A signal was made pending (send_signal, sighand->lock held, any context):
 * wake the readers and pollers of signal files, who look again at their own
 * pending sets. Cheap when nobody waits. */
void signalfd_notify(void);

#endif
