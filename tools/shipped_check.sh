#!/bin/sh
# shipped_check.sh: the shipped kernel carries no test code: no ktest or test symbol, none of the test kernel's own objects, and crash=/ktest= do nothing in it; prints a KTAP suite "shipped_kernel".
#
# Needs the Makefile's exported KERNEL, KTEST_KERNEL, KTEST_ONLY_OBJ (the objects only
# the test kernel links), QEMU and QEMU_FLAGS. Exit status 0 when every case passed.
: "${QEMU:=qemu-system-i386}" "${BUILD:=build}" "${KERNEL:=$BUILD/kernel.elf}"
: "${KTEST_KERNEL:=$BUILD/kernel-test.elf}"
: "${QEMU_FLAGS:=-accel tcg -m 256M -display none -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04}"
# Command-line words that switch on a test-only hook (README: "test kernel only").
# A hook that the compiler inlined leaves no symbol, but the word it looks up stays.
TEST_PARAMS='crash|fork_pin_delay|exit_yield|destroy_yield|nonblock_yield|blk_race_test'
HOOK_SYMS='^crash_|fork_pin|exit_yield|destroy_yield|nonblock_yield|trap_test_hook'
# Symbols of the shipped kernel that may say "test": none (a pattern no name matches).
ALLOWED='^$'
logs=$BUILD/logs
mkdir -p "$logs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0; failed=0
check() {	# check NAME STATUS [WHY-FILE]: STATUS 0 passes; WHY-FILE lines become diagnostics
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		echo "    ok $n $1"
		return
	fi
	[ -n "$3" ] && [ -s "$3" ] && head -20 "$3" | sed 's/^/    # /'
	echo "    not ok $n $1"
	failed=$((failed + 1))
}
empty() { [ ! -s "$1" ]; echo $?; }

echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    # Subtest: shipped_kernel"
echo "    1..8"

nm "$KERNEL" > "$tmp/ship.nm" && nm "$KTEST_KERNEL" > "$tmp/test.nm" || { echo "    # nm failed"; exit 1; }
awk '{ print $NF }' "$tmp/ship.nm" | sort -u > "$tmp/ship.names"

# The issue's own test: nm build/kernel.elf | grep -ci ktest prints 0.
grep -i ktest "$tmp/ship.nm" > "$tmp/why"
check no_ktest_symbol "$(empty "$tmp/why")" "$tmp/why"

# Hooks and helpers are named for tests (trap_test_hook, ...): none may ship, nor the
# hooks' own symbols (include/test_hooks.h, kernel/crash.c).
grep -iE "test|$HOOK_SYMS" "$tmp/ship.names" | grep -Ev "$ALLOWED" > "$tmp/why"
check no_test_or_hook_symbol "$(empty "$tmp/why")" "$tmp/why"

# No test-only command-line word is looked up (in .rodata) by the shipped kernel.
objcopy -O binary --only-section=.rodata "$KERNEL" "$tmp/rodata" &&
	strings -n 3 "$tmp/rodata" | grep -xE "$TEST_PARAMS" > "$tmp/why"
check no_test_parameter_parsed "$(empty "$tmp/why")" "$tmp/why"

# Every global the test kernel's own objects define (suites, crash=, the hooks of
# kernel/test_hooks.c) is missing from the shipped kernel.
: > "$tmp/testobj.names"
[ -n "$KTEST_ONLY_OBJ" ] && nm --defined-only $KTEST_ONLY_OBJ 2>"$tmp/why" |
	awk '$2 ~ /^[TDBRC]$/ { print $3 }' | sort -u > "$tmp/testobj.names"
test -s "$tmp/testobj.names"
check test_objects_listed "$?" "$tmp/why"
comm -12 "$tmp/testobj.names" "$tmp/ship.names" > "$tmp/why"
check no_symbol_of_test_objects "$(empty "$tmp/why")" "$tmp/why"

# The check looks at the right images: the test kernel does have what the shipped one lacks.
[ "$(grep -Ec ' (ktest_run_selected|trap_test_hook|tsc_cal_test_hook|ktest_fork_pin_delay|ktest_exit_yield|ktest_destroy_yield|crash_if_asked)$' "$tmp/test.nm")" = 7 ]
check test_kernel_has_suites_and_hooks "$?"

# Booted, the shipped kernel ignores crash= (no such switch: a clean power-off, 33)
# and refuses ktest= (no suites: reported, status 35).
boot() {	# boot LOG CMDLINE: QEMU's exit status
	timeout 30 $QEMU $QEMU_FLAGS -serial stdio -kernel "$KERNEL" -append "$2" >"$1" 2>&1
	echo $?
}
rc=$(boot "$logs/shipped_check.crash.log" "crash=pagefault noinit")
! grep -q 'Kernel panic' "$logs/shipped_check.crash.log" && [ "$rc" = 33 ]
check crash_switch_absent "$?" "$logs/shipped_check.crash.log"
rc=$(boot "$logs/shipped_check.ktest.log" "ktest=all noinit")
grep -q 'ktest=: this kernel has no test suites' "$logs/shipped_check.ktest.log" && [ "$rc" = 35 ]
check ktest_refused "$?" "$logs/shipped_check.ktest.log"

echo "# shipped_kernel: pass:$((n - failed)) fail:$failed skip:0 total:$n"
[ $failed = 0 ] && echo "ok 1 shipped_kernel" || echo "not ok 1 shipped_kernel"
[ $failed = 0 ]
