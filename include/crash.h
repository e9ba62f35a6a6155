/* crash.h: deliberate kernel faults for testing the panic path ("crash=" switch). */
#ifndef CRASH_H
#define CRASH_H

/* Crash in the way named ("pagefault", "divide", "panic", "invalid"); an
 * unknown or NULL name does nothing. Test-only: never given in normal boots. */
void crash_if_asked(const char *how);

#endif
