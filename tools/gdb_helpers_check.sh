#!/bin/sh
# gdb_helpers_check.sh: QEMU paused with its gdbstub, the kernel runs the highmem and waitqueue suites, gdb -batch stops three times and we assert what the k-* helpers print.
# Prints a KTAP suite "gdb_helpers"; exit status 0 when every case passed.
#
# Stops: (1) kunmap, while a persistent kmap is in use; (2) kunmap_atomic of
# KM_USER1 in two_slots_copy, while KM_USER0 and KM_USER1 are both mapped;
# (3) signal_wake_up in the waitqueue suite, while its "sigwait" thread sleeps
# on never_wq. The serial log is copied at stop 3 so k-dmesg can be compared
# with what the console had printed by then.
: "${QEMU:=qemu-system-i386}" "${BUILD:=build}" "${KERNEL:=$BUILD/kernel.elf}"
: "${QEMU_FLAGS:=-accel tcg -display none -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04}"
logs=$BUILD/logs
out=$logs/gdb_helpers.session
serial=$logs/gdb_helpers.serial
snap=$logs/gdb_helpers.serial-at-stop
mkdir -p "$logs"
rm -f "$out" "$serial" "$snap"
[ -f "$BUILD/gdb/constants.py" ] || { echo "$0: $BUILD/gdb/constants.py missing (make kernel)"; exit 1; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

# -m 256M with lowmem=128M: a HighMem zone for the kmap stops. QEMU_FLAGS may
# carry its own -m; the last one wins.
$QEMU $QEMU_FLAGS -m 256M -serial file:"$serial" -gdb tcp:127.0.0.1:$port -S \
	-kernel "$KERNEL" -append "ktest=highmem,waitqueue lowmem=128M" &
qpid=$!
python3 - "$port" <<'PY'	# wait until the gdbstub listens (5 s at most)
import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.1).close()
        break
    except OSError:
        time.sleep(0.05)
PY
timeout 60 gdb -q -batch -nx -x tools/gdb/gdbinit -ex "file $KERNEL" \
	-ex "target remote 127.0.0.1:$port" \
	-ex 'break kunmap' -ex 'continue' \
	-ex 'echo @@ stop1\n' -ex 'p/x page - mem_map' -ex 'echo @@ k-kmap\n' -ex 'k-kmap' -ex 'delete' \
	-ex 'break kunmap_atomic if type == KM_USER1 && kmap_atomic_slots[KM_USER0].page != 0' \
	-ex 'continue' \
	-ex 'echo @@ stop2\n' -ex 'p/x kmap_atomic_slots[KM_USER0].page - mem_map' \
	-ex 'p/x kmap_atomic_slots[KM_USER1].page - mem_map' \
	-ex 'echo @@ k-kmap\n' -ex 'k-kmap' \
	-ex 'echo @@ highmem-read\n' \
	-ex 'python pfn = page_pfn(gdb.parse_and_eval("kmap_atomic_slots[KM_USER0].page")); q = phys_read_qemu(pfn << 12, 64); k = read_bytes(0xffffe000, 64); print("highmem-read", "same" if q == k else "DIFFERENT", q is not None)' \
	-ex 'python print("pgdir-walk", pgdir_to_phys(ptr(gdb.parse_and_eval("kernel_pgdir")), int(gdb.parse_and_eval("&log_buf[100]"))) == int(gdb.parse_and_eval("&log_buf[100]")) - consts().KERNEL_BASE)' \
	-ex 'delete' \
	-ex 'break signal_wake_up' -ex 'continue' \
	-ex "shell cp $serial $snap" \
	-ex 'echo @@ stop3\n' -ex 'p nr_tasks' \
	-ex 'p zones[0].free_pages' -ex 'p zones[1].free_pages' -ex 'p zones[2].free_pages' \
	-ex 'echo @@ k-ps\n' -ex 'k-ps' \
	-ex 'echo @@ k-mem\n' -ex 'k-mem' \
	-ex 'echo @@ k-aio\n' -ex 'k-aio' \
	-ex 'echo @@ k-user\n' -ex 'k-user' -ex 'k-user no_such_program' \
	-ex 'echo @@ dmesg-wrap\n' \
	-ex 'python print("dmesg-wrap", log_ring_text(b"89ab4567", 12, 8) == b"4567" + b"89ab", log_ring_text(b"abc\0\0\0\0\0", 3, 8) == b"abc")' \
	-ex 'echo @@ k-dmesg\n' -ex 'k-dmesg' -ex 'echo @@ end\n' \
	-ex 'delete' -ex 'detach' >"$out" 2>&1
grc=$?
timeout 30 sh -c "wait $qpid" 2>/dev/null; wait $qpid; qrc=$?
# The session holds the kernel log (k-dmesg) with its KTAP lines: quote it so
# that the runner does not read them as this suite's.
sed 's/^/| /' "$out"

python3 - "$out" "$snap" "$grc" "$qrc" "$KERNEL" <<'PY'
import re, subprocess, sys

out, snap, grc, qrc, kernel = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
text = open(out, errors='replace').read()
try:
    serial = open(snap, errors='replace').read()
except OSError:
    serial = ''
sections = {}
for m in re.finditer(r'^@@ (\S+)\n(.*?)(?=^@@ |\Z)', text, re.M | re.S):
    sections.setdefault(m.group(1), []).append(m.group(2))
sec = lambda name, i=0: sections.get(name, [''] * (i + 1))[i] if len(sections.get(name, [])) > i else ''
cases = []


def check(name, cond, why=''):
    cases.append((name, bool(cond), '' if cond else why))


def gdb_values(block):
    return [int(v, 0) for v in re.findall(r'^\$\d+ = (0x[0-9a-f]+|-?\d+)', block, re.M)]


check('gdb_batch_exits_cleanly', grc == 0, 'gdb status %d' % grc)
check('helpers_run_without_python_errors',
      not re.search(r'Python Exception|Error occurred in Python|^warning: .*constants', text, re.M)
      and '@@ end' in text, 'a helper failed (see the session above)')

# Stop 1: one persistent kmap, the page kunmap was given.
s1, kk1 = sec('stop1'), sec('k-kmap', 0)
v1 = gdb_values(s1)
m = re.search(r'^persistent kmaps \(1024 entries at 0xff400000\): (\d+) in use', kk1, re.M)
rows = re.findall(r'^  (\d+) +(0xff[0-9a-f]+) +(\d+) (0x[0-9a-f]+) (0x[0-9a-f]+)$', kk1, re.M)
check('kmap_persistent_entry_shown', m and int(m.group(1)) >= 1 and v1 and
      any(int(r[4], 16) == v1[0] and int(r[2]) >= 1 for r in rows),
      'no persistent entry for the pfn being kunmapped')

# Stop 2: KM_USER0 and KM_USER1 in use, pfns as gdb computes them, callers symbolized.
s2, kk2 = sec('stop2'), sec('k-kmap', 1)
v2 = gdb_values(s2)
slots = {m.group(1): (int(m.group(2), 16), int(m.group(3), 16), m.group(4))
         for m in re.finditer(r'^  (KM_\w+) +(0x[0-9a-f]+) 0x[0-9a-f]+ (0x[0-9a-f]+) +(\S+)$', kk2, re.M)}
check('kmap_atomic_slots_in_use', len(v2) == 2 and
      slots.get('KM_USER0', (0, -1))[:2] == (0xffffe000, v2[0]) and
      slots.get('KM_USER1', (0, -1))[:2] == (0xffffd000, v2[1]) and
      re.search(r'^  2 of 8 slots in use$', kk2, re.M), 'slots/pfns do not match the kernel')
check('kmap_atomic_caller_symbolized',
      all(slots.get(s, (0, 0, ''))[2].startswith('two_slots_copy+0x') for s in ('KM_USER0', 'KM_USER1')),
      'callers not two_slots_copy+off')
check('highmem_page_read_physically', 'highmem-read same True' in text,
      'QEMU physical read of a HighMem page differs from its kmap_atomic view')
check('page_directory_walk', 'pgdir-walk True' in text, 'kernel_pgdir walk of &log_buf[100] wrong')

# Stop 3: tasks.
s3, ps = sec('stop3'), sec('k-ps')
v3 = gdb_values(s3)
tasks = {m.group(4): (int(m.group(1)), m.group(2), m.group(5).strip())
         for m in re.finditer(r'^ +(\d+) (\S+) +(0x[0-9a-f]+) (\S+) +\S+ +\d+ (.*)$', ps, re.M)}
check('ps_lists_idle_task', tasks.get('idle', (None, ''))[:2] in ((0, 'R'), (0, 'R*')),
      'idle: %s' % (tasks.get('idle'),))
check('ps_lists_boot_task_running', tasks.get('kmain', (None, ''))[:2] == (1, 'R*'),
      'kmain: %s' % (tasks.get('kmain'),))
check('ps_events_worker_waits_on_its_queue',
      tasks.get('events', (0, '', ''))[1] in ('S', 'D') and
      tasks['events'][2] == 'system_wq->more_work', 'events: %s' % (tasks.get('events'),))
check('ps_sleeper_on_symbolized_queue', tasks.get('sigwait', (0, '', ''))[1:] == ('S', 'never_wq'),
      'sigwait: %s' % (tasks.get('sigwait'),))
m = re.search(r'^(\d+) tasks \(nr_tasks (\d+)\)', ps, re.M)
check('ps_count_matches_nr_tasks', m and v3 and int(m.group(1)) == int(m.group(2)) == v3[0] == len(tasks),
      'task count mismatch')

# k-mem: the three zones, page counts as in the boot log, free counts as the kernel's.
mem = sec('k-mem')
zones = {m.group(1): (int(m.group(2)), int(m.group(3)), m.group(4))
         for m in re.finditer(r'^(DMA|Normal|HighMem) +[0-9a-f]+-[0-9a-f]+ +(\d+) +(\d+) +([\d ]+?)(  \(MISMATCH.*)?$', mem, re.M)}
boot = {m.group(1): (int(m.group(2)), int(m.group(3)))
        for m in re.finditer(r'^zone (\w+) +pfn \S+: +(\d+) pages \(\d+ MiB\), +(\d+) free', serial, re.M)}
check('mem_three_zones', list(zones) == ['DMA', 'Normal', 'HighMem'], 'zones: %s' % list(zones))
check('mem_zone_pages_match_boot_log', boot and all(zones.get(z, (0,))[0] == boot[z][0] for z in boot),
      'boot %s vs %s' % (boot, zones))
blocks_ok = all(sum(int(n) << o for o, n in enumerate(zones[z][2].split())) == zones[z][1] for z in zones)
check('mem_free_matches_kernel_counters', zones and 'MISMATCH' not in mem and blocks_ok and
      len(v3) == 4 and [zones[z][1] for z in ('DMA', 'Normal', 'HighMem')] == v3[1:],
      'per-order sums or zones[].free_pages differ')
check('mem_free_plausible_against_boot_log', boot and all(
      boot[z][1] * 0.95 <= zones[z][1] <= boot[z][1] for z in boot), 'free %s vs boot %s' % (zones, boot))
caches = re.findall(r'^(\S+) +\d+ +\d+ +\d+ +\d+ +\d+ +\d+ +\d+$', mem, re.M)
has_kiocb = b'kiocb_cache' in subprocess.run(['nm', kernel], capture_output=True).stdout
check('mem_lists_slab_caches', {'kmalloc-8', 'kmalloc-2048', 'kmem_cache'} <= set(caches) and
      (not has_kiocb or 'kiocb' in caches), 'caches: %s' % caches)

# k-aio: nothing to show yet, said cleanly.
aio = sec('k-aio')
check('aio_reports_no_contexts', re.search(r'^no AIO contexts', aio, re.M) and 'Traceback' not in aio,
      'k-aio: %r' % aio[:200])
user = sec('k-user')
check('user_symbols_command', re.search(r'^(user programs in |loaded symbols of )', user, re.M) and
      'does not exist' in user, 'k-user: %r' % user[:200])

# k-dmesg: the ring logic, the banner, the memory map, and every console line in order.
check('dmesg_wrap_logic', 'dmesg-wrap True True' in text, 'log_ring_text wrong')
dmesg = sec('k-dmesg').splitlines()
check('dmesg_banner_and_memory_map', dmesg and re.match(r'aiokern \S+ \(built .*\), i386 higher-half', dmesg[0])
      and any(l.startswith('memory map:') for l in dmesg) and
      [l for l in serial.splitlines() if l.startswith('  [mem ')] ==
      [l for l in dmesg if l.startswith('  [mem ')] != [], 'banner/memory map missing')
it = iter(dmesg)
console = serial.splitlines()
check('dmesg_holds_console_output_in_order', console and all(line in it for line in console),
      'a console line before the stop is missing from k-dmesg')
check('guest_runs_on_after_detach', qrc == 33, 'QEMU status %d' % qrc)

failed = sum(not ok for _, ok, _ in cases)
print('KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: gdb_helpers\n    1..%d' % len(cases))
for i, (name, ok, why) in enumerate(cases, 1):
    if not ok:
        print('    # %s: %s' % (name, why))
    print('    %s %d %s' % ('ok' if ok else 'not ok', i, name))
print('# gdb_helpers: pass:%d fail:%d skip:0 total:%d' % (len(cases) - failed, failed, len(cases)))
print('%s 1 gdb_helpers' % ('not ok' if failed else 'ok'))
sys.exit(1 if failed else 0)
PY
