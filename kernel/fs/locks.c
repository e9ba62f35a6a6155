/* locks.c: advisory file locks: POSIX record locks (fcntl F_GETLK/F_SETLK/F_SETLKW and the *64 forms), open file description locks (F_OFD_*) and flock(2). */
#include "errno.h"
#include "panic.h"
#include "printk.h"
#include "file_lock.h"
#include "fs.h"
#include "list.h"
#include "sched.h"
#include "signal.h"
#include "slab.h"
#include "spinlock.h"
#include "string.h"
#include "syscall_table.h"
#include "uaccess.h"
#include "uapi/fcntl.h"
#include "wait.h"

#define FL_POSIX	1		/* owner: the process's files_struct */
#define FL_FLOCK	2		/* owner: the open file description */
#define FL_OFD		3		/* a record lock owned by the open file description */
#define DEADLOCK_STEPS	64		/* waits-for chain followed at most this far */

struct file_lock {
	struct file_lock *next;		/* the inode's i_flock chain */
	struct list_head all;		/* file_locks: every lock in a chain */
	struct inode *inode;		/* whose chain (/proc/locks) */
	void *owner;			/* files_struct (FL_POSIX) or struct file (FL_FLOCK) */
	int pid;			/* F_GETLK's l_pid: the taker's process id, -1 (FL_OFD) */
	u8 kind;			/* FL_POSIX, FL_FLOCK or FL_OFD */
	u8 type;			/* F_RDLCK or F_WRLCK (F_UNLCK only in a request) */
	loff_t start, end;		/* bytes start..end, inclusive; LOFF_MAX: no end */
};

/* A task asleep for a lock: its owner and the owner of the lock it waits
 * for, what the deadlock walk follows (file_lock_lock). */
struct lock_waiter {
	struct list_head entry;
	void *owner, *blocker;
};

/* Locks a request may need beyond the request: the lock itself and the tail
 * of a lock it splits in two; taken before file_lock_lock (kmalloc may sleep). */
struct lock_spares {
	struct file_lock *fl[2];
	struct file_lock *freed;	/* unlinked under the lock, freed after */
	bool changed;			/* a lock went or shrank: wake the waiters */
};

static DEFINE_SPINLOCK(file_lock_lock);	/* every i_flock chain and lock_waiters;
					 * process context only, innermost */
static DECLARE_WAIT_QUEUE_HEAD(file_lock_wait);
static LIST_HEAD(lock_waiters);
static LIST_HEAD(file_locks);
atomic_t nr_file_locks = ATOMIC_INIT(0);

static int spares_get(struct lock_spares *sp)
{
	memset(sp, 0, sizeof(*sp));
	for (int i = 0; i < 2; i++) {
		sp->fl[i] = kmalloc(sizeof(struct file_lock), GFP_KERNEL);
		if (!sp->fl[i])
			return -ENOLCK;
		atomic_inc(&nr_file_locks);
	}
	return 0;
}

/* A spare for the chain (file_lock_lock held); spares_get made two. */
static struct file_lock *spare_take(struct lock_spares *sp, const struct file_lock *from)
{
	struct file_lock *fl = sp->fl[0] ? sp->fl[0] : sp->fl[1];

	BUG_ON(!fl);
	if (fl == sp->fl[0])
		sp->fl[0] = NULL;
	else
		sp->fl[1] = NULL;
	*fl = *from;
	list_add_tail(&fl->all, &file_locks);	/* the caller chains it */
	return fl;
}

static void lock_unlinked(struct lock_spares *sp, struct file_lock *fl)
{
	list_del(&fl->all);
	fl->next = sp->freed;
	sp->freed = fl;
	sp->changed = true;
}

/* After file_lock_lock is dropped: free what is left, wake the waiters. */
static void spares_put(struct lock_spares *sp)
{
	struct file_lock *fl;

	for (int i = 0; i < 2; i++) {
		if (sp->fl[i]) {
			sp->fl[i]->next = sp->freed;
			sp->freed = sp->fl[i];
		}
	}
	while ((fl = sp->freed)) {
		sp->freed = fl->next;
		kfree(fl);
		atomic_dec(&nr_file_locks);
	}
	if (sp->changed)
		wake_up_all(&file_lock_wait);
}

static bool ranges_overlap(const struct file_lock *a, const struct file_lock *b)
{
	return a->start <= b->end && b->start <= a->end;
}

/* Overlapping, or b starting right after a ends. */
static bool ranges_touch(const struct file_lock *a, const struct file_lock *b)
{
	return ranges_overlap(a, b) || (a->end != LOFF_MAX && a->end + 1 == b->start) ||
	       (b->end != LOFF_MAX && b->end + 1 == a->start);
}

/* Record locks (POSIX and OFD) conflict with each other, flock locks with
 * flock locks only (Linux's rule). */
static bool lock_same_family(const struct file_lock *a, const struct file_lock *b)
{
	return (a->kind == FL_FLOCK) == (b->kind == FL_FLOCK);
}

static bool locks_conflict(const struct file_lock *held, const struct file_lock *req)
{
	return lock_same_family(held, req) && held->owner != req->owner &&
	       (held->type == F_WRLCK || req->type == F_WRLCK) && ranges_overlap(held, req);
}

/* The lowest-starting lock of another owner that req cannot coexist with
 * (what F_GETLK reports; file_lock_lock held). */
static struct file_lock *lock_find_conflict(struct inode *inode, const struct file_lock *req)
{
	struct file_lock *first = NULL;

	for (struct file_lock *fl = inode->i_flock; fl; fl = fl->next)
		if (locks_conflict(fl, req) && (!first || fl->start < first->start))
			first = fl;
	return first;
}

/* Would owner waiting for blocker close a cycle? Follows each owner to the
 * owner it waits for (file_lock_lock held). */
static bool posix_deadlock(void *owner, void *blocker)
{
	for (int i = 0; i < DEADLOCK_STEPS && blocker; i++) {
		struct lock_waiter *w;
		void *next = NULL;

		if (blocker == owner)
			return true;
		list_for_each_entry(w, &lock_waiters, entry)
			if (w->owner == blocker) {
				next = w->blocker;
				break;
			}
		blocker = next;
	}
	return false;
}

/* Cut the part of fl that req covers out of fl (same owner, other type or an
 * unlock): fl shrinks, splits (its tail from a spare) or goes. Returns where
 * the walk goes on. */
static struct file_lock **posix_cut(struct file_lock **pp, const struct file_lock *req,
				    struct lock_spares *sp)
{
	struct file_lock *fl = *pp, *tail;

	sp->changed = true;
	if (fl->start < req->start && fl->end > req->end) {
		tail = spare_take(sp, fl);
		tail->start = req->end + 1;
		fl->end = req->start - 1;
		tail->next = fl->next;
		fl->next = tail;
		return &tail->next;
	}
	if (fl->start < req->start) {
		fl->end = req->start - 1;
	} else if (fl->end > req->end) {
		fl->start = req->end + 1;
	} else {
		*pp = fl->next;
		lock_unlinked(sp, fl);
		return pp;
	}
	return &fl->next;
}

/* Put a copy of req at the head of inode's chain (file_lock_lock held). */
static void lock_insert(struct inode *inode, const struct file_lock *req, struct lock_spares *sp)
{
	struct file_lock *fl = spare_take(sp, req);

	fl->next = inode->i_flock;
	inode->i_flock = fl;
}

/* Make the owner's locks on inode say what req says for its range: merge
 * with touching locks of the same type, cut it out of the others, then add
 * it (none for F_UNLCK). No conflict is left (file_lock_lock held). */
static void posix_apply(struct inode *inode, struct file_lock *req, struct lock_spares *sp)
{
	struct file_lock **pp = &inode->i_flock, *fl;

	while ((fl = *pp)) {
		if (fl->kind != req->kind || fl->owner != req->owner) {
			pp = &fl->next;
		} else if (fl->type == req->type && ranges_touch(fl, req)) {
			req->start = MIN(req->start, fl->start);
			req->end = MAX(req->end, fl->end);
			*pp = fl->next;
			lock_unlinked(sp, fl);
		} else if (ranges_overlap(fl, req)) {
			pp = posix_cut(pp, req, sp);
		} else {
			pp = &fl->next;
		}
	}
	if (req->type != F_UNLCK)
		lock_insert(inode, req, sp);
}

/* Drop the owner's flock lock on inode (file_lock_lock held). */
static void flock_drop(struct inode *inode, void *owner, struct lock_spares *sp)
{
	for (struct file_lock **pp = &inode->i_flock, *fl; (fl = *pp); pp = &fl->next) {
		if (fl->kind == FL_FLOCK && fl->owner == owner) {
			*pp = fl->next;
			lock_unlinked(sp, fl);
			return;
		}
	}
}

/* One try at req (file_lock_lock held): 0 when applied, else the lock in
 * the way. A flock conversion drops the old lock first, as Linux's does. */
static struct file_lock *lock_try(struct inode *inode, struct file_lock *req,
				  struct lock_spares *sp)
{
	struct file_lock *blocker;

	if (req->kind == FL_FLOCK)
		flock_drop(inode, req->owner, sp);
	if (req->type != F_UNLCK && (blocker = lock_find_conflict(inode, req)))
		return blocker;
	if (req->kind != FL_FLOCK)
		posix_apply(inode, req, sp);
	else if (req->type != F_UNLCK)
		lock_insert(inode, req, sp);
	return NULL;
}

/* Queue w as waiting for blocker's owner (file_lock_lock held). */
static void lock_wait_for(struct lock_waiter *w, const struct file_lock *blocker)
{
	w->blocker = blocker->owner;
	list_add(&w->entry, &lock_waiters);
}

/* Take (or drop) the lock req describes on inode; with wait, sleep until no
 * other owner's lock is in the way. 0, -EAGAIN (no wait), -EDEADLK (a POSIX
 * waits-for cycle), -ERESTARTSYS (a signal), -ENOLCK. Process context. */
static int lock_set(struct inode *inode, struct file_lock *req, bool wait)
{
	struct lock_waiter w = { .owner = req->owner };
	struct lock_spares sp;
	struct file_lock *blocker;
	DEFINE_WAIT(wq);
	int ret = spares_get(&sp);

	req->inode = inode;
	while (!ret) {
		if (wait)
			prepare_to_wait(&file_lock_wait, &wq, TASK_INTERRUPTIBLE);
		spin_lock(&file_lock_lock);
		if (w.blocker) {
			list_del(&w.entry);
			w.blocker = NULL;
		}
		blocker = lock_try(inode, req, &sp);
		if (!blocker)
			ret = 1;
		else if (!wait)
			ret = -EAGAIN;
		else if (req->kind == FL_POSIX && posix_deadlock(req->owner, blocker->owner))
			ret = -EDEADLK;
		else if (signal_pending(current))
			ret = -ERESTARTSYS;
		else if (req->kind != FL_OFD)	/* no deadlock walk through OFD locks (Linux's) */
			lock_wait_for(&w, blocker);
		spin_unlock(&file_lock_lock);
		if (!ret)
			schedule();
	}
	if (wait)
		finish_wait(&file_lock_wait, &wq);
	spares_put(&sp);
	return ret > 0 ? 0 : ret;
}

/* Every lock of kind and owner on inode goes (a close, an exit, the last fput). */
static void locks_remove(struct inode *inode, int kind, void *owner)
{
	struct lock_spares sp;
	struct file_lock **pp, *fl;

	if (!inode || !READ_ONCE(inode->i_flock))
		return;			/* only the owner adds its own locks */
	memset(&sp, 0, sizeof(sp));
	spin_lock(&file_lock_lock);
	for (pp = &inode->i_flock; (fl = *pp);) {
		if (fl->kind == kind && fl->owner == owner) {
			*pp = fl->next;
			lock_unlinked(&sp, fl);
		} else {
			pp = &fl->next;
		}
	}
	spin_unlock(&file_lock_lock);
	spares_put(&sp);
}

void locks_remove_posix(struct files_struct *files, struct file *f)
{
	locks_remove(f->f_inode, FL_POSIX, files);
}

void locks_remove_file(struct file *f)
{
	locks_remove(f->f_inode, FL_FLOCK, f);
	locks_remove(f->f_inode, FL_OFD, f);
}

/* One /proc/locks line for lock n (file_lock_lock held). */
static int lock_proc_line(char *buf, size_t size, int n, const struct file_lock *fl)
{
	char end[24] = "EOF";

	if (fl->end != LOFF_MAX)
		snprintf(end, sizeof(end), "%lld", (long long)fl->end);
	static const char *const kinds[] = { [FL_POSIX] = "POSIX", [FL_FLOCK] = "FLOCK",
					      [FL_OFD] = "OFDLCK" };

	return snprintf(buf, size, "%d: %-6s ADVISORY  %s %d 00:00:%u %lld %s\n", n,
			kinds[fl->kind],
			fl->type == F_WRLCK ? "WRITE" : "READ ", fl->pid, fl->inode->ino,
			(long long)fl->start, end);
}

int locks_proc_show(char *buf, size_t size)
{
	struct file_lock *fl;
	size_t len = 0;
	int n = 0;

	spin_lock(&file_lock_lock);
	list_for_each_entry(fl, &file_locks, all) {
		if (len + 1 >= size)
			break;			/* the rest does not fit */
		len += lock_proc_line(buf + len, size - len, ++n, fl);
	}
	spin_unlock(&file_lock_lock);
	return MIN(len, size - 1);
}

/* ---- fcntl ---- */

/* The byte range of a user flock: start and len from whence (f's position
 * or size for SEEK_CUR/SEEK_END); len 0 runs to no end, a negative len ends
 * just before start. */
static int lock_range(struct file *f, int whence, s64 start, s64 len, struct file_lock *req)
{
	s64 base;

	switch (whence) {
	case SEEK_SET: base = 0; break;
	case SEEK_CUR: base = f->f_pos; break;
	case SEEK_END: base = f->f_inode->size; break;
	default: return -EINVAL;
	}
	if (__builtin_add_overflow(base, start, &start))
		return -EOVERFLOW;
	if (len > 0 && __builtin_add_overflow(start, len - 1, &req->end))
		return -EOVERFLOW;
	if (len == 0)
		req->end = LOFF_MAX;
	if (len < 0) {
		req->end = start - 1;
		if (__builtin_add_overflow(start, len, &start))
			return -EINVAL;
	}
	req->start = start;
	return start < 0 ? -EINVAL : 0;
}

/* What a fcntl lock command asks: get (F_GETLK*), wait (F_SETLKW*), ofd
 * (F_OFD_*: owned by the open file description). */
struct lock_cmd {
	bool get, wait, ofd;
};

/* A request from the user's l_type/l_whence/l_start/l_len/l_pid (an OFD
 * command's l_pid must be 0). */
static int lock_from_user(struct file *f, const struct lock_cmd *c, int type, int whence,
			  s64 start, s64 len, int pid, struct file_lock *req)
{
	memset(req, 0, sizeof(*req));
	if (type != F_RDLCK && type != F_WRLCK && type != F_UNLCK)
		return -EINVAL;
	if (c->ofd && pid != 0)
		return -EINVAL;
	req->kind = c->ofd ? FL_OFD : FL_POSIX;
	req->type = type;
	req->owner = c->ofd ? (void *)f : (void *)current->files;
	req->pid = c->ofd ? -1 : current->tgid;
	return lock_range(f, whence, start, len, req);
}

/* F_GETLK: the first lock in req's way, or req->type F_UNLCK when none. */
static void lock_find_holder(struct inode *inode, struct file_lock *req)
{
	struct file_lock *fl;

	spin_lock(&file_lock_lock);
	fl = lock_find_conflict(inode, req);
	if (fl)
		*req = *fl;
	else
		req->type = F_UNLCK;
	spin_unlock(&file_lock_lock);
}

/* Does fd still name f in the caller's table? */
static bool lock_fd_is(int fd, struct file *f)
{
	struct file *now = fget(fd);

	if (now)
		fput(now);		/* never the last: f's caller holds one */
	return now == f;
}

/* F_SETLK*, F_OFD_SETLK*: the file must be open for what the lock is (EBADF).
 * A POSIX lock granted after another thread closed fd is undone: that close
 * dropped the process's locks on the file, and none may outlive it (as
 * Linux's); an OFD lock lives on with the description. */
static int lock_setlk(int fd, struct file *f, struct file_lock *req, bool wait)
{
	struct file_lock undo = *req;
	int ret;

	if ((req->type == F_RDLCK && !(f->f_mode & FMODE_READ)) ||
	    (req->type == F_WRLCK && !(f->f_mode & FMODE_WRITE)))
		return -EBADF;
	ret = lock_set(f->f_inode, req, wait);
	if (!ret && req->kind == FL_POSIX && undo.type != F_UNLCK && !lock_fd_is(fd, f)) {
		undo.type = F_UNLCK;
		if (lock_set(f->f_inode, &undo, false))	/* -ENOLCK: no spare for a split */
			locks_remove_posix(current->files, f);	/* as the close did */
	}
	return ret;
}

/* The part of F_GETLK/F_SETLK(W) both struct layouts share: a set is done
 * here (its result); a get fills *req with the first lock in the way
 * (type F_UNLCK: none) and returns 1 for the caller to copy out. */
static int fcntl_lock_common(int fd, struct file *f, const struct lock_cmd *c, int type,
			     int whence, s64 start, s64 len, int pid, struct file_lock *req)
{
	int ret = lock_from_user(f, c, type, whence, start, len, pid, req);

	if (ret)
		return ret;
	if (!c->get)
		return lock_setlk(fd, f, req, c->wait);
	if (req->type == F_UNLCK)
		return -EINVAL;
	lock_find_holder(f->f_inode, req);
	return 1;
}

/* l_len of a found lock: 0 for one that runs to the end of the file. */
static s64 lock_user_len(const struct file_lock *fl)
{
	return fl->end == LOFF_MAX ? 0 : fl->end - fl->start + 1;
}

static int fcntl_lock32(int fd, struct file *f, const struct lock_cmd *c,
			struct kernel_flock *ufl)
{
	struct kernel_flock kfl;
	struct file_lock req;
	int ret;

	if (copy_from_user(&kfl, ufl, sizeof(kfl)))
		return -EFAULT;
	ret = fcntl_lock_common(fd, f, c, kfl.l_type, kfl.l_whence, kfl.l_start, kfl.l_len,
				kfl.l_pid, &req);
	if (ret <= 0)
		return ret;
	kfl.l_type = req.type;
	if (req.type != F_UNLCK) {
		if (req.start > 0x7fffffff || (req.end != LOFF_MAX && req.end > 0x7fffffff))
			return -EOVERFLOW;
		kfl.l_whence = SEEK_SET;
		kfl.l_start = req.start;
		kfl.l_len = lock_user_len(&req);
		kfl.l_pid = req.pid;
	}
	return copy_to_user(ufl, &kfl, sizeof(kfl)) ? -EFAULT : 0;
}

static int fcntl_lock64(int fd, struct file *f, const struct lock_cmd *c,
			struct kernel_flock64 *ufl)
{
	struct kernel_flock64 kfl;
	struct file_lock req;
	int ret;

	if (copy_from_user(&kfl, ufl, sizeof(kfl)))
		return -EFAULT;
	ret = fcntl_lock_common(fd, f, c, kfl.l_type, kfl.l_whence, kfl.l_start, kfl.l_len,
				kfl.l_pid, &req);
	if (ret <= 0)
		return ret;
	kfl.l_type = req.type;
	if (req.type != F_UNLCK) {
		kfl.l_whence = SEEK_SET;
		kfl.l_start = req.start;
		kfl.l_len = lock_user_len(&req);
		kfl.l_pid = req.pid;
	}
	return copy_to_user(ufl, &kfl, sizeof(kfl)) ? -EFAULT : 0;
}

long fcntl_lock(int fd, int cmd, unsigned long arg, bool wide)
{
	struct lock_cmd c = {
		.get = cmd == F_GETLK || cmd == F_GETLK64 || cmd == F_OFD_GETLK,
		.wait = cmd == F_SETLKW || cmd == F_SETLKW64 || cmd == F_OFD_SETLKW,
		.ofd = cmd == F_OFD_GETLK || cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW,
	};
	struct file *f = fget(fd);
	long ret;

	if (!f)
		return -EBADF;
	if (!f->f_inode)
		ret = -EINVAL;
	else if (!wide)
		ret = fcntl_lock32(fd, f, &c, (struct kernel_flock *)arg);
	else
		ret = fcntl_lock64(fd, f, &c, (struct kernel_flock64 *)arg);
	fput(f);
	return ret;
}

/* ---- flock(2) ---- */

long sys_flock(int fd, unsigned cmd)
{
	struct file *f = fget(fd);
	struct file_lock req = { .kind = FL_FLOCK, .start = 0, .end = LOFF_MAX };
	long ret;

	if (!f)
		return -EBADF;
	req.owner = f;
	req.pid = current->tgid;
	switch (cmd & ~LOCK_NB) {
	case LOCK_SH: req.type = F_RDLCK; break;
	case LOCK_EX: req.type = F_WRLCK; break;
	case LOCK_UN: req.type = F_UNLCK; break;
	default: req.type = 0xff; break;
	}
	if (req.type == 0xff || !f->f_inode)
		ret = -EINVAL;
	else if (!(f->f_mode & (FMODE_READ | FMODE_WRITE)))
		ret = -EBADF;
	else
		ret = lock_set(f->f_inode, &req, !(cmd & LOCK_NB) && req.type != F_UNLCK);
	fput(f);
	return ret;
}
