/* child.h: a fuzz child's state and memory layout, shared by child.c (the
 * call loop) and gen.c (the arguments). Kernel ABI values (uapi/) only: the
 * child makes raw system calls, never through newlib's translating glue. */
#ifndef USER_FUZZ_CHILD_H
#define USER_FUZZ_CHILD_H

#include "fuzz.h"

struct iocb;

/* The child's own memory, at fixed addresses (the same every run). */
#define FZ_SCRATCH	0x50000000u		/* read-write, 16 pages: */
#define FZ_STRINGS	(FZ_SCRATCH)		/*   paths and argv strings, 8 KiB */
#define FZ_ARGVS	(FZ_SCRATCH + 0x2000)	/*   argv arrays, 4 KiB */
#define FZ_IOCBS	(FZ_SCRATCH + 0x3000)	/*   64 iocbs */
#define FZ_IOCBPP	(FZ_SCRATCH + 0x4000)	/*   iocb pointer arrays, 1024 slots */
#define FZ_STRUCTS	(FZ_SCRATCH + 0x5000)	/*   timespecs, events, ids, stat */
#define FZ_DATA		(FZ_SCRATCH + 0x6000)	/*   data, to the end */
#define FZ_RW_END	(FZ_SCRATCH + 0x10000)
#define FZ_RO		FZ_RW_END		/* one PROT_READ page */
#define FZ_NONE		(FZ_RO + 0x1000)	/* one PROT_NONE page */
#define FZ_RW2		(FZ_NONE + 0x1000)	/* one read-write page, then a hole */
#define FZ_HOLE		(FZ_RW2 + 0x1000)
#define FZ_IOBUF	0x51000000u		/* I/O buffers (unmapped in episodes) */
#define FZ_IOBUF_LEN	(256u * 1024)
#define FZ_MMAP_BASE	0x40000000u		/* where the kernel puts mmap2's regions */
#define FZ_RING_LO	0x70000000u		/* AIO rings go here and up (aio/ring.c) */
#define FZ_RING_HI	0x78000000u
#define FZ_IOCBS_MAX	64
#define FZ_IOCBPP_MAX	1024

enum fz_fd_kind { FK_NULL, FK_ZERO, FK_FILE, FK_FILE_RO, FK_DIR, FK_PIPE_R, FK_PIPE_W, FK_DISK };

#define FZ_FDS		16
#define FZ_CTXS		8
#define FZ_KIDS		8
#define FZ_DEPTH_MAX	2			/* forks of forks, no further */
#define FZ_PATHS	8			/* names per slot (fuzz_slot_path) */

struct fz_child {
	struct fuzz_rng rng;
	struct fuzz_shared *shared;
	struct fuzz_slot *slot;
	unsigned slotno;
	int depth;			/* 0: the watchdog's child; 1, 2: forks */
	int self_pid, watchdog_pid;
	int fd[FZ_FDS];			/* set-up descriptors, and their kinds */
	unsigned char fd_kind[FZ_FDS];
	int nfd;
	int last_fd;			/* the last descriptor a call returned */
	uint32_t ctx[FZ_CTXS];		/* AIO context ids */
	int nctx;
	int kid[FZ_KIDS];		/* pids our forks returned */
	int nkid;
	int pump[2];			/* keep the set-up pipes flowing */
	int pipe_end[2];		/* our ends of them: read, write (or -1) */
	bool rings_ours;		/* our contexts' rings are mapped here */
	uint32_t last_iocb;		/* an iocb last submitted (io_cancel) */
	uint32_t brk0;			/* the break at set-up */
	uint32_t pos_hi;		/* high word of the last pos_lo made */
	unsigned calls, max_calls;
	long long deadline_ns;
};

/* gen.c: argument i (of kind) of call nr, a[0..i) made already; pointers go
 * into the layout above. */
uint32_t fz_arg(struct fz_child *c, unsigned nr, int kind, const uint32_t *a, int i);
uint32_t fz_ptr(struct fz_child *c);
uint32_t fz_len(struct fz_child *c);
int64_t fz_offset(struct fz_child *c);
int fz_fd(struct fz_child *c);
/* Fill cb with a random request (mostly on our descriptors). */
void fz_fill_iocb(struct fz_child *c, struct iocb *cb);
/* Keep call nr from hurting the fuzzer rather than the kernel: our text,
 * data, stack and scratch stay mapped, names are created and removed only
 * under our own (so the clean-up finds them all). Returns the call to make. */
unsigned fz_contain(struct fz_child *c, unsigned nr, uint32_t a[6]);
/* Write the path pool's strings into FZ_STRINGS (set-up). */
void fz_gen_init(struct fz_child *c);

/* child.c: the raw call: by int $0x80, by the entry page (SYSENTER), or a
 * vfork/clone by int $0x80 whose child exits at once. */
enum fz_how { FZ_INT80, FZ_ENTRY, FZ_SPAWN };
long fz_syscall(unsigned nr, const uint32_t a[6], enum fz_how how);

#endif
