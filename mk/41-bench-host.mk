# SPDX-License-Identifier: MIT
# `make bench-host`: the host's cost in instructions (issue 10), counted by
# callgrind (Debian's valgrind), which is deterministic where wall time on
# these shared machines is not: the JSON CLI, load alone, run alone
# (software engine) and the NpuKit engine's host instructions per kick, on
# the direct-chain MLP tests/gen makes (784->128->10, batch 64, i8 hidden
# layer, inputs over the whole i8 range). A benchmark: never part of
# `make check`; it fails only when something could not run or gave a wrong
# answer. tests/bench-host/run-bench-host says what each figure is.

HOST_COST = $(BENCH_DIR)/host_cost

.PHONY: bench-host

# Internal headers are not needed: the public API and the UAPI header.
$(HOST_COST): tests/bench-host/host_cost.c $(LIB_A) uapi/npukit.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

bench-host: $(TTPU_RUN) $(HOST_COST)
	tests/bench-host/run-bench-host $(BUILD) $(TTPU_RUN) $(HOST_COST)
