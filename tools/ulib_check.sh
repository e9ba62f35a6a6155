#!/bin/sh
# ulib_check.sh: checks the user-space side without the kernel: builds `make user`, runs programs under qemu-i386.
#
# Prints a KTAP suite "ulib"; exit status 0 when every case passed.  qemu-i386 (Debian
# package qemu-user) runs our static i386 programs on the host's Linux: the basic call
# numbers are Linux's, so the runtime, newlib glue and libraries can be exercised now
# (the programs run here are linked with the int $0x80 stubs: user/user.mk USER_HOST_PROGS).
# The AIO calls (244-248) are not Linux's there: the libaio/POSIX aio tests link a
# mock kernel (user/test/lib/mock_aio.c) in their place.  The stat calls use Linux's
# numbers and layouts, so the host's kernel answers them.
# The programs in user/test/compat are written against libaio's and glibc's documented
# API, nothing of ours: they are built as an outside program would be
# (tools/cross/aiokern-cc ... -laio) to catch drift in our headers and libraries.
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
U=$BUILD/user
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0
failed=0

check() {	# check NAME STATUS [DIAGNOSTIC-FILE]
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		echo "    ok $n $1"
	else
		[ -n "${3-}" ] && [ -s "$3" ] && sed 's/^/    # /' "$3" | tail -n 15
		echo "    not ok $n $1"
		failed=$((failed + 1))
	fi
}
ok_if() { if "$@"; then echo 0; else echo 1; fi; }	# status of a command as 0/1
has() { ok_if grep -Eq "$1" "$2"; }			# has REGEX FILE

echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    # Subtest: ulib"
echo "    1..27"

# 1: everything builds (warnings are errors)
make --no-print-directory user user-tests syscalls-gen > "$TMP/build.log" 2>&1
check build $? "$TMP/build.log"
command -v qemu-i386 > /dev/null 2>&1 || {
	echo "qemu-i386 not found: apt-get install -y qemu-user" > "$TMP/qemu"
	check qemu_user_present 1 "$TMP/qemu"
}
Q=qemu-i386

# 2-4: hello prints with %lld and %f, and its exit code comes back
$Q "$U/host/hello" 7 "$TMP/hello.tmp" > "$TMP/hello" 2>&1 < /dev/null
rc=$?
check hello_runs "$(has '^hello from user space: heap ' "$TMP/hello")" "$TMP/hello"
check printf_lld_and_f "$(has ' 176366841446 3\.14159 argc=3$' "$TMP/hello")" "$TMP/hello"
check exit_code_propagates "$(ok_if [ "$rc" = 7 ])"
check file_open_write_lseek_read "$(has '^file round trip: ok$' "$TMP/hello")" "$TMP/hello"

# 6-9: the test programs, each a KTAP suite of its own
for t in ulib_posix ulib_abi ulib_libaio ulib_posix_aio; do
	(cd "$TMP" && $Q "$OLDPWD/$U/test/$t") > "$TMP/$t" 2>&1 < /dev/null
	check "$t" "$(ok_if [ $? = 0 ])" "$TMP/$t"
done

# 10: init forks, execs and waits for each program named on its command line
$Q "$U/host/init" "$U/host/hello" > "$TMP/init" 2>&1 < /dev/null
rc=$?
st=1
[ $rc = 0 ] && grep -q '^# init: all passed' "$TMP/init" &&
	grep -q '^hello from user space' "$TMP/init" && st=0
check init_runs_programs $st "$TMP/init"

# 11: the kernel table: AIO at 244..248, every other unknown slot -> sys_ni_syscall
cat > "$TMP/table_check.c" <<'EOF'
/* table_check.c: link the generated table with five AIO entry points and probe every slot. */
#include <stdio.h>
#include <string.h>
#include "syscall_table.h"
long sys_io_setup(unsigned n, aio_context_t *c) { (void)n; (void)c; return 244; }
long sys_io_destroy(aio_context_t c) { (void)c; return 245; }
long sys_io_getevents_abs(aio_context_t c, long n, struct io_event *e,
			  const struct kernel_timespec *w) { (void)c; (void)n; (void)e; (void)w; return 246; }
long sys_io_submit(aio_context_t c, long n, struct iocb **i) { (void)c; (void)n; (void)i; return 247; }
long sys_io_cancel(aio_context_t c, struct iocb *i, struct io_event *e) { (void)c; (void)i; (void)e; return 248; }
int main(void)
{
	static const char *aio[] = { "io_setup", "io_destroy", "io_getevents_abs", "io_submit", "io_cancel" };
	int bad = 0;
	for (int i = 0; i < NR_SYSCALLS; i++) {
		long r = syscall_table[i](0, 0, 0, 0, 0, 0);
		if (i >= 244 && i <= 248) {
			bad |= r != i || strcmp(syscall_names[i], aio[i - 244]);
			continue;
		}
		/* no definition here: listed calls fall back (weak) to sys_ni_syscall too */
		bad |= (syscall_table[i] != (syscall_fn_t)(void (*)(void))sys_ni_syscall) || r != -38;
		if (!syscall_names[i] && syscall_nargs[i])
			bad = 1;
	}
	bad |= __NR_io_setup != 244 || __NR_io_cancel != 248 || NR_SYSCALLS != 504 ||
	       strcmp(syscall_names[3], "read") || syscall_nargs[192] != 6;
	if (bad)
		printf("table check failed\n");
	return bad;
}
EOF
KFLAGS="-m32 -march=i686 -std=gnu11 -O2 -ffreestanding -fno-pie -nostdinc \
	-isystem $(gcc -m32 -print-file-name=include) -Iinclude -I$BUILD/gen -Wall -Wextra -Werror"
{ gcc $KFLAGS -c "$BUILD/gen/syscall_table.c" -o "$TMP/syscall_table.o" &&
  gcc -m32 -std=gnu11 -Iinclude -I"$BUILD/gen" -Wall -Wextra -Werror -no-pie \
	"$TMP/table_check.c" "$TMP/syscall_table.o" -o "$TMP/table_check" &&
  "$TMP/table_check"; } > "$TMP/table" 2>&1
check kernel_table_aio_244_248_rest_enosys $? "$TMP/table"

# 12: the uapi headers compile as the kernel compiles them (their _Static_asserts hold)
printf '#include "uapi/%s"\n' types.h aio_abi.h aiok.h time.h stat.h fcntl.h signal.h wait.h \
	mman.h errno.h vsyscall.h > "$TMP/uapi.c"
gcc $KFLAGS -fsyntax-only "$TMP/uapi.c" > "$TMP/uapi" 2>&1
check uapi_headers_kernel_flags $? "$TMP/uapi"

# 13: the generator refuses a 64-bit argument and a reused number
printf '3 read(int fd)\n4 pread(int fd, long long off)\n' > "$TMP/bad1.list"
printf '3 read(int fd)\n3 write(int fd)\n' > "$TMP/bad2.list"
python3 tools/gensyscalls.py --list "$TMP/bad1.list" "$TMP/g1" 2> "$TMP/gen"
r1=$?
python3 tools/gensyscalls.py --list "$TMP/bad2.list" "$TMP/g2" 2>> "$TMP/gen"
r2=$?
check generator_rejects_bad_lists "$(ok_if [ $r1 != 0 ] && [ $r2 != 0 ])" "$TMP/gen"

# 14: program layout (R-X text, RW- data at 0x08048000) and the initramfs contents
{ readelf -lW "$U/bin/hello"; python3 tools/mkcpio.py --list "$BUILD/initramfs.cpio"; } \
	> "$TMP/layout" 2>&1
st=1
grep -Eq 'LOAD +0x000000 0x08048000 .* R E 0x1000' "$TMP/layout" &&
	grep -Eq 'LOAD .* RW  0x1000' "$TMP/layout" && grep -q '^bin/init 100755 ' "$TMP/layout" &&
	grep -q '^bin/hello 100755 ' "$TMP/layout" && st=0
check elf_segments_and_initramfs $st "$TMP/layout"

# 15-19: libaio programs as libaio's documentation writes them, built with -laio, and a
# POSIX <aio.h> one built with -lrt (the mock kernel and the int $0x80 stubs are added on
# the link line, not in the source)
CC=tools/cross/aiokern-cc
HOSTLINK="$U/gen/syscalls_int80.o $U/test/lib/mock_aio.o"
for p in aio_write_read aio_callbacks aio_api_surface posix_aio_rw; do
	lib=-laio
	[ $p = posix_aio_rw ] && lib=-lrt
	{ $CC -Wall -Wextra -Werror -o "$TMP/$p" user/test/compat/$p.c $lib $HOSTLINK &&
	  (cd "$TMP" && $Q "./$p" < /dev/null); } > "$TMP/$p.log" 2>&1
	st=$?
	[ $st = 0 ] && ! grep -q "^$p: PASS" "$TMP/$p.log" && st=1
	check "libaio_program_$p" $st "$TMP/$p.log"
done
# ISO C99 without GNU extensions: libaio.h needs none (libaio's own cast of the
# callback to void * is kept, so -pedantic would warn there as it does on Linux)
$CC -std=c99 -Wall -Wextra -Werror -fsyntax-only \
	user/test/compat/aio_write_read.c > "$TMP/c99.log" 2>&1
check libaio_h_strict_c99 $? "$TMP/c99.log"

# 20: getopt/getopt_long behave as glibc's: the same program built both ways prints the same
{ $CC -Wall -Werror -o "$TMP/getopt_aiok" user/test/compat/getopt_cmp.c $HOSTLINK &&
  gcc -Wall -Werror -o "$TMP/getopt_host" user/test/compat/getopt_cmp.c &&
  $Q "$TMP/getopt_aiok" > "$TMP/getopt_aiok.out" && "$TMP/getopt_host" > "$TMP/getopt_host.out" &&
  diff "$TMP/getopt_host.out" "$TMP/getopt_aiok.out"; } > "$TMP/getopt.log" 2>&1
check getopt_matches_glibc $? "$TMP/getopt.log"

# 21: -laio resolves from the library directory the way the Makefile installs it
ls "$U/usr/lib/libaio.a" > "$TMP/laio.log" 2>&1 && nm "$U/usr/lib/libaio.a" 2>> "$TMP/laio.log" |
	grep -q " T io_pgetevents$"
check laio_installed $? "$TMP/laio.log"

# 22-27: threads and signals (issue 15's user side).  qemu-i386 implements the Linux
# calls aiokern will (clone, futex, set_thread_area, rt_sig*, tgkill, ...), so the
# glue's own checks and the guest suites pthread and signal run here already.
for t in ulib_pthread ulib_signal; do
	(cd "$TMP" && $Q "$OLDPWD/$U/test/$t") > "$TMP/$t" 2>&1 < /dev/null
	check "$t" "$(ok_if [ $? = 0 ])" "$TMP/$t"
done
for t in test_pthread test_signal; do
	(cd "$TMP" && $Q "$OLDPWD/$U/host/$t") > "$TMP/$t" 2>&1 < /dev/null
	st=$?
	[ $st = 0 ] && ! grep -q "^ok 1 ${t#test_}$" "$TMP/$t" && st=1
	check "suite_${t#test_}_on_host" $st "$TMP/$t"
done
# what the programs link: our signal(), raise() and locks (a 12-byte struct __lock),
# none of newlib's emulated signals or dummy locks; libpthread.a where -lpthread looks
{ nm -S "$U/host/test_signal" | grep -E ' (__sigtramp|_init_signal|__sigtramp_r)$' &&
	echo "newlib's emulated signals are linked"
  nm -S "$U/host/test_pthread" | grep -Eq '^[0-9a-f]+ 0000000c B __lock___malloc_recursive_mutex$' ||
	echo "newlib's dummy locks are linked"
  nm "$U/usr/lib/libpthread.a" | grep -q ' T pthread_create$' || echo "no libpthread.a"; } \
	> "$TMP/links" 2>&1
check links_own_signals_locks_libpthread "$(ok_if [ ! -s "$TMP/links" ])" "$TMP/links"
# an outside program: <pthread.h>, -lpthread, through tools/cross/aiokern-cc
cat > "$TMP/pthread_prog.c" <<'EOF'
/* pthread_prog.c: four threads count under a mutex and print. */
#include <pthread.h>
#include <stdio.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long n;
static void *run(void *arg)
{
	for (int i = 0; i < 10000; i++) {
		pthread_mutex_lock(&m);
		n++;
		pthread_mutex_unlock(&m);
	}
	printf("thread %ld done\n", (long)arg);
	return arg;
}
int main(void)
{
	pthread_t t[4];
	void *r;
	long sum = 0;
	for (long i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, run, (void *)i))
			return 1;
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], &r);
		sum += (long)r;
	}
	printf("pthread_prog: %s\n", n == 40000 && sum == 6 ? "PASS" : "FAIL");
	return 0;
}
EOF
{ tools/cross/aiokern-cc -Wall -Wextra -Werror -o "$TMP/pthread_prog" "$TMP/pthread_prog.c" \
	-lpthread "$U/gen/syscalls_int80.o" && $Q "$TMP/pthread_prog" < /dev/null; } > "$TMP/pprog" 2>&1
check aiokern_cc_lpthread_program "$(has '^pthread_prog: PASS$' "$TMP/pprog")" "$TMP/pprog"

[ $failed = 0 ] && echo "ok 1 ulib" || echo "not ok 1 ulib"
[ $failed = 0 ]
