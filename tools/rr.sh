#!/bin/sh
# rr.sh: boot the kernel under QEMU's deterministic record/replay (icount), its disks through blkreplay.
#
#   tools/rr.sh record DIR KERNEL INITRAMFS CMDLINE VD_IMG HD_IMG [QEMU ARGS...]
#   tools/rr.sh replay DIR [QEMU ARGS...]
#
# record copies the kernel, the initramfs, both disk images (sparse) and the gdb
# helpers' constants.py (from KERNEL's directory) into DIR,
# puts a qcow2 overlay on each copy and runs QEMU with -icount rr=record; the log
# of every non-deterministic event goes to DIR/rr.bin. replay boots the same
# machine from DIR with rr=replay: the guest runs the recorded instructions again,
# interrupts and disk completions land on the same instruction. The ARGS are added
# to QEMU's command line (a -serial, and for replay the gdbstub: -gdb tcp::PORT -S).
#
# Reverse debugging (reverse-continue, reverse-stepi, watchpoints backwards) needs
# a VM snapshot to go back to: rrsnapshot=init saves one when the run starts, into
# DIR/snap.qcow2 (the machine state) and into each disk overlay (the disk state);
# every reverse command loads it and replays forward from there. The overlays are
# why the disks are not snapshot=on: those temporary overlays would be gone (with
# the snapshot) at replay time. QEMU's vapic is turned off: with it, QEMU 7.2's
# snapshot load deadlocked in 3 of 4 reverse-continues here (the machine reset
# waits for the vCPU thread, which waits for the replay lock the reset holds).
# Needs QEMU and QEMU_FLAGS (the Makefile exports them); RR_SHIFT (5: one guest
# instruction = 2^5 ns of virtual time) must be the same for record and replay.
set -u
: "${QEMU:=qemu-system-i386}"
: "${QEMU_FLAGS:=-accel tcg -m 256M -display none -no-reboot -nic none -device isa-debug-exit,iobase=0xf4,iosize=0x04}"
: "${RR_SHIFT:=5}"

usage() {
	echo "usage: $0 record DIR KERNEL INITRAMFS CMDLINE VD_IMG HD_IMG [QEMU ARGS...]" >&2
	echo "       $0 replay DIR [QEMU ARGS...]" >&2
	exit 2
}

# rr_overlay DIR NAME: a fresh qcow2 overlay DIR/NAME.qcow2 on the raw DIR/NAME.img.
rr_overlay() {
	rm -f "$1/$2.qcow2"
	qemu-img create -q -f qcow2 -F raw -b "$(cd "$1" && pwd)/$2.img" "$1/$2.qcow2" ||
		{ echo "$0: qemu-img failed on $1/$2.img" >&2; exit 1; }
}

# rr_prepare DIR KERNEL INITRAMFS CMDLINE VD_IMG HD_IMG: fill DIR with what a replay needs.
rr_prepare() {
	dir=$1
	mkdir -p "$dir" && rm -f "$dir"/*.qcow2 "$dir/rr.bin" || exit 1
	for f in "$2" "$3" "$5" "$6"; do
		[ -f "$f" ] || { echo "$0: $f: no such file" >&2; exit 1; }
	done
	cp "$2" "$dir/kernel.elf" && cp "$3" "$dir/initramfs.cpio" &&
		cp --sparse=always "$5" "$dir/vd.img" && cp --sparse=always "$6" "$dir/hd.img" || exit 1
	printf '%s\n' "$4" > "$dir/cmdline"
	# The gdb helpers look next to the kernel for gdb/constants.py and user/bin (k-user).
	kdir=$(cd "$(dirname "$2")" && pwd)
	mkdir -p "$dir/gdb" && rm -f "$dir/user" && ln -s "$kdir/user" "$dir/user" &&
		{ [ ! -f "$kdir/gdb/constants.py" ] || cp "$kdir/gdb/constants.py" "$dir/gdb/"; } || exit 1
	echo "$RR_SHIFT" > "$dir/shift"
	qemu-img create -q -f qcow2 "$dir/snap.qcow2" 1M || exit 1
	rr_overlay "$dir" vd
	rr_overlay "$dir" hd
}

# rr_qemu MODE DIR ARGS...: QEMU on DIR's kernel and disks in record or replay mode.
rr_qemu() {
	mode=$1 dir=$2
	shift 2
	exec $QEMU $QEMU_FLAGS -global apic-common.vapic=off \
		-icount "shift=$(cat "$dir/shift"),rr=$mode,rrfile=$dir/rr.bin,rrsnapshot=init" \
		-drive "file=$dir/snap.qcow2,if=none,id=rr-snap" \
		-drive "file=$dir/vd.qcow2,if=none,id=rr-vd-img" \
		-drive "driver=blkreplay,if=none,image=rr-vd-img,id=rr-vd" \
		-device virtio-blk-pci,drive=rr-vd,queue-size=256 \
		-drive "file=$dir/hd.qcow2,if=none,id=rr-hd-img" \
		-drive "driver=blkreplay,if=none,image=rr-hd-img,id=rr-hd" \
		-device ide-hd,drive=rr-hd,bus=ide.0,unit=0 \
		-kernel "$dir/kernel.elf" -initrd "$dir/initramfs.cpio" -append "$(cat "$dir/cmdline")" "$@"
}

[ $# -ge 2 ] || usage
case $1 in
record)
	[ $# -ge 7 ] || usage
	dir=$2
	rr_prepare "$2" "$3" "$4" "$5" "$6" "$7"
	shift 7
	rr_qemu record "$dir" "$@"
	;;
replay)
	dir=$2
	[ -s "$dir/rr.bin" ] || { echo "$0: no recording in $dir (make record first)" >&2; exit 1; }
	shift 2
	rr_qemu replay "$dir" "$@"
	;;
*)
	usage
	;;
esac
