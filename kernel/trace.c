/* trace.c: the trace buffers (one per CPU), their writer, the drain to QEMU's
 * isa-debugcon port, trace= / trace_buf= and /proc/trace.
 *
 * A buffer is a ring of struct trace_rec that never overwrites: the writer
 * drops a record when the ring is full and counts it (overruns); drains make
 * room. head counts records ever buffered, tail records ever drained; both
 * wrap as u32 and only their difference matters.
 *
 * Locks: none. The writer fills its own CPU's buffer with interrupts off
 * around the reservation and the fill (one CPU: nothing else can run), so a
 * record below head is always whole. A drain sends 16 bytes at a time with
 * interrupts off and keeps its place in the chunk (struct drain), so drains
 * that interrupt each other still send whole chunks in order.
 * docs/locking.md says what SMP needs.
 */
#include "clock.h"
#include "cmdline.h"
#include "errno.h"
#include "fs.h"
#include "irq.h"
#include "mm.h"
#include "mutex.h"
#include "printk.h"
#include "procfs.h"
#include "sched.h"
#include "spinlock.h"
#include "string.h"
#include "trace.h"
#include "uaccess.h"
#include "x86.h"

#define DRAIN_CHUNK	64	/* records per chunk sent from idle */
#define DRAIN_PIECE	16	/* bytes sent per step with interrupts off */

struct trace_buf {
	struct trace_rec *recs;
	u32 nr;			/* records the ring holds */
	u32 head;		/* records ever buffered (the writer's) */
	u32 tail;		/* records ever drained (the drain's) */
	u32 wpos, rpos;		/* ring indices of head and tail */
	u32 overruns;		/* records dropped on a full ring */
};

u32 trace_mask;
static struct trace_buf trace_bufs[TRACE_NR_CPUS];
static u32 trace_buf_kb = TRACE_BUF_KB_DEFAULT;
static unsigned trace_buf_order;	/* alloc_pages order of each buffer */

/* /proc/trace's writers, one at a time: two first switch-ons would both
 * allocate (the boot's trace_init runs alone, without it). */
static DEFINE_MUTEX(trace_switch_mutex);

static const char *const trace_cat_names[] = { "aio", "blk", "irq", "sched", "syscall" };
#define NR_CATS	(sizeof(trace_cat_names) / sizeof(trace_cat_names[0]))

/* Reserve and fill one record (any context). */
static void trace_write(u16 type, u32 pid, u32 tid, u32 ctx, u32 key, u32 size, s32 result,
			u32 arg)
{
	u32 flags = local_irq_save();
	struct trace_buf *b = &trace_bufs[trace_cpu()];
	struct trace_rec *r;

	if (!b->recs || b->head - b->tail >= b->nr) {
		b->overruns++;
		local_irq_restore(flags);
		return;
	}
	r = &b->recs[b->wpos];
	b->wpos = b->wpos + 1 == b->nr ? 0 : b->wpos + 1;
	r->tsc = rdtsc();
	r->type = type | (in_interrupt() ? TR_IN_IRQ : 0);
	r->cpu = trace_cpu();
	r->pid = pid;
	r->tid = tid;
	r->ctx = ctx;
	r->key = key;
	r->size = size;
	r->result = result;
	r->arg = arg;
	b->head++;
	local_irq_restore(flags);
}

void __trace_rec(u16 type, u32 ctx, u32 key, u32 size, s32 result, u32 arg)
{
	trace_write(type, current->tgid, current->pid, ctx, key, size, result, arg);
}

void __trace_comm(u32 tid, const char *name)
{
	u32 w[4] = { 0, 0, 0, 0 };

	strlcpy((char *)w, name, sizeof(w));
	trace_write(TR_COMM, current->tgid, current->pid, w[0], w[1], w[2], (s32)w[3], tid);
}

/* ---- drains ---- */

/* The chunk being sent: a drain may stop between any two pieces (the idle task
 * is preempted), and the next drain goes on from here, so the stream never
 * holds half a chunk followed by another. Interrupts off while it changes. */
static struct {
	struct trace_chunk hdr;
	bool active;
	u32 hdr_sent;		/* bytes of hdr sent */
	u32 left;		/* records of the chunk not sent yet */
	u32 rec_sent;		/* bytes of the current record sent */
} drain;

static void port_write(const void *p, u32 n)
{
	asm volatile("rep outsb" : "+S"(p), "+c"(n) : "d"(TRACE_PORT) : "memory");
}

static void drain_begin(struct trace_buf *b, u32 cpu, u32 n, u32 flags)
{
	drain.hdr = (struct trace_chunk){
		.magic = TRACE_MAGIC, .version = TRACE_VERSION, .cpu = cpu, .first = b->tail,
		.nr = n, .written = b->head, .overruns = b->overruns, .tsc_khz = tsc_khz,
		.flags = flags,
	};
	drain.hdr_sent = drain.rec_sent = 0;
	drain.left = n;
	drain.active = true;
}

/* Send up to budget bytes of the active chunk (interrupts off); a record
 * leaves the ring (tail moves) once its last byte is out. */
static void drain_piece(u32 budget)
{
	struct trace_buf *b = &trace_bufs[drain.hdr.cpu];
	u32 n;

	while (budget && drain.active) {
		if (drain.hdr_sent < sizeof(drain.hdr)) {
			n = MIN(budget, (u32)sizeof(drain.hdr) - drain.hdr_sent);
			port_write((u8 *)&drain.hdr + drain.hdr_sent, n);
			drain.hdr_sent += n;
		} else if (drain.left) {
			n = MIN(budget, (u32)sizeof(struct trace_rec) - drain.rec_sent);
			port_write((u8 *)&b->recs[b->rpos] + drain.rec_sent, n);
			drain.rec_sent += n;
			if (drain.rec_sent == sizeof(struct trace_rec)) {
				drain.rec_sent = 0;
				b->rpos = b->rpos + 1 == b->nr ? 0 : b->rpos + 1;
				b->tail++;
				drain.left--;
			}
		} else {
			n = 0;
		}
		budget -= n;
		if (drain.hdr_sent == sizeof(drain.hdr) && !drain.left)
			drain.active = false;
	}
}

bool trace_drain_step(void)
{
	struct trace_buf *b = &trace_bufs[trace_cpu()];
	bool more;
	u32 flags;

	if (!drain.active && (!trace_mask || !b->recs || b->head - b->tail < b->nr / 4))
		return false;
	flags = local_irq_save();
	if (!drain.active)
		drain_begin(b, trace_cpu(), MIN(b->head - b->tail, (u32)DRAIN_CHUNK), 0);
	drain_piece(DRAIN_PIECE);
	more = drain.active || b->head - b->tail >= b->nr / 4;
	local_irq_restore(flags);
	return more;
}

void trace_drain_final(void)
{
	drain_piece(~0u);			/* the chunk a drain left half sent */
	for (u32 cpu = 0; cpu < TRACE_NR_CPUS; cpu++) {
		struct trace_buf *b = &trace_bufs[cpu];
		if (!b->recs)
			continue;
		while (b->head != b->tail) {
			drain_begin(b, cpu, MIN(b->head - b->tail, 4096u), 0);
			drain_piece(~0u);
		}
		drain_begin(b, cpu, 0, TRACE_CHUNK_FINAL);
		drain_piece(~0u);
	}
}

/* ---- switching ---- */

/* Allocate the buffers that are missing (kept until power-off). Boot or
 * process context. */
static int trace_alloc(void)
{
	for (u32 cpu = 0; cpu < TRACE_NR_CPUS; cpu++) {
		struct trace_buf *b = &trace_bufs[cpu];
		struct page *p;
		if (b->recs)
			continue;
		p = alloc_pages(GFP_KERNEL, trace_buf_order);
		if (!p)
			return -ENOMEM;
		b->recs = page_address(p);
		b->nr = (PAGE_SIZE << trace_buf_order) / sizeof(struct trace_rec);
	}
	return 0;
}

/* Name every task that exists (interrupts off: task_list changes only with
 * them off on this one CPU, as sysrq.c relies on too). */
static void trace_comm_one(struct task *t, void *arg)
{
	(void)arg;
	__trace_comm(t->pid, t->name);
}

/* Every task's name, under tasklist_lock (a task may be reaped on another CPU). */
static void trace_comm_all(void)
{
	task_for_each(trace_comm_one, NULL);
}

int trace_set(u32 mask)
{
	int err;

	if (mask && (err = trace_alloc()))
		return err;
	if (mask && !trace_mask) {
		trace_mask = mask;
		trace_comm_all();
	}
	WRITE_ONCE(trace_mask, mask);
	return 0;
}

int trace_parse(const char *s, size_t len)
{
	u32 mask = 0;

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	if (!len)
		return -EINVAL;
	if (len == 3 && !strncmp(s, "off", 3))
		return 0;
	if (len == 3 && !strncmp(s, "all", 3))
		return TRACE_ALL;
	while (len) {
		size_t w = 0, c;
		while (w < len && s[w] != ',')
			w++;
		for (c = 0; c < NR_CATS; c++)
			if (strlen(trace_cat_names[c]) == w && !strncmp(s, trace_cat_names[c], w))
				break;
		if (c == NR_CATS)
			return -EINVAL;
		mask |= 1u << c;
		s += w + (w < len);
		len -= w + (w < len);
	}
	return mask;
}

void trace_init(void)
{
	const char *cats = cmdline_get(&boot_cmdline, "trace");
	u32 kb = cmdline_get_num(&boot_cmdline, "trace_buf", TRACE_BUF_KB_DEFAULT);
	int mask;

	kb = MIN(MAX(kb, 4u), (u32)TRACE_BUF_KB_MAX);
	while ((PAGE_SIZE << trace_buf_order) < kb * 1024)
		trace_buf_order++;
	trace_buf_kb = (PAGE_SIZE << trace_buf_order) / 1024;
	/* trace_buf= alone allocates now: /proc/trace will not need to later */
	if (cmdline_get(&boot_cmdline, "trace_buf") && trace_alloc())
		pr_warn("trace: no memory for %u KiB buffers\n", trace_buf_kb);
	if (!cats)
		return;
	mask = trace_parse(cats, strlen(cats));
	if (mask < 0)
		pr_warn("trace: unknown category in trace=%s\n", cats);
	else if (mask && trace_set(mask))
		pr_warn("trace: no memory for %u KiB buffers\n", trace_buf_kb);
	else if (mask)
		pr_info("trace: %s on, %u KiB per CPU, to port 0x%x\n", cats, trace_buf_kb, TRACE_PORT);
}

/* ---- /proc/trace ---- */

static int trace_show(char *buf, size_t size)
{
	int len = snprintf(buf, size, "categories:");

	for (u32 c = 0; c < NR_CATS; c++)
		if (trace_mask & (1u << c))
			len += snprintf(buf + len, size - len, " %s", trace_cat_names[c]);
	len += snprintf(buf + len, size - len, "%s\nbuffer: %u KiB per CPU, %u records%s\n",
			trace_mask ? "" : " off", trace_buf_kb, trace_bufs[0].nr,
			trace_bufs[0].recs ? "" : " (allocated when switched on)");
	for (u32 cpu = 0; cpu < TRACE_NR_CPUS; cpu++) {
		struct trace_buf *b = &trace_bufs[cpu];
		len += snprintf(buf + len, size - len,
				"cpu%u: written %u drained %u buffered %u overruns %u\n",
				cpu, b->head, b->tail, b->head - b->tail, b->overruns);
	}
	return len;
}

static ssize_t trace_read(struct file *f, char *ubuf, size_t n, loff_t *pos)
{
	char text[256];
	int len = MIN(trace_show(text, sizeof(text)), (int)sizeof(text) - 1);

	return proc_read_text(text, len, ubuf, n, pos);
}

/* Write a category list, "all" or "off". */
static ssize_t trace_proc_write(struct file *f, const char *ubuf, size_t n, loff_t *pos)
{
	char text[64];
	int mask, err;

	if (!n || n >= sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, ubuf, n))
		return -EFAULT;
	mask = trace_parse(text, n);
	if (mask < 0)
		return mask;
	mutex_lock(&trace_switch_mutex);
	err = trace_set(mask);
	mutex_unlock(&trace_switch_mutex);
	return err ? err : (ssize_t)n;
}

static const struct file_operations trace_proc_ops = {
	.read = trace_read, .write = trace_proc_write,
};

void trace_proc_init(void)
{
	struct inode *inode;

	vfs_mkdir("/proc");
	inode = vfs_create("/proc/trace", S_IFREG | 0644, &trace_proc_ops);
	if (!IS_ERR(inode))
		iput(inode);
}
