/* traps_test.c: the "traps" suite: exceptions raised on purpose are caught by a
 * test hook that checks the reported registers and resumes after the fault. */
#include "gdt.h"
#include "ksyms.h"
#include "ktest.h"
#include "string.h"
#include "test_hooks.h"
#include "trap.h"
#include "x86.h"

#define MARK_EAX	0x1234abcd
#define MARK_EBX	0x5a5a5a5a
#define MARK_ESI	0xfeedf00d

extern char int3_site[], int3_after[], div_site[], div_after[];
extern char ud2_site[], ud2_after[], pf_site[], pf_after[];
extern char fixup_site[], fixup_landing[];

/* Written from the trap path, which the compiler cannot see: volatile. */
static volatile struct trap_frame seen;
static volatile int hits;
static volatile u32 seen_cr2;
static volatile u32 resume_at;

static bool record_hook(struct trap_frame *tf)
{
	memcpy((void *)&seen, tf, sizeof(*tf));
	seen_cr2 = read_cr2();
	hits++;
	if (resume_at)
		tf->eip = resume_at;
	return true;
}

static void arm(u32 resume)
{
	memset((void *)&seen, 0, sizeof(seen));
	hits = 0;
	resume_at = resume;
	trap_test_hook = record_hook;
}

static void disarm(void)
{
	trap_test_hook = NULL;
}

static __noinline void raise_int3(void)
{
	asm volatile("int3_site: int3\nint3_after:"
		     :: "a"(MARK_EAX), "b"(MARK_EBX), "S"(MARK_ESI) : "memory");
}

static __noinline u32 raise_divide(void)
{
	u32 q;

	asm volatile("div_site: divl %%ecx\ndiv_after:"
		     : "=a"(q) : "a"(MARK_EAX), "d"(0), "c"(0), "b"(MARK_EBX) : "memory");
	return q;
}

static __noinline void raise_ud2(void)
{
	asm volatile("ud2_site: ud2\nud2_after:" ::: "memory");
}

static __noinline u32 raise_page_fault(u32 addr, u32 value, bool write)
{
	if (write)
		asm volatile("pf_site: movl %1, (%0)\npf_after:" :: "r"(addr), "r"(value) : "memory");
	else
		asm volatile("movl (%1), %0" : "=r"(value) : "r"(addr) : "memory");
	return value;
}

static void breakpoint_caught(struct ktest *t)
{
	arm(0);
	raise_int3();
	disarm();
	EXPECT_EQ(t, hits, 1);
	EXPECT_EQ(t, seen.vector, T_BREAKPOINT);
	EXPECT_EQ(t, seen.eip, (u32)int3_after);	/* a trap: eip is past int3 */
	EXPECT_EQ(t, seen.cs, KERNEL_CS);
	EXPECT_EQ(t, seen.ds, KERNEL_DS);
	EXPECT_EQ(t, seen.eax, MARK_EAX);
	EXPECT_EQ(t, seen.ebx, MARK_EBX);
	EXPECT_EQ(t, seen.esi, MARK_ESI);
	EXPECT_TRUE(t, seen.eflags & EFLAGS_IF);
}

static void divide_error_recovered(struct ktest *t)
{
	arm((u32)div_after);
	raise_divide();
	disarm();
	EXPECT_EQ(t, hits, 1);
	EXPECT_EQ(t, seen.vector, T_DIVIDE);
	EXPECT_EQ(t, seen.eip, (u32)div_site);	/* a fault: eip is the div */
	EXPECT_EQ(t, seen.ecx, 0);
	EXPECT_EQ(t, seen.eax, MARK_EAX);
	EXPECT_EQ(t, seen.ebx, MARK_EBX);
	EXPECT_EQ(t, seen.err, 0);
}

static void invalid_opcode_recovered(struct ktest *t)
{
	arm((u32)ud2_after);
	raise_ud2();
	disarm();
	EXPECT_EQ(t, hits, 1);
	EXPECT_EQ(t, seen.vector, T_INVALID_OP);
	EXPECT_EQ(t, seen.eip, (u32)ud2_site);
}

static void page_fault_reports_cr2(struct ktest *t)
{
	const u32 addr = 0x00000ff8;		/* the null page is unmapped */

	arm((u32)pf_after);
	raise_page_fault(addr, 7, true);
	disarm();
	EXPECT_EQ(t, hits, 1);
	EXPECT_EQ(t, seen.vector, T_PAGE_FAULT);
	EXPECT_EQ(t, seen.eip, (u32)pf_site);
	EXPECT_EQ(t, seen_cr2, addr);
	EXPECT_EQ(t, seen.err & (PF_PRESENT | PF_WRITE | PF_USER), PF_WRITE);
}

static void frame_survives_resume(struct ktest *t)
{
	volatile u32 before = 0x600df00d;

	arm((u32)div_after);
	for (int i = 0; i < 100; i++)
		raise_divide();
	disarm();
	EXPECT_EQ(t, hits, 100);
	EXPECT_EQ(t, before, 0x600df00d);	/* our stack frame is intact */
}

/* A faulting instruction listed in the exception table resumes at its fixup
 * without any hook: the mechanism uaccess uses. */
static __noinline int read_with_fixup(u32 addr)
{
	int err = 0;

	asm volatile("fixup_site: movl (%1), %%eax\n"
		     "jmp 2f\n"
		     "fixup_landing: movl $-14, %0\n"
		     "2:\n"
		     ".pushsection __ex_table, \"a\"\n"
		     ".long fixup_site, fixup_landing\n"
		     ".popsection"
		     : "+r"(err) : "r"(addr) : "eax", "memory");
	return err;
}

static void exception_table_fixup(struct ktest *t)
{
	EXPECT_EQ(t, search_exception_table((u32)fixup_site), (u32)fixup_landing);
	EXPECT_EQ(t, search_exception_table((u32)fixup_landing), 0);
	EXPECT_EQ(t, read_with_fixup(0x10), -14);
	EXPECT_EQ(t, read_with_fixup(0xC0100000), 0);
}

static void symbols_resolve(struct ktest *t)
{
	u32 off, size, addr = ksym_address("kmain");
	const char *name;

	ASSERT_NE(t, addr, 0);
	name = ksym_lookup(addr + 3, &off, &size);
	EXPECT_STREQ(t, name, "kmain");
	EXPECT_EQ(t, off, 3);
	EXPECT_GE(t, size, 4);
	name = ksym_lookup((u32)raise_ud2 + 1, &off, &size);
	EXPECT_STREQ(t, name, "raise_ud2");
	EXPECT_NULL(t, ksym_lookup(0x1000, &off, &size));
}

static const struct ktest_case traps_cases[] = {
	KTEST_CASE(breakpoint_caught),
	KTEST_CASE(divide_error_recovered),
	KTEST_CASE(invalid_opcode_recovered),
	KTEST_CASE(page_fault_reports_cr2),
	KTEST_CASE(frame_survives_resume),
	KTEST_CASE(exception_table_fixup),
	KTEST_CASE(symbols_resolve),
};
KTEST_SUITE(traps_suite, "traps", traps_cases);
