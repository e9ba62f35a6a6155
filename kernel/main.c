/* main.c: kmain, the C entry point: bring the machine up, then run tests or the demo. */
#include "clock.h"
#include "cmdline.h"
#include "crash.h"
#include "gdt.h"
#include "ide.h"
#include "irq.h"
#include "ktest.h"
#include "mm.h"
#include "multiboot.h"
#include "panic.h"
#include "pci.h"
#include "power.h"
#include "printk.h"
#include "sched.h"
#include "serial.h"
#include "timer.h"
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

void kmain(u32 magic, u32 mbi)
{
	int failed;

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
	time_init();
	timer_init();
	sched_init();
	workqueue_init();
	sti();
	pci_init();
	ide_init();
	virtio_blk_init();
	crash_if_asked(cmdline_get(&boot_cmdline, "crash"));
	failed = ktest_run_selected(cmdline_get(&boot_cmdline, "ktest"));
	if (failed > 0)
		machine_exit(EXIT_FAIL);
	printk("%s: all done, powering off\n", KERNEL_NAME);
	machine_exit(EXIT_PASS);
}
