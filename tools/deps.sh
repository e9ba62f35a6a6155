#!/bin/sh
# deps.sh: check the host has what the build needs; install it with apt-get when we can.
PKGS="qemu-system-x86 qemu-user nasm grub-pc-bin grub-common xorriso mtools gcc-multilib gdb newlib-source python3 groff-base man-db e2fsprogs"
# make bench's pictures (tools/benchplot.py) and the bench_smoke test draw with Debian's matplotlib;
# make record and the replay test make qcow2 overlays with qemu-img (qemu-utils, only a
# Recommends of qemu-system-x86).
PKGS="$PKGS python3-matplotlib qemu-utils"

missing=""
need() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed" || missing="$missing $1"; }
for p in $PKGS; do need "$p"; done
[ -z "$missing" ] && exit 0

echo "deps: missing packages:$missing"
if [ "$(id -u)" = 0 ]; then SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"
else
	echo "deps: run this, then make again:"
	echo "    sudo apt-get update && sudo apt-get install -y$missing"
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq$missing >/dev/null || {
	echo "deps: apt-get failed; run: sudo apt-get install -y$missing"; exit 1; }
echo "deps: installed$missing"
