# SPDX-License-Identifier: MIT
# hw-emu (Documentation/npukit/hw-emu.rst, tests/hw-emu/README.md): the
# unmodified driver built in userspace (mk/42-driver-user.mk) and the
# unmodified ttpu-run drive NpuKit's own RTL, built by Verilator from a
# checkout the user names, through a bus and AXI DMA model written here.
#   make hw-emu NPUKIT_RTL=DIR  DIR: a checkout of NetKit-Labs/npukit
#                               (never vendored, never fetched by the
#                               build); last line `hw-emu: N passed, M failed`
#   check-hw-emu-glue           (part of `make check`) the same suites, the
#                               bus glue and the DMA model in front of the
#                               project's C port model of the NPU's pins,
#                               and device time against the C simulator's
#   check-hw-emu-sync           (part of `make check`) each dma_sync_* of
#                               the driver deleted or flipped in a scratch
#                               build must fail on the cache model
#   check-hw-emu-board          (part of `make check`) the driver's hardware
#                               branch on the emulated board (probe, faults
#                               at probe, remove, interrupts, the PL reset
#                               line), then each deliberate bug of that
#                               branch in a scratch build must fail it

HW_DIR      = $(BUILD)/hw-emu
HW_SRC      := tests/hw-emu
# The driver's files without the simulator's model: hwemu_sim.c stands in
# for npukit_sim.c and its siblings (DU_SIM_MODEL) under npukit_sim.ko's
# glue (npukit_sim_main.c)
HW_DRIVER   := $(filter-out $(DU_SIM_MODEL),$(DU_DRIVER))
HW_OWN      := axi_dma hwemu_board hwemu_monitor hwemu_sim pg021_driver
# SHIM_BOARD_IO: the driver's readl()/writel()/mb() reach the board
# (tests/driver-user/shim/shim_platform.h)
HW_CFLAGS   = $(filter-out -fno-PIE,$(DU_X86_CFLAGS)) -fPIC -D_GNU_SOURCE -I$(HW_SRC) -DSHIM_BOARD_IO
HW_OBJS     = $(HW_DRIVER:%=$(HW_DIR)/obj/driver/npukit_%.o) \
	$(DU_OWN:%=$(HW_DIR)/obj/du/%.o) $(HW_OWN:%=$(HW_DIR)/obj/hw/%.o)
HW_PROG_CFLAGS = $(DU_PROG_CFLAGS) -I$(HW_SRC)
HW_RTL_FILES = npukit_axil.sv npukit_glue.sv systolic_array.sv pe.sv
VERILATOR  ?= verilator
VL_INC     ?= /usr/share/verilator/include
HW_VL_DIR   = $(HW_DIR)/verilated

$(HW_DIR)/obj/driver/%.o: driver/%.c $(DU_INCLUDE)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(HW_CFLAGS) $(call du-modname,$*) -c -o $@ $<
$(HW_DIR)/obj/du/%.o: tests/driver-user/%.c $(DU_INCLUDE)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(HW_CFLAGS) -c -o $@ $<
$(HW_DIR)/obj/hw/%.o: $(HW_SRC)/%.c $(DU_INCLUDE)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(HW_CFLAGS) -c -o $@ $<

$(HW_DIR)/obj/hw/hwemu_preload.o: $(HW_SRC)/hwemu_preload.c
	@mkdir -p $(dir $@)
	$(CC) $(HW_PROG_CFLAGS) -fPIC -MMD -MP -c -o $@ $<

# One set of programs per NPU behind the pins: port (the C port model) and
# rtl (Verilated); the same sources otherwise.
HW_PROGS    := kick_count hwemu_storm hwemu_probe_test dma_test monitor_test sim_regs_test \
	sim_ctrl_test
HW_PORT_NPU = $(HW_DIR)/obj/hw/npu_portmodel.o
HW_RTL_NPU  = $(HW_DIR)/obj/rtl/npu_rtl.o $(HW_VL_DIR)/Vnpukit_axil__ALL.a \
	$(HW_DIR)/obj/rtl/verilated.o $(HW_DIR)/obj/rtl/verilated_threads.o
HW_RTL_LIBS = -lstdc++ -lm -pthread

# the board's probe test is a kselftest_harness program
HW_HARNESS_CFLAGS = -Wno-missing-prototypes -isystem $(KSELFTEST_DIR)
$(HW_DIR)/port/hwemu_probe_test $(HW_DIR)/rtl/hwemu_probe_test: HW_PROG_CFLAGS += \
	$(HW_HARNESS_CFLAGS)

$(HW_DIR)/port/kick_count: tests/driver-user/kick_count.c $(HW_OBJS) $(HW_PORT_NPU)
	@mkdir -p $(dir $@)
	$(CC) $(HW_PROG_CFLAGS) -MMD -MP -o $@ $< $(HW_OBJS) $(HW_PORT_NPU)
$(HW_DIR)/port/%: $(HW_SRC)/%.c $(HW_OBJS) $(HW_PORT_NPU)
	@mkdir -p $(dir $@)
	$(CC) $(HW_PROG_CFLAGS) -MMD -MP -o $@ $< $(HW_OBJS) $(HW_PORT_NPU)
$(HW_DIR)/port/libnpukit-hwemu.so: $(HW_DIR)/obj/hw/hwemu_preload.o $(HW_OBJS) $(HW_PORT_NPU)
	$(CC) -shared -Wl,-Bsymbolic -Wl,--version-script=$(HW_SRC)/hwemu_preload.map \
		-o $@ $^

# The same library on the C simulator: the model set beside the RTL
HW_CSIM_OBJS = $(filter-out $(HW_OWN:%=$(HW_DIR)/obj/hw/%.o),$(HW_OBJS)) \
	$(DU_SIM_MODEL:%=$(HW_DIR)/obj/driver/npukit_%.o)
$(HW_DIR)/csim/libnpukit-hwemu.so: $(HW_DIR)/obj/hw/hwemu_preload.o $(HW_CSIM_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-Bsymbolic -Wl,--version-script=$(HW_SRC)/hwemu_preload.map \
		-o $@ $^

$(HW_DIR)/csim/%_test: $(HW_SRC)/%_test.c $(HW_CSIM_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(HW_PROG_CFLAGS) -MMD -MP -o $@ $< $(HW_CSIM_OBJS)

# The RTL: only with NPUKIT_RTL, only from its rtl/ directory
# A checkout other than the last one's is rebuilt even when its files are
# older: the file naming it changes (when it is read) only when it does.
HW_RTL_PATH = $(HW_VL_DIR)/rtl.path
ifneq ($(NPUKIT_RTL),)
HW_RTL_PATH_SET := $(shell mkdir -p $(HW_VL_DIR) && p='$(abspath $(NPUKIT_RTL))' && \
	{ [ "$$(cat $(HW_RTL_PATH) 2>/dev/null)" = "$$p" ] || echo "$$p" > $(HW_RTL_PATH); })
endif
# Verilator 5.006 refuses npukit_glue.sv's blocking and non-blocking
# assignments to one variable unless BLKANDNBLK is waived (hw-emu.rst)
$(HW_VL_DIR)/Vnpukit_axil__ALL.a: $(addprefix $(NPUKIT_RTL)/rtl/,$(HW_RTL_FILES)) $(HW_RTL_PATH)
	@mkdir -p $(HW_VL_DIR)
	$(VERILATOR) --cc --build -j 2 --top-module npukit_axil --Mdir $(HW_VL_DIR) \
		-Wno-fatal -Wno-lint -Wno-style -Wno-BLKANDNBLK \
		-CFLAGS -fPIC -MAKEFLAGS OPT_FAST=-O2 $(filter %.sv,$^) > $(HW_DIR)/verilator.log 2>&1 || \
		{ tail -20 $(HW_DIR)/verilator.log; exit 1; }
	@touch $@	# Verilator leaves an archive whose sources did not change alone
$(HW_DIR)/obj/rtl/verilated.o $(HW_DIR)/obj/rtl/verilated_threads.o: $(HW_DIR)/obj/rtl/%.o: $(VL_INC)/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) -O2 -fPIC -w -I$(VL_INC) -I$(VL_INC)/vltstd -c -o $@ $<
$(HW_DIR)/obj/rtl/npu_rtl.o: $(HW_SRC)/npu_rtl.cpp $(HW_VL_DIR)/Vnpukit_axil__ALL.a
	@mkdir -p $(dir $@)
	$(CXX) -O2 -fPIC -Wall -Wextra -Werror -isystem $(HW_VL_DIR) -isystem $(VL_INC) -isystem $(VL_INC)/vltstd \
		-I$(HW_SRC) -c -o $@ $<
$(HW_DIR)/rtl/kick_count: tests/driver-user/kick_count.c $(HW_OBJS) $(HW_RTL_NPU)
	@mkdir -p $(dir $@)
	$(CC) $(HW_PROG_CFLAGS) -o $@ $< $(HW_OBJS) $(HW_RTL_NPU) $(HW_RTL_LIBS)
$(HW_DIR)/rtl/%: $(HW_SRC)/%.c $(HW_OBJS) $(HW_RTL_NPU)
	@mkdir -p $(dir $@)
	$(CC) $(HW_PROG_CFLAGS) -o $@ $< $(HW_OBJS) $(HW_RTL_NPU) $(HW_RTL_LIBS)
$(HW_DIR)/rtl/libnpukit-hwemu.so: $(HW_DIR)/obj/hw/hwemu_preload.o $(HW_OBJS) $(HW_RTL_NPU)
	$(CXX) -shared -Wl,-Bsymbolic -Wl,--version-script=$(HW_SRC)/hwemu_preload.map \
		-o $@ $^ -lm -pthread

-include $(wildcard $(HW_DIR)/obj/*/*.d $(HW_DIR)/*/*.d)

HW_RUN = $(HW_SRC)/run-hw-emu
.PHONY: hw-emu check-hw-emu-glue
hw-emu:
	@if [ -z "$(NPUKIT_RTL)" ]; then \
		echo "hw-emu: NPUKIT_RTL is not set. It names a checkout of NpuKit's RTL, which this project never vendors or fetches:"; \
		echo "  git clone https://github.com/NetKit-Labs/npukit ../npukit"; \
		echo "  make hw-emu NPUKIT_RTL=../npukit"; \
		echo "(Debian's verilator builds it: scripts/deps all; Documentation/npukit/hw-emu.rst)"; \
		exit 2; \
	fi; \
	for f in $(HW_RTL_FILES); do [ -f "$(NPUKIT_RTL)/rtl/$$f" ] || { \
		echo "hw-emu: $(NPUKIT_RTL)/rtl/$$f: no such file (is NPUKIT_RTL a checkout of NetKit-Labs/npukit?)"; exit 2; }; done; \
	command -v $(VERILATOR) >/dev/null || { echo "hw-emu: no $(VERILATOR): apt-get install verilator (scripts/deps all)"; exit 2; }
	@$(MAKE) --no-print-directory -s $(TTPU_RUN) \
		$(HW_PROGS:%=$(HW_DIR)/rtl/%) $(HW_DIR)/rtl/libnpukit-hwemu.so \
		$(DU_X86_BIN) $(HW_DIR)/csim/libnpukit-hwemu.so $(HW_DIR)/csim/sim_regs_test \
		$(HW_DIR)/csim/sim_ctrl_test >/dev/null
	@$(MAKE) --no-print-directory -s uapi-tests engine-tests >$(HW_DIR)/suites-build.log 2>&1 || \
		echo "# the UAPI and engine suites do not build here ($(HW_DIR)/suites-build.log): each fails below"
	@mkdir -p $(RESULTS)
	@BUILD=$(abspath $(BUILD)) $(HW_RUN) rtl $(HW_DIR)/rtl $(DU_X86_BIN) $(TTPU_RUN) $(HW_DIR)/work $(RESULTS)/hw-emu.log

CHECK_TARGETS += check-hw-emu-glue
check-hw-emu-glue:
	@mkdir -p $(RESULTS)
	@log=$(RESULTS)/hw-emu-glue.log; status=0; \
	if $(MAKE) --no-print-directory -s $(TTPU_RUN) $(HW_PROGS:%=$(HW_DIR)/port/%) \
		$(HW_DIR)/port/libnpukit-hwemu.so $(HW_DIR)/csim/libnpukit-hwemu.so \
		$(HW_DIR)/csim/sim_regs_test $(HW_DIR)/csim/sim_ctrl_test \
		$(DU_X86_BIN) >$$log 2>&1; then \
		$(HW_RUN) port $(HW_DIR)/port $(DU_X86_BIN) $(TTPU_RUN) $(HW_DIR)/work-port \
			$(HW_DIR)/glue.log >>$$log 2>&1 || status=1; \
	else \
		echo "not ok 1 hw-emu glue: does not build" >>$$log; status=1; \
	fi; \
	out=$$($(MAKE) --no-print-directory -s hw-emu NPUKIT_RTL= 2>&1); rc=$$?; \
	if [ $$rc = 2 ] && echo "$$out" | grep -q 'git clone https://github.com/NetKit-Labs/npukit'; then \
		echo "ok 1000 make hw-emu without NPUKIT_RTL says how to get the tree and stops (2)" >>$$log; \
	else echo "not ok 1000 make hw-emu without NPUKIT_RTL: exit $$rc, $$out" >>$$log; status=1; fi; \
	grep -E '^(not )?ok' $$log | sed 's/^/hw-emu-glue: /'; \
	scripts/tally hw-emu-glue $$log $(RESULTS) || status=1; \
	exit $$status

# Each dma_sync_single_for_*() of the driver deleted or turned the wrong
# way, one at a time in a scratch copy, must fail on the non-coherent
# memory model (tests/hw-emu/run-sync-mutants), part of `make check`
.PHONY: check-hw-emu-sync
CHECK_TARGETS += check-hw-emu-sync
check-hw-emu-sync: $(HW_OBJS) $(HW_PORT_NPU)
	@mkdir -p $(RESULTS)
	@log=$(RESULTS)/hw-emu-sync.log; status=0; \
	CC='$(CC)' HW_CFLAGS='$(HW_CFLAGS)' HW_PROG_CFLAGS='$(HW_PROG_CFLAGS)' \
		HW_OBJS='$(HW_OBJS)' HW_NPU='$(HW_PORT_NPU)' HW_OBJ_DIR='$(HW_DIR)/obj/driver' \
		$(HW_SRC)/run-sync-mutants $(HW_DIR)/sync-mutants >$$log 2>&1 || status=1; \
	grep -E '^(not )?ok|^sync mutants' $$log | sed 's/^/hw-emu-sync: /'; \
	scripts/tally hw-emu-sync $$log $(RESULTS) || status=1; \
	exit $$status

# The driver's hardware branch on the emulated board, on the port model
# (hwemu_probe_test), then each deliberate bug of that branch in a scratch
# copy must fail it (tests/hw-emu/run-board-mutants), part of `make check`
.PHONY: check-hw-emu-board
CHECK_TARGETS += check-hw-emu-board
check-hw-emu-board: $(HW_OBJS) $(HW_PORT_NPU) $(HW_DIR)/port/hwemu_probe_test
	@mkdir -p $(RESULTS)
	@log=$(RESULTS)/hw-emu-board.log; status=0; \
	NPUKIT_HWEMU_STRICT=1 $(HW_DIR)/port/hwemu_probe_test >$$log 2>&1 || status=1; \
	CC='$(CC)' HW_CFLAGS='$(HW_CFLAGS)' HW_PROG_CFLAGS='$(HW_PROG_CFLAGS) $(HW_HARNESS_CFLAGS)' \
		HW_OBJS='$(HW_OBJS)' HW_NPU='$(HW_PORT_NPU)' HW_OBJ_DIR='$(HW_DIR)/obj/driver' \
		$(HW_SRC)/run-board-mutants $(HW_DIR)/board-mutants >>$$log 2>&1 || status=1; \
	grep -E '^(not )?ok|^board mutants' $$log | sed 's/^/hw-emu-board: /'; \
	scripts/tally hw-emu-board $$log $(RESULTS) || status=1; \
	exit $$status
