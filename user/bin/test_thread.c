/* test_thread.c: the "thread" suite: raw clone, thread groups, TLS, exit and exit_group, vfork, exec from a thread, stop/continue, and bad input (flags, stacks, forged signal frames, handlers in kernel space). */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lx_syscall.h"
#include "utest.h"

/*
 * Raw system calls with the kernel's (Linux i386) numbers, signal numbers and
 * -errno values, so that the suite means the same on aiokern and under
 * qemu-i386 on Linux. Threads made here run without a C library: they touch
 * only volatile words and make raw calls.
 */
#define NR_EXIT		1
#define NR_KILL		37
#define NR_WAIT4	114
#define NR_CLONE	120
#define NR_GETPID	20
#define NR_RT_SIGRETURN	173
#define NR_RT_SIGACTION	174
#define NR_RT_SIGPROCMASK 175
#define NR_VFORK	190
#define NR_GETTID	224
#define NR_TKILL	238
#define NR_FUTEX	240
#define NR_SET_THREAD_AREA 243
#define NR_EXIT_GROUP	252
#define NR_NANOSLEEP	162
#define NR_EXECVE	11

#define K_SIGKILL	9
#define K_SIGUSR1	10
#define K_SIGSEGV	11
#define K_SIGTERM	15
#define K_SIGCONT	18
#define K_SIGSTOP	19
#define K_SIGQUIT	3
#define K_EINVAL	22
#define K_EAGAIN	11
#define K_ESRCH		3

#define K_CLONE_VM	0x00000100
#define K_CLONE_FS	0x00000200
#define K_CLONE_FILES	0x00000400
#define K_CLONE_SIGHAND	0x00000800
#define K_CLONE_VFORK	0x00004000
#define K_CLONE_THREAD	0x00010000
#define K_CLONE_NEWNS	0x00020000
#define K_CLONE_SETTLS	0x00080000
#define K_CLONE_PARENT_SETTID	0x00100000
#define K_CLONE_CHILD_CLEARTID	0x00200000
#define K_CLONE_SYSVSEM	0x00040000
#define THREAD_FLAGS	(K_CLONE_VM | K_CLONE_FS | K_CLONE_FILES | K_CLONE_SIGHAND | K_CLONE_THREAD | \
			 K_CLONE_SYSVSEM)

#define K_WUNTRACED	2
#define K_WCONTINUED	8
#define K_WNOHANG	1

#define STACK_SIZE	(64 * 1024)

struct k_user_desc {
	unsigned entry_number, base_addr, limit, flags;
};

/* clone(flags, stack, ptid, tls, ctid) whose child runs fn(arg) on stack and
 * exits the thread with fn's result. Returns the child's tid or -errno. */
long tclone(unsigned long flags, void *stack_top, int *ptid, void *tls, int *ctid,
	    long (*fn)(void *), void *arg);
__asm__(".text\n"
	".globl tclone\n"
	"tclone:\n\t"
	"push %ebx\n\tpush %esi\n\tpush %edi\n\tpush %ebp\n\t"
	"mov 24(%esp), %ecx\n\t"	/* stack_top */
	"and $-16, %ecx\n\t"
	"sub $16, %ecx\n\t"
	"mov 44(%esp), %eax\n\t"	/* arg */
	"mov %eax, 0(%ecx)\n\t"
	"mov 40(%esp), %eax\n\t"	/* fn */
	"mov %eax, 4(%ecx)\n\t"
	"mov 20(%esp), %ebx\n\t"	/* flags */
	"mov 28(%esp), %edx\n\t"	/* ptid */
	"mov 32(%esp), %esi\n\t"	/* tls */
	"mov 36(%esp), %edi\n\t"	/* ctid */
	"mov $120, %eax\n\t"
	"int $0x80\n\t"
	"test %eax, %eax\n\t"
	"jz 1f\n\t"
	"pop %ebp\n\tpop %edi\n\tpop %esi\n\tpop %ebx\n\t"
	"ret\n"
	"1:\txor %ebp, %ebp\n\t"
	"mov 4(%esp), %eax\n\t"
	"call *%eax\n\t"
	"mov %eax, %ebx\n\t"
	"mov $1, %eax\n\t"		/* exit: this thread */
	"int $0x80\n\t"
	"hlt\n");

static long sys0(long nr)
{
	return lx_syscall(nr, 0, 0, 0, 0, 0);
}

static void raw_sleep_ms(long ms)
{
	long ts[2] = { ms / 1000, (ms % 1000) * 1000000L };

	lx_syscall(NR_NANOSLEEP, (long)ts, 0, 0, 0, 0);
}

static void *new_stack(void)
{
	char *p = mmap(0, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p + STACK_SIZE;
}

/* Wait until the kernel clears *ctid (CLONE_CHILD_CLEARTID) and wakes it. */
static void join_tid(volatile int *ctid)
{
	int v;

	while ((v = *ctid) != 0)
		lx_syscall(NR_FUTEX, (long)ctid, 0 /* FUTEX_WAIT, shared */, v, 0, 0);
}

static int raw_wait(int pid, int options)
{
	int st = -1;
	long r = lx_syscall(NR_WAIT4, pid, (long)&st, options, 0, 0);

	return r == pid ? st : r == 0 ? -2 : -1;
}

static volatile int seen_tid, seen_pid, shared_word;

static long thread_body(void *arg)
{
	seen_tid = (int)sys0(NR_GETTID);
	seen_pid = (int)sys0(NR_GETPID);
	shared_word = (int)(intptr_t)arg;
	return 0;
}

/* A thread shares memory, has its own tid and the group's pid; the kernel
 * stores its tid for the parent and clears it (with a futex wake) at exit. */
static int thread_shares_memory_and_ids(void)
{
	static volatile int ptid, ctid;
	void *stack = new_stack();
	long tid;

	CHECK(stack);
	ctid = -1;
	tid = tclone(THREAD_FLAGS | K_CLONE_PARENT_SETTID | K_CLONE_CHILD_CLEARTID, stack,
		     (int *)&ptid, 0, (int *)&ctid, thread_body, (void *)77);
	CHECK(tid > 0);
	CHECK_EQ(ptid, tid);
	join_tid(&ctid);
	CHECK_EQ(shared_word, 77);
	CHECK_EQ(seen_tid, tid);
	CHECK_EQ(seen_pid, getpid());
	CHECK(tid != getpid());
	CHECK_EQ(sys0(NR_GETTID), getpid());		/* thread 0's tid is the pid */
	return 0;
}

static long spin_body(void *arg)
{
	(void)arg;
	for (;;)
		raw_sleep_ms(5);
	return 0;
}

/* exit ends only the calling thread; exit_group ends the others too. */
static int exit_group_ends_every_thread(void)
{
	int pid, st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 3; i++)
			if (tclone(THREAD_FLAGS, new_stack(), 0, 0, 0, spin_body, 0) <= 0)
				lx_syscall(NR_EXIT_GROUP, 99, 0, 0, 0, 0);
		raw_sleep_ms(20);
		lx_syscall(NR_EXIT_GROUP, 7, 0, 0, 0, 0);
	}
	st = raw_wait(pid, 0);
	CHECK_EQ(st, 7 << 8);
	return 0;
}

static long late_exit_body(void *arg __attribute__((unused)))
{
	raw_sleep_ms(100);
	return 3;			/* the thread's own exit code: not the process's */
}

/* The leader's exit leaves a zombie the parent cannot reap while another
 * thread runs; the group still takes signals; the status is the leader's. */
static int group_reported_after_last_thread(void)
{
	int pid, st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (tclone(THREAD_FLAGS, new_stack(), 0, 0, 0, late_exit_body, 0) <= 0)
			lx_syscall(NR_EXIT_GROUP, 99, 0, 0, 0, 0);
		lx_syscall(NR_EXIT, 5, 0, 0, 0, 0);		/* only the leader */
	}
	raw_sleep_ms(30);
	CHECK_EQ(raw_wait(pid, K_WNOHANG), -2);		/* not yet */
	CHECK_EQ(lx_syscall(NR_KILL, pid, 0, 0, 0, 0), 0);	/* the group is alive */
	st = raw_wait(pid, 0);
	CHECK_EQ(st, 5 << 8);
	CHECK_EQ(lx_syscall(NR_KILL, pid, 0, 0, 0, 0), -K_ESRCH);
	return 0;
}

/* A fatal signal to the process ends every thread. */
static int fatal_signal_ends_the_group(void)
{
	int pid, st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 2; i++)
			tclone(THREAD_FLAGS, new_stack(), 0, 0, 0, spin_body, 0);
		spin_body(0);
	}
	raw_sleep_ms(30);
	CHECK_EQ(lx_syscall(NR_KILL, pid, K_SIGTERM, 0, 0, 0), 0);
	st = raw_wait(pid, 0);
	CHECK_EQ(st & 0x7f, K_SIGTERM);
	return 0;
}

static volatile unsigned tls_word_seen;

static long tls_body(void *arg __attribute__((unused)))
{
	unsigned v;

	__asm__ volatile("movl %%gs:0, %0" : "=r"(v));
	tls_word_seen = v;
	return 0;
}

/* CLONE_SETTLS gives the thread its own base in the same GDT slot. */
static int tls_per_thread(void)
{
	static unsigned block[4] = { 0x5eed1e55, 0, 0, 0 };
	static volatile int ctid;
	struct k_user_desc d = { (unsigned)-1, (unsigned)block, 0xfffff, 0x51 };
	unsigned gs, mine_before, mine_after;
	void *stack = new_stack();
	long tid;

	__asm__ volatile("movw %%gs, %w0" : "=r"(gs));
	gs &= 0xffff;					/* movw leaves the upper half alone */
	CHECK((gs & 3) == 3 && gs >> 3 >= 6);
	__asm__ volatile("movl %%gs:0, %0" : "=r"(mine_before));
	d.entry_number = gs >> 3;			/* the slot thread 0 uses */
	ctid = -1;
	tid = tclone(THREAD_FLAGS | K_CLONE_SETTLS | K_CLONE_CHILD_CLEARTID, stack, 0, &d,
		     (int *)&ctid, tls_body, 0);
	CHECK_EQ(tid > 0 ? 0 : tid, 0);
	join_tid(&ctid);
	CHECK_EQ(tls_word_seen, 0x5eed1e55);
	__asm__ volatile("movl %%gs:0, %0" : "=r"(mine_after));
	CHECK_EQ(mine_after, mine_before);		/* ours is untouched */
	d.entry_number = (unsigned)-1;			/* a free slot: not thread 0's */
	CHECK_EQ(lx_syscall(NR_SET_THREAD_AREA, (long)&d, 0, 0, 0, 0), 0);
	CHECK(d.entry_number >= 6 && d.entry_number <= 8 && d.entry_number != gs >> 3);
	d.entry_number = 3;				/* the user code segment: refused */
	CHECK_EQ(lx_syscall(NR_SET_THREAD_AREA, (long)&d, 0, 0, 0, 0), -K_EINVAL);
	return 0;
}

/* Linux's rules for flag combinations: a clean -EINVAL. */
static int unsupported_flags(void)
{
	void *stack = new_stack();

	CHECK_EQ(tclone(K_CLONE_VM | K_CLONE_THREAD, stack, 0, 0, 0, thread_body, 0), -K_EINVAL);
	CHECK_EQ(tclone(K_CLONE_SIGHAND, stack, 0, 0, 0, thread_body, 0), -K_EINVAL);
	CHECK_EQ(tclone(THREAD_FLAGS | K_CLONE_NEWNS, stack, 0, 0, 0, thread_body, 0), -K_EINVAL);
	return 0;
}

/* A child given a stack it cannot use dies of SIGSEGV; the kernel and the
 * parent go on. */
static int bad_stack_kills_the_child(void)
{
	static const unsigned long stacks[] = { 0x10, 0xC0000000, 0xFFFFF000 };

	for (unsigned i = 0; i < sizeof(stacks) / sizeof(stacks[0]); i++) {
		long pid;
		int st;

		__asm__ volatile("int $0x80\n\t"
				 "test %%eax, %%eax\n\t"
				 "jnz 1f\n\t"
				 "push %%eax\n\t"		/* the child: its first push faults */
				 "1:"
				 : "=a"(pid)
				 : "a"(NR_CLONE), "b"(17 /* SIGCHLD */), "c"(stacks[i]), "d"(0),
				   "S"(0), "D"(0)
				 : "memory");
		CHECK(pid > 0);
		st = raw_wait(pid, 0);
		CHECK_EQ(st & 0x7f, K_SIGSEGV);
	}
	return 0;
}

/* vfork: the parent sleeps until the child exits, in the shared memory. */
static int vfork_parent_waits(void)
{
	static volatile int order;
	long pid;

	fflush(stdout);
	order = 0;
	pid = sys0(NR_VFORK);
	if (pid == 0) {
		raw_sleep_ms(30);
		order = 1;
		lx_syscall(NR_EXIT, 4, 0, 0, 0, 0);
	}
	CHECK(pid > 0);
	CHECK_EQ(order, 1);				/* it ran to its exit first */
	CHECK_EQ(raw_wait(pid, 0), 4 << 8);
	return 0;
}

static char *helper_argv[] = { "/bin/helper", "exit", "6", NULL };

static long exec_body(void *arg __attribute__((unused)))
{
	raw_sleep_ms(20);
	lx_syscall(NR_EXECVE, (long)helper_argv[0], (long)helper_argv, 0, 0, 0);
	return 1;
}

/* exec from a thread: the other threads end, the new image runs as the
 * process (its pid), and the parent reaps it as before. */
static int exec_from_a_thread(void)
{
	int pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (tclone(THREAD_FLAGS, new_stack(), 0, 0, 0, exec_body, 0) <= 0)
			lx_syscall(NR_EXIT_GROUP, 99, 0, 0, 0, 0);
		spin_body(0);
	}
	CHECK_EQ(raw_wait(pid, 0), 6 << 8);
	return 0;
}

/* SIGSTOP stops, wait4 WUNTRACED reports it; SIGCONT continues, WCONTINUED
 * reports that; SIGQUIT's default ends with the core bit. */
static int stop_continue_and_core(void)
{
	int pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		spin_body(0);
	CHECK_EQ(lx_syscall(NR_KILL, pid, K_SIGSTOP, 0, 0, 0), 0);
	CHECK_EQ(raw_wait(pid, K_WUNTRACED), (K_SIGSTOP << 8) | 0x7f);
	CHECK_EQ(lx_syscall(NR_KILL, pid, K_SIGCONT, 0, 0, 0), 0);
	CHECK_EQ(raw_wait(pid, K_WCONTINUED), 0xffff);
	CHECK_EQ(lx_syscall(NR_KILL, pid, K_SIGQUIT, 0, 0, 0), 0);
	CHECK_EQ(raw_wait(pid, 0), K_SIGQUIT | 0x80);
	pid = fork();
	if (pid == 0)
		spin_body(0);
	CHECK_EQ(lx_syscall(NR_KILL, pid, K_SIGSTOP, 0, 0, 0), 0);
	CHECK_EQ(raw_wait(pid, K_WUNTRACED), (K_SIGSTOP << 8) | 0x7f);
	CHECK_EQ(lx_syscall(NR_KILL, pid, K_SIGKILL, 0, 0, 0), 0);	/* stopped, still killable */
	CHECK_EQ(raw_wait(pid, 0), K_SIGKILL);
	return 0;
}

/* ---- forged signal frames ---- */

struct k_sigcontext {
	unsigned gs, fs, es, ds, edi, esi, ebp, esp, ebx, edx, ecx, eax;
	unsigned trapno, err, eip, cs, eflags, esp_at_signal, ss;
	void *fpstate;
	unsigned long oldmask, cr2;
};

struct k_ucontext {
	unsigned long flags;
	void *link;
	void *ss_sp;
	int ss_flags;
	unsigned long ss_size;
	struct k_sigcontext mc;
	unsigned long mask[2];
};

struct k_rt_sigframe {
	void *pretcode;
	int sig;
	void *pinfo, *puc;
	unsigned char info[128];
	struct k_ucontext uc;
	unsigned char retcode[8];
};

static struct k_rt_sigframe forged;
static unsigned char landing_stack[4096] __attribute__((aligned(16)));

/* Where the forged frame returns: the segments and flags must be a user's. */
void forged_landing(void);
__asm__(".text\n"
	".globl forged_landing\n"
	"forged_landing:\n\t"
	"xor %ebx, %ebx\n\t"
	"mov %cs, %eax\n\tcmp $0x1b, %eax\n\tjne 9f\n\t"
	"mov %ss, %eax\n\tcmp $0x23, %eax\n\tjne 9f\n\t"
	"mov %ds, %eax\n\tcmp $0x23, %eax\n\tjne 9f\n\t"
	"pushf\n\tpop %eax\n\t"
	"test $0x3000, %eax\n\tjnz 9f\n\t"	/* IOPL 0 */
	"test $0x200, %eax\n\tjz 9f\n\t"	/* IF set */
	"test $0x24000, %eax\n\tjnz 9f\n\t"	/* NT, VM clear */
	"jmp 8f\n"
	"9:\tmov $1, %ebx\n"
	"8:\tmov $252, %eax\n\t"		/* exit_group(ebx) */
	"int $0x80\n\thlt\n");

static void sigreturn_with(struct k_rt_sigframe *f)
{
	__asm__ volatile("mov %0, %%esp\n\t"
			 "mov $173, %%eax\n\t"
			 "int $0x80\n\t"
			 "hlt" :: "r"((char *)f + 4) : "memory");
	__builtin_unreachable();
}

/* A frame that asks for kernel segments, IOPL 3, NT and VM gets user
 * segments and clean flags; a frame of garbage or at no address is SIGSEGV. */
static int forged_sigreturn_frames(void)
{
	int pid;
	unsigned gs;

	__asm__ volatile("movw %%gs, %w0" : "=r"(gs));
	gs &= 0xffff;
	memset(&forged, 0, sizeof(forged));
	forged.uc.mc.gs = gs;
	forged.uc.mc.ds = forged.uc.mc.es = forged.uc.mc.ss = 0x10;	/* kernel data */
	forged.uc.mc.cs = 0x08;						/* kernel code */
	forged.uc.mc.eflags = 0x3002 | 0x4000 | 0x20000;		/* IOPL 3, NT, VM, no IF */
	forged.uc.mc.eip = (unsigned)forged_landing;
	forged.uc.mc.esp = (unsigned)(landing_stack + sizeof(landing_stack) - 16);
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		sigreturn_with(&forged);
	CHECK_EQ(raw_wait(pid, 0), 0);			/* exit_group(0): all checks held */
	memset(&forged, 0xA5, sizeof(forged));		/* garbage: bad selectors, bad fpstate */
	pid = fork();
	if (pid == 0)
		sigreturn_with(&forged);
	CHECK_EQ(raw_wait(pid, 0) & 0x7f, K_SIGSEGV);
	pid = fork();
	if (pid == 0)
		sigreturn_with((struct k_rt_sigframe *)0x20);	/* nothing mapped */
	CHECK_EQ(raw_wait(pid, 0) & 0x7f, K_SIGSEGV);
	pid = fork();
	if (pid == 0)
		sigreturn_with((struct k_rt_sigframe *)0xC0001000);	/* the kernel's */
	CHECK_EQ(raw_wait(pid, 0) & 0x7f, K_SIGSEGV);
	return 0;
}

struct k_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	unsigned long mask[2];
};

/* A handler address in kernel space: the delivery faults in user mode, and
 * SIGSEGV (no handler) ends the process. */
static int handler_in_kernel_space(void)
{
	int pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct k_sigaction sa = { (void *)0xC0100000, 0x04000000 /* SA_RESTORER */,
					  (void *)0xC0100000, { 0, 0 } };
		if (lx_syscall(NR_RT_SIGACTION, K_SIGUSR1, (long)&sa, 0, 8, 0))
			lx_syscall(NR_EXIT_GROUP, 99, 0, 0, 0, 0);
		lx_syscall(NR_KILL, sys0(NR_GETPID), K_SIGUSR1, 0, 0, 0);
		lx_syscall(NR_EXIT_GROUP, 98, 0, 0, 0, 0);
	}
	CHECK_EQ(raw_wait(pid, 0) & 0x7f, K_SIGSEGV);
	return 0;
}

static volatile int old_hits, old_sig;

static void old_handler(int sig)
{
	old_hits++;
	old_sig = sig;
}

/* The restorer a C library gives a handler without SA_SIGINFO. */
void old_restorer(void);
__asm__(".text\n.globl old_restorer\nold_restorer:\n\t"
	"popl %eax\n\tmovl $119, %eax\n\tint $0x80\n\thlt\n");

/* A handler without SA_SIGINFO gets Linux's old frame and returns through
 * sigreturn (119), with its restorer or the frame's own code; the old
 * sigaction (67) reads and sets the same table; a blocked mask comes back. */
static int old_frame_and_old_sigaction(void)
{
	struct k_sigaction sa = { (void *)old_handler, 0x04000000, (void *)old_restorer, { 0, 0 } };
	struct { void *h; unsigned long mask, flags; void *restorer; } o;
	volatile long before = 0x1234abcd, after;
	unsigned long mask[2];

	CHECK_EQ(lx_syscall(NR_RT_SIGACTION, K_SIGUSR1, (long)&sa, 0, 8, 0), 0);
	CHECK_EQ(lx_syscall(NR_TKILL, sys0(NR_GETTID), K_SIGUSR1, 0, 0, 0), 0);
	after = before;
	CHECK_EQ(old_hits, 1);
	CHECK_EQ(old_sig, K_SIGUSR1);
	CHECK_EQ(after, 0x1234abcd);
	CHECK_EQ(lx_syscall(NR_RT_SIGPROCMASK, 2, 0, (long)mask, 8, 0), 0);
	CHECK_EQ(mask[0] & (1u << (K_SIGUSR1 - 1)), 0);	/* unblocked again */
	CHECK_EQ(lx_syscall(67, K_SIGUSR1, 0, (long)&o, 0, 0), 0);
	CHECK(o.h == (void *)old_handler && o.flags == 0x04000000);
	o.flags = 0;					/* no restorer: the frame's retcode */
	o.mask = 1u << (K_SIGTERM - 1);
	CHECK_EQ(lx_syscall(67, K_SIGUSR1, (long)&o, 0, 0, 0), 0);
	CHECK_EQ(lx_syscall(NR_TKILL, sys0(NR_GETTID), K_SIGUSR1, 0, 0, 0), 0);
	CHECK_EQ(old_hits, 2);
	CHECK_EQ(lx_syscall(NR_RT_SIGACTION, K_SIGUSR1, 0, (long)&sa, 8, 0), 0);
	CHECK(sa.handler == (void *)old_handler && sa.mask[0] == 1u << (K_SIGTERM - 1));
	CHECK_EQ(lx_syscall(67, K_SIGKILL, (long)&o, 0, 0, 0), -K_EINVAL);
	return 0;
}

#define NR_RT_SIGQUEUEINFO	178
#define NR_RT_SIGTIMEDWAIT	177
#define NR_RT_TGSIGQUEUEINFO	335
#define K_EPERM			1
#define K_SIGUSR2	12
#define K_SIGRT		40

static long queue_value(int sig, int value)
{
	int info[32] = { 0 };			/* siginfo: signo, errno, code, pid, uid, value */

	info[0] = sig;
	info[2] = -1;				/* SI_QUEUE */
	info[3] = (int)sys0(NR_GETPID);
	info[5] = value;
	return lx_syscall(NR_RT_SIGQUEUEINFO, sys0(NR_GETPID), sig, (long)info, 0, 0);
}

/* Real-time signals queue every instance, in order, each with its value; a
 * standard signal is pending once however often it is sent. */
static int realtime_signals_queue(void)
{
	unsigned long set[2] = { 0, 0 };
	long zero[2] = { 0, 0 };
	int info[32];

	set[(K_SIGRT - 1) / 32] |= 1u << ((K_SIGRT - 1) % 32);
	set[0] |= 1u << (K_SIGUSR2 - 1);
	CHECK_EQ(lx_syscall(NR_RT_SIGPROCMASK, 0 /* SIG_BLOCK */, (long)set, 0, 8, 0), 0);
	for (int v = 1; v <= 3; v++) {
		CHECK_EQ(queue_value(K_SIGRT, v), 0);
		CHECK_EQ(queue_value(K_SIGUSR2, v), 0);
	}
	CHECK_EQ(lx_syscall(NR_RT_SIGTIMEDWAIT, (long)set, (long)info, (long)zero, 8, 0), K_SIGUSR2);
	CHECK_EQ(info[5], 1);				/* the first one's siginfo */
	for (int v = 1; v <= 3; v++) {
		CHECK_EQ(lx_syscall(NR_RT_SIGTIMEDWAIT, (long)set, (long)info, (long)zero, 8, 0), K_SIGRT);
		CHECK_EQ(info[0], K_SIGRT);
		CHECK_EQ(info[2], -1);
		CHECK_EQ(info[5], v);
	}
	CHECK_EQ(lx_syscall(NR_RT_SIGTIMEDWAIT, (long)set, (long)info, (long)zero, 8, 0), -K_EAGAIN);
	return 0;
}

/* Linux's rule: a siginfo with a kernel code (>= 0) or SI_TKILL may be forged
 * only towards the caller's own process; EPERM towards another. */
static int queueinfo_codes_checked(void)
{
	unsigned long set[2] = { 0, 0 };
	long zero[2] = { 0, 0 };
	int info[32] = { 0 }, st;
	pid_t child;

	set[(K_SIGRT - 1) / 32] |= 1u << ((K_SIGRT - 1) % 32);
	CHECK_EQ(lx_syscall(NR_RT_SIGPROCMASK, 0 /* SIG_BLOCK */, (long)set, 0, 8, 0), 0);
	info[2] = 0;					/* SI_USER, to ourselves */
	info[5] = 5;
	CHECK_EQ(lx_syscall(NR_RT_SIGQUEUEINFO, sys0(NR_GETPID), K_SIGRT, (long)info, 0, 0), 0);
	CHECK_EQ(lx_syscall(NR_RT_SIGTIMEDWAIT, (long)set, (long)info, (long)zero, 8, 0), K_SIGRT);
	CHECK_EQ(info[2], 0);
	CHECK_EQ(info[5], 5);
	child = fork();
	if (child == 0) {
		int bad = 0;
		long parent = getppid();

		for (int code = -6; code <= 0x80; code += 0x80 + 6) {	/* SI_TKILL, SI_KERNEL */
			info[2] = code;
			bad |= lx_syscall(NR_RT_SIGQUEUEINFO, parent, K_SIGRT, (long)info, 0, 0) != -K_EPERM;
			bad |= lx_syscall(NR_RT_TGSIGQUEUEINFO, parent, parent, K_SIGRT, (long)info, 0) != -K_EPERM;
		}
		info[2] = 0;
		bad |= lx_syscall(NR_RT_SIGQUEUEINFO, parent, K_SIGRT, (long)info, 0, 0) != -K_EPERM;
		_exit(bad);
	}
	CHECK(child > 0);
	CHECK_EQ(waitpid(child, &st, 0), child);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK_EQ(lx_syscall(NR_RT_SIGTIMEDWAIT, (long)set, (long)info, (long)zero, 8, 0), -K_EAGAIN);
	return 0;
}

/* rt_tgsigqueueinfo (335): to one thread of the group, queued with its value;
 * EINVAL for ids <= 0, ESRCH for a thread of another group. */
static int tgsigqueueinfo_to_a_thread(void)
{
	unsigned long set[2] = { 0, 0 };
	long zero[2] = { 0, 0 }, pid = sys0(NR_GETPID), tid = sys0(NR_GETTID);
	int info[32] = { 0 };

	set[(K_SIGRT - 1) / 32] |= 1u << ((K_SIGRT - 1) % 32);
	CHECK_EQ(lx_syscall(NR_RT_SIGPROCMASK, 0 /* SIG_BLOCK */, (long)set, 0, 8, 0), 0);
	info[2] = -1;					/* SI_QUEUE */
	for (int v = 1; v <= 2; v++) {
		info[5] = v;
		CHECK_EQ(lx_syscall(NR_RT_TGSIGQUEUEINFO, pid, tid, K_SIGRT, (long)info, 0), 0);
	}
	for (int v = 1; v <= 2; v++) {
		CHECK_EQ(lx_syscall(NR_RT_SIGTIMEDWAIT, (long)set, (long)info, (long)zero, 8, 0), K_SIGRT);
		CHECK_EQ(info[5], v);
	}
	info[2] = -1;
	CHECK_EQ(lx_syscall(NR_RT_TGSIGQUEUEINFO, 0, tid, K_SIGRT, (long)info, 0), -K_EINVAL);
	CHECK_EQ(lx_syscall(NR_RT_TGSIGQUEUEINFO, pid, -1, K_SIGRT, (long)info, 0), -K_EINVAL);
	CHECK_EQ(lx_syscall(NR_RT_TGSIGQUEUEINFO, pid, tid, 65, (long)info, 0), -K_EINVAL);
	CHECK_EQ(lx_syscall(NR_RT_TGSIGQUEUEINFO, pid + 100000, tid, K_SIGRT, (long)info, 0), -K_ESRCH);
	return 0;
}

static sigjmp_buf fault_env;
static volatile int *volatile nothing_there = (int *)0x30;
static volatile int fault_code;
static volatile void *fault_addr;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	fault_code = si->si_code;
	fault_addr = si->si_addr;
	siglongjmp(fault_env, sig);
}

/* A write to a read-only mapping is SEGV_ACCERR, to nothing SEGV_MAPERR,
 * each with the address. */
static int fault_codes(void)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO };
	volatile char *ro = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(ro != MAP_FAILED);
	sa.sa_sigaction = on_fault;
	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(SIGSEGV, &sa, 0), 0);
	if (sigsetjmp(fault_env, 1) == 0)
		ro[100] = 1;
	CHECK_EQ(fault_code, 2);			/* SEGV_ACCERR */
	CHECK(fault_addr == ro + 100);
	if (sigsetjmp(fault_env, 1) == 0)
		*nothing_there = 1;
	CHECK_EQ(fault_code, 1);			/* SEGV_MAPERR */
	CHECK(fault_addr == (void *)0x30);
	return 0;
}

/* A signal whose frame cannot be written (the stack pointer at nothing):
 * SIGSEGV with its default action, even with a SIGSEGV handler. */
static int unwritable_frame_is_sigsegv(void)
{
	int pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct k_sigaction sa = { (void *)old_handler, 0x04000000, (void *)old_restorer,
					  { 0, 0 } };
		long tid = sys0(NR_GETTID);

		lx_syscall(NR_RT_SIGACTION, K_SIGUSR1, (long)&sa, 0, 8, 0);
		lx_syscall(NR_RT_SIGACTION, K_SIGSEGV, (long)&sa, 0, 8, 0);
		__asm__ volatile("mov $0x10, %%esp\n\t"
				 "int $0x80\n\t"
				 "hlt"
				 :: "a"(NR_TKILL), "b"(tid), "c"(K_SIGUSR1) : "memory");
	}
	CHECK_EQ(raw_wait(pid, 0) & 0x7f, K_SIGSEGV);
	return 0;
}

/* tkill to a thread id that is not there: ESRCH; kill and tkill of signal
 * 0 test existence only. */
static int signals_to_ids(void)
{
	CHECK_EQ(lx_syscall(NR_TKILL, sys0(NR_GETTID), 0, 0, 0, 0), 0);
	CHECK_EQ(lx_syscall(NR_TKILL, 0x7ffffff0, 0, 0, 0, 0), -K_ESRCH);
	CHECK_EQ(lx_syscall(NR_KILL, getpid(), 65, 0, 0, 0), -K_EINVAL);
	return 0;
}

static const struct utest_case cases[] = {
	UTEST(thread_shares_memory_and_ids),
	UTEST(exit_group_ends_every_thread),
	UTEST(group_reported_after_last_thread),
	UTEST(fatal_signal_ends_the_group),
	UTEST(tls_per_thread),
	UTEST(unsupported_flags),
	UTEST(bad_stack_kills_the_child),
	UTEST(vfork_parent_waits),
	UTEST(exec_from_a_thread),
	UTEST(stop_continue_and_core),
	UTEST(forged_sigreturn_frames),
	UTEST(handler_in_kernel_space),
	UTEST(signals_to_ids),
	UTEST(old_frame_and_old_sigaction),
	UTEST(realtime_signals_queue),
	UTEST(queueinfo_codes_checked),
	UTEST(tgsigqueueinfo_to_a_thread),
	UTEST(fault_codes),
	UTEST(unwritable_frame_is_sigsegv),
};

int main(int argc, char **argv)
{
	return utest_main(argc, argv, "thread", cases, sizeof(cases) / sizeof(cases[0]));
}
