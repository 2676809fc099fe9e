# SPDX-License-Identifier: MIT
# tests/planner/: the planned path (plan + software engine + runner)
# against the one-command-at-a-time executor, on compact programs built in
# memory (random ones and ones built by hand), one binary per test_*.c.
#   check-planner      against $(LIB_A)
#   check-planner-san  the same built with ASan+UBSan into $(BUILD)/san

PL_DIR   := tests/planner
PL_TESTS := $(sort $(patsubst $(PL_DIR)/%.c,%,$(wildcard $(PL_DIR)/test_*.c)))
PL_OUT   := $(BUILD)/tests/planner
PL_BINS  := $(PL_TESTS:%=$(PL_OUT)/%)

$(BUILD)/obj/$(PL_DIR)/%.o: $(PL_DIR)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -isystem $(KSELFTEST_DIR) -MMD -MP -c -o $@ $<

$(PL_OUT)/%: $(BUILD)/obj/$(PL_DIR)/%.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

.PHONY: pl-run
pl-run: $(PL_BINS)
	$(call run-suite,$(PL_SUITE),$(PL_BINS),$(PL_WRAP))

$(eval $(call check-pair,planner,pl-run,PL))

-include $(wildcard $(BUILD)/obj/$(PL_DIR)/*.d)
