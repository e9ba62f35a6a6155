/* boottime.h: the boot timeline: TSC stamps of the boot's phases, printed once when init starts. */
#ifndef BOOTTIME_H
#define BOOTTIME_H

/* Record that the boot reached `what` (a string literal), stamped with the raw
 * TSC. Usable before time_init (the stamp is converted when printed). Boot
 * task only; the marks beyond the table's size are dropped. */
void boot_mark(const char *what);

/* Print the timeline as one "boot: ..." line (ms since the machine's reset, by
 * the TSC); after time_init. */
void boot_timeline_print(void);

#endif
