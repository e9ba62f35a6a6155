/* main.c: kmain, the C entry point: bring the machine up, then start init (the test kernel runs its suites first). */
#include "acpi.h"
#include "clock.h"
#include "aio.h"
#include "blk_file.h"
#include "boottime.h"
#include "cmdline.h"
#include "fs.h"
#include "paging.h"
#include "proc.h"
#include "string.h"
#include "syscall_table.h"
#include "gdt.h"
#include "ide.h"
#include "irq.h"
#include "mm.h"
#include "ext2_mount.h"
#include "mount.h"
#include "multiboot.h"
#include "panic.h"
#include "pci.h"
#include "power.h"
#include "printk.h"
#include "sched.h"
#include "serial.h"
#include "smp.h"
#include "ioapic.h"
#include "test_hooks.h"
#include "timer.h"
#include "trace.h"
#include "trap.h"
#include "version.h"
#include "virtio_blk.h"
#include "workqueue.h"
#include "x86.h"

static void banner(void)
{
	printk("%s %s (built %s %s), i386 higher-half at 0xC0100000\n",
	       KERNEL_NAME, KERNEL_VERSION, __DATE__, __TIME__);
}

static void setup_cmdline(void)
{
	int loglevel;

	if (cmdline_parse(&boot_cmdline, boot_cmdline_raw) < 0)
		pr_warn("cmdline: too long, the rest is ignored\n");
	loglevel = cmdline_get_num(&boot_cmdline, "loglevel", console_loglevel);
	if (loglevel >= 0 && loglevel <= 8)
		console_loglevel = loglevel;
}

/* Unpack the initramfs (the first multiboot module) into the root. */
static void unpack_initramfs(void)
{
	struct boot_module *m = &boot_info.module[0];
	int n;

	if (!boot_info.nr_modules) {
		pr_info("initramfs: none given\n");
		return;
	}
	if (m->end > lowmem_limit) {
		pr_err("initramfs: %08x-%08x lies above low memory, ignored\n", m->start, m->end);
		return;
	}
	n = cpio_unpack(__va(m->start), m->end - m->start);
	if (n < 0)
		pr_err("initramfs: bad archive (%d)\n", n);
	else
		pr_info("initramfs: %d entries, %u KiB\n", n, (m->end - m->start) >> 10);
}

/* argv for init: its path, then each program of run=a,b,... (bare names in /bin). */
static char *const *init_argv(const char *init)
{
	static char names[CMDLINE_MAX + 64 * 5];
	static char *argv[34];
	const char *run = cmdline_get(&boot_cmdline, "run");
	char *p = names;
	int n = 0;

	argv[n++] = (char *)init;
	while (run && *run && n < 33) {
		const char *comma = strchr(run, ',');
		int len = comma ? comma - run : (int)strlen(run);
		argv[n++] = p;
		p += snprintf(p, names + sizeof(names) - p, "%s%.*s", *run == '/' ? "" : "/bin/",
			      len, run) + 1;
		run += len + (comma ? 1 : 0);
	}
	argv[n] = NULL;
	return argv;
}

/* The rest of the boot runs in process context: files, AIO, then init. */
static void start_user_space(void)
{
	const char *init = cmdline_get(&boot_cmdline, "init");
	struct inode *inode;

	init = init && *init ? init : "/bin/init";
	inode = namei(init);
	if (IS_ERR(inode)) {
		printk("%s: no %s, powering off\n", KERNEL_NAME, init);
		machine_exit(ktest_boot_failures() ? EXIT_FAIL : EXIT_PASS);
	}
	iput(inode);
	boot_mark("init");
	boot_timeline_print();
	if (proc_start_init(init, init_argv(init)))
		panic("kmain: cannot start %s", init);
	for (;;) {			/* the boot task has nothing left to do */
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
	}
}

void kmain(u32 magic, u32 mbi)
{
	boot_mark("kmain");
	serial_init();
	gdt_init();
	trap_init();
	irq_init();
	if (multiboot_parse(magic, mbi))
		panic("kmain: not started by a multiboot loader (magic %08x)", magic);
	setup_cmdline();
	banner();
	multiboot_show();
	mm_init();
	boot_mark("mm");
	cpu_discover();			/* ACPI MADT or MP table */
	time_init();
	boot_mark("time");
	smp_init();			/* the local APIC; the other CPUs, halted */
	ioapic_init();			/* the 8259 masked when there is an I/O APIC */
	trace_init();			/* trace= and trace_buf= */
	timer_init();
	sched_init();
	workqueue_init();
	sti();
	pci_init();
	ide_init();
	virtio_blk_init();
	boot_mark("drivers");
	fs_init();
	file_init();
	blk_file_init();
	aio_init();
	trace_proc_init();
	syscall_init();
	serial_rx_init();
	unpack_initramfs();
	boot_mark("initramfs");
	ext2_init();			/* its AIO worker thread */
	mount_boot();			/* mount=/dev/vda:/mnt */
	ktest_boot();			/* the test kernel's crash= and ktest= */
	if (cmdline_get(&boot_cmdline, "noinit")) {
		printk("%s: all done, powering off\n", KERNEL_NAME);
		machine_exit(ktest_boot_failures() ? EXIT_FAIL : EXIT_PASS);
	}
	start_user_space();
}
