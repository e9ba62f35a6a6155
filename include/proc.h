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
/* Process groups (kernel/pgrp.c): kill(-pgid) (pgid > 0) or kill(-1) (pgid
 * 0: every process but init and the caller's); 0 if one took it, else the
 * last error or -ESRCH. Thread context. */
struct kernel_siginfo;
long pgrp_kill(int pgid, int sig, const struct kernel_siginfo *info);
/* Does child c match a wait's target (P_ALL; P_PID id; P_PGID id)? */
bool pgrp_child_matches(const struct task *c, int type, int id);
/* exec from a kernel thread (strings in kernel memory). */
long kernel_execve(const char *path, char *const argv[], char *const envp[]);

#endif
