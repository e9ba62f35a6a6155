#!/bin/sh
# replay_check.sh: record the demo under QEMU's record/replay, replay it, and debug the replay backwards with gdb -batch, twice.
# Prints a KTAP suite "replay"; exit status 0 when every case passed.
#
# 1. tools/rr.sh record: the shipped kernel runs aiodemo (virtio + IDE disk);
#    the demo must pass. 2. A plain replay must print the same console, byte for
#    byte. 3. Two gdb sessions on replays (tools/rr.sh replay, gdbstub, -S):
#    stop in aio_complete at the 5th completion of a context request (the demo's
#    first vda batch: 32 writes); a watchpoint on the context's trusted ring tail,
#    run backwards, must stop where the completion before it posted its event
#    (aio_ring_post_one, called by aio_ring_post);
#    reverse-continue with a breakpoint in sys_io_submit on "this batch holds the
#    request's user iocb" must stop at that batch's submit, earlier, where k-aio
#    shows the context idle and the iocb holds what the completion reported;
#    reverse-stepi goes back one instruction; continue forward stops in the same
#    aio_complete at the same instruction count. k-rr prints the position at each
#    stop. Both sessions must print the same, line for line.
: "${QEMU:=qemu-system-i386}" "${BUILD:=build}" "${KERNEL:=$BUILD/kernel.elf}"
: "${INITRAMFS:=$BUILD/initramfs.cpio}"
: "${QEMU_FLAGS:=-accel tcg -m 256M -display none -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04}"
export QEMU QEMU_FLAGS
logs=$BUILD/logs
dir=$BUILD/rr-test
mkdir -p "$logs" "$dir"
rm -f "$logs"/replay.*
[ -f "$BUILD/gdb/constants.py" ] && [ -f "$INITRAMFS" ] ||
	{ echo "$0: $BUILD/gdb/constants.py or $INITRAMFS missing (make kernel user)"; exit 1; }
truncate -s 0 "$dir/vd-src.img" "$dir/hd-src.img" && truncate -s 16M "$dir/vd-src.img" "$dir/hd-src.img"

timeout 60 tools/rr.sh record "$dir" "$KERNEL" "$INITRAMFS" "lowmem=128M run=aiodemo" \
	"$dir/vd-src.img" "$dir/hd-src.img" -serial "file:$logs/replay.record.serial"
rec_rc=$?
timeout 60 tools/rr.sh replay "$dir" -serial "file:$logs/replay.replay.serial"
rep_rc=$?

. "$(dirname "$0")/gdb_qemu.sh"
GDBQ_CMD="tools/rr.sh replay $dir"
KERNEL=$dir/kernel.elf	# the recorded kernel (a copy of $KERNEL)

# session N: one gdb session on a fresh replay; its output in $logs/replay.session.N.
session() {
	gdbq_start "$logs/replay.serial.$1"
	gdbq_gdb "$logs/replay.session.$1" \
		-ex 'break aio_complete if req->ki_ctx != 0' -ex 'ignore 1 4' -ex 'continue' \
		-ex 'echo @@ complete\n' -ex 'k-rr' -ex 'p/x req->ki_user_obj' -ex 'p req->ki_key' \
		-ex 'p res' -ex 'p req->ki_user_data' -ex 'k-aio' \
		-ex 'set $obj = req->ki_user_obj' -ex 'set $key = req->ki_key' \
		-ex 'set $ctx = req->ki_ctx' -ex 'delete' \
		-ex 'echo @@ watch\n' -ex 'watch -l $ctx->ring.tail' -ex 'reverse-continue' \
		-ex 'bt 2' -ex 'k-rr' -ex 'delete' \
		-ex 'echo @@ submit\n' -ex 'break sys_io_submit if $k_batch_has(iocbpp, nr, $obj)' \
		-ex 'reverse-continue' -ex 'k-rr' -ex 'bt 2' -ex 'p nr' \
		-ex 'p $k_batch_has(iocbpp, nr, $obj)' -ex 'p ((struct iocb *)$obj)->aio_nbytes' \
		-ex 'p ((struct iocb *)$obj)->aio_data' -ex 'k-aio' -ex 'k-ps' \
		-ex 'echo @@ stepi\n' -ex 'reverse-stepi' -ex 'k-rr' -ex 'delete' \
		-ex 'echo @@ forward\n' -ex 'break aio_complete if req->ki_user_obj == $obj' \
		-ex 'continue' -ex 'k-rr' -ex 'p req->ki_key' -ex 'echo @@ end\n' -ex 'kill'
	eval "grc$1=\$grc"
	gdbq_wait
}
session 1
session 2
sed 's/^/| /' "$logs/replay.session.1"

python3 - "$logs" "$rec_rc" "$rep_rc" "$grc1" "$grc2" <<'PY'
import re, sys

logs, rec_rc, rep_rc, grc1, grc2 = sys.argv[1], *map(int, sys.argv[2:6])


def read(name):
    try:
        return open(f"{logs}/{name}", errors="replace").read()
    except OSError:
        return ""


rec, rep = read("replay.record.serial"), read("replay.replay.serial")
s1, s2 = read("replay.session.1"), read("replay.session.2")
sec = {m.group(1): m.group(2) for m in re.finditer(r"^@@ (\S+)\n(.*?)(?=^@@ |\Z)", s1, re.M | re.S)}
get = lambda name: sec.get(name, "")


def icount(text):
    m = re.search(r"instruction count = (\d+)", text)
    return int(m.group(1)) if m else None


def value(text, n):
    """The value of gdb's n-th '$k = v' line in text (counting from 0), or None."""
    vals = re.findall(r"^\$\d+ = (.*)$", text, re.M)
    return vals[n] if len(vals) > n else None


cases = []
def check(name, ok):
    cases.append((name, bool(ok)))


done, watch, submit, stepi, fwd = (get(k) for k in ("complete", "watch", "submit", "stepi", "forward"))
a, w, s, b, f = (icount(t) for t in (done, watch, submit, stepi, fwd))
obj, key, res, data = (value(done, i) for i in range(4))
check("record_demo_passed", rec_rc == 33 and "aiodemo: PASS" in rec)
check("replay_console_same_as_record", rep_rc == 33 and rep == rec)
check("gdb_sessions_exit_cleanly", grc1 == 0 and grc2 == 0 and "Python Exception" not in s1)
check("stop_in_aio_complete", re.search(r"^Breakpoint 1, aio_complete \(req=0x", s1, re.M)
      and a and obj and key is not None)
# k-aio at the completion: the request is still active, with its key and user iocb.
check("k_aio_shows_request_at_completion", obj and re.search(
    r"^ +%s 0x%08x PWRITE" % (key, int(obj, 16)), done, re.M)
      and re.search(r"reqs_active [1-9]", done))
check("watchpoint_backwards_stops_in_aio_ring_post",
      re.search(r"^#0 +aio_ring_post(_one)? \(", watch, re.M) and w and a and w < a)
check("reverse_continue_stops_in_sys_io_submit",
      re.search(r"^Breakpoint \d+, sys_io_submit \(", submit, re.M) and s and w and s < w
      and re.search(r"^#1 .* in syscall_dispatch ", submit, re.M))
nr, pos, nbytes, udata = (value(submit, i) for i in range(4))
check("submit_batch_holds_the_request", nr and pos and int(pos) >= 1 and int(pos) <= int(nr)
      and nbytes == res and udata == data)
check("k_aio_shows_idle_context_at_submit", re.search(r"reqs_active 0 ", submit)
      and "no active requests" in submit and "trusted tail 0" in submit)
check("k_ps_shows_aiodemo_running_at_submit", re.search(r"^ +\d+ R\* +0x[0-9a-f]+ aiodemo ", submit, re.M))
check("reverse_stepi_goes_back_one_instruction", b is not None and s is not None and b == s - 1)
check("forward_reaches_the_same_completion", f is not None and f == a and value(fwd, 0) == key)
check("two_replays_print_the_same", s1 and s1 == s2)

print("KTAP version 1")
print("1..1")
print("    KTAP version 1")
print("    # Subtest: replay")
print(f"    1..{len(cases)}")
for i, (name, ok) in enumerate(cases, 1):
    print(f"    {'ok' if ok else 'not ok'} {i} {name}")
failed = sum(1 for _, ok in cases if not ok)
print(f"# replay: pass:{len(cases) - failed} fail:{failed} skip:0 total:{len(cases)}")
print("ok 1 replay" if not failed else "not ok 1 replay")
sys.exit(1 if failed else 0)
PY
