/* trace.h: request tracing: per-CPU buffers of fixed-size records (TSC time,
 * CPU, pid, tid, request key and context, size, result), trace points for the
 * life of every AIO request, the block layer, interrupts, the scheduler and
 * system calls, switched per category (trace= on the command line,
 * /proc/trace at run time) and drained to QEMU's isa-debugcon (port 0xe9).
 *
 * Cost when off: every trace point is an inline test of one word,
 * trace_mask, predicted false; the record is written out of line.
 * Contexts: every trace point may run in any context (interrupts on or off,
 * interrupt handlers included); it never sleeps and takes no lock.
 * The record layout and the stream format are an ABI with
 * tools/trace2json.py (TRACE_VERSION). */
#ifndef TRACE_H
#define TRACE_H

#include "types.h"

/* Categories: bits of trace_mask, named on the command line and in /proc/trace. */
#define TRACE_AIO	0x01	/* the AIO core: submit, accept, complete, post, reap, cancel, destroy */
#define TRACE_BLK	0x02	/* block requests: queued to the driver, started, done */
#define TRACE_IRQ	0x04	/* interrupt handler entry and exit */
#define TRACE_SCHED	0x08	/* context switches and wake-ups */
#define TRACE_SYSCALL	0x10	/* system call entry and exit */
#define TRACE_ALL	0x1f

/* Record types (the 'type' field). */
enum trace_type {
	TR_COMM = 1,		/* a task's name: arg = its tid, 16 name bytes in ctx..result */
	TR_SYSCALL_ENTER,	/* arg = number */
	TR_SYSCALL_EXIT,	/* arg = number, result */
	TR_IRQ_ENTER,		/* arg = IRQ line */
	TR_IRQ_EXIT,		/* arg = IRQ line */
	TR_SWITCH,		/* pid/tid switched out; arg = next tid, size = next pid, result = prev state */
	TR_WAKEUP,		/* arg = woken tid, size = its pid */
	TR_AIO_SUBMIT,		/* io_submit, its context found: ctx, size = nr, arg = user id */
	TR_AIO_ACCEPT,		/* a request got its slot: ctx, key, size = bytes, arg = opcode */
	TR_AIO_REFUSE,		/* its file method refused it (never in flight): ctx, key, result */
	TR_BLK_QUEUE,		/* a part handed to the driver: ctx, key, size, arg = device name */
	TR_BLK_START,		/* a part started on the device */
	TR_BLK_DONE,		/* the device finished a part (its interrupt): result */
	TR_AIO_COMPLETE,	/* aio_complete: ctx, key, result */
	TR_AIO_POST,		/* event posted: ctx, key, arg = ring slot, result */
	TR_AIO_REAP,		/* event reaped by the kernel: ctx, arg = ring slot, size = iocb, result */
	TR_AIO_USER_REAP,	/* user space consumed events (seen by the kernel later):
				 * ctx, arg = first slot, size = count */
	TR_AIO_CANCEL,		/* io_cancel / teardown: ctx, key, result (0: withdrawn), arg = 1 teardown */
	TR_AIO_DESTROY,		/* context teardown: ctx, size = requests active, arg = 0 begin, 1 end */
	TR_AIO_SETUP,		/* io_setup made ctx: size = its id (the ring's user address), arg = ring events */
	TR_NR_TYPES
};

#define TR_IN_IRQ	0x8000	/* type flag: written in interrupt context (pid/tid
				 * are then the interrupted task's) */

/* One record: 40 bytes, little-endian, as tools/trace2json.py reads it. */
struct trace_rec {
	u64 tsc;
	u16 type;
	u16 cpu;
	u32 pid;		/* thread group */
	u32 tid;
	u32 ctx;		/* AIO context: its trace_id (TR_AIO_SETUP gives its user id) */
	u32 key;		/* request key (its slot in the context) */
	u32 size;
	s32 result;
	u32 arg;
};

#define TRACE_VERSION	1
#define TRACE_MAGIC	0x52544b41u	/* "AKTR": a chunk's header on the debugcon stream */
#define TRACE_PORT	0xe9		/* QEMU -device isa-debugcon,iobase=0xe9 */
#define TRACE_NR_CPUS	1		/* grow with SMP: one buffer per CPU */
#define TRACE_BUF_KB_DEFAULT 256	/* trace_buf= (KiB per CPU) */
#define TRACE_BUF_KB_MAX 4096

/* A chunk on the stream: this header, then nr records of one CPU, the
 * (first + i)-th it ever buffered. 'flags' has TRACE_CHUNK_FINAL on the last
 * chunk of each CPU (at power-off), whose 'overruns' and 'written' are final. */
struct trace_chunk {
	u32 magic;
	u16 version;
	u16 cpu;
	u32 first;
	u32 nr;
	u32 written;		/* records buffered so far on this CPU */
	u32 overruns;		/* records dropped so far: the buffer was full */
	u32 tsc_khz;
	u32 flags;
};
#define TRACE_CHUNK_FINAL 0x1

extern u32 trace_mask;		/* TRACE_* categories on; 0 = off */

/* Write one record for the current task (out of line: the slow path). */
void __trace_rec(u16 type, u32 ctx, u32 key, u32 size, s32 result, u32 arg);
/* TR_COMM for task tid named name. */
void __trace_comm(u32 tid, const char *name);

static inline bool trace_on(u32 cat)
{
	return __builtin_expect(trace_mask & cat, 0);
}

#define TRACE_POINT(cat, type, ctx, key, size, result, arg) do {			\
		if (trace_on(cat))							\
			__trace_rec(type, ctx, key, size, result, arg);			\
	} while (0)

static inline void trace_syscall_enter(u32 nr)
{
	TRACE_POINT(TRACE_SYSCALL, TR_SYSCALL_ENTER, 0, 0, 0, 0, nr);
}
static inline void trace_syscall_exit(u32 nr, long ret)
{
	TRACE_POINT(TRACE_SYSCALL, TR_SYSCALL_EXIT, 0, 0, 0, ret, nr);
}
static inline void trace_irq(u16 type, int irq)
{
	TRACE_POINT(TRACE_IRQ, type, 0, 0, 0, 0, irq);
}
static inline void trace_switch(u32 next_tid, u32 next_pid, long prev_state)
{
	TRACE_POINT(TRACE_SCHED, TR_SWITCH, 0, 0, next_pid, prev_state, next_tid);
}
static inline void trace_wakeup(u32 tid, u32 pid)
{
	TRACE_POINT(TRACE_SCHED, TR_WAKEUP, 0, 0, pid, 0, tid);
}
/* An AIO record: ctx id, request key, size, result, arg. */
static inline void trace_aio(u16 type, u32 ctx, u32 key, u32 size, s32 result, u32 arg)
{
	TRACE_POINT(TRACE_AIO, type, ctx, key, size, result, arg);
}
/* A block record of a request tagged (ctx, key) on device dev (name). */
static inline void trace_blk(u16 type, u32 ctx, u32 key, u32 size, s32 result, const char *dev)
{
	if (trace_on(TRACE_BLK)) {
		u32 name = 0;
		for (int i = 0; i < 4 && dev[i]; i++)
			name |= (u32)(u8)dev[i] << (8 * i);
		__trace_rec(type, ctx, key, size, result, name);
	}
}
static inline void trace_comm(u32 tid, const char *name)
{
	if (trace_on(TRACE_ALL))
		__trace_comm(tid, name);
}

/* The CPU this runs on (an smp_processor_id() for the buffers): 0 until SMP. */
static inline u32 trace_cpu(void)
{
	return 0;
}

/* trace= and trace_buf= from the command line: allocate and switch on.
 * Boot, after mm_init and time_init. */
void trace_init(void);
/* /proc/trace (after fs_init). */
void trace_proc_init(void);
/* Switch categories to mask (0: off), allocating the buffers first when
 * needed. 0 or -ENOMEM. Boot, or process context with /proc/trace's mutex
 * held (kernel/trace.c). */
int trace_set(u32 mask);
/* Parse a category list ("aio,blk", "all", "off"): the mask, or -EINVAL. */
int trace_parse(const char *s, size_t len);
/* Drain points: stream buffered records to the debugcon port. The idle task
 * calls trace_drain_step() while nothing else is runnable: it sends at most
 * one small chunk of a buffer at least a quarter full, and says whether
 * another step is worth it. machine_exit() calls trace_drain_final()
 * (interrupts off): everything left, then each CPU's final chunk. */
bool trace_drain_step(void);
void trace_drain_final(void);

#endif
