# Makefile: builds the kernel, its ISO, and runs it (make run / test / iso / debug / gdb).

BUILD     ?= build
QEMU      ?= qemu-system-i386
ACCEL     ?= tcg
MEM       ?= 256M
GDB_PORT  ?= 1234
RUN_CMDLINE := lowmem=128M run=aiodemo
CMDLINE   ?= $(RUN_CMDLINE)
DEMO_MB   ?= 32
V         ?= 0

ifeq ($(V),0)
Q := @
endif

CC      := gcc
LD      := ld
NASM    := nasm
OBJCOPY := objcopy
PYTHON  := python3

# Values asked of the installed tools are computed when a recipe first uses them, not
# when make reads this file: on a new machine tools/deps.sh (a prerequisite of every
# compile and link) installs gcc-multilib first. Recursive variables with a memo.
GCC_INCLUDE = $(eval GCC_INCLUDE := $(shell $(CC) -print-file-name=include))$(GCC_INCLUDE)
LIBGCC      = $(eval LIBGCC := $(shell $(CC) -m32 -print-libgcc-file-name))$(LIBGCC)

CFLAGS   = -m32 -march=i686 -std=gnu11 -O2 -g -ffreestanding -fno-pie \
	-fno-stack-protector -fno-asynchronous-unwind-tables -fno-omit-frame-pointer \
	-fno-strict-aliasing -mgeneral-regs-only -nostdinc \
	-isystem $(GCC_INCLUDE) -Iinclude \
	-Wall -Wextra -Werror -Wno-unused-parameter -MD -MP
NASMFLAGS := -f elf32 -g -F dwarf -Ikernel/
LDFLAGS := -m elf_i386 -nostdlib -T linker.ld --build-id=none -z noexecstack

# Two kernels, one source. $(KERNEL) ships (make run, the ISO); $(KTEST_KERNEL) adds
# the in-kernel suites and the test-only hooks (include/test_hooks.h). Every object is
# built twice: for the shipped kernel into $(BUILD)/, for the test kernel with
# -DCONFIG_KTEST into $(KTEST_BUILD)/. KTEST_SRC is linked into the test kernel only.
KTEST_BUILD := $(BUILD)/test
KTEST_SRC   := kernel/ktest.c kernel/crash.c kernel/test_hooks.c $(wildcard kernel/tests/*.c)

# Per-folder object lists: every other source in these folders is part of both kernels.
BOOT_SRC    := $(wildcard boot/*.asm)
KERNEL_SRC  := $(filter-out $(KTEST_SRC),$(wildcard kernel/*.c kernel/*.asm kernel/*/*.c kernel/*/*/*.c))
AIO_SRC     := $(wildcard aio/*.c)
DRIVERS_SRC := $(wildcard drivers/*.c)
SRC := $(BOOT_SRC) $(KERNEL_SRC) $(AIO_SRC) $(DRIVERS_SRC)
OBJ := $(patsubst %,$(BUILD)/%.o,$(basename $(SRC))) $(BUILD)/gen/syscall_table.o
KTEST_OBJ := $(patsubst %,$(KTEST_BUILD)/%.o,$(basename $(SRC) $(KTEST_SRC))) \
	$(KTEST_BUILD)/gen/syscall_table.o
KTEST_ONLY_OBJ := $(patsubst %,$(KTEST_BUILD)/%.o,$(basename $(KTEST_SRC)))

# Stamp of tools/deps.sh: every compile, link and generator waits for it.
DEPS_OK := $(BUILD)/.deps-ok

include user/user.mk

# The system-call table is generated from tools/syscalls.list (user/user.mk).
CFLAGS += -I$(BUILD)/gen
$(OBJ) $(KTEST_OBJ): | $(GEN_KERNEL)
$(BUILD)/gen/syscall_table.o: $(BUILD)/gen/syscall_table.c
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -c $< -o $@
$(KTEST_BUILD)/gen/syscall_table.o: $(BUILD)/gen/syscall_table.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -DCONFIG_KTEST -c $< -o $@

KERNEL := $(BUILD)/kernel.elf
KTEST_KERNEL := $(BUILD)/kernel-test.elf
GDB_CONSTANTS := $(BUILD)/gdb/constants.py
ISO    := $(BUILD)/aiokern.iso
TEST_ISO := $(BUILD)/test.iso
RUN_TEST_ISO := $(BUILD)/run-test.iso

QEMU_FLAGS := -accel $(ACCEL) -m $(MEM) -display none -no-reboot -nic none \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04
# SMP entries (tools/testplan): one host thread per vCPU (MTTCG) and 4 CPUs.
comma := ,
QEMU_FLAGS_SMP := $(subst -accel tcg ,-accel tcg$(comma)thread=multi ,$(QEMU_FLAGS)) -smp 4
export QEMU QEMU_FLAGS QEMU_FLAGS_SMP ACCEL BUILD KERNEL KTEST_KERNEL KTEST_ONLY_OBJ ISO TEST_ISO RUN_TEST_ISO GDB_PORT INITRAMFS

.PHONY: all kernel kernel-test iso run test test-build test-disks debug gdb clean deps FORCE
all: $(KERNEL) $(KTEST_KERNEL) $(GDB_CONSTANTS) $(ISO)
kernel: $(KERNEL) $(GDB_CONSTANTS)
kernel-test: $(KTEST_KERNEL) $(GDB_CONSTANTS)
iso: $(ISO)

deps: $(DEPS_OK)
$(DEPS_OK): tools/deps.sh
	$(Q)tools/deps.sh
	$(Q)mkdir -p $(@D) && touch $@

$(BUILD)/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(KTEST_BUILD)/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $< (test kernel)"
	$(Q)$(CC) $(CFLAGS) -DCONFIG_KTEST -c $< -o $@

# labels inside a routine (.x, macros' ..@n.x) are not functions
define nasm_recipe
	@mkdir -p $(@D)
	@echo "  NASM    $<"
	$(Q)$(NASM) $(NASMFLAGS) -MD $(@:.o=.d) -MP $< -o $@
	$(Q)$(OBJCOPY) --wildcard --strip-symbol='[A-Za-z_]*.*' --strip-symbol='..@*' $@
endef
$(BUILD)/%.o: %.asm | $(DEPS_OK)
	$(nasm_recipe)
$(KTEST_BUILD)/%.o: %.asm | $(DEPS_OK)
	$(nasm_recipe)

# Two-pass link: the symbol table for backtraces is generated from pass 1 and
# linked into .ksyms, after all code, so no function moves; tools/ksymsgen.py
# checks that. Every link writes a link map, a symbol list and a disassembly
# next to the ELF (kernel.map/.sym/.lst, kernel-test.map/.sym/.lst).
# $(call kernel_link,ELF,OBJDIR,OBJECTS) makes the rules of one kernel; OBJDIR/objects
# holds the object list, so that a source moved between the kernels relinks both.
define kernel_link
$(2)/objects: FORCE
	@mkdir -p $$(@D)
	$$(Q)echo '$(3)' | cmp -s - $$@ || echo '$(3)' > $$@

$(2)/ksyms0.c: tools/ksymsgen.py
	@mkdir -p $$(@D)
	$$(Q)$$(PYTHON) tools/ksymsgen.py --empty > $$@

$(2)/ksyms.o $(2)/ksyms0.o: $(2)/%.o: $(2)/%.c
	$$(Q)$$(CC) $$(CFLAGS) -c $$< -o $$@

$(2)/kernel.pass1.elf: $(3) $(2)/ksyms0.o $(2)/objects linker.ld
	$$(Q)$$(LD) $$(LDFLAGS) -o $$@ $(3) $(2)/ksyms0.o $$(LIBGCC)

$(2)/ksyms.c: $(2)/kernel.pass1.elf tools/ksymsgen.py
	$$(Q)nm -n $$< | $$(PYTHON) tools/ksymsgen.py > $$@

$(1): $(3) $(2)/ksyms.o $(2)/objects linker.ld
	@echo "  LD      $$@"
	$$(Q)$$(LD) $$(LDFLAGS) -Map $(basename $(1)).map -o $$@ $(3) $(2)/ksyms.o $$(LIBGCC)
	$$(Q)nm -n $(2)/kernel.pass1.elf | $$(PYTHON) tools/ksymsgen.py --check $$@
	$$(Q)nm -n $$@ > $(basename $(1)).sym
	$$(Q)objdump -d -S -M intel $$@ > $(basename $(1)).lst
	$$(Q)grub-file --is-x86-multiboot $$@ || { echo "$$@: not multiboot"; exit 1; }
endef
$(eval $(call kernel_link,$(KERNEL),$(BUILD),$(OBJ)))
$(eval $(call kernel_link,$(KTEST_KERNEL),$(KTEST_BUILD),$(KTEST_OBJ)))

# Constants for the gdb helpers, taken from the C headers so they cannot drift:
# constants.c is compiled to assembly only, with the kernel's flags.
$(BUILD)/gdb/constants.s: tools/gdb/constants.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -S $< -o $@

$(GDB_CONSTANTS): $(BUILD)/gdb/constants.s tools/gdb/gen_constants.py
	@echo "  GEN     $@"
	$(Q)$(PYTHON) tools/gdb/gen_constants.py $< > $@.tmp && mv $@.tmp $@

# ISO images: GRUB with the serial console, timeout 0. The kernel goes in without
# its DWARF: GRUB's multiboot loader reads every non-loaded ELF section from the CD
# into memory (for the symbol-table field of the boot information, which the kernel
# never reads), 1.1 MB of debug info at ~50 ms/MB under TCG; the loaded segments and
# .symtab stay, and gdb takes its symbols from $(KERNEL) anyway.
define make_iso
	@rm -rf $(2).dir && mkdir -p $(2).dir/boot/grub
	$(Q)strip --strip-debug -o $(2).dir/boot/kernel.elf $(1)
	$(Q)cp $(INITRAMFS) $(2).dir/boot/initramfs.cpio
	$(Q)tools/grubcfg.sh "$(3)" > $(2).dir/boot/grub/grub.cfg
	@echo "  ISO     $(2)"
	$(Q)grub-mkrescue -o $(2) $(2).dir > $(2).log 2>&1 || { cat $(2).log; exit 1; }
endef

# The ISO's grub.cfg carries CMDLINE: rebuild it when CMDLINE changes.
ISO_CMDLINE := $(BUILD)/aiokern.cmdline
$(ISO_CMDLINE): FORCE
	@mkdir -p $(@D)
	$(Q)echo '$(CMDLINE)' | cmp -s - $@ || echo '$(CMDLINE)' > $@

$(ISO): $(KERNEL) $(INITRAMFS) tools/grubcfg.sh $(ISO_CMDLINE)
	$(call make_iso,$(KERNEL),$@,$(CMDLINE))

# For make test: the test kernel's suite iso_boot checks what GRUB hands over; the
# shipped kernel boots from an ISO as make run's does (its default command line).
$(TEST_ISO): $(KTEST_KERNEL) $(INITRAMFS) tools/grubcfg.sh
	$(call make_iso,$(KTEST_KERNEL),$@,ktest=iso_boot lowmem=128M noinit)

$(RUN_TEST_ISO): $(KERNEL) $(INITRAMFS) tools/grubcfg.sh
	$(call make_iso,$(KERNEL),$@,$(RUN_CMDLINE))

# The demo's disks (a virtio disk and an IDE disk), made on first use and kept
# between runs; the demo writes a fresh pattern each time. The virtqueue size is
# pinned because aiodemo's cancel step counts on it (256 entries). A third, a
# small ext2 file system (mke2fs) on a second virtio disk (/dev/vdb), is for the
# demo's file step.
DEMO_VD := $(BUILD)/demo-virtio.img
DEMO_HD := $(BUILD)/demo-ide.img
DEMO_E2 := $(BUILD)/demo-ext2.img
DEMO_DRIVES := -drive file=$(DEMO_VD),format=raw,if=none,id=vd0 \
	-device virtio-blk-pci,drive=vd0,queue-size=256 \
	-drive file=$(DEMO_HD),format=raw,if=ide,index=0 \
	-drive file=$(DEMO_E2),format=raw,if=none,id=vd1 -device virtio-blk-pci,drive=vd1
$(DEMO_VD) $(DEMO_HD):
	@mkdir -p $(@D)
	$(Q)truncate -s $(DEMO_MB)M $@
$(DEMO_E2): $(DEPS_OK)
	@mkdir -p $(@D)
	$(Q)PATH=/usr/sbin:/sbin:$$PATH mke2fs -q -F -t ext2 $@ 16M

# make run: boot the ISO with the serial console here (init runs aiodemo); status 0
# when the kernel powers off cleanly (QEMU's isa-debug-exit turns its pass code into 33).
run: $(ISO) $(DEMO_VD) $(DEMO_HD) $(DEMO_E2)
	$(Q)$(QEMU) $(QEMU_FLAGS) -serial stdio -boot d -cdrom $(ISO) $(DEMO_DRIVES); rc=$$?; \
	  if [ $$rc -eq 33 ]; then exit 0; else echo "make run: QEMU exit status $$rc"; exit 1; fi

# Fresh sparse disk images for the block-driver entries of tools/testplan,
# recreated on every run (disk-ide48 is 130 GiB sparse: sectors past 2^28).
# The 64 MiB ones are for the user-level block suites (user/bin/test_blk.c).
TEST_DISKS_16M := disk-virtio disk-ide disk-pattern-vd disk-pattern-hd disk-fault-vd disk-fault-hd \
	disk-demo-vd disk-demo-hd disk-demo-pio-vd disk-demo-pio-hd disk-gdb-vd disk-gdb-hd \
	disk-aio-pattern-vd disk-aio-pattern-hd disk-aio-fault-vd disk-aio-fault-hd \
	disk-run-iso-vd disk-run-iso-hd disk-irq-vd disk-irq-hd disk-smp-vd disk-smp-hd
TEST_DISKS_64M := disk-user-vd disk-user-hd
# ext2 images (tools/ext2_image.py, e2fsprogs): 1, 2 and 4 KiB blocks for test_ext2, one for
# the mount= boot parameter, two empty ones for test_programs (4 and 1 KiB blocks), and the fuzz disk: EXT2_FUZZ_VARIANTS mutated 256 KiB images.
EXT2_FUZZ_VARIANTS ?= 400
test-disks: $(DEPS_OK)
	@mkdir -p $(BUILD)
	$(Q)cd $(BUILD) && rm -f disk-*.img && \
	  for d in $(TEST_DISKS_16M); do truncate -s 16M $$d.img || exit 1; done && \
	  for d in $(TEST_DISKS_64M); do truncate -s 64M $$d.img || exit 1; done && \
	  truncate -s 8M disk-virtio2.img && truncate -s 130G disk-ide48.img
	$(Q)for b in 1024 2048 4096; do \
	  $(PYTHON) tools/ext2_image.py make $(BUILD)/disk-ext2-$$b.img $$b 16 || exit 1; done
	$(Q)$(PYTHON) tools/ext2_image.py make $(BUILD)/disk-ext2-boot.img 1024 16
	$(Q)for d in disk-demo-e2 disk-run-iso-e2; do \
	  PATH=/usr/sbin:/sbin:$$PATH mke2fs -q -F -t ext2 $(BUILD)/$$d.img 16M || exit 1; done
	$(Q)PATH=/usr/sbin:/sbin:$$PATH mke2fs -q -F -t ext2 -b 4096 $(BUILD)/disk-progs.img 64M && \
	  PATH=/usr/sbin:/sbin:$$PATH mke2fs -q -F -t ext2 -b 1024 $(BUILD)/disk-progs-smp.img 64M
	$(Q)$(PYTHON) tools/ext2_image.py fuzz $(BUILD)/disk-ext2-fuzz.img $(EXT2_FUZZ_VARIANTS) 1

# make test builds both kernels, the user programs and the ISOs in parallel (one job
# per CPU) unless make was given -j already, then runs tools/testplan.
test-build: $(KERNEL) $(KTEST_KERNEL) $(GDB_CONSTANTS) $(TEST_ISO) $(RUN_TEST_ISO) $(INITRAMFS)

test: test-disks
	+$(Q)case " $(MAKEFLAGS) " in *" -j"*|*jobserver*) j= ;; *) j=-j$$(nproc) ;; esac; \
	  $(MAKE) --no-print-directory $$j test-build
	$(Q)$(PYTHON) tools/ktest_runner.py $(if $(K),-k $(K)) tools/testplan

# make debug / make gdb use the shipped kernel; DEBUG_KERNEL=$(KTEST_KERNEL) (with a
# CMDLINE such as "ktest=sched noinit") debugs the test kernel and its suites.
DEBUG_KERNEL ?= $(KERNEL)
debug: $(DEBUG_KERNEL) $(GDB_CONSTANTS) $(INITRAMFS)
	@echo "QEMU is paused with its gdbstub on port $(GDB_PORT)."
	@echo "In another terminal: make gdb   (or: gdb -x tools/gdb/gdbinit $(DEBUG_KERNEL))"
	$(Q)$(QEMU) $(QEMU_FLAGS) -serial stdio -gdb tcp::$(GDB_PORT) -S \
	  -kernel $(DEBUG_KERNEL) -initrd $(INITRAMFS) -append "$(CMDLINE)"

# The helpers (k-dmesg, k-ps, k-aio, k-kmap, k-mem, k-user) come from tools/gdb/aiokern.py;
# user programs' symbols are loaded on demand with k-user NAME (they all link at 0x08048000).
gdb: $(DEBUG_KERNEL) $(GDB_CONSTANTS)
	$(Q)gdb -q -x tools/gdb/gdbinit -ex 'target remote :$(GDB_PORT)' $(DEBUG_KERNEL)

# Record and replay (README "Record and replay"; tools/rr.sh): make record runs CMDLINE on
# the shipped kernel under QEMU's icount record mode, with copies of the demo's disks behind
# blkreplay; make replay replays it paused with the gdbstub on GDB_PORT, for make gdb
# (reverse-continue, reverse-stepi, watchpoints run backwards). RR_DIR holds the recording.
RR_DIR ?= $(BUILD)/rr
.PHONY: record replay
record: $(KERNEL) $(GDB_CONSTANTS) $(INITRAMFS) $(DEMO_VD) $(DEMO_HD)
	$(Q)tools/rr.sh record $(RR_DIR) $(KERNEL) $(INITRAMFS) '$(CMDLINE)' $(DEMO_VD) $(DEMO_HD) \
	  -serial stdio; rc=$$?; echo "make record: $(RR_DIR)/rr.bin, QEMU exit status $$rc"; [ $$rc -eq 33 ]

replay:
	@echo "QEMU replays $(RR_DIR), paused, gdbstub on port $(GDB_PORT)."
	@echo "In another terminal: make gdb DEBUG_KERNEL=$(RR_DIR)/kernel.elf"
	$(Q)tools/rr.sh replay $(RR_DIR) -serial stdio -gdb tcp::$(GDB_PORT) -S

include tools/bench.mk
include tools/fuzz.mk
include tools/trace.mk
include tools/stress.mk

clean:
	rm -rf $(BUILD)

-include $(OBJ:.o=.d) $(KTEST_OBJ:.o=.d) $(BUILD)/gdb/constants.d
