/* ipi.c: inter-processor interrupts: run a function on the other CPUs
 * (call-function), stop them all for a panic, and reschedule one.
 *
 * One call at a time: call_lock serialises the senders (process context, the
 * caller may be interrupted but not sleep) and call_slot describes the call.
 * A receiving CPU runs the function in its interrupt handler, with interrupts
 * off, then counts itself done with release order; the sender waits for every
 * other online CPU with acquire order, so what the function wrote is visible
 * to it afterwards.
 */
#include "apic.h"
#include "clock.h"
#include "irq.h"
#include "panic.h"
#include "sched.h"
#include "smp.h"
#include "spinlock.h"
#include "tlb.h"
#include "trap.h"
#include "x86.h"

#define CALL_TIMEOUT_US	2000000		/* an online CPU that does not answer: a bug */
#define STOP_WAIT_US	100000

static DEFINE_SPINLOCK(call_lock);
static struct {
	void (*fn)(void *arg);
	void *arg;
	u32 done;		/* CPUs that finished; atomic */
} call_slot;
static u32 cpus_stopped;	/* CPUs that took the stop IPI; atomic */

static void ipi_call_interrupt(struct trap_frame *tf)
{
	irq_this_stat()->cal++;
	call_slot.fn(call_slot.arg);
	__atomic_fetch_add(&call_slot.done, 1, __ATOMIC_RELEASE);
	lapic_eoi();
}

static void __noreturn ipi_stop_interrupt(struct trap_frame *tf)
{
	__atomic_fetch_add(&cpus_stopped, 1, __ATOMIC_RELEASE);
	for (;;)
		hlt();		/* interrupts stay off: only NMI, INIT or reset end it */
}

static void ipi_spurious_interrupt(struct trap_frame *tf)
{
	/* the local APIC's spurious vector: no EOI (SDM 10.9) */
}

void ipi_init(void)
{
	trap_set_handler(T_IPI_CALL, ipi_call_interrupt, 0);
	trap_set_handler(T_IPI_STOP, (trap_handler_t)ipi_stop_interrupt, 0);
	trap_set_handler(T_APIC_SPURIOUS, ipi_spurious_interrupt, 0);
	trap_set_handler(T_IPI_RESCHED, sched_resched_interrupt, 0);
	tlb_init();
}

/* Send vector to every online CPU but this one; the first CPU whose IPI
 * the local APIC did not send, or NR_CPUS when all went. */
static u32 ipi_send_others(u32 vector)
{
	u32 flags = local_irq_save();	/* one ICR per CPU: no IPI from an interrupt in between */
	u32 me = smp_processor_id(), failed = NR_CPUS;

	for (u32 i = 0; i < nr_cpus_online; i++)
		if (i != me && lapic_send_ipi(cpus[i].apic_id, vector) && failed == NR_CPUS)
			failed = i;
	local_irq_restore(flags);
	return failed;
}

void smp_send_reschedule(u32 cpu)
{
	u32 flags = local_irq_save();

	lapic_send_ipi(cpus[cpu].apic_id, T_IPI_RESCHED);	/* a lost one: the next tick */
	local_irq_restore(flags);
}

void smp_call_function_start(void (*fn)(void *arg), void *arg)
{
	u32 failed;

	spin_lock(&call_lock);
	call_slot.fn = fn;
	call_slot.arg = arg;
	__atomic_store_n(&call_slot.done, 0, __ATOMIC_RELEASE);
	failed = ipi_send_others(T_IPI_CALL);
	if (failed != NR_CPUS)
		panic("smp_call_function: CPU %u's IPI was not sent", failed);
}

void smp_call_function_wait(void)
{
	u32 others = nr_cpus_online - 1;

	for (u32 us = 0; __atomic_load_n(&call_slot.done, __ATOMIC_ACQUIRE) != others; us++) {
		if (us == CALL_TIMEOUT_US)
			panic("smp_call_function: %u of %u CPUs answered",
			      __atomic_load_n(&call_slot.done, __ATOMIC_ACQUIRE), others);
		udelay(1);
	}
	spin_unlock(&call_lock);
}

void on_each_cpu(void (*fn)(void *arg), void *arg)
{
	smp_call_function_start(fn, arg);
	fn(arg);
	smp_call_function_wait();
}

u32 smp_stop_others(void)
{
	u32 others = nr_cpus_online - 1;

	if (!others)
		return 0;
	ipi_send_others(T_IPI_STOP);		/* a CPU it misses is counted below */
	for (u32 us = 0; us < STOP_WAIT_US; us += 10) {
		if (__atomic_load_n(&cpus_stopped, __ATOMIC_ACQUIRE) == others)
			break;
		udelay(10);
	}
	return __atomic_load_n(&cpus_stopped, __ATOMIC_ACQUIRE);
}
