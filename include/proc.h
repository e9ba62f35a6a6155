/* proc.h: user processes: creation (fork, the first process), exit, wait, signals. */
#ifndef PROC_H
#define PROC_H

#include "types.h"

struct task;
struct trap_frame;

/* Start the first user process running path (with argv) as pid 1 (PID_INIT). */
int proc_start_init(const char *path, char *const argv[]);
/* True for the first user process (the one proc_start_init started). Init
 * never exits: do_exit panics for it, and the signals it does not handle are
 * not delivered to it (signal_send). */
bool proc_is_init(const struct task *t);
/* Is t a user process (forked, or init), not a kernel thread? Still true
 * while it exits (its mm and files already gone), until it is reaped. */
bool task_is_process(const struct task *t);
/* End the current thread with a wait status (exit code << 8, or a signal);
 * the last thread of a group ends the process, and its parent is told. */
void do_exit(int wait_status) __noreturn;
/* Queue a thread-directed signal for t from the kernel (SIGPIPE): see
 * include/signal.h send_signal. A signal init has no handler for is dropped.
 * 0 (also when dropped) or -EINVAL. */
int signal_send(struct task *t, int sig);
/* On the way back to user mode: act on pending signals (may not return). */
void signal_deliver(struct trap_frame *tf);
/* Wake the tasks waiting in wait4 for children of parent's group. */
void proc_wake_waiters(struct task *parent);
/* End the calling thread / its whole group with a wait status. */
void do_exit_group(int wait_status) __noreturn;
/* Release a task's signal state (kthread.c's task_release calls it). */
void signal_task_release(struct task *t);
/* The trap frame of the current process's entry from user mode. */
struct trap_frame *current_user_frame(void);
void syscall_init(void);
/* True when a child of t matching pid (-1: any) is a zombie. */
bool child_has_exited(struct task *t, int pid);
/* exec from a kernel thread (strings in kernel memory). */
long kernel_execve(const char *path, char *const argv[], char *const envp[]);

#endif
