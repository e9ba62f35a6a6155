/* ext2.h: the ext2 driver's internals shared by the files of kernel/fs/ext2: the mounted
 * file system, its block cache and page cache, inodes in memory, block mapping and
 * allocation, file AIO (buffered and O_DIRECT).
 *
 * Locking, as built today (step 2 of issue 18's plan below): each inode has
 * a mutex, ei->lock (ext2_ilock), held by every operation on a regular
 * file's data: read, write, truncate, fsync, map_page, the AIO try in
 * io_submit (ext2_itry_lock: only when free, with ei->nowait set: a cache
 * miss is -EAGAIN, never a wait) and the AIO worker's run of a request. It
 * guards the inode's size, its page-cache pages (hash, bits, bytes; busy is
 * set only under it), read-ahead and fsync state, and the holder's nowait
 * and fault_again. sb->lock, one per mounted file system, is taken inside
 * an inode lock (ext2_mlock: only if free under ei->nowait, then with
 * sb->nowait set) or alone, and guards everything shared: the block cache,
 * bitmaps and counts, the freed blocks' waits (sb->pend: an allocation
 * that finds only waiting blocks writes all metadata under it), the
 * superblock and descriptors, every inode's block
 * map and on-disk fields (di), the directories; namespace operations
 * (create, unlink, rename, mkdir, rmdir, lookup, readdir) hold it alone and
 * never take an inode lock. sb->pc_lock (a spinlock, inside both) guards
 * the page cache's LRU; eviction takes another inode's lock with
 * mutex_trylock only. Two inode locks are never waited for together.
 * Page fills start under the inode's lock and complete from the device's
 * interrupt without any (readahead.c; a busy page is waited for under it
 * before anyone writes, refills or frees it).
 * ext2_fill_lock (readahead.c, an irq-safe leaf spinlock) guards the fills'
 * state. Each of sb->aioq's spinlocks guards one AIO worker's queue
 * (aio.c). sb->icache_lock, a spinlock taken inside
 * the namespace lock and never around sb->lock, guards the inode cache list and
 * the transitions of an ext2 inode's reference count to and from zero.
 * ext2_flush_lock (flush.c), a mutex taken outside every inode lock and
 * sb->lock, guards the periodic flusher's list of mounts (sb->flush_link).
 * Process context everywhere. No function here calls iput() with an ext2
 * lock held (an inode's last reference may need them): they hand such
 * inodes back.
 * io_submit's tries count in ext2_try_locked / ext2_try_busy (ext2.h):
 * the inode's lock was free, or taken (the request went to the worker).
 * ext2_mlock spins for sb->lock up to EXT2_MLOCK_SPIN_US while its owner
 * runs and no one sleeps for it, before it sleeps (mutex_lock_spin: its holds
 * are microseconds; a hand-off to a sleeper costs a wake-up); under nowait it
 * only tries.
 * Every lock above but ext2_flush_lock and icache_lock keeps statistics
 * (stats.c, /proc/aiok/ext2_locks).
 *
 * Locking, as designed (issue 18; docs/locking.md "ext2: finer locks" is the
 * same plan with the reasons; built so far: the inode locks, the page
 * cache's LRU lock, with sb->lock as the inner lock of everything shared,
 * and the AIO workers' queues).
 * Outermost first; a lock is taken only while holding locks above it:
 *   1. sb->ns_lock (mutex, "ext2_ns"; today's sb->lock renamed): namespace
 *      operations (lookup, create, mknod, symlink, link, unlink, rename,
 *      mkdir, rmdir, readdir, readlink) and umount/sync's whole-fs passes:
 *      every directory's entries and blocks, link counts, the parent
 *      references used by ext2_is_ancestor. Never taken under an inode lock.
 *   2. ei->lock (mutex, "ext2_inode"; ext2_ilock/ext2_iunlock): one inode's
 *      size, block map (i_block and the contents of its indirect blocks),
 *      di (times, i_blocks, flags), its page-cache pages (pc_hash, each
 *      page's dirty/uptodate bits and bytes), read-ahead state, synced_*,
 *      map_changed, atime_fresh*, and the nowait/fault_again flags of its
 *      holder (they move from sb to ei). Read, write, the AIO try
 *      (mutex_trylock), O_DIRECT, map_page, truncate, fsync, the last iput's
 *      eviction take the one inode's lock alone. Two at once only under
 *      sb->ns_lock (link, unlink, rename, mkdir, rmdir: a directory and a
 *      victim, rename's up to four), taken in ascending inode number
 *      (lockdep subclass = rank); nothing holding one inode lock waits for
 *      another without ns_lock. A user copy under ei->lock that faults on any
 *      ext2 mapping fails the fault (-EDEADLK, the holder's fault_again) and
 *      is redone after faulting in without it, as today's copy under sb->lock.
 *   3. sb->alloc_lock (mutex, "ext2_alloc"): block and inode bitmaps, group
 *      descriptors, the superblock's counts and fields, super_dirty and
 *      super_owners, the freed blocks' waits (sb->pend: alloc.c). Inside an inode lock (bmap allocating, freeing on
 *      truncate) or ns_lock (a new inode); held across a bitmap block's
 *      read (a miss) and nothing else of other inodes.
 *   4. sb->pc_lock (spinlock, "ext2_pc"): the page cache's LRU (sb->pages,
 *      nr_pages, each page's lru link). Eviction picks a victim under it,
 *      takes the victim's inode lock with mutex_trylock only (a busy inode's
 *      pages are skipped; so no order edge to any ei->lock), drops pc_lock,
 *      then writes the page back under that inode lock.
 *   5. sb->bcache_lock (spinlock, "ext2_bcache"): the block cache's list,
 *      nr_bufs, each buffer's refs, dirty flag and owners (sb->meta_also
 *      goes: dir.c passes its extra owner by argument; ext2_bread takes
 *      the caller's nowait by argument). A buffer gets an uptodate
 *      flag and a locked (I/O in flight) bit: a miss inserts a locked buffer
 *      under the lock and reads it without, others wait for the bit
 *      outside the lock; write-back clears dirty under the lock before the
 *      write (a failure sets it again, wb_seq); eviction picks its victim
 *      under the lock and writes it without, as pc_lock's. A buffer's bytes belong to
 *      the lock of what it holds: bitmaps alloc_lock, directory blocks
 *      ns_lock, indirect blocks their file's ei->lock, an inode-table block
 *      each inode's 128 bytes its ei->lock (ext2_write_inode copies one
 *      inode's bytes; a write-back in between takes a copy that the next
 *      dirtying makes stale again, so none is lost).
 *   6. the leaves as today: sb->icache_lock, sb->aio_lock (one per worker
 *      queue), ext2_fill_lock (irq-safe).
 * ext2_flush_lock stays outside all of them; the flusher takes each dirty
 * inode's lock in turn (mutex_trylock first, skipping busy inodes until its
 * last pass) and alloc_lock for the superblock and descriptors. fsync of
 * one inode holds its ei->lock across its pages, its inode block, then
 * alloc_lock for the owners' superblock/descriptor write, and the FLUSH; the
 * owner sets stay as today, under bcache_lock (blocks) and alloc_lock (super).
 * The AIO workers (several per mount, at least 2, one per CPU): request of
 * inode ino goes to queue ino % nr; one queue runs in submission order, so
 * an fsync/fdatasync runs after every earlier request of its file that
 * went to the worker, and it waits for the file's O_DIRECT writes in flight
 * (dio_writes) before its FLUSH; different files run at once.
 *
 * Errors: a structure that cannot be right (a block number outside the file
 * system, a directory entry that overruns its block, a bad inode) is -EUCLEAN;
 * a device error is -EIO. Neither is a panic.
 */
#ifndef KERNEL_FS_EXT2_H
#define KERNEL_FS_EXT2_H

#include "atomic.h"
#include "ext2_fs.h"
#include "ext2_mount.h"
#include "fs.h"
#include "list.h"
#include "lock_stat.h"
#include "mutex.h"
#include "sched.h"
#include "spinlock.h"
#include "wait.h"
#include "workqueue.h"

#define EXT2_CACHE_MAX	256		/* cached blocks per file system (a page each) */
#define EXT2_PC_MAX	1024		/* page-cache pages per file system (4 MiB) */
#define EXT2_PC_HASH	16		/* hash buckets of an inode's pages */
#define EXT2_MLOCK_SPIN_US	50	/* ext2_mlock spins this long before it sleeps */
#define EXT2_LINK_MAX	32000		/* links of an inode (a directory's subdirectories + 2) */

#define EXT2_OWNERS	4		/* inodes a dirty block remembers */
#define EXT2_OWNERS_ALL	0xff		/* ext2_owners.nr: more, or unknown */

/* The inodes whose fsync must write a dirty block (or the superblock and
 * descriptors): those whose metadata changed in it since it was last
 * written. Past EXT2_OWNERS of them, every fsync writes it. (sb->lock) */
struct ext2_owners {
	u32 ino[EXT2_OWNERS];
	u8 nr;				/* or EXT2_OWNERS_ALL */
};

/* ino joins o (ino 0, or one past EXT2_OWNERS: everyone); does o hold ino
 * (or everyone)?; ino leaves o (not everyone). bcache.c. */
void ext2_owners_add(struct ext2_owners *o, u32 ino);
bool ext2_owners_has(const struct ext2_owners *o, u32 ino);
void ext2_owners_del(struct ext2_owners *o, u32 ino);

/* One group's blocks freed by inodes whose metadata saying so is not on
 * the disk yet: none is handed out again until it is (alloc.c; sb->lock). */
struct ext2_pend {
	u8 *map;			/* a bit per block of the group (kmalloc), or NULL */
	u32 nr;				/* bits set */
	struct ext2_owners owners;	/* whose metadata write-back ends the wait */
};

struct ext2_sb;

#define EXT2_AIO_QUEUES	8		/* AIO worker queues per file system, at most */

/* One of a file system's AIO worker queues (aio.c): the requests of the
 * inodes whose number is its index modulo the queues in use, oldest first,
 * run by one worker thread in that order. */
struct ext2_aio_queue {
	spinlock_t lock;		/* list, the requests' queued flags (irqsave) */
	struct list_head list;
	struct work_struct work;	/* on its worker's workqueue */
	struct ext2_sb *sb;
	u32 idx;
};

/* One cached block (sb->lock). */
struct ext2_buf {
	u32 blocknr;
	u32 refs;			/* bread/bget users not yet released */
	bool dirty;			/* newer than the disk */
	struct ext2_owners owners;	/* while dirty: whose fsync writes it */
	struct ext2_sb *sb;
	void *data;			/* the block: a low-memory page's start */
	struct page *page;
	struct list_head lru;		/* sb->bufs, most recently used first */
};

/* When a read moves atime (mount flags, super.c). */
enum ext2_atime {
	EXT2_ATIME_RELATIME,		/* Linux's default (ext2_accessed) */
	EXT2_ATIME_STRICT,		/* MS_STRICTATIME: every read */
	EXT2_ATIME_NONE,		/* MS_NOATIME: never */
};

struct ext2_sb {
	struct mutex lock;		/* see the head comment */
	struct file *dev;		/* the block-device file (the mount's reference) */
	u64 dev_offset;			/* byte where the file system starts on it */
	u64 dev_bytes;			/* bytes it may use from there */
	u32 dev_id;			/* st_dev */
	struct ext2_super_block *es;	/* the primary superblock, as kept in memory */
	struct ext2_group_desc *gd;	/* every group's descriptor */
	u32 block_size, block_log, addr_per_block;
	u32 ngroups, bpg, ipg, inode_size, first_ino, first_data_block;
	u32 blocks_count, inodes_count, gdt_blocks;
	bool rdonly;			/* MS_RDONLY, or an unknown RO_COMPAT feature */
	enum ext2_atime atime;		/* mount flags, fixed at mount */
	bool nodiratime;		/* MS_NODIRATIME: directories' atime stays */
	bool was_valid;			/* s_state said clean at mount: say so at umount */
	bool super_dirty;		/* es or gd changed since the last write-back */
	struct ext2_owners super_owners;	/* whose fsync writes them (dirty) */
	u32 meta_also;			/* an inode that also owns every metadata
					 * change made now (ext2_dir_add and
					 * ext2_dir_set: the name's inode), or 0 */
	bool nowait;			/* the holder of lock must not wait on the disk:
					 * a cache miss is -EAGAIN (an AIO try in io_submit) */
	bool fault_again;		/* the holder's user copy faulted on a mapping of
					 * this file system (map_page refused: -EDEADLK):
					 * ext2_file_rw answers -EAGAIN, the caller faults
					 * the user range in without the lock and retries */
	struct list_head bufs;		/* the block cache, LRU order */
	u32 nr_bufs;
	spinlock_t pc_lock;		/* pages, nr_pages, each page's lru link */
	struct list_head pages;		/* the page cache (struct ext2_page), LRU order */
	u32 nr_pages;
	struct ext2_aio_queue aioq[EXT2_AIO_QUEUES];	/* the AIO workers' (aio.c) */
	spinlock_t icache_lock;		/* inodes, nr_inodes, inode counts reaching zero */
	struct list_head inodes;	/* inodes in use (struct ext2_inode_info) */
	u32 nr_inodes;			/* in use or being freed (ext2_put) */
	struct inode *root;
	u32 wb_seq;			/* metadata write-backs failed (and data of
					 * inodes gone since): fsync reports (lock) */
	struct ext2_pend *pend;		/* per group (kmalloc'd at the first free), or NULL */
	u32 pend_nr;			/* blocks waiting, all groups (alloc.c, lock) */
	bool pend_all;			/* no memory for a record: every free block
					 * waits for the next write of all metadata */
	struct list_head flush_link;	/* the flusher's list (flush.c), or empty */
	wait_queue_head_t dio_wait;	/* an inode's direct I/O in flight reached
					 * zero (dio.c: truncate, fills wait here) */
};

#define EXT2_RUNS	16		/* block runs an inode remembers (dio.c) */

/* A run of the block map: file blocks [lblk, lblk + len) on device blocks
 * [pblk, pblk + len), all inside one map block (the inode's direct slots or
 * one indirect block). */
struct ext2_run {
	u32 lblk, pblk, len;
};

/* An ext2 inode in memory: inode->private. */
struct ext2_inode_info {
	struct mutex lock;		/* ext2_ilock: see the head comment */
	bool nowait;			/* the holder of lock must not wait on the disk
					 * (io_submit's try): a miss is -EAGAIN, and
					 * sb->lock is taken only if free (ext2_mlock) */
	bool fault_again;		/* the holder's user copy faulted on a mapping of
					 * an ext2 file (map_page refused: -EDEADLK) */
	struct ext2_inode di;		/* the on-disk inode's first 128 bytes (sb->lock) */
	struct inode *inode;
	struct list_head link;		/* sb->inodes (icache_lock) */
	struct list_head pc_hash[EXT2_PC_HASH];	/* its cached pages by index (sb->lock) */
	u32 nr_pages;
	u32 ra_next, ra_win;		/* read-ahead (readahead.c, lock) */
	u32 flush_pass;			/* the flusher's last pass over it (ext2_flush_lock) */
	/* fsync's state (sb->lock): */
	u32 wb_seq;			/* its data's write-backs failed: an open
					 * file's f_wb_err samples wb_seq + sb->wb_seq */
	u64 synced_size;		/* size and i_blocks as last written with */
	u32 synced_blocks;		/*   the metadata: fdatasync's "only times" */
	bool map_changed;		/* blocks freed since: the map must go too */
	/* relatime (ext2_accessed, sb->lock): the atime atime_fresh stays as it
	 * is until jiffies reach atime_fresh_until */
	u32 atime_fresh;
	unsigned long atime_fresh_until;
	/* O_DIRECT requests sent without waiting (io_submit's try, the worker's
	 * async reads), until the driver ends them (dio.c; atomic, any context):
	 * a truncate waits for both to be 0, a read into the page cache for
	 * dio_writes (Linux's i_dio_count and inode_dio_wait). */
	atomic_t dio_reads, dio_writes;
	/* The runs its map lookups found last (ext2_map_run; the inode's lock), one
	 * per slot, a slot per map block modulo EXT2_RUNS: a lookup inside one
	 * costs no walk of the map; forgotten whenever blocks of the file are
	 * freed (ext2_free_blocks_from). len 0: unused. */
	struct ext2_run runs[EXT2_RUNS];
};

/* A reader waiting for a page fill in flight (ext2_fill_start/ext2_fill_join):
 * done runs once, from the read's completion (interrupts off, any context),
 * when the page is uptodate (ok) or the read failed. The page may be gone
 * by then: done must not need it. */
struct ext2_fill_wait {
	struct list_head link;		/* the page's waiters (ext2_fill_lock) */
	struct ext2_page *ep;		/* the page while w is among its waiters;
					 * NULL once called or detached (fill_lock) */
	void (*done)(struct ext2_fill_wait *w, bool ok);
	void *priv;
};

/* One page of a regular file's data in the page cache (sb->lock; busy,
 * uptodate of a busy page and waiters under ext2_fill_lock too). */
struct ext2_page {
	u32 index;			/* file offset / PAGE_SIZE */
	u8 dirty;			/* one bit per block of the page: newer than the disk
					 * (set through ext2_pc_mark / ext2_pc_dirty) */
	unsigned long dirtied;		/* jiffies when it turned dirty (the flusher) */
	bool uptodate;			/* read from the disk (or written whole) */
	bool busy;			/* a fill (a read into it) is in flight: set under
					 * sb->lock, cleared by the read's completion; such
					 * a page is never freed, written or filled again
					 * (readahead.c: ext2_fill_wait_page) */
	u16 fill_len;			/* bytes the fill reads */
	u16 fill_eof;			/* bytes inside the file: the rest reads as zeros */
	struct list_head waiters;	/* struct ext2_fill_wait of readers of the fill */
	bool mapwrite;			/* a shared mapping may write it: every write-back
					 * takes its blocks in the file as dirty, until
					 * no mapping holds the page any more */
	struct page *page;		/* low memory (pagecache.c); reached through kmap */
	struct inode *inode;
	struct list_head hash;		/* ext2_inode_info.pc_hash[index % EXT2_PC_HASH] */
	struct list_head lru;		/* sb->pages, most recently used first */
};

static inline struct ext2_sb *EXT2_SB(const struct inode *inode) { return inode->i_sb; }
static inline struct ext2_inode_info *EXT2_I(const struct inode *inode) { return inode->private; }

/* bcache.c: the block cache. bread reads block nr (a valid number) unless
 * cached: the buffer with a reference, or ERR_PTR(-EIO/-ENOMEM/-EUCLEAN for a
 * number outside the file system). bget: the same without reading, zeroed
 * when new (the caller fills all of it). brelse drops the reference. */
struct ext2_buf *ext2_bread(struct ext2_sb *sb, u32 nr);
struct ext2_buf *ext2_bget(struct ext2_sb *sb, u32 nr);
void ext2_brelse(struct ext2_buf *b);
/* b changed for inode ino's metadata (0: anyone's, every fsync writes it):
 * dirty, and ino (and sb->meta_also) among its owners. ext2_bown adds one
 * more owner to a block made dirty. */
void ext2_bdirty(struct ext2_buf *b, u32 ino);
void ext2_bown(struct ext2_buf *b, u32 ino);
/* The superblock or a group descriptor changed for ino's metadata. */
void ext2_super_dirty(struct ext2_sb *sb, u32 ino);
/* Write every dirty page and block back (then the superblock and descriptors
 * when changed) and flush the device's cache: 0 or the first -EIO. No ext2
 * lock held: it takes each inode's, then sb->lock. */
int ext2_sync_fs(struct ext2_sb *sb);
/* Its metadata part and the FLUSH (sb->lock held). */
int ext2_sync_meta_flush(struct ext2_sb *sb);
/* The metadata part of that: superblock and descriptors when changed, then
 * every dirty block; no FLUSH. A failed block stays dirty (written again
 * later) and bumps sb->wb_seq. 0 or the first -EIO. */
int ext2_sync_meta(struct ext2_sb *sb);
/* The same for fsync of inode ino: only what ino owns (ext2_owners: its
 * inode's block, its indirect blocks, the bitmaps and descriptors its
 * allocations changed, the directory blocks that name it), and what
 * everyone owns. */
int ext2_sync_meta_inode(struct ext2_sb *sb, u32 ino);
/* Block nr was freed: take it out of the cache (or, still held, make it clean). */
void ext2_bforget(struct ext2_sb *sb, u32 nr);
/* Forget every cached block (umount, after ext2_sync_fs); a dirty one is lost. */
void ext2_bcache_drop(struct ext2_sb *sb);
/* Is nr a block of the file system that may hold data (not the boot block)? */
bool ext2_block_ok(const struct ext2_sb *sb, u32 nr);
/* Byte I/O on the device at the file system's offset (the superblock). */
int ext2_dev_rw(struct ext2_sb *sb, bool write, struct page *page, u32 off, u32 len, u64 pos);

/* pagecache.c: regular files' data (the inode's lock held). */
void ext2_pc_init(struct ext2_inode_info *ei);
/* Page index of inode, cached: read from the disk when fill and not yet
 * uptodate (-EAGAIN instead under nowait), else zeroed when new. A busy
 * page (a fill in flight) is waited for first (-EAGAIN under nowait). */
struct ext2_page *ext2_pc_get(struct inode *inode, u32 index, bool fill);
/* Page index of inode as cached (busy or not), else NULL, or with create a
 * new page, not uptodate, its bytes undefined (a fill writes them all); or
 * ERR_PTR(-ENOMEM). Never waits on the disk under nowait. */
struct ext2_page *ext2_pc_lookup(struct inode *inode, u32 index, bool create);
void ext2_pc_zero(struct ext2_page *ep, u32 off, u32 len);
/* Move the blocks of ep whose bit is in mask from or to the device, runs of
 * consecutive device blocks at a time; a hole reads as zeros and is skipped
 * on a write. 0, -errno, -EAGAIN under nowait. */
int ext2_pc_io(struct ext2_page *ep, bool write, u32 mask);
/* Bytes [off, off + len) of the page changed: their blocks are dirty. */
void ext2_pc_dirty(struct ext2_page *ep, u32 off, u32 len);
/* The blocks of ep in bits are dirty (the page's stamp when it was clean). */
void ext2_pc_mark(struct ext2_page *ep, u8 bits);
/* Write back inode's dirty pages (its lock held) / every dirty page of sb
 * (each inode's lock taken in turn, with a reference: sync, umount, under
 * mount_mutex) / those of sb dirty for at least age jiffies (the flusher's
 * pass number pass, nonzero and new each time: inodes whose lock is taken
 * are skipped; *written counts them): 0 or the first error. A page is clean
 * afterwards either way; a failure bumps its inode's wb_seq. No ext2 lock
 * held but inode's for the first. */
int ext2_pc_sync_inode(struct inode *inode);
int ext2_pc_sync_all(struct ext2_sb *sb);
int ext2_pc_sync_older(struct ext2_sb *sb, unsigned long age, u32 pass, u32 *written);
/* Forget inode's pages (its data is gone, or was written back). */
void ext2_pc_drop(struct inode *inode);
/* The file shrinks to size (before its blocks are freed): pages past it go,
 * the tail of the last one is zeroed and written back later. */
int ext2_pc_truncate(struct inode *inode, loff_t size);
/* Write back and drop the pages over [pos, pos + n) (before direct I/O there);
 * mappings of them are unmapped first (vm_unmap_file_pages). */
int ext2_pc_flush_range(struct inode *inode, loff_t pos, size_t n);
/* umount: every page of sb (none should be left). */
void ext2_pc_drop_all(struct ext2_sb *sb);
/* For a mapping's fault (f_op->map_page): page index of inode, filled, with
 * a reference for the mapping; while a mapping holds it the page is never
 * evicted (a dropped page, by truncate or direct I/O, lives on until its
 * mappings let go). write: a shared mapping will write it: its blocks in the
 * file are dirty now and at every write-back while it stays mapped. The page
 * or ERR_PTR(-errno). */
struct page *ext2_pc_map(struct inode *inode, u32 index, bool write);

/* super.c */
int ext2_write_super(struct ext2_sb *sb);
/* Note on the console (debug level) that the file system has a bad structure; -EUCLEAN. */
int ext2_corrupt(struct ext2_sb *sb, const char *what, u32 n);
extern const struct inode_operations ext2_dir_iops, ext2_file_iops, ext2_symlink_iops;
extern const struct file_operations ext2_file_ops, ext2_dir_ops;

/* inode.c */
/* The inode ino of sb with a reference (from the cache, or read): ERR_PTR(-EUCLEAN)
 * for a number out of range or an inode not in use, -EIO. sb->lock held. */
struct inode *ext2_iget(struct ext2_sb *sb, u32 ino);
/* Write the in-memory inode into its inode-table block (cached, dirty). */
int ext2_write_inode(struct inode *inode);
/* A new inode of mode in the group near dir's, written, in the cache. */
struct inode *ext2_new_inode(struct inode *dir, u32 mode);
void ext2_touch(struct inode *inode, bool mtime);	/* ctime (and mtime) = now */
/* A read of inode's data or entries: atime = now as the mount says
 * (sb->atime): by the relatime rule (Linux's default: only when atime is not
 * after mtime and ctime, or is a day old), at every read (strictatime), or
 * never (noatime; a directory's never with nodiratime); never on a
 * read-only mount. A best effort: under sb->nowait the inode's block may
 * not be written now; the new atime goes with its next write. */
void ext2_accessed(struct inode *inode);
u32 ext2_now(void);
void ext2_put(struct inode *inode);
/* Take an inode whose last reference the caller holds out of the cache and
 * free it in memory (the mount's failure path: nothing written). */
void ext2_drop_inode(struct inode *inode);
bool ext2_busy(struct inode *root);
/* The inodes of sb that have cached pages, each with a reference (iput
 * them), in a kmalloc'd array (*out, kfree it; NULL without memory): how many. */
u32 ext2_inodes_with_pages(struct ext2_sb *sb, struct inode ***out);
void ext2_getattr(struct inode *inode, struct kstat *k);
/* Is di a symlink whose target lives in i_block (no data block)? */
bool ext2_fast_symlink(const struct ext2_sb *sb, const struct ext2_inode *di);

/* bmap.c: file block lblk's block number: 0 for a hole (create false), a new
 * block when create (*fresh set: zeroed in the block cache, except a regular
 * file's data block, which its page holds), or -EUCLEAN/-EIO/-ENOSPC/-EFBIG
 * (-EAGAIN under sb->nowait when an indirect block is not cached). */
long ext2_bmap(struct inode *inode, u32 lblk, bool create, bool *fresh);
/* The same lookup without allocating (under sb->nowait -EAGAIN for an
 * indirect block not cached), and the run around a mapped lblk: *first its
 * first file block, *len its blocks (consecutive device blocks inside the
 * same map block). 0 for a hole (first, len not set). */
long ext2_bmap_run(struct inode *inode, u32 lblk, u32 *first, u32 *len);
/* Free every block past the first keep blocks of the file, and write the
 * inode into its buffer under the same hold of sb->lock: nothing writes the
 * freeing half-done (the wait of the freed blocks ends with that buffer). */
int ext2_free_blocks_from(struct inode *inode, u32 keep);
/* Blocks a file may map (the indirect tree's reach). */
u64 ext2_max_blocks(const struct ext2_sb *sb);

/* alloc.c: bitmaps and counts. goal: a block number to start near; owner:
 * the inode the block is for (its fsync writes the bitmap and counts). A
 * freed block waits until owner's metadata is written (see alloc.c); an
 * allocation finding only such blocks writes all metadata first (under
 * sb->nowait: -EAGAIN instead). */
long ext2_alloc_block(struct ext2_sb *sb, u32 goal, u32 owner);
int ext2_free_block(struct ext2_sb *sb, u32 nr, u32 owner);
long ext2_alloc_ino(struct ext2_sb *sb, u32 group, bool dir);
/* The metadata of ino (0: of everyone) is on the disk (a write-back that
 * succeeded): the blocks it freed may be handed out again. */
void ext2_pend_done(struct ext2_sb *sb, u32 ino);
/* umount, or a failed mount: forget every wait, free the records. */
void ext2_pend_exit(struct ext2_sb *sb);
/* Blocks waiting on every mount; allocations that found only waiting
 * blocks and wrote all metadata first (/proc/aiok/ext2). */
extern atomic_t ext2_free_pending, ext2_free_waits;
int ext2_free_ino(struct ext2_sb *sb, u32 ino, bool dir);

/* dir.c: directories (sb->lock held). */
/* The inode number name has in dir, 0 when none, or -errno. */
long ext2_dir_find(struct inode *dir, const char *name, size_t len);
int ext2_dir_add(struct inode *dir, const char *name, size_t len, u32 ino, u32 mode);
int ext2_dir_remove(struct inode *dir, const char *name, size_t len);
/* Point an existing entry name of dir at ino (rename over a target; ".."). */
int ext2_dir_set(struct inode *dir, const char *name, size_t len, u32 ino, u32 mode);
/* 1 when dir holds only "." and "..", 0 when more, or -errno. */
int ext2_dir_empty(struct inode *dir);
int ext2_dir_init(struct inode *dir, u32 parent_ino);
int ext2_readdir(struct file *f, struct dir_context *ctx);

/* namei.c: is anc dir itself or one of its ancestors (through the parent
 * references of directories in memory)? */
bool ext2_is_ancestor(struct inode *anc, struct inode *dir);

/* rename.c */
int ext2_rename(struct inode *odir, const char *oname, size_t olen, struct inode *ndir,
		const char *nname, size_t nlen, u32 flags);

/* file.c: where the bytes of a read or write are: the caller's user segments
 * (its own address space), or pinned pages (any task: the AIO worker). */
struct pinned_vec;
struct ext2_xfer {
	const struct iovec *iov;	/* nr user segments, or NULL */
	u32 nr;
	struct pinned_vec *pinned;	/* when iov is NULL */
};
/* Move n bytes between the file at pos and x; bytes or -errno (under
 * sb->nowait: -EAGAIN when any of it needs the disk; the caller redoes all).
 * -EAGAIN too when a user copy faulted on a mapping of this file system
 * before any byte moved (sb->fault_again); after some, the short count. */
ssize_t ext2_file_rw(struct inode *inode, struct ext2_xfer *x, size_t n, loff_t pos, bool write);
/* f_op->map_page of regular files (file.c). */
int ext2_map_page(struct inode *inode, u32 idx, bool write, struct page **pagep);
int ext2_truncate_locked(struct inode *inode, loff_t size);
/* fsync / fdatasync of open file f (its inode's lock held, not a try): its
 * dirty pages, then (fsync; fdatasync when the size or the block map
 * changed) its inode and the dirty metadata blocks it owns, then (after
 * its O_DIRECT writes in flight ended) the device's FLUSH. -EIO when a write failed, or once per file for a write-back of its
 * data or of metadata that failed since f's last fsync (f->f_wb_err). */
int ext2_fsync_locked(struct file *f, int datasync);

/* flush.c: the periodic flusher (one kernel thread for every writable mount,
 * ext2_flush_ms= apart, default 5000; 0: none) writes back the pages dirty
 * for that long and every dirty metadata block. Start: a mounted sb joins
 * its list. Stop: before umount's last write-back (no sb->lock held). */
void ext2_flusher_start(struct ext2_sb *sb);
void ext2_flusher_stop(struct ext2_sb *sb);
/* Boot (ext2_init): the thread and /proc/aiok/ext2. */
void ext2_flush_init(void);
/* Counters (/proc/aiok/ext2). */
extern atomic_t ext2_cached_blocks, ext2_dirty_pages, ext2_pages_written, ext2_wb_errors;
extern atomic_t ext2_blocks_written;
/* Device round trips the file system waited for: each ext2_dev_rw (a block
 * or page read or written synchronously) and each wait of a write-back
 * batch (pagecache.c: up to 16 pages' writes); FLUSHes are not counted. */
extern atomic_t ext2_dev_waits;
/* File AIO's: requests given to the ext2aio worker, O_DIRECT reads sent to the
 * device from io_submit and by the worker without waiting, pages fills read
 * (the worker's and io_submit's) and, of them, pages read ahead. */
extern atomic_t ext2_aio_queued, ext2_dio_direct, ext2_dio_async, ext2_fill_pages, ext2_ra_pages;
/* O_DIRECT writes sent to the device from io_submit (overwrites). */
extern atomic_t ext2_dio_direct_writes;
/* O_DIRECT requests io_submit sent in several device requests (several block
 * runs), reads and writes. */
extern atomic_t ext2_dio_multi;

/* readahead.c: page fills (see its head comment). */
#define EXT2_RA_MAX	64		/* the largest read-ahead window, pages */
extern spinlock_t ext2_fill_lock;
extern atomic_t ext2_fill_joined, ext2_fill_withdrawn;
/* Where page index of inode starts on the device when its blocks inside the
 * file are one mapped run (*len: their bytes); 0 when not (a hole, past the
 * end, an error, an indirect block not cached under nowait). The inode's lock. */
u32 ext2_fill_where(struct inode *inode, u32 index, u32 *len);
/* Start reading len bytes from device block nr into ep (cached, not
 * uptodate, not dirty, not busy; the inode's lock held): ep is busy until the read's
 * completion, which calls w->done (w may be NULL). 0, or -errno with nothing
 * started (w not called). */
int ext2_fill_start(struct ext2_page *ep, u32 nr, u32 len, struct ext2_fill_wait *w);
/* Wait for ep's fill in flight through w: true when joined (w->done will
 * run), false when ep is not busy (any more). The inode's lock held. */
bool ext2_fill_join(struct ext2_page *ep, struct ext2_fill_wait *w);
/* Stop waiting through w: its page (w is never called now), or NULL when w
 * was called already, or (alone) when another reader waits for the same fill
 * (w stays). The inode's lock held. */
struct ext2_page *ext2_fill_detach(struct ext2_fill_wait *w, bool alone);
/* io_cancel's: take back the fill only w waits for while the driver still
 * queues it: 0 and its page in *epp (not busy, not uptodate; w never
 * called); -EBUSY when another reader waits for it too, -ENOENT when w was
 * called already (w stays as it was), -EAGAIN when the device has it (w
 * waits on, or was called with its outcome). The inode's lock held. */
int ext2_fill_withdraw(struct ext2_fill_wait *w, struct ext2_page **epp);
/* Start a withdrawn page's fill again for w (a cancel that could not take
 * back every fill of its request): 0, or -errno with w not called. The inode's lock. */
int ext2_fill_restart(struct ext2_page *ep, struct ext2_fill_wait *w);
/* Sleep until ep is not busy (the inode's lock held: the completion needs none). */
void ext2_fill_wait_page(struct ext2_page *ep);
/* dio.c: start every request sb's device has queued, whoever's io_submit
 * plug deferred its kick (before waiting for a fill or a direct request:
 * that submitter may be asleep on an ext2 lock). Any process context. */
void ext2_dev_kick(struct ext2_sb *sb);
/* The read-ahead window (pages) after pages [first, last] of a read that
 * missed; updates ei's state (the inode's lock). */
u32 ext2_ra_window(struct ext2_inode_info *ei, u32 first, u32 last);
/* The AIO worker's batch: begin (NULL: no memory, nothing to fill), start
 * the fills of the pages [pos, pos + n) of inode needs and of its read-ahead
 * window (the inode's lock held), then end: wait for them all (no lock needed)
 * and free f. A page this cannot fill is left to ext2_pc_get. */
struct ext2_fill;
struct ext2_fill *ext2_fill_begin(struct ext2_sb *sb);
void ext2_fill_read(struct ext2_fill *f, struct inode *inode, loff_t pos, size_t n);
void ext2_fill_end(struct ext2_fill *f);

/* aread.c: io_submit's buffered read that misses (the inode's lock held, nowait
 * set, after ext2_file_rw said -EAGAIN): when every page it needs is cached,
 * being filled, or one mapped run whose map is cached, the missing pages'
 * fills (and the read-ahead window's) are started and the request completes
 * from the last one's completion (copied through the pinned user pages):
 * -EIOCBQUEUED. -EAGAIN with nothing started otherwise (the worker's turn);
 * -EFAULT/-ENOMEM. io_cancel withdraws its fills while the driver still
 * queues them all (else -EAGAIN; aread.c). */
ssize_t ext2_aread_start(struct kiocb *iocb, const struct iovec *iov, u32 nr, size_t n,
			 loff_t pos);
extern atomic_t ext2_aread_sent;

/* aio.c: the AIO methods of regular files (buffered; see aio.c for what
 * completes inside io_submit and what the worker does). */
struct kiocb;
ssize_t ext2_aio_read(struct kiocb *iocb, char *ubuf, size_t n, loff_t pos);
ssize_t ext2_aio_write(struct kiocb *iocb, const char *ubuf, size_t n, loff_t pos);
ssize_t ext2_aio_readv(struct kiocb *iocb, const struct iovec *iov, u32 nr, loff_t pos);
ssize_t ext2_aio_writev(struct kiocb *iocb, const struct iovec *iov, u32 nr, loff_t pos);
int ext2_aio_fsync(struct kiocb *iocb, int datasync);
/* dio.c: O_DIRECT (io_submit's try, else a worker with the inode's lock held). Are offset and segments
 * 512-aligned? Move n bytes at pos between the file and the pinned pages,
 * zero-copy: bytes or -errno. */
bool ext2_dio_aligned(const struct iovec *iov, u32 nr, loff_t pos);
/* io_submit's try of an O_DIRECT request (the inode's lock taken only if free): a
 * read or write inside the file on one run of allocated blocks whose map is
 * cached, with no dirty cached page over it (a write: no mapped one either,
 * the inode's block cached for its mtime, no RWF_DSYNC), is sent to the
 * device on iocb (completed by the driver's interrupt): -EIOCBQUEUED, or
 * -EFAULT/-ENOMEM with nothing sent. A write drops the clean cached pages
 * over its range first. -EAGAIN for everything else (holes, appends, map
 * misses, the lock taken): the worker's ext2_dio_rw then. The user's pages
 * are pinned under the inode's lock, as the buffered try copies under it. */
ssize_t ext2_dio_try(struct kiocb *iocb, const struct iovec *iov, u32 nr, size_t n, loff_t pos,
		     bool write);
long ext2_dio_rw(struct inode *inode, struct pinned_vec *buf, size_t n, loff_t pos, bool write);
/* The worker's direct read or write of the pinned buf (the inode's lock held):
 * sent on iocb without waiting when it can go whole (as ext2_dio_try's, the
 * map read as needed; an overwrite without RWF_DSYNC; buf is taken over):
 * -EIOCBQUEUED, the driver's interrupt completes iocb. Else ext2_dio_rw's
 * bytes or -errno (the caller completes iocb). */
long ext2_dio_worker_send(struct inode *inode, struct kiocb *iocb, struct pinned_vec *buf,
			  size_t n, loff_t pos, bool write);
/* File block lblk's device block through ei's cached runs (else
 * ext2_bmap_run, and the run found is cached), *len: the blocks of its run
 * from lblk on (at least 1); 0 for a hole, or -errno as ext2_bmap. The inode's
 * lock held (it takes sb->lock for the walk); under nowait never waits. */
long ext2_map_run(struct inode *inode, u32 lblk, u32 *len);
/* The device block of file blocks [lblk, lblk + nb) when they are mapped on
 * consecutive device blocks (through ext2_map_run); 0 when not (a hole, a
 * split), or -errno. The inode's lock held. */
long ext2_map_span(struct inode *inode, u32 lblk, u32 nb);
/* Forget ei's cached runs (its map lost blocks; a new inode). The inode's lock. */
void ext2_runs_forget(struct ext2_inode_info *ei);
/* Wait until no direct request sent without waiting is in flight on inode
 * (a truncate, before it frees blocks). The inode's lock held: nobody sends more. */
void ext2_dio_wait_inode(struct inode *inode);
/* Before a read from the disk into inode's page cache: wait for its direct
 * writes in flight (the bytes read would be stale), or -EAGAIN under
 * nowait. The inode's lock held. 0. */
int ext2_dio_wait_writes(struct inode *inode);
/* io_submit's tries (aio.c, dio.c) that found their inode's lock free /
 * taken (then the request went to the worker), since boot: /proc/aiok/ext2. */
extern atomic_t ext2_try_locked, ext2_try_busy;

/* An inode's lock (ext2_inode_info.lock), process context, no ext2 lock
 * held (but another inode's through ext2_pc_evict's trylock). The task
 * notes the inode it holds (fs_held) for map_page. */
static inline void ext2_ilock(struct inode *inode)
{
	mutex_lock(&EXT2_I(inode)->lock);
	current->fs_held = EXT2_I(inode);
}

static inline void ext2_iunlock(struct inode *inode)
{
	current->fs_held = NULL;
	mutex_unlock(&EXT2_I(inode)->lock);
}

/* io_submit's try: the inode's lock if free (counted), with nowait set
 * (undone by ext2_itry_unlock); else false. */
static inline bool ext2_itry_lock(struct inode *inode)
{
	if (mutex_trylock(&EXT2_I(inode)->lock)) {
		atomic_inc(&ext2_try_locked);
		current->fs_held = EXT2_I(inode);
		EXT2_I(inode)->nowait = true;
		return true;
	}
	atomic_inc(&ext2_try_busy);
	return false;
}

static inline void ext2_itry_unlock(struct inode *inode)
{
	EXT2_I(inode)->nowait = false;
	ext2_iunlock(inode);
}

/* Did a user copy of the holder of inode's lock fault on an ext2 mapping
 * since the last call? Clears the note. */
static inline bool ext2_fault_taken(struct inode *inode)
{
	bool was = EXT2_I(inode)->fault_again;

	EXT2_I(inode)->fault_again = false;
	return was;
}

/* The same for the inode whose lock this task holds (ext2_ilock). */
static inline bool ext2_fault_taken_held(void)
{
	struct ext2_inode_info *ei = current->fs_held;
	bool was = ei && ei->fault_again;

	if (ei)
		ei->fault_again = false;
	return was;
}

/* sb->lock for inode's holder (data paths: inside ext2_ilock), or nothing
 * when this task holds it already (a namespace operation): 1 taken, 0
 * already held, -EAGAIN when the holder must not wait (ei->nowait) and it is
 * taken; sb->nowait follows ei->nowait while held. ext2_munlock(inode, r). */
int ext2_mlock(struct inode *inode);
void ext2_munlock(struct inode *inode, int taken);
/* stats.c: the lock classes' statistics (lock_stat.h: every mount's
 * sb->lock, every inode's lock, pc_lock, the fill lock, the worker queues'
 * locks), the workers' busy time and the spans of the requests they run,
 * in /proc/aiok/ext2_locks. Any context. */
extern struct lock_stat ext2_ls_sb, ext2_ls_inode, ext2_ls_pc, ext2_ls_fill, ext2_ls_aioq;
#define EXT2_SPANS	4	/* queued -> taken -> inode lock held -> released -> completed */
#define EXT2_RQ_KINDS	5	/* buffered read, buffered write, fsync/fdatasync, O_DIRECT,
				 * and the parts of every fsync (ext2_fsync_locked: start ->
				 * pages written -> metadata -> direct writes ended -> FLUSH) */
#define EXT2_RQ_FSYNC_PARTS	4
/* One worker run of worker idx: its cycles, of them prefetching, its requests. */
void ext2_stat_worker(u32 idx, u64 busy, u64 prefetch, u32 reqs);
/* One request of kind done: stamp[0..EXT2_SPANS], TSC, in the order above. */
void ext2_stat_request(u32 kind, const u64 *stamp);
/* Boot: the /proc file. */
void ext2_stats_init(void);

/* A new sb's queue and worker item: 0. */
int ext2_aio_init(struct ext2_sb *sb);
/* Before sb is freed: no request is queued (none can be: each holds a
 * file); wait for a worker run that may still be ending. */
void ext2_aio_exit(struct ext2_sb *sb);

#endif
