# tools/fuzz.mk: the in-tree fuzzer: how /bin/fuzz is built, and `make fuzz`; included by the Makefile.
#
#   make fuzz SEED=n MINUTES=m   one boot (virtio + IDE disk) running /bin/fuzz with seed n for m
#                                minutes, judged by tools/ktest_runner.py (suites fuzz and leaks);
#                                on a failure it prints the seed and the command that reproduces it
#   FUZZ_OPTS=...                more fuzz options, ':'-separated: slots=N, life=MS,
#                                noexcl=NAME+...|all (lift exclusions of known defects; none is left)
#
# /bin/fuzz is user/bin/fuzz.c (the watchdog) linked with user/fuzz/*.c (the children); its
# view of the system-call table is generated from tools/syscalls.list by tools/fuzzgen.py.
# make test runs it too: the entry `fuzz` of tools/testplan (several short seeds).

SEED      ?= 1
MINUTES   ?= 1
FUZZ_OPTS ?=

FUZZ_CALLS := $(GEN)/user/fuzz_calls.h
FUZZ_OBJ   := $(patsubst user/%.c,$(USER_OUT)/%.o,$(wildcard user/fuzz/*.c))

$(FUZZ_CALLS): tools/syscalls.list tools/fuzzgen.py tools/gensyscalls.py | $(DEPS_OK)
	@echo "  GEN     $@"
	$(Q)$(PYTHON) tools/fuzzgen.py $@

$(FUZZ_OBJ) $(USER_OUT)/bin/fuzz.o: $(FUZZ_CALLS)

$(USER_OUT)/bin/fuzz: $(USER_OUT)/bin/fuzz.o $(FUZZ_OBJ) $(USER_CRT0) $(USER_LIBS) user/user.ld
	$(call user_link,$< $(FUZZ_OBJ))

.SECONDARY: $(FUZZ_OBJ)

# One boot, as long as asked; the plan entry is written for the runner (timeout: the run + 2 min).
FUZZ_LOG_NAME = fuzz-seed$(SEED)
FUZZ_PLAN     = $(BUILD)/fuzz.plan
FUZZ_SECONDS  = $(shell echo $$(( $(MINUTES) * 60 )))
FUZZ_DRIVES   = -drive file=$(BUILD)/fuzz-vd.img,format=raw,if=none,id=fz0 \
	-device virtio-blk-pci,drive=fz0 -drive file=$(BUILD)/fuzz-hd.img,format=raw,if=ide,index=0

.PHONY: fuzz
fuzz: $(KERNEL) $(INITRAMFS)
	$(Q)rm -f $(BUILD)/fuzz-vd.img $(BUILD)/fuzz-hd.img && \
	  truncate -s 16M $(BUILD)/fuzz-vd.img $(BUILD)/fuzz-hd.img
	$(Q)echo '$(FUZZ_LOG_NAME) | $(shell echo $$(( $(FUZZ_SECONDS) + 120 ))) | pass:33 | fuzz,leaks |' \
	  '$$QEMU $$QEMU_FLAGS -serial stdio -kernel $$KERNEL -initrd $$INITRAMFS $(FUZZ_DRIVES)' \
	  '-append "lowmem=128M run=fuzz:$(SEED):$(FUZZ_SECONDS)$(if $(FUZZ_OPTS),:$(FUZZ_OPTS))"' \
	  > $(FUZZ_PLAN)
	$(Q)$(PYTHON) tools/ktest_runner.py $(FUZZ_PLAN); rc=$$?; \
	  grep -h '^# fuzz: seed .* calls/s' $(BUILD)/logs/$(FUZZ_LOG_NAME).log; \
	  if [ $$rc -ne 0 ]; then \
	    echo "make fuzz: FAILED with SEED=$(SEED) (log: $(BUILD)/logs/$(FUZZ_LOG_NAME).log);" \
	      "reproduce with: make fuzz SEED=$(SEED) MINUTES=$(MINUTES)$(if $(FUZZ_OPTS), FUZZ_OPTS=$(FUZZ_OPTS))"; \
	    exit 1; fi
