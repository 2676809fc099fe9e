# SPDX-License-Identifier: MIT
# The real target, emulated: the driver and the runtime on a Zynq-7000
# (qemu-system-arm -M xilinx-zynq-a9, one Cortex-A9) under a debug kernel
# (KASAN, lockdep, kmemleak, UBSAN, DMA-API debug, SLUB debug) built from
# Debian's linux-source-6.1 with tests/zynq/kernel.config.
#
#   make zynq-kernel-bg  start the kernel build in the background (minutes;
#                        cached outside the tree, keyed by the config
#                        fragment and the source version) and return
#   make zynq-kernel     build it now, or wait for the background build
#   make zynq-check      suite "zynq": module against that kernel (sparse
#                        clean), armhf static userspace and every suite's
#                        test binaries, boot, tests, tally
#   make zynq510-check   the same on 5.10: mk/90-zynq510.mk
#
# zynq-kernel-bg starts both kernel builds, 6.1 first (`make check` runs
# zynq-check after every x86 suite, then zynq510-check: mk/99-check.mk);
# tests/zynq/build-kernel runs one build at a time.
#
# tests/zynq/ holds the pieces (build-kernel, sysroot, cross-build, run,
# init, zynq-npukit.dts, json-same); the module build and the console
# check are tests/vm's (build-module, check-console), used as they are.

# The kernel line and the suite's name: zynq510-check sets them (and its
# own directories) for a second run of the zynq-check recipe.
ZYNQ_KVER    ?= 6.1
ZYNQ_NAME    ?= zynq
ZYNQ_DIR     ?= $(BUILD)/zynq
ZYNQ_XBUILD  ?= $(BUILD)/armhf
# The suites that run in the VM, as in mk/30-vm.mk's VM_EXTRA:
# NAME:MAKE_TARGET:VARIABLE (VARIABLE lists the binaries MAKE_TARGET makes).
ZYNQ_UAPI_BINS = $(UAPI_TESTS:%=$(BUILD)/tests/uapi/%)
ZYNQ_SUITES  ?= uapi:uapi-tests:ZYNQ_UAPI_BINS runtime:runtime-tests:RT_BINS \
	cli:cli-tests:CLI_TEST_BINS
# Binaries that need the host's tools and stay out of the VM (SUITE/NAME):
# test_gen runs tests/gen/ttpu_gen.py with python3, cli_valgrind_test runs
# valgrind: the initramfs has neither; test_binary_mutate plans mutated
# programs bigger than the guest (as VM_SKIP in mk/30-vm.mk).
ZYNQ_HOST_ONLY ?= runtime/test_gen cli/cli_valgrind_test runtime/test_binary_mutate
# The simulated NpuKit, two instances like the x86 VM (npukit_sim.ko's
# sim_devices, driver/npukit_sim_main.c), and the line its probe logs when the ID register is not the
# NpuKit's (driver/npukit_hw.c): here the DT node at 0x43c00000 reads 0.
ZYNQ_SIM_ARGS   ?= sim_devices=2
ZYNQ_REFUSE_RE  ?= npukit 43c00000\.npu: .*ID reads 0x00000000, not NpuKit
ZYNQ_DTSI       ?= $(firstword $(wildcard dts/*.dtsi))
# Then a second pass in interrupt mode (tests/zynq/init step 4): reload
# with these parameters too and rerun the binaries ZYNQ_IRQ_TESTS names
# (SUITE or SUITE/NAME), each within ZYNQ_IRQ_TIMEOUT s; the UAPI suites
# and the engine's fault test cover every wait and error path in a few
# seconds. ZYNQ_IRQ_ARGS= skips the pass.
ZYNQ_IRQ_ARGS    ?= sim_irq=1
ZYNQ_IRQ_TESTS   ?= uapi engine/engine_fault
ZYNQ_IRQ_TIMEOUT ?= 120
# Then a pass with the simulator's worst bus and DMA timing (step 4b; the
# knobs: driver/npukit_sim.h, struct npukit_sim_timing): the UAPI suites
# again, each binary within ZYNQ_TIMING_TIMEOUT s. ZYNQ_TIMING_ARGS= skips it.
ZYNQ_TIMING_ARGS    ?= $(VM_TIMING_MODARGS)
ZYNQ_TIMING_TESTS   ?= uapi
ZYNQ_TIMING_TIMEOUT ?= 120
# Boot (~10-30 s) plus every suite under TCG with KASAN on a shared machine:
# 763 s on 2 cores at a load of 10, so sized for a heavier load, for a hung
# guest only.
ZYNQ_TIMEOUT    ?= 1800

.PHONY: zynq-kernel-bg zynq-kernel zynq-check
zynq-kernel-bg:
	@tests/zynq/build-kernel --bg 6.1 5.10

zynq-kernel:
	@tests/zynq/build-kernel $(ZYNQ_KVER)

zynq-check:
	@mkdir -p $(RESULTS) $(ZYNQ_DIR); log=$(RESULTS)/$(ZYNQ_NAME).log; : > $$log; \
	t0=$$(date +%s); \
	if ! kb=$$(tests/zynq/build-kernel $(ZYNQ_KVER)); then \
		echo "not ok 1 $(ZYNQ_NAME)-host.kernel_build" >> $$log; \
		scripts/tally $(ZYNQ_NAME) $$log $(RESULTS); exit 1; \
	fi; \
	echo "$(ZYNQ_NAME): kernel $$kb (waited $$(( $$(date +%s) - t0 )) s)"; \
	if ! ko=$$(ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- \
		tests/vm/build-module $$kb $(ZYNQ_DIR)/module $(RESULTS)/$(ZYNQ_NAME)-build.log); then \
		echo "not ok 1 $(ZYNQ_NAME)-host.module_build_sparse_clean" >> $$log; \
		scripts/tally $(ZYNQ_NAME) $$log $(RESULTS); exit 1; \
	fi; \
	status=0; \
	ZYNQ_HOST_ONLY='$(ZYNQ_HOST_ONLY)' tests/zynq/cross-build $(ZYNQ_XBUILD) $(ZYNQ_SUITES) > $(ZYNQ_DIR)/cross.tap || status=1; \
	t1=$$(date +%s); \
	ZYNQ_MODNAME=$$(basename $$ko .ko) ZYNQ_SIM_ARGS='$(ZYNQ_SIM_ARGS)' \
	ZYNQ_REFUSE_RE='$(ZYNQ_REFUSE_RE)' ZYNQ_DTSI='$(ZYNQ_DTSI)' \
	ZYNQ_TTPU_RUN=$(ZYNQ_XBUILD)/bin/ttpu-run ZYNQ_TIMEOUT=$(ZYNQ_TIMEOUT) \
	ZYNQ_IRQ_ARGS='$(ZYNQ_IRQ_ARGS)' ZYNQ_IRQ_TESTS='$(ZYNQ_IRQ_TESTS)' \
	ZYNQ_IRQ_TIMEOUT=$(ZYNQ_IRQ_TIMEOUT) \
	ZYNQ_TIMING_ARGS='$(ZYNQ_TIMING_ARGS)' ZYNQ_TIMING_TESTS='$(ZYNQ_TIMING_TESTS)' \
	ZYNQ_TIMING_TIMEOUT=$(ZYNQ_TIMING_TIMEOUT) \
		tests/zynq/run $$kb $$ko $(ZYNQ_DIR) $$log \
		$$(sed 's/ /=/' $(ZYNQ_XBUILD)/bins.list) || status=1; \
	cat $(ZYNQ_DIR)/cross.tap >> $$log; \
	echo "$(ZYNQ_NAME): boot + tests $$(( $$(date +%s) - t1 )) s, console log $$log"; \
	scripts/tally $(ZYNQ_NAME) $$log $(RESULTS) || status=1; \
	exit $$status

CHECK_TARGETS += zynq-check
