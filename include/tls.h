/* tls.h: per-thread TLS segments: set_thread_area, CLONE_SETTLS, and their GDT entries at a switch (kernel/tls.c). */
#ifndef TLS_H
#define TLS_H

#include "types.h"

struct task;
struct user_desc;

/* Install u (entry_number -1: the first free slot, written back to u) in
 * t's TLS slots. 0, -EINVAL (bad entry or descriptor), -ESRCH (no free slot). */
int tls_set(struct task *t, struct user_desc *u);
/* Load next's TLS descriptors into the GDT if they differ from what is there
 * (a kernel thread keeps what is loaded). Interrupts off (context switch). */
void tls_switch(struct task *next);
/* Is sel (ring 3, GDT) a TLS selector of the current thread with a present
 * descriptor? (rt_sigreturn's check of FS/GS.) */
bool tls_selector_ok(u32 sel);
/* exec: the new image starts without TLS. */
void tls_clear(struct task *t);

#endif
