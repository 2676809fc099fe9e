# SPDX-License-Identifier: MIT
# The runtime library's tests (tests/runtime/), four suites:
#   check-runtime      every test binary, against $(LIB_A)
#   check-runtime-san  the same, built with ASan+UBSan into $(BUILD)/san
#   check-runtime-vg   a subset under valgrind (RT_VG_TESTS: slow)
#   check-runtime-tsan the tests that run threads, built with TSan
#                      into $(BUILD)/tsan (RT_TSAN_TESTS)
# Each binary is a kselftest_harness program; a binary that fails or
# crashes fails its suite (its exit status is checked, not only its log).
# The harness runs each test in a child that leaves with _exit(), where
# LeakSanitizer never looks: leaks are valgrind's job (it checks at _exit).

RT_DIR     := tests/runtime
RT_TESTS   := $(sort $(patsubst $(RT_DIR)/%.c,%,$(wildcard $(RT_DIR)/test_*.c)))
RT_OUT     := $(BUILD)/tests/runtime
RT_BINS    := $(RT_TESTS:%=$(RT_OUT)/%)
RT_HELPERS := $(BUILD)/obj/$(RT_DIR)/rt.o
# Error paths (what valgrind is for), requests whose inputs come before
# their program, plus many and concurrent runs of one program (result and
# program lifetimes), the matmul builder, compiled programs and the NpuKit
# engine's groups and packing on the in-process device, the software
# engine's two threads, what a prepare makes racing first runs: ~50 s
# under valgrind.
RT_VG_TESTS := test_schema_document test_schema_buffers test_schema_commands test_schema_estimate \
	test_inputs test_range test_range_chain test_binary test_binary_write \
	test_binary_mutate test_runs \
	test_api test_matmul test_npukit_pack test_replay test_software_engine test_prepare
RT_SUITE   ?= runtime

VALGRIND := valgrind -q --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect

# The harness's FIXTURE_SETUP/TEARDOWN define functions without prototypes.
$(BUILD)/obj/$(RT_DIR)/%.o: $(RT_DIR)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -isystem $(KSELFTEST_DIR) -MMD -MP -c -o $@ $<

$(RT_OUT)/%: $(BUILD)/obj/$(RT_DIR)/%.o $(RT_HELPERS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(RT_HELPERS) $(LIB_A) $(LDLIBS)

# test_npukit_pack and test_prepare run the NpuKit engine on the device in
# the process (tests/bench-host/standin_device.c defines ioctl()).
RT_STANDIN := $(BUILD)/obj/tests/bench-host/standin_device.o
$(RT_STANDIN): tests/bench-host/standin_device.c uapi/npukit.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(RT_OUT)/test_npukit_pack $(RT_OUT)/test_prepare: $(RT_OUT)/%: $(BUILD)/obj/$(RT_DIR)/%.o \
		$(RT_HELPERS) $(RT_STANDIN) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(RT_HELPERS) $(RT_STANDIN) $(LIB_A) $(LDLIBS)

.PHONY: runtime-tests check-runtime-vg rt-run
runtime-tests: $(RT_BINS)

# Run every binary from the top of the tree (they read $(RT_DIR)/data and
# tests/gen), keep going after a failure, fail at the end if any failed.
rt-run: $(RT_BINS)
	$(call run-suite,$(RT_SUITE),$(if $(RT_VG),$(RT_VG_TESTS:%=$(RT_OUT)/%),$(RT_BINS)),$(RT_WRAP))

$(eval $(call check-pair,runtime,rt-run,RT))

check-runtime-vg:
	@$(MAKE) --no-print-directory rt-run RT_SUITE=runtime-vg RT_VG=1 \
		RT_WRAP='$(VALGRIND)'

CHECK_TARGETS += check-runtime-vg

# Under ThreadSanitizer, into $(BUILD)/tsan: the tests whose runs use
# threads (the NpuKit engine's worker, concurrent runs of one program, a
# run's second thread: test_replay sets TTPU_RUN_THREADS=2; the software
# engine's: test_software_engine; first runs racing to make what is kept
# with the program: test_once_per_program; and racing prepares:
# test_prepare).
RT_TSAN_TESTS := test_npukit_pack test_runs test_replay test_software_engine \
	test_once_per_program test_prepare
.PHONY: check-runtime-tsan rt-tsan-run
rt-tsan-run: $(RT_TSAN_TESTS:%=$(RT_OUT)/%)
	$(call run-suite,runtime-tsan,$^,env TSAN_OPTIONS=halt_on_error=1:exitcode=66)

check-runtime-tsan:
	@$(MAKE) --no-print-directory TSAN=1 BUILD=$(BUILD)/tsan RESULTS=$(abspath $(RESULTS)) \
		rt-tsan-run

CHECK_TARGETS += check-runtime-tsan

-include $(wildcard $(BUILD)/obj/$(RT_DIR)/*.d)
