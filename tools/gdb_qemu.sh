# gdb_qemu.sh: sourced by gdb_check.sh and gdb_helpers_check.sh: QEMU halted with its gdbstub, gdb -batch attached to it.
#
# Needs QEMU, QEMU_FLAGS and KERNEL (GDBQ_CMD, when set, replaces "$QEMU
# $QEMU_FLAGS": tools/replay_check.sh starts tools/rr.sh). gdbq_start sets gdb_port and qpid,
# gdbq_gdb sets grc (gdb's status), gdbq_wait sets qrc (QEMU's status).
# Run from the top of the tree (gdb reads tools/gdb/gdbinit).

# gdbq_start SERIAL-FILE QEMU-ARGS...: start QEMU paused at reset in the
# background, the serial console in SERIAL-FILE; return once the stub listens
# (5 s at most).
gdbq_start() {
	gdbq_serial=$1
	shift
	gdb_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	${GDBQ_CMD:-$QEMU $QEMU_FLAGS} -serial file:"$gdbq_serial" -gdb tcp:127.0.0.1:$gdb_port -S "$@" &
	qpid=$!
	python3 - "$gdb_port" <<'PY'
import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.1).close()
        break
    except OSError:
        time.sleep(0.05)
PY
}

# gdbq_gdb OUT GDB-ARGS...: gdb -batch with the kernel's symbols and helpers,
# attached to the stub, then GDB-ARGS (-ex ...); all it prints goes to OUT.
gdbq_gdb() {
	gdbq_out=$1
	shift
	timeout 60 gdb -q -batch -nx -x tools/gdb/gdbinit -ex "file $KERNEL" \
		-ex "target remote 127.0.0.1:$gdb_port" "$@" >"$gdbq_out" 2>&1
	grc=$?
}

# gdbq_wait: wait for QEMU to exit (the test plan's timeout bounds a QEMU that
# never does).
gdbq_wait() {
	wait "$qpid"
	qrc=$?
}
