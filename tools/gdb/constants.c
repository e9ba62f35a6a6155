/* constants.c: compiled to assembly only; gen_constants.py turns its "->NAME value" lines into constants.py for the gdb helpers. */
#include "clock.h"
#include "fixmap.h"
#include "highmem.h"
#include "highmem_types.h"
#include "irq.h"
#include "mm.h"
#include "paging.h"
#include "printk.h"
#include "sched.h"
#include "slab.h"
#include "trace.h"
#include "trap.h"
#include "uapi/aio_abi.h"
#include "uapi/vsyscall.h"
#if __has_include("aio.h")
#include "aio.h"
#define HAVE_AIO_CORE 1
#else
#define HAVE_AIO_CORE 0
#endif
#if __has_include("fs.h")
#include "fs.h"
#define HAVE_FS 1
#else
#define HAVE_FS 0
#endif

/* Each DEFINE becomes a line "->NAME VALUE" in the assembly (never assembled). */
#define DEFINE(name, value) \
	asm volatile("\n.ascii \"->" #name " %c0\"" : : "i" ((long)(value)))

void gdb_constants(void);
void gdb_constants(void)
{
	DEFINE(LOG_BUF_LEN, LOG_BUF_LEN);
	DEFINE(HZ, HZ);
	DEFINE(TRACE_MAGIC, TRACE_MAGIC);
	DEFINE(TRACE_VERSION, TRACE_VERSION);

	DEFINE(TASK_RUNNING, TASK_RUNNING);
	DEFINE(TASK_INTERRUPTIBLE, TASK_INTERRUPTIBLE);
	DEFINE(TASK_UNINTERRUPTIBLE, TASK_UNINTERRUPTIBLE);
	DEFINE(TASK_ZOMBIE, TASK_ZOMBIE);
	DEFINE(TASK_STOPPED, TASK_STOPPED);
	DEFINE(TASK_KILLABLE, TASK_KILLABLE);
	DEFINE(TASK_DEAD, TASK_DEAD);
	DEFINE(TASK_COMM_LEN, TASK_COMM_LEN);

	DEFINE(PAGE_SHIFT, PAGE_SHIFT);
	DEFINE(PAGE_SIZE, PAGE_SIZE);
	DEFINE(KERNEL_BASE, KERNEL_BASE);
	DEFINE(USER_TOP, USER_TOP);
	DEFINE(PKMAP_BASE, PKMAP_BASE);
	DEFINE(LAST_PKMAP, LAST_PKMAP);
	DEFINE(FIXADDR_TOP, FIXADDR_TOP);
	DEFINE(FIX_KMAP_BEGIN, FIX_KMAP_BEGIN);
	DEFINE(VSYSCALL_ENTRY, VSYSCALL_ENTRY);
	DEFINE(PTE_PRESENT, PTE_PRESENT);
	DEFINE(PTE_PSE, PTE_PSE);
	DEFINE(T_IRQ_BASE, T_IRQ_BASE);
	DEFINE(NR_IRQS, NR_IRQS);
	DEFINE(T_SYSCALL, T_SYSCALL);

	DEFINE(MAX_ORDER, MAX_ORDER);
	DEFINE(MAX_NR_ZONES, MAX_NR_ZONES);
	DEFINE(KM_TYPE_NR, KM_TYPE_NR);
	DEFINE(PG_HIGHMEM, PG_highmem);
	DEFINE(PG_SLAB, PG_slab);

	DEFINE(AIO_RING_MAGIC, AIO_RING_MAGIC);
	DEFINE(AIO_RING_HEADER_SIZE, sizeof(struct aio_ring));
	DEFINE(IO_EVENT_SIZE, sizeof(struct io_event));
	DEFINE(IOCB_SIZE, sizeof(struct iocb));
	DEFINE(IOCB_OFF_KEY, __builtin_offsetof(struct iocb, aio_key));
	DEFINE(IOCB_OFF_OPCODE, __builtin_offsetof(struct iocb, aio_lio_opcode));
	DEFINE(IOCB_OFF_FILDES, __builtin_offsetof(struct iocb, aio_fildes));
	DEFINE(IOCB_OFF_BUF, __builtin_offsetof(struct iocb, aio_buf));
	DEFINE(IOCB_OFF_NBYTES, __builtin_offsetof(struct iocb, aio_nbytes));
	DEFINE(IOCB_OFF_OFFSET, __builtin_offsetof(struct iocb, aio_offset));
	DEFINE(IOCB_CMD_PREAD, IOCB_CMD_PREAD);
	DEFINE(IOCB_CMD_PWRITE, IOCB_CMD_PWRITE);
	DEFINE(IOCB_CMD_FSYNC, IOCB_CMD_FSYNC);
	DEFINE(IOCB_CMD_FDSYNC, IOCB_CMD_FDSYNC);
	DEFINE(IOCB_CMD_NOOP, IOCB_CMD_NOOP);

	DEFINE(HAVE_AIO_CORE, HAVE_AIO_CORE);
#if HAVE_AIO_CORE
	DEFINE(KIF_COMPLETED, KIF_COMPLETED);
	DEFINE(KIF_CANCELLING, KIF_CANCELLING);
	DEFINE(KIF_CANCELLED, KIF_CANCELLED);
	DEFINE(AIO_HASH_SIZE, AIO_HASH_SIZE);
#endif
	DEFINE(HAVE_FS, HAVE_FS);
#if HAVE_FS
	DEFINE(NR_OPEN, NR_OPEN);
	DEFINE(FMODE_READ, FMODE_READ);
	DEFINE(FMODE_WRITE, FMODE_WRITE);
#endif
}
