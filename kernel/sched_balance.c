/* sched_balance.c: where a woken task runs, and load balancing between the per-CPU run queues (pull on idle, a periodic pull from the tick, the push of a task its affinity sends away).
 *
 * Placement and the choice of a busiest queue read other CPUs' loads
 * without their locks: hints, looked at again under the locks before a
 * task moves. A task moves only while queued (never the one running, whose
 * CPU would have to be interrupted), only to a CPU its affinity allows (a
 * pinned task never moves), and only under both queues' locks, lower CPU
 * first. Contexts: any, interrupts off (the tick's pull runs in its hard
 * irq; the idle loop's and the push with no queue lock held).
 */
#include "sched_internal.h"
#include "apic_timer.h"

#define SCHED_BALANCE_TICKS	4	/* a busy CPU's periodic pull: every 16 ms at HZ=250 */

/* The first idle CPU in allowed, from CPU first on, that still polls
 * before hlt (polling only: it needs no IPI and its host thread is awake)
 * or any; -1 if none. */
static int find_idle_cpu(u32 allowed, u32 first, bool polling)
{
	for (u32 n = 0, i = first; n < NR_CPUS; n++, i = (i + 1) % NR_CPUS) {
		if ((allowed & (1u << i)) && sched_cpu_idle(i) &&
		    (!polling || READ_ONCE(cpus[i].idle_polling)))
			return i;
	}
	return -1;
}

/* The allowed CPU with the fewest tasks (the lowest on a tie). */
static u32 least_loaded(u32 allowed)
{
	u32 best = __builtin_ctz(allowed), load = ~0u;

	for (u32 i = best; i < NR_CPUS; i++) {
		if ((allowed & (1u << i)) && sched_cpu_load(i) < load) {
			load = sched_cpu_load(i);
			best = i;
		}
	}
	return best;
}

/*
 * In order: the waker's CPU for a sync wake-up when nothing waits there (the
 * waker is about to sleep: Linux's WF_SYNC); the task's last CPU if it idles
 * (its cache, and the CPU whose interrupt often woke it: an I/O completion
 * on the submitter's queue); an idle CPU, one still polling first; the last
 * CPU again if it is no busier than the waker's; the waker's; the least
 * loaded. Always a CPU the task may run on.
 */
u32 sched_select_cpu(struct task *t, bool sync)
{
	u32 allowed = t->cpus_allowed & sched_cpu_mask, me = smp_processor_id();
	u32 prev = READ_ONCE(t->cpu);
	int i;

	if (!allowed)
		return __builtin_ctz(sched_cpu_mask);
	if (!(allowed & (allowed - 1)))
		return __builtin_ctz(allowed);	/* one choice (pinned, or -smp 1) */
	if (sync && (allowed & (1u << me)) && !READ_ONCE(cpu_rq(me)->nr_queued))
		return me;
	if ((allowed & (1u << prev)) && sched_cpu_idle(prev))
		return prev;
	i = find_idle_cpu(allowed, prev, true);
	if (i < 0)
		i = find_idle_cpu(allowed, prev, false);
	if (i >= 0)
		return i;
	if ((allowed & (1u << prev)) && sched_cpu_load(prev) <= sched_cpu_load(me))
		return prev;
	if (allowed & (1u << me))
		return me;
	return least_loaded(allowed);
}

/* CPU cpu idles but was claimed for a task queued there (sched_claim_cpu):
 * it runs that task as soon as it leaves its interrupt, poll or hlt. A pull
 * would only move the task: for an I/O waiter woken by its queue's
 * interrupt, to a CPU whose own queue and interrupt it then uses (1-2 such
 * moves per 1,000 QD32 reads at -smp 2/4 before this test). A hint. */
static bool sched_cpu_claimed(u32 cpu)
{
	struct cpu *c = &cpus[cpu];

	return READ_ONCE(c->curr) == c->idle && READ_ONCE(c->idle->need_resched);
}

/* The busiest other CPU with a task waiting that it is not about to run
 * itself, if its load exceeds ours by min_imbalance; -1 if none. */
static int find_busiest(u32 cpu, u32 min_imbalance)
{
	u32 others = sched_cpu_mask & ~(1u << cpu), most = 0;
	int busiest = -1;

	for (u32 i = 0; others >> i; i++) {
		if (!(others & (1u << i)) || !READ_ONCE(cpu_rq(i)->nr_queued) ||
		    sched_cpu_claimed(i))
			continue;
		if (sched_cpu_load(i) > most) {
			most = sched_cpu_load(i);
			busiest = i;
		}
	}
	if (busiest < 0 || most < sched_cpu_load(cpu) + min_imbalance)
		return -1;
	return busiest;
}

/* The queued task of src that waited least and may run on cpu (a pinned
 * task never qualifies); NULL if none. Both locks held. */
static struct task *pull_candidate(struct run_queue *src, u32 cpu)
{
	for (struct list_head *l = src->queue.prev; l != &src->queue; l = l->prev) {
		struct task *t = list_entry(l, struct task, run_list);

		if (t->cpus_allowed & (1u << cpu))
			return t;
	}
	return NULL;
}

bool sched_pull(u32 cpu, u32 min_imbalance)
{
	struct run_queue *rq = cpu_rq(cpu), *src;
	struct task *t = NULL;
	int busiest = find_busiest(cpu, min_imbalance);

	if (busiest < 0)
		return false;
	src = cpu_rq(busiest);
	double_rq_lock(cpu, busiest);
	if (sched_cpu_load(busiest) >= sched_cpu_load(cpu) + min_imbalance)
		t = pull_candidate(src, cpu);		/* still worth it, under the locks */
	if (t) {
		rq_dequeue(src, t);
		rq_enqueue(rq, t);
		rq->pulls++;
		sched_claim_cpu(cpu);		/* an idle puller runs it now */
	}
	double_rq_unlock(cpu, busiest);
	return t != NULL;
}

/* The CPUs some task waiting on rq may run on; interrupts off. */
static u32 sched_queued_allowed(struct run_queue *rq)
{
	u32 want = 0;

	rq_lock(rq);
	for (struct list_head *l = rq->queue.next; l != &rq->queue; l = l->next)
		want |= list_entry(l, struct task, run_list)->cpus_allowed;
	rq_unlock(rq);
	return want;
}

/* Tasks wait on cpu's queue: wake one idle CPU whose tick is stopped and
 * that one of them may run on, so that its idle loop pulls (its tick would
 * have). Hard irq. */
static void sched_kick_tickless(u32 cpu)
{
	u32 want = sched_queued_allowed(cpu_rq(cpu));

	for (u32 i = 0; i < nr_cpus_online; i++) {
		if (i != cpu && (want & (1u << i)) && apic_timer_tick_stopped(i) &&
		    sched_cpu_idle(i)) {
			smp_send_reschedule(i);
			return;
		}
	}
}

/* An idle CPU pulls at every tick (it may have halted while work queued
 * elsewhere); a busy one every SCHED_BALANCE_TICKS, when another has at
 * least two tasks more. Nothing is locked when no queue has a task waiting. */
void sched_balance_tick(u32 cpu, bool idle)
{
	struct run_queue *rq = cpu_rq(cpu);

	if (idle) {
		sched_pull(cpu, 1);
		return;
	}
	if (++rq->balance_tick < SCHED_BALANCE_TICKS)
		return;
	rq->balance_tick = 0;
	sched_pull(cpu, 2);
	if (READ_ONCE(rq->nr_queued))
		sched_kick_tickless(cpu);
}

void sched_push_task(struct task *t)
{
	u32 src = t->cpu, dst;
	int target;

	for (;;) {
		dst = sched_select_cpu(t, false);
		double_rq_lock(src, dst);
		if (t->cpus_allowed & sched_cpu_mask & (1u << dst))
			break;
		double_rq_unlock(src, dst);	/* its affinity changed again meanwhile */
	}
	t->on_cpu = false;			/* off src for good: dst may run it */
	rq_enqueue(cpu_rq(dst), t);
	target = sched_claim_cpu(dst);
	double_rq_unlock(src, dst);
	sched_kick_cpu(target);
}
