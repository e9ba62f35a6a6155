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
/* End the current process with a wait status (exit code << 8, or a signal). */
void do_exit(int wait_status) __noreturn;
/* Queue a signal for t; a fatal one ends it at its next return to user mode,
 * and any signal interrupts an interruptible sleep. A signal for init is
 * dropped (there are no handlers, so init handles none: Linux's rule for a
 * signal sent to init from inside its namespace, SIGKILL included).
 * 0 (also when dropped) or -EINVAL. */
int signal_send(struct task *t, int sig);
/* On the way back to user mode: act on pending signals (may not return). */
void signal_deliver(struct trap_frame *tf);
/* A fault in user mode that is not resolvable: report and kill (no return). */
void user_fault_kill(struct trap_frame *tf, u32 addr, int sig) __noreturn;
/* The trap frame of the current process's entry from user mode. */
struct trap_frame *current_user_frame(void);
void syscall_init(void);
/* True when a child of t matching pid (-1: any) is a zombie. */
bool child_has_exited(struct task *t, int pid);
/* exec from a kernel thread (strings in kernel memory). */
long kernel_execve(const char *path, char *const argv[], char *const envp[]);

#endif
