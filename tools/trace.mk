# tools/trace.mk: make trace: boot the shipped kernel with tracing on and the demo's
# disks, run, and turn the records into build/trace.json (ui.perfetto.dev) and
# build/trace-summary.txt; included by the Makefile.
#
#   make trace                          the demo (run=aiodemo), every category
#   make trace CMDLINE="lowmem=128M run=test_aio"   another program
#   TRACE=aio,blk TRACE_BUF=1024        categories and KiB per CPU (trace=, trace_buf=)
#
# The records leave the guest through QEMU's isa-debugcon (port 0xe9) into
# build/trace.bin, apart from the serial console (build/trace-console.log). The trace is
# converted whatever the run's end; make fails when the kernel did not power off cleanly.

TRACE     ?= all
TRACE_BUF ?= 4096
TRACE_BIN := $(BUILD)/trace.bin
TRACE_QEMU = $(QEMU) $(QEMU_FLAGS) -serial file:$(BUILD)/trace-console.log \
	-chardev file,id=trace0,path=$(TRACE_BIN) -device isa-debugcon,iobase=0xe9,chardev=trace0 \
	-kernel $(KERNEL) -initrd $(INITRAMFS) $(DEMO_DRIVES)

.PHONY: trace
trace: $(KERNEL) $(INITRAMFS) $(DEMO_VD) $(DEMO_HD)
	$(Q)rm -f $(TRACE_BIN) $(BUILD)/trace.json $(BUILD)/trace-summary.txt
	@echo "  TRACE   $(CMDLINE) trace=$(TRACE) trace_buf=$(TRACE_BUF)"
	$(Q)timeout 300 $(TRACE_QEMU) -append "$(CMDLINE) trace=$(TRACE) trace_buf=$(TRACE_BUF)"; \
	  rc=$$?; $(PYTHON) tools/trace2json.py $(TRACE_BIN) -o $(BUILD)/trace.json \
	    -s $(BUILD)/trace-summary.txt || exit 1; \
	  echo "make trace: $(BUILD)/trace.json (open it in ui.perfetto.dev), $(BUILD)/trace-summary.txt"; \
	  [ $$rc -eq 33 ] || { echo "make trace: QEMU exit status $$rc (console: $(BUILD)/trace-console.log)"; exit 1; }
