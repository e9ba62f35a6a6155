# tools/bench.mk: `make bench` (aiokern) and `make bench-linux` (Debian's kernel), virtio and IDE disks; included by the Makefile.
#
#   make bench            bench on aiokern: BENCH_RUNS boots per disk, then the table
#   make bench-linux      the same runs on Debian's amd64 kernel, then one table with both
#   make bench-table      the table again from the logs in $(BENCH_OUT)
#   make bench-compare    both kernels, boot by boot in turn (aiokern, Linux, aiokern, ...):
#                         each pair sees the same host, which drifts by up to 2x in minutes
#   make boottime         only the boot time: BOOT_RUNS boots with -kernel and from the ISO
#   BENCH_QUICK=1         bench --quick (few ops, every metric still printed and verified)
#   make bench-smp        bench-compare at -smp 1, 2 and 4 (BENCH_SMP_LIST) on BENCH_SMP_DISKS
#                         (virtio ide ide_2ch),
#                         then the SMP table (tools/benchsmp.py: QD32 with 1/2/4 submitting
#                         threads, QD1, the null call and io_getevents' cost per CPU count)
#   BENCH_SMP=N           any target above with N CPUs for both kernels (logs: build/bench-smpN)
#   BENCH_DISKS=...       which disks (default: virtio ide virtio_null ide_null ext2); the *_null
#                         ones are QEMU's null-co (no disk work, no data): the limit QEMU sets;
#                         ext2 is a virtio disk holding an ext2 image (bench --ext2: file AIO,
#                         direct and buffered, and the raw device in the same boot), copied
#                         afresh from $(BENCH_EXT2_PRISTINE) before each boot
#   BENCH_WARM_ONLY=1     of the ext2 disk's phases, only the warm-cache buffered reads
#   BENCH_QD32_ONLY=1     only one thread's QD32, with the kernel's per-CPU counters per 1,000
#                         requests ("COUNT" lines: /proc/interrupts, /proc/aiok/cpustat, sched)
#   make bench-plot       the SVG pictures again from the logs (tools/benchplot.py)
#
# QEMU differs on purpose: aiokern is i386 (qemu-system-i386); Debian's kernel is amd64
# (qemu-system-x86_64), which runs the same static i386 bench through IA32 emulation.
# Memory, accelerator, disks and image are the same.  docs/benchmarks.md has the method.
# `make bench` also times the boot to init's first line (tools/boottime.py; issue 9's targets).

BENCH_SMP     ?= 1
# BENCH_SMP=N > 1: both kernels with N CPUs (one host thread per vCPU, MTTCG), logs apart.
bench_smp_on  := $(filter-out 1,$(BENCH_SMP))
BENCH_OUT     := $(BUILD)/bench$(if $(bench_smp_on),-smp$(BENCH_SMP))
BENCH_QEMU_FLAGS = $(if $(bench_smp_on),$(subst -smp 4,-smp $(BENCH_SMP),$(QEMU_FLAGS_SMP)),$(QEMU_FLAGS))
BENCH_IMG     ?= /dev/shm/aiokern-bench.img
BENCH_RUNS    ?= 3
BENCH_TIMEOUT ?= 300
BENCH_QUICK   ?=
BENCH_DISKS   ?= virtio ide virtio_null ide_null ext2
BENCH_EXT2_PRISTINE ?= /dev/shm/aiokern-bench-ext2.img
BENCH_EXT2_IMG      ?= /dev/shm/aiokern-bench-ext2-run.img
QEMU_LINUX    ?= qemu-system-x86_64
BENCH_CACHE   := $(or $(AIOK_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/aiokern)/linux
BENCH_LX      := $(BENCH_OUT)/linux

bench_comma := ,
bench_quick  = $(if $(BENCH_QUICK),$(bench_comma)--quick)

# How aiokern is told to run bench: init runs each run= item, "prog:arg:arg".
# $(1) device, $(2) disk label.
BENCH_AIOK_APPEND  = lowmem=128M run=bench:$(1):$(2)$(if $(BENCH_QUICK),:--quick)$(if \
	$(BENCH_NULL_$(2)),:--no-verify)$(if $(BENCH_AIOK_DEV2_$(2)),:--second=$(BENCH_AIOK_DEV2_$(2)))$(if \
	$(BENCH_EXT2_$(2)),:--ext2)$(if $(BENCH_WARM_ONLY),:--warm-only)$(if $(BENCH_QD32_ONLY),:--qd32-only)
# Debian's kernel hands bench=... to our /init (user/linux/init.c) as an environment variable.
BENCH_LINUX_APPEND = console=ttyS0 quiet panic=-1 bench=$(1),$(2)$(bench_quick)$(if \
	$(BENCH_NULL_$(2)),$(bench_comma)--no-verify)$(if \
	$(BENCH_LINUX_DEV2_$(2)),$(bench_comma)--second=$(BENCH_LINUX_DEV2_$(2)))$(if \
	$(BENCH_EXT2_$(2)),$(bench_comma)--ext2)$(if $(BENCH_WARM_ONLY),$(bench_comma)--warm-only)$(if \
	$(BENCH_QD32_ONLY),$(bench_comma)--qd32-only)

# The same disk on both kernels; the device name each kernel gives it.
BENCH_DISK_virtio  = -drive file=$(BENCH_IMG),format=raw,if=none,id=bd0 -device virtio-blk-pci,drive=bd0
BENCH_DISK_ide     = -drive file=$(BENCH_IMG),format=raw,if=ide,index=0
# QEMU's null-co driver: every request completes at once without touching data (reads
# return the buffer as it was: bench --no-verify), so these disks measure the kernel and
# QEMU's device model alone, the most either kernel could get from QEMU.
BENCH_NULL_DRIVE   = -drive driver=null-co,size=64M,if=none,id=bd0
BENCH_DISK_virtio_null = $(BENCH_NULL_DRIVE) -device virtio-blk-pci,drive=bd0
BENCH_DISK_ide_null    = $(BENCH_NULL_DRIVE) -device ide-hd,drive=bd0,bus=ide.0,unit=0
# Two IDE disks, the primary and the secondary channel's master (copies of the image):
# bench --second reads both at once (qd32_two_disks_iops) besides its usual rows on the first.
BENCH_IMG2         ?= $(BENCH_IMG:.img=-2.img)
BENCH_DISK_ide_2ch  = $(BENCH_DISK_ide) -drive file=$(BENCH_IMG2),format=raw,if=ide,index=2
BENCH_AIOK_DEV2_ide_2ch  := /dev/hdc
BENCH_LINUX_DEV2_ide_2ch := /dev/sdb
BENCH_AIOK_DEV_ide_2ch   := /dev/hda
BENCH_LINUX_DEV_ide_2ch  := /dev/sda
BENCH_NULL_virtio_null := 1
BENCH_NULL_ide_null    := 1
# The ext2 image on virtio (tools/mkbenchimg.py --ext2); each boot starts from the pristine copy.
BENCH_DISK_ext2    = -drive file=$(BENCH_EXT2_IMG),format=raw,if=none,id=bd0 -device virtio-blk-pci,drive=bd0
BENCH_EXT2_ext2   := 1
BENCH_PRE_ext2     = cp --sparse=always $(BENCH_EXT2_PRISTINE) $(BENCH_EXT2_IMG) &&
BENCH_AIOK_DEV_virtio  := /dev/vda
BENCH_AIOK_DEV_ide     := /dev/hda
BENCH_LINUX_DEV_virtio := /dev/vda
BENCH_LINUX_DEV_ide    := /dev/sda
BENCH_AIOK_DEV_virtio_null  := /dev/vda
BENCH_AIOK_DEV_ide_null     := /dev/hda
BENCH_LINUX_DEV_virtio_null := /dev/vda
BENCH_LINUX_DEV_ide_null    := /dev/sda
BENCH_AIOK_DEV_ext2         := /dev/vda
BENCH_LINUX_DEV_ext2        := /dev/vda

# $(1) disk label: the whole QEMU command line of one boot.
bench_aiok_cmd  = $(QEMU) $(BENCH_QEMU_FLAGS) -serial stdio -kernel $(KERNEL) -initrd $(INITRAMFS) \
	$(BENCH_DISK_$(1)) -append "$(call BENCH_AIOK_APPEND,$(BENCH_AIOK_DEV_$(1)),$(1))"
bench_linux_cmd = $(QEMU_LINUX) $(BENCH_QEMU_FLAGS) -serial stdio -kernel $(BENCH_LX)/vmlinuz \
	-initrd $(BENCH_LX)/initramfs.cpio \
	$(BENCH_DISK_$(1)) -append "$(call BENCH_LINUX_APPEND,$(BENCH_LINUX_DEV_$(1)),$(1))"

bench_run_list = $(shell seq 1 $(BENCH_RUNS))
# $(1) kernel (aiokern/linux), $(2) command function: every boot, one after another.
bench_boots = $(foreach d,$(BENCH_DISKS),$(foreach r,$(bench_run_list),\
	$(BENCH_PRE_$(d)) tools/benchboot.sh $(BENCH_TIMEOUT) $(BENCH_OUT)/$(1)-$(d)-$(r).log $(call $(2),$(d)) &&)) true

# Both kernels interleaved: for each run and disk, an aiokern boot then a Linux boot.
bench_pairs = $(foreach r,$(bench_run_list),$(foreach d,$(BENCH_DISKS),\
	$(BENCH_PRE_$(d)) tools/benchboot.sh $(BENCH_TIMEOUT) $(BENCH_OUT)/aiokern-$(d)-$(r).log $(call bench_aiok_cmd,$(d)) && \
	$(BENCH_PRE_$(d)) tools/benchboot.sh $(BENCH_TIMEOUT) $(BENCH_OUT)/linux-$(d)-$(r).log $(call bench_linux_cmd,$(d)) &&)) true

BENCH_TABLE = $(PYTHON) tools/benchtable.py --disks "$(BENCH_DISKS)" $(BENCH_OUT)
# The pictures (python3-matplotlib): QD1 latency CDF and histogram, IOPS against queue depth.
# Debian's python3 (/usr/bin) is the one that sees Debian's matplotlib, whatever python3
# comes first on PATH (a pyenv, a venv).
PLOT_PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
BENCH_PLOT  = $(PLOT_PYTHON) tools/benchplot.py --out $(BENCH_OUT)/plots $(BENCH_OUT)

# Boot time: -kernel with CMDLINE, and the ISO (whose grub.cfg carries CMDLINE); one RESULT
# line per boot and metric in $(BENCH_OUT)/aiokern-boot.log, serial logs in $(BENCH_OUT)/boot.
BOOT_RUNS ?= 5
BOOTTIME   = $(PYTHON) tools/boottime.py --runs $(BOOT_RUNS) --cmdline '$(CMDLINE)' \
	--out $(BENCH_OUT)/aiokern-boot.log --logdir $(BENCH_OUT)/boot

.PHONY: bench bench-linux bench-compare bench-smp bench-table bench-plot bench-img boottime
bench-img:
	$(Q)$(PYTHON) tools/mkbenchimg.py $(BENCH_IMG)
	$(Q)$(if $(filter ide_2ch,$(BENCH_DISKS) $(BENCH_SMP_DISKS)),cp $(BENCH_IMG) $(BENCH_IMG2))
	$(Q)$(if $(filter ext2,$(BENCH_DISKS)),$(PYTHON) tools/mkbenchimg.py --ext2 $(BENCH_EXT2_PRISTINE))

# The boot-time status is kept until the table has been printed.
bench: $(KERNEL) $(INITRAMFS) $(ISO) bench-img
	@mkdir -p $(BENCH_OUT) && rm -f $(BENCH_OUT)/aiokern-*.log
	$(Q)$(call bench_boots,aiokern,bench_aiok_cmd)
	$(Q)$(BOOTTIME); rc=$$?; $(BENCH_TABLE) --require aiokern; t=$$?; $(BENCH_PLOT) && \
	  [ $$t = 0 ] && exit $$rc

boottime: $(KERNEL) $(INITRAMFS) $(ISO)
	@mkdir -p $(BENCH_OUT)
	$(Q)$(BOOTTIME)

bench-linux: $(BENCH_LX)/initramfs.cpio bench-img
	@mkdir -p $(BENCH_OUT) && rm -f $(BENCH_OUT)/linux-*.log
	$(Q)$(call bench_boots,linux,bench_linux_cmd)
	$(Q)$(BENCH_TABLE) --require linux; t=$$?; $(BENCH_PLOT) && [ $$t = 0 ]

bench-compare: $(KERNEL) $(INITRAMFS) $(BENCH_LX)/initramfs.cpio bench-img
	@mkdir -p $(BENCH_OUT) && rm -f $(BENCH_OUT)/aiokern-*.log $(BENCH_OUT)/linux-*.log
	$(Q)$(bench_pairs)
	$(Q)$(BENCH_TABLE) --require aiokern --require linux --no-boot --paired; t=$$?; \
	  $(BENCH_PLOT) && [ $$t = 0 ]

bench-table:
	$(Q)$(BENCH_TABLE)

BENCH_SMP_LIST  ?= 1 2 4
BENCH_SMP_DISKS ?= virtio ide ide_2ch
bench-smp: $(KERNEL) $(INITRAMFS) $(BENCH_LX)/initramfs.cpio bench-img
	$(Q)$(foreach n,$(BENCH_SMP_LIST),$(MAKE) --no-print-directory bench-compare BENCH_SMP=$(n) \
	  BENCH_DISKS="$(BENCH_SMP_DISKS)" || exit 1;)
	$(Q)$(PYTHON) tools/benchsmp.py $(foreach n,$(BENCH_SMP_LIST),$(n):$(BUILD)/bench$(if $(filter-out 1,$(n)),-smp$(n)))

bench-plot:
	$(Q)$(BENCH_PLOT)

# bench and a small /init for Linux: the user toolchain, -DTARGET_LINUX (Linux's AIO numbers).
$(BENCH_LX)/bench.o: user/bin/bench.c $(GEN_USER) | $(USER_UAPI)
	@mkdir -p $(@D)
	@echo "  UCC     $< (Linux)"
	$(Q)$(USER_CC) $(USER_CFLAGS) -DTARGET_LINUX -c $< -o $@

$(BENCH_LX)/init.o: user/linux/init.c $(GEN_USER) | $(USER_UAPI)
	@mkdir -p $(@D)
	@echo "  UCC     $<"
	$(Q)$(USER_CC) $(USER_CFLAGS) -DTARGET_LINUX -c $< -o $@

$(BENCH_LX)/bench $(BENCH_LX)/init: %: %.o $(USER_INT80) $(USER_CRT0) $(USER_LIBS) $(USER_PTHREAD) \
		user/user.ld
	$(call user_link,$< $(USER_INT80))

$(BENCH_LX)/%.stripped: $(BENCH_LX)/%
	$(Q)tools/cross/i686-elf-strip --strip-debug -o $@ $<

# Debian's kernel (fetched once into $(BENCH_CACHE)) and its initramfs.
$(BENCH_LX)/initramfs.cpio: $(BENCH_LX)/init.stripped $(BENCH_LX)/bench.stripped tools/linuxkernel.py
	$(Q)$(PYTHON) tools/linuxkernel.py --cache $(BENCH_CACHE) --out $(BENCH_LX) \
	  --init $(BENCH_LX)/init.stripped --bench $(BENCH_LX)/bench.stripped

-include $(wildcard $(BENCH_LX)/*.d)
