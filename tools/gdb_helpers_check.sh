#!/bin/sh
# gdb_helpers_check.sh: QEMU paused with its gdbstub boots the kernel suites highmem and waitqueue, then init runs the demo (aiodemo on a virtio and an IDE disk); gdb -batch stops in both and we assert what the k-* helpers print.
# Prints a KTAP suite "gdb_helpers"; exit status 0 when every case passed.
#
# Kernel-side stops, while the suites run: (1) kunmap, while a persistent kmap
# is in use; (2) kunmap_atomic of KM_USER1 in two_slots_copy, while KM_USER0
# and KM_USER1 are both mapped; (3) signal_wake_up in the waitqueue suite,
# while its "sigwait" thread sleeps on never_wq.
# Demo stops, in the io_submit entry point sys_io_submit: (4) its entry for the
# demo's vda cancel step (nr == 48: 48 x 256 KiB reads), the context set up and
# idle; (5) still in sys_io_submit, at its call of blk_finish_plug: the whole
# batch is with the driver and not one request on the device yet (the plug's one
# kick comes next), so all 48 are in flight whatever the host's speed. (A stop
# after the kick raced the device: a finish out of blk_finish_plug sometimes let
# the guest run some ms on a loaded host, and all 48 had completed by the stop.)
# The serial log is copied at
# stops 3 and 4 so that k-dmesg can be compared with what the console had
# printed by then. After detach the demo must finish and QEMU exit 33.
: "${QEMU:=qemu-system-i386}" "${BUILD:=build}" "${KTEST_KERNEL:=$BUILD/kernel-test.elf}"
KERNEL=$KTEST_KERNEL	# the suites highmem and waitqueue are in the test kernel
: "${INITRAMFS:=$BUILD/initramfs.cpio}"
: "${QEMU_FLAGS:=-accel tcg -display none -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04}"
logs=$BUILD/logs
out=$logs/gdb_helpers.session
serial=$logs/gdb_helpers.serial
snap3=$logs/gdb_helpers.serial-at-stop3
snap4=$logs/gdb_helpers.serial-at-stop4
vd=$BUILD/disk-gdb-vd.img
hd=$BUILD/disk-gdb-hd.img
mkdir -p "$logs"
rm -f "$out" "$serial" "$snap3" "$snap4" "$logs/gdb_helpers.serial-at-stop"
[ -f "$BUILD/gdb/constants.py" ] || { echo "$0: $BUILD/gdb/constants.py missing (make kernel)"; exit 1; }
[ -f "$INITRAMFS" ] && [ -x "$BUILD/user/bin/aiodemo" ] || { echo "$0: $INITRAMFS or $BUILD/user/bin/aiodemo missing (make user)"; exit 1; }
[ -f "$vd" ] || truncate -s 16M "$vd"	# make test-disks makes them fresh; the demo writes its own pattern
[ -f "$hd" ] || truncate -s 16M "$hd"
. "$(dirname "$0")/gdb_qemu.sh"

# -m 256M with lowmem=128M: a HighMem zone for the kmap stops. QEMU_FLAGS may
# carry its own -m; the last one wins. The disks are the demo entry's (queue-size
# 256: the demo's cancel step counts on it).
gdbq_start "$serial" -m 256M -kernel "$KERNEL" -initrd "$INITRAMFS" \
	-drive file="$vd",format=raw,if=none,id=d0 -device virtio-blk-pci,drive=d0,queue-size=256 \
	-drive file="$hd",format=raw,if=ide,index=0 \
	-append "ktest=highmem,waitqueue lowmem=128M run=aiodemo"
gdbq_gdb "$out" \
	-ex 'break kunmap' -ex 'continue' \
	-ex 'echo @@ stop1\n' -ex 'p/x page - mem_map' -ex 'echo @@ k-kmap\n' -ex 'k-kmap' -ex 'delete' \
	-ex 'break kunmap_atomic if type == KM_USER1 && kmap_atomic_slots[KM_USER0].page != 0' \
	-ex 'continue' \
	-ex 'echo @@ stop2\n' -ex 'p/x kmap_atomic_slots[KM_USER0].page - mem_map' \
	-ex 'p/x kmap_atomic_slots[KM_USER1].page - mem_map' \
	-ex 'echo @@ k-kmap\n' -ex 'k-kmap' \
	-ex 'echo @@ highmem-read\n' \
	-ex 'python pfn = page_pfn(gdb.parse_and_eval("kmap_atomic_slots[KM_USER0].page")); q = phys_read_qemu(pfn << 12, 64); k = read_bytes(0xffffd000, 64); print("highmem-read", "same" if q == k else "DIFFERENT", q is not None)' \
	-ex 'python print("pgdir-walk", pgdir_to_phys(ptr(gdb.parse_and_eval("kernel_pgdir")), int(gdb.parse_and_eval("&log_buf[100]"))) == int(gdb.parse_and_eval("&log_buf[100]")) - consts().KERNEL_BASE)' \
	-ex 'delete' \
	-ex 'break signal_wake_up' -ex 'continue' \
	-ex "shell cp $serial $snap3" \
	-ex 'echo @@ stop3\n' -ex 'p nr_tasks' \
	-ex 'p zones[0].free_pages' -ex 'p zones[1].free_pages' -ex 'p zones[2].free_pages' \
	-ex 'echo @@ k-ps\n' -ex 'k-ps' \
	-ex 'echo @@ k-mem\n' -ex 'k-mem' \
	-ex 'echo @@ k-aio\n' -ex 'k-aio' \
	-ex 'echo @@ k-user\n' -ex 'k-user' -ex 'k-user no_such_program' \
	-ex 'echo @@ dmesg-wrap\n' \
	-ex 'python print("dmesg-wrap", log_ring_text(b"89ab4567", 12, 8) == b"4567" + b"89ab", log_ring_text(b"abc\0\0\0\0\0", 3, 8) == b"abc")' \
	-ex 'echo @@ k-dmesg\n' -ex 'k-dmesg' \
	-ex 'delete' \
	-ex 'break sys_io_submit if nr == 48' -ex 'continue' \
	-ex "shell cp $serial $snap4" \
	-ex 'echo @@ stop4\n' -ex 'p/x id' -ex 'p nr' -ex 'p iocbpp[0]->aio_fildes' \
	-ex 'p nr_tasks' -ex 'p zones[0].free_pages' -ex 'p zones[1].free_pages' -ex 'p zones[2].free_pages' \
	-ex 'echo @@ s4-bt\n' -ex 'bt' \
	-ex 'echo @@ s4-k-ps\n' -ex 'k-ps' \
	-ex 'echo @@ s4-k-aio\n' -ex 'k-aio' \
	-ex 'echo @@ s4-k-user\n' -ex 'k-user aiodemo' \
	-ex 'echo @@ s4-user-eip\n' -ex 'info symbol $user_eip' -ex 'info symbol *(unsigned *)($user_esp + 4)' \
	-ex 'echo @@ s4-user-bt\n' -ex 'bt' \
	-ex 'echo @@ s4-demo-vars\n' -ex "p/x 'aiodemo.c'::disks[0].ctx" -ex "p 'aiodemo.c'::disks[0].fd" \
	-ex "p 'aiodemo.c'::disks[0].cancel_len" -ex "p/x &'aiodemo.c'::cbs" -ex "p/x &'aiodemo.c'::cbuf" \
	-ex 'p sizeof(struct iocb)' \
	-ex 'echo @@ s4-k-dmesg\n' -ex 'k-dmesg' \
	-ex 'echo @@ s4-k-mem\n' -ex 'k-mem' \
	-ex 'echo @@ s4-k-kmap\n' -ex 'k-kmap' \
	-ex 'delete' \
	-ex 'tbreak blk_finish_plug' -ex 'continue' -ex 'up' \
	-ex 'echo @@ stop5\n' -ex 'python print("frame", gdb.newest_frame().name(), gdb.selected_frame().name(), gdb.selected_frame().find_sal().line)' \
	-ex 'echo @@ s5-k-aio\n' -ex 'k-aio' \
	-ex 'echo @@ s5-k-ps\n' -ex 'k-ps' \
	-ex 'echo @@ s5-k-mem\n' -ex 'k-mem' \
	-ex 'echo @@ end\n' \
	-ex 'delete' -ex 'detach'
gdbq_wait
# The session holds the kernel log (k-dmesg) with its KTAP lines: quote it so
# that the runner does not read them as this suite's.
sed 's/^/| /' "$out"

python3 - "$out" "$snap3" "$snap4" "$serial" "$grc" "$qrc" "$KERNEL" <<'PY'
import re, subprocess, sys

out, snap3, snap4, serial_all, grc, qrc, kernel = sys.argv[1:8]
grc, qrc = int(grc), int(qrc)
text = open(out, errors='replace').read()


def read(path):
    try:
        return open(path, errors='replace').read()
    except OSError:
        return ''


serial, serial4, serial_end = read(snap3), read(snap4), read(serial_all)
sections = {}
for m in re.finditer(r'^@@ (\S+)\n(.*?)(?=^@@ |\Z)', text, re.M | re.S):
    sections.setdefault(m.group(1), []).append(m.group(2))
sec = lambda name, i=0: sections.get(name, [''] * (i + 1))[i] if len(sections.get(name, [])) > i else ''
cases = []


def check(name, cond, why=''):
    cases.append((name, bool(cond), '' if cond else why))


def gdb_values(block):
    return [int(v, 0) for v in re.findall(r'^\$\d+ = (?:\([^)]*\) )?(0x[0-9a-f]+|-?\d+)', block, re.M)]


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
      slots.get('KM_USER0', (0, -1))[:2] == (0xffffd000, v2[0]) and
      slots.get('KM_USER1', (0, -1))[:2] == (0xffffc000, v2[1]) and
      re.search(r'^  2 of 8 slots in use$', kk2, re.M), 'slots/pfns do not match the kernel')
check('kmap_atomic_caller_symbolized',
      all(slots.get(s, (0, 0, ''))[2].startswith('two_slots_copy+0x') for s in ('KM_USER0', 'KM_USER1')),
      'callers not two_slots_copy+off')
check('highmem_page_read_physically', 'highmem-read same True' in text,
      'QEMU physical read of a HighMem page differs from its kmap_atomic view')
check('page_directory_walk', 'pgdir-walk True' in text, 'kernel_pgdir walk of &log_buf[100] wrong')

# Stop 3: tasks.
PS_ROW = re.compile(r'^ +(\d+) (\S+) +(0x[0-9a-f]+) (\S+) +(\S+) +\d+ (\S+) +(.*)$', re.M)


def ps_tasks(block):
    """{name: (pid, state, mm, wchan, wait)} of a k-ps listing."""
    return {m.group(4): (int(m.group(1)), m.group(2), m.group(5), m.group(6), m.group(7).strip())
            for m in PS_ROW.finditer(block)}


s3, ps = sec('stop3'), sec('k-ps')
v3 = gdb_values(s3)
tasks = ps_tasks(ps)
check('ps_lists_idle_task', tasks.get('idle', (None, ''))[:2] in ((0, 'R'), (0, 'R*')),
      'idle: %s' % (tasks.get('idle'),))
# Fixed pids (include/sched.h): idle 0, init 1, the boot task kmain 2.
check('ps_lists_boot_task_running', tasks.get('kmain', (None, ''))[:2] == (2, 'R*') and
      tasks['kmain'][3] == '-', 'kmain: %s' % (tasks.get('kmain'),))
check('ps_events_worker_waits_on_its_queue',
      tasks.get('events', (0, '', '', '', ''))[1] in ('S', 'D') and
      re.match(r'system_wq->cwq\[\d\]\.more_work$', tasks['events'][4]) is not None and
      tasks['events'][3].startswith('worker_thread+0x'),
      'events: %s' % (tasks.get('events'),))
check('ps_sleeper_on_symbolized_queue', tasks.get('sigwait', (0, '', '', '', ''))[1] == 'S' and
      tasks['sigwait'][4] == 'never_wq' and re.match(r'\w+\+0x', tasks['sigwait'][3]) and
      not re.match(r'(__)?schedule|kthread_entry', tasks['sigwait'][3]),
      'sigwait: %s' % (tasks.get('sigwait'),))
m = re.search(r'^(\d+) tasks \(nr_tasks (\d+)\)', ps, re.M)
check('ps_count_matches_nr_tasks', m and v3 and int(m.group(1)) == int(m.group(2)) == v3[0] == len(tasks),
      'task count mismatch')

# k-mem: the three zones, page counts as in the boot log, free counts as the kernel's.
ZONE_ROW = re.compile(r'^(DMA|Normal|HighMem) +[0-9a-f]+-[0-9a-f]+ +(\d+) +(\d+) +([\d ]+?)(  \(MISMATCH.*)?$', re.M)
CACHE_ROW = re.compile(r'^(\S+) +\d+ +\d+ +\d+ +(\d+) +\d+ +\d+ +\d+$', re.M)
boot = {m.group(1): (int(m.group(2)), int(m.group(3)))
        for m in re.finditer(r'^zone (\w+) +pfn \S+: +(\d+) pages \(\d+ MiB\), +(\d+) free', serial, re.M)}
has_kiocb = b'kiocb_cache' in subprocess.run(['nm', kernel], capture_output=True).stdout


def check_mem(prefix, mem, free_pages, plausible):
    zones = {m.group(1): (int(m.group(2)), int(m.group(3)), m.group(4)) for m in ZONE_ROW.finditer(mem)}
    check(prefix + 'mem_three_zones', list(zones) == ['DMA', 'Normal', 'HighMem'], 'zones: %s' % list(zones))
    check(prefix + 'mem_zone_pages_match_boot_log', boot and all(zones.get(z, (0,))[0] == boot[z][0] for z in boot),
          'boot %s vs %s' % (boot, zones))
    blocks_ok = all(sum(int(n) << o for o, n in enumerate(zones[z][2].split())) == zones[z][1] for z in zones)
    check(prefix + 'mem_free_matches_kernel_counters', zones and 'MISMATCH' not in mem and blocks_ok and
          [zones.get(z, (0, -1))[1] for z in ('DMA', 'Normal', 'HighMem')] == free_pages,
          'per-order sums or zones[].free_pages differ')
    if plausible:
        check(prefix + 'mem_free_plausible_against_boot_log', boot and all(
              boot[z][1] * 0.95 <= zones[z][1] <= boot[z][1] for z in boot), 'free %s vs boot %s' % (zones, boot))
    caches = dict(CACHE_ROW.findall(mem))
    check(prefix + 'mem_lists_slab_caches', {'kmalloc-8', 'kmalloc-2048', 'kmem_cache'} <= set(caches) and
          (not has_kiocb or 'kiocb' in caches), 'caches: %s' % sorted(caches))
    return {k: int(v) for k, v in caches.items()}


check_mem('', sec('k-mem'), v3[1:4], True)

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
BANNER = re.compile(r'aiokern \S+ \(built .*\), i386 higher-half')
check('dmesg_banner_and_memory_map', dmesg and BANNER.match(dmesg[0])
      and any(l.startswith('memory map:') for l in dmesg) and
      [l for l in serial.splitlines() if l.startswith('  [mem ')] ==
      [l for l in dmesg if l.startswith('  [mem ')] != [], 'banner/memory map missing')
it = iter(dmesg)
console = serial.splitlines()
check('dmesg_holds_console_output_in_order', console and all(line in it for line in console),
      'a console line before the stop is missing from k-dmesg')

# ---- The demo, stop 4: the entry of sys_io_submit for the vda cancel step.
s4 = sec('stop4')
v4 = gdb_values(s4)       # id, nr, iocbpp[0]->aio_fildes, nr_tasks, free pages of the 3 zones
setup = re.search(r'^aiodemo: vda setup +: /dev/vda, .*: a ring of (\d+) events mapped at (0x[0-9a-f]+)$',
                  serial4, re.M)
check('demo_stop_in_io_submit_entry',
      re.search(r'^Breakpoint \d+, sys_io_submit \(id=\d+, nr=48, iocbpp=0x[0-9a-f]+\) at aio/syscalls\.c:\d+',
                text, re.M) and len(v4) == 7 and v4[1] == 48, 'no stop at sys_io_submit with nr 48')
check('demo_stop_while_demo_in_cancel_step', setup and re.search(r'^aiodemo: vda deadline:', serial4, re.M)
      and not re.search(r'^aiodemo: vda cancel', serial4, re.M), 'serial at the stop: not the cancel step')
ctx_id = v4[0] if v4 else None
demo_fd = v4[2] if len(v4) > 2 else None
check('demo_context_id_as_printed', setup and ctx_id == int(setup.group(2), 16),
      'io_submit id %s vs the demo\'s %s' % (ctx_id, setup and setup.group(2)))

bt4 = sec('s4-bt')
check('bt_unwinds_through_the_trap_frame',
      re.search(r'^#\d+ +0x[0-9a-f]+ in sysenter_dispatch .*\n'
                r'#\d+ +0x[0-9a-f]+ in sysenter_entry \(\).*\n#\d+ +0x0804[0-9a-f]{4} in ', bt4, re.M),
      'bt does not reach the user stub through sysenter_entry and the vsyscall page')

# k-ps: the demo is the current task; init sleeps in wait4 (its loop, wait_child,
# which waitid shares) on child_exit_wait.
for prefix, block, pid_check in (('s4_', sec('s4-k-ps'), True), ('s5_', sec('s5-k-ps'), False)):
    t4 = ps_tasks(block)
    demo = t4.get('aiodemo', (0, '', '', '', ''))
    init = t4.get('init', (0, '', '', '', ''))
    check(prefix + 'ps_demo_is_current', demo[1] == 'R*' and demo[2] == 'user' and demo[3] == '-' and
          sum(t[1].endswith('*') for t in t4.values()) == 1, 'aiodemo: %s' % (demo,))
    check(prefix + 'ps_init_sleeps_in_wait4', init[1] == 'S' and init[2] == 'user' and
          re.match(r'(sys_wait(4|pid)|wait_child)\S*\+0x', init[3]) and init[4] == 'child_exit_wait' and
          init[0] == 1 and demo[0] > 2, 'init: %s' % (init,))
    if pid_check:
        m = re.search(r'^(\d+) tasks \(nr_tasks (\d+)\)', block, re.M)
        check(prefix + 'ps_count_matches_nr_tasks', m and len(v4) > 3 and
              int(m.group(1)) == int(m.group(2)) == v4[3] == len(t4) and
              {'idle', 'kmain', 'events', 'init', 'aiodemo'} <= set(t4), 'tasks: %s' % sorted(t4))

# k-aio at the entry: the demo's context, idle (every earlier request completed).
CTX = re.compile(r'^pid (\d+) aiodemo: mm 0x[0-9a-f]+, 1 AIO context\n'
                 r' ctx (0x[0-9a-f]+) \(kioctx 0x[0-9a-f]+\): max_reqs (\d+) reqs_active (\d+) users \d+\n'
                 r'  ring: \d+ pages at user (0x[0-9a-f]+), nr (\d+), trusted tail (\d+)\n'
                 r'  ring header \([^)]*\): id (0x[0-9a-f]+) nr (\d+) head (\d+) tail (\d+) magic (\S+) ', re.M)


def ctx_of(block):
    m = CTX.search(block)
    if not m:
        return None
    g = m.groups()
    return {'pid': int(g[0]), 'id': int(g[1], 16), 'max_reqs': int(g[2]), 'active': int(g[3]),
            'user_base': int(g[4], 16), 'nr': int(g[5]), 'ktail': int(g[6]), 'hid': int(g[7], 16),
            'hnr': int(g[8]), 'head': int(g[9]), 'tail': int(g[10]), 'magic': g[11]}


a4, a5 = sec('s4-k-aio'), sec('s5-k-aio')
c4, c5 = ctx_of(a4), ctx_of(a5)
# The demo reaped every event before this step: at the entry the ring is empty;
# at stop 5 (before the kick) all 48 are active and the ring is still empty.
for prefix, c, total in (('s4_', c4, 0), ('s5_', c5, 48)):
    check(prefix + 'aio_demo_context', c and setup and c['id'] == c['user_base'] == c['hid'] == ctx_id and
          c['nr'] == c['hnr'] == int(setup.group(1)) and c['magic'] == 'ok' and c['max_reqs'] >= 48 and
          c['tail'] == c['ktail'] and (c['tail'] - c['head']) % c['nr'] + c['active'] == total,
          'context %s; the demo printed %s' % (c, setup and setup.groups()))
check('s4_aio_no_request_in_flight_at_entry', c4 and c4['active'] == 0 and
      re.search(r'^  no active requests$', a4, re.M), 'k-aio at the entry: %r' % a4[:300])
check('aio_init_has_no_context', re.search(r'^pid \d+ init: mm 0x[0-9a-f]+, 0 AIO contexts$', a4, re.M),
      'init\'s line missing')

# k-user: the demo's symbols, its user frame in __sys_io_submit, the stack to main.
ku = sec('s4-k-user')
check('user_symbols_loaded', re.search(r'^loaded symbols of \S+/user/bin/aiodemo$', ku, re.M), 'k-user: %r' % ku[:200])
check('user_frame_system_call', re.search(
      r'^pid \d+ aiodemo entered the kernel from user mode by system call 247 sys_io_submit; trap frame 0x[0-9a-f]+:$',
      ku, re.M), 'no system-call line')
frames = re.findall(r'^  #(\d+) +(0x[0-9a-f]+) in (\S+)(?: at (\S+):(\d+))?$', ku, re.M)
names = [f[2].split('+')[0] for f in frames]
check('user_stack_reaches_main', names[:2] == ['vsyscall', '__sys_io_submit'] and 'io_submit' in names and
      'step_cancel' in names and 'main' in names and
      names.index('io_submit') < names.index('step_cancel') < names.index('main') and
      any(f[2].startswith('step_cancel+') and f[3].endswith('aiodemo.c') for f in frames),
      'user stack: %s' % (frames,))
m = re.search(r'^  eip (0x[0-9a-f]+) esp', ku, re.M)
# The stub entered by the vsyscall page's SYSENTER trampoline: eip in the page,
# and above the ebp it pushed, the return address into __sys_io_submit.
check('user_eip_symbol', m and len(frames) > 1 and int(frames[0][1], 16) == int(m.group(1), 16) and
      frames[0][2] == 'vsyscall+0x7' and
      re.search(r'^No symbol matches \$user_eip', sec('s4-user-eip'), re.M) and
      re.search(r'^__sys_io_submit \+ \d+ in section \.text of \S+/aiodemo$', sec('s4-user-eip'), re.M),
      'info symbol $user_eip: %r' % sec('s4-user-eip')[:200])
check('bt_shows_user_function', re.search(r'^#\d+ +0x0804[0-9a-f]{4} in __sys_io_submit \(\)', sec('s4-user-bt'), re.M),
      'bt after k-user does not name the user function')
dv = gdb_values(sec('s4-demo-vars'))   # disks[0].ctx, .fd, .cancel_len, &cbs, &cbuf, sizeof(struct iocb)
check('demo_variables_agree', len(dv) == 6 and dv[0] == ctx_id and dv[1] == demo_fd,
      'demo ctx/fd %s vs io_submit\'s %s/%s' % (dv[:2], ctx_id, demo_fd))

# k-dmesg at the stop: the kernel's lines of the console so far, in order; the
# console lines it lacks are user space's (init's and the demo's own).
dm4 = sec('s4-k-dmesg').splitlines()
con4 = serial4.splitlines()
check('s4_dmesg_banner_disks_initramfs', dm4 and BANNER.match(dm4[0]) and all(
      any(l.startswith(p) for l in dm4) and any(l.startswith(p) for l in con4)
      for p in ('blk vda: ', 'blk hda: ', 'initramfs: ')), 'k-dmesg lacks the banner, blk or initramfs lines')
USER_LINE = re.compile(r'^(aiodemo: |# init: |\s*(KTAP version \d+|1\.\.\d+|# Subtest: \w+|(not )?ok \d+ \S+)$)')
j, foreign = 0, []
for line in con4:
    if j < len(dm4) and line == dm4[j]:
        j += 1
    elif not USER_LINE.match(line):
        foreign.append(line)
check('s4_dmesg_is_the_console_so_far', dm4 and j == len(dm4) and not foreign,
      'k-dmesg line %d of %d not on the console in order, or kernel lines missing: %s' % (j, len(dm4), foreign[:3]))
check('s4_dmesg_last_line_seen', dm4 and con4 and dm4[-1] in con4, 'last k-dmesg line not on the console')

caches4 = check_mem('s4_', sec('s4-k-mem'), v4[4:7], False)
kk4 = sec('s4-k-kmap')
check('s4_kmap_runs', re.search(r'^kmap_atomic slots \(8\):$', kk4, re.M) and
      re.search(r'^  \d of 8 slots in use$', kk4, re.M) and
      re.search(r'^persistent kmaps \(1024 entries at 0xff400000\): \d+ in use$', kk4, re.M),
      'k-kmap: %r' % kk4[:200])

# ---- Stop 5: sys_io_submit calling blk_finish_plug, the batch handed to the driver.
check('s5_stop_in_io_submit_after_the_batch', re.search(r'^frame blk_finish_plug sys_io_submit \d+$', sec('stop5'), re.M),
      'stop 5 not in sys_io_submit\'s call of blk_finish_plug: %r' % sec('stop5')[:200])
REQ = re.compile(r'^ +(\d+) (0x[0-9a-f]+) (\w+) +(\S+) +(0x[0-9a-f]+) +(\d+) (\S+) +(\S+) +(\S+) +(\S+) (\S+)$', re.M)
reqs = [m.groups() for m in REQ.finditer(a5)]
ok_rows, bad_rows = 0, []
if len(dv) == 6:
    ctx_fd, length, cbs, cbuf, iocb_size = dv[1], dv[2], dv[3], dv[4], dv[5]
    for key, iocb, op, fd, filp, users, flags, buf, nbytes, offset, cancel in reqs:
        k = (int(iocb, 16) - cbs) // iocb_size
        good = (op == 'PREAD' and fd == str(ctx_fd) and 0 <= k < 48 and int(iocb, 16) == cbs + k * iocb_size and
                int(buf, 16) == cbuf + k * length and int(nbytes) == length and int(offset) == k * length)
        ok_rows += good
        if not good:
            bad_rows.append(key)
check('s5_aio_requests_in_flight', c5 and c5['active'] == len(reqs) == 48 and
      len({r[1] for r in reqs}) == 48 and not bad_rows,
      'reqs_active %s, %d rows, rows not matching the demo\'s iocbs: %s' %
      (c5 and c5['active'], len(reqs), bad_rows[:5]))
last = dv[3] + 47 * dv[5] if len(dv) == 6 else None
check('s5_aio_last_request_queued', any(int(r[1], 16) == last for r in reqs),
      'the request the demo will cancel (&cbs[47]) is not in flight')
m5 = dict(CACHE_ROW.findall(sec('s5-k-mem')))
check('s5_mem_kiocbs_in_use', not has_kiocb or (c5 and int(m5.get('kiocb', -1)) >= c5['active'] >= 1),
      'kiocb objects in use %s vs %s active' % (m5.get('kiocb'), c5 and c5['active']))

check('demo_passes_after_detach', re.search(r'^aiodemo: PASS ', serial_end, re.M), 'the demo did not pass')
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
