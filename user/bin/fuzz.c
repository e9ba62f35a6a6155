/* fuzz.c: the in-tree fuzzer's watchdog: runs seeded fuzz children (user/fuzz/), kills, sweeps, reports KTAP.
 *
 * usage: fuzz SEED SECONDS [slots=N] [life=MS] [noexcl=NAME+...|all] [skip=|only=CALL+...] [verbose]
 *        (from init: run=fuzz:SEED:SECONDS[:...]; make fuzz SEED=n MINUTES=m)
 *        fuzz exec SEED SLOT WATCHDOG   (what a fuzz child execs: a short stream)
 *
 * Keeps `slots` children at a time, each living `life` ms (its seed from SEED,
 * its slot and its round: fuzz_child_seed), then SIGKILLed if it has not
 * ended. Every second it SIGKILLs each other process born since it started
 * (the children's forks and execs: pids are never reused, so the range is
 * exactly ours). A process still there a second after its SIGKILL is a
 * failure. At the end everything is killed, the orphans must be gone (init
 * reaps them) within 3 s, and every call of the table must have been made.
 * init's leak check then runs on the machine the fuzzer leaves behind.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <aiokern.h>
#include <sys/mman.h>
#include "../fuzz/fuzz.h"

#define MS		1000000LL		/* ns */
#define KILL_LIMIT	(1000 * MS)		/* SIGKILL must end a process within this */
#define GRACE		(200 * MS)		/* a child past its life by this is killed */
#define SWEEP_EVERY	(1000 * MS)
#define CAND_MAX	4096

struct run {
	uint64_t seed;
	unsigned seconds, slots, life_ms;
	bool verbose;			/* say what each child overrunning its life was doing */
	char opts[160];			/* the options after SECONDS, ':'-joined (FUZZ_OPTS) */
	struct fuzz_shared *sh;
	int self;
	struct kid {
		int pid;
		long long deadline;
		long long killed_at;	/* when we sent SIGKILL; -1: reported */
	} kid[FUZZ_SLOTS_MAX];
	unsigned started, ended_ok, died, deadline_kills, swept, setup_failed;
	int failures;
	uint32_t skip[FUZZ_NR_SPAN / 32];
	struct aiok_stat base;
	/* the sweep: pids born since we started, not yet seen gone */
	int next_pid, ncand;
	int cand[CAND_MAX];
	long long cand_kill[CAND_MAX];
};

static long long now_ns(void)
{
	return fuzz_now_ns();
}

static void nap_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* ---- children ---- */

static void spawn(struct run *r, unsigned slot)
{
	struct fuzz_slot *s = &r->sh->slot[slot];
	struct fuzz_child_args a = {
		.shared = r->sh, .slot = slot, .watchdog_pid = r->self,
		.deadline_ns = now_ns() + r->life_ms * MS, .max_calls = ~0u,
	};
	pid_t pid;

	a.seed = fuzz_child_seed(r->seed, slot, s->round);
	s->seed = a.seed;
	s->nr = ~0u;
	s->pump[0] = s->pump[1] = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		fuzz_child_run(&a);
	s->round++;
	if (pid < 0) {
		r->kid[slot].pid = 0;
		return;
	}
	s->pid = pid;
	r->kid[slot].pid = pid;
	r->kid[slot].deadline = a.deadline_ns;
	r->kid[slot].killed_at = 0;
	r->started++;
}

static void describe_slot(struct run *r, unsigned slot)
{
	struct fuzz_slot *s = &r->sh->slot[slot];
	const char *name = s->nr == ~0u ? "(none yet)" : fuzz_call_name(s->nr);

	printf("# fuzz:   slot %u: round %u, child seed 0x%016llx (%u calls in the slot); last call %s (nr %u)"
	       "(%#x, %#x, %#x, %#x, %#x, %#x)\n", slot, s->round - 1, (unsigned long long)s->seed,
	       s->calls, name ? name : "outside the table", s->nr, s->args[0], s->args[1],
	       s->args[2], s->args[3], s->args[4], s->args[5]);
}

static void print_reproduce(struct run *r)
{
	printf("# fuzz: FAILED with seed %llu: reproduce with make fuzz SEED=%llu%s%s\n",
	       (unsigned long long)r->seed, (unsigned long long)r->seed,
	       r->opts[0] ? " FUZZ_OPTS=" : "", r->opts);
}

static void unkillable(struct run *r, int pid, long long since)
{
	r->failures++;
	printf("# fuzz: FAILED: pid %d still there %lld ms after SIGKILL\n", pid,
	       (now_ns() - since) / MS);
	for (unsigned i = 0; i < r->slots; i++)
		if (r->kid[i].pid == pid || r->sh->slot[i].pid == pid)
			describe_slot(r, i);
	print_reproduce(r);
}

/* Reap our children; a slot that emptied gets a new child while running. */
static void reap(struct run *r, bool running)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (unsigned i = 0; i < r->slots; i++) {
			if (r->kid[i].pid != pid)
				continue;
			if (WIFEXITED(st) && WEXITSTATUS(st) >= 120 && WEXITSTATUS(st) < 125 &&
			    !r->setup_failed++)
				printf("# fuzz: a child could not set up (status %d)\n", WEXITSTATUS(st));
			if (r->kid[i].killed_at)
				r->deadline_kills++;
			else if (WIFSIGNALED(st))
				r->died++;
			else
				r->ended_ok++;
			r->kid[i].pid = 0;
			if (running && !r->failures)
				spawn(r, i);
		}
	}
}

/* SIGKILL the children past their life; fail one that outlives it by KILL_LIMIT. */
static void police(struct run *r, long long now, bool all)
{
	for (unsigned i = 0; i < r->slots; i++) {
		struct kid *k = &r->kid[i];
		if (!k->pid)
			continue;
		if (!k->killed_at && (all || now > k->deadline + GRACE)) {
			if (r->verbose)
				describe_slot(r, i);
			kill(k->pid, SIGKILL);
			k->killed_at = now;
		} else if (k->killed_at && now - k->killed_at > KILL_LIMIT && k->killed_at > 0) {
			unkillable(r, k->pid, k->killed_at);
			k->killed_at = -1;	/* reported once */
		}
	}
}

/* ---- the sweep of everything else we begot ---- */

/* Our child in a slot, or the pump of one (it lives as long as the child). */
static bool is_slot_child(struct run *r, int pid)
{
	for (unsigned i = 0; i < r->slots; i++)
		if (r->kid[i].pid == pid || (r->kid[i].pid && !r->kid[i].killed_at &&
					     (r->sh->slot[i].pump[0] == pid ||
					      r->sh->slot[i].pump[1] == pid)))
			return true;
	return false;
}

/* SIGKILL every pid in (self, upto] not known gone; drop those that are. */
static void sweep(struct run *r, int upto, long long now)
{
	for (; r->next_pid <= upto && r->ncand < CAND_MAX; r->next_pid++) {
		r->cand[r->ncand] = r->next_pid;
		r->cand_kill[r->ncand++] = 0;
	}
	for (int i = 0; i < r->ncand; i++) {
		int pid = r->cand[i];
		if (is_slot_child(r, pid))
			continue;		/* police() minds those */
		if (kill(pid, SIGKILL) < 0 && errno == ESRCH) {
			r->cand[i] = r->cand[--r->ncand];
			r->cand_kill[i--] = r->cand_kill[r->ncand];
			continue;
		}
		if (!r->cand_kill[i]) {
			r->cand_kill[i] = now;
			r->swept++;
		} else if (r->cand_kill[i] > 0 && now - r->cand_kill[i] > KILL_LIMIT) {
			unkillable(r, pid, r->cand_kill[i]);
			r->cand_kill[i] = -1;
		}
	}
}

/* The highest pid now: a throw-away child's. */
static int probe_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

/* ---- files ---- */

/* Our names, children first; twice, as a rename may have swapped files and
 * directories about. */
static void remove_files(void)
{
	char path[64];

	for (int pass = 0; pass < 2; pass++)
		for (unsigned s = 0; s < FUZZ_SLOTS_MAX; s++)
			for (unsigned i = 0; fuzz_slot_path(s, i, path, sizeof(path)); i++)
				if (unlink(path) < 0)
					rmdir(path);
}

/* ---- the run ---- */

/* Children not yet reaped, but for those reported unkillable: the run ends. */
static bool children_left(struct run *r)
{
	for (unsigned i = 0; i < r->slots; i++)
		if (r->kid[i].pid && r->kid[i].killed_at != -1)
			return true;
	return false;
}

static void watch(struct run *r)
{
	long long start = now_ns(), end = start + r->seconds * 1000 * MS, now = start;
	long long last_sweep = start;
	bool running = true;

	for (unsigned i = 0; i < r->slots; i++)
		spawn(r, i);
	for (;;) {
		now = now_ns();
		running = running && now < end && !r->failures;
		reap(r, running);
		police(r, now, !running);
		if (now - last_sweep > SWEEP_EVERY) {
			sweep(r, probe_pid(), now);
			last_sweep = now;
		}
		if (!running && !children_left(r))
			break;
		nap_ms(5);
	}
}

/* After the run: nothing of ours may be left, killable or not. A process
 * may fork as it dies, so the range grows until a pass finds none alive. */
static int final_sweep(struct run *r)
{
	for (int i = 0; i < 80; i++) {
		sweep(r, probe_pid(), now_ns());
		if (!r->ncand)
			break;
		nap_ms(25);
	}
	return r->ncand;
}

/* init reaps the orphans: the task count comes back within 3 s. */
static unsigned wait_orphans(struct run *r)
{
	struct aiok_stat st = { 0 };

	for (int i = 0; i < 300; i++) {
		if (aiok_stat(&st) || st.nr_tasks <= r->base.nr_tasks)
			break;
		nap_ms(10);
	}
	return st.nr_tasks;
}

/* Table calls never made (but those skip= or only= left out). */
static int uncalled(struct run *r, bool print)
{
	int n = 0;

	for (int i = 0; i < fuzz_table_len; i++) {
		unsigned nr = fuzz_table[i].nr;
		if (r->sh->by_nr[nr % FUZZ_NR_SPAN] || fuzz_skipped(r->sh, nr))
			continue;
		n++;
		if (print)
			printf("# fuzz: never called: %s (%u)\n", fuzz_table[i].name, nr);
	}
	return n;
}

static unsigned total_calls(struct run *r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->slots; i++)
		n += r->sh->slot[i].calls;
	return n;
}

/* Where the children's time went: the calls that took most of it. */
static void print_costs(struct run *r)
{
	uint64_t total = 0, best;
	char line[256];
	int n = 0, len = 0, pick = -1;
	bool used[FUZZ_NR_SPAN] = { false };

	for (int nr = 0; nr < FUZZ_NR_SPAN; nr++)
		total += r->sh->tsc_by_nr[nr];
	for (n = 0; n < 6 && total; n++, used[pick] = true) {
		best = 0;
		for (int nr = 0; nr < FUZZ_NR_SPAN; nr++)
			if (!used[nr] && r->sh->tsc_by_nr[nr] > best)
				best = r->sh->tsc_by_nr[pick = nr];
		if (!best)
			break;
		len += snprintf(line + len, sizeof(line) - len, " %s %llu%%",
				fuzz_call_name(pick) ? fuzz_call_name(pick) : "(hole)",
				(unsigned long long)(best * 100 / total));
	}
	if (n)
		printf("# fuzz: time in calls:%s\n", line);
}

static int report_case(int k, bool ok, const char *name)
{
	printf("    %s %d %s\n", ok ? "ok" : "not ok", k, name);
	return !ok;
}

static void print_header(struct run *r)
{
	printf("    KTAP version 1\n    # Subtest: fuzz\n    1..5\n");
	printf("# fuzz: seed %llu, %u s, %u children at a time, each living %u ms\n",
	       (unsigned long long)r->seed, r->seconds, r->slots, r->life_ms);
	for (int i = 0; i < EX_COUNT; i++)
		printf("# fuzz: exclusion %s: %s: %s\n", fuzz_exclusions[i].name,
		       fuzz_excl_on[i] ? "on" : "OFF", fuzz_exclusions[i].what);
	fflush(stdout);
}

static int finish(struct run *r, long long t0, const char *idx)
{
	long long dt = now_ns() - t0;
	int left = final_sweep(r), bad = 0;
	unsigned tasks = wait_orphans(r), calls = total_calls(r);

	remove_files();
	printf("# fuzz: seed %llu: %u calls in %lld.%01lld s: %llu calls/s; %u children (%u ended, "
	       "%u killed at the end of their life, %u died of a signal), %u forks and execs swept\n",
	       (unsigned long long)r->seed, calls, dt / (1000 * MS), dt / (100 * MS) % 10,
	       dt ? calls * 1000000000ULL / dt : 0, r->started, r->ended_ok, r->deadline_kills,
	       r->died, r->swept);
	print_costs(r);
	bad += report_case(2, !r->failures, "every_process_ends_on_sigkill");
	if (left)
		printf("# fuzz: %d processes of ours still there after the final sweep\n", left);
	bad += report_case(3, !left, "nothing_left_running");
	if (tasks != r->base.nr_tasks)
		printf("# fuzz: %u tasks, %u before the run: orphans not reaped\n", tasks,
		       r->base.nr_tasks);
	bad += report_case(4, tasks == r->base.nr_tasks, "orphans_reaped_by_init");
	bad += report_case(5, calls > 0 && !uncalled(r, true), "whole_table_called");
	if (bad)
		print_reproduce(r);
	printf("%s %s fuzz\n", bad ? "not ok" : "ok", idx ? idx : "1");
	fflush(stdout);
	return bad ? 1 : 0;
}

/* ---- options ---- */

/* noexcl=all, or names or findings ("F3") joined by '+': lift those exclusions. */
static int set_exclusions(const char *list)
{
	char tok[40];

	for (const char *p = list; *p; ) {
		size_t n = strcspn(p, "+,");
		int hits = 0;
		snprintf(tok, sizeof(tok), "%.*s", (int)n, p);
		for (int i = 0; i < EX_COUNT; i++) {
			const char *name = fuzz_exclusions[i].name;
			size_t t = strlen(tok);
			if (!strcmp(tok, "all") || !strcmp(tok, name) ||
			    (!strncmp(tok, name, t) && name[t] == '_')) {
				fuzz_excl_on[i] = false;
				hits++;
			}
		}
		if (!hits && strcmp(tok, "all"))	/* all: also when none is left */
			return -1;
		p += n + (p[n] != '\0');
	}
	return 0;
}

/* skip=NAME+NAME: calls (by name, or number) never to make; only=NAME+NAME:
 * none but those. For finding which calls a failure needs. */
static int set_skips(struct run *r, const char *list, bool only)
{
	char tok[40];

	if (only)
		memset(r->skip, 0xFF, sizeof(r->skip));

	for (const char *p = list; *p; ) {
		size_t n = strcspn(p, "+,");
		int nr = -1;
		snprintf(tok, sizeof(tok), "%.*s", (int)n, p);
		for (int i = 0; i < fuzz_table_len; i++)
			if (!strcmp(tok, fuzz_table[i].name))
				nr = fuzz_table[i].nr;
		if (nr < 0 && tok[0] >= '0' && tok[0] <= '9')
			nr = atoi(tok);
		if (nr < 0 || nr >= FUZZ_NR_SPAN)
			return -1;
		if (only)
			r->skip[nr / 32] &= ~(1u << (nr % 32));
		else
			r->skip[nr / 32] |= 1u << (nr % 32);
		p += n + (p[n] != '\0');
	}
	return 0;
}

/* A whole decimal (or 0x) number, or -1: an exec'd fuzz with some other
 * argv must not start a run of its own. */
static long long number(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	return *s >= '0' && *s <= '9' && !*end && v < (1ULL << 62) ? (long long)v : -1;
}

static int parse(struct run *r, int argc, char **argv)
{
	if (argc < 3 || number(argv[1]) < 0 || number(argv[2]) <= 0 || number(argv[2]) > 86400)
		return -1;
	r->seed = number(argv[1]);
	r->seconds = number(argv[2]);
	r->slots = 6;
	r->life_ms = 1500;
	for (int i = 3; i < argc; i++) {
		size_t n = strlen(r->opts);
		snprintf(r->opts + n, sizeof(r->opts) - n, "%s%s", n ? ":" : "", argv[i]);
		if (!strncmp(argv[i], "slots=", 6))
			r->slots = strtoul(argv[i] + 6, NULL, 0);
		else if (!strcmp(argv[i], "verbose"))
			r->verbose = true;
		else if (!strncmp(argv[i], "life=", 5))
			r->life_ms = strtoul(argv[i] + 5, NULL, 0);
		else if (!strncmp(argv[i], "skip=", 5) || !strncmp(argv[i], "only=", 5)) {
			if (set_skips(r, argv[i] + 5, argv[i][0] == 'o'))
				return -1;
		} else if (strncmp(argv[i], "noexcl=", 7) || set_exclusions(argv[i] + 7))
			return -1;
	}
	return r->slots && r->slots <= FUZZ_SLOTS_MAX && r->seconds && r->life_ms ? 0 : -1;
}

int main(int argc, char **argv)
{
	static struct run r;
	const char *idx = getenv("UTEST_INDEX");
	long long t0;

	if (argc > 1 && !strcmp(argv[1], "exec"))
		fuzz_exec_child(argc > 2 ? strtoull(argv[2], NULL, 16) : 0,
				argc > 3 ? argv[3][0] - 'A' : 0, argc > 4 ? atoi(argv[4]) : -1);
	if (parse(&r, argc, argv)) {
		printf("usage: fuzz SEED SECONDS [slots=1-%d] [life=MS] [noexcl=NAME+...|all] "
		       "[skip=|only=CALL+...] [verbose]\n",
		       FUZZ_SLOTS_MAX);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	r.self = getpid();
	r.next_pid = r.self + 1;
	r.sh = mmap(NULL, sizeof(*r.sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	print_header(&r);
	if (r.sh == MAP_FAILED || aiok_stat(&r.base)) {
		report_case(1, false, "setup");
		printf("not ok %s fuzz\n", idx ? idx : "1");
		return 1;
	}
	memset((void *)r.sh, 0, sizeof(*r.sh));
	memcpy(r.sh->skip, r.skip, sizeof(r.skip));
	report_case(1, true, "setup");
	fflush(stdout);
	t0 = now_ns();
	watch(&r);
	return finish(&r, t0, idx);
}
