#!/bin/sh
# trace_check.sh: request tracing end to end: the shipped kernel runs the demo with trace=all, its records leave by isa-debugcon and tools/trace2json.py converts and checks them; prints a KTAP suite "trace_check".
#
# Boots: (1) the demo with a 4 MiB buffer: every request of aiodemo has one submit, one
# completion and one reap in order, times run forward per CPU, no record is lost, and the
# JSON has the CPU, process and device tracks and a flow per request; (2) the demo with a
# 4 KiB buffer: overruns are counted and the converter says so; (3) the demo without trace=:
# nothing leaves on the trace port; (4) the "trace" user suite switching /proc/trace at run
# time; (5) gdb's k-trace, stopped in the demo's first io_destroy, reads from guest memory
# the same records the port carries later. Needs the Makefile's exported QEMU, QEMU_FLAGS, KERNEL, INITRAMFS, BUILD.
: "${QEMU:=qemu-system-i386}" "${BUILD:=build}" "${KERNEL:=$BUILD/kernel.elf}"
: "${INITRAMFS:=$BUILD/initramfs.cpio}"
: "${QEMU_FLAGS:=-accel tcg -m 256M -display none -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04}"
PY=${PYTHON:-python3}
logs=$BUILD/logs
out=$BUILD/trace-check
mkdir -p "$logs" "$out"

n=0; failed=0
check() {	# check NAME STATUS [WHY-FILE]: STATUS 0 passes; WHY-FILE lines become diagnostics
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		echo "    ok $n $1"
		return
	fi
	[ -n "$3" ] && [ -s "$3" ] && tail -25 "$3" | sed 's/^/    # /'
	echo "    not ok $n $1"
	failed=$((failed + 1))
}

# boot NAME CMDLINE: the demo's disks (fresh), console in $out/NAME.log, records in
# $out/NAME.bin; prints QEMU's exit status.
boot() {
	rm -f "$out/$1.bin" "$out/$1-vd.img" "$out/$1-hd.img"
	truncate -s 16M "$out/$1-vd.img" "$out/$1-hd.img"
	timeout 120 $QEMU $QEMU_FLAGS -serial file:"$out/$1.log" \
		-chardev file,id=tr0,path="$out/$1.bin" -device isa-debugcon,iobase=0xe9,chardev=tr0 \
		-kernel "$KERNEL" -initrd "$INITRAMFS" \
		-drive file="$out/$1-vd.img",format=raw,if=none,id=d0 -device virtio-blk-pci,drive=d0,queue-size=256 \
		-drive file="$out/$1-hd.img",format=raw,if=ide,index=0 -append "$2" >/dev/null 2>&1
	echo $?
}
# The number of requests the demo says it made: "aiodemo: PASS (2 disks, 16 steps, 202 requests".
demo_requests() {
	sed -n 's/.*aiodemo: PASS ([0-9]* disks, [0-9]* steps, \([0-9]*\) requests.*/\1/p' "$1"
}

echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    # Subtest: trace_check"
echo "    1..10"

# (1) a buffer large enough for the whole run
rc=$(boot large "lowmem=128M run=aiodemo trace=all trace_buf=4096")
grep -q 'aiodemo: PASS' "$out/large.log" && [ "$rc" = 33 ]
check demo_passes_traced "$?" "$out/large.log"
req=$(demo_requests "$out/large.log")
$PY tools/trace2json.py "$out/large.bin" -o "$out/large.json" -s "$out/large-summary.txt" --check \
	--expect-requests "${req:-0}" --comm aiodemo > "$out/large.check" 2>&1
check requests_submit_complete_reap_in_order "$?" "$out/large.check"
grep -q '; 0 overruns, 0 lost$' "$out/large.check"
check no_record_lost "$?" "$out/large.check"
$PY - "$out/large.json" "${req:-0}" > "$out/large.json.check" 2>&1 <<'EOF'
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1]))['traceEvents']
want = int(sys.argv[2])
names = {(e['pid'], e.get('tid')): e['args']['name'] for e in d if e['ph'] == 'M' and e['name'] in ('process_name', 'thread_name')}
procs = [v for (p, t), v in names.items() if t is None]
threads = [v for (p, t), v in names.items() if t is not None]
ph = Counter(e['ph'] for e in d)
fails = []
if 'CPU 0' not in procs: fails.append('no CPU 0 track')
if not any(v.startswith('aiodemo ') for v in procs): fails.append('no aiodemo process track')
for dev in ('vda', 'hda'):
    if not any(v.startswith(dev + ' #') for v in threads): fails.append('no %s device track' % dev)
if ph['b'] < want or ph['e'] != ph['b']: fails.append('async slices: %d begin, %d end, %d requests' % (ph['b'], ph['e'], want))
if ph['s'] < want or ph['f'] < want: fails.append('flows: %d starts, %d ends, %d requests' % (ph['s'], ph['f'], want))
if not any(e['ph'] == 'X' and e['name'] == 'io_submit' for e in d): fails.append('no io_submit slice')
if not any(e['ph'] == 'X' and e['name'].startswith('IRQ ') for e in d): fails.append('no IRQ slice')
print('\n'.join(fails) or 'json ok: %s' % dict(ph))
sys.exit(1 if fails else 0)
EOF
check json_tracks_and_flows "$?" "$out/large.json.check"

# (2) a 4 KiB buffer: records are dropped, counted, and the converter says so
rc=$(boot small "lowmem=128M run=aiodemo trace=all trace_buf=4")
grep -q 'aiodemo: PASS' "$out/small.log" && [ "$rc" = 33 ]
check demo_passes_small_buffer "$?" "$out/small.log"
$PY tools/trace2json.py "$out/small.bin" --check --expect-overruns --allow-dropped > "$out/small.check" 2>&1
s=$?
grep -q '^OVERRUNS: [1-9][0-9]* records dropped' "$out/small.check" && ! grep -q '; 0 overruns' "$out/small.check"
[ $s = 0 ] && [ $? = 0 ]
check overruns_counted_and_reported "$?" "$out/small.check"

# (3) no trace= : nothing on the trace port, the demo as usual
rc=$(boot off "lowmem=128M run=aiodemo")
grep -q 'aiodemo: PASS' "$out/off.log" && [ "$rc" = 33 ] && [ ! -s "$out/off.bin" ]
check silent_when_off "$?" "$out/off.log"

# (4) /proc/trace at run time (the buffer made at boot, before init's leak baseline)
rc=$(boot proc "lowmem=128M trace_buf=64 run=test_trace")
grep -q '^ok 1 trace' "$out/proc.log" && grep -q '^ok 2 leaks' "$out/proc.log" && [ "$rc" = 33 ]
check proc_trace_runtime_switch "$?" "$out/proc.log"
$PY tools/trace2json.py "$out/proc.bin" --check --allow-dropped > "$out/proc.check" 2>&1
check runtime_records_convert "$?" "$out/proc.check"
# (5) k-trace at a breakpoint: its records are the port's, index for index
. "$(dirname "$0")/gdb_qemu.sh"
rm -f "$out/gdb.bin" "$out/kgdb.bin"
truncate -s 16M "$out/gdb-vd.img" "$out/gdb-hd.img"
gdbq_start "$out/gdb.log" -kernel "$KERNEL" -initrd "$INITRAMFS" \
	-chardev file,id=tr0,path="$out/gdb.bin" -device isa-debugcon,iobase=0xe9,chardev=tr0 \
	-drive file="$out/gdb-vd.img",format=raw,if=none,id=d0 -device virtio-blk-pci,drive=d0,queue-size=256 \
	-drive file="$out/gdb-hd.img",format=raw,if=ide,index=0 \
	-append "lowmem=128M run=aiodemo trace=aio,blk trace_buf=4096"
gdbq_gdb "$out/gdb.out" -ex 'break sys_io_destroy' -ex 'continue' -ex "k-trace $out/kgdb.bin" \
	-ex 'delete' -ex 'detach'
gdbq_wait
$PY - "$out/kgdb.bin" "$out/gdb.bin" > "$out/gdb.check" 2>&1 <<'EOF'
import sys
sys.path.insert(0, 'tools')
import trace2json as t
h = t.load_header('include/trace.h')
k = t.Stream(open(sys.argv[1], 'rb').read(), h)
p = t.Stream(open(sys.argv[2], 'rb').read(), h)
kr, pr = k.cpus.get(0, {}), p.cpus.get(0, {})
fields = lambda r: (r.tsc, r.type, r.pid, r.tid, r.ctx, r.key, r.size, r.result, r.arg)
same = sum(1 for i, r in kr.items() if i in pr and fields(r) == fields(pr[i]))
accepts = sum(1 for r in kr.values() if r.type == h['TR_AIO_ACCEPT'])
print('k-trace: %d records (%d accepts), %d the same in the port stream of %d' % (len(kr), accepts, same, len(pr)))
sys.exit(0 if kr and accepts and same == len(kr) and not k.errors else 1)
EOF
krc=$?
cat "$out/gdb.out" >> "$out/gdb.check"
[ $krc = 0 ] && [ "$grc" = 0 ] && [ "$qrc" = 33 ] && grep -q 'aiodemo: PASS' "$out/gdb.log"
check gdb_k_trace_matches_port "$?" "$out/gdb.check"

sed 's/^/    # /' "$out/large-summary.txt"
echo "# trace_check: pass:$((n - failed)) fail:$failed skip:0 total:$n"
[ $failed = 0 ] && echo "ok 1 trace_check" || echo "not ok 1 trace_check"
[ $failed = 0 ]
