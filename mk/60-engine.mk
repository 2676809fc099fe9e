# SPDX-License-Identifier: MIT
# The NpuKit engine end to end (tests/engine/): parity with the software
# engine, engine choice, injected device faults. Each binary SKIPs without
# /dev/npukit0 and FAILs when it is there and wrong, so the suites mean
# something inside the VMs (the simulated NpuKit), where they run too:
# mk/30-vm.mk (VM_EXTRA, VM_DATA) and mk/50-zynq.mk (ZYNQ_SUITES,
# ZYNQ_DATA) pick them up from here.
#   check-engine   on this machine (the device-less checks run, the rest SKIP)
#   engine-tests   the binaries, ttpu-run and the generated programs
#   bench-engine   the issue 5 benchmark in the x86 VM, figures printed
#
# The binaries find ttpu-run and the generated programs through TTPU_RUN
# and TTPU_TEST_DATA, or else at this build's paths relative to the top of
# the tree (the VMs run them from /src, where those paths are packed).

ENGINE_DIR    := tests/engine
ENGINE_OUT     = $(BUILD)/tests/engine
ENGINE_TESTS  := engine_parity engine_choice engine_fault engine_info
ENGINE_BINS    = $(ENGINE_TESTS:%=$(ENGINE_OUT)/%)
ENGINE_DATA    = $(BUILD)/engine-data
# FIXTURE_SETUP() and friends expand to functions without prototypes.
ENGINE_CFLAGS  = $(ALL_CFLAGS) -Wno-missing-prototypes -isystem $(KSELFTEST_DIR) \
	-DENGINE_TEST_DATA='"$(ENGINE_DATA)"'

$(ENGINE_OUT)/%: $(ENGINE_DIR)/%.c $(ENGINE_DIR)/engine_run.h $(ENGINE_DIR)/engine_progs.h \
		$(wildcard tests/lib/*.h) $(TESTLIB_DEV) $(TESTLIB_RUN) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ENGINE_CFLAGS) $(LDFLAGS) -o $@ $< $(TESTLIB_DEV) $(TESTLIB_RUN) $(LIB_A) $(LDLIBS)

$(ENGINE_DATA)/.stamp: $(ENGINE_DIR)/gen-data tests/gen/ttpu_gen.py
	$(ENGINE_DIR)/gen-data $(ENGINE_DATA)
	@touch $@

.PHONY: engine-tests engine-data engine-run bench-engine
engine-data: $(ENGINE_DATA)/.stamp
engine-tests: $(ENGINE_BINS) $(TTPU_RUN) engine-data

engine-run: engine-tests
	@mkdir -p $(BUILD)/tmp/$(ENGINE_SUITE)
	$(call run-suite,$(ENGINE_SUITE),$(ENGINE_BINS),TTPU_RUN=$(abspath $(TTPU_RUN)) \
		TTPU_TEST_DATA=$(ENGINE_DATA) \
		TMPDIR=$(abspath $(BUILD)/tmp/$(ENGINE_SUITE)) $(ENGINE_WRAP))

$(eval $(call check-pair,engine,engine-run,ENGINE))

# Into the x86 VM: the static binaries, and (as data under /src) the
# static ttpu-run and the generated programs they look for.
VM_EXTRA += engine:engine-tests:ENGINE_BINS
VM_DATA  += $(VM_DIR)/static-engine/bin $(VM_DIR)/static-engine/engine-data
# Into the emulated Zynq: the armhf binaries; its /init sets TTPU_RUN.
ZYNQ_SUITES += engine:engine-tests:ENGINE_BINS
ZYNQ_DATA   += $(ZYNQ_XBUILD)/engine-data
export ZYNQ_DATA


# The benchmark: a static binary and its programs (the bench MLP, and its
# aligned first layer alone) booted in the x86 VM with the simulator.
BENCHE_DATA = $(BUILD)/bench-engine
BENCHE_BIN  = $(VM_DIR)/tests/bench-engine/bench_engine

$(BENCHE_BIN): tests/bench-engine/bench_engine.c tests/lib/test_results.h tests/lib/board_model.h \
		$(TESTLIB_MODEL) $(TESTLIB_DEV) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DBENCH_DATA='"$(BENCHE_DATA)"' -static -o $@ $< \
		$(TESTLIB_MODEL) $(TESTLIB_DEV) $(LIB_A) $(LDLIBS)

$(BENCHE_DATA)/.stamp: tests/gen/ttpu_gen.py
	@mkdir -p $(BENCHE_DATA)
	$(TTPU_GEN) bench --name mlp784 --program $(BENCHE_DATA)/mlp.json \
		--inputs $(BENCHE_DATA)/mlp-inputs.json
	$(TTPU_GEN) mlp --name layer1 --batch 64 --dims 784,128 --bias 1 --relu 1 \
		--program $(BENCHE_DATA)/layer1.json --inputs $(BENCHE_DATA)/layer1-inputs.json
	@touch $@

bench-engine: $(BENCHE_BIN) $(BENCHE_DATA)/.stamp
	@$(MAKE) --no-print-directory vm-run VM_SUITE=bench-engine \
		VM_TESTS="bench=$(BENCHE_BIN) --data $(BENCHE_DATA)"; status=$$?; \
	sed -n 's/^# bench: //p' $(RESULTS)/bench-engine.log; exit $$status
