/* panic.h: fatal-error reporting (reason, registers, symbolized backtrace). */
#ifndef PANIC_H
#define PANIC_H

#include "types.h"

struct trap_frame;

void panic(const char *fmt, ...) __printf(1, 2) __noreturn;
void panic_trap(struct trap_frame *tf, const char *fmt, ...) __printf(2, 3) __noreturn;
/* Print a backtrace by walking the frame-pointer chain from (eip, ebp). */
void dump_backtrace(u32 eip, u32 ebp);
void dump_trap_frame(const struct trap_frame *tf);

/* For tests: count panics instead of halting when set (see BUG_ON users). */
#define BUG_ON(cond) \
	do { if (unlikely(cond)) panic("BUG at %s:%d: %s", __FILE__, __LINE__, #cond); } while (0)

#endif
