#!/bin/sh
# grubcfg.sh: print a grub.cfg that boots the kernel at once with the serial console.
# Usage: grubcfg.sh "KERNEL COMMAND LINE"
cat <<CFG
serial --unit=0 --speed=115200 --word=8 --parity=no --stop=1
terminal_input serial
terminal_output serial
set timeout=0
set default=0
menuentry "aiokern" {
	multiboot /boot/kernel.elf $1
	module /boot/initramfs.cpio initramfs
	boot
}
CFG
