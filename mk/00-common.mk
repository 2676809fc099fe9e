# SPDX-License-Identifier: MIT
# Shared by the mk/*.mk fragments.
#
# Each test fragment appends its suite's target to CHECK_TARGETS. A suite
# target runs its tests, keeps the full log in $(RESULTS)/<suite>.log and
# tallies it with scripts/tally, which writes $(RESULTS)/<suite>.tally and
# fails when any test failed. `make check` runs every suite and prints the
# total as "N passed, N failed, N skipped".

RESULTS := $(BUILD)/results
CHECK_TARGETS :=

# kselftest_harness.h and friends, from Debian's linux-source-6.1 (cached,
# never copied into the repository).
KSELFTEST_DIR = $(shell scripts/kernel-source 'tools/testing/selftests/kselftest*.h')/tools/testing/selftests

# $(call run-suite,SUITE,BINARIES,PREFIX[,SHOW]): a suite target's recipe.
# Runs each binary from the top of the tree as "PREFIX binary" (environment
# and wrapper such as valgrind), all output in $(RESULTS)/SUITE.log, keeps
# going after a failure and records a binary's non-zero exit (a crash too) as
# a failed test; prints the log lines matching SHOW (default: failures),
# tallies, and fails when anything failed.
define run-suite
@mkdir -p $(RESULTS)
@log=$(RESULTS)/$(1).log; : > $$log; status=0; \
for t in $(2); do \
	echo "# $$t" >> $$log; \
	$(3) $$t >> $$log 2>&1; rc=$$?; \
	if [ $$rc -ne 0 ]; then \
		echo "not ok 0 $$t exited with status $$rc" >> $$log; status=1; \
	fi; \
done; \
grep -E '$(or $(4),^not ok)' $$log | sed 's/^/$(1): /' || true; \
scripts/tally $(1) $$log $(RESULTS) || status=1; \
exit $$status
endef

# tests/lib/*.c: what the suites share, one concern per file. TESTLIB_DEV
# (the device under test: node, debugfs knobs, stats) is plain C that the
# UAPI suites build in with their own flags; TESTLIB_RUN (running ttpu-run)
# needs json-c; TESTLIB_MODEL (board time with one ruler: the model's CPU
# share and the C++ host's sequence on it) is plain C over TESTLIB_DEV.
# Compiled per BUILD, so ttpu-run's default path is this
# build's (the VMs' static builds find theirs under /src).
TESTLIB_DEV_SRC := tests/lib/npukit_dev.c
TESTLIB_DEV  = $(BUILD)/obj/tests/lib/npukit_dev.o
TESTLIB_RUN  = $(BUILD)/obj/tests/lib/proc_run.o
TESTLIB_MODEL = $(BUILD)/obj/tests/lib/board_model.o
$(BUILD)/obj/tests/lib/%.o: tests/lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DTTPU_RUN_BUILT='"$(TTPU_RUN)"' -MMD -MP -c -o $@ $<
-include $(wildcard $(BUILD)/obj/tests/lib/*.d)

# The flags of a suite built with ASan+UBSan: any error ends the run.
SAN_ENV := env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# $(eval $(call check-pair,SUITE,RUN_TARGET,PREFIX[,SAN_ARGS])): the two
# suite targets of a userspace test fragment. check-SUITE runs RUN_TARGET
# with PREFIX_SUITE=SUITE; check-SUITE-san runs it again built with ASan and
# UBSan into $(BUILD)/san, as suite SUITE-san, each binary wrapped in
# $(SAN_ENV) through PREFIX_WRAP, plus SAN_ARGS (make variables). Both join
# CHECK_TARGETS.
define check-pair
.PHONY: check-$(1) check-$(1)-san
check-$(1):
	@$$(MAKE) --no-print-directory $(2) $(3)_SUITE=$(1)

check-$(1)-san:
	@$$(MAKE) --no-print-directory SAN=1 BUILD=$$(BUILD)/san \
		RESULTS=$$(abspath $$(RESULTS)) $(2) $(3)_SUITE=$(1)-san \
		$(3)_WRAP='$$(SAN_ENV)' $(4)

CHECK_TARGETS += check-$(1) check-$(1)-san
endef
