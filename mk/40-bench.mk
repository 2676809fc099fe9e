# SPDX-License-Identifier: MIT
# `make bench`: the compiler-sized MLP through json-c's bare parse, the
# library's phases (load, planned run, direct run, response) and the whole
# CLI, with PASS/MISS per target; then peak RSS loading and running a
# 10^6-pass program (bench-memory). A benchmark: never part of `make check`.

BENCH_DIR    = $(BUILD)/bench
JSONC_PARSE  = $(BENCH_DIR)/jsonc_parse
TTPU_BENCH   = $(BENCH_DIR)/ttpu_bench

.PHONY: bench-ttpu bench-memory
bench: bench-ttpu bench-memory

# The baseline links json-c alone.
$(JSONC_PARSE): tests/bench/jsonc_parse.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

# Internal headers: the direct executor is not public API.
$(TTPU_BENCH): tests/bench/ttpu_bench.c tests/lib/test_results.h $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

bench-ttpu: $(TTPU_RUN) $(JSONC_PARSE) $(TTPU_BENCH)
	tests/bench/run-bench $(BUILD) $(TTPU_RUN) $(JSONC_PARSE) $(TTPU_BENCH)

# Peak RSS against program size: 10^6 passes, with and without
# `ulimit -v 262144` (tests/bench/run-bench-memory).
bench-memory: $(TTPU_RUN)
	tests/bench/run-bench-memory $(BUILD) $(TTPU_RUN)
