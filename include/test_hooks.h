/* test_hooks.h: the test kernel's hooks into ordinary kernel paths; no-ops in the shipped kernel.
 *
 * Two kernels are built from one source (Makefile): build/kernel.elf ships (make run,
 * the ISO) and build/kernel-test.elf is compiled with CONFIG_KTEST and links the
 * in-kernel suites (kernel/ktest.c, kernel/tests/), the crash= switch
 * (kernel/crash.c) and the hooks below (kernel/test_hooks.c). Ordinary code calls the
 * hooks unconditionally; without CONFIG_KTEST they are the inline stubs at the end,
 * which compile to nothing, so the shipped kernel has no test symbol
 * (tools/shipped_check.sh asserts it in make test).
 */
#ifndef TEST_HOOKS_H
#define TEST_HOOKS_H

#include "cmdline.h"
#include "printk.h"
#include "types.h"

struct trap_frame;

#ifdef CONFIG_KTEST

/* Boot, after the initramfs: crash= faults on purpose (kernel/crash.c), then the
 * suites ktest= selects run and report KTAP (kernel/ktest.c). Process context. */
void ktest_boot(void);
/* Kernel cases that failed this boot (a ktest= naming no suite counts as one);
 * poweroff and a boot without init report a failure when it is not 0. */
int ktest_boot_failures(void);

/* Called first for every exception (kernel/trap.c); a suite sets it to see
 * traps it provokes and returns true when it handled one (it may move tf->eip). */
extern bool (*trap_test_hook)(struct trap_frame *tf);
static inline bool ktest_trap_hook(struct trap_frame *tf)
{
	return trap_test_hook && trap_test_hook(tf);
}

/* fork, between reading a pinned page's pin count and copying the page
 * (kernel/mm/vm_fork.c): spin fork_pin_delay=N pauses so that I/O completions land in
 * that window (plan entry blk_fork_pin). Any context. */
void ktest_fork_pin_delay(void);

/* kill, tkill, tgkill (kernel/signal_calls.c kill_task), between the look-up
 * of the task by pid and its use: spin kill_delay=N pauses so that a reaper
 * on another CPU may free the task in that window, were the two not one step
 * under tasklist_lock (plan entry kill_reap_smp). Interrupts off. */
void ktest_kill_delay(void);

/* A POSIX timer's signal to its process (kernel/posix_timer.c timer_send),
 * between the read of the group's leader and its use: when that leader is
 * a zombie (a thread's exec may be about to free it), spin
 * timer_send_delay=N pauses (plan entry exec_timers_smp). Softirq. */
void ktest_timer_send_delay(bool zombie);

/* Called at each poll of a TSC calibration window (kernel/time.c), between the
 * TSC read and the port read it brackets, with the window's start; the clock
 * suite sets it to stall there as a descheduled emulator would. */
extern void (*tsc_cal_test_hook)(u64 start);
static inline void ktest_tsc_cal_hook(u64 start)
{
	if (tsc_cal_test_hook)
		tsc_cal_test_hook(start);
}

/* do_exit, after the last of its work and before the task becomes a zombie:
 * with exit_yield on the command line, give the CPU away there, as a
 * preemption at that point would (plan entry proc_exit_yield: a parent
 * sleeping in wait4 must still see the exit). Process context. */
void ktest_exit_yield(void);

/* io_destroy (aio/ioctx.c ioctx_end), just after the context is unlinked and
 * before its ring is unmapped: with destroy_yield on the command line, give
 * the CPU away there, as a preemption would (plan entry aio_destroy_yield:
 * another thread's io_setup must not be given that ring's range while it is
 * still to be unmapped). Process context, no spinlock held. */
void ktest_destroy_yield(void);

/* read/write on an O_NONBLOCK file (kernel/fs/read_write.c rw_one), after its
 * poll said it would not block and before the file's method runs: with
 * nonblock_yield on the command line, give the CPU away there, as a
 * preemption would (plan entry pipe_nonblock_yield: another thread empties
 * the pipe meanwhile; the read must still not sleep). Process context. */
void ktest_nonblock_yield(void);

/* A synchronous kiocb's completion (aio/kiocb.c), after ki_users is cleared
 * and before the waiter is woken, interrupts off; the smp suite sets it to
 * hold the completer there while the waiter looks on another CPU. */
extern void (*sync_wake_test_hook)(void);
static inline void ktest_sync_wake_hook(void)
{
	if (sync_wake_test_hook)
		sync_wake_test_hook();
}

#else /* the shipped kernel */

/* It has no suites: a ktest= on its command line is reported and counts as a failure. */
static inline bool ktest_unavailable(void)
{
	return cmdline_get(&boot_cmdline, "ktest") != NULL;
}

static inline void ktest_boot(void)
{
	if (ktest_unavailable())
		pr_warn("ktest=: this kernel has no test suites (they are in kernel-test.elf)\n");
}

static inline int ktest_boot_failures(void)
{
	return ktest_unavailable();
}

static inline bool ktest_trap_hook(struct trap_frame *tf)
{
	return false;
}

static inline void ktest_fork_pin_delay(void)
{
}

static inline void ktest_kill_delay(void)
{
}

static inline void ktest_timer_send_delay(bool zombie)
{
}

static inline void ktest_tsc_cal_hook(u64 start)
{
}

static inline void ktest_sync_wake_hook(void)
{
}

static inline void ktest_exit_yield(void)
{
}

static inline void ktest_nonblock_yield(void)
{
}

static inline void ktest_destroy_yield(void)
{
}

#endif /* CONFIG_KTEST */
#endif
