# tools/stress.mk: `make stress-smp`: the cross-CPU AIO stress (user/bin/stress_smp.c, the
# testplan entry stress_smp) repeated RUNS times in a row, seed n on run n, each boot judged by
# tools/ktest_runner.py (suites aio_stress_smp and leaks); included by the Makefile.
#
#   make stress-smp RUNS=20 [STRESS_OPS=200000]   ends with the runner's "N passed, M failed"
#                                                 and the wall time of the whole series

RUNS       ?= 20
STRESS_OPS ?= 200000
STRESS_PLAN = $(BUILD)/stress-smp.plan

# One plan line per run, its own seed; the disks are written through a snapshot (never
# changed), so every run starts from the same two blank images.
stress_smp_line = stress_smp_run$(1) | 180 | pass:33 | aio_stress_smp,leaks | \
	$$QEMU $$QEMU_FLAGS_SMP -serial stdio -kernel $$KERNEL -initrd $$INITRAMFS \
	-drive file=$$BUILD/disk-smp-vd.img,format=raw,if=none,id=d0,snapshot=on \
	-device virtio-blk-pci,drive=d0 \
	-drive file=$$BUILD/disk-smp-hd.img,format=raw,if=ide,index=0,snapshot=on \
	-append "lowmem=128M lockdep run=stress_smp:$(STRESS_OPS):$(1)"

.PHONY: stress-smp
stress-smp: $(KERNEL) $(INITRAMFS)
	$(Q)rm -f $(STRESS_PLAN) && truncate -s 16M $(BUILD)/disk-smp-vd.img $(BUILD)/disk-smp-hd.img
	$(Q)$(foreach r,$(shell seq 1 $(RUNS)),echo '$(call stress_smp_line,$(r))' >> $(STRESS_PLAN);)
	$(Q)start=$$(date +%s); $(PYTHON) tools/ktest_runner.py $(STRESS_PLAN); rc=$$?; \
	  grep -h "four_threads_share_one_context: [0-9]* ops" $(BUILD)/logs/stress_smp_run*.log | \
	    sed 's/^ *# four_threads_share_one_context: //'; \
	  echo "make stress-smp: $(RUNS) runs in $$(( $$(date +%s) - start )) s"; exit $$rc
