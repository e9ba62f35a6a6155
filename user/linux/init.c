/* init.c (Linux): /init of the Linux benchmark initramfs: load the disk modules, mount devtmpfs, run bench, power off. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "lx_syscall.h"
#include "outf.h"

/*
 * Built with the aiokern user toolchain (crt0 + newlib glue, whose numbers are
 * Linux i386's) and run by Debian's amd64 kernel through its 32-bit emulation.
 * The few calls the glue lacks are raw int $0x80 with Linux i386 numbers.
 *
 * /modules lists the modules to load, one path a line, dependencies first
 * (tools/linuxkernel.py writes it).  The kernel command line's "bench=DEV,LABEL[,--quick]"
 * reaches us as an environment variable: bench runs with those arguments.
 */

#define NR_MOUNT		21
#define NR_REBOOT		88
#define NR_UNAME		122
#define NR_FINIT_MODULE		350
#define LINUX_EEXIST		17
#define REBOOT_MAGIC1		0xfee1dead
#define REBOOT_MAGIC2		672274793
#define REBOOT_POWER_OFF	0x4321fedc
#define MAX_ARGS		8
#define DEVICE_WAIT_MS		30000

/* Power off; if that fails, exit: the kernel panics and panic=-1 ends QEMU (-no-reboot). */
static void __attribute__((noreturn)) power_off(void)
{
	lx_syscall(NR_REBOOT, REBOOT_MAGIC1, REBOOT_MAGIC2, REBOOT_POWER_OFF, 0, 0);
	_exit(1);
}

static void print_kernel(void)
{
	static char uts[6][65];	/* struct new_utsname */

	if (lx_syscall(NR_UNAME, (long)uts, 0, 0, 0, 0) == 0)
		outf("# linux-init: %s %s %s %s\n", uts[0], uts[2], uts[3], uts[4]);
}

static int load_module(const char *path)
{
	int fd = open(path, O_RDONLY);
	long r;

	if (fd < 0) {
		outf("# linux-init: cannot open %s\n", path);
		return -1;
	}
	r = lx_syscall(NR_FINIT_MODULE, fd, (long)"", 0, 0, 0);
	close(fd);
	if (r < 0 && r != -LINUX_EEXIST) {
		outf("# linux-init: finit_module %s: %ld\n", path, r);
		return -1;
	}
	return 0;
}

/* Load every module named in /modules, in order; the number that failed. */
static int load_modules(void)
{
	static char list[4096];
	int fd = open("/modules", O_RDONLY), bad = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, list, sizeof(list) - 1);
	close(fd);
	list[n > 0 ? n : 0] = '\0';
	for (char *p = strtok(list, "\n"); p; p = strtok(NULL, "\n"))
		bad += load_module(p) < 0;
	return bad;
}

/* Wait until path opens (the disk's probe may finish after its module loaded). */
static int wait_for(const char *path)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };

	for (int ms = 0; ms < DEVICE_WAIT_MS; ms += 20) {
		int fd = open(path, O_RDONLY);

		if (fd >= 0) {
			close(fd);
			return 0;
		}
		nanosleep(&tick, NULL);
	}
	outf("# linux-init: %s did not appear\n", path);
	return -1;
}

/* "a,b,c" -> argv { "/bin/bench", "a", "b", "c", NULL }; the count. */
static int split_args(char *spec, char **argv)
{
	int n = 0;

	argv[n++] = "/bin/bench";
	for (char *p = strtok(spec, ","); p && n < MAX_ARGS - 1; p = strtok(NULL, ","))
		argv[n++] = p;
	argv[n] = NULL;
	return n;
}

static int run_bench(char **argv)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		execve(argv[0], argv, environ);
		outf("# linux-init: execve %s failed\n", argv[0]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(void)
{
	char *spec = getenv("bench"), *argv[MAX_ARGS];
	long r;

	print_kernel();
	if (load_modules())
		outf("# linux-init: some modules failed to load\n");
	r = lx_syscall(NR_MOUNT, (long)"devtmpfs", (long)"/dev", (long)"devtmpfs", 0, 0);
	if (r < 0)
		outf("# linux-init: mount devtmpfs: %ld\n", r);
	if (!spec) {
		outf("# linux-init: no bench= on the kernel command line\n");
		power_off();
	}
	split_args(spec, argv);
	if (argv[1] && wait_for(argv[1]) == 0)
		outf("# linux-init: bench exited with %d\n", run_bench(argv));
	power_off();
}
