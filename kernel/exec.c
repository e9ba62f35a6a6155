/* exec.c: execve: load a static ELF32 program (from ramfs or a disk file
 * system: any regular file whose f_op has map_page) into a new address space
 * and start it. */
#include "aio.h"
#include "elf.h"
#include "proc_internal.h"
#include "signal.h"
#include "tls.h"
#include "errno.h"
#include "syscall_table.h"
#include "fs.h"
#include "highmem.h"
#include "mm.h"
#include "proc.h"
#include "paging.h"
#include "sched.h"
#include "slab.h"
#include "string.h"
#include "trap.h"
#include "gdt.h"
#include "uaccess.h"
#include "vm.h"
#include "trace.h"

#define MAX_ARGS	64		/* argv + envp entries */
#define ARG_SPACE	16384		/* bytes of argument and environment strings */
#define MAX_PHDRS	16

/* The new program's arguments, copied out of the old address space. */
struct exec_args {
	int argc, envc;
	char *ptr[MAX_ARGS];		/* into strings */
	u32 used;
	char strings[ARG_SPACE];
};

/* Append the strings of a user vector (argv or envp); *count gets their number. */
static int copy_strings(struct exec_args *a, char *const *uvec, int *count)
{
	int base = a->argc + a->envc, i;

	*count = 0;
	for (i = 0; uvec; i++) {
		char *ustr;
		long n;
		if (get_user(ustr, uvec + i))
			return -EFAULT;
		if (!ustr)
			break;
		if (base + i >= MAX_ARGS)
			return -E2BIG;
		n = strncpy_from_user(a->strings + a->used, ustr, ARG_SPACE - a->used);
		if (n < 0)
			return n;
		if (a->used + n >= ARG_SPACE)
			return -E2BIG;
		a->ptr[base + i] = a->strings + a->used;
		a->used += n + 1;
	}
	*count = i;
	return 0;
}

/* Copy len bytes of kernel data into the (not yet current) address space. */
static int copy_to_mm(struct mm *mm, u32 uaddr, const void *src, u32 len)
{
	while (len) {
		u32 off = uaddr & (PAGE_SIZE - 1), n = MIN(len, PAGE_SIZE - off);
		struct page *page = get_user_page(mm, uaddr, false);
		char *addr;
		if (!page)
			return -EFAULT;
		addr = kmap_atomic(page, KM_USER0);
		memcpy(addr + off, src, n);
		kunmap_atomic(addr, KM_USER0);
		put_page(page);
		uaddr += n;
		src = (const char *)src + n;
		len -= n;
	}
	return 0;
}

/* Up to len bytes of the file at pos into kernel buf, through its pages
 * (f_op->map_page; ramfs reads its own, which makes no page for a hole):
 * bytes read (short at the end of the file), or -errno. */
static ssize_t read_file(struct inode *inode, void *buf, u32 len, u32 pos)
{
	u32 done = 0;

	if (inode->fops == &ramfs_file_ops)
		return ramfs_read_kernel(inode, buf, len, pos);
	if (pos >= inode->size)
		return 0;
	len = MIN((u64)len, (u64)inode->size - pos);
	while (done < len) {
		u32 at = pos + done, off = at & (PAGE_SIZE - 1), n = MIN(len - done, PAGE_SIZE - off);
		struct page *page;
		char *addr;
		int err = inode->fops->map_page(inode, at >> PAGE_SHIFT, false, &page);
		if (err)
			return done ? (ssize_t)done : err;
		addr = kmap_atomic(page, KM_USER0);
		memcpy((char *)buf + done, addr + off, n);
		kunmap_atomic(addr, KM_USER0);
		put_page(page);
		done += n;
	}
	return done;
}

static int check_header(const struct elf32_ehdr *eh)
{
	if (memcmp(eh->e_ident, ELFMAG, 4) || eh->e_ident[4] != ELFCLASS32 ||
	    eh->e_ident[5] != ELFDATA2LSB || eh->e_type != ET_EXEC ||
	    eh->e_machine != EM_386 || eh->e_phentsize != sizeof(struct elf32_phdr) ||
	    !eh->e_phnum || eh->e_phnum > MAX_PHDRS)
		return -ENOEXEC;
	return 0;
}

/* Map one PT_LOAD segment and copy its file bytes in, page by page. */
static int load_segment(struct mm *mm, struct inode *inode, const struct elf32_phdr *ph)
{
	u32 start = ph->p_vaddr & PAGE_MASK, flags = VM_READ;
	char buf[512];
	int err;

	if (ph->p_filesz > ph->p_memsz || ph->p_vaddr + ph->p_memsz > USER_STACK_TOP - USER_STACK_MAX ||
	    ph->p_vaddr + ph->p_memsz < ph->p_vaddr)
		return -ENOEXEC;
	flags |= (ph->p_flags & PF_W ? VM_WRITE : 0) | (ph->p_flags & PF_X ? VM_EXEC : 0);
	err = vm_map(mm, start, ph->p_vaddr + ph->p_memsz - start, flags);
	for (u32 done = 0; !err && done < ph->p_filesz; ) {
		u32 n = MIN(sizeof(buf), ph->p_filesz - done);
		if (read_file(inode, buf, n, ph->p_offset + done) != (ssize_t)n)
			return -ENOEXEC;
		err = copy_to_mm(mm, ph->p_vaddr + done, buf, n);
		done += n;
	}
	return err;
}

static int load_elf(struct mm *mm, struct inode *inode, u32 *entry, u32 *phdr_addr,
		    u32 *phnum)
{
	struct elf32_phdr ph[MAX_PHDRS];
	struct elf32_ehdr eh;
	u32 end = 0;
	int err;

	if (read_file(inode, &eh, sizeof(eh), 0) != sizeof(eh) || (err = check_header(&eh)))
		return -ENOEXEC;
	if (read_file(inode, ph, eh.e_phnum * sizeof(ph[0]), eh.e_phoff) !=
	    (ssize_t)(eh.e_phnum * sizeof(ph[0])))
		return -ENOEXEC;
	*phdr_addr = 0;
	for (int i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if ((err = load_segment(mm, inode, &ph[i])))
			return err;
		if (eh.e_phoff >= ph[i].p_offset && eh.e_phoff < ph[i].p_offset + ph[i].p_filesz)
			*phdr_addr = ph[i].p_vaddr + eh.e_phoff - ph[i].p_offset;
		end = MAX(end, ph[i].p_vaddr + ph[i].p_memsz);
	}
	mm->brk_start = mm->brk = ALIGN_UP(end, PAGE_SIZE);
	*entry = eh.e_entry;
	*phnum = eh.e_phnum;
	return 0;
}

/* Lay out argc, argv, envp, auxv and the strings at the top of the stack. */
static int build_stack(struct mm *mm, struct exec_args *a, u32 entry, u32 phdr, u32 phnum,
		       u32 *sp_out)
{
	u32 nptr = a->argc + a->envc, words[1 + MAX_ARGS + 3 + 12], n = 0;
	u32 strings = (USER_STACK_TOP - a->used) & ~15u, sp;
	int err;

	if ((err = vm_map(mm, USER_STACK_TOP - USER_STACK_MAX, USER_STACK_MAX,
			  VM_READ | VM_WRITE | VM_STACK)))
		return err;
	words[n++] = a->argc;
	for (u32 i = 0; i < nptr; i++) {
		words[n++] = strings + (a->ptr[i] - a->strings);
		if (i + 1 == (u32)a->argc)
			words[n++] = 0;
	}
	if (!a->argc)
		words[n++] = 0;
	words[n++] = 0;			/* end of envp */
	words[n++] = AT_PHDR;  words[n++] = phdr;
	words[n++] = AT_PHENT; words[n++] = sizeof(struct elf32_phdr);
	words[n++] = AT_PHNUM; words[n++] = phnum;
	words[n++] = AT_PAGESZ; words[n++] = PAGE_SIZE;
	words[n++] = AT_ENTRY; words[n++] = entry;
	words[n++] = AT_NULL;  words[n++] = 0;
	sp = (strings - n * 4) & ~15u;
	err = copy_to_mm(mm, strings, a->strings, a->used);
	if (!err)
		err = copy_to_mm(mm, sp, words, n * 4);
	*sp_out = sp;
	return err;
}

static void start_user(struct trap_frame *tf, u32 entry, u32 sp)
{
	memset(tf, 0, sizeof(*tf));
	tf->eip = entry;
	tf->cs = USER_CS;
	tf->ds = tf->es = tf->fs = tf->gs = tf->user_ss = USER_DS;
	tf->eflags = EFLAGS_IF;
	tf->user_esp = sp;
}

static int exec_image(struct inode *inode, struct exec_args *a)
{
	u32 entry, phdr, phnum, sp;
	struct mm *mm = mm_create(), *old;
	int err;

	if (!mm)
		return -ENOMEM;
	err = load_elf(mm, inode, &entry, &phdr, &phnum);
	if (!err)
		err = build_stack(mm, a, entry, phdr, phnum, &sp);
	if (err) {
		mm_put(mm);
		return err;
	}
	err = proc_exec_single();	/* the other threads end first */
	if (err) {
		mm_put(mm);
		return err;
	}
	old = current->mm;
	if (old) {
		proc_mm_release(current);	/* clear-tid wake, the vfork parent goes on */
		if (atomic_dec_and_test(&old->tasks))
			exit_aio(old);	/* the old image's contexts end with it */
	}
	task_set_mm(current, mm);	/* before old's put: the OOM scan reads it */
	mm_activate(mm);
	if (old)
		mm_put(old);
	signal_exec();			/* caught signals back to SIG_DFL */
	posix_timers_exit(current->signal);	/* timer_create(2): not kept */
	current->signal->did_exec = true;	/* setpgid from the parent: EACCES */
	tls_clear(current);
	if (current->files)
		files_close_on_exec(current->files);	/* O_CLOEXEC, FD_CLOEXEC */
	start_user(current_user_frame(), entry, sp);
	return 0;
}

static void set_task_name(const char *path)
{
	const char *base = strrchr(path, '/');

	strlcpy(current->name, base ? base + 1 : path, sizeof(current->name));
	trace_comm(current->pid, current->name);
}

/* Load path into a new address space and make the current frame start it. */
static long do_execve(const char *path, struct exec_args *a)
{
	struct inode *inode = namei(path);
	long err;

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	/* a regular file the loader can read through its pages, with an x bit */
	if (!S_ISREG(inode->mode) || !inode->fops || !inode->fops->map_page ||
	    !(inode->mode & 0111))
		err = -EACCES;
	else
		err = exec_image(inode, a);
	iput(inode);
	if (!err)
		set_task_name(path);	/* and eax of the new image starts as 0 */
	return err;
}

long sys_execve(const char *upath, char *const *uargv, char *const *uenvp)
{
	struct exec_args *a = kmalloc(sizeof(*a), GFP_KERNEL);
	char path[PATH_MAX];
	long err;

	if (!a)
		return -ENOMEM;
	a->argc = a->envc = 0;
	a->used = 0;
	err = strncpy_from_user(path, upath, PATH_MAX);
	if (err == PATH_MAX)
		err = -ENAMETOOLONG;
	if (err >= 0 && (err = copy_strings(a, uargv, &a->argc)) == 0)
		err = copy_strings(a, uenvp, &a->envc);
	if (err >= 0)
		err = do_execve(path, a);
	kfree(a);
	return err;
}

/* Exec from a kernel thread (the first process): strings are kernel memory. */
long kernel_execve(const char *path, char *const argv[], char *const envp[])
{
	struct exec_args *a = kmalloc(sizeof(*a), GFP_KERNEL);
	char *const *vec[2] = { argv, envp };
	long err = 0;

	if (!a)
		return -ENOMEM;
	a->argc = a->envc = 0;
	a->used = 0;
	for (int v = 0; v < 2 && !err; v++) {
		for (int i = 0; vec[v] && vec[v][i] && !err; i++) {
			size_t n = strlen(vec[v][i]) + 1;
			if (a->argc + a->envc >= MAX_ARGS || a->used + n > ARG_SPACE) {
				err = -E2BIG;
				break;
			}
			memcpy(a->strings + a->used, vec[v][i], n);
			a->ptr[a->argc + a->envc] = a->strings + a->used;
			a->used += n;
			*(v ? &a->envc : &a->argc) += 1;
		}
	}
	if (!err)
		err = do_execve(path, a);
	kfree(a);
	return err;
}
