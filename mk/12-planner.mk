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

.PHONY: pl-run
pl-run: $(PL_BIN)
	$(call run-suite,$(PL_SUITE),$(PL_BIN),$(PL_WRAP))

$(eval $(call check-pair,planner,pl-run,PL))

-include $(BUILD)/obj/$(PL_DIR)/test_planner.d
