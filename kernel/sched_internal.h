/* sched_internal.h: what sched.c and kthread.c share, not exported further. */
#ifndef SCHED_INTERNAL_H
#define SCHED_INTERNAL_H

#include "sched.h"
#include "wait.h"

extern struct task *idle_task;
/* Woken whenever a task becomes a zombie (kthread_stop sleeps on it). */
extern wait_queue_head_t task_exit_wait;

/* Finish a switch on the new task's side: release rq_lock, enable interrupts. */
void sched_tail(void);
/* Link the boot task (kmain) into the task list with its FPU area. */
void task_setup_init(struct task *t);

#endif
