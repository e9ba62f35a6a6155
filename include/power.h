/* power.h: leaving the machine: QEMU's isa-debug-exit device. */
#ifndef POWER_H
#define POWER_H

#include "types.h"

/* Values written to isa-debug-exit; QEMU exits with (value << 1) | 1. */
#define EXIT_PASS	0x10	/* shell sees 33 */
#define EXIT_FAIL	0x11	/* 35: some test failed */
#define EXIT_PANIC	0x12	/* 37: kernel panic */

void machine_exit(u32 code) __noreturn;

#endif
