#!/bin/sh
# gdb_check.sh: QEMU paused with its gdbstub, gdb -batch attaches with the shipped
# kernel's symbols, breaks in kmain, and we assert the stop, the backtrace, the source
# lines and that the k-* helpers load their constants for this image (make gdb's).
# Prints a KTAP suite "gdb"; exit status 0 when every case passed.
: "${QEMU:=qemu-system-i386}" "${BUILD:=build}" "${KERNEL:=$BUILD/kernel.elf}"
: "${QEMU_FLAGS:=-accel tcg -m 128M -display none -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04}"
out=$BUILD/logs/gdb.session
mkdir -p "$BUILD/logs"
. "$(dirname "$0")/gdb_qemu.sh"

gdbq_start "$BUILD/logs/gdb.serial" -kernel "$KERNEL" -append "gdbcheck"
gdbq_gdb "$out" -ex 'break kmain' -ex 'continue' \
	-ex 'bt' -ex 'p/x magic' -ex 'info line *$pc' -ex 'next' \
	-ex 'tbreak sched_init' -ex 'continue' \
	-ex 'echo @@ helpers\n' -ex 'k-mem' -ex 'k-dmesg 3' -ex 'echo @@ end\n' -ex 'detach'
gdbq_wait
cat "$out"

n=0; failed=0
check() {	# check NAME CONDITION-RESULT
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "    ok $n $1"; else echo "    not ok $n $1"; failed=$((failed + 1)); fi
}
has() { grep -Eq "$1" "$out"; echo $?; }

echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    # Subtest: gdb"
echo "    1..7"
check gdb_batch_exits_cleanly "$grc"
check breakpoint_hit_in_kmain "$(has '^Breakpoint 1, kmain \(magic=[0-9]+, mbi=[0-9]+\) at kernel/main\.c:[0-9]+')"
check backtrace_frame0_kmain "$(has '^#0 +kmain \(.*\) at kernel/main\.c:[0-9]+')"
check backtrace_reaches_boot_asm "$(has '^#1 +0x[0-9a-f]+ in higher_half.* at boot/boot\.asm:[0-9]+')"
check multiboot_magic_argument "$(has '^\$1 = 0x2badb002')"
! grep -Eq 'Python Exception|Error occurred in Python|^warning: .*constants' "$out" &&
	sed -n '/^@@ helpers/,/^@@ end/p' "$out" | grep -q '^slab pages: [1-9]' &&
	sed -n '/^@@ helpers/,/^@@ end/p' "$out" | grep -q 'Normal'
check helpers_run_on_shipped_kernel $?
[ "$qrc" = 33 ]; check guest_runs_on_after_detach $?
echo "# gdb: pass:$((n - failed)) fail:$failed skip:0 total:$n"
[ $failed = 0 ] && echo "ok 1 gdb" || echo "not ok 1 gdb"
[ $failed = 0 ]
