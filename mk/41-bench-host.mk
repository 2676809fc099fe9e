# SPDX-License-Identifier: MIT
# `make bench-host`: the host's cost in instructions (issue 10), counted by
# callgrind (Debian's valgrind), which is deterministic where wall time on
# these shared machines is not: the JSON and compiled CLI, --serve per
# request, load alone (JSON, compiled), run alone (software engine) and the
# NpuKit engine's host instructions per kick, on
# the direct-chain MLP tests/gen makes (784->128->10, batch 64, i8 hidden
# layer, inputs over the whole i8 range). A benchmark: never part of
# `make check`; it fails only when something could not run or gave a wrong
# answer. tests/bench-host/run-bench-host says what each figure is.

HOST_COST = $(BENCH_DIR)/host_cost
HOST_COST_NO_AVX2 = $(BENCH_DIR)/host_cost_no_avx2

.PHONY: bench-host

# Internal headers are not needed: the public API and the UAPI header.
$(HOST_COST): tests/bench-host/host_cost.c tests/bench-host/standin_device.c $(LIB_A) \
		uapi/npukit.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.c,$^) $(LIB_A) $(LDLIBS)

# The same with the loader's AVX2 paths off (no_avx2.c sets the library's
# internal switch): the compiled load on an x86-64 without AVX2.
$(HOST_COST_NO_AVX2): tests/bench-host/host_cost.c tests/bench-host/standin_device.c \
		tests/bench-host/no_avx2.c $(LIB_A) uapi/npukit.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.c,$^) $(LIB_A) $(LDLIBS)

bench-host: $(TTPU_RUN) $(HOST_COST) $(HOST_COST_NO_AVX2)
	tests/bench-host/run-bench-host $(BUILD) $(TTPU_RUN) $(HOST_COST) $(HOST_COST_NO_AVX2)

# `make bench-host-armhf`: bench-host's program and inputs through the
# static armhf ttpu-run under qemu-arm, answers compared byte for byte with
# x86's (tests/bench-host/run-armhf). Run after `make bench-host`.
.PHONY: bench-host-armhf
bench-host-armhf:
	tests/zynq/cross-build $(ZYNQ_XBUILD)
	tests/bench-host/run-armhf $(BUILD) $(ZYNQ_XBUILD)/bin/ttpu-run
