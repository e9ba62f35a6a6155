# user/user.mk: the user-space build (newlib glue, libaio, POSIX aio, programs, initramfs), included by the Makefile.
#
# Only the targets below need newlib: `make kernel` never runs tools/newlib.sh.
#   make user                  libraries, $(BUILD)/user/bin/*, $(BUILD)/initramfs.cpio
#   make user-tests            host-side test programs in $(BUILD)/user/test/ (qemu-i386)
#   make syscalls-gen          $(BUILD)/gen/syscall_table.{h,c} for the kernel, user stubs

USER_CC     := tools/cross/i686-elf-gcc
USER_AR     := tools/cross/i686-elf-ar
USER_OUT    := $(BUILD)/user
GEN         := $(BUILD)/gen
USER_UAPI   := $(USER_OUT)/uapi-root/uapi

# newlib's sysroot, asked for once and only when a user recipe runs.
USER_SYSROOT = $(eval USER_SYSROOT := $(shell tools/newlib.sh --print-sysroot))$(or \
	$(USER_SYSROOT),$(error tools/newlib.sh --print-sysroot failed))

# newlib declares clock_gettime/nanosleep and CLOCK_MONOTONIC only when the system
# says it has them (rtems, cygwin); our glue provides them, so we say so.
USER_POSIX  := -D_POSIX_TIMERS=1 -D_POSIX_MONOTONIC_CLOCK=200112L -D_POSIX_CPUTIME=1 -D_POSIX_THREAD_CPUTIME=1 -D_POSIX_CLOCK_SELECTION=200112L
USER_CFLAGS = -std=gnu11 -g -O2 -Wall -Wextra -Werror -fno-omit-frame-pointer $(USER_POSIX) \
	-isystem $(USER_SYSROOT)/include -Iuser/include -I$(USER_OUT)/uapi-root -I$(GEN) \
	-I$(GEN)/user/include \
	-MD -MP
USER_LDFLAGS = -static -nostdlib -no-pie -Wl,-T,user/user.ld -Wl,-z,noexecstack \
	-Wl,--build-id=none

GEN_KERNEL  := $(GEN)/syscall_table.h $(GEN)/syscall_table.c
GEN_USER    := $(GEN)/user/syscalls.h $(GEN)/user/syscalls.S $(GEN)/user/syscalls_int80.S \
	$(GEN)/user/include/sys/syscall.h

USER_CRT0   := $(USER_OUT)/lib/crt0.o
USER_GLUE   := $(USER_OUT)/libc-glue.a
# Libraries a program names with -l, as on Linux: -laio, and -lrt for POSIX
# <aio.h> (glibc's old home of aio_read): -L$(USER_LIBDIR).
USER_LIBDIR := $(USER_OUT)/usr/lib
USER_LIBAIO := $(USER_LIBDIR)/libaio.a
USER_PAIO   := $(USER_LIBDIR)/librt.a
USER_UTEST  := $(USER_OUT)/libutest.a
USER_LIBS   := $(USER_PAIO) $(USER_LIBAIO) $(USER_GLUE) $(USER_UTEST)

GLUE_OBJ  := $(addprefix $(USER_OUT)/lib/,syscalls.o posix.o posix_fs.o posix_io.o posix_event.o posix_vfs.o posix_mm.o posix_sys.o timers.o pgrp.o err.o getopt.o dirent.o exec.o passwd.o \
	abi_kernel.o abi_xlate.o outf.o) \
	$(USER_OUT)/gen/syscalls.o
# Threads and signals in every program: thread 0's TLS and newlib's __getreent,
# the futex lock newlib's locks use, the signal glue (user/lib/pthread/tcb.h).
GLUE_OBJ  += $(addprefix $(USER_OUT)/lib/,pthread/tls.o pthread/syscall_cp.o pthread/futex.o pthread/lock.o \
	signal.o sigset.o sigreturn.o sigxsi.o spawn.o)
USER_PROGS := $(patsubst user/bin/%.c,$(USER_OUT)/bin/%,$(wildcard user/bin/*.c))
USER_TESTS := $(patsubst user/test/%.c,$(USER_OUT)/test/%,$(wildcard user/test/*.c))
# Programs that tools/ulib_check.sh also runs on the host's Linux (qemu-i386): int $0x80 builds.
USER_HOST_PROGS := $(USER_OUT)/host/hello $(USER_OUT)/host/init
# Programs that use threads (user/bin and user/test): linked with -lpthread; the
# user/bin ones run on the host too.
PTHREAD_PROGS := test_programs test_pthread test_signal test_thread test_futex test_posix_aio test_aio test_vm test_libaio stress_smp test_pipe test_epoll
PTHREAD_TESTS := ulib_pthread ulib_signal
USER_HOST_PROGS += $(PTHREAD_PROGS:%=$(USER_OUT)/host/%)
# Helpers linked into every host-side test (the mock kernel's AIO calls, ...).
TEST_LIB   := $(patsubst user/%.c,$(USER_OUT)/%.o,$(wildcard user/test/lib/*.c))
# The set of our headers: a new one may shadow newlib's (sys/fcntl.h), which no
# object's .d names yet, so every object is rebuilt when the set changes.
USER_HDRS  := $(sort $(wildcard user/include/*.h user/include/*/*.h))
USER_HDR_SET := $(USER_OUT)/headers.list
$(shell mkdir -p $(USER_OUT) && echo '$(USER_HDRS)' | cmp -s - $(USER_HDR_SET) || \
	echo '$(USER_HDRS)' > $(USER_HDR_SET))
# Made above before any wildcard reads $(USER_OUT): make caches a directory's
# listing at its first look, and a list made after that would not exist for
# the pattern rules (a fresh `make -j2 test-build` then compiled user objects
# with the kernel's rule). The empty rule says it can always be had.
$(USER_HDR_SET): ;
USER_DEPS  := $(wildcard $(USER_OUT)/*/*.d $(USER_OUT)/*/*/*.d)
INITRAMFS  := $(BUILD)/initramfs.cpio

.PHONY: user user-tests syscalls-gen
user: $(USER_PROGS) $(INITRAMFS)
user-tests: $(USER_TESTS) $(USER_HOST_PROGS)
syscalls-gen: $(GEN_KERNEL) $(GEN_USER)

$(GEN_KERNEL) $(GEN_USER) &: tools/syscalls.list tools/gensyscalls.py include/uapi/vsyscall.h | $(DEPS_OK)
	@echo "  GEN     $(GEN)/syscall_table.[ch] $(GEN)/user/syscalls.[hS]"
	$(Q)$(PYTHON) tools/gensyscalls.py $(GEN)
	$(Q)touch $(GEN_KERNEL) $(GEN_USER)

# User code includes "uapi/x.h" without seeing the kernel's other headers.
$(USER_UAPI):
	@mkdir -p $(@D)
	$(Q)ln -sfn $(abspath include/uapi) $@

$(USER_OUT)/%.o: user/%.c $(GEN_USER) $(USER_HDR_SET) | $(USER_UAPI) $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  UCC     $<"
	$(Q)$(USER_CC) $(USER_CFLAGS) -c $< -o $@

$(USER_OUT)/%.o: user/%.S | $(USER_UAPI) $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  UAS     $<"
	$(Q)$(USER_CC) $(USER_CFLAGS) -c $< -o $@

$(USER_OUT)/gen/%.o: $(GEN)/user/%.S
	@mkdir -p $(@D)
	$(Q)$(USER_CC) -c $< -o $@

# Binaries that run on Linux (host-side tests, the Linux bench) link these
# int $0x80 stubs ahead of libc-glue.a, whose vsyscall stubs are then not pulled in.
USER_INT80 := $(USER_OUT)/gen/syscalls_int80.o

$(USER_GLUE): $(GLUE_OBJ)
$(USER_LIBAIO): $(USER_OUT)/lib/libaio.o
$(USER_PAIO): $(USER_OUT)/lib/posix_aio.o $(USER_OUT)/lib/posix_timer.o
$(USER_UTEST): $(USER_OUT)/lib/utest.o $(USER_OUT)/lib/utest_helpers.o
$(USER_LIBS):
	@mkdir -p $(@D)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(USER_AR) rcs $@ $^

# libpthread.a (user/lib/pthread): programs link it as -lpthread, from $(USER_LIBDIR).
USER_PTHREAD := $(USER_LIBDIR)/libpthread.a
USER_LINK_PTHREAD := -lpthread
PTHREAD_OBJ := $(addprefix $(USER_OUT)/lib/pthread/,thread.o attr.o mutex.o cond.o rwlock.o \
	barrier.o spin.o key.o once.o cancel.o sem.o sem_named.o clone.o)

$(USER_PTHREAD): $(PTHREAD_OBJ)
	@mkdir -p $(@D)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(USER_AR) rcs $@ $^

# Static link: crt0, the program, our libraries (libaio by -laio, as programs
# written for Linux name it), then newlib and libgcc. libpthread sits in the
# final group for librt's notifier thread (SIGEV_SIGNAL, SIGEV_THREAD): only
# what is used is linked.
define user_link
	@mkdir -p $(@D)
	@echo "  ULD     $@"
	$(Q)$(USER_CC) $(USER_LDFLAGS) -L$(USER_LIBDIR) -o $@ $(USER_CRT0) $(1) $(USER_UTEST) $(USER_PAIO) -laio \
	  -Wl,--start-group $(USER_GLUE) $(USER_PTHREAD) $(USER_SYSROOT)/lib/libc.a \
	  $(USER_SYSROOT)/lib/libm.a -lgcc -Wl,--end-group
endef

$(USER_OUT)/bin/%: $(USER_OUT)/bin/%.o $(USER_CRT0) $(USER_LIBS) $(USER_PTHREAD) user/user.ld
	$(call user_link,$<)

$(USER_OUT)/test/%: $(USER_OUT)/test/%.o $(TEST_LIB) $(USER_INT80) $(USER_CRT0) $(USER_LIBS) \
		$(USER_PTHREAD) user/user.ld
	$(call user_link,$< $(TEST_LIB) $(USER_INT80))

$(USER_OUT)/host/%: $(USER_OUT)/bin/%.o $(USER_INT80) $(USER_CRT0) $(USER_LIBS) $(USER_PTHREAD) \
		user/user.ld
	$(call user_link,$< $(USER_INT80))

# The same three kinds of program, with -lpthread.
$(PTHREAD_PROGS:%=$(USER_OUT)/bin/%): $(USER_OUT)/bin/%: $(USER_OUT)/bin/%.o $(USER_CRT0) \
		$(USER_LIBS) $(USER_PTHREAD) user/user.ld
	$(call user_link,$< $(USER_LINK_PTHREAD))

$(PTHREAD_PROGS:%=$(USER_OUT)/host/%): $(USER_OUT)/host/%: $(USER_OUT)/bin/%.o $(USER_INT80) \
		$(USER_CRT0) $(USER_LIBS) $(USER_PTHREAD) user/user.ld
	$(call user_link,$< $(USER_LINK_PTHREAD) $(USER_INT80))

$(PTHREAD_TESTS:%=$(USER_OUT)/test/%): $(USER_OUT)/test/%: $(USER_OUT)/test/%.o $(TEST_LIB) \
		$(USER_INT80) $(USER_CRT0) $(USER_LIBS) $(USER_PTHREAD) user/user.ld
	$(call user_link,$< $(TEST_LIB) $(USER_LINK_PTHREAD) $(USER_INT80))

# The initramfs carries copies without debug info; gdb reads $(USER_OUT)/bin/*.
USER_ROOT   := $(USER_OUT)/initramfs
USER_PACKED := $(patsubst $(USER_OUT)/bin/%,$(USER_ROOT)/bin/%,$(USER_PROGS))

$(USER_ROOT)/bin/%: $(USER_OUT)/bin/%
	@mkdir -p $(@D)
	$(Q)tools/cross/i686-elf-strip --strip-debug -o $@ $<

$(INITRAMFS): $(USER_PACKED) tools/mkcpio.py
	@echo "  CPIO    $@"
	$(Q)$(PYTHON) tools/mkcpio.py -o $@ -C $(USER_ROOT) $(patsubst $(USER_ROOT)/%,%,$(USER_PACKED))

.SECONDARY: $(USER_PROGS:=.o) $(USER_TESTS:=.o) $(USER_CRT0) $(TEST_LIB) $(PTHREAD_OBJ)

-include $(USER_DEPS)
