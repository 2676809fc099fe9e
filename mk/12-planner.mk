# SPDX-License-Identifier: MIT
# tests/planner/: the planned path (plan + software engine + runner)
# against the one-command-at-a-time executor, on random compact programs.
#   check-planner      against $(LIB_A)
#   check-planner-san  the same built with ASan+UBSan into $(BUILD)/san

PL_DIR := tests/planner
PL_BIN := $(BUILD)/tests/planner/test_planner

$(BUILD)/obj/$(PL_DIR)/%.o: $(PL_DIR)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -isystem $(KSELFTEST_DIR) -MMD -MP -c -o $@ $<

$(PL_BIN): $(BUILD)/obj/$(PL_DIR)/test_planner.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

.PHONY: check-planner check-planner-san pl-run
pl-run: $(PL_BIN)
	$(call run-suite,$(PL_SUITE),$(PL_BIN),$(PL_WRAP))

check-planner:
	@$(MAKE) --no-print-directory pl-run PL_SUITE=planner

check-planner-san:
	@$(MAKE) --no-print-directory SAN=1 BUILD=$(BUILD)/san \
		RESULTS=$(abspath $(RESULTS)) pl-run PL_SUITE=planner-san \
		PL_WRAP='env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1'

CHECK_TARGETS += check-planner check-planner-san

-include $(BUILD)/obj/$(PL_DIR)/test_planner.d
