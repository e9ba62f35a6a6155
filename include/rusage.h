/* rusage.h: process times: user/system time from run time and tick samples, times, getrusage and wait4's report. */
#ifndef RUSAGE_H
#define RUSAGE_H

#include "types.h"
#include "uapi/resource.h"

struct task;
struct signal_struct;

/* A thread leaves its group: its times go to the group's dead-thread sums
 * (sighand lock held, as signal_thread_exit holds it). */
void rusage_thread_exit(struct task *t, struct signal_struct *s);
/* The parent reaps the group of c: c's times and its own reaped children's
 * go to the parent's children sums. Thread context. */
void rusage_reap(struct task *parent, struct task *c);
/* CPU time of the calling thread (exact) or of its whole group (its other
 * running threads up to their CPU's last tick), in ns:
 * CLOCK_THREAD_CPUTIME_ID, CLOCK_PROCESS_CPUTIME_ID. */
u64 rusage_cpu_ns(bool thread);
/* The usage of c's group and its reaped children, for wait4. */
void rusage_of_child(struct task *c, struct kernel_rusage *ru);

#endif
