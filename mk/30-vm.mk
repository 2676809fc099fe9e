# SPDX-License-Identifier: MIT
# The driver in an x86 VM: Debian's 6.1 kernel (the ABI of the installed
# linux-headers-amd64) under qemu-system-x86_64 TCG, a busybox initramfs,
# the module with the simulated NpuKit, every test binary of the initramfs.
#
#   make vm-check       suite "vm": module (with sparse), tests, boot, tally
#   make bench-driver   the driver benchmark in the same VM, figures printed
#   make uapi-tests     the UAPI suites for this machine (they SKIP without
#                       /dev/npukit0; run them on a board by hand)
#   make check-uapi     run them here (suite "uapi")
#
# tests/vm/ holds the pieces (fetch-kernel, build-module, build-initramfs,
# init, run-qemu, check-console); this file only wires them. The VM fails
# on any failed test, a missing result line or a kernel splat.

VM_DIR      := $(BUILD)/vm
UAPI_DIR    := tests/uapi
UAPI_TESTS  := $(sort $(patsubst $(UAPI_DIR)/%.c,%,$(wildcard $(UAPI_DIR)/*_test.c)))
# The harness defines its fixture functions without prototypes.
UAPI_CFLAGS  = -std=c11 -D_GNU_SOURCE $(WARN) -Wno-missing-prototypes -O2 -g -Iuapi -isystem $(KSELFTEST_DIR)
BENCHD_DIR  := tests/bench-driver
BUSYBOX     ?= /bin/busybox
# The simulated NpuKit, two instances (/dev/npukit0 and 1): npukit_sim.ko's
# module parameters (driver/npukit_sim_main.c), loaded after npukit.ko.
VM_MODARGS  ?= sim_devices=2
VM_INSTANCES ?= 2
# Simulated devices reading a wrong ID: probe must fail, the module stay sane.
VM_MODARGS_BAD ?= sim_devices=1 sim_bad_id=1
# After the first pass, reload with these too and rerun VM_RERUN_SUITES
# (tests/vm/init): sim_irq=1 runs them with the simulated DMA interrupts.
VM_RERUN_MODARGS ?= sim_irq=1
VM_RERUN_ARGS = $(if $(VM_RERUN_MODARGS),--env NPUKIT_VM_RERUN_MODARGS=$(VM_RERUN_MODARGS) \
	--env NPUKIT_VM_RERUN_SUITES=$(1))
# vm-check's last pass (tests/vm/init): reload with the simulator's worst
# bus and DMA timing (driver/npukit_sim.h, struct npukit_sim_timing) and
# rerun the UAPI suites and the engine's, each binary within
# VM_TIMING_TIMEOUT s. VM_TIMING_MODARGS= skips the pass.
VM_TIMING_MODARGS ?= sim_idle_lag=100 sim_overtake=20 sim_first_beat=0 sim_npu_lag=100
VM_TIMING_SUITES  ?= uapi engine
VM_TIMING_TIMEOUT ?= 120
VM_COMMA := ,
VM_TIMING_ARGS = $(if $(strip $(VM_TIMING_MODARGS)),\
	--env NPUKIT_VM_TIMING_MODARGS=$(subst $(eval) ,$(VM_COMMA),$(strip $(VM_TIMING_MODARGS))) \
	--env NPUKIT_VM_TIMING_SUITES=$(subst $(eval) ,$(VM_COMMA),$(VM_TIMING_SUITES)) \
	--env NPUKIT_VM_TIMING_TIMEOUT=$(VM_TIMING_TIMEOUT))
# Boot plus every suite; TCG on a shared 2-core machine. At a load of 15 the
# guest had run for 227 s, 150 of them in the runtime suite, and had the
# interrupt and worst-timing passes still to go: sized, like ZYNQ_TIMEOUT,
# for a loaded machine, so that only a hung guest reaches it.
VM_TIMEOUT  ?= 900
# Other suites' binaries that go into the VM: "NAME:MAKE_TARGET:VARIABLE"
# builds MAKE_TARGET statically with BUILD=$(VM_DIR)/static-NAME (relative,
# so paths compiled in resolve under /src in the VM, where VM_DATA entries
# are packed) and copies the files $(VARIABLE) names,
# except those named in VM_SKIP (test_gen runs python3, cli_valgrind_test
# valgrind: neither is in the VM; test_binary_mutate checks the loader alone,
# natively, under the sanitizers and valgrind, and its precise check plans
# mutated programs whose buffers a 512 MB guest cannot hold).
# In the VM ttpu-run and the runtime find /dev/npukit0: their tests run
# through the driver and the simulated NpuKit.
VM_EXTRA    ?= runtime:runtime-tests:RT_BINS cli:cli-tests:CLI_TEST_BINS
VM_SKIP     ?= test_gen cli_valgrind_test test_binary_mutate
VM_DATA     ?= tests/runtime/data tests/gen tests/cli/data examples
VM_ENV      ?= TTPU_RUN=/src/bin/ttpu-run TTPU_CLI_DATA=tests/cli/data

# Host (dynamic) and VM (static) builds of the UAPI suites, each with the
# device access of tests/lib (TESTLIB_DEV_SRC: plain C, these flags).
UAPI_DEPS := $(UAPI_DIR)/npukit_test.h $(UAPI_DIR)/npukit_ref.h uapi/npukit.h \
	$(TESTLIB_DEV_SRC) $(TESTLIB_DEV_SRC:.c=.h) tests/lib/npukit_need.h
$(BUILD)/tests/uapi/%: $(UAPI_DIR)/%.c $(UAPI_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(UAPI_CFLAGS) -o $@ $< $(TESTLIB_DEV_SRC)
$(VM_DIR)/tests/uapi/%: $(UAPI_DIR)/%.c $(UAPI_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(UAPI_CFLAGS) -static -o $@ $< $(TESTLIB_DEV_SRC)
# The driver benchmark, with the device access and the board-time model
# client of tests/lib.
BENCHD_LIB := $(TESTLIB_DEV_SRC) tests/lib/board_model.c
$(VM_DIR)/tests/bench/%: $(BENCHD_DIR)/%.c $(UAPI_DIR)/npukit_test.h uapi/npukit.h \
		$(BENCHD_LIB) $(BENCHD_LIB:.c=.h)
	@mkdir -p $(dir $@)
	$(CC) $(UAPI_CFLAGS) -I$(UAPI_DIR) -static -o $@ $< $(BENCHD_LIB)

.PHONY: uapi-tests check-uapi vm-check bench-driver vm-print-%
uapi-tests: $(UAPI_TESTS:%=$(BUILD)/tests/uapi/%)

check-uapi: uapi-tests
	@mkdir -p $(RESULTS); log=$(RESULTS)/uapi.log; : > $$log; status=0; \
	for t in $(UAPI_TESTS:%=$(BUILD)/tests/uapi/%); do \
		$$t >> $$log 2>&1 || { echo "not ok 0 $$t exited with status $$?" >> $$log; status=1; }; \
	done; \
	scripts/tally uapi $$log $(RESULTS) || status=1; exit $$status

vm-print-%:
	@echo $($*)

# Static builds of other suites, best effort: a suite that does not build
# yet is left out with a note rather than blocking the driver's tests.
$(VM_DIR)/extra.args: FORCE
	@mkdir -p $(VM_DIR); : > $@.tmp; rm -rf $(VM_DIR)/extra; \
	b=$(VM_DIR)/static-ttpu-run; \
	if $(MAKE) -s --no-print-directory BUILD=$$b LDFLAGS=-static $(TTPU_RUN:$(BUILD)/%=$$b/%) \
			>$$b.log 2>&1; then \
		echo "--file $(TTPU_RUN:$(BUILD)/%=$$b/%)=src/bin/ttpu-run" >> $@.tmp; \
	fi; \
	for e in $(VM_EXTRA); do \
		name=$${e%%:*}; rest=$${e#*:}; target=$${rest%%:*}; var=$${rest#*:}; \
		b=$(VM_DIR)/static-$$name; \
		if $(MAKE) -s --no-print-directory BUILD=$$b LDFLAGS=-static $$target \
				>$(VM_DIR)/static-$$name.log 2>&1; then \
			mkdir -p $(VM_DIR)/extra/$$name; \
			for f in $$($(MAKE) -s --no-print-directory BUILD=$$b vm-print-$$var); do \
				case " $(VM_SKIP) " in *" $$(basename $$f) "*) continue ;; esac; \
				cp $$f $(VM_DIR)/extra/$$name/; \
			done; \
			echo "$$name=$(VM_DIR)/extra/$$name" >> $@.tmp; \
		else \
			echo "vm: $$name tests do not build statically, left out (see $(VM_DIR)/static-$$name.log)"; \
		fi; \
	done; \
	for d in $(VM_DATA); do [ -d $$d ] && echo "--data $$d" >> $@.tmp; done; \
	for e in $(VM_ENV); do echo "--env $$e" >> $@.tmp; done; \
	mv $@.tmp $@
FORCE:

# vm-run VM_SUITE=... VM_TESTS="NAME=PATH ..." [VM_WITH_EXTRA=1]
.PHONY: vm-run
vm-run: $(UAPI_TESTS:%=$(VM_DIR)/tests/uapi/%) $(if $(VM_WITH_EXTRA),$(VM_DIR)/extra.args)
	@mkdir -p $(RESULTS); set -e; \
	set -- $$(tests/vm/fetch-kernel); kver=$$1 vmlinuz=$$2 kdir=$$3; \
	echo "vm: Debian kernel $$kver, module with sparse"; \
	ko=$$(tests/vm/build-module $$kdir $(VM_DIR)/module $(RESULTS)/$(VM_SUITE)-build.log); \
	NPUKIT_VM_MODARGS_BAD="$(VM_MODARGS_BAD)" tests/vm/build-initramfs $(VM_DIR)/$(VM_SUITE).cpio.gz $(BUSYBOX) $$ko \
		"$(VM_MODARGS)" $(VM_INSTANCES) $(VM_TESTS) \
		$(if $(VM_WITH_EXTRA),$$(cat $(VM_DIR)/extra.args)); \
	log=$(RESULTS)/$(VM_SUITE).log; start=$$(date +%s); status=0; \
	tests/vm/run-qemu $$vmlinuz $(VM_DIR)/$(VM_SUITE).cpio.gz $$log $(VM_TIMEOUT) || \
		echo "vm: qemu exited with status $$? (124: timeout after $(VM_TIMEOUT) s)"; \
	echo "vm: boot + tests $$(( $$(date +%s) - start )) s, console log $$log"; \
	if ! tests/vm/check-console $$log 2>$$log.cc; then status=1; \
		echo "not ok 900 $(VM_SUITE)-host.console_clean # $$(head -n 1 $$log.cc)" >>$$log; fi; \
	cat $$log.cc >&2; rm -f $$log.cc; \
	scripts/tally $(VM_SUITE) $$log $(RESULTS) || status=1; \
	exit $$status

vm-check:
	@$(MAKE) --no-print-directory vm-run VM_SUITE=vm VM_WITH_EXTRA=1 \
		VM_TESTS="uapi=$(VM_DIR)/tests/uapi $(call VM_RERUN_ARGS,uapi) $(VM_TIMING_ARGS)"

bench-driver: $(VM_DIR)/tests/bench/bench_driver
	@$(MAKE) --no-print-directory vm-run VM_SUITE=bench-driver \
		VM_TESTS="bench=$(VM_DIR)/tests/bench/bench_driver $(call VM_RERUN_ARGS,bench)"; status=$$?; \
	sed -n -e 's/^# bench: //p' -e 's/^# npukit-vm: \(rerun with .*\)/--- \1 ---/p' $(RESULTS)/bench-driver.log; exit $$status

CHECK_TARGETS += vm-check
