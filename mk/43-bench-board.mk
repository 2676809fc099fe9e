# SPDX-License-Identifier: MIT
# `make bench-board`: a served request on the board, on the board-time
# model, every figure naming its ruler (issues 20, 29): host instructions
# counted, the kernel's share of the request's system calls (qemu-arm's
# strace), the driver's and the bus's simulated; the calibrated readings
# beside the model's.
# The library and ttpu-run built for armhf (tests/zynq/cross-build: static,
# json-c from Debian's armhf package) with an in-process stand-in device,
# run under qemu-arm with every executed block logged; every instruction of
# the served request is charged to a phase (tests/bench-board/run-bench-board
# says how: the phases in phase_table.py, the qemu-arm run in qemu_count.py,
# the figures on the model in board_model.py). The driver's and the bus's
# share come from the board model, as bench-engine reads them in the VM:
# the unmodified driver built in userspace (tests/driver-user) on one
# simulated NpuKit, its bus clock and CPU account summed over the request's
# SUBMITs. Both engines, by default
# the worst of BOARD_SEEDS seeds of random weights and inputs for the MLP
# 784->128->10, batch 64, i8 hidden layer; `make bench-board REQUEST=FILE`
# takes any request ({"program", "inputs"}). The first request is printed
# beside the warm one, and --serve's start-up (loading the program,
# opening the engine, ttpu_program_prepare()) beside both. A benchmark:
# never part of `make check`; it fails only when something could not run
# or an answer was wrong.

BOARD_DIR      = $(BUILD)/bench-board
BOARD_SEEDS   ?= 1 2 3
BOARD_CHAIN   ?= direct
REQUEST       ?=
# armhf: ttpu-run's objects and library (cross-build) with the stand-in
BOARD_ARM_DIR  = $(ZYNQ_XBUILD)/bench-board
BOARD_ARM_RUN  = $(BOARD_ARM_DIR)/ttpu-run-standin
# x86-64: ttpu-run on the userspace-built driver and simulator
BOARD_DRV_RUN  = $(BOARD_DIR)/ttpu-run-driver
BOARD_QTRACE   = $(BOARD_DIR)/qtrace_count

$(BOARD_QTRACE): tests/bench-board/qtrace_count.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 $(WARN) -o $@ $<

$(BOARD_DIR)/standin_driver.o: tests/bench-host/standin_device.c uapi/npukit.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DSTANDIN_DRIVER -Itests/driver-user -c -o $@ $<

$(BOARD_DIR)/standin_sim_cpu.o: tests/bench-board/standin_sim_cpu.c $(DU_INCLUDE)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(DU_X86_CFLAGS) -c -o $@ $<

$(BOARD_DRV_RUN): $(CLI_OBJS) $(LIB_A) $(BOARD_DIR)/standin_driver.o \
		$(BOARD_DIR)/standin_sim_cpu.o $(DU_X86_OBJS)
	$(CC) -no-pie -Wl,--wrap=npukit_sim_create -o $@ $(CLI_OBJS) \
		$(BOARD_DIR)/standin_driver.o $(BOARD_DIR)/standin_sim_cpu.o $(DU_X86_OBJS) \
		$(LIB_A) $(LDLIBS)

# Not a file rule: cross-build decides what is out of date in its own tree.
.PHONY: bench-board board-armhf
board-armhf:
	tests/zynq/cross-build $(ZYNQ_XBUILD) >/dev/null
	@mkdir -p $(BOARD_ARM_DIR)
	arm-linux-gnueabihf-gcc -std=c11 -D_GNU_SOURCE -O2 $(WARN) -Iuapi \
		-c -o $(BOARD_ARM_DIR)/standin_device.o tests/bench-host/standin_device.c
	arm-linux-gnueabihf-gcc -static -Wl,-Map=$(BOARD_ARM_RUN).map -o $(BOARD_ARM_RUN) \
		$(CLI_SRCS:%.c=$(ZYNQ_XBUILD)/obj/%.o) $(BOARD_ARM_DIR)/standin_device.o \
		$(ZYNQ_XBUILD)/lib/libttpu-run.a \
		$$(tests/zynq/sysroot)/usr/lib/arm-linux-gnueabihf/libjson-c.a -pthread -lm

bench-board: $(TTPU_RUN) $(BOARD_DRV_RUN) $(BOARD_QTRACE) board-armhf
	BOARD_CHAIN=$(BOARD_CHAIN) tests/bench-board/run-bench-board $(BUILD) $(TTPU_RUN) $(BOARD_DRV_RUN) \
		$(BOARD_ARM_RUN) $(BOARD_QTRACE) "$(REQUEST)" $(BOARD_SEEDS)

# `make bench-csum-armhf`: the compiled file's checksum on armhf, counted
# under qemu-arm on a CPU with NEON and one without (issue 20;
# tests/bench-board/run-csum-armhf). Run after `make bench-host`.
BOARD_CSUM = $(BOARD_ARM_DIR)/csum_count
.PHONY: bench-csum-armhf
bench-csum-armhf: $(BOARD_QTRACE)
	tests/zynq/cross-build $(ZYNQ_XBUILD) >/dev/null
	@mkdir -p $(BOARD_ARM_DIR)
	arm-linux-gnueabihf-gcc -static -std=c11 -D_GNU_SOURCE -O2 $(WARN) -Iuserspace/include \
		-Iuserspace/lib -Iuapi -o $(BOARD_CSUM) tests/bench-board/csum_count.c \
		$(ZYNQ_XBUILD)/lib/libttpu-run.a
	tests/bench-board/run-csum-armhf $(BOARD_CSUM) $(BOARD_QTRACE) $(BUILD)/bench-host/mlp.ttpb
