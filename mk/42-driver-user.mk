# SPDX-License-Identifier: MIT
# The driver built in userspace (tests/driver-user/README.md): the very
# files of driver/ the SUBMIT path runs, unmodified, against a shim of the
# kernel API and the simulator, with the kernel's own code generation
# flags, for x86-64 and, static, for armhf (the board's Cortex-A9).
#   make bench-kick-insn  the driver's own instructions per kick and per
#                         read-back at K-run 1, 8, 64 and 512: x86-64 by
#                         callgrind, armhf by qemu-arm's block trace, by
#                         group and function, converted to ns on the A9;
#                         prints, never fails on a figure
#   check-driver-user     (part of `make check`) the userspace-built driver
#                         runs batches whose every result is checked against
#                         the CPU reference (also at the simulator's worst
#                         bus timing, and 10,000 batches with the poller
#                         preempted past the hang limit), natively and
#                         (bar the 10,000) under valgrind's
#                         memcheck, and the armhf count per kick
#                         and per read-back must be within the tolerance of
#                         what the model's defaults (SIM_CPU_KICK_PS,
#                         SIM_CPU_READBACK_PS) stand for

DU_DIR      = $(BUILD)/driver-user
# What the SUBMIT path needs, with probe and open: npukit.ko's files and
# npukit_sim.ko's (the model, sim_stall, sim_main), each compiled with its
# module's KBUILD_MODNAME as Kbuild does (npukit_debugfs.c and
# npukit_sim_legacy.c are left out: tests/driver-user/debugfs_off.c).
# DU_SIM_MODEL: the model's files, all of npukit_sim.h's functions but
# the preemptions (hw-emu puts its co-simulation in their place).
DU_SIM_MODEL := sim sim_dma sim_bus sim_cpu sim_dev
DU_DRIVER   := drv job submit_args hw hw_setup backend $(DU_SIM_MODEL) sim_stall sim_main recover irq sysfs pin lock
du-modname   = -DKBUILD_MODNAME='"$(if $(filter npukit_sim%,$(1)),npukit_sim,npukit)"'
DU_OWN      := shim/npukit_shim shim/shim_platform shim/shim_irq shim/shim_uaccess shim/shim_dma \
	driver_user debugfs_off
# Every <linux/...> those files include, each made a one-line include of the
# shim's header; <linux/ioctl.h> (the UAPI header's) stays the system's.
DU_LINUX    := atomic bits build_bug capability clk debugfs delay device dma-mapping err fs \
	highmem hrtimer idr interrupt io jiffies kernel kobject kref ktime lockdep math64 \
	minmax miscdevice mm module mutex of overflow platform_device preempt reset sched \
	sched/mm sched/signal seq_file slab spinlock stddef string sysfs types uaccess wait \
	workqueue
DU_INCLUDE  = $(DU_DIR)/include
DU_ARM_CC  ?= arm-linux-gnueabihf-gcc
# Warnings: the kernel's default build has no -Wextra's sign-compare,
# unused-parameter and missing-field-initializers either.
DU_WARN     := -Wall -Wextra -Werror -Wno-sign-compare -Wno-unused-parameter \
	-Wno-missing-field-initializers
DU_COMMON   = -std=gnu11 -g -O2 -fno-strict-aliasing -fno-common -fno-PIE \
	-fno-delete-null-pointer-checks -fno-allow-store-data-races \
	-fstack-protector-strong -fno-strict-overflow -fno-stack-check \
	-fconserve-stack $(DU_WARN) -I$(DU_INCLUDE) -Itests/driver-user/shim \
	-Itests/driver-user -I. -Idriver -DNPUKIT_KVER=6012 -MMD -MP
# Code generation as Debian 12's amd64 kernel builds the module (bar what
# needs the kernel's own thunks, sections or mcount, and the 8-byte stack
# alignment, which would break calls into the C library) ...
DU_X86_CFLAGS = $(DU_COMMON) -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx \
	-mno-red-zone -falign-jumps=1 \
	-falign-loops=1 -fno-jump-tables
# ... and as Debian's armmp kernel does, hard-float only to link with the
# C library (the driver has no floating point, so the code is the same).
DU_ARM_CFLAGS = $(DU_COMMON) -mlittle-endian -fno-dwarf2-cfi-asm \
	-fno-omit-frame-pointer -mapcs -mno-sched-prolog -fno-ipa-sra \
	-mabi=aapcs-linux -mfpu=vfp -marm -march=armv7-a -mfloat-abi=hard \
	-fno-optimize-sibling-calls
DU_PROG_CFLAGS = -std=c11 -D_GNU_SOURCE -g -O2 $(WARN) -Iuapi -Itests/uapi \
	-Itests/driver-user
DU_X86_OBJS = $(DU_DRIVER:%=$(DU_DIR)/x86/driver/npukit_%.o) \
	$(DU_OWN:%=$(DU_DIR)/x86/own/%.o)
DU_ARM_OBJS = $(DU_DRIVER:%=$(DU_DIR)/armhf/driver/npukit_%.o) \
	$(DU_OWN:%=$(DU_DIR)/armhf/own/%.o)
DU_X86_BIN  = $(DU_DIR)/x86/kick_count
DU_ARM_BIN  = $(DU_DIR)/armhf/kick_count

$(DU_INCLUDE)/.stamp: mk/42-driver-user.mk
	@for h in $(DU_LINUX); do mkdir -p $(DU_INCLUDE)/linux/$$(dirname $$h); \
		echo '#include "npukit_shim.h"' > $(DU_INCLUDE)/linux/$$h.h; done
	@touch $@

$(DU_DIR)/x86/driver/%.o: driver/%.c $(DU_INCLUDE)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(DU_X86_CFLAGS) $(call du-modname,$*) -c -o $@ $<
$(DU_DIR)/x86/own/%.o: tests/driver-user/%.c $(DU_INCLUDE)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(DU_X86_CFLAGS) -D_GNU_SOURCE -c -o $@ $<
$(DU_X86_BIN): tests/driver-user/kick_count.c $(DU_X86_OBJS)
	$(CC) -no-pie $(DU_PROG_CFLAGS) -MMD -MP -o $@ $< $(DU_X86_OBJS)

$(DU_DIR)/armhf/driver/%.o: driver/%.c $(DU_INCLUDE)/.stamp
	@mkdir -p $(dir $@)
	$(DU_ARM_CC) $(DU_ARM_CFLAGS) $(call du-modname,$*) -c -o $@ $<
$(DU_DIR)/armhf/own/%.o: tests/driver-user/%.c $(DU_INCLUDE)/.stamp
	@mkdir -p $(dir $@)
	$(DU_ARM_CC) $(DU_ARM_CFLAGS) -D_GNU_SOURCE -c -o $@ $<
$(DU_ARM_BIN): tests/driver-user/kick_count.c $(DU_ARM_OBJS)
	$(DU_ARM_CC) -static $(DU_PROG_CFLAGS) -MMD -MP -o $@ $< $(DU_ARM_OBJS)

-include $(wildcard $(DU_DIR)/*/*/*.d $(DU_DIR)/*/*/*/*.d $(DU_DIR)/*/*.d)

.PHONY: bench-kick-insn check-driver-user
bench-kick-insn: $(DU_X86_BIN) $(DU_ARM_BIN)
	tests/driver-user/run-kick-insn bench $(DU_DIR) $(DU_X86_BIN) $(DU_ARM_BIN)

CHECK_TARGETS += check-driver-user
check-driver-user:
	@mkdir -p $(RESULTS)
	@log=$(RESULTS)/driver-user.log; status=0; \
	if $(MAKE) --no-print-directory -s $(DU_X86_BIN) >$$log 2>&1; then \
		$(DU_X86_BIN) check >>$$log 2>&1 || status=1; \
		$(DU_X86_BIN) check-worst >>$$log 2>&1 || status=1; \
		$(DU_X86_BIN) check-preempt >>$$log 2>&1 || status=1; \
		if valgrind -q --leak-check=full --errors-for-leak-kinds=definite \
			--error-exitcode=9 $(DU_X86_BIN) check >/dev/null 2>$(DU_DIR)/memcheck.log; then \
			echo "ok 50 kick_count check under valgrind memcheck" >>$$log; \
		else \
			echo "not ok 50 kick_count check under valgrind memcheck: $(DU_DIR)/memcheck.log" >>$$log; \
			status=1; \
		fi; \
	else \
		echo "not ok 1 kick_count: the driver does not build in userspace" >>$$log; \
		status=1; \
	fi; \
	if ! command -v qemu-arm-static >/dev/null || ! command -v $(DU_ARM_CC) >/dev/null; then \
		echo "ok 100 armhf instructions per kick # SKIP no qemu-arm-static or $(DU_ARM_CC)" >>$$log; \
	elif $(MAKE) --no-print-directory -s $(DU_ARM_BIN) >>$$log 2>&1; then \
		tests/driver-user/run-kick-insn check $(DU_DIR) $(DU_X86_BIN) $(DU_ARM_BIN) \
			>>$$log 2>&1 || status=1; \
	else \
		echo "not ok 100 armhf kick_count: the driver does not build for armhf" >>$$log; \
		status=1; \
	fi; \
	grep -E '^(not )?ok' $$log | sed 's/^/driver-user: /'; \
	scripts/tally driver-user $$log $(RESULTS) || status=1; \
	exit $$status
