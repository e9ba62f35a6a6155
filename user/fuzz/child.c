/* child.c: a fuzz child: the same set-up every time, then a seeded stream of raw system calls. */
#include <stdint.h>
#include <string.h>
#include "uapi/aio_abi.h"
#include "uapi/fcntl.h"
#include "uapi/mman.h"
#include "uapi/signal.h"
#include "uapi/stat.h"
#include "uapi/time.h"
#include "user/syscalls.h"
#include "child.h"
#include "user/fuzz_calls.h"

#define MIB		(1024u * 1024)
#define IS_ERR(r)	((unsigned long)(r) >= (unsigned long)-4095)
#define HOG_SIZE	(512 * MIB)	/* more than the fuzz boots' memory (256 MiB) */
#define FORK_CALLS	100		/* a fork makes this many calls, then ends */
#define EXEC_CALLS	200		/* an exec'd fuzz likewise */

const struct fuzz_call_desc *const fuzz_table = fuzz_calls;
const int fuzz_table_len = FUZZ_NR_CALLS;

const char *fuzz_call_name(unsigned nr)
{
	for (int i = 0; i < FUZZ_NR_CALLS; i++)
		if (fuzz_calls[i].nr == nr)
			return fuzz_calls[i].name;
	return NULL;
}

/* long fz_syscall(nr, a[6], how): eax = nr, ebx..ebp = a[0..5]; how is
 * FZ_INT80 (int $0x80), FZ_ENTRY (a call to the entry page: SYSENTER) or
 * FZ_SPAWN (vfork or clone by int $0x80, whose child exits at once, exit(0):
 * only that thread, before it touches memory: it may share ours and our
 * stack (vfork, CLONE_VM), or run on a stack of junk). The flags of the one
 * compare with how choose the way after the registers are loaded. */
__asm__(".text\n"
	".globl fz_syscall\n"
	".type fz_syscall, @function\n"
	"fz_syscall:\n"
	"	pushl %ebp\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	movl 20(%esp), %eax\n"
	"	movl 24(%esp), %ebp\n"
	"	movl 0(%ebp), %ebx\n"
	"	movl 4(%ebp), %ecx\n"
	"	movl 8(%ebp), %edx\n"
	"	movl 12(%ebp), %esi\n"
	"	movl 16(%ebp), %edi\n"
	"	cmpl $1, 28(%esp)\n"		/* how: 0, 1 or 2 */
	"	movl 20(%ebp), %ebp\n"
	"	je 1f\n"
	"	jg 3f\n"
	"	int $0x80\n"
	"	jmp 2f\n"
	"1:	call 0xffffe000\n"
	"	jmp 2f\n"
	"3:	int $0x80\n"
	"	testl %eax, %eax\n"
	"	jnz 2f\n"
	"	movl $1, %eax\n"		/* the child: exit(0), no stack used */
	"	xorl %ebx, %ebx\n"
	"	int $0x80\n"
	"2:	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	popl %ebp\n"
	"	ret\n"
	".size fz_syscall, . - fz_syscall\n");

/* A raw call made for the set-up or the bookkeeping: not counted. */
static long sys(unsigned nr, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4,
		uint32_t a5)
{
	uint32_t a[6] = { a0, a1, a2, a3, a4, a5 };

	return fz_syscall(nr, a, FZ_INT80);
}
#define sys1(nr, a)		sys(nr, (uint32_t)(a), 0, 0, 0, 0, 0)
#define sys2(nr, a, b)		sys(nr, (uint32_t)(a), (uint32_t)(b), 0, 0, 0, 0)
#define sys3(nr, a, b, c)	sys(nr, (uint32_t)(a), (uint32_t)(b), (uint32_t)(c), 0, 0, 0)

long long fuzz_now_ns(void)
{
	struct kernel_timespec ts = { 0, 0 };

	sys2(__NR_clock_gettime, CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static _Noreturn void fz_exit(int code)
{
	for (;;)
		sys1(__NR_exit, code);
}

/* ---- set-up: the same every time ---- */

static long map_fixed(uint32_t addr, uint32_t len, int prot)
{
	return sys(__NR_mmap2, addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

static void setup_memory(struct fz_child *c)
{
	if (map_fixed(FZ_SCRATCH, FZ_RW_END - FZ_SCRATCH, PROT_READ | PROT_WRITE) != FZ_SCRATCH ||
	    map_fixed(FZ_RO, 4096, PROT_READ) != FZ_RO || map_fixed(FZ_NONE, 4096, PROT_NONE) != FZ_NONE ||
	    map_fixed(FZ_RW2, 4096, PROT_READ | PROT_WRITE) != FZ_RW2 ||
	    map_fixed(FZ_IOBUF, FZ_IOBUF_LEN, PROT_READ | PROT_WRITE) != FZ_IOBUF)
		fz_exit(120);
	sys2(__NR_munmap, FZ_HOLE, MIB);
	fz_gen_init(c);
	c->brk0 = sys1(__NR_brk, 0);
}

static void add_fd(struct fz_child *c, long fd, int kind)
{
	if (fd >= 0 && c->nfd < FZ_FDS) {
		c->fd[c->nfd] = fd;
		c->fd_kind[c->nfd++] = kind;
	}
}

static long open_pool(struct fz_child *c, unsigned own, int flags)
{
	char path[64];

	fuzz_slot_path(c->slotno, own, path, sizeof(path));
	return sys3(__NR_open, path, flags, 0644);
}

/* A pump: a fork that keeps one end of a pipe busy (drains it, or fills it),
 * so that our end rarely blocks; it ends when we and our forks are gone. */
static int start_pump(int keep, bool fill)
{
	static char buf[4096];
	long pid = sys1(__NR_fork, 0);

	if (pid)
		return pid;
	for (int fd = 0; fd < 64; fd++)
		if (fd != keep)
			sys1(__NR_close, fd);
	while (sys3(fill ? __NR_write : __NR_read, keep, buf, sizeof(buf)) > 0)
		;
	fz_exit(0);
}

/* A pipe whose other end a pump holds; ours is the read end if read. */
static void add_pumped_pipe(struct fz_child *c, int which, bool read)
{
	int p[2];

	if (sys1(__NR_pipe, p))
		return;
	c->pump[which] = start_pump(p[read], read);	/* the pump's end: the other one */
	sys1(__NR_close, p[read]);
	add_fd(c, p[!read], read ? FK_PIPE_R : FK_PIPE_W);
	c->pipe_end[!read] = p[!read];
	if (c->slot)
		c->slot->pump[which] = c->pump[which];
}

/* Descriptors 0-2 become /dev/null (nothing reaches the console), then one
 * of every kind: null, zero, two files, a directory, two pumped pipes, the disks. */
static void setup_fds(struct fz_child *c)
{
	long null = sys3(__NR_open, "/dev/null", O_RDWR, 0);

	if (null < 0)
		fz_exit(121);
	for (int fd = 0; fd < 3; fd++)
		if (sys2(__NR_dup2, null, fd) != fd)
			fz_exit(122);
	add_fd(c, null, FK_NULL);
	add_fd(c, sys3(__NR_open, "/dev/zero", O_RDWR, 0), FK_ZERO);
	add_fd(c, open_pool(c, 4, O_RDWR | O_CREAT | O_TRUNC), FK_FILE);	/* "a" */
	add_fd(c, open_pool(c, 5, O_RDONLY | O_CREAT), FK_FILE_RO);		/* "b" */
	add_fd(c, sys3(__NR_open, "/tmp", O_RDONLY, 0), FK_DIR);
	add_fd(c, sys3(__NR_open, "/dev/vda", O_RDWR, 0), FK_DISK);
	add_fd(c, sys3(__NR_open, "/dev/hda", O_RDWR, 0), FK_DISK);
	add_pumped_pipe(c, 0, true);
	add_pumped_pipe(c, 1, false);
	c->last_fd = null;
}

static void add_ctx(struct fz_child *c, uint32_t id)
{
	if (c->nctx < FZ_CTXS)
		c->ctx[c->nctx++] = id;
}

static void setup_aio(struct fz_child *c)
{
	static const unsigned sizes[] = { 1, 16, 128 };

	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t id = 0;
		if (sys2(__NR_io_setup, sizes[i], &id) == 0)
			add_ctx(c, id);
	}
}

/* ---- the calls ---- */

/* How often each call comes up (per 20 of a plain call): the ones that end
 * or replace the process rarely (a child lives some 1,000 calls), and the
 * ones that may wait; poweroff too (init's only: -EPERM for us). */
static unsigned weight(unsigned nr)
{
	switch (nr) {
	case __NR_exit: case __NR_exit_group: case __NR_poweroff: return 1;
	/* a frame of junk: the child jumps to it and dies, as good as an exit */
	case __NR_sigreturn: case __NR_rt_sigreturn: return 1;
	case __NR_select: case __NR_pselect6: case __NR_poll: case __NR_ppoll: return 4;
	case __NR_fork: case __NR_execve: case __NR_kill: return 2;
	/* they may wait until a signal or another process ends them */
	case __NR_pause: case __NR_rt_sigsuspend: case __NR_vfork: case __NR_rt_sigtimedwait:
		return 2;
	case __NR_futex: case __NR_wait4: case __NR_waitpid: return 4;
	case __NR_nanosleep: case __NR_clock_nanosleep: case __NR_io_setup: case __NR_io_destroy:
		return 4;
	case __NR_read: case __NR_write: case __NR_pread64: case __NR_pwrite64:
	case __NR_io_submit: return 60;
	case __NR_io_getevents_abs: case __NR_io_cancel: return 30;
	}
	return 20;
}

static unsigned total_weight;

static const struct fuzz_call_desc *pick_call(struct fz_child *c)
{
	uint32_t w;

	if (!total_weight)
		for (int i = 0; i < FUZZ_NR_CALLS; i++)
			total_weight += weight(fuzz_calls[i].nr);
	w = fz_below(&c->rng, total_weight);
	for (int i = 0; i < FUZZ_NR_CALLS; i++) {
		if (w < weight(fuzz_calls[i].nr))
			return &fuzz_calls[i];
		w -= weight(fuzz_calls[i].nr);
	}
	return &fuzz_calls[0];
}

/* Note the call in our slot before it is made (exit and exec never return). */
static void record(struct fz_child *c, unsigned nr, const uint32_t a[6])
{
	c->calls++;
	if (!c->slot)
		return;
	c->slot->nr = nr;
	for (int i = 0; i < 6; i++)
		c->slot->args[i] = a[i];
	__atomic_fetch_add(&c->slot->calls, 1, __ATOMIC_RELAXED);
	if (nr < FUZZ_NR_SPAN)
		__atomic_fetch_add(&c->shared->by_nr[nr], 1, __ATOMIC_RELAXED);
}

/* In a fork: its own stream, a short life, no rings (fork does not copy them). */
static void become_fork(struct fz_child *c)
{
	c->depth++;
	c->rng.s ^= 0xD1B54A32D192ED03ull * (uint64_t)c->depth;
	c->self_pid = sys1(__NR_getpid, 0);
	c->nkid = 0;
	c->pump[0] = c->pump[1] = 0;		/* the parent's; no longer spared */
	c->max_calls = c->calls + FORK_CALLS;
	c->rings_ours = false;
}

static void note_kid(struct fz_child *c, long pid)
{
	if (c->nkid < FZ_KIDS)
		c->kid[c->nkid++] = pid;
}

static void forget_ctx(struct fz_child *c, uint32_t id)
{
	for (int i = 0; i < c->nctx; i++)
		if (c->ctx[i] == id)
			c->ctx[i] = c->ctx[--c->nctx];
}

/* What a result tells us: new descriptors, contexts, mappings, forks. */
static void learn(struct fz_child *c, unsigned nr, const uint32_t a[6], long r)
{
	if (IS_ERR(r))
		return;
	if (nr == __NR_open || nr == __NR_dup || nr == __NR_dup2)
		c->last_fd = r;
	else if ((nr == __NR_pipe || nr == __NR_pipe2) && a[0] >= FZ_SCRATCH && a[0] + 8 <= FZ_RW_END)
		c->last_fd = ((int *)a[0])[fz_below(&c->rng, 2)];
	else if (nr == __NR_io_setup && a[1] == FZ_STRUCTS + 0x100)
		add_ctx(c, *(uint32_t *)a[1]);
	else if (nr == __NR_io_destroy)
		forget_ctx(c, a[0]);
	else if ((nr == __NR_fork || nr == __NR_vfork || nr == __NR_clone) && r > 0)
		note_kid(c, r);
	else if (nr == __NR_fork)
		become_fork(c);
}

/* A plain read or write on a pipe of ours other than the pumped ones (one
 * from a pipe() call, or a descriptor number that changed hands) would
 * mostly block until we are killed: 19 times in 20 it goes to the pumped
 * end instead, so a child blocks now and then, not always. */
static void steer_pipes(struct fz_child *c, unsigned nr, uint32_t a[6])
{
	bool write = nr == __NR_write || nr == __NR_writev;
	int end = c->pipe_end[write];
	struct kernel_stat st;

	if ((!write && nr != __NR_read && nr != __NR_readv) || (int)a[0] == end || end < 0)
		return;
	if (sys2(__NR_fstat, a[0], &st) == 0 && S_ISFIFO(st.st_mode) && fz_pct(&c->rng, 95))
		a[0] = end;
}

/* Make call nr with a[] (contained: fz_contain), by either entry. */
static long fz_call(struct fz_child *c, unsigned nr, uint32_t a[6])
{
	uint64_t t0;
	long r;

	if (fuzz_skipped(c->shared, nr))
		nr = __NR_getpid;
	nr = fz_contain(c, nr, a);
	steer_pipes(c, nr, a);
	record(c, nr, a);
	t0 = __builtin_ia32_rdtsc();
	if (nr == __NR_vfork || nr == __NR_clone)
		r = fz_syscall(nr, a, FZ_SPAWN);	/* the child never comes back here */
	else
		r = fz_syscall(nr, a, fz_pct(&c->rng, 50) ? FZ_ENTRY : FZ_INT80);
	if (c->shared && nr < FUZZ_NR_SPAN)
		__atomic_fetch_add(&c->shared->tsc_by_nr[nr], __builtin_ia32_rdtsc() - t0,
				   __ATOMIC_RELAXED);
	learn(c, nr, a, r);
	return r;
}

static void table_call(struct fz_child *c)
{
	const struct fuzz_call_desc *d = pick_call(c);
	uint32_t a[6] = { 0 };

	for (int i = 0; i < d->nargs; i++)
		a[i] = fz_arg(c, d->nr, d->kind[i], a, i);
	for (int i = d->nargs; i < 6; i++)	/* unused registers: garbage */
		a[i] = (uint32_t)fz_next(&c->rng);
	fz_call(c, d->nr, a);
}

/* Any number, in the table or not (holes answer -ENOSYS), any arguments. */
static void random_call(struct fz_child *c)
{
	uint32_t a[6];

	for (int i = 0; i < 6; i++)
		a[i] = fz_pct(&c->rng, 50) ? fz_ptr(c) : fz_len(c);
	fz_call(c, fz_below(&c->rng, FUZZ_NR_SPAN), a);
}

/* ---- episodes: I/O in flight when something drastic happens ---- */

static int disk_fd(struct fz_child *c)
{
	for (int i = 0, k = fz_below(&c->rng, FZ_FDS); i < c->nfd; i++)
		if (c->fd_kind[(k + i) % c->nfd] == FK_DISK || c->fd_kind[(k + i) % c->nfd] == FK_PIPE_R)
			return c->fd[(k + i) % c->nfd];
	return c->nfd ? c->fd[0] : -1;
}

/* Up to 16 plausible requests on one descriptor, submitted in one call. */
static long submit_burst(struct fz_child *c, uint32_t ctx, int fd)
{
	struct iocb *cb = (struct iocb *)FZ_IOCBS;
	uint32_t *pp = (uint32_t *)FZ_IOCBPP, n = 1 + fz_below(&c->rng, 16);
	uint32_t a[6] = { ctx, n, (uint32_t)pp };

	for (uint32_t i = 0; i < n; i++) {
		fz_fill_iocb(c, &cb[i]);
		cb[i].aio_fildes = fd;
		cb[i].aio_lio_opcode = fz_pct(&c->rng, 60) ? IOCB_CMD_PREAD : IOCB_CMD_PWRITE;
		cb[i].aio_buf = FZ_IOBUF + 512 * fz_below(&c->rng, FZ_IOBUF_LEN / 512 - 128);
		cb[i].aio_nbytes = 512 * (1 + fz_below(&c->rng, 128));
		cb[i].aio_offset = 512LL * fz_below(&c->rng, 32768);
		pp[i] = (uint32_t)&cb[i];
	}
	c->last_iocb = (uint32_t)cb;
	return fz_call(c, __NR_io_submit, a);
}

static void call1(struct fz_child *c, unsigned nr, uint32_t a0)
{
	uint32_t a[6] = { a0 };

	fz_call(c, nr, a);
}

/* A memory hog, now and then: map more than memory holds and fill it from
 * /dev/zero (the I/O just submitted still in flight). The OOM killer picks the
 * biggest process, us; or the watchdog's SIGKILL stops the read. */
static void memory_hog(struct fz_child *c)
{
	uint32_t a[6] = { 0, HOG_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  (uint32_t)-1, 0 };
	long p;

	for (int i = 0; i < c->nfd; i++) {
		if (c->fd_kind[i] != FK_ZERO)
			continue;
		p = fz_call(c, __NR_mmap2, a);
		if (IS_ERR(p))
			return;
		a[0] = c->fd[i], a[1] = (uint32_t)p, a[2] = HOG_SIZE;
		fz_call(c, __NR_read, a);
		a[0] = (uint32_t)p, a[1] = HOG_SIZE;
		fz_call(c, __NR_munmap, a);
		return;
	}
}

/* Submit, then at once: fork, close, destroy, unmap the buffers, exit,
 * SIGKILL ourselves, exec, any call with the I/O left in flight, or (one
 * time in 250) take all memory. */
static void io_episode(struct fz_child *c)
{
	uint32_t ctx = c->nctx ? c->ctx[fz_below(&c->rng, c->nctx)] : 0;
	int fd = disk_fd(c);
	uint32_t a[6] = { 0 };

	if (submit_burst(c, ctx, fd) <= 0)
		return;
	switch (fz_below(&c->rng, 8)) {
	case 0:
		if (fz_below(&c->rng, 250))
			call1(c, __NR_fork, 0);
		else
			memory_hog(c);
		break;
	case 1: call1(c, __NR_close, fd); break;
	case 2: call1(c, __NR_io_destroy, ctx); break;
	case 3:
		a[0] = FZ_IOBUF, a[1] = FZ_IOBUF_LEN;
		fz_call(c, __NR_munmap, a);
		map_fixed(FZ_IOBUF, FZ_IOBUF_LEN, PROT_READ | PROT_WRITE);
		break;
	case 4: if (fz_pct(&c->rng, 20)) call1(c, __NR_exit, 0); break;
	case 5:
		a[0] = c->self_pid, a[1] = SIGKILL;
		if (fz_pct(&c->rng, 20))
			fz_call(c, __NR_kill, a);
		break;
	case 6:
		for (int i = 0; i < 3; i++)
			a[i] = fz_arg(c, __NR_execve, i ? FA_ARGV : FA_PATH, a, i);
		fz_call(c, __NR_execve, a);
		break;
	case 7: table_call(c); break;		/* anything, and left in flight */
	}
}

/* Scribble on a ring's header or events, then ask the kernel about it. */
static void ring_tamper(struct fz_child *c)
{
	static const uint32_t odd[] = { 0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 127, 128, 255 };
	uint32_t ctx, *w, a[6] = { 0 };

	if (!c->nctx || !c->rings_ours)
		return;
	ctx = c->ctx[fz_below(&c->rng, c->nctx)];
	w = (uint32_t *)ctx;
	for (int i = fz_below(&c->rng, 4); i >= 0; i--) {
		uint32_t v = fz_pct(&c->rng, 50) ? odd[fz_below(&c->rng, 8)] : (uint32_t)fz_next(&c->rng);
		w[fz_pct(&c->rng, 70) ? fz_below(&c->rng, 8) : fz_below(&c->rng, 1024)] = v;
	}
	a[0] = ctx, a[1] = 1 + fz_below(&c->rng, 8), a[2] = FZ_STRUCTS + 0x200, a[3] = 0;
	if (fz_pct(&c->rng, 50)) {
		struct kernel_timespec *past = (void *)(FZ_STRUCTS + 0x40);
		past->tv_sec = past->tv_nsec = 0;
		a[3] = (uint32_t)past;
		fz_call(c, __NR_io_getevents_abs, a);
	} else {
		submit_burst(c, ctx, c->nfd ? c->fd[0] : -1);
	}
}

/* ---- the loop ---- */

static void end_kids(struct fz_child *c)
{
	for (int i = 0; i < c->nkid; i++)
		sys2(__NR_kill, c->kid[i], SIGKILL);
	for (int i = 0; i < 2; i++)
		if (c->pump[i] > 0)
			sys2(__NR_kill, c->pump[i], SIGKILL);
}

static void one_step(struct fz_child *c)
{
	uint32_t r = fz_below(&c->rng, 100);

	if (r < 88)
		table_call(c);
	else if (r < 93)
		random_call(c);
	else if (r < 97)
		io_episode(c);
	else
		ring_tamper(c);
}

static _Noreturn void run_loop(struct fz_child *c)
{
	while (c->calls < c->max_calls) {
		if (!(c->calls & 31) && fuzz_now_ns() > c->deadline_ns)
			break;
		one_step(c);
	}
	end_kids(c);
	fz_exit(0);
}

void fuzz_child_run(const struct fuzz_child_args *a)
{
	static struct fz_child c;

	memset(&c, 0, sizeof(c));
	c.rng.s = a->seed;
	c.shared = a->shared;
	c.slotno = a->slot;
	c.slot = &a->shared->slot[a->slot];
	c.watchdog_pid = a->watchdog_pid;
	c.self_pid = sys1(__NR_getpid, 0);
	c.deadline_ns = a->deadline_ns;
	c.max_calls = a->max_calls;
	c.rings_ours = true;
	c.pipe_end[0] = c.pipe_end[1] = -1;
	c.slot->pump[0] = c.slot->pump[1] = 0;
	setup_fds(&c);
	setup_memory(&c);
	setup_aio(&c);
	run_loop(&c);
}

void fuzz_exec_child(uint64_t seed, unsigned slot, int watchdog_pid)
{
	static struct fz_child c;

	memset(&c, 0, sizeof(c));
	c.rng.s = seed;
	c.slotno = slot % FUZZ_SLOTS_MAX;
	c.self_pid = sys1(__NR_getpid, 0);
	c.watchdog_pid = watchdog_pid;
	c.depth = FZ_DEPTH_MAX;			/* no forks */
	c.deadline_ns = fuzz_now_ns() + 1000000000LL;
	c.max_calls = EXEC_CALLS;
	c.pipe_end[0] = c.pipe_end[1] = -1;
	for (int fd = 3; fd < 3 + FZ_FDS; fd++)	/* what exec kept, kinds unknown */
		add_fd(&c, fd, FK_NULL);
	setup_memory(&c);
	c.rings_ours = true;
	setup_aio(&c);
	run_loop(&c);
}
