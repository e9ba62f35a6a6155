/* sysrq.h: debug dumps the console can ask for (a break on the serial line). */
#ifndef SYSRQ_H
#define SYSRQ_H

/* Print every task (pid, name, state, wait channel, kernel backtrace), ending
 * with "---[ end show tasks ]---". For hangs: QEMU's chardev-send-break
 * serial0 (make test does it on a timeout), or Ctrl-a b with -serial mon:stdio.
 * Hard interrupt context or interrupts off; takes no lock. */
void show_tasks(void);

#endif
