/* test_vsyscall.c: the "vsyscall" suite: the system-call entry page, SYSENTER and its odd cases.
 *
 * Usage: test_vsyscall sysenter|int80 [case]. The word says which trampoline
 * the kernel should have put in the page (int80: a boot with nosysenter).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "uapi/vsyscall.h"
#include "utest.h"

#define NR_GETPID	20
#define NR_MMAP2	192
#define EFLAGS_TF	0x100
#define EFLAGS_NT	0x4000

static const unsigned char tramp_sysenter[] = { 0x55, 0x89, 0xe5, 0x0f, 0x34, 0xeb, 0xfa, 0x5d, 0xc3 };
static const unsigned char tramp_int80[] = { 0xcd, 0x80, 0xc3 };
static int want_sysenter;

static const unsigned char *page(void)
{
	return (const unsigned char *)VSYSCALL_ENTRY;
}

/* A call through the page, as the generated stubs make it (ebx, ecx, edx kept simple). */
static long vcall(long nr, long a, long b, long c)
{
	long r;

	asm volatile("call *%[entry]"
		     : "=a"(r), "+b"(a), "+c"(b), "+d"(c)
		     : "0"(nr), [entry] "r"(VSYSCALL_ENTRY) : "memory", "cc");
	return r;
}

static long int80(long nr)
{
	long r;

	asm volatile("int $0x80" : "=a"(r) : "a"(nr) : "memory");
	return r;
}

static int wait_signal(pid_t pid)
{
	int st = -1;

	if (waitpid(pid, &st, 0) != pid || !WIFSIGNALED(st))
		return -1;
	return WTERMSIG(st);
}

static int page_holds_the_trampoline(void)
{
	const unsigned char *want = want_sysenter ? tramp_sysenter : tramp_int80;
	size_t n = want_sysenter ? sizeof(tramp_sysenter) : sizeof(tramp_int80);

	CHECK(memcmp(page(), want, n) == 0);
	CHECK_EQ(page()[n], 0xcc);			/* the rest of the page traps */
	return 0;
}

static int page_is_read_only(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		*(volatile unsigned char *)VSYSCALL_ENTRY = 0x90;
		_exit(0);
	}
	CHECK_EQ(wait_signal(pid), SIGSEGV);
	CHECK(page()[0] == (want_sysenter ? 0x55 : 0xcd));	/* unchanged */
	return 0;
}

static int same_answers_as_int80(void)
{
	CHECK_EQ(vcall(NR_GETPID, 0, 0, 0), int80(NR_GETPID));
	CHECK_EQ(vcall(NR_GETPID, 0, 0, 0), getpid());
	CHECK_EQ(vcall(999, 0, 0, 0), -38);		/* ENOSYS, as int $0x80 says */
	CHECK_EQ(vcall(-1, 0, 0, 0), -38);
	/* write(1, "", 0) through the page: three arguments arrive */
	CHECK_EQ(vcall(4, 1, (long)"", 0), 0);
	CHECK_EQ(vcall(4, -1, (long)"", 0), -9);	/* EBADF */
	return 0;
}

static int callee_saved_registers_kept(void)
{
	long bx = 0x1234, si = 0x5678, di = 0x9abc, bp_same = 0, r;

	/* esi, edi, ebx and ebp must come back as they went in */
	asm volatile("push %%ebp\n\t"
		     "mov %%esp, %%ebp\n\t"
		     "push %%ebp\n\t"
		     "call %P[entry]\n\t"
		     "pop %%ecx\n\t"
		     "xor %%edx, %%edx\n\t"
		     "cmp %%ecx, %%ebp\n\t"
		     "sete %%dl\n\t"
		     "pop %%ebp"
		     : "=a"(r), "+b"(bx), "+S"(si), "+D"(di), "=d"(bp_same)
		     : "0"(NR_GETPID), [entry] "i"(VSYSCALL_ENTRY)
		     : "ecx", "memory", "cc");
	CHECK_EQ(r, getpid());
	CHECK_EQ(bx, 0x1234);
	CHECK_EQ(si, 0x5678);
	CHECK_EQ(di, 0x9abc);
	CHECK_EQ(bp_same, 1);
	return 0;
}

/* SYSENTER itself with TF or NT set in the flags ring 3 hands the kernel:
 * the call still answers and the process goes on. */
static long sysenter_with_flags(unsigned long set)
{
	long r;

	asm volatile("push %%ebp\n\t"
		     "call 1f\n\t"
		     "jmp 2f\n"
		     "1:\tpush %%ebp\n\t"		/* what the trampoline does */
		     "mov %%esp, %%ebp\n\t"
		     "pushf\n\t"
		     "or %[set], (%%esp)\n\t"
		     "popf\n\t"
		     "sysenter\n"
		     "2:\tpop %%ebp"
		     : "=a"(r) : "0"(NR_GETPID), [set] "r"(set) : "ecx", "edx", "memory", "cc");
	return r;
}

static unsigned long flags_now(void)
{
	unsigned long f;

	asm volatile("pushf; pop %0" : "=r"(f));
	return f;
}

static int sysenter_with_trap_flag(void)
{
	CHECK_EQ(sysenter_with_flags(EFLAGS_TF), getpid());
	CHECK(!(flags_now() & EFLAGS_TF));		/* dropped on the way in */
	return 0;
}

static int sysenter_with_nested_task_flag(void)
{
	unsigned long f;

	CHECK_EQ(sysenter_with_flags(EFLAGS_NT), getpid());
	f = flags_now();
	asm volatile("pushf; andl %0, (%%esp); popf" :: "i"(~EFLAGS_NT) : "memory", "cc");
	CHECK(f & EFLAGS_NT);				/* ring 3 gets its flag back */
	return 0;
}

/* SYSENTER with ebp pointing into the kernel or at nothing: the kernel
 * answers (-EFAULT for a call that needs the pushed word) and the return to
 * the trampoline's pop faults in ring 3: SIGSEGV for that process only. */
static int sysenter_with_bad_stack(void)
{
	static const long nrs[] = { NR_GETPID, NR_MMAP2 };
	static const unsigned long bps[] = { 0xC0000000, 0xFFFFFFFC, 0x10 };

	for (unsigned i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++)
		for (unsigned j = 0; j < sizeof(bps) / sizeof(bps[0]); j++) {
			pid_t pid = fork();

			if (pid == 0) {
				asm volatile("mov %1, %%ebp\n\tsysenter"
					     :: "a"(nrs[i]), "r"(bps[j]) : "memory");
				_exit(0);
			}
			CHECK_EQ(wait_signal(pid), SIGSEGV);
		}
	CHECK_EQ(vcall(NR_GETPID, 0, 0, 0), getpid());
	return 0;
}

/* With nosysenter, SYSENTER itself is refused (#GP: SIGSEGV), not sent to
 * whatever entry point the MSRs held before. */
static int sysenter_refused_when_off(void)
{
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		asm volatile("mov %%esp, %%ebp\n\tsysenter" :: "a"(NR_GETPID) : "memory");
		_exit(0);
	}
	CHECK_EQ(wait_signal(pid), SIGSEGV);
	return 0;
}

static int fork_and_exec_through_the_page(void)
{
	pid_t pid = fork();				/* the stubs use the page */

	if (pid == 0) {
		char *argv[] = { "/bin/helper", "args", "a", "bb", "ccc", NULL };

		execve(argv[0], argv, NULL);
		_exit(99);
	}
	CHECK(pid > 0);
	CHECK(utest_child_ok(pid));			/* helper saw its arguments */
	return 0;
}

/* Both modes; then the cases that only mean something in one of them. */
static const struct utest_case common[] = {
	UTEST(page_holds_the_trampoline),
	UTEST(page_is_read_only),
	UTEST(same_answers_as_int80),
	UTEST(callee_saved_registers_kept),
	UTEST(fork_and_exec_through_the_page),
};
static const struct utest_case sysenter_only[] = {
	UTEST(sysenter_with_trap_flag),
	UTEST(sysenter_with_nested_task_flag),
	UTEST(sysenter_with_bad_stack),
};
static const struct utest_case int80_only[] = {
	UTEST(sysenter_refused_when_off),
};

#define NCASES(t)	((int)(sizeof(t) / sizeof((t)[0])))

int main(int argc, char **argv)
{
	static struct utest_case cases[NCASES(common) + NCASES(sysenter_only) + NCASES(int80_only)];
	const struct utest_case *only;
	int n = NCASES(common), n_only;

	if (argc < 2 || (strcmp(argv[1], "sysenter") && strcmp(argv[1], "int80"))) {
		printf("usage: test_vsyscall sysenter|int80 [case]\n");
		return 2;
	}
	want_sysenter = !strcmp(argv[1], "sysenter");
	only = want_sysenter ? sysenter_only : int80_only;
	n_only = want_sysenter ? NCASES(sysenter_only) : NCASES(int80_only);
	memcpy(cases, common, sizeof(common));
	memcpy(cases + n, only, n_only * sizeof(*only));
	return utest_main(argc - 1, argv + 1, "vsyscall", cases, n + n_only);
}
