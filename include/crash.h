/* crash.h: deliberate kernel faults for testing the panic path ("crash=", test kernel only). */
#ifndef CRASH_H
#define CRASH_H

/* Crash in the way named ("pagefault", "divide", "panic", "invalid"); an
 * unknown or NULL name does nothing. Called by ktest_boot (kernel/ktest.c): the
 * shipped kernel has neither, and ignores crash=. */
void crash_if_asked(const char *how);

#endif
